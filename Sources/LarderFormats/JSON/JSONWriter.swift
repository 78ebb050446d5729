public import LarderCore

/// Writes records as a JSON array (one record per line), an envelope, or NDJSON.
///
/// Streams: each record is serialised into a reusable buffer that is handed to the sink
/// every 64 KiB.
public final class JSONWriter: RecordWriter {
    private let sink: any ByteSink
    private let lineMode: Bool
    private let options: WriterOptions
    private var out = OutputBuffer()
    private var count = 0
    private var started = false

    /// Creates a writer; `lineMode` writes NDJSON, otherwise an array or (with
    /// `options.envelope`) an envelope.
    public init(sink: any ByteSink, lineMode: Bool = false, options: WriterOptions = WriterOptions()) {
        self.sink = sink
        self.lineMode = lineMode
        self.options = options
    }

    private func start() {
        started = true
        guard !lineMode else { return }
        if let envelope = options.envelope {
            out.append("{\"schema\":")
            if let schema = envelope.schema {
                JSONWriter.serialize(string: schema, into: &out)
            } else {
                out.append("null")
            }
            if let version = envelope.version {
                out.append(",\"version\":")
                JSONWriter.serialize(integer: Int64(version), into: &out)
            }
            out.append(",\"records\":[")
        } else {
            out.append(UInt8(ascii: "["))
        }
    }

