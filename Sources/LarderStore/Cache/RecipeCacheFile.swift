public import Foundation
import LarderCore
import LarderFormats
import LarderRegistry

/// The recipe cache as a JSON file (seed 000: SnapChef keeps its fetched recipes, the fetch
/// timestamp and a 30-minute TTL; Larder adds per-entry fetch and access times and hit counts).
///
/// ```json
/// {
///   "cache": "snapchef-recipes",
///   "fetchedAt": "2024-03-01T08:00:00Z",
///   "ttlSeconds": 1800,
///   "stats": {"hits": 412, "misses": 37},
///   "pinned": {"saved": ["r-1"], "created": ["r-7"]},
///   "records": [
///     {"id": "r-1", "fetchedAt": "2024-03-01T08:00:00Z", "lastAccess": "2024-03-01T08:20:00Z",
///      "hits": 12, "recipe": {"id": "r-1", "title": "…", "isSaved": true}}
///   ]
/// }
/// ```
/// `fetchedAt` (top level) is `cacheTimestamp`, the time of the last full fetch, and the fetch
/// time of entries that give none. Every member but `records` is optional and may come in any
/// order; unknown members are kept as they are. An entry is pinned when its id is listed under
/// `pinned.saved` / `pinned.created` or its recipe has `isSaved` / `isCreated` true.
///
/// Pruning streams the file twice: once to collect each entry's facts and byte range, once to
/// copy the kept entries byte for byte into a temporary file that replaces the original
/// (fsync + rename), so a kill leaves the old file or the new one. Memory holds the facts
/// (id, times, size) of every entry, never the recipes. gzip files stay gzip.
public enum RecipeCacheFile {
    /// The cache's own members.
    public struct Header: Sendable, Hashable {
        /// The cache's name (`cache`).
        public var name: String?
        /// When the cache was last filled (`fetchedAt`, SnapChef's `cacheTimestamp`).
        public var fetchedAt: Date?
        /// The TTL the cache was written with (`ttlSeconds`).
        public var ttl: TimeInterval?
        /// Cache reads served, and reads that had to fetch (`stats.hits`, `stats.misses`).
        public var hits: Int?
        public var misses: Int?
        /// The user's saved and created recipe ids (`pinned.saved`, `pinned.created`).
        public var pinnedSaved: [String] = []
        public var pinnedCreated: [String] = []

        /// Creates a header.
        public init() {}
    }

    /// What a scan of the file found.
    public struct Scan: Sendable {
        /// The cache's own members.
        public var header: Header
        /// Each entry's facts, in file order (pinning resolved).
        public var entries: [CacheEntryInfo]
        /// Each entry's byte range in the (decompressed) file.
        var ranges: [Range<Int>]
    }

    /// Reads every entry, calling `body` with each entry's value, facts (pinned only by its own
    /// recipe flags; the header's lists may come after the entries) and byte range.
    /// - Throws: ``LarderError``: `io-error`, `syntax-error`, `malformed-record` naming the file,
    ///   line:column, entry index and field path.
    static func read(path: String, body: (Value, CacheEntryInfo, Range<Int>) throws -> Void) throws -> Header {
        let (source, format) = try RecordIO.sniff(FileByteSource(path: path))
        guard format == .json else {
            throw LarderError(
                .malformedRecord,
                "a recipe cache is a JSON object with a records array, this looks like \(format.rawValue)",
                location: SourceLocation(file: path))
        }
        let reader = JSONReader(source: source)
        var first = true
        while let item = try reader.next() {
            if first {
                first = false
                guard reader.header != nil else { throw notACache(path) }
            }
            guard let range = reader.lastRecordByteRange else { throw notACache(path) }
            try body(item.value, try entryInfo(item, reader: reader), range)
        }
        guard reader.header != nil else { throw notACache(path) }
        return try header(reader.envelopeMembers, path: path)
    }

    /// Scans the file: the header and every entry's facts, with pinning resolved.
    public static func scan(path: String) throws -> Scan {
        var entries: [CacheEntryInfo] = []
        var ranges: [Range<Int>] = []
        let header = try read(path: path) { _, info, range in
            entries.append(info)
            ranges.append(range)
        }
        let pins = Set(header.pinnedSaved).union(header.pinnedCreated)
        if !pins.isEmpty {
            for index in entries.indices where pins.contains(entries[index].id) { entries[index].isPinned = true }
        }
        return Scan(header: header, entries: entries, ranges: ranges)
    }

