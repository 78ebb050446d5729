import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderTestSupport
import Testing

@testable import LarderSync

/// An upload to BrewGuide's container runs BrewGuide's own rules (issue 29 part 3): a log the app
/// would refuse goes to the dead letters with every reason, the others reach the zone.
@Suite struct BrewGuideRulesUploadTests {
    @Test("BrewGuide's container implies its rules; another container none")
    func impliedByContainer() {
        #expect(RecordRules.implied(byContainer: "iCloud.com.brewguide.BrewGuide") == .brewGuide)
        #expect(RecordRules.implied(byContainer: "icloud.com.brewguide.brewguide") == .brewGuide)
        #expect(RecordRules.implied(byContainer: UploadTestServer.container) == nil)
    }

    @Test("with BrewGuide's rules, an unrated log and one with a 300-character note are dead letters; the rest upload")
    func deadLettersNameTheReasons() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let good = BrewLog.make(id: "good")
            var unrated = BrewLog.make(id: "unrated")
            unrated.rating = nil
            let long = BrewLog.make(id: "long", note: String(repeating: "z", count: 300))
            let records = [good, unrated, long].map(\.value)
            let input = try directory.write(
                "logs.json", TestRecords.envelope(records, type: .brewLog))
            var upload = FileUpload(
                client: server.client(zone: "brewguide"), journalPath: directory.path("j"),
                deadLetterPath: directory.path("dead.ndjson"))
            upload.rules = .brewGuide
            let preparation = UploadPreparation(
                inputs: [input], migrator: Migrator(registry: try .load()), workDirectory: directory.path("work"))
            let report = try await upload.run(preparation: preparation)
            #expect(report.uploaded == 1)
            #expect(report.deadLetters == 2)
            let letters = try String(contentsOfFile: directory.path("dead.ndjson"), encoding: .utf8)
                .split(separator: "\n")
            #expect(letters.count == 2)
            #expect(letters.allSatisfy { $0.contains(#""stage":"rules""#) })
            #expect(letters.contains { $0.contains("unrated, and it needs a rating of 1-5") })
            #expect(letters.contains { $0.contains("a note of 300 characters, and it keeps at most 280") })
            let (contents, _) = try await server.zoneContents(zone: "brewguide")
            #expect(contents.count == 1)

            // Without the rules (another app's container), all three upload.
            var plain = FileUpload(
                client: server.client(zone: "other"), journalPath: directory.path("j2"),
                deadLetterPath: directory.path("dead2.ndjson"))
            plain.rules = nil
            #expect(try await plain.run(preparation: preparation).uploaded == 3)
        }
    }
}
