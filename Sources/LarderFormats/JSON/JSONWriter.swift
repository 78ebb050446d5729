public import LarderCore

/// Writes records as a JSON array (one record per line), an envelope, or NDJSON.
///
/// Streams: each record is serialised into a small buffer and handed to the sink.
public final class JSONWriter: RecordWriter {
    private let sink: any ByteSink
    private let lineMode: Bool
    private let options: WriterOptions
    private var out: [UInt8] = []
    private var count = 0
    private var started = false

    /// Creates a writer; `lineMode` writes NDJSON, otherwise an array or (with
    /// `options.envelope`) an envelope.
    public init(sink: any ByteSink, lineMode: Bool = false, options: WriterOptions = WriterOptions()) {
        self.sink = sink
        self.lineMode = lineMode
        self.options = options
        out.reserveCapacity(64 * 1024)
    }

    private func start() {
        started = true
        guard !lineMode else { return }
        if let envelope = options.envelope {
            out.append(contentsOf: "{\"schema\":".utf8)
            if let schema = envelope.schema { JSONWriter.appendString(schema, to: &out) } else { out.append(contentsOf: "null".utf8) }
            if let version = envelope.version { out.append(contentsOf: ",\"version\":\(version)".utf8) }
            out.append(contentsOf: ",\"records\":[".utf8)
        } else {
            out.append(UInt8(ascii: "["))
        }
    }

    public func write(_ record: Value) throws {
        if !started { start() }
        let mark = out.count
        if !lineMode { out.append(contentsOf: count == 0 ? "\n".utf8 : ",\n".utf8) }
        do {
            try JSONWriter.append(record, to: &out, pretty: options.pretty, indent: lineMode ? 0 : 0)
        } catch {
            out.removeSubrange(mark...)
            throw error
        }
        if lineMode { out.append(0x0A) }
        count += 1
        if out.count >= 60 * 1024 {
            try sink.write(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// Appends one record that is already serialized as JSON (by ``append(_:to:pretty:indent:)``
    /// with this writer's `pretty` setting), framed like ``write(_:)`` frames records. Lets a
    /// caller that encoded records earlier, on another thread or into a scratch file, copy them
    /// through without parsing them again.
    public func write(encoded record: UnsafeRawBufferPointer) throws {
        if !started { start() }
        if !lineMode { out.append(contentsOf: count == 0 ? "\n".utf8 : ",\n".utf8) }
        out.append(contentsOf: record)
        if lineMode { out.append(0x0A) }
        count += 1
        if out.count >= 60 * 1024 {
            try sink.write(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// Whether records are indented (what ``write(encoded:)`` expects).
    public var isPretty: Bool { options.pretty }

    public func finish() throws {
        if !started { start() }
        if !lineMode {
            out.append(contentsOf: (count == 0 ? "]" : "\n]").utf8)
            if options.envelope != nil { out.append(UInt8(ascii: "}")) }
            out.append(0x0A)
        }
        try sink.write(out)
        out.removeAll()
        try sink.close()
    }

    /// Serialises one value as compact (or indented) JSON.
    /// - Throws: ``LarderError`` `unrepresentable` for NaN or infinite numbers.
    public static func append(_ value: Value, to out: inout [UInt8], pretty: Bool = false, indent: Int = 0) throws {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): appendInteger(i, to: &out)
        case .double(let d):
            guard d.isFinite else { throw LarderError(.unrepresentable, "JSON cannot hold the number \(d)") }
            out.append(contentsOf: d.description.utf8)
        case .string(let s): appendString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                try append(element, to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !elements.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (i, field) in fields.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                appendString(field.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                try append(field.value, to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !fields.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ level: Int) {
        out.append(0x0A)
        for _ in 0..<(level * 2) { out.append(0x20) }
    }

    /// Serialises one value to a string.
    public static func string(_ value: Value, pretty: Bool = false) throws -> String {
        var out: [UInt8] = []
        try append(value, to: &out, pretty: pretty)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 {
            out.append(0x30)
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[19 - count] = UInt8(magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Appends `text` as a quoted JSON string, escaping quotes, backslashes and control characters.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for i in 0..<bytes.count {
                let c = bytes[i]
                guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
                if i > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                switch c {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 0xF)]])
                }
                runStart = i + 1
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(0x22)
    }
}