    /// Writes the file again without the entries at `evicted` (indices into the scan), copying
    /// everything else byte for byte: to a temporary file, fsync'd and renamed over `path`.
    public static func rewrite(path: String, scan: Scan, evicted: Set<Int>) throws {
        let raw = try FileByteSource(path: path)
        let (source, _) = try RecordIO.sniff(raw)
        let probe = try FileByteSource(path: path)
        let isGzip = try GzipReader.isGzip(Self.firstBytes(probe, 2))
        let file = try FileByteSink(path: path)
        let sink: any ByteSink = isGzip ? try GzipWriter(file) : file
        do {
            var copier = ByteCopier(source: source)
            var separator: [UInt8] = Array(",\n".utf8)
            var wroteEntry = false
            if let first = scan.ranges.first {
                try copier.copy(to: sink, until: first.lowerBound)
            }
            for (index, range) in scan.ranges.enumerated() {
                if index == 1 {
                    // The gap between the first two entries is the file's own separator.
                    let gap = try copier.take(until: range.lowerBound)
                    if gap.count <= 64, gap.first == UInt8(ascii: ",") { separator = gap }
                } else {
                    try copier.skip(until: range.lowerBound)
                }
                if evicted.contains(index) {
                    try copier.skip(until: range.upperBound)
                    continue
                }
                if wroteEntry { try sink.write(separator) }
                try copier.copy(to: sink, until: range.upperBound)
                wroteEntry = true
                CrashSwitch.step()
            }
            try copier.copy(to: sink, until: .max)
            CrashSwitch.step()
            try sink.close()
        } catch {
            file.discard()
            throw error
        }
    }

    // MARK: Parsing

    private static func notACache(_ path: String) -> LarderError {
        LarderError(
            .malformedRecord,
            "not a recipe cache: expected a JSON object with a \"records\" array of entries ({\"id\", \"fetchedAt\", \"lastAccess\", \"recipe\"})",
            location: SourceLocation(file: path))
    }

    private static func entryInfo(_ item: RecordItem, reader: JSONReader) throws -> CacheEntryInfo {
        func fail(_ path: FieldPath, _ message: String) -> LarderError {
            let location = (reader.location(of: path) ?? item.location).merged(
                with: SourceLocation(recordIndex: item.index, fieldPath: path))
            return LarderError(.malformedRecord, message, location: location, snippet: reader.snippet(of: path))
        }
        guard let fields = item.value.objectValue else {
            throw fail(.root, "a cache entry must be an object, found \(item.value.kindDescription)")
        }
        guard let recipe = fields["recipe"], recipe.objectValue != nil else {
            throw fail(
                fields["recipe"] == nil ? .root : "recipe",
                "a cache entry needs its recipe as an object under \"recipe\"")
        }
        let id: String
        if let value = fields["id"] {
            guard let text = value.stringValue, !text.isEmpty else {
                throw fail("id", "expected the recipe id as a string, found \(value.snippet)")
            }
            id = text
        } else if let text = recipe["id"]?.stringValue, !text.isEmpty {
            id = text
        } else {
            throw fail(.root, "a cache entry needs an id (its own or its recipe's)")
        }
        func time(_ key: String) throws -> Int64? {
            guard let value = fields[key], !value.isNull else { return nil }
            guard let text = value.stringValue, let date = Timestamp.parse(text) else {
                throw fail(FieldPath.root.appending(key), "expected an RFC 3339 date-time, found \(value.snippet)")
            }
            return date.milliseconds
        }
        var hits: Int?
        if let value = fields["hits"], !value.isNull {
            guard case .int(let count) = value, count >= 0 else {
                throw fail("hits", "expected a count (integer ≥ 0), found \(value.snippet)")
            }
            hits = Int(count)
        }
        let isPinned = recipe["isSaved"] == .bool(true) || recipe["isCreated"] == .bool(true)
        let bytes = reader.lastRecordByteRange?.count ?? 0
        return CacheEntryInfo(
            id: id, fetchedAt: try time("fetchedAt"), lastAccess: try time("lastAccess"), bytes: bytes, hits: hits,
            isPinned: isPinned,
            title: recipe["title"]?.stringValue)
    }

