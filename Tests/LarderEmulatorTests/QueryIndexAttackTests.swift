import Foundation
import GRDB
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderEmulator

/// Security round 3: a query makes an index only when it may run, on a field the schema has, and
/// the indexes a caller can make are capped (2,001 refused queries left 2,001 indexes on the shared
/// record table, and every write went from 2.4 ms to 84 ms).
@Suite struct QueryIndexAttackTests {
    static func fieldIndexes(_ server: TestServer) throws -> [String] {
        try server.emulator.store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'field_%'")
        }.sorted()
    }

    @Test("index attack: refused queries and fields outside the schema leave no index; real ones are capped")
    func refusedQueriesLeaveNoIndex() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.modify([
                RecordOperation(.create, .make("r1", type: "Recipe", fields: ["servings": .int64(2)]))
            ])
            // An API token alone may not read the private database: refused, and no index stays.
            let anonymous = server.client(nil)
            for index in 0..<20 {
                let filter = QueryFilter(.equals, "f\(index)", RecordField(value: 1))
                let answer = try await anonymous.post(
                    "records/query", QueryRecordsRequest(query: Query(recordType: "Recipe", filterBy: [filter])))
                #expect(answer.status != 200)
            }
            #expect(try Self.fieldIndexes(server) == [])
            // The owner's queries on fields the schema does not have are refused too, and leave none.
            for index in 0..<20 {
                let filter = QueryFilter(.equals, "g\(index)", RecordField(value: 1))
                let answer = try await alice.post(
                    "records/query", QueryRecordsRequest(query: Query(recordType: "Recipe", filterBy: [filter])))
                #expect(answer.status == 400, "\(answer.text)")
            }
            #expect(try Self.fieldIndexes(server) == [])
            // A schema field gets its index.
            _ = try await alice.query(
                Query(recordType: "Recipe", filterBy: [QueryFilter(.equals, "servings", RecordField(value: 2))]))
            #expect(try Self.fieldIndexes(server) == ["field_servings"])
        }
    }

    @Test("index attack: at most 64 indexes are made, however many schema fields are queried")
    func indexesAreCapped() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            var fields: [String: FieldValue] = [:]
            for index in 0..<100 { fields["h\(index)"] = .int64(Int64(index)) }
            _ = try await alice.modify([RecordOperation(.create, .make("wide", type: "Recipe", fields: fields))])
            for index in 0..<100 {
                let filter = QueryFilter(.equals, "h\(index)", RecordField(value: 1))
                let answer = try await alice.query(Query(recordType: "Recipe", filterBy: [filter]))
                #expect(answer.records.count == (index == 1 ? 1 : 0))
            }
            #expect(try Self.fieldIndexes(server).count <= QueryIndexes.maxFieldIndexes)
        }
    }
}