    public func write(_ record: Value) throws {
        if !started { start() }
        let mark = out.count
        if !lineMode {
            if count > 0 { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
        }
        do {
            try JSONWriter.serialize(record, into: &out, pretty: options.pretty, indent: 0)
        } catch {
            out.truncate(to: mark)
            throw JSONWriter.locating(error, in: record)
        }
        if lineMode { out.append(0x0A) }
        count += 1
        if out.count >= 64 * 1024 {
            try sink.write(out.bytes)
            out.removeAll()
        }
    }

    /// Appends one record that is already serialized as JSON (by ``append(_:to:pretty:)`` with
    /// this writer's `pretty` setting), framed like ``write(_:)`` frames records.
    ///
    /// Lets a caller that encoded records earlier, on another thread or into a scratch file, copy them through without
    /// parsing them again.
    public func write(encoded record: UnsafeRawBufferPointer) throws {
        if !started { start() }
        if !lineMode {
            if count > 0 { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
        }
        out.append(record.assumingMemoryBound(to: UInt8.self))
        if lineMode { out.append(0x0A) }
        count += 1
        if out.count >= 64 * 1024 {
            try sink.write(out.bytes)
            out.removeAll()
        }
    }

    /// Whether records are indented (what ``write(encoded:)`` expects).
    public var isPretty: Bool { options.pretty }

    public func finish() throws {
        if !started { start() }
        if !lineMode {
            out.append(count == 0 ? "]" : "\n]")
            if options.envelope != nil { out.append(UInt8(ascii: "}")) }
            out.append(0x0A)
        }
        try sink.write(out.bytes)
        out.removeAll()
        try sink.close()
    }

    /// Serialises one value as compact (or indented) JSON onto `bytes`.
    /// - Throws: ``LarderError`` `unrepresentable` for NaN or infinite numbers.
    public static func append(_ value: Value, to bytes: inout [UInt8], pretty: Bool = false) throws {
        var buffer = OutputBuffer(capacity: 1024)
        do {
            try serialize(value, into: &buffer, pretty: pretty, indent: 0)
        } catch {
            throw locating(error, in: value)
        }
        bytes.append(contentsOf: buffer.bytes)
    }

    /// `error` with the field path of the number JSON cannot hold, when it is that error: found
    /// only once writing failed, so the writing itself keeps no path.
    static func locating(_ error: any Error, in value: Value) -> any Error {
        guard var error = error as? LarderError, error.code == .unrepresentable,
            error.location?.fieldPath == nil, let path = firstNonFiniteNumber(in: value, at: .root)
        else { return error }
        var location = error.location ?? SourceLocation()
        location.fieldPath = path
        error.location = location
        return error
    }

    /// The path of the first NaN or infinite number in `value`, in writing order.
    private static func firstNonFiniteNumber(in value: Value, at path: FieldPath) -> FieldPath? {
        switch value {
        case .double(let d): return d.isFinite ? nil : path
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstNonFiniteNumber(in: element, at: path.appending(index: index)) { return found }
            }
            return nil
        case .object(let fields):
            for field in fields {
                if let found = firstNonFiniteNumber(in: field.value, at: path.appending(field.key)) { return found }
            }
            return nil
        case .null, .bool, .int, .string: return nil
        }
    }

    /// Appends `text` as a quoted, escaped JSON string onto `bytes`.
    public static func appendString(_ text: String, to bytes: inout [UInt8]) {
        var buffer = OutputBuffer(capacity: text.utf8.count + 16)
        serialize(string: text, into: &buffer)
        bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.pointer, count: buffer.count))
    }

    /// Appends the compact JSON text of `value` as one quoted, escaped JSON string onto `bytes`:
    /// the bytes `appendString(try string(value), to:)` writes, without the intermediate `String`
    /// (a CloudKit `STRING` field that holds JSON is written this way).
    /// - Throws: ``LarderError`` `unrepresentable` for NaN or infinite numbers.
    public static func appendQuotedJSON(_ value: Value, to bytes: inout [UInt8]) throws {
        var json = OutputBuffer(capacity: 1024)
        try serialize(value, into: &json, pretty: false, indent: 0)
        var quoted = OutputBuffer(capacity: json.count + json.count / 2 + 16)
        serialize(utf8: UnsafeBufferPointer(start: json.pointer, count: json.count), into: &quoted)
        bytes.append(contentsOf: UnsafeBufferPointer(start: quoted.pointer, count: quoted.count))
    }

    /// Serialises one value to a string.
    public static func string(_ value: Value, pretty: Bool = false) throws -> String {
        var buffer = OutputBuffer(capacity: 1024)
        try serialize(value, into: &buffer, pretty: pretty, indent: 0)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    static func serialize(_ value: Value, into out: inout OutputBuffer, pretty: Bool, indent: Int) throws {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let i): serialize(integer: i, into: &out)
        case .double(let d):
            guard d.isFinite else { throw LarderError(.unrepresentable, "JSON cannot hold the number \(d)") }
            out.append(string: d.description)
        case .string(let s): serialize(string: s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                if pretty { newline(&out, indent + 1) }
                try serialize(element, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !elements.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            var first = true
            for field in fields {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                if pretty { newline(&out, indent + 1) }
                serialize(string: field.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                try serialize(field.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !fields.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout OutputBuffer, _ level: Int) {
        out.append(0x0A)
        for _ in 0..<(level * 2) { out.append(0x20) }
    }

    static func serialize(integer value: Int64, into out: inout OutputBuffer) {
        if value >= 0 && value < 10 {
            out.append(UInt8(value) + 0x30)
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch
        withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            while magnitude > 0 {
                index -= 1
                scratch[index] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
            }
            if value < 0 {
                index -= 1
                scratch[index] = UInt8(ascii: "-")
            }
            out.append(UnsafeBufferPointer(rebasing: scratch.bindMemory(to: UInt8.self)[index...]))
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends `text` as a quoted JSON string, escaping quotes, backslashes and control characters.
    static func serialize(string text: String, into out: inout OutputBuffer) {
        var text = text
        text.withUTF8 { serialize(utf8: $0, into: &out) }
    }

    /// Writes UTF-8 `bytes` as a quoted, escaped JSON string.
    static func serialize(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout OutputBuffer) {
        out.append(0x22)
        // An empty string has no base address: its quotes are all there is.
        if let base = bytes.baseAddress {
            var runStart = 0
            var i = 0
            let n = bytes.count
            while i < n {
                i = firstEscaped(in: base, from: i, count: n)
                guard i < n else { break }
                let c = bytes[i]
                if i > runStart { out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                switch c {
                case 0x22: out.append("\\\"")
                case 0x5C: out.append("\\\\")
                case 0x0A: out.append("\\n")
                case 0x0D: out.append("\\r")
                case 0x09: out.append("\\t")
                default:
                    out.append("\\u00")
                    hexDigits.withUTF8Buffer { hex in
                        out.append(hex[Int(c >> 4)])
                        out.append(hex[Int(c & 0xF)])
                    }
                }
                i += 1
                runStart = i
            }
            if runStart < n { out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<n])) }
        }
        out.append(0x22)
    }

    /// Whether UTF-8 `bytes` can be written between quotes as they are (no quote, backslash or
    /// control character).
    package static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return firstEscaped(in: base, from: 0, count: bytes.count) == bytes.count
    }

    /// The index of the first byte from `start` on that a JSON string must escape (a quote, a
    /// backslash, a control character), or `count`: eight bytes at a time, then one by one.
    @inline(__always)
    private static func firstEscaped(in base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var i = start
        while i + 8 <= count {
            if holdsEscaped(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { break }
            i += 8
        }
        while i < count {
            let c = base[i]
            if c < 0x20 || c == 0x22 || c == 0x5C { return i }
            i += 1
        }
        return count
    }

    /// Whether one of the eight bytes of `word` is one a JSON string escapes.
    ///
    /// That is a quote, a backslash or a control character; bytes past ASCII never are. The
    /// word-at-a-time test of both the writer and the scanner.
    @inline(__always)
    static func holdsEscaped(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // A zero byte of `quote` or `backslash`, or a byte below 0x20, sets its high bit here.
        let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return special & 0x8080_8080_8080_8080 != 0
    }
}
