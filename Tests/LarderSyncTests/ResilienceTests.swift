import Foundation
import LarderCloudKit
import LarderCore
import LarderDedupe
import LarderRegistry
import LarderSamples
import LarderTestSupport
import Testing

@testable import LarderSync

#if canImport(Glibc)
import Glibc
#endif

/// Uploads that end correct through throttling and through kill -9 at random points.
@Suite struct ResilienceTests {
    @Test("an upload with THROTTLED on 20% of requests still ends with every record once")
    func throttledTwentyPercent() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let records = TestRecords.recipes(200, seed: 21)
            let input = try directory.write("recipes.json", TestRecords.envelope(records))
            try await server.addFault(
                #"{"operation":"records/modify","probability":0.2,"error":"THROTTLED","retryAfter":2}"#)
            let clock = TestClock()
            func makeUpload() -> FileUpload {
                var upload = FileUpload(
                    client: server.client(zone: "throttled"), journalPath: directory.path("j"),
                    deadLetterPath: directory.path("dead.ndjson"))
                upload.clock = clock.clock
                upload.configuration.maxOperationsPerRequest = 5
                upload.configuration.retry = RetryPolicy(maxAttempts: 20)
                return upload
            }
            let preparation = UploadPreparation(
                inputs: [input], migrator: Migrator(registry: try .load()), workDirectory: directory.path("work"))
            let report = try await makeUpload().run(preparation: preparation)
            #expect(report.uploaded + report.unchanged == 200)  // unchanged: a write whose answer timed out
            #expect(report.deadLetters == 0)
            // 40 batches: at 20% the chance of no throttling at all is 0.8^40 ≈ 0.01%.
            #expect(report.throttles > 0)
            let throttled = try await server.loggedRequests("records/modify").filter {
                $0["serverErrorCode"]?.stringValue == "THROTTLED"
            }
            #expect(throttled.count == report.throttles)
            #expect(clock.sleeps.filter { $0 >= 2 }.count >= report.throttles)
            try await server.expectHolds(records, zone: "throttled", writes: Int64(records.count))

            // The journal makes a re-run a no-op.
            try await server.clearFaults()
            try await server.clearLog()
            let again = try await makeUpload().run(preparation: preparation)
            #expect(again.skippedByJournal == 200)
            #expect(again.uploaded == 0)
            #expect(try await server.loggedRequests("records/modify").isEmpty)
        }
    }

    @Test("kill -9 of `larder upload` at random points: every re-run ends with each record uploaded exactly once")
    func crashAtRandomPoints() async throws {
        guard FileManager.default.isExecutableFile(atPath: CLI.executable.path) else {
            Issue.record("build larder first: swift build --product larder (looked for \(CLI.executable.path))")
            return
        }
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let config = directory.path("emulator.json")
            try server.writeConfig(to: config)
            let seed = ProcessInfo.processInfo.environment["LARDER_CRASH_SEED"].flatMap(UInt64.init) ?? 20_240_601
            var random = SeededRandom(seed: seed)
            let wantedKills = 20
            var kills = 0
            var externalKills = 0
            var round = 0
            while kills < wantedKills {
                round += 1
                let zone = "crash-\(round)"
                let records = TestRecords.recipes(20, seed: 100 + round)
                let input = try directory.write("input-\(round).json", TestRecords.envelope(records))
                let arguments = [
                    "upload", input, "--endpoint", server.baseURL.absoluteString, "--emulator-config", config, "--zone",
                    zone,
                    "--journal", directory.path("\(round).journal"), "--dead-letters",
                    directory.path("\(round).dead.ndjson"),
                    "--batch-size", "4", "--concurrency", "2", "--progress", "lines", "--progress-interval", "0",
                ]
                // Several crashes in a row on the same upload, each resuming the last one's journal.
                for attempt in 0..<5 where kills < wantedKills {
                    if attempt == 1, round % 2 == 0 {
                        // From outside: SIGKILL after a random number of progress lines.
                        let lines = random.int(0...4)
                        if try await offCooperativePool({ try killAfterLines(arguments, lines: lines) }) {
                            kills += 1
                            externalKills += 1
                        }
                        continue
                    }
                    let step = random.int(1...22)
                    let result = try await runLarder(arguments, environment: ["LARDER_FAULT_KILL_AT": String(step)])
                    if result.status == SIGKILL {
                        kills += 1
                    } else {
                        #expect(result.status == 0, "round \(round) step \(step): \(result.stderr)")
                    }
                }
                let final = try await runLarder(arguments)
                #expect(final.status == 0, "round \(round): \(final.stderr)")
                try await server.expectHolds(records, zone: zone, writes: Int64(records.count))
            }
            #expect(kills >= 20)
            #expect(externalKills >= 2)
            print("crash test: \(kills) kills (\(externalKills) from outside) over \(round) uploads, seed \(seed)")
        }
    }

    /// Runs larder and kills it with SIGKILL once it has printed `lines` progress lines
    /// (reading its stderr blocks until they come; nothing sleeps).
    ///
    /// Returns whether it was killed.
    @Sendable func killAfterLines(_ arguments: [String], lines: Int) throws -> Bool {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = CLI.packageRoot
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = 0
        var killed = false
        let handle = errors.fileHandleForReading
        while true {
            let data = handle.availableData
            if data.isEmpty { break }
            seen += data.filter { $0 == 0x0A }.count
            if seen >= lines, !killed, process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        process.waitUntilExit()
        return killed && process.terminationReason == .uncaughtSignal
    }
}
