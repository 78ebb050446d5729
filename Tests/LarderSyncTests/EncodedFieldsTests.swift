import Foundation
import LarderCloudKit
import LarderCore
import LarderSamples
import Testing

@testable import LarderSync

/// The upload's one representation: a record mapped straight into encoded fields, held to the
/// dictionary path (``RecordMapping/fields(of:type:)`` written through ``TypedFields``), which stays
/// as the reference.
@Suite struct EncodedFieldsTests {
    let mapping = RecordMapping()

    /// The reference: the fields dictionary, encoded.
    func reference(_ record: Value, type: RecordType?, extra: [(name: String, value: FieldValue)] = []) throws
        -> [UInt8]
    {
        var fields = try mapping.fields(of: record, type: type)
        for (name, value) in extra { fields[name] = value }
        return try WireEncoder.encode(TypedFields(fields))
    }

    func expectAgreement(
        _ record: Value, type: RecordType?, extra: [(name: String, value: FieldValue)] = [], _ comment: String
    ) throws {
        let direct = try mapping.encodedFields(of: record, type: type, extra: extra)
        let expected = try reference(record, type: type, extra: extra)
        #expect(direct == expected, "\(comment): \(String(decoding: direct, as: UTF8.self))")
        #expect(
            TypedFields.decodeWritten(direct)
                == (try mapping.fields(of: record, type: type)).merging(
                    extra.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), "\(comment): decodes back")
        let name = "\(type?.rawValue ?? "thing")-x"
        let item = UploadItem(
            recordName: name, recordType: type?.rawValue ?? "thing", encodedFields: direct, record: record, origin: nil)
        let fromFields = UploadItem(
            recordName: name, recordType: type?.rawValue ?? "thing", fields: TypedFields.decodeWritten(expected))
        #expect(item.digest == fromFields.digest, "\(comment): digest")
    }

    @Test("generated records of every type (seeded) encode byte for byte as the dictionary path does")
    func generatedRecordsAgree() throws {
        for seed in [UInt64(11), 12, 13] {
            let generator = RecordGenerator(seed: seed)
            for type in RecordType.allCases {
                for index in 0..<300 {
                    try expectAgreement(generator.record(type, index: index), type: type, "\(type) \(seed)/\(index)")
                }
            }
        }
    }

    @Test("hints, nulls, empty and mixed lists, escapes and the images field encode as the dictionary path does")
    func edgeCasesAgree() throws {
        let records: [Value] = [
            [
                "id": "a", "note": .null, "flag": true, "flags": [true, false], "ints": [1, 2], "mixed": [1, "x"],
                "empty": [], "nested": ["a": ["b": "\"quoted\" \\ back\nslash \u{1}"]], "title": "tab\there",
                "updatedAt": "2024-01-02T10:00:00Z", "createdAt": "2024-01-02T10:00:00.5+01:00", "when": "today",
                "doubles": [1.5, 2],
            ],
            ["id": "b", "ingredients": [], "nutrition": ["calories": 12], "yield": "", "changeTag": "e1"],
            ["id": "c", "instructions": [["text": "Mix \"it\"."]], "rating": 4, "servings": 2.5],
        ]
        for (index, record) in records.enumerated() {
            for type in [RecordType?.none, .recipe, .brewLog] {
                let direct = Result { try mapping.encodedFields(of: record, type: type) }
                let expected = Result { try reference(record, type: type) }
                switch (direct, expected) {
                case (.success(let mine), .success(let theirs)):
                    #expect(mine == theirs, "record \(index) \(String(describing: type))")
                case (.failure(let mine), .failure(let theirs)): #expect("\(mine)" == "\(theirs)")
                default: Issue.record("record \(index): one path failed, the other did not")
                }
            }
        }
        let images: [(name: String, value: FieldValue)] = [
            (
                RecordMapping.imagesField,
                .list(elementType: .assetID, [.asset(Asset(fileChecksum: "c2hh").jsonValue)])
            )
        ]
        try expectAgreement(["id": "d", "title": "with images"], type: .recipe, extra: images, "images")
    }

    @Test("a record that cannot be mapped fails with the dictionary path's error, for the same member")
    func errorsAgree() {
        let records: [Value] = [
            "not an object", ["id": "a", "two words": 1], ["id": "a", RecordMapping.hintsField: "x"],
            ["id": "a", "n": .double(.nan), "_bad": 1], ["id": "a", RecordMapping.imagesField: 1],
            ["id": "a", "ü": "not a field name"],
        ]
        for record in records {
            var direct: MappingError?
            var expected: MappingError?
            do { _ = try mapping.encodedFields(of: record, type: .recipe) } catch { direct = error }
            do { _ = try mapping.fields(of: record, type: .recipe) } catch { expected = error }
            #expect(direct != nil)
            #expect(direct?.description == expected?.description)
        }
    }

    @Test("an item's fields decode from its encoding; setting them drops the encoding and keeps the digest")
    func itemFields() throws {
        let record = RecordGenerator(seed: 5).record(.recipe, index: 3)
        let encoded = try mapping.encodedFields(of: record, type: .recipe)
        var item = UploadItem(
            recordName: "recipe-x", recordType: "recipe", encodedFields: encoded, record: record, origin: nil)
        #expect(item.fields == (try mapping.fields(of: record, type: .recipe)))
        let digest = item.digest
        item.fields["title"] = .string("changed")
        #expect(item.encodedFields == nil)
        #expect(item.digest == digest)
        #expect(item.fields["title"] == .string("changed"))
    }
}