    private static func header(_ members: Fields, path: String) throws -> Header {
        func fail(_ key: String, _ message: String) -> LarderError {
            LarderError(
                .malformedRecord, message,
                location: SourceLocation(file: path, fieldPath: FieldPath(stringLiteral: key)))
        }
        var header = Header()
        if let value = members["cache"], !value.isNull {
            guard let name = value.stringValue else {
                throw fail("cache", "expected the cache's name as a string, found \(value.snippet)")
            }
            header.name = name
        }
        if let value = members["fetchedAt"], !value.isNull {
            guard let text = value.stringValue, let date = Timestamp.parse(text) else {
                throw fail("fetchedAt", "expected an RFC 3339 date-time, found \(value.snippet)")
            }
            header.fetchedAt = date
        }
        if let value = members["ttlSeconds"], !value.isNull {
            switch value {
            case .int(let seconds) where seconds > 0: header.ttl = TimeInterval(seconds)
            case .double(let seconds) where seconds > 0: header.ttl = seconds
            default: throw fail("ttlSeconds", "expected a number of seconds > 0, found \(value.snippet)")
            }
        }
        if let stats = members["stats"], !stats.isNull {
            guard stats.objectValue != nil else {
                throw fail("stats", "expected {\"hits\": N, \"misses\": N}, found \(stats.snippet)")
            }
            for key in ["hits", "misses"] {
                guard let value = stats[key], !value.isNull else { continue }
                guard case .int(let count) = value, count >= 0 else {
                    throw fail("stats.\(key)", "expected a count, found \(value.snippet)")
                }
                if key == "hits" { header.hits = Int(count) } else { header.misses = Int(count) }
            }
        }
        if let pinned = members["pinned"], !pinned.isNull {
            guard pinned.objectValue != nil else {
                throw fail("pinned", "expected {\"saved\": [ids], \"created\": [ids]}, found \(pinned.snippet)")
            }
            for key in ["saved", "created"] {
                guard let value = pinned[key], !value.isNull else { continue }
                guard let list = value.arrayValue else {
                    throw fail("pinned.\(key)", "expected a list of recipe ids, found \(value.snippet)")
                }
                var ids: [String] = []
                for (index, element) in list.enumerated() {
                    guard let id = element.stringValue else {
                        throw fail("pinned.\(key)[\(index)]", "expected a recipe id, found \(element.snippet)")
                    }
                    ids.append(id)
                }
                if key == "saved" { header.pinnedSaved = ids } else { header.pinnedCreated = ids }
            }
        }
        return header
    }

    private static func firstBytes(_ source: any ByteSource, _ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { try source.read(into: $0) }
        return Array(bytes.prefix(n))
    }
}

/// Copies or skips a byte source up to absolute offsets, through one buffer.
struct ByteCopier {
    let source: any ByteSource
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var start = 0  // first unconsumed byte in buffer
    private var end = 0  // bytes filled
    private var position = 0  // absolute offset of buffer[start]
    private var isAtEnd = false

    init(source: any ByteSource) {
        self.source = source
    }

    private mutating func fill() throws -> Bool {
        guard !isAtEnd else { return false }
        start = 0
        end = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        if end == 0 { isAtEnd = true }
        return end > 0
    }

    /// Passes bytes up to `offset` to `body`, chunk by chunk.
    private mutating func advance(until offset: Int, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        while position < offset {
            if start == end, !(try fill()) { return }
            let count = min(end - start, offset - position)
            try body(buffer[start..<(start + count)])
            start += count
            position += count
        }
    }

    mutating func copy(to sink: any ByteSink, until offset: Int) throws {
        try advance(until: offset) { chunk in try chunk.withUnsafeBytes { try sink.write($0) } }
    }

    mutating func skip(until offset: Int) throws {
        try advance(until: offset) { _ in }
    }

    mutating func take(until offset: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try advance(until: offset) { bytes.append(contentsOf: $0) }
        return bytes
    }
}
