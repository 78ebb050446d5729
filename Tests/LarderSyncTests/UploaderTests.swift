import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderTestSupport
import Testing

@testable import LarderSync

/// The uploader against the in-process emulator, with failures injected in front of it.
@Suite struct UploaderTests {
    func makeUploader(
        _ server: UploadTestServer, zone: String, transport: ScriptedTransport? = nil, delegate: CollectingDelegate,
        clock: TestClock, adjust: (inout UploadConfiguration) -> Void = { _ in }
    ) -> (Uploader, ScriptedTransport) {
        let scripted = transport ?? ScriptedTransport(base: URLSessionTransport(timeout: 300))
        let client = server.client(zone: zone) { _ in scripted }
        var configuration = UploadConfiguration()
        configuration.retry = RetryPolicy(random: .constant(0.5))
        adjust(&configuration)
        return (
            Uploader(client: client, configuration: configuration, delegate: delegate, clock: clock.clock), scripted
        )
    }

    /// Uploads `original`, then puts a changed copy on the server behind our back (forced), and
    /// returns our own changed copy: the next upload of it conflicts.
    func diverge(
        _ original: [Value], server: UploadTestServer, zone: String, theirs: (inout Fields) -> Void,
        ours: (inout Fields) -> Void
    ) async throws -> [Value] {
        _ = try await upload(
            try uploadItems(original),
            with: makeUploader(server, zone: zone, delegate: CollectingDelegate(), clock: TestClock()).0)
        var serverCopies: [Value] = []
        var ourCopies: [Value] = []
        for record in original {
            guard case .object(let members) = record else { continue }
            var copy = members
            theirs(&copy)
            serverCopies.append(.object(copy))
            copy = members
            ours(&copy)
            ourCopies.append(.object(copy))
        }
        var forced = try uploadItems(serverCopies)
        for index in forced.indices { forced[index].isForced = true }
        _ = try await upload(
            forced, with: makeUploader(server, zone: zone, delegate: CollectingDelegate(), clock: TestClock()).0)
        return ourCopies
    }

