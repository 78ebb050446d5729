import Foundation
import LarderCloudKit
import LarderCore
import Testing

@Suite struct ValueCodingTests {
    @Test("the JSON parser reads every JSON form and keeps key order")
    func parsesJSON() throws {
        let text =
            #" {"b": [1, -2.5, 1e3, true, false, null], "a": "x\"\u00e9\ud83d\ude00\n", "c": {}, "d": [], "big": 9223372036854775807} "#
        let value = try WireDecoder().decode(Value.self, from: Array(text.utf8))
        #expect(value.objectValue?.keys == ["b", "a", "c", "d", "big"])
        #expect(value["b"] == [1, -2.5, 1000.0, true, false, nil])
        #expect(value["a"] == .string("x\"é😀\n"))
        #expect(value["big"] == .int(Int64.max))
        #expect(value["c"] == .object(Fields()) && value["d"] == .array([]))
    }

    @Test("the JSON parser rejects malformed input with an offset")
    func rejectsMalformedJSON() {
        for text in ["{", "{\"a\" 1}", "[1,]", "01", "\"\\x\"", "tru", "{\"a\":1} x", "\"\u{01}\"", "[\"\\ud800\"]"] {
            let error = #expect(throws: LarderError.self, "\(text)") {
                try WireDecoder().decode(Value.self, from: Array(text.utf8))
            }
            #expect(error?.location?.line == 1 && error?.location?.column != nil, "\(text)")
        }
    }

    @Test("requests decoded through Value match JSONDecoder, and errors name the key path")
    func decodesLikeJSONDecoder() throws {
        let body =
            #"{"operations":[{"operationType":"update","record":{"recordName":"r","recordType":"T","recordChangeTag":"3","fields":{"n":{"value":2},"l":{"value":[1.5],"type":"DOUBLE_LIST"}},"zoneID":{"zoneName":"Z","ownerName":"_u"}}}],"atomic":false}"#
        let viaValue = try WireDecoder().decode(ModifyRecordsRequest.self, from: Array(body.utf8))
        let viaFoundation = try JSONDecoder().decode(ModifyRecordsRequest.self, from: Data(body.utf8))
        #expect(viaValue == viaFoundation)
        let bad = Array(#"{"operations":[{"operationType":"create","record":{"recordName":5}}]}"#.utf8)
        do {
            _ = try WireDecoder().decode(ModifyRecordsRequest.self, from: bad)
            Issue.record("a number for recordName was accepted")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(
                context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == [
                    "operations", "0", "record", "recordName",
                ])
        }
    }

    @Test("responses encoded by the wire encoder round-trip through JSONDecoder")
    func encodesLikeJSONEncoder() throws {
        var record = Record(
            recordName: "r", recordType: "T", recordChangeTag: "1", fields: ["t": RecordField(.timestamp(1.5))])
        record.created = RecordStamp(timestamp: 1, userRecordName: "_u", deviceID: "d")
        let response = RecordsResponse(records: [
            .record(record),
            .error(RecordError(recordName: "x", serverErrorCode: .conflict, reason: "stale", uuid: "u")),
        ])
        let value = try WireDecoder().decode(Value.self, from: try WireEncoder.encode(response))
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(RecordsResponse.self, from: data) == response)
        #expect(value["records"]?.arrayValue?.last?["serverErrorCode"] == "CONFLICT")
    }
}
