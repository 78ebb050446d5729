import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderSync

/// The upload journal when its writes fail (`LARDER_FAULT_IO` / ``FileSystemCalls``): the error
/// names the journal, the file keeps what it had, and a re-run resumes with nothing lost and
/// nothing written twice.
@Suite struct JournalFaultTests {
    private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test(
        "an append that fails part-way (short writes, then ENOSPC or a failed fsync) leaves the journal as it was and names it"
    )
    func failedAppendLeavesJournal() async throws {
        for rule in ["enospc@3", "eio@1", "fsync.eio@1"] {
            let directory = try TemporaryDirectory()
            let path = directory.path("upload.journal")
            let journal = try UploadJournal(path: path, target: "t", nowMilliseconds: 1)
            try await journal.planned([("a", "d1"), ("b", "d2")])
            let before = try contents(path)
            let plan = try IOFaultPlan(parsing: "short@1+:\(path),\(rule):\(path)")
            await #expect {
                try await FileSystemCalls.withFaults(plan) { try await journal.acknowledged([("a", "d1", "tag-a")]) }
            } throws: { error in
                (error as? LarderError)?.message.contains("journal \(path)") == true
            }
            #expect(try contents(path) == before, "\(rule): the failed append left bytes behind")
            // The next append is a whole line again, so the next run reads it.
            try await journal.acknowledged([("b", "d2", "tag-b")])
            let reopened = try UploadJournal(path: path, target: "t", nowMilliseconds: 2)
            #expect(reopened.entries.keys.sorted() == ["b"], "\(rule)")
            #expect(reopened.inDoubt == ["a"], "\(rule)")
        }
    }

    @Test("a journal that cannot be rewritten when a run starts is left as it was, with no temporary file")
    func failedRewriteLeavesJournal() async throws {
        for rule in ["enospc@1", "short@1+,eio@4", "fsync.eio@1", "rename.eio@1"] {
            let directory = try TemporaryDirectory()
            let path = directory.path("upload.journal")
            do {
                let journal = try UploadJournal(path: path, target: "t", nowMilliseconds: 1)
                try await journal.acknowledged([("a", "d1", "tag-a")])
            }
            let before = try contents(path)
            let plan = try IOFaultPlan(
                parsing: rule.split(separator: ",").map { "\($0):\(path)" }.joined(separator: ","))
            #expect(throws: LarderError.self, "\(rule)") {
                try FileSystemCalls.withFaults(plan) {
                    _ = try UploadJournal(path: path, target: "t", nowMilliseconds: 2)
                }
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["upload.journal"], "\(rule)"
            )
            #expect(try contents(path) == before, "\(rule)")
        }
    }

    @Test(
        "larder upload whose journal append fails exits 3 naming the journal; the re-run ends with every record uploaded exactly once"
    )
    func uploadResumesAfterJournalFailure() async throws {
        guard UploadCLITests().requireBinary() else { return }
        let fixture = try await UploadCLITests.Fixture.make()
        let (server, directory) = (fixture.server, fixture.directory)
        try await stopping(server) { _ in
            // Journal writes: 1 is the new journal, then plan and ack lines of 5-record batches in turn;
            // 3 is the first batch's acknowledgement, after the server has written it.
            for (round, rule) in ["enospc@2", "enospc@3", "short@1+,eio@40", "fsync.eio@3", "enospc@6+"].enumerated() {
                let zone = "journal-\(round)"
                let journal = directory.path("\(round).journal")
                let records = TestRecords.recipes(20, seed: 300 + round)
                let input = try directory.write("input-\(round).json", TestRecords.envelope(records))
                let arguments =
                    [
                        "upload", input, "--journal", journal, "--dead-letters", directory.path("\(round).dead.ndjson"),
                        "--batch-size", "5",
                        "--concurrency", "1", "--progress", "none",
                    ] + fixture.connection(zone: zone)
                let faults = rule.split(separator: ",").map { "\($0):\(journal)" }.joined(separator: ",")
                let failed = try await runLarder(arguments, environment: ["LARDER_FAULT_IO": faults])
                #expect(failed.status == 3, "\(rule): \(failed.stderr)")
                #expect(failed.stderr.contains("journal \(journal)"), "\(rule): \(failed.stderr)")
                let resumed = try await runLarder(arguments)
                #expect(resumed.status == 0, "\(rule): \(resumed.stderr)")
                #expect(
                    !FileManager.default.fileExists(atPath: directory.path("\(round).dead.ndjson")),
                    "\(rule): dead letters"
                )
                try await server.expectHolds(records, zone: zone, writes: Int64(records.count))
            }
        }
    }
}
