public import Foundation
public import LarderCore
import LarderRegistry

/// The eviction policy of the recipe cache (seed 000: a SnapChef-style local cache of fetched
/// recipes with a 30-minute TTL), shared by the JSON file and the store table.
///
/// Expired entries go first; then, while the cache is over a cap, the least recently used entry
/// goes, ties broken by id, so the result depends only on the entries and `now`. The user's own
/// saved and created recipes are pinned: never evicted, expired or not, though they count toward
/// the caps (when pinned entries alone exceed a cap the plan says so).
///
/// Complexity: O(n log n) in the entries that are candidates for the caps; O(n) otherwise.
public struct CachePolicy: Sendable, Hashable {
    /// How long a fetched entry stays fresh; `nil`: the cache's own TTL, else 30 minutes (seed 000).
    public var ttl: TimeInterval?
    /// The most bytes the entries may take (their JSON size), when set.
    public var maxBytes: Int?
    /// The most entries the cache may hold, when set.
    public var maxEntries: Int?
    /// The time the run takes as now.
    public var now: Date

    /// SnapChef's `cacheExpirationInterval`.
    public static let defaultTTL: TimeInterval = 1800

    /// Creates a policy.
    public init(ttl: TimeInterval? = nil, maxBytes: Int? = nil, maxEntries: Int? = nil, now: Date) {
        self.ttl = ttl
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
        self.now = now
    }
}

/// What the policy needs to know about one cache entry.
public struct CacheEntryInfo: Sendable, Hashable {
    /// The recipe id.
    public var id: String
    /// When the entry was fetched (milliseconds since 1970); `nil` when unknown (expired).
    public var fetchedAt: Int64?
    /// When it was last read (milliseconds since 1970); `nil`: never, use the fetch time.
    public var lastAccess: Int64?
    /// Its size in bytes.
    public var bytes: Int
    /// How often it was read, when the cache counts.
    public var hits: Int?
    /// Whether it is one of the user's saved or created recipes.
    public var isPinned: Bool
    /// The recipe's title, for reports.
    public var title: String?

    /// Creates entry facts.
    public init(
        id: String, fetchedAt: Int64?, lastAccess: Int64?, bytes: Int, hits: Int? = nil, isPinned: Bool = false,
        title: String? = nil
    ) {
        self.id = id
        self.title = title
        self.fetchedAt = fetchedAt
        self.lastAccess = lastAccess
        self.bytes = bytes
        self.hits = hits
        self.isPinned = isPinned
    }

    /// The recency the LRU order uses.
    var recency: Int64 { lastAccess ?? fetchedAt ?? .min }
}

/// Why an entry was evicted.
public enum EvictionReason: String, Sendable, Hashable, Codable {
    /// Older than the TTL.
    case expired
    /// The least recently used while the cache held more entries than allowed.
    case overEntries = "over-entries"
    /// The least recently used while the cache held more bytes than allowed.
    case overBytes = "over-bytes"
}

/// The evictions a policy decides, in order, and what stays.
public struct PrunePlan: Sendable, Hashable {
    /// One eviction: the entry's index in the input and why.
    public struct Eviction: Sendable, Hashable {
        public var index: Int
        public var reason: EvictionReason
    }

    /// The evictions in the order they were decided.
    public var evictions: [Eviction] = []
    /// The TTL applied.
    public var ttl: TimeInterval = CachePolicy.defaultTTL
    /// Entries and bytes before.
    public var entriesBefore = 0
    public var bytesBefore = 0
    /// Entries and bytes after.
    public var entriesAfter = 0
    public var bytesAfter = 0
    /// Pinned entries (all kept) and their bytes.
    public var pinned = 0
    public var pinnedBytes = 0
    /// Pinned entries past their TTL (kept anyway).
    public var pinnedExpired = 0
    /// Set when the caps cannot be met because pinned entries alone exceed them.
    public var capNotMet: String?

    /// Whether the plan evicts entry `index` (O(evictions) per call; use for small plans).
    public func evicts(_ index: Int) -> Bool { evictions.contains { $0.index == index } }
}

/// Plans the evictions of a recipe cache.
public enum CachePruning {
    /// Decides what to evict from `entries` under `policy`.
    /// - Parameters:
    ///   - entries: The cache's entries, in file order.
    ///   - defaultFetchedAt: the cache-wide fetch time (SnapChef's `cacheTimestamp`) for entries
    ///     that carry none.
    ///   - cacheTTL: the cache's own TTL, used when the policy sets none.
    ///   - policy: The TTL, size and count limits and the time to judge by.
    /// - Returns: The entries to evict, each with its reason.
    public static func plan(
        _ entries: [CacheEntryInfo], defaultFetchedAt: Int64? = nil, cacheTTL: TimeInterval? = nil, policy: CachePolicy
    ) -> PrunePlan {
        var plan = PrunePlan()
        plan.ttl = policy.ttl ?? cacheTTL ?? CachePolicy.defaultTTL
        let now = policy.now.milliseconds
        // A TTL past Int64 milliseconds (`ttlSeconds: 1e300` in a cache file) never expires anything.
        let ttl = Int64(saturating: plan.ttl * 1000)
        var candidates: [Int] = []
        var count = 0
        var bytes = 0
        for (index, entry) in entries.enumerated() {
            plan.entriesBefore += 1
            plan.bytesBefore += entry.bytes
            let fetched = entry.fetchedAt ?? defaultFetchedAt
            // A fetch time edited far past now's range: the age overflows, and its sign is now's side.
            let isExpired =
                fetched.map { fetched in
                    let (age, overflow) = now.subtractingReportingOverflow(fetched)
                    return overflow ? now > fetched : age >= ttl
                } ?? true
            if entry.isPinned {
                plan.pinned += 1
                plan.pinnedBytes += entry.bytes
                if isExpired { plan.pinnedExpired += 1 }
            } else if isExpired {
                plan.evictions.append(.init(index: index, reason: .expired))
                continue
            } else {
                candidates.append(index)
            }
            count += 1
            bytes += entry.bytes
        }
        let overEntries = { policy.maxEntries.map { count > $0 } ?? false }
        let overBytes = { policy.maxBytes.map { bytes > $0 } ?? false }
        if overEntries() || overBytes() {
            candidates.sort { a, b in
                let (x, y) = (entries[a], entries[b])
                return x.recency != y.recency ? x.recency < y.recency : x.id.utf8.lexicographicallyPrecedes(y.id.utf8)
            }
            for index in candidates {
                let reason: EvictionReason
                if overEntries() {
                    reason = .overEntries
                } else if overBytes() {
                    reason = .overBytes
                } else {
                    break
                }
                plan.evictions.append(.init(index: index, reason: reason))
                count -= 1
                bytes -= entries[index].bytes
            }
            if overEntries() || overBytes() {
                plan.capNotMet =
                    "the \(plan.pinned) pinned entr\(plan.pinned == 1 ? "y" : "ies") (\(plan.pinnedBytes) bytes) alone exceed "
                    + (overEntries()
                        ? "--max-entries \(policy.maxEntries ?? 0)" : "--max-bytes \(policy.maxBytes ?? 0)")
            }
        }
        plan.entriesAfter = count
        plan.bytesAfter = bytes
        return plan
    }
}

