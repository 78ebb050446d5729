import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderSync

@Suite struct RecordMappingTests {
    let mapping = RecordMapping()

    func roundTrip(_ value: Value, type: RecordType?) throws -> Value {
        let fields = try mapping.fields(of: value, type: type)
        let record = Record(
            recordName: "x", recordType: type?.rawValue ?? "thing", fields: fields.mapValues(RecordField.init))
        return try mapping.value(of: record, type: type)
    }

    @Test("every sample record comes back from CloudKit fields unchanged")
    func samplesRoundTrip() throws {
        for (file, type) in [
            ("recipes.json", RecordType.recipe), ("brew-logs.json", .brewLog), ("brew-recipes.json", .brewRecipe),
        ] {
            let reader = try RecordIO.openReader(path: CLI.packageRoot.appendingPathComponent("samples/\(file)").path)
            var count = 0
            while let item = try reader.next() {
                let back = try roundTrip(item.value, type: type)
                #expect(Semantic.equal(back, item.value), "\(file) record \(item.index)")
                count += 1
            }
            #expect(count > 0)
        }
    }

    @Test("fields are typed the way CloudKit types them")
    func fieldTypes() throws {
        let recipe = TestRecords.recipes(1)[0]
        let fields = try mapping.fields(of: recipe, type: .recipe)
        #expect(fields["title"]?.type == .string)
        #expect(fields["servings"]?.type == .int64)
        #expect(fields["createdAt"] == .timestamp(1_704_103_200_000))
        #expect(fields["isPublic"] == .int64(1))
        #expect(fields["tags"]?.type == FieldType.string.listType)
        #expect(fields["dietaryNotes"] == .list(elementType: .string, []))
        #expect(fields["ingredients"]?.type == .string)  // nested objects travel as JSON text
        #expect(fields[RecordMapping.hintsField] == nil)  // the recipe shape settles every kind
    }

    @Test("kinds the CloudKit type cannot tell apart are recorded in the hints and restored")
    func hintsRestoreAmbiguousKinds() throws {
        let odd: Value = [
            "id": "o-1", "flag": true, "flags": [true, false], "nested": ["a": 1, "b": [1.5, "x"]], "nothing": nil,
            "mixed": [1, 2.5], "stampedAt": "2024-03-01T10:00:00+02:00", "plainAt": "2024-03-01T10:00:00Z",
            "plain": "2024-03-01T10:00:00Z",
        ]
        let fields = try mapping.fields(of: odd, type: nil)
        let hints = try #require(fields[RecordMapping.hintsField])
        guard case .string(let text) = hints else {
            Issue.record("hints are not text")
            return
        }
        #expect(text.contains("\"flag\":\"bool\""))
        #expect(text.contains("\"nothing\":\"null\""))
        #expect(text.contains("\"stampedAt\":\"text:2024-03-01T10:00:00+02:00\""))
        #expect(fields["stampedAt"] == .timestamp(1_709_280_000_000))
        #expect(fields["plainAt"] == .timestamp(1_709_287_200_000))
        #expect(!text.contains("plainAt"))
        #expect(fields["plain"]?.type == .string)  // only members named …At become timestamps
        let back = try roundTrip(odd, type: nil)
        #expect(Semantic.equal(back, odd))
        #expect(back["flags"] == [true, false])
        #expect(back["mixed"] == [1, 2.5])
    }

