import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct RecordsModifyTests {
    @Test("create, update with the change tag, and a stale tag conflicts")
    func createUpdateConflict() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let created = try await alice.modify([
                RecordOperation(.create, .make("r1", fields: ["title": .string("Pancakes"), "servings": .int64(2)]))
            ])
            let record = try #require(created.records.first)
            let tag = try #require(record.recordChangeTag)
            #expect(
                record.fields?["title"]?.type == .string
                    && record.created?.userRecordName == TestServer.alice.userRecordName)
            let updated = try await alice.modify([
                RecordOperation(.update, .make("r1", fields: ["servings": .int64(5)], tag: tag))
            ])
            let second = try #require(updated.records.first)
            #expect(second.recordChangeTag != tag)
            #expect(second.field("servings") == 5 && second.field("title") == "Pancakes")
            let stale = try await alice.modify([
                RecordOperation(.update, .make("r1", fields: ["servings": .int64(9)], tag: tag))
            ])
            #expect(stale.errorCodes == ["CONFLICT"])
            let again = try await alice.modify([RecordOperation(.create, .make("r1"))])
            #expect(again.errorCodes == ["EXISTS"])
        }
    }

    @Test("forceUpdate and forceReplace create missing records; replace drops fields not sent")
    func forceOperationsAndReplace() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let made = try await alice.modify([
                RecordOperation(.forceUpdate, .make("a", fields: ["title": .string("A"), "servings": .int64(1)])),
                RecordOperation(.forceReplace, .make("b", fields: ["title": .string("B")])),
            ])
            #expect(made.records.count == 2)
            let tag = try #require(made.records.first?.recordChangeTag)
            let replaced = try await alice.modify([
                RecordOperation(.replace, .make("a", fields: ["title": .string("A2")], tag: tag))
            ])
            #expect(replaced.records.first?.field("servings") == nil && replaced.records.first?.field("title") == "A2")
            let forced = try await alice.modify([
                RecordOperation(.forceUpdate, .make("a", fields: ["servings": .int64(3)], tag: "stale"))
            ])
            #expect(forced.records.first?.field("servings") == 3 && forced.records.first?.field("title") == "A2")
            let missing = try await alice.modify([RecordOperation(.update, .make("nope", fields: [:], tag: "x"))])
            #expect(missing.errorCodes == ["NOT_FOUND"])
        }
    }

    @Test("delete checks the tag, forceDelete does not, and deletes answer deleted: true")
    func deletes() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let made = try await alice.modify([
                RecordOperation(.create, .make("a")), RecordOperation(.create, .make("b")),
            ])
            let tagA = try #require(made.records.first?.recordChangeTag)
            let conflict = try await alice.modify([RecordOperation(.delete, .make("a", tag: "zzz"))])
            #expect(conflict.errorCodes == ["CONFLICT"])
            let deleted = try await alice.modify([
                RecordOperation(.delete, .make("a", tag: tagA)),
                RecordOperation(.forceDelete, .make("b", tag: "whatever")),
            ])
            #expect(deleted.records.map(\.deleted) == [true, true])
            let gone = try await alice.modify([RecordOperation(.forceDelete, .make("a"))])
            #expect(gone.errorCodes == ["NOT_FOUND"])
        }
    }

    @Test("one operation per record per request")
    func oneOperationPerRecord() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let results = try await server.client().modify(
                [RecordOperation(.create, .make("x")), RecordOperation(.forceUpdate, .make("x"))], atomic: false)
            #expect(results.errorCodes == [nil, "BAD_REQUEST"])
        }
    }

    @Test("an atomic batch in a custom zone fails whole: own code for the culprit, ATOMIC_ERROR for the rest")
    func atomicBatchInCustomZone() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Kitchen")
            let zone = RecordZoneID(zoneName: "Kitchen")
            _ = try await alice.modify([RecordOperation(.create, .make("exists"))], zone: zone)
            let results = try await alice.modify(
                [
                    RecordOperation(.create, .make("new-1")), RecordOperation(.create, .make("exists")),
                    RecordOperation(.create, .make("new-2")),
                ],
                zone: zone)
            #expect(results.errorCodes == ["ATOMIC_ERROR", "EXISTS", "ATOMIC_ERROR"])
            let lookup = try await alice.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "new-1")], zoneID: zone))
            #expect(try lookup.decode(RecordsResponse.self).records.errorCodes == ["NOT_FOUND"])
            // Not atomic: the good ones land.
            let partial = try await alice.modify(
                [RecordOperation(.create, .make("new-1")), RecordOperation(.create, .make("exists"))], zone: zone,
                atomic: false)
            #expect(partial.errorCodes == [nil, "EXISTS"])
            // The default zone is never atomic.
            let defaultZone = try await alice.modify([
                RecordOperation(.create, .make("d1")), RecordOperation(.update, .make("d2", tag: "t")),
            ])
            #expect(defaultZone.errorCodes == [nil, "NOT_FOUND"])
        }
    }

    @Test("every field type round-trips, with _LIST forms; a fractional timestamp keeps its millisecond")
    func fieldTypesRoundTrip() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            // An asset needs the receipt of a real upload (AssetsTests covers the rest).
            let receipt = try await alice.uploadAsset(pngBytes, record: "brew", field: "image")
            let fields: [String: FieldValue] = [
                "title": .string("Flat white"), "dose": .int64(18), "ratio": .double(2.5),
                "brewedAt": .timestamp(1_700_010_800_123.5), "photo": .bytes("aGVsbG8="),
                "recipe": .reference(Reference(recordName: "r1", action: "NONE")),
                "image": .asset(receipt.jsonValue),
                "cafe": .location(Location(latitude: 52.52, longitude: 13.405)),
                "tags": .list(elementType: .string, [.string("milk")]),
                "temps": .list(elementType: .double, [.double(92), .double(94.5)]),
                "times": .list(elementType: .timestamp, [.timestamp(1), .timestamp(-1.5)]),
                "refs": .list(elementType: .reference, [.reference(Reference(recordName: "x", action: "NONE"))]),
                "counts": .list(elementType: .int64, []),
            ]
            let saved = try await alice.modify([RecordOperation(.create, .make("brew", type: "Brew", fields: fields))])
            let record = try #require(saved.records.first)
            for (name, value) in fields where name != "image" {
                let field = try #require(record.fields?[name], "\(name)")
                #expect(field.type == value.type, "\(name)")
                let expected: FieldValue =
                    switch name {
                    case "brewedAt": .timestamp(1_700_010_800_123)
                    case "times": .list(elementType: .timestamp, [.timestamp(1), .timestamp(-2)])
                    default: value
                    }
                #expect(try FieldValue(value: field.value, type: try #require(field.type)) == expected, "\(name)")
            }
            #expect(record.fields?["brewedAt"]?.value == .int(1_700_010_800_123))
            let image = try #require(record.fields?["image"])
            #expect(image.type == .assetID)
            #expect(try Asset(value: image.value).fileChecksum == receipt.fileChecksum)
        }
    }

    @Test("untyped values take the schema's type; a mismatch is a clear per-record error")
    func untypedValuesFollowTheSchema() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.post(
                "records/modify",
                json:
                    #"{"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"T","fields":{"when":{"value":1700000000000,"type":"TIMESTAMP"}}}}]}"#
            )
            let answer = try await alice.post(
                "records/modify",
                json:
                    #"{"operations":[{"operationType":"create","record":{"recordName":"b","recordType":"T","fields":{"when":{"value":1700000000000.25}}}},{"operationType":"create","record":{"recordName":"c","recordType":"T","fields":{"when":{"value":"soon"}}}}]}"#
            )
            let results = try answer.decode(RecordsResponse.self).records
            #expect(results.first?.record?.fields?["when"]?.type == .timestamp)
            let error = try #require(results.last?.error)
            #expect(error.serverErrorCode == .badRequest && error.reason.contains("when"))
        }
    }

    @Test("production refuses unknown record types and fields until the schema is deployed")
    func productionSchemaIsFixed() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let production = server.client(environment: .production)
            let refused = try await production.modify([
                RecordOperation(.create, .make("p1", fields: ["title": .string("x")]))
            ])
            #expect(refused.errorCodes == ["BAD_REQUEST"])
            _ = try await server.client().modify([
                RecordOperation(.create, .make("d1", fields: ["title": .string("x")]))
            ])
            var request = URLRequest(url: server.baseURL.appendingPathComponent("_emulator/schema/deploy"))
            request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
            request.httpMethod = "POST"
            request.url = URL(
                string: server.baseURL.absoluteString + "/_emulator/schema/deploy?container=\(TestServer.container)")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            _ = try await URLSession.shared.data(for: request)
            let accepted = try await production.modify([
                RecordOperation(.create, .make("p1", fields: ["title": .string("x")]))
            ])
            #expect(accepted.errorCodes == [nil])
            let unknownField = try await production.modify([
                RecordOperation(.create, .make("p2", fields: ["other": .string("x")]))
            ])
            #expect(unknownField.errorCodes == ["BAD_REQUEST"])
        }
    }

    @Test("records/lookup answers each name, honouring desiredKeys at the top and per entry")
    func lookup() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.modify([
                RecordOperation(.create, .make("r1", fields: ["title": .string("A"), "servings": .int64(2)]))
            ])
            let answer = try await alice.post(
                "records/lookup",
                LookupRecordsRequest(
                    records: [
                        .init(recordName: "r1"), .init(recordName: "r1x"),
                        .init(recordName: "r1", desiredKeys: ["servings"]),
                    ],
                    desiredKeys: ["title"]))
            let results = try answer.decode(RecordsResponse.self).records
            #expect(results.errorCodes == [nil, "NOT_FOUND", nil])
            #expect(results[0].record?.fields?.keys.sorted() == ["title"])
            #expect(results[2].record?.fields?.keys.sorted() == ["servings"])
        }
    }

    @Test("numbersAsStrings returns INT64 values as strings")
    func numbersAsStrings() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.modify([
                RecordOperation(.create, .make("r1", fields: ["servings": .int64(9_007_199_254_740_993)]))
            ])
            let answer = try await alice.post(
                "records/lookup", json: #"{"records":[{"recordName":"r1"}],"numbersAsStrings":true}"#)
            #expect(answer.json["records"]?.arrayValue?.first?["fields"]?["servings"]?["value"] == "9007199254740993")
        }
    }
}