/// The outcome of pruning a recipe cache (file or store table).
public struct CachePruneResult: Sendable {
    /// The decisions.
    public var plan: PrunePlan
    /// The entries the plan indexes into.
    public var entries: [CacheEntryInfo]
    /// The cache's hit and miss counts, when it keeps them.
    public var hits: Int?
    public var misses: Int?
    /// Whether nothing was written.
    public var isDryRun: Bool

    /// Evictions per reason.
    public func count(_ reason: EvictionReason) -> Int { plan.evictions.lazy.filter { $0.reason == reason }.count }

    /// The totals, for reports and the history row.
    public var summary: Summary {
        Summary(
            isDryRun: isDryRun, ttlSeconds: plan.ttl, entriesBefore: plan.entriesBefore,
            entriesAfter: plan.entriesAfter,
            bytesBefore: plan.bytesBefore, bytesAfter: plan.bytesAfter, evicted: plan.evictions.count,
            expired: count(.expired),
            overEntries: count(.overEntries), overBytes: count(.overBytes), pinned: plan.pinned,
            pinnedExpired: plan.pinnedExpired,
            hits: hits, misses: misses, capNotMet: plan.capNotMet)
    }

    /// The totals of a prune run.
    public struct Summary: Sendable, Hashable, Codable {
        public var isDryRun: Bool
        public var ttlSeconds: Double
        public var entriesBefore: Int
        public var entriesAfter: Int
        public var bytesBefore: Int
        public var bytesAfter: Int
        public var evicted: Int
        public var expired: Int
        public var overEntries: Int
        public var overBytes: Int
        public var pinned: Int
        public var pinnedExpired: Int
        public var hits: Int?
        public var misses: Int?
        public var capNotMet: String?
    }
}

extension CachePruning {
    /// Decides what to evict from a cache with `header`'s fetch time and TTL.
    public static func plan(_ entries: [CacheEntryInfo], header: RecipeCacheFile.Header, policy: CachePolicy)
        -> PrunePlan
    {
        plan(entries, defaultFetchedAt: header.fetchedAt?.milliseconds, cacheTTL: header.ttl, policy: policy)
    }
}

extension RecipeCacheFile {
    /// Prunes the cache file at `path` under `policy`: scan, plan, and (unless a dry run, and
    /// only when something is evicted) rewrite atomically.
    ///
    /// A second run with the same policy changes nothing.
    /// - Parameters:
    ///   - path: The cache file.
    ///   - policy: What to evict.
    ///   - isDryRun: Plan and report only; the file is not touched.
    ///   - history: a store whose history records the run (after the file is replaced).
    ///   - clock: The time recorded in the history.
    /// - Returns: The plan, the entries it indexes into, and the cache's counters.
    /// - Throws: ``LarderError``: the file cannot be read or is not a cache, or the rewrite fails
    ///   (the file is then unchanged).
    public static func prune(
        path: String, policy: CachePolicy, isDryRun: Bool = false, history: Store? = nil, clock: LarderClock = .system
    ) throws -> CachePruneResult {
        let startedAt = clock.now()
        let started = clock.monotonicSeconds()
        let scan = try scan(path: path)
        let plan = CachePruning.plan(scan.entries, header: scan.header, policy: policy)
        let result = CachePruneResult(
            plan: plan, entries: scan.entries, hits: scan.header.hits, misses: scan.header.misses, isDryRun: isDryRun)
        guard !isDryRun else { return result }
        if !plan.evictions.isEmpty {
            try rewrite(path: path, scan: scan, evicted: Set(plan.evictions.map(\.index)))
        }
        if let history {
            try history.writeDatabase { db in
                try Store.recordHistory(
                    db, kind: .prune, source: path, appliedAt: startedAt, duration: clock.monotonicSeconds() - started,
                    recordsTouched: plan.evictions.count, success: true, details: try result.summary.jsonText())
            }
        }
        return result
    }
}

extension Encodable {
    /// The value as compact JSON with sorted keys.
    func jsonText() throws -> String { String(decoding: try JSONEncoder.sorted.encode(self), as: UTF8.self) }
}
