import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore

/// `larder cache`: the SnapChef-style recipe cache, as a JSON file or a store table.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Maintain the local recipe cache (a JSON file, or a table of the store).",
        subcommands: [CachePruneCommand.self, CacheImportCommand.self, CacheStatsCommand.self]
    )
}

/// `--cache FILE` or `--store PATH`: which cache.
struct CacheLocationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The recipe cache JSON file (gzip allowed).", valueName: "file"))
    var cache: String?

    @Option(
        name: .long,
        help: ArgumentHelp("A Larder store whose cache table to use (instead of --cache).", valueName: "path"))
    var store: String?

    func validate() throws {
        if (cache == nil) == (store == nil) {
            throw ValidationError("give the cache as --cache FILE or --store PATH (one of them)")
        }
    }
}

/// `larder cache prune (--cache FILE | --store PATH) [--ttl 30m] [--max-bytes N] [--max-entries N] [--now T] [--dry-run]`.
struct CachePruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Evict expired and least recently used entries from the recipe cache.",
        discussion: """
            Expired entries go first (fetched longer than --ttl ago; default: the cache's own \
            ttlSeconds, else 30m as in SnapChef). Then, while the cache holds more than \
            --max-entries entries or --max-bytes bytes, the least recently used entry goes, ties \
            broken by id, so the result is the same on every run. The user's saved and created \
            recipes are pinned and never evicted. The report lists each eviction with its reason \
            (expired, over-entries, over-bytes) and the cache's hit/miss counts when it keeps them.

            A cache file is rewritten atomically (temporary file, fsync, rename) and only when \
            something is evicted; the store table is pruned in one transaction recorded in the \
            store's history. A second run changes nothing.

            Examples:
              larder cache prune --cache recipe-cache.json --dry-run
              larder cache prune --cache recipe-cache.json --max-entries 200 --max-bytes 5MB
              larder cache prune --store larder.db --ttl 1h
            """
    )

    @OptionGroup var location: CacheLocationOptions

    @Option(
        name: .long, help: ArgumentHelp("How long a fetched entry stays fresh (30m, 2h, 1d).", valueName: "duration"))
    var ttl: DurationArgument?

    @Option(name: .long, help: ArgumentHelp("Most bytes the entries may take (512k, 10MB).", valueName: "size"))
    var maxBytes: ByteCountArgument?

    @Option(name: .long, help: ArgumentHelp("Most entries the cache may hold.", valueName: "count"))
    var maxEntries: Int?

    @OptionGroup var nowOption: NowOption

    @Flag(name: .long, help: "Decide and report, but change nothing.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("Also record a file prune in this store's history.", valueName: "path"))
    var historyStore: String?

    @Flag(name: .long, help: "Report as NDJSON: one object per eviction, then {\"summary\": …}.")
    var json = false

    func validate() throws {
        if let maxEntries, maxEntries < 0 { throw ValidationError("--max-entries must be 0 or more") }
        if historyStore != nil && location.cache == nil {
            throw ValidationError("--history-store goes with --cache (a store prune records itself)")
        }
    }

    func run() throws {
        let policy = CachePolicy(
            ttl: ttl?.seconds, maxBytes: maxBytes?.bytes, maxEntries: maxEntries, now: nowOption.date)
        let result: CachePruneResult
        let name: String
        if let path = location.cache {
            name = path
            result = try RecipeCacheFile.prune(
                path: path, policy: policy, isDryRun: dryRun, history: try historyStore.map { try Store(path: $0) },
                clock: nowOption.clock)
        } else {
            let store = try Store(path: location.store ?? "larder.db")
            name = store.path
            result = try RecipeCacheTable(store: store).prune(policy: policy, isDryRun: dryRun, clock: nowOption.clock)
        }
        CrashSwitch.step()  // after the commit or rename: a kill here leaves the cache as after
        let spool = try ReportSpool()
        if !json {
            try spool.line(
                "cache prune\(dryRun ? " (dry run: nothing changes)" : ""): \(name), now \(Timestamp.format(policy.now)), ttl \(ReportFormat.duration(result.plan.ttl))"
                    + (maxEntries.map { ", max \(ReportFormat.count($0)) entries" } ?? "")
                    + (maxBytes.map { ", max \(ReportFormat.bytes($0.bytes))" } ?? ""))
        }
        for eviction in result.plan.evictions {
            let entry = result.entries[eviction.index]
            if json {
                var object = ValueBuilder()
                object.set("event", "evicted")
                object.set("id", entry.id)
                object.set("title", entry.title)
                object.set("reason", eviction.reason.rawValue)
                object.set("bytes", entry.bytes)
                object.set("fetchedAt", entry.fetchedAt.map { ReportFormat.time($0) })
                object.set("lastAccess", entry.lastAccess.map { ReportFormat.time($0) })
                object.set("hits", entry.hits)
                try spool.line(try JSONWriter.string(object.value))
            } else {
                try spool.line(
                    Self.text(entry, eviction.reason, verb: dryRun ? "evict  " : "evicted", ttl: result.plan.ttl))
            }
        }
        let summary = result.summary
        if json {
            try spool.line(
                "{\"summary\":" + String(decoding: try TombstonesCompactCommand.encoder.encode(summary), as: UTF8.self)
                    + "}")
        } else {
            try spool.line(
                "summary: \(ReportFormat.count(summary.evicted)) \(dryRun ? "to evict" : "evicted") (\(ReportFormat.count(summary.expired)) expired, "
                    + "\(ReportFormat.count(summary.overEntries)) over entries, \(ReportFormat.count(summary.overBytes)) over bytes); "
                    + "\(ReportFormat.count(summary.entriesBefore)) → \(ReportFormat.count(summary.entriesAfter)) entries, "
                    + "\(ReportFormat.bytes(summary.bytesBefore)) → \(ReportFormat.bytes(summary.bytesAfter))")
            try spool.line(
                "         pinned (saved or created, never evicted): \(ReportFormat.count(summary.pinned))"
                    + (summary.pinnedExpired > 0
                        ? ", \(ReportFormat.count(summary.pinnedExpired)) of them past the TTL" : ""))
            if let hits = summary.hits ?? nil, let misses = summary.misses ?? nil, hits + misses > 0 {
                try spool.line(
                    "         cache hits \(ReportFormat.count(hits)), misses \(ReportFormat.count(misses)) (hit rate \(String(format: "%.1f", 100 * Double(hits) / Double(hits + misses)))%)"
                )
            } else if summary.hits != nil || summary.misses != nil {
                try spool.line(
                    "         cache hits \(summary.hits.map(ReportFormat.count) ?? "?"), misses \(summary.misses.map(ReportFormat.count) ?? "?")"
                )
            }
            if let capNotMet = summary.capNotMet { try spool.line("warning: cannot get under the caps: \(capNotMet)") }
        }
        try spool.print()
    }

    static func text(_ entry: CacheEntryInfo, _ reason: EvictionReason, verb: String, ttl: TimeInterval) -> String {
        let name = entry.id + (entry.title.map { " \"\($0)\"" } ?? "")
        let used =
            "last used \(ReportFormat.time(entry.lastAccess))"
            + (entry.hits.map { ", \($0) hit\($0 == 1 ? "" : "s")" } ?? "")
        switch reason {
        case .expired:
            return
                "\(verb) \(name) (expired: fetched \(ReportFormat.time(entry.fetchedAt)), older than the \(ReportFormat.duration(ttl)) TTL; \(used))"
        case .overEntries:
            return "\(verb) \(name) (over entries: least recently used, \(used); \(entry.bytes) bytes)"
        case .overBytes:
            return "\(verb) \(name) (over bytes: least recently used, \(used); \(entry.bytes) bytes)"
        }
    }
}

