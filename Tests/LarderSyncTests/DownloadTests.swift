import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderSync

/// Seed 000: download once, then only the changes (counted in the emulator's request log).
@Suite struct DownloadTests {
    func readOutput(_ path: String) throws -> [String: Value] {
        let reader = try RecordIO.openReader(path: path)
        var records: [String: Value] = [:]
        while let item = try reader.next() {
            records[try RecordMapping.recordName(for: item.value, type: "recipe")] = item.value
        }
        return records
    }

    @Test("the first download fetches everything; later ones only the changes, in one request")
    func downloadOnceThenOnlyChanges() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let zone = "feed"
            let records = TestRecords.recipes(150, seed: 5)
            let uploader = Uploader(
                client: server.client(zone: zone), delegate: CollectingDelegate(), clock: TestClock().clock)
            _ = try await upload(try uploadItems(records), with: uploader)

            var downloader = ZoneDownloader(
                client: server.client(zone: zone), outputPath: directory.path("recipes.ndjson"))
            downloader.statePath = directory.path("recipes.state")
            downloader.clock = TestClock().clock
            downloader.pageSize = 50

            try await server.clearLog()
            let first = try await downloader.run()
            #expect(first.fullFetch)
            #expect(first.pages == 3)
            #expect(first.records == 150)
            #expect(try await server.loggedRequests("changes/zone").count == 3)
            let downloaded = try readOutput(directory.path("recipes.ndjson"))
            #expect(downloaded.count == 150)
            for record in records {
                let name = try RecordMapping.recordName(for: record, type: "recipe")
                #expect(downloaded[name].map { Semantic.equal($0, record) } == true, "\(name)")
            }

            // Nothing changed: one request, nothing fetched, the output as it was.
            try await server.clearLog()
            let second = try await downloader.run()
            #expect(!second.fullFetch)
            #expect(second.changedRecords == 0 && second.deletions == 0)
            #expect(second.kept == 150)
            #expect(try await server.loggedRequests("changes/zone").count == 1)
            #expect(try await server.loggedRequests("records/query").isEmpty)

            // Three edits, one new record, two deletions, one minimal tombstone.
            var changes: [Value] = []
            for index in 0..<3 {
                guard case .object(var members) = records[index] else { continue }
                members["title"] = .string("edited \(index)")
                changes.append(.object(members))
            }
            changes += TestRecords.recipes(1, seed: 6)
            var items = try uploadItems(changes)
            for index in items.indices { items[index].isForced = true }
            let deleted = try [records[10], records[11]].map { try RecordMapping.recordName(for: $0, type: "recipe") }
            for name in deleted {
                items.append(UploadItem(recordName: name, recordType: "recipe", fields: [:], action: .delete))
            }
            let tombstone = try RecordMapping.recordName(for: records[12], type: "recipe")
            let tombstoneFields = try RecordMapping().fields(
                of: ["id": records[12]["id"] ?? .null, "isDeleted": true, "deletedAt": "2024-03-01T00:00:00Z"],
                type: .recipe)
            items.append(
                UploadItem(recordName: tombstone, recordType: "recipe", fields: tombstoneFields, isForced: true))
            _ = try await upload(
                items,
                with: Uploader(
                    client: server.client(zone: zone), delegate: CollectingDelegate(), clock: TestClock().clock))

            try await server.clearLog()
            let third = try await downloader.run()
            #expect(!third.fullFetch)
            #expect(third.changedRecords == 5)
            #expect(third.deletions == 2)
            #expect(third.records == 150 + 1 - 3)
            #expect(try await server.loggedRequests("changes/zone").count == 1)
            let updated = try readOutput(directory.path("recipes.ndjson"))
            #expect(updated.count == 148)
            #expect(updated[try RecordMapping.recordName(for: records[0], type: "recipe")]?["title"] == "edited 0")
            for name in deleted + [tombstone] { #expect(updated[name] == nil) }
            #expect(updated[try RecordMapping.recordName(for: changes[3], type: "recipe")] != nil)
        }
    }

    @Test("an expired sync token means a full refetch that still ends with the right output")
    func expiredTokenRefetches() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let records = TestRecords.recipes(30, seed: 8)
            _ = try await upload(
                try uploadItems(records),
                with: Uploader(
                    client: server.client(zone: "expiry"), delegate: CollectingDelegate(), clock: TestClock().clock))
            var downloader = ZoneDownloader(
                client: server.client(zone: "expiry"), outputPath: directory.path("out.json"))
            downloader.statePath = directory.path("out.state")
            downloader.recordType = .recipe
            _ = try await downloader.run()
            try await server.addFault(#"{"operation":"changes/zone","error":"CHANGE_TOKEN_EXPIRED","remaining":1}"#)
            let report = try await downloader.run()
            #expect(report.fullFetch && report.tokenExpired)
            #expect(report.records == 30)
            let reader = try RecordIO.openReader(path: directory.path("out.json"))
            var count = 0
            while try reader.next() != nil { count += 1 }
            #expect(count == 30)
            #expect(reader.header?.recordType == .recipe)
        }
    }

    @Test("a state that does not match the output is not trusted: everything is fetched again")
    func mismatchedStateRefetches() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            _ = try await upload(
                try uploadItems(TestRecords.recipes(5)),
                with: Uploader(
                    client: server.client(zone: "m"), delegate: CollectingDelegate(), clock: TestClock().clock))
            var downloader = ZoneDownloader(client: server.client(zone: "m"), outputPath: directory.path("out.ndjson"))
            downloader.statePath = directory.path("out.state")
            _ = try await downloader.run()
            try directory.write("out.ndjson", "")  // someone emptied the output
            let report = try await downloader.run()
            #expect(report.fullFetch)
            #expect(report.records == 5)
        }
    }
}
