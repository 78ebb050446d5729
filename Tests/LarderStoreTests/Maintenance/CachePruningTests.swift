import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry
@testable import LarderStore

@Suite struct CachePruningTests {
    let now = fixtureDate.addingTimeInterval(3600)  // 09:00
    private func minutesAgo(_ minutes: Double) -> Int64 { now.addingTimeInterval(-minutes * 60).milliseconds }

    private func entry(_ id: String, fetched: Double?, used: Double? = nil, bytes: Int = 100, pinned: Bool = false)
        -> CacheEntryInfo
    {
        CacheEntryInfo(
            id: id, fetchedAt: fetched.map(minutesAgo), lastAccess: used.map(minutesAgo), bytes: bytes, isPinned: pinned
        )
    }

    private func evicted(_ plan: PrunePlan, _ entries: [CacheEntryInfo]) -> [String] {
        plan.evictions.map { "\(entries[$0.index].id):\($0.reason.rawValue)" }
    }

    @Test("expired entries go first, then the least recently used until under the caps, ties broken by id")
    func order() {
        let entries = [
            entry("fresh-b", fetched: 5, used: 4), entry("old", fetched: 45, used: 1),
            entry("fresh-a", fetched: 5, used: 4),
            entry("never-read", fetched: 10), entry("recent", fetched: 5, used: 1),
            entry("no-fetch-time", fetched: nil, used: 1),
        ]
        let plan = CachePruning.plan(entries, policy: CachePolicy(maxEntries: 2, now: now))
        #expect(
            evicted(plan, entries) == [
                "old:expired", "no-fetch-time:expired", "never-read:over-entries", "fresh-a:over-entries",
            ])
        #expect(plan.entriesAfter == 2 && plan.bytesAfter == 200 && plan.ttl == CachePolicy.defaultTTL)
    }

    @Test(
        "the byte cap evicts by recency and reports over-bytes; the entries cap takes precedence while both are exceeded"
    )
    func byteCap() {
        let entries = [
            entry("a", fetched: 1, used: 9, bytes: 500), entry("b", fetched: 1, used: 8, bytes: 500),
            entry("c", fetched: 1, used: 1, bytes: 500),
        ]
        #expect(
            evicted(CachePruning.plan(entries, policy: CachePolicy(maxBytes: 1000, now: now)), entries) == [
                "a:over-bytes"
            ])
        #expect(
            evicted(CachePruning.plan(entries, policy: CachePolicy(maxBytes: 500, maxEntries: 2, now: now)), entries)
                == ["a:over-entries", "b:over-bytes"])
    }

    @Test("pinned recipes are never evicted, expired or not; the plan says when they alone exceed a cap")
    func pinned() {
        let entries = [
            entry("saved", fetched: 600, bytes: 900, pinned: true),
            entry("created", fetched: 1, used: 0, bytes: 900, pinned: true), entry("other", fetched: 1),
        ]
        let plan = CachePruning.plan(entries, policy: CachePolicy(maxBytes: 1000, now: now))
        #expect(evicted(plan, entries) == ["other:over-bytes"])
        #expect(plan.pinned == 2 && plan.pinnedExpired == 1 && plan.capNotMet?.contains("pinned") == true)
    }

    @Test("the plan is the same whatever order the entries come in", arguments: [UInt64(1), 2, 3])
    func deterministic(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let entries = (0..<200).map { index in
            entry(
                "e\(index)", fetched: Double(Int.random(in: 0..<60, using: &random)),
                used: Double(Int.random(in: 0..<5, using: &random)),
                bytes: 100, pinned: index % 9 == 0)
        }
        let policy = CachePolicy(maxEntries: 60, now: now)
        let reference = evicted(CachePruning.plan(entries, policy: policy), entries)
        let shuffled = entries.shuffled(using: &random)
        let again = evicted(CachePruning.plan(shuffled, policy: policy), shuffled)
        #expect(
            Set(reference) == Set(again)
                && reference.filter { $0.hasSuffix("over-entries") } == again.filter { $0.hasSuffix("over-entries") })
        #expect(!reference.contains { $0.hasPrefix("e0:") || $0.hasPrefix("e9:") }, "pinned entries stay")
    }

    @Test(
        "a cache file keeps its header and the kept entries byte for byte; gzip stays gzip; the TTL comes from the flag, the file, or 30 minutes"
    )
    func fileRewrite() throws {
        let directory = try TemporaryDirectory()
        let sample = try String(
            contentsOfFile: CLI.packageRoot.appendingPathComponent("samples/cache/recipe-cache.json").path,
            encoding: .utf8)
        let path = try directory.write("cache.json", sample)
        let scan = try RecipeCacheFile.scan(path: path)
        #expect(
            scan.entries.count == 14 && scan.header.ttl == 1800 && scan.header.hits == 42
                && scan.entries.filter(\.isPinned).count == 4)
        let policy = CachePolicy(now: Timestamp.parse("2024-03-01T08:20:00Z") ?? now)
        let result = try RecipeCacheFile.prune(path: path, policy: policy)
        #expect(result.plan.evictions.count == 4)
        let pruned = try directory.read("cache.json")
        let kept = scan.ranges.indices.filter { index in !result.plan.evictions.contains { $0.index == index } }
        let bytes = Array(sample.utf8)
        for index in kept {
            let original = String(decoding: bytes[scan.ranges[index]], as: UTF8.self)
            #expect(pruned.contains(original), "entry \(index) is copied byte for byte")
        }
        #expect(pruned.hasPrefix(String(decoding: bytes[0..<scan.ranges[0].lowerBound], as: UTF8.self)))
        #expect(try RecipeCacheFile.scan(path: path).entries.count == 10)
        // A longer TTL from the flag keeps everything that is left; the file's own would evict nothing more either.
        #expect(
            try RecipeCacheFile.prune(path: path, policy: CachePolicy(ttl: 7200, now: policy.now)).plan.evictions
                .isEmpty)
        // gzip in, gzip out.
        let gz = directory.path("cache.json.gz")
        let writer = try GzipWriter(try FileByteSink(path: gz))
        try writer.write(sample)
        try writer.close()
        #expect(try RecipeCacheFile.prune(path: gz, policy: policy).plan.evictions.count == 4)
        let magic = try Data(contentsOf: URL(fileURLWithPath: gz)).prefix(2)
        #expect(Array(magic) == [0x1F, 0x8B])
        #expect(try RecipeCacheFile.scan(path: gz).entries.count == 10)
    }

    @Test("evicting every entry still leaves a valid cache file")
    func evictEverything() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "cache.json",
            "{\"records\": [{\"id\": \"a\", \"recipe\": {\"id\": \"a\"}}, {\"id\": \"b\", \"recipe\": {\"id\": \"b\"}}], \"stats\": {\"hits\": 1}}"
        )
        #expect(try RecipeCacheFile.prune(path: path, policy: CachePolicy(now: now)).plan.evictions.count == 2)
        let scan = try RecipeCacheFile.scan(path: path)
        #expect(scan.entries.isEmpty && scan.header.hits == 1)
    }

    @Test("the store table prunes the same entries as the file, and records the run")
    func tableMatchesFile() throws {
        let directory = try TemporaryDirectory()
        let store = try Store(path: directory.path("larder.db"), create: true)
        let table = RecipeCacheTable(store: store)
        let sample = CLI.packageRoot.appendingPathComponent("samples/cache/recipe-cache.json").path
        #expect(try table.importFile(path: sample) == 14)
        let policy = CachePolicy(maxEntries: 8, now: Timestamp.parse("2024-03-01T08:20:00Z") ?? now)
        let fileResult = try RecipeCacheFile.prune(path: sample, policy: policy, isDryRun: true)
        let tableResult = try table.prune(policy: policy)
        let fromFile = Set(fileResult.plan.evictions.map { fileResult.entries[$0.index].id })
        let fromTable = Set(tableResult.plan.evictions.map { tableResult.entries[$0.index].id })
        #expect(fromFile == fromTable && fromTable.count == 6)
        #expect(try table.entries().count == 8)
        #expect(try store.history().last?.kind == .prune)
        #expect(try table.prune(policy: policy).plan.evictions.isEmpty, "a second run changes nothing")
    }
}
