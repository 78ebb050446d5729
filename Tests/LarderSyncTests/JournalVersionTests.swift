import Foundation
import LarderCloudKit
import LarderCore
import LarderRegistry
import LarderTestSupport
import Testing

@testable import LarderSync

/// Journals written by builds whose fields digest was version 1 (before the digest was taken over
/// the encoded fields) still resume: nothing lost, nothing sent twice.
@Suite struct JournalVersionTests {
    /// A version 1 journal line of `records`: their names and version 1 digests, with `tags`.
    func legacyAck(_ records: [Value], tags: [String: UploadJournal.Entry]) throws -> String {
        var names: [String] = []
        var digests: [String] = []
        var changeTags: [String] = []
        for record in records {
            let name = try RecordMapping.recordName(for: record, type: "recipe")
            names.append(name)
            digests.append(
                FieldsDigest.legacy(
                    recordType: "recipe", fields: try RecordMapping().fields(of: record, type: .recipe)))
            changeTags.append(tags[name]?.changeTag ?? "")
        }
        return try UploadJournal.encode(JournalLine(k: "ack", n: names, d: digests, t: changeTags))
    }

    @Test("a version 1 journal loads as version 1, keeps its version through the rewrite, and new lines are version 2")
    func versionsSurviveTheRewrite() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "j",
            """
            {"k":"run","v":1,"target":"t","at":1}
            {"k":"ack","n":["a","b"],"d":["d1","d2"],"t":["ta","tb"]}
            {"k":"plan","n":["c"],"d":["d3"]}

            """)
        do {
            let journal = try UploadJournal(path: path, target: "t", nowMilliseconds: 2)
            #expect(journal.entries["a"]?.digestVersion == 1)
            #expect(journal.inDoubt == ["c"])
            try await journal.acknowledged([("b", "new", "tb2")])
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix(#"{"k":"run","v":2,"#))
        #expect(text.contains(#""dv":1"#))
        let again = try UploadJournal(path: path, target: "t", nowMilliseconds: 3)
        #expect(
            again.entries["a"]
                == UploadJournal.Entry(digest: "d1", changeTag: "ta", keptServer: false, digestVersion: 1))
        #expect(again.entries["b"] == UploadJournal.Entry(digest: "new", changeTag: "tb2", keptServer: false))
        #expect(again.inDoubt == ["c"])
    }

    @Test("an upload resumed from a version 1 journal skips what the server holds and sends the rest once")
    func oldJournalResumes() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let records = TestRecords.recipes(60, seed: 7)
            let input = try directory.write("recipes.json", TestRecords.envelope(records))
            let journalPath = directory.path("j")
            func upload(_ input: String) async throws -> UploadReport {
                var upload = FileUpload(
                    client: server.client(zone: "old"), journalPath: journalPath,
                    deadLetterPath: directory.path("dead.ndjson"))
                upload.configuration.maxOperationsPerRequest = 7
                return try await upload.run(
                    preparation: UploadPreparation(
                        inputs: [input], migrator: Migrator(registry: try .load()), workDirectory: directory.path("w")))
            }
            let first = try await upload(input)
            #expect(first.uploaded == 60)

            // The journal as a version 1 build would have left it: the first 45 acknowledged with
            // version 1 digests, the next 5 planned but never acknowledged (in doubt), the last 10 unknown.
            let header = try String(contentsOfFile: journalPath, encoding: .utf8).split(separator: "\n")[0]
            let target = try #require(try JSONDecoder().decode(JournalLine.self, from: Data(header.utf8)).target)
            let (entries, _, _) = try UploadJournal.load(path: journalPath, target: target)
            var text = try UploadJournal.encode(JournalLine(k: "run", v: 1, target: target, at: 1))
            text += try legacyAck(Array(records[0..<45]), tags: entries)
            let doubtful = try records[45..<50].map { try RecordMapping.recordName(for: $0, type: "recipe") }
            text += try UploadJournal.encode(JournalLine(k: "plan", n: doubtful, d: doubtful.map { _ in "" }))
            try text.write(toFile: journalPath, atomically: true, encoding: .utf8)

            // Ten records changed since, among the acknowledged ones.
            var changed = records
            for index in 0..<10 {
                guard case .object(var fields) = changed[index * 4] else { continue }
                fields["title"] = .string("changed \(index)")
                changed[index * 4] = .object(fields)
            }
            let changedInput = try directory.write("changed.json", TestRecords.envelope(changed))
            try await server.clearLog()
            let resumed = try await upload(changedInput)
            #expect(resumed.skippedByJournal == 35)
            #expect(resumed.deadLetters == 0)
            // The 10 changed and the 15 the journal did not acknowledge were sent; the server held the
            // 15 already (unchanged counts them and the 35 skipped).
            #expect(resumed.uploaded == 10)
            #expect(resumed.unchanged == 50)

            // 60 first writes and 10 changes, none twice; every record as it is now.
            try await server.expectHolds(changed, zone: "old", writes: 70)

            // And the rewritten journal (version 1 lines kept as such) makes the next run a no-op.
            try await server.clearLog()
            let third = try await upload(changedInput)
            #expect(third.skippedByJournal == 60)
            #expect(try await server.loggedRequests("records/modify").isEmpty)
        }
    }
}
