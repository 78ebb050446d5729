import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct LimitsAndErrorsTests {
    @Test("more operations than the limit is a whole-request BAD_REQUEST; the limit is configurable")
    func operationLimit() async throws {
        let server = try await TestServer.start { $0.limits.maxOperationsPerRequest = 3 }
        try await stopping(server) { _ async throws in
            let alice = server.client()
            let four = (0..<4).map { RecordOperation(.create, .make("r\($0)")) }
            let answer = try await alice.post("records/modify", ModifyRecordsRequest(operations: four))
            #expect(
                answer.status == 400 && answer.errorCode == "BAD_REQUEST"
                    && answer.json["reason"]?.stringValue?.contains("limit is 3") == true)
            #expect(try await alice.modify(Array(four.prefix(3))).errorCodes == [nil, nil, nil])
        }
    }

    @Test("200 operations pass with the default limits and 201 do not")
    func defaultOperationLimit() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            let alice = server.client()
            let ops = (0..<201).map {
                RecordOperation(
                    .create, .make("r\($0)", fields: ["title": .string(String(repeating: "x", count: 100))]))
            }
            #expect(try await alice.modify(Array(ops.prefix(200))).records.count == 200)
            #expect(
                try await alice.post("records/modify", ModifyRecordsRequest(operations: ops)).errorCode == "BAD_REQUEST"
            )
        }
    }

    @Test("a record over the size limit fails alone; a body over the body limit fails whole")
    func sizeLimits() async throws {
        let server = try await TestServer.start {
            $0.limits.maxRecordBytes = 1000
            $0.limits.maxRequestBodyBytes = 20_000
        }
        try await stopping(server) { _ async throws in
            let alice = server.client()
            let results = try await alice.modify(
                [
                    RecordOperation(
                        .create, .make("big", fields: ["title": .string(String(repeating: "x", count: 2000))])),
                    RecordOperation(.create, .make("small")),
                ])
            #expect(results.errorCodes == ["BAD_REQUEST", nil])
            #expect(results.first?.error?.reason.contains("limit is 1000 bytes") == true)
            let huge = try await alice.post(
                "records/modify",
                ModifyRecordsRequest(operations: [
                    RecordOperation(.create, .make("h", fields: ["t": .string(String(repeating: "y", count: 30_000))]))
                ]))
            #expect(
                huge.status == 400 && huge.errorCode == "BAD_REQUEST"
                    && huge.json["reason"]?.stringValue?.contains("20000") == true)
        }
    }

    @Test("malformed JSON, wrong types and missing keys are BAD_REQUEST naming the problem")
    func malformedBodies() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            let alice = server.client()
            let cases: [(String, String, String)] = [
                ("records/modify", "{not json", "malformed JSON"),
                ("records/modify", #"{"operations":"nope"}"#, "operations"),
                ("records/modify", #"{"operations":[{"operationType":"create"}]}"#, "operations[0].record"),
                (
                    "records/modify",
                    #"{"operations":[{"operationType":"explode","record":{"recordName":"x","recordType":"T"}}]}"#, ""
                ),
                ("records/query", #"{"query":{"filterBy":[]}}"#, "query.recordType"),
                ("records/query", #"{"query":{"recordType":"T"},"resultsLimit":"ten"}"#, "resultsLimit"),
                ("records/lookup", #"[1,2,3]"#, "expected an object"),
                ("zones/modify", #"{"operations":[{"operationType":"create","zone":{}}]}"#, "zoneName"),
                ("changes/zone", #"{"zones":[{"zoneID":{"zoneName":5}}]}"#, "zoneName"),
            ]
            for (operation, body, fragment) in cases {
                let answer = try await alice.post(operation, json: body)
                if operation == "records/modify", body.contains("explode") {
                    let results = try answer.decode(RecordsResponse.self).records
                    #expect(results.errorCodes == ["BAD_REQUEST"])
                    continue
                }
                #expect(
                    answer.status == 400 && answer.errorCode == "BAD_REQUEST", "\(operation) \(body): \(answer.text)")
                #expect(answer.json["reason"]?.stringValue?.contains(fragment) == true, "\(answer.text)")
            }
        }
    }

    @Test("unknown paths, containers, environments and methods get CloudKit errors, never a crash")
    func unknownPaths() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            func fetch(_ path: String, method: String = "GET") async throws -> TestClient.Answer {
                var request = URLRequest(url: URL(string: server.baseURL.absoluteString + path)!)
                request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
                request.httpMethod = method
                let (data, response) = try await URLSession.shared.data(for: request)
                return TestClient.Answer(
                    status: (response as? HTTPURLResponse)?.statusCode ?? 0, data: data, headers: [:])
            }
            let token = "?ckAPIToken=\(TestServer.apiToken)"
            let notFound = try await fetch(
                "/database/1/\(TestServer.container)/development/public/records/explode\(token)", method: "POST")
            #expect(notFound.status == 404 && notFound.errorCode == "NOT_FOUND")
            #expect(try await fetch("/nothing/here").errorCode == "NOT_FOUND")
            #expect(
                try await fetch("/database/1/iCloud.other/development/public/zones/list\(token)").errorCode
                    == "NOT_FOUND")
            #expect(
                try await fetch("/database/1/\(TestServer.container)/staging/public/zones/list\(token)").errorCode
                    == "BAD_REQUEST")
            #expect(
                try await fetch("/database/1/\(TestServer.container)/development/secret/zones/list\(token)").errorCode
                    == "BAD_REQUEST")
            let wrongMethod = try await fetch(
                "/database/1/\(TestServer.container)/development/public/records/modify\(token)", method: "GET")
            #expect(wrongMethod.status >= 400 && wrongMethod.errorCode != nil)
            #expect(try await server.client(database: .public).get("zones/list").status == 200)
        }
    }

    @Test("custom zones exist only in the private database")
    func customZonesArePrivateOnly() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            let request = ZonesModifyRequest(operations: [
                .init(operationType: "create", zoneID: RecordZoneID(zoneName: "Z"))
            ])
            let publicAnswer = try await server.client(database: .public).post("zones/modify", request).decode(
                ZonesResponse.self)
            #expect(publicAnswer.zones.first?.error?.serverErrorCode == .badRequest)
            #expect(try await server.client(database: .shared).post("zones/modify", request).errorCode == "BAD_REQUEST")
            let alice = server.client()
            try await alice.createZone("Z")
            let lookup = try await alice.post(
                "zones/lookup",
                ZonesLookupRequest(zones: [RecordZoneID(zoneName: "Z"), RecordZoneID(zoneName: "missing")]))
            let zones = try lookup.decode(ZonesResponse.self).zones
            #expect(zones.first?.zone?.atomic == true && zones.last?.error?.serverErrorCode == .zoneNotFound)
            let deleteDefault = try await alice.post(
                "zones/modify", ZonesModifyRequest(operations: [.init(operationType: "delete", zoneID: .defaultZone)]))
            #expect(try deleteDefault.decode(ZonesResponse.self).zones.first?.error?.serverErrorCode == .badRequest)
        }
    }
}
