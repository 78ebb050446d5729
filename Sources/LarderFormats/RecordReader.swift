public import LarderCore

/// The data formats Larder reads and writes.
public enum DataFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// A JSON array, a single object, an envelope, or concatenated objects.
    case json
    /// One JSON object per line.
    case ndjson
    /// A YAML sequence, a multi-document stream, or an envelope.
    case yaml
    /// `<records schema="recipe" version="3">` with one element per record.
    case xml

    /// The usual file extension.
    public var fileExtension: String {
        switch self {
        case .json: "json"
        case .ndjson: "ndjson"
        case .yaml: "yaml"
        case .xml: "xml"
        }
    }

    /// The format a file name suggests (`.gz` looked through), if any.
    public static func guess(fromPath path: String) -> DataFormat? {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        if name.hasSuffix(".ndjson") || name.hasSuffix(".jsonl") { return .ndjson }
        if name.hasSuffix(".json") { return .json }
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") { return .yaml }
        if name.hasSuffix(".xml") { return .xml }
        return nil
    }

    /// The format of content read from `path`: the file name is a strong hint (`.yaml`/`.yml`
    /// YAML, `.xml` XML, `.ndjson`/`.jsonl` NDJSON, `.json` JSON or NDJSON by the content; `.gz`
    /// looked through); without a known extension (or with no path) the content decides.
    public static func sniff(_ bytes: [UInt8], path: String?) -> DataFormat {
        switch path.flatMap(guess(fromPath:)) {
        case .yaml: return .yaml
        case .xml: return .xml
        case .ndjson: return .ndjson
        case .json: return sniff(bytes) == .ndjson ? .ndjson : .json
        case nil: return sniff(bytes)
        }
    }

    /// The format the first bytes of (decompressed) content suggest: `<` XML; JSON when it
    /// really starts like JSON (`{` then `"` or `}`, `[` then a JSON value or `]`), NDJSON when a
    /// second object starts on a later line; otherwise YAML (`{title: Soup}` is a YAML flow mapping).
    public static func sniff(_ bytes: [UInt8]) -> DataFormat {
        var i = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count else { return .json }
        if bytes[i] == UInt8(ascii: "["), startsLikeJSON(bytes, at: i) { return .json }
        if bytes[i] == UInt8(ascii: "{"), !startsLikeJSON(bytes, at: i) { return .yaml }
        switch bytes[i] {
        case UInt8(ascii: "<"): return .xml
        case UInt8(ascii: "{"):
            // One object per line, with a newline directly before the second `{`, is NDJSON.
            if let newline = bytes[i...].firstIndex(of: 0x0A), newline + 1 < bytes.count {
                var j = newline + 1
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x0D || bytes[j] == 0x09 { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "{"), bytes[newline - 1] == UInt8(ascii: "}") {
                    return .ndjson
                }
            }
            return .json
        default: return .yaml
        }
    }

    /// Whether the `{` or `[` at `start` opens JSON rather than a YAML flow collection.
    ///
    /// It does when an object's first key is quoted, or a list's first element is a JSON value.
    /// Content cut off by the end of `bytes` counts as JSON.
    static func startsLikeJSON(_ bytes: [UInt8], at start: Int) -> Bool {
        var i = start
        while true {
            let opener = bytes[i]
            i += 1
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                i += 1
            }
            guard i < bytes.count else { return true }
            let c = bytes[i]
            if opener == UInt8(ascii: "{") { return c == UInt8(ascii: "\"") || c == UInt8(ascii: "}") }
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["): continue
            case UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                // true, false, null: and not a word that merely starts so (`[tomato]`).
                for word in ["true", "false", "null"] where bytes[i...].starts(with: word.utf8) {
                    let after = i + word.utf8.count
                    if after >= bytes.count { return true }
                    let next = bytes[after]
                    return next == UInt8(ascii: ",") || next == UInt8(ascii: "]") || next == 0x20 || next == 0x0A
                        || next == 0x0D || next == 0x09
                }
                return false
            default: return false
            }
        }
    }
}

/// What an envelope says about its records: `{"schema": "recipe", "version": 3, "records": [...]}`.
public struct EnvelopeHeader: Sendable, Hashable {
    /// The record type's name, such as `recipe`.
    public var schema: String?
    /// The schema version of every record in the envelope.
    public var version: Int?

    /// Creates a header.
    public init(schema: String? = nil, version: Int? = nil) {
        self.schema = schema
        self.version = version
    }