    @Test("a number the shape calls any number comes back as the integer it was")
    func integerInNumberField() throws {
        var log = try #require(
            try RecordIO.openReader(path: CLI.packageRoot.appendingPathComponent("samples/brew-logs.json").path).next()
        ).value
        guard case .object(var members) = log else { return }
        members["doseGrams"] = .int(15)
        log = .object(members)
        let fields = try mapping.fields(of: log, type: .brewLog)
        #expect(fields["doseGrams"] == .double(15))
        #expect(try roundTrip(log, type: .brewLog)["doseGrams"] == .int(15))
    }

    @Test("record names: the record's own, else TYPE-ID, else a hash for ids CloudKit cannot carry")
    func recordNames() throws {
        #expect(try RecordMapping.recordName(for: ["id": "a", "recordName": "custom-1"], type: "recipe") == "custom-1")
        #expect(try RecordMapping.recordName(for: ["id": "abc-1"], type: "recipe") == "recipe-abc-1")
        let unicode = try RecordMapping.recordName(for: ["id": "crème brûlée"], type: "recipe")
        #expect(unicode.hasPrefix("recipe-h") && unicode.count == "recipe-h".count + 32)
        #expect(try RecordMapping.recordName(for: ["id": "crème brûlée"], type: "recipe") == unicode)
        #expect(throws: MappingError.self) { try RecordMapping.recordName(for: ["title": "no id"], type: "recipe") }
        #expect(throws: MappingError.self) {
            try RecordMapping.recordName(for: ["id": "a", "recordName": "bad name"], type: "recipe")
        }
    }

    @Test("refuses field names CloudKit cannot hold and the reserved hints name")
    func refusesBadFieldNames() {
        #expect(throws: MappingError.self) { try mapping.fields(of: ["id": "a", "two words": 1], type: nil) }
        #expect(throws: MappingError.self) { try mapping.fields(of: ["id": "a", "_private": 1], type: nil) }
        #expect(throws: MappingError.self) {
            try mapping.fields(of: ["id": "a", RecordMapping.hintsField: "x"], type: nil)
        }
        #expect(throws: MappingError.self) { try mapping.fields(of: ["id": "a", "n": .double(.nan)], type: nil) }
    }

    @Test("the change tag member travels as recordChangeTag, not as a field")
    func changeTagIsNotAField() throws {
        let fields = try mapping.fields(of: ["id": "a", "title": "t", "changeTag": "e7"], type: .recipe)
        #expect(fields["changeTag"] == nil)
    }

    @Test("the digest ignores field order and how the server spells numbers")
    func digestIsSemantic() {
        let ours: [String: FieldValue] = ["q": .double(200), "n": .int64(3), "t": .timestamp(1000)]
        let wire: [String: RecordField] = [
            "t": RecordField(value: .int(1000), type: .timestamp), "q": RecordField(value: .int(200), type: .double),
            "n": RecordField(value: .int(3), type: .int64),
        ]
        #expect(
            FieldsDigest.make(recordType: "recipe", fields: ours)
                == FieldsDigest.make(recordType: "recipe", wireFields: wire))
        #expect(
            FieldsDigest.make(recordType: "recipe", fields: ours)
                != FieldsDigest.make(recordType: "brewLog", fields: ours))
        #expect(
            FieldsDigest.make(recordType: "r", fields: ["a": .string("x")])
                != FieldsDigest.make(recordType: "r", fields: ["a": .list(elementType: .string, [.string("x")])]))
    }

    @Test(
        "the digest of every field type is pinned, in both versions: journals written by earlier builds keep matching")
    func digestIsStable() {
        let fields: [String: FieldValue] = [
            "title": .string("Crème brûlée \u{1F36E}"), "servings": .int64(-4), "rating": .double(4.25),
            "whole": .double(200), "updatedAt": .timestamp(1_700_000_000_123), "blob": .bytes("AAEC"),
            "book": .reference(Reference(recordName: "book-1", action: "NONE")),
            "photo": .asset(.object(Fields([Field(key: "fileChecksum", value: .string("c2hh"))]))),
            "where": .location(Location(latitude: 48.85, longitude: 2.35)),
            "tags": .list(elementType: .string, [.string("a"), .string("")]),
            "steps": .list(elementType: .int64, []),
        ]
        // Version 1, which journals of earlier builds hold.
        #expect(FieldsDigest.legacy(recordType: "recipe", fields: fields) == "5b7802aa76cf03b08e073120519004b3")
        #expect(FieldsDigest.legacy(recordType: "", fields: [:]) == "e3b0c44298fc1c149afbf4c8996fb924")
        // Version 2: over the encoded fields.
        #expect(FieldsDigest.make(recordType: "recipe", fields: fields) == "9b50a2bb52a760c64782b7b1db7ea1b2")
        #expect(FieldsDigest.make(recordType: "", fields: [:]) == "b8798ce1d8071e0665925bc9f101d832")
        var withReceipt = fields
        withReceipt["photo"] = .asset(Asset(fileChecksum: "c2hh", size: 3, receipt: "r").jsonValue)
        #expect(FieldsDigest.make(recordType: "recipe", fields: withReceipt) == "9b50a2bb52a760c64782b7b1db7ea1b2")
    }

    @Test("merge keeps fields one side has and takes the newer version where both differ")
    func fieldMerge() {
        let ours: [String: FieldValue] = [
            "title": .string("mine"), "servings": .int64(2), "updatedAt": .timestamp(2000), "note": .string("local"),
        ]
        let server: [String: FieldValue] = [
            "title": .string("theirs"), "servings": .int64(2), "updatedAt": .timestamp(1000), "rating": .int64(5),
        ]
        let merged = FieldMerge.merge(ours: ours, server: server)
        #expect(merged["title"] == .string("mine"))
        #expect(merged["note"] == .string("local"))
        #expect(merged["rating"] == .int64(5))
        var newer = server
        newer["updatedAt"] = .timestamp(3000)
        let second = FieldMerge.merge(ours: ours, server: newer)
        #expect(second["title"] == .string("theirs"))
        #expect(second["note"] == .string("local"))
    }
}