/// `larder cache import FILE --store PATH`.
struct CacheImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a recipe cache file into a store's cache table (replacing it), in one transaction."
    )

    @Argument(help: "The recipe cache JSON file (gzip allowed).")
    var file: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try Store(path: storeOptions.store, create: true)
        let count = try RecipeCacheTable(store: store).importFile(path: file)
        Stderr.print(
            "larder: \(ReportFormat.count(count)) cache entr\(count == 1 ? "y" : "ies") loaded into \(store.path)")
    }
}

/// `larder cache stats (--cache FILE | --store PATH)`.
struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show a recipe cache's entries, size, pinned and expired counts, hits and misses."
    )

    @OptionGroup var location: CacheLocationOptions
    @OptionGroup var nowOption: NowOption

    func run() throws {
        let entries: [CacheEntryInfo]
        let header: RecipeCacheFile.Header
        if let path = location.cache {
            let scan = try RecipeCacheFile.scan(path: path)
            (entries, header) = (scan.entries, scan.header)
        } else {
            let table = RecipeCacheTable(store: try Store(path: location.store ?? "larder.db"))
            (entries, header) = (try table.entries(), try table.header())
        }
        let plan = CachePruning.plan(entries, header: header, policy: CachePolicy(now: nowOption.date))
        print(
            TerminalText.escaped(
                "cache: \(location.cache ?? location.store ?? "")\(header.name.map { " (\($0))" } ?? "")"))
        print("entries: \(ReportFormat.count(entries.count)), \(ReportFormat.bytes(plan.bytesBefore))")
        print(
            "pinned: \(ReportFormat.count(plan.pinned)) (saved \(header.pinnedSaved.count), created \(header.pinnedCreated.count) listed)"
        )
        print(
            "fetched: \(header.fetchedAt.map(Timestamp.format) ?? "unknown"); ttl \(ReportFormat.duration(plan.ttl)); expired now: \(ReportFormat.count(plan.evictions.count + plan.pinnedExpired))"
        )
        print(
            "hits: \(header.hits.map(ReportFormat.count) ?? "not counted"), misses: \(header.misses.map(ReportFormat.count) ?? "not counted")"
        )
    }
}
