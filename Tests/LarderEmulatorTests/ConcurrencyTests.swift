import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct ConcurrencyTests {
    @Test("16 clients incrementing one record with change tags never lose an update, and tokens stay monotone")
    func concurrentUpdatesNeverLoseAnUpdate() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Counter")
            let zone = RecordZoneID(zoneName: "Counter")
            _ = try await alice.modify(
                [RecordOperation(.create, .make("counter", type: "Counter", fields: ["value": .int64(0)]))], zone: zone)
            let clients = 16
            let incrementsEach = 5
            let sequences = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        var seen: [Int64] = []
                        var done = 0
                        var attempts = 0
                        while done < incrementsEach && attempts < 500 {
                            attempts += 1
                            let lookup = try await alice.post(
                                "records/lookup",
                                LookupRecordsRequest(records: [.init(recordName: "counter")], zoneID: zone))
                            let current = try #require(try lookup.decode(RecordsResponse.self).records.first?.record)
                            guard case .int(let value)? = current.field("value") else { continue }
                            let result = try await alice.modify(
                                [
                                    RecordOperation(
                                        .update,
                                        .make(
                                            "counter", type: "Counter", fields: ["value": .int64(value + 1)],
                                            tag: current.recordChangeTag))
                                ],
                                zone: zone)
                            if result.first?.record != nil {
                                done += 1
                            } else {
                                #expect(result.errorCodes == ["CONFLICT"])
                            }
                            let token = try #require(try await alice.zoneChanges(zone).changes?.syncToken)
                            seen.append(try #require(ChangeToken.decode(token)).sequence)
                        }
                        #expect(done == incrementsEach)
                        return seen
                    }
                }
                var all: [[Int64]] = []
                for try await sequence in group { all.append(sequence) }
                return all
            }
            for sequence in sequences {
                #expect(sequence == sequence.sorted(), "a client saw its zone token go backwards")
            }
            let final = try await alice.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "counter")], zoneID: zone))
            #expect(
                try final.decode(RecordsResponse.self).records.first?.record?.field("value")
                    == .int(Int64(clients * incrementsEach)))
        }
    }
}
