import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry
@testable import LarderStore

#if canImport(Glibc)
import Glibc
#endif

/// kill -9 at random moments: the built `larder` runs as a child process on a store (or cache
/// file) big enough to take a while, and is killed, by SIGKILL from inside at a chosen write step
/// (`LARDER_FAULT_KILL_AT`) and from outside once its transaction is under way.
///
/// The store must be exactly as before or exactly as after: every row of every table is compared through a digest.
@Suite struct MaintenanceKillTests {
    static let base = Date(timeIntervalSince1970: 1_709_280_000)  // 2024-03-01T08:00:00Z
    static let now = "2024-09-01T00:00:00Z"

    /// 6,000 tombstones (every 5th fat, every 7th not acknowledged, every 11th with a pending change),
    /// 300 live records, 6,000 cache entries, and four devices: one that blocks half the
    /// tombstones, one past them all, one that expires, and this one.
    static func makeStore(at path: String, tombstones: Int = 6000) throws {
        let store = try Store(path: path, create: true)
        let sync = SyncState(store: store)
        // Bodies are built as text: building Values row by row is slow in a debug build.
        let fatTemplate = try JSONWriter.string(Recipe.make(id: "ID", title: "An old recipe").value)
            .replacingOccurrences(
                of: "\"isDeleted\":false", with: "\"isDeleted\":true")
        try store.write { transaction in
            try transaction.setSchemaState(SchemaState(type: "recipe", version: 3, stepsDone: 0), at: base)
            // Raw rows through the store's test-only path (its arguments are text; the integer
            // columns store them as integers).
            let insert = { (arguments: [String?]) in
                try transaction.executeRaw(
                    """
                    INSERT INTO records (type, id, version, body, recordName, isDeleted, deletedAt, updatedAt, cloudAckTag, cloudAckAt)
                    VALUES ('recipe', ?, 3, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: arguments)
            }
            for index in 0..<tombstones {
                let id = String(format: "t%06d", index)
                let deletedAt = Timestamp.format(base.addingTimeInterval(Double(index)))
                let body =
                    index % 5 == 0
                    ? fatTemplate.replacingOccurrences(of: "\"ID\"", with: "\"\(id)\"")
                    : "{\"id\":\"\(id)\",\"recordName\":\"recipe-\(id)\",\"isDeleted\":true,\"deletedAt\":\"\(deletedAt)\",\"updatedAt\":\"\(deletedAt)\"}"
                let acked = index % 7 != 0
                try insert([
                    id, body, "recipe-\(id)", "1", deletedAt, deletedAt, acked ? "tag-\(index)" : nil,
                    acked ? String(base.milliseconds + Int64(index + 1) * 1000) : nil,
                ])
                if index % 11 == 0 {
                    try transaction.executeRaw(
                        "INSERT INTO pending_changes (type, id, record_name, kind, payload, created_at) VALUES ('recipe', ?, ?, 'tombstone', '{}', ?)",
                        arguments: [id, "recipe-\(id)", String(base.milliseconds)])
                }
            }
            let live = try JSONWriter.string(Recipe.make(id: "ID").value)
            for index in 0..<300 {
                try insert([
                    "live-\(index)", live.replacingOccurrences(of: "\"ID\"", with: "\"live-\(index)\""), nil, "0", nil,
                    nil, nil, nil,
                ])
            }
            for index in 0..<6000 {
                let fetched = base.milliseconds + Int64(index % 3600) * 1000
                let numbers = [
                    fetched, fetched + Int64(index % 97) * 1000, Int64(index % 13), Int64(900 + index % 200),
                    index % 17 == 0 ? 1 : 0,
                ]
                try transaction.executeRaw(
                    "INSERT INTO recipe_cache (id, title, body, fetched_at, last_access, hits, bytes, is_pinned) VALUES (?, ?, '{}', ?, ?, ?, ?, ?)",
                    arguments: [String(format: "c%06d", index), "Cached \(index)"] + numbers.map(String.init))
            }
            try transaction.executeRaw(
                "INSERT INTO recipe_cache_meta (key, value) VALUES ('fetched_at', ?)",
                arguments: [String(base.milliseconds)])
        }
        let seen = Timestamp.parse(now) ?? base
        _ = try sync.recordDeviceSync(id: "mac", watermark: seen, seenAt: seen, isSelf: true)
        _ = try sync.recordDeviceSync(
            id: "phone", watermark: base.addingTimeInterval(Double(tombstones / 2)), seenAt: seen)
        _ = try sync.recordDeviceSync(
            id: "tablet", watermark: base.addingTimeInterval(Double(tombstones + 10)), seenAt: seen)
        _ = try sync.recordDeviceSync(id: "old-laptop", watermark: base, seenAt: base)
    }

    /// Every row but the history's, and how many history rows there are.
    static func state(_ path: String) throws -> String {
        let store = try Store(path: path)
        return try store.contentDigest(excluding: ["history"]) + " history=\(store.history().count)"
    }

    /// Runs larder; returns whether SIGKILL ended it.
    static func run(_ arguments: [String], killAt: Int? = nil) throws -> (killed: Bool, status: Int32) {
        let process = try start(arguments, killAt: killAt)
        process.waitUntilExit()
        return (
            process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
            process.terminationStatus
        )
    }

    static func start(_ arguments: [String], killAt: Int? = nil) throws -> Process {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LARDER_FAULT_KILL_AT"] = killAt.map(String.init)
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Starts larder, waits until its write transaction is under way (the rollback journal
    /// exists), lets it run a random while longer, and kills it.
    static func killMidway(_ arguments: [String], journal: String, random: inout SeededGenerator) throws {
        let process = try start(arguments)
        while process.isRunning && !FileManager.default.fileExists(atPath: journal) { sched_yield() }
        var spins = Int.random(in: 0..<20_000, using: &random)
        while process.isRunning && spins > 0 {
            spins -= 1
            sched_yield()
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func copy(_ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    /// The kill trials for one command over the store: in-process kills at chosen steps (before the
    /// commit: as before; after it: as after) and outside kills mid-transaction.
    /// - Parameters:
    ///   - command: The larder arguments for a store path.
    ///   - seed: Seeds the choice of kill points.
    ///   - countSteps: the number of write steps a full run takes on the store (from a dry run).
    /// - Throws: When a trial cannot be set up or a check fails to run.
    func killTrials(_ command: (String) -> [String], seed: UInt64, countSteps: (String) throws -> Int) throws {
        let directory = try TemporaryDirectory()
        let original = directory.path("original.db")
        try Self.makeStore(at: original)
        let steps = try countSteps(original)
        let before = try Self.state(original)
        let finished = directory.path("finished.db")
        try copy(original, finished)
        #expect(try !Self.run(command(finished)).killed)
        let after = try Self.state(finished)
        #expect(before != after, "the run must change the store for the test to mean anything")
        var random = SeededGenerator(seed: seed)
        let points = [1, steps - 1, steps] + (0..<2).map { _ in Int.random(in: 2..<(steps - 1), using: &random) }
        for point in points {
            let trial = directory.path("trial.db")
            try copy(original, trial)
            let outcome = try Self.run(command(trial), killAt: point)
            #expect(outcome.killed, "killed at step \(point) of \(steps)")
            let state = try Self.state(trial)
            #expect(
                state == (point < steps ? before : after),
                "killed at step \(point) of \(steps): the store must be exactly \(point < steps ? "as before" : "as after")"
            )
        }
        for _ in 0..<2 {
            let trial = directory.path("trial.db")
            try copy(original, trial)
            try Self.killMidway(command(trial), journal: trial + "-journal", random: &random)
            let state = try Self.state(trial)
            #expect(
                state == before || state == after, "killed from outside: the store is neither as before nor as after")
        }
    }

    @Test("kill -9 during tombstones compact leaves the store exactly as before or as after")
    func killCompaction() throws {
        try killTrials(
            { ["tombstones", "compact", "--store", $0, "--now", Self.now] }, seed: 3,
            countSteps: { path in
                var compaction = TombstoneCompaction(store: try Store(path: path))
                compaction.clock = .fixed(Timestamp.parse(Self.now) ?? Date())
                compaction.isDryRun = true
                let summary = try compaction.run()
                #expect(summary.dropped > 1000 && summary.stripped > 500 && summary.newlyExpired == ["old-laptop"])
                // The expired device, each dropped or stripped tombstone, the history row, then one after the commit.
                return summary.changes + 2
            })
    }

    @Test("kill -9 during cache prune --store leaves the store exactly as before or as after")
    func killStorePrune() throws {
        try killTrials(
            {
                [
                    "cache", "prune", "--store", $0, "--ttl", "3000s", "--max-entries", "3000", "--now",
                    "2024-03-01T09:00:00Z",
                ]
            }, seed: 5,
            countSteps: { path in
                let policy = CachePolicy(ttl: 3000, maxEntries: 3000, now: Self.base.addingTimeInterval(3600))
                let plan = try RecipeCacheTable(store: try Store(path: path)).prune(policy: policy, isDryRun: true).plan
                #expect(plan.evictions.count > 2000)
                // Each eviction, the history row, then one after the commit.
                return plan.evictions.count + 2
            })
    }

    @Test("kill -9 during cache prune --cache leaves the file exactly as before or as after")
    func killFilePrune() throws {
        let directory = try TemporaryDirectory()
        let original = directory.path("original.json")
        // 6,000 entries, one fetched per second from 08:00: at 09:40 with a 1h TTL the first 2,400 are expired (bar the pinned ones).
        var text =
            "{\"cache\": \"kill-test\", \"fetchedAt\": \"2024-03-01T08:00:00Z\", \"pinned\": {\"saved\": [\"e000000\"]},\n \"records\": [\n"
        for index in 0..<6000 {
            let fetched = Timestamp.format(Self.base.addingTimeInterval(Double(index)))
            let recipe = try JSONWriter.string(
                Recipe.make(id: String(format: "e%06d", index), title: "Cached \(index)", isCreated: index % 50 == 0)
                    .value)
            text +=
                "  {\"id\": \"\(String(format: "e%06d", index))\", \"fetchedAt\": \"\(fetched)\", \"lastAccess\": \"\(fetched)\", \"recipe\": \(recipe)}"
            text += index == 5999 ? "\n" : ",\n"
        }
        text += "]}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: original))
        let before = try Data(contentsOf: URL(fileURLWithPath: original))
        let arguments = { (path: String) in
            ["cache", "prune", "--cache", path, "--ttl", "1h", "--now", "2024-03-01T09:40:00Z"]
        }
        let finished = directory.path("finished.json")
        try copy(original, finished)
        #expect(try !Self.run(arguments(finished)).killed)
        let after = try Data(contentsOf: URL(fileURLWithPath: finished))
        let kept = try RecipeCacheFile.scan(path: finished).entries.count
        #expect(after != before && kept > 3000 && kept < 6000)
        // Steps: one per kept entry copied, one before the rename, one after it.
        let steps = kept + 2
        var random = SeededGenerator(seed: 7)
        for point in [1, steps - 1, steps] + (0..<2).map({ _ in Int.random(in: 2..<(steps - 1), using: &random) }) {
            let trial = directory.path("trial.json")
            try copy(original, trial)
            #expect(try Self.run(arguments(trial), killAt: point).killed)
            let state = try Data(contentsOf: URL(fileURLWithPath: trial))
            #expect(state == (point < steps ? before : after), "killed at step \(point) of \(steps)")
        }
    }
}
