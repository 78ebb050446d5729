import Foundation
import LarderCore
import LarderTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `larder store`, `larder tombstones compact` and `larder cache prune` end to end on real files.
@Suite struct MaintenanceCLITests {
    private func sample(_ path: String) -> String { CLI.packageRoot.appendingPathComponent(path).path }

    private let carbonara = "72b9d9c3-cb02-4d69-83a1-e2dc5995360d"
    private let tikka = "41c790c3-1c71-4ddf-894d-27c8cd53d281"
    private let shakshuka = "7a946f1f-b410-41e1-860f-12bfbe859a49"

    /// Runs larder and requires success.
    @discardableResult
    private func larder(_ arguments: [String]) throws -> CLIResult {
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "larder \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    /// A store of the sample recipes with two deletes and a set-local acknowledged, and three devices.
    private func syncedStore(_ directory: TemporaryDirectory) throws -> String {
        let store = directory.path("larder.db")
        try larder(["store", "import", sample("samples/recipes.json"), "--store", store])
        try larder(["store", "delete", carbonara, shakshuka, "--store", store, "--now", "2024-03-01T09:00:00Z"])
        try larder(["store", "set-local", tikka, "--store", store, "--now", "2024-03-01T09:01:00Z"])
        try larder(["store", "ack", "--store", store, "--now", "2024-03-01T09:05:00Z"])
        try larder([
            "store", "device", "mac", "--this", "--store", store, "--watermark", "2024-03-01T09:05:00Z", "--now",
            "2024-03-01T09:05:00Z",
        ])
        try larder([
            "store", "device", "iphone", "--name", "Anna's iPhone", "--store", store, "--watermark",
            "2024-03-02T10:00:00Z", "--now", "2024-03-02T10:00:00Z",
        ])
        try larder([
            "store", "device", "ipad", "--name", "Anna's iPad", "--store", store, "--watermark", "2024-03-01T08:00:00Z",
            "--now", "2024-03-01T08:00:00Z",
        ])
        return store
    }

    @Test("tombstones compact keeps what a device still needs, names it, and drops the rest once it synced")
    func compactEndToEnd() throws {
        let directory = try TemporaryDirectory()
        let store = try syncedStore(directory)
        let dry = try larder(["tombstones", "compact", "--store", store, "--now", "2024-03-03T00:00:00Z", "--dry-run"])
        #expect(
            dry.stdout.contains(
                "kept     recipe \(carbonara) (deleted 2024-03-01T09:00:00Z): device Anna's iPad (ipad) has not synced past it"
            ))
        #expect(
            dry.stdout.contains(
                "summary: 2 tombstones: 0 would drop, 2 kept (0 not acknowledged, 0 pending, 2 waiting for devices: ipad 2)"
            ))
        // The iPad catches up; the iPhone then stays away past the horizon.
        try larder([
            "store", "device", "ipad", "--store", store, "--watermark", "2024-03-04T00:00:00Z", "--now",
            "2024-06-14T00:00:00Z",
        ])
        let run = try larder(["tombstones", "compact", "--store", store, "--now", "2024-06-15T00:00:00Z"])
        #expect(
            run.stdout.contains(
                "expired  device Anna's iPhone (iphone): last seen 2024-03-02T10:00:00Z, more than 90d ago"))
        #expect(
            run.stdout.contains(
                "dropped  recipe \(shakshuka) (deleted 2024-03-01T09:00:00Z): acknowledged 2024-03-01T09:05:00Z"))
        #expect(run.stdout.contains("summary: 2 tombstones: 2 dropped, 0 kept"))
        let pending = try larder(["store", "pending", "--store", store])
        #expect(pending.stdout.components(separatedBy: "\n").filter { $0.contains(" purge recipe ") }.count == 2)
        let again = try larder(["tombstones", "compact", "--store", store, "--now", "2024-06-15T00:00:00Z", "--json"])
        #expect(again.stdout.contains("\"dropped\":0") && again.stdout.contains("\"newlyExpired\":[]"))
        let back = try CLI.run([
            "store", "device", "iphone", "--store", store, "--watermark", "2024-06-16T00:00:00Z", "--now",
            "2024-06-16T00:00:00Z",
        ])
        #expect(back.status == 0 && back.stderr.contains("it must reset"))
        let stats = try larder(["store", "stats", "--store", store])
        #expect(stats.stdout.contains("recipe v4: 20 records") && stats.stdout.contains("0 tombstones"))
        #expect(stats.stdout.contains("history: compaction 2"))
    }

    @Test("store stats and export: tombstones and local-only records, JSON, NDJSON and YAML, gzip")
    func exportAndStats() throws {
        let directory = try TemporaryDirectory()
        let store = try syncedStore(directory)
        let stats = try larder(["store", "stats", "--store", store, "--json"])
        #expect(stats.stdout.contains("\"tombstones\":2") && stats.stdout.contains("\"localOnly\":2"))
        for format in ["json", "ndjson", "yaml"] {
            let out = directory.path("export.\(format).gz")
            let export = try larder(["store", "export", "--store", store, "--to", format, "-o", out])
            #expect(export.stderr.contains("22 recipe records exported"))
            let back = try larder(["convert", out, "--to", "ndjson"])
            let lines = back.stdout.split(separator: "\n")
            #expect(lines.count == 22, "\(format) round trip")
            let tombstone = try #require(lines.first { $0.contains(carbonara) })
            #expect(
                tombstone.contains("\"isDeleted\":true") && !tombstone.contains("\"title\""),
                "\(format): minimal tombstone")
        }
        let live = try larder(["store", "export", "--store", store, "--to", "ndjson", "--skip-tombstones"])
        #expect(live.stdout.split(separator: "\n").count == 20)
        #expect(live.stdout.contains("\"isCloudEnabled\":false"))
    }

    @Test(
        "cache prune on the sample cache: each eviction with its reason, pinned recipes untouched, second run changes nothing"
    )
    func pruneCacheFile() throws {
        let directory = try TemporaryDirectory()
        let cache = directory.path("recipe-cache.json")
        try FileManager.default.copyItem(atPath: sample("samples/cache/recipe-cache.json"), toPath: cache)
        let original = try Data(contentsOf: URL(fileURLWithPath: cache))
        let dry = try larder([
            "cache", "prune", "--cache", cache, "--now", "2024-03-01T08:20:00Z", "--max-entries", "8", "--dry-run",
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache)) == original, "a dry run writes nothing")
        let run = try larder([
            "cache", "prune", "--cache", cache, "--now", "2024-03-01T08:20:00Z", "--max-entries", "8",
        ])
        #expect(
            run.stdout.replacingOccurrences(of: "evicted", with: "evict  ").split(separator: "\n").dropFirst().first
                == dry.stdout.split(separator: "\n").dropFirst().first)
        #expect(run.stdout.contains("\"Lemon Drizzle Cake\" (expired: fetched 2024-03-01T07:10:00Z"))
        #expect(run.stdout.contains("\"Ratatouille\" (over entries: least recently used, last used never"))
        #expect(run.stdout.contains("summary: 6 evicted (4 expired, 2 over entries, 0 over bytes); 14 → 8 entries"))
        #expect(run.stdout.contains("cache hits 42, misses 9"))
        // Pinned recipes (saved or created), expired or not, are all still there.
        let stats = try larder(["cache", "stats", "--cache", cache, "--now", "2024-03-01T08:20:00Z"])
        #expect(stats.stdout.contains("entries: 8") && stats.stdout.contains("pinned: 4"))
        let after = try Data(contentsOf: URL(fileURLWithPath: cache))
        #expect(try JSONSerialization.jsonObject(with: after) is [String: Any], "the rewritten file is valid JSON")
        for id in [carbonara, tikka, shakshuka] {
            #expect(String(decoding: after, as: UTF8.self).contains("\"id\": \"\(id)\""))
        }
        let second = try larder([
            "cache", "prune", "--cache", cache, "--now", "2024-03-01T08:20:00Z", "--max-entries", "8",
        ])
        #expect(second.stdout.contains("summary: 0 evicted"))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: cache)) == after, "the second run leaves the file byte for byte")
    }

    @Test("cache prune on the store table records the run in the history")
    func pruneCacheTable() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("larder.db")
        try larder(["cache", "import", sample("samples/cache/recipe-cache.json"), "--store", store])
        let run = try larder(["cache", "prune", "--store", store, "--now", "2024-03-01T08:20:00Z", "--max-bytes", "8k"])
        #expect(run.stdout.contains("over bytes: least recently used"))
        #expect(run.stdout.contains("pinned (saved or created, never evicted): 4"))
        let stats = try larder(["store", "stats", "--store", store, "--now", "2024-03-01T08:20:00Z"])
        #expect(stats.stdout.contains("history: import 1") && stats.stdout.contains("prune 1"))
        let second = try larder([
            "cache", "prune", "--store", store, "--now", "2024-03-01T08:20:00Z", "--max-bytes", "8k",
        ])
        #expect(second.stdout.contains("summary: 0 evicted"))
        // A file prune can record itself in a store's history too.
        let cache = directory.path("recipe-cache.json")
        try FileManager.default.copyItem(atPath: sample("samples/cache/recipe-cache.json"), toPath: cache)
        try larder(["cache", "prune", "--cache", cache, "--history-store", store, "--now", "2024-03-01T08:20:00Z"])
        #expect(try larder(["store", "stats", "--store", store]).stdout.contains("prune 3"))
    }

    @Test(
        "bad flags and inputs: usage errors exit 2, a missing store 3, a malformed cache entry 1 with line:column and field"
    )
    func errors() throws {
        let directory = try TemporaryDirectory()
        #expect(try CLI.run(["tombstones", "compact", "--store", directory.path("none.db")]).status == 3)
        #expect(try CLI.run(["tombstones", "compact", "--store", "x.db", "--horizon", "soon"]).status == 2)
        #expect(try CLI.run(["cache", "prune", "--cache", "a.json", "--store", "b.db"]).status == 2)
        #expect(try CLI.run(["cache", "prune", "--cache", "a.json", "--now", "yesterday"]).status == 2)
        let bad = try directory.write(
            "bad.json",
            """
            {"fetchedAt": "2024-03-01T08:00:00Z",
             "records": [
               {"id": "a", "fetchedAt": "2024-03-01T08:00:00Z", "recipe": {"id": "a", "title": "A"}},
               {"id": "b", "lastAccess": "yesterday", "recipe": {"id": "b", "title": "B"}}
             ]}
            """)
        let before = try directory.read("bad.json")
        let result = try CLI.run(["cache", "prune", "--cache", bad, "--now", "2024-03-01T09:00:00Z"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("bad.json:4:") && result.stderr.contains("record 1")
                && result.stderr.contains("lastAccess"), "\(result.stderr)")
        #expect(try directory.read("bad.json") == before)
        let unknown = try CLI.run(["store", "delete", "nope", "--store", try syncedStore(directory)])
        #expect(unknown.status == 2 && unknown.stderr.contains("no record nope"))
    }
}