    /// The record type the schema names, when it names one Larder knows.
    public var recordType: RecordType? { schema.flatMap(RecordType.init(rawValue:)) }
}

/// One record read from an input, with where it starts.
public struct RecordItem: Sendable {
    /// The record.
    public var value: Value
    /// Its 0-based index in the input.
    public var index: Int
    /// File, line and column where it starts, and its index.
    public var location: SourceLocation

    /// Creates an item.
    public init(value: Value, index: Int, location: SourceLocation) {
        self.value = value
        self.index = index
        self.location = location
    }
}

/// Reads records one at a time from a stream.
///
/// Memory stays proportional to one record.
///
/// ```swift
/// let reader = try RecordReaders.open(path: "recipes.yaml.gz")
/// while let item = try reader.next() {
///     let recipe = try Recipe(value: item.value)
/// }
/// ```
public protocol RecordReader: AnyObject {
    /// The input's name for diagnostics.
    var name: String { get }
    /// The envelope header, once the reader has seen it (after the first ``next()`` for
    /// envelopes whose header precedes the records; complete after the last).
    var header: EnvelopeHeader? { get }
    /// The next record, or `nil` at the end.
    /// - Throws: ``LarderError`` with file, line and column: `syntax-error` for malformed
    ///   input, `refused-input` for hostile input. After an error in a line-oriented format
    ///   (NDJSON) the reader can continue with the next line; in others it cannot.
    func next() throws -> RecordItem?
    /// The line and column of `path` inside the record last returned, when known.
    func location(of path: FieldPath) -> SourceLocation?
    /// Whether reading may go on after the last error (only line-oriented formats).
    var canRecover: Bool { get }
    /// The source line of `path` in the record last returned, with a caret under its column,
    /// when the reader still holds the bytes.
    func snippet(of path: FieldPath) -> String?
}

extension RecordReader {
    public var canRecover: Bool { false }
    public func snippet(of path: FieldPath) -> String? { nil }
}

/// Limits that keep hostile input from exhausting memory.
public struct ReaderLimits: Sendable, Hashable {
    /// The deepest nesting of lists and objects accepted.
    public var maxDepth: Int
    /// The most nodes YAML aliases may expand to in one record.
    public var maxAliasExpansion: Int
    /// The most bytes of (decompressed, decoded) text one record may take.
    ///
    /// The JSON and YAML readers stop reading (and inflating) as soon as a record passes it (YAML
    /// allows for libyaml's 16 KiB look-ahead, and cannot go on after it: the rest of the file is
    /// not read), the XML reader stops keeping the record (its text bytes and 16 bytes per
    /// element) and goes on with the next one, and importers apply it to each entry they parse.
    /// `larder --max-record-size` sets it.
    public var maxRecordSize: Int

    /// The default limit on one record: 16 MiB.
    public static let defaultMaxRecordSize = 16 << 20

    /// The defaults: 256 levels, 100,000 alias-expanded nodes, 16 MiB per record.
    public static let `default` = ReaderLimits(maxDepth: 256, maxAliasExpansion: 100_000)

    /// Creates limits.
    public init(maxDepth: Int, maxAliasExpansion: Int, maxRecordSize: Int = ReaderLimits.defaultMaxRecordSize) {
        self.maxDepth = maxDepth
        self.maxAliasExpansion = maxAliasExpansion
        self.maxRecordSize = maxRecordSize
    }

    /// These limits for a document that holds a whole backup rather than one record (Beanconqueror.json,
    /// Mealie's database.json): one record may take up to 1 GiB (the zip entry limit), or more when
    /// ``maxRecordSize`` is larger.
    public var forWholeDocument: ReaderLimits {
        var copy = self
        copy.maxRecordSize = Swift.max(maxRecordSize, 1 << 30)
        return copy
    }

    /// `bytes` for messages: `16 MiB`, `1 KiB`, `1500 bytes`.
    public static func describe(bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)]
        where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// The error for a record past ``maxRecordSize``, at `location`.
    public func recordTooLarge(at location: SourceLocation, snippet: String? = nil) -> LarderError {
        LarderError(
            .refusedInput,
            "the record is larger than the record size limit of \(Self.describe(bytes: maxRecordSize)); refused "
                + "(if the input is trusted, raise the limit with --max-record-size SIZE on larder import, "
                + "convert, validate or migrate)",
            location: location, snippet: snippet)
    }
}
