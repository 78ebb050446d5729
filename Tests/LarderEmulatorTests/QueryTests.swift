import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct QueryTests {
    static func seed(_ client: TestClient, count: Int = 12, zone: RecordZoneID? = nil) async throws {
        var operations: [RecordOperation] = []
        for index in 0..<count {
            operations.append(
                RecordOperation(
                    .create,
                    .make(
                        "r\(index)",
                        fields: [
                            "title": .string(index % 2 == 0 ? "Pancakes \(index)" : "Waffles \(index)"),
                            "servings": .int64(Int64(index)), "rating": .double(Double(index) / 2),
                            "cookedAt": .timestamp(1_700_000_000_000 + Double(index) * 1000),
                            "tags": .list(
                                elementType: .string,
                                index % 3 == 0 ? [.string("breakfast"), .string("sweet")] : [.string("dinner")]),
                            "notes": .string(index == 4 ? "Fluffy buttermilk pancakes" : "plain"),
                            "where": .location(Location(latitude: 52.5 + Double(index) * 0.01, longitude: 13.4)),
                            "source": .reference(Reference(recordName: "src-\(index % 2)")),
                        ])))
        }
        _ = try await client.modify(operations, zone: zone)
    }

    static func names(_ response: QueryResponse) -> [String] { response.records.records.compactMap(\.recordName) }

    @Test("comparators for each type filter as CloudKit does")
    func comparators() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await Self.seed(alice)
            func run(_ filters: [QueryFilter]) async throws -> Set<String> {
                Set(Self.names(try await alice.query(Query(recordType: "Recipe", filterBy: filters))))
            }
            #expect(try await run([QueryFilter(.equals, "servings", RecordField(.int64(3)))]) == ["r3"])
            #expect(
                try await run([QueryFilter(.greaterThanOrEquals, "servings", RecordField(value: 10))]) == [
                    "r10", "r11",
                ])
            #expect(try await run([QueryFilter(.lessThan, "rating", RecordField(value: 1))]) == ["r0", "r1"])
            #expect(
                try await run([
                    QueryFilter(.notEquals, "servings", RecordField(value: 0)),
                    QueryFilter(.lessThanOrEquals, "servings", RecordField(value: 2)),
                ]) == ["r1", "r2"])
            #expect(
                try await run([QueryFilter(.greaterThan, "cookedAt", RecordField(value: 1_700_000_010_500))]) == ["r11"]
            )
            #expect(
                try await run([
                    QueryFilter(.in, "servings", RecordField(value: [2, 4], type: FieldType(rawValue: "INT64_LIST")))
                ]) == ["r2", "r4"])
            #expect(
                try await run([
                    QueryFilter(.notIn, "servings", RecordField(value: Value.array((0..<10).map { .int(Int64($0)) })))
                ]) == ["r10", "r11"])
            #expect(
                try await run([QueryFilter(.beginsWith, "title", RecordField(value: "Waffles 1"))]) == ["r1", "r11"])
            #expect(
                try await run([
                    QueryFilter(.notBeginsWith, "title", RecordField(value: "W")),
                    QueryFilter(.lessThan, "servings", RecordField(value: 3)),
                ]) == ["r0", "r2"])
            #expect(
                try await run([QueryFilter(.containsAllTokens, "notes", RecordField(value: "buttermilk fluffy"))]) == [
                    "r4"
                ]
            )
            #expect(
                try await run([QueryFilter(.containsAnyTokens, "notes", RecordField(value: "crispy pancakes"))]) == [
                    "r4"
                ])
            #expect(
                try await run([QueryFilter(.listContains, "tags", RecordField(value: "breakfast"))]) == [
                    "r0", "r3", "r6", "r9",
                ])
            #expect(
                try await run([QueryFilter(.notListContains, "tags", RecordField(value: "dinner"))]) == [
                    "r0", "r3", "r6", "r9",
                ])
            #expect(
                try await run([QueryFilter(.listContainsAll, "tags", RecordField(value: ["sweet", "breakfast"]))]) == [
                    "r0", "r3", "r6", "r9",
                ])
            #expect(
                try await run([
                    QueryFilter(.notListContainsAny, "tags", RecordField(value: ["sweet", "x"])),
                    QueryFilter(.lessThan, "servings", RecordField(value: 3)),
                ]) == ["r1", "r2"])
            #expect(
                try await run([QueryFilter(.listMemberBeginsWith, "tags", RecordField(value: "swe"))]) == [
                    "r0", "r3", "r6", "r9",
                ])
            #expect(
                try await run([
                    QueryFilter(.equals, "source", RecordField(value: ["recordName": "src-1"])),
                    QueryFilter(.lessThan, "servings", RecordField(value: 4)),
                ]) == ["r1", "r3"])
            #expect(
                try await run([
                    QueryFilter(
                        .near, "where", RecordField(value: ["latitude": 52.5, "longitude": 13.4]), distance: 1500)
                ]) == ["r0", "r1"])
            #expect(
                try await run([QueryFilter(.equals, "___recordID", RecordField(value: ["recordName": "r7"]))]) == ["r7"]
            )
        }
    }

    @Test("a comparator that does not apply to the field's type is BAD_REQUEST")
    func comparatorTypeMismatch() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await Self.seed(alice, count: 1)
            for filter in [
                QueryFilter(.beginsWith, "servings", RecordField(value: 1)),
                QueryFilter(.listContains, "title", RecordField(value: "x")),
                QueryFilter(.equals, "nosuchfield", RecordField(value: 1)),
                QueryFilter(.near, "title", RecordField(value: "x")),
            ] {
                let answer = try await alice.post(
                    "records/query", QueryRecordsRequest(query: Query(recordType: "Recipe", filterBy: [filter])))
                #expect(answer.status == 400 && answer.errorCode == "BAD_REQUEST", "\(filter.comparator)")
            }
        }
    }

    @Test("sortBy orders by several fields, ascending and descending")
    func sorting() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await Self.seed(alice, count: 6)
            let byServings = try await alice.query(
                Query(recordType: "Recipe", sortBy: [QuerySort(fieldName: "servings", ascending: false)]))
            #expect(Self.names(byServings) == ["r5", "r4", "r3", "r2", "r1", "r0"])
            let byTitle = try await alice.query(
                Query(
                    recordType: "Recipe",
                    sortBy: [QuerySort(fieldName: "title"), QuerySort(fieldName: "servings", ascending: false)]))
            #expect(Self.names(byTitle) == ["r0", "r2", "r4", "r1", "r3", "r5"])
            var near = QuerySort(fieldName: "where")
            near.relativeLocation = RecordField(value: ["latitude": 52.56, "longitude": 13.4])
            let byDistance = try await alice.query(Query(recordType: "Recipe", sortBy: [near]))
            #expect(Self.names(byDistance).first == "r5")
        }
    }

    @Test("pages with resultsLimit and continuationMarker cover every record once; the limit is clamped to 200")
    func paging() async throws {
        let server = try await TestServer.start { $0.limits.maxRecordsPerPage = 5 }
        try await stopping(server) { _ in
            let alice = server.client()
            try await Self.seed(alice, count: 12)
            var seen: [String] = []
            var marker: String?
            var pages = 0
            repeat {
                let page = try await alice.query(
                    Query(recordType: "Recipe", sortBy: [QuerySort(fieldName: "servings")]), limit: 500, marker: marker)
                #expect(page.records.count <= 5)
                seen += Self.names(page)
                marker = page.continuationMarker
                pages += 1
            } while marker != nil && pages < 10
            #expect(seen == (0..<12).map { "r\($0)" })
            let bad = try await alice.post(
                "records/query", QueryRecordsRequest(query: Query(recordType: "Recipe"), continuationMarker: "garbage"))
            #expect(bad.errorCode == "BAD_REQUEST")
            let zero = try await alice.post(
                "records/query", json: #"{"query":{"recordType":"Recipe"},"resultsLimit":-1}"#)
            #expect(zero.errorCode == "BAD_REQUEST")
        }
    }

    @Test("zoneWide searches every zone; desiredKeys trims fields")
    func zoneWideAndDesiredKeys() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Other")
            _ = try await alice.modify([
                RecordOperation(.create, .make("home", fields: ["title": .string("a"), "servings": .int64(1)]))
            ])
            _ = try await alice.modify(
                [RecordOperation(.create, .make("away", fields: ["title": .string("b")]))],
                zone: RecordZoneID(zoneName: "Other"))
            let one = try await alice.query(Query(recordType: "Recipe"))
            #expect(Self.names(one) == ["home"])
            let all = try await alice.post(
                "records/query",
                QueryRecordsRequest(query: Query(recordType: "Recipe"), desiredKeys: ["title"], zoneWide: true))
            let response = try all.decode(QueryResponse.self)
            #expect(Set(Self.names(response)) == ["home", "away"])
            #expect(response.records.records.allSatisfy { $0.fields?.keys.sorted() == ["title"] })
        }
    }
}