    @Test("THROTTLED waits at least retryAfter, pauses every worker, and everything still arrives once")
    func throttledWaitsRetryAfter() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let clock = TestClock()
            let scripted = ScriptedTransport(base: URLSessionTransport(timeout: 300)) { number, _ in
                number <= 2 ? .whole(.throttled, status: 429, retryAfter: 3) : .pass
            }
            let delegate = CollectingDelegate()
            let (uploader, _) = makeUploader(
                server, zone: "throttle", transport: scripted, delegate: delegate, clock: clock
            ) {
                $0.maxOperationsPerRequest = 25
            }
            let records = TestRecords.recipes(60)
            _ = try await server.client(zone: "throttle").ensureZone()
            let statistics = try await upload(try uploadItems(records), with: uploader)
            #expect(statistics.throttles == 2)
            #expect(statistics.written == 60)
            #expect(!clock.sleeps.isEmpty)
            #expect(clock.sleeps.allSatisfy { $0 >= 3 }, "sleeps: \(clock.sleeps)")
            try await server.expectHolds(records, zone: "throttle", writes: 60)
        }
    }

    @Test("a limit error splits the batch until the server takes it")
    func limitSplits() async throws {
        let server = try await UploadTestServer.start { $0.limits.maxOperationsPerRequest = 25 }
        try await stopping(server) { _ in
            let delegate = CollectingDelegate()
            let (uploader, scripted) = makeUploader(server, zone: "split", delegate: delegate, clock: TestClock())
            _ = try await server.client(zone: "split").ensureZone()
            let records = TestRecords.recipes(90)
            let statistics = try await upload(try uploadItems(records), with: uploader)
            #expect(statistics.splits == 3)  // 90 → 45 + 45 → four of 22 or 23
            #expect(statistics.written == 90)
            #expect(scripted.modifyRequests.map(\.count) == [90, 45, 22, 23, 45, 22, 23])
            try await server.expectHolds(records, zone: "split", writes: 90)
        }
    }

    @Test("only the failed items of a partial failure are sent again")
    func partialFailureRetriesFailedItems() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let records = TestRecords.recipes(20)
            let failing = try Array(uploadItems(records).map(\.recordName)[5..<8])
            let clock = TestClock()
            let scripted = ScriptedTransport(base: URLSessionTransport(timeout: 300)) { number, _ in
                number == 1
                    ? .perRecord(
                        Dictionary(uniqueKeysWithValues: failing.map { ($0, ServerErrorCode.tryAgainLater) }),
                        retryAfter: 2
                    ) : .pass
            }
            let delegate = CollectingDelegate()
            let (uploader, _) = makeUploader(
                server, zone: "partial", transport: scripted, delegate: delegate, clock: clock)
            _ = try await server.client(zone: "partial").ensureZone()
            let statistics = try await upload(try uploadItems(records), with: uploader)
            #expect(scripted.modifyRequests.count == 2)
            #expect(scripted.modifyRequests.last == failing)
            #expect(statistics.retries == 3)
            #expect(clock.sleeps.allSatisfy { $0 >= 2 })
            try await server.expectHolds(records, zone: "partial", writes: 20)
        }
    }

    @Test("an answer lost after the server applied the batch is recognised: no second write")
    func lostAnswerIsNotWrittenTwice() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let scripted = ScriptedTransport(base: URLSessionTransport(timeout: 300)) { number, _ in
                number == 1 ? .loseAnswer : .pass
            }
            let delegate = CollectingDelegate()
            let (uploader, _) = makeUploader(
                server, zone: "lost", transport: scripted, delegate: delegate, clock: TestClock())
            _ = try await server.client(zone: "lost").ensureZone()
            let records = TestRecords.recipes(30)
            let statistics = try await upload(try uploadItems(records), with: uploader)
            #expect(statistics.alreadyThere == 30)
            #expect(statistics.written == 0)
            try await server.expectHolds(records, zone: "lost", writes: 30)
        }
    }

    @Test("a record never has two writes in flight, and its last version wins")
    func noTwoWritesInFlight() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let delegate = CollectingDelegate()
            let (uploader, scripted) = makeUploader(server, zone: "versions", delegate: delegate, clock: TestClock()) {
                $0.maxOperationsPerRequest = 4
                $0.concurrency = 8
            }
            let base = TestRecords.recipes(10)
            var items: [UploadItem] = []
            var last: [String: Value] = [:]
            for version in 1...3 {
                for record in base {
                    guard case .object(var members) = record else { continue }
                    members["title"] = .string("version \(version)")
                    let value = Value.object(members)
                    items += try uploadItems([value])
                    last[try RecordMapping.recordName(for: value, type: "recipe")] = value
                }
            }
            let statistics = try await upload(items, with: uploader)
            #expect(scripted.overlaps.isEmpty, "records in two requests at once: \(scripted.overlaps)")
            #expect(statistics.written == 30)
            #expect(delegate.rejected().isEmpty)
            try await server.expectHolds(Array(last.values), zone: "versions", writes: 30)
        }
    }

    @Test("conflict policies: fail rejects, server-wins keeps, client-wins overwrites, merge merges per field")
    func conflictPolicies() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            for policy in ConflictPolicy.allCases {
                let zone = "conflict-\(policy.rawValue)"
                let ours = try await diverge(TestRecords.recipes(3, seed: 9), server: server, zone: zone) { theirs in
                    theirs["sourceURL"] = "https://example.com/theirs"
                    theirs["updatedAt"] = "2024-02-01T10:00:00Z"
                } ours: { ours in
                    ours["title"] = "ours"
                }
                let delegate = CollectingDelegate(policy: policy)
                let statistics = try await upload(
                    try uploadItems(ours),
                    with: makeUploader(server, zone: zone, delegate: delegate, clock: TestClock()).0)
                #expect(statistics.conflicts == 3, "\(policy)")
                let stored = try await server.zoneContents(zone: zone).records.values.map {
                    try RecordMapping().value(of: $0)
                }
                switch policy {
                case .fail:
                    #expect(delegate.rejected().count == 3)
                    #expect(delegate.rejected().values.allSatisfy { $0.contains("conflict") })
                    #expect(stored.allSatisfy { $0["title"] != "ours" })
                case .serverWins:
                    #expect(statistics.conflictResolutions["kept-server"] == 3)
                    #expect(
                        stored.allSatisfy { $0["title"] != "ours" && $0["sourceURL"] == "https://example.com/theirs" })
                case .clientWins:
                    #expect(stored.allSatisfy { $0["title"] == "ours" && $0["sourceURL"] == nil })
                case .merge:
                    // The server's version is newer: its title stays, and our fields it lacks are kept.
                    #expect(
                        statistics.conflictResolutions["merge"] == 3
                            || statistics.conflictResolutions["kept-server"] == 3)
                    #expect(stored.allSatisfy { $0["sourceURL"] == "https://example.com/theirs" })
                }
            }
        }
    }

    @Test("merge writes our newer fields over the server's version with its change tag")
    func mergeWritesNewerFields() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let ours = try await diverge(TestRecords.recipes(2, seed: 4), server: server, zone: "merge") { theirs in
                theirs["sourceURL"] = "https://example.com/theirs"
                theirs["updatedAt"] = "2024-01-03T10:00:00Z"
            } ours: { ours in
                ours["title"] = "ours"
                ours["updatedAt"] = "2024-01-05T10:00:00Z"
            }
            let statistics = try await upload(
                try uploadItems(ours),
                with: makeUploader(
                    server, zone: "merge", delegate: CollectingDelegate(policy: .merge), clock: TestClock()
                )
                .0)
            #expect(statistics.conflictResolutions["merge"] == 2)
            let stored = try await server.zoneContents(zone: "merge").records.values.map {
                try RecordMapping().value(of: $0)
            }
            #expect(
                stored.allSatisfy {
                    $0["title"] == "ours" && $0["sourceURL"] == "https://example.com/theirs"
                        && $0["updatedAt"] == "2024-01-05T10:00:00Z"
                })
        }
    }

    @Test("a record bigger than CloudKit's 1 MB is given up without a request")
    func oversizedRecordIsRejected() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            var records = TestRecords.recipes(3)
            guard case .object(var members) = records[1] else { return }
            members["title"] = .string(String(repeating: "x", count: 1_100_000))
            records[1] = .object(members)
            let delegate = CollectingDelegate()
            let (uploader, scripted) = makeUploader(server, zone: "big", delegate: delegate, clock: TestClock())
            let statistics = try await upload(try uploadItems(records), with: uploader)
            #expect(statistics.rejected == 1)
            #expect(statistics.written == 2)
            #expect(delegate.rejected().values.first?.contains("1048576") == true)
            #expect(scripted.modifyRequests.allSatisfy { $0.count == 2 })
        }
    }

    @Test("bad credentials stop the upload with a usage error")
    func badCredentialsStop() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let client = CloudKitClient(
                target: server.target(zone: "auth"), transport: URLSessionTransport(),
                credentials: .apiToken(UploadTestServer.apiToken, webAuthToken: "wrong"))
            let uploader = Uploader(client: client, delegate: CollectingDelegate(), clock: TestClock().clock)
            await #expect(throws: UploadStopped.self) {
                _ = try await upload(try uploadItems(TestRecords.recipes(2)), with: uploader)
            }
            do {
                _ = try await upload(try uploadItems(TestRecords.recipes(2)), with: uploader)
            } catch let stopped as UploadStopped {
                #expect(stopped.larderError.code == .usage)
            }
        }
    }
}
