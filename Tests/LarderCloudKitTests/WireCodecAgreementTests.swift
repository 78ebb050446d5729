import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import Testing

/// The fast wire codec (``WireEncoder``, ``WireDecoder``) against Foundation's `Codable` round trip
/// of the same wire types, over seeded random values: the emulator and the client use the fast
/// pair, so a drift between it and the types' `Codable` conformances would be a silent protocol
/// break.
///
/// Each failure names its seed and sample index.
@Suite struct WireCodecAgreementTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]

    /// Checks one value both ways:
    /// (a) the fast encoder's bytes decode with `JSONDecoder` to what `JSONEncoder`'s bytes decode to;
    /// (b) the fast decoder reads `JSONEncoder`'s bytes back to the value, and the fast pair round-trips it.
    ///
    /// Equality is JSON equality: both sides are compared as `JSONEncoder` with sorted keys writes them,
    /// because a `Value` object's key order is not part of JSON (Foundation does not keep it).
    static func expectAgreement<T: WireEncodable & Codable>(_ value: T, _ label: @autoclosure () -> String) throws {
        let fast = try WireEncoder.encode(value)
        let codable = try JSONEncoder().encode(value)
        let fromFast = try JSONDecoder().decode(T.self, from: Data(fast))
        let fromCodable = try JSONDecoder().decode(T.self, from: codable)
        #expect(
            try canonical(fromFast) == canonical(fromCodable),
            "(a) \(label()): \(String(decoding: fast, as: UTF8.self))")
        let wireFromCodable = try WireDecoder().decode(T.self, from: codable)
        #expect(
            try canonical(wireFromCodable) == canonical(value),
            "(b) \(label()): \(String(decoding: codable, as: UTF8.self))")
        #expect(try canonical(WireDecoder().decode(T.self, from: fast)) == canonical(value), "round trip \(label())")
    }

    /// The parsed JSON document in `bytes`.
    static func parse(_ bytes: [UInt8]) throws -> Value {
        try bytes.withUnsafeBytes { try JSONScanner.parseDocument($0) }
    }

    static func canonical(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("records with fields of every type agree with Codable", arguments: seeds)
    func recordsOfEveryFieldType(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        for index in 0..<150 {
            try Self.expectAgreement(samples.record(), "seed \(seed) record \(index)")
        }
    }

    @Test("a typed field value writes the same bytes directly as through its RecordField", arguments: seeds)
    func fieldValueBytesMatchRecordField(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        for type in WireSamples.everyFieldType {
            for index in 0..<20 {
                let value = samples.fieldValue(type)
                let direct = try WireEncoder.encode(value)
                let viaRecordField = try WireEncoder.encode(value.recordField)
                #expect(
                    direct == viaRecordField,
                    "seed \(seed) \(type.rawValue) #\(index): \(String(decoding: direct, as: UTF8.self))")
            }
        }
        // A whole record's fields, sorted by name, as the emulator stores them.
        let fields = Dictionary(
            uniqueKeysWithValues: WireSamples.everyFieldType.map { ($0.rawValue, samples.fieldValue($0)) })
        #expect(try WireEncoder.encode(fields) == WireEncoder.encode(fields.mapValues(\.recordField)))
    }

    @Test("each field type and its list agree with Codable, typed values intact", arguments: seeds)
    func everyFieldType(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        for type in WireSamples.everyFieldType {
            for index in 0..<20 {
                let value = samples.fieldValue(type)
                let field = RecordField(value)
                try Self.expectAgreement(field, "seed \(seed) \(type.rawValue) \(index)")
                let decoded = try WireDecoder().decode(RecordField.self, from: WireEncoder.encode(field))
                #expect(
                    try FieldValue(value: decoded.value, type: try #require(decoded.type)) == value,
                    "seed \(seed) \(type.rawValue) \(index)")
            }
        }
    }

    @Test("request bodies agree with Codable: modify, query, lookup, changes, zones, share links", arguments: seeds)
    func requests(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        for index in 0..<40 {
            let label = "seed \(seed) sample \(index)"
            try Self.expectAgreement(samples.modifyRequest(), "modify \(label)")
            try Self.expectAgreement(samples.queryRequest(), "query \(label)")
            try Self.expectAgreement(samples.lookupRequest(), "lookup \(label)")
            try Self.expectAgreement(samples.recordChangesRequest(), "records/changes \(label)")
            try Self.expectAgreement(samples.zoneChangesRequest(), "changes/zone \(label)")
            try Self.expectAgreement(
                DatabaseChangesRequest(syncToken: index % 2 == 0 ? nil : "t\(index)", resultsLimit: index),
                "changes/database \(label)")
            try Self.expectAgreement(
                ZonesLookupRequest(zones: [samples.zoneID(), samples.zoneID()]), "zones/lookup \(label)")
            try Self.expectAgreement(
                ZonesModifyRequest(operations: [
                    .init(operationType: "create", zoneID: samples.zoneID()),
                    .init(operationType: "delete", zoneID: samples.zoneID()),
                ]),
                "zones/modify \(label)")
            try Self.expectAgreement(
                ShortGUIDsRequest(shortGUIDs: [samples.text(), "guid\(index)"]), "records/accept \(label)")
        }
    }

    @Test("the fast modify-request reader agrees with the Decodable path, or leaves the input to it", arguments: seeds)
    func fastModifyReader(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        for index in 0..<60 {
            let request = samples.modifyRequest()
            let json = try Self.parse(Array(try JSONEncoder().encode(request)))
            let full = try ValueDecoder().decode(ModifyRecordsRequest.self, from: json)
            if let fast = ModifyRecordsRequest(fastFrom: json) {
                #expect(try Self.canonical(fast) == Self.canonical(full), "seed \(seed) sample \(index)")
            }
        }
        // The plain shape an uploader sends is read by the fast path.
        let plain =
            #"{"operations":[{"operationType":"forceUpdate","record":{"recordName":"r1","recordType":"recipe","fields":{"title":{"value":"Soup","type":"STRING"},"n":{"value":2}}}}],"zoneID":{"zoneName":"z"},"atomic":false,"desiredKeys":[]}"#
        let plainJSON = try Self.parse(Array(plain.utf8))
        let fast = try #require(ModifyRecordsRequest(fastFrom: plainJSON))
        #expect(
            try Self.canonical(fast)
                == Self.canonical(ValueDecoder().decode(ModifyRecordsRequest.self, from: plainJSON)))
        // What it leaves to the full path: parents, a stamp of another shape, the older ownerName, wrong kinds.
        for leftOver in [
            #"{"operations":[{"operationType":"create","record":{"recordName":"r","parent":{"recordName":"p"}}}]}"#,
            #"{"operations":[{"operationType":"create","record":{"recordName":"r","created":{"timestamp":1.5,"userRecordName":"u","deviceID":"d"}}}]}"#,
            #"{"operations":[],"zoneID":{"zoneName":"z","ownerName":"o"}}"#,
            #"{"operations":[{"operationType":"create","record":{"recordName":7}}]}"#,
        ] {
            #expect(ModifyRecordsRequest(fastFrom: try Self.parse(Array(leftOver.utf8))) == nil, "\(leftOver)")
        }
    }

    @Test("the fast records-answer reader agrees with the Decodable path, or leaves the input to it", arguments: seeds)
    func fastRecordsAnswerReader(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        var read = 0
        for index in 0..<80 {
            // Half the samples without per-record errors, so the fast path gets to read them.
            let results = samples.recordResults().filter { index % 2 == 0 || $0.record != nil }
            let json = try Self.parse(Array(try JSONEncoder().encode(RecordsResponse(records: results))))
            let full = try ValueDecoder().decode(RecordsResponse.self, from: json)
            if let fast = RecordsResponse(fastFrom: json) {
                read += 1
                #expect(try Self.canonical(fast) == Self.canonical(full), "seed \(seed) sample \(index)")
            }
        }
        #expect(read > 0, "the fast path read none of the samples")
        // The answer an upload gets back is read by the fast path.
        let plain =
            #"{"records":[{"recordName":"r1","recordType":"recipe","recordChangeTag":"t1","#
            + #""fields":{"title":{"value":"Soup","type":"STRING"}},"#
            + #""created":{"timestamp":1700000000000,"userRecordName":"_u","deviceID":"d"},"#
            + #""modified":{"timestamp":1700000000001,"userRecordName":"_u","deviceID":"d"},"#
            + #""deleted":false,"zoneID":{"zoneName":"z","ownerRecordName":"_u"},"pluginFields":{}}]}"#
        let plainJSON = try Self.parse(Array(plain.utf8))
        let fast = try #require(RecordsResponse(fastFrom: plainJSON))
        let full = try ValueDecoder().decode(RecordsResponse.self, from: plainJSON)
        #expect(try Self.canonical(fast) == Self.canonical(full))
        #expect(fast.records.first?.record?.modified?.timestamp == 1_700_000_000_001)
        // What it leaves to the full path: a per-record error, a stamp of another shape.
        for leftOver in [
            #"{"records":[{"recordName":"r","serverErrorCode":"CONFLICT","reason":"x","uuid":"u"}]}"#,
            #"{"records":[{"recordName":"r","modified":{"timestamp":"1","userRecordName":"u","deviceID":"d"}}]}"#,
            #"{"records":[{"recordName":"r","created":{"timestamp":1,"userRecordName":"u"}}]}"#,
            #"{"records":{"recordName":"r"}}"#,
        ] {
            #expect(RecordsResponse(fastFrom: try Self.parse(Array(leftOver.utf8))) == nil, "\(leftOver)")
        }
    }

    @Test("answers and error results agree with Codable", arguments: seeds)
    func answers(seed: UInt64) throws {
        var samples = WireSamples(seed: seed)
        for index in 0..<40 {
            let label = "seed \(seed) sample \(index)"
            try Self.expectAgreement(RecordsResponse(records: samples.recordResults()), "records \(label)")
            try Self.expectAgreement(
                QueryResponse(
                    records: samples.recordResults(), continuationMarker: index % 2 == 0 ? nil : samples.text()),
                "query \(label)")
            try Self.expectAgreement(
                RecordChangesResponse(
                    records: samples.recordResults(), syncToken: samples.text(), moreComing: index % 3 == 0,
                    zoneID: samples.zoneID()),
                "records/changes \(label)")
            try Self.expectAgreement(samples.zoneChangesResponse(), "changes/zone \(label)")
            try Self.expectAgreement(
                DatabaseChangesResponse(
                    zones: [samples.zone(), samples.zone()], syncToken: samples.text(), moreComing: index % 2 == 0),
                "changes/database \(label)")
            try Self.expectAgreement(
                ZonesResponse(zones: [.zone(samples.zone()), .error(samples.zoneError())]), "zones \(label)")
            try Self.expectAgreement(samples.shareMetadataResponse(), "share metadata \(label)")
            try Self.expectAgreement(
                CurrentUserResponse(
                    userRecordName: "_u\(index)", firstName: samples.text(), lastName: nil,
                    emailAddress: index % 2 == 0 ? nil : "a@b.c"),
                "users/current \(label)")
            let error = samples.recordError()
            try Self.expectAgreement(
                ErrorResponse(
                    uuid: error.uuid, serverErrorCode: error.serverErrorCode, reason: error.reason,
                    retryAfter: error.retryAfter, redirectURL: error.redirectURL),
                "error \(label)")
        }
    }

    @Test("records' fields are written sorted by name, so equal records give equal bytes")
    func fieldsAreSorted() throws {
        let fields: [String: RecordField] = [
            "b": RecordField(.int64(2)), "a": RecordField(.string("x")), "c": RecordField(.double(0.5)),
        ]
        let record = Record(recordName: "r", recordType: "T", fields: fields)
        let text = String(decoding: try WireEncoder.encode(record), as: UTF8.self)
        #expect(
            text
                == #"{"recordName":"r","recordType":"T","fields":{"a":{"value":"x","type":"STRING"},"b":{"value":2,"type":"INT64"},"c":{"value":0.5,"type":"DOUBLE"}}}"#
        )
    }

    @Test("the encoder refuses numbers JSON cannot hold")
    func refusesNonFiniteNumbers() {
        #expect(throws: LarderError.self) { try WireEncoder.encode(RecordField(.double(.nan))) }
        #expect(throws: LarderError.self) {
            try WireEncoder.encode(RecordField(value: ["latitude": .double(.infinity)], type: .location))
        }
    }

    @Test("the decoder names the line and column of malformed JSON and the coding path of a mismatch")
    func decoderErrors() throws {
        do {
            _ = try WireDecoder(name: "answer").decode(RecordsResponse.self, from: Array("{\"records\":\n  [1,]}".utf8))
            Issue.record("a trailing comma was accepted")
        } catch let error as LarderError {
            #expect(error.code == .syntax && error.location?.line == 2 && error.location?.column == 6, "\(error)")
            #expect(error.location?.file == "answer")
        }
        do {
            _ = try WireDecoder().decode(RecordsResponse.self, from: Array(#"{"records":[{"recordName":5}]}"#.utf8))
            Issue.record("a number for recordName was accepted")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(
                context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == [
                    "records", "0", "recordName",
                ])
        }
    }
}
