import Foundation
import LarderCore
import LarderRegistry
import LarderTestSupport
import Synchronization
import Testing

@testable import LarderSync

/// A retry's wait is visible (issue 30 part 2): the progress line counts it down with its reason.
@Suite struct RetryCountdownTests {
    @Test("the progress line and bar say how long until the retry, and why")
    func rendering() {
        let waiting = UploadProgress(
            total: 10, done: 4, elapsed: 2, retryWait: RetryWait(seconds: 11.2, reason: "THROTTLED"))
        #expect(waiting.line().hasSuffix(", retrying in 12 s (THROTTLED)"))
        #expect(waiting.bar().hasSuffix("  retrying in 12 s (THROTTLED)"))
        #expect(!UploadProgress(total: 10, done: 4, elapsed: 2).line().contains("retrying"))
    }

    @Test("a throttled upload reports the wait second by second, then carries on to the end")
    func countsDown() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let records = TestRecords.recipes(6, seed: 30)
            let input = try directory.write("recipes.json", TestRecords.envelope(records))
            try await server.addFault(
                #"{"operation":"records/modify","remaining":1,"error":"THROTTLED","retryAfter":3}"#)
            let clock = TestClock()
            let seen = Mutex<[RetryWait]>([])
            var upload = FileUpload(
                client: server.client(zone: "countdown"), journalPath: directory.path("j"),
                deadLetterPath: directory.path("dead.ndjson"))
            upload.clock = clock.clock
            upload.configuration.retry = RetryPolicy(maxAttempts: 5, random: .constant(0))
            upload.progress = { progress in
                if let wait = progress.retryWait { seen.withLock { $0.append(wait) } }
            }
            let preparation = UploadPreparation(
                inputs: [input], migrator: Migrator(registry: try .load()), workDirectory: directory.path("work"))
            let report = try await upload.run(preparation: preparation)
            #expect(report.uploaded == 6)
            let waits = seen.withLock { $0 }
            #expect(waits.first?.reason == "THROTTLED", "\(waits)")
            #expect(waits.map(\.seconds) == waits.map(\.seconds).sorted(by: >), "counts down: \(waits)")
            #expect(waits.count >= 3, "\(waits)")
        }
    }
}
