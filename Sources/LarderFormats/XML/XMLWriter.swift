internal import CLibXML2
public import LarderCore

/// Writes records as `<records schema="…" version="…">` XML, one element per record named after
/// its record type, one element per field, each record indented on its own lines.
///
/// Lists are written as repeated elements (an empty list writes nothing, so it reads back as
/// an absent field, which the models treat the same), nested objects as child elements, and
/// `null` fields are left out. Numbers are written so that ``XMLReader`` reads them back the
/// same: integers as digits, doubles in Swift's shortest round-trip form (`15.0`, `1e+300`).
/// `\r` is written as `&#13;` so it survives XML's line-end normalisation.
///
/// Streams: each record is serialised into a buffer that is handed to the sink every 64 KiB.
/// A record that XML 1.0 cannot hold is refused whole, with nothing of it written.
///
/// ```swift
/// let writer = try XMLWriter(sink: try FileByteSink(path: "recipes.xml"),
///                            options: WriterOptions(envelope: EnvelopeHeader(schema: "recipe", version: 3)))
/// try writer.write(recipe.value)
/// try writer.finish()
/// ```
public final class XMLWriter: RecordWriter {
    private let sink: any ByteSink
    private let options: WriterOptions
    private let recordElement: String?
    private var out: [UInt8] = []
    private var started = false
    private var validNames: Set<String> = []

    /// Creates a writer.
    /// - Parameters:
    ///   - sink: where the bytes go; closed by ``finish()``.
    ///   - options: `recordType` names the record elements (else each record's guessed type);
    ///     `envelope` gives the `schema` and `version` attributes of `<records>` (the schema
    ///     defaults to the record type; no version is claimed unless given).
    /// - Throws: ``LarderError`` `usage-error` when the envelope's schema is not a valid XML name.
    public init(sink: any ByteSink, options: WriterOptions = WriterOptions()) throws {
        self.sink = sink
        self.options = options
        recordElement = options.recordType?.elementName ?? options.envelope?.recordType?.elementName
        out.reserveCapacity(80 * 1024)
    }

    private func start() {
        started = true
        out.append(contentsOf: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records".utf8)
        if let schema = options.envelope?.schema ?? options.recordType?.rawValue {
            out.append(contentsOf: " schema=\"".utf8)
            XMLWriter.appendEscaped(schema, to: &out, inAttribute: true)
            out.append(0x22)
        }
        if let version = options.envelope?.version {
            out.append(contentsOf: " version=\"\(version)\"".utf8)
        }
        out.append(contentsOf: ">\n".utf8)
    }

    public func write(_ record: Value) throws {
        if !started { start() }
        guard case .object(let fields) = record else {
            throw LarderError(.unrepresentable, "an XML record must be an object, found \(record.kindDescription)")
        }
        let element = recordElement ?? RecordType.guess(from: record).elementName
        let mark = out.count
        do {
            try appendObject(element, fields, level: 1, path: .root)
        } catch {
            out.removeSubrange(mark...)
            throw error
        }
        if out.count >= 64 * 1024 {
            try sink.write(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    public func finish() throws {
        if !started { start() }
        out.append(contentsOf: "</records>\n".utf8)
        try sink.write(out)
        out.removeAll()
        try sink.close()
    }

    // MARK: Elements

    private func appendObject(_ name: String, _ fields: Fields, level: Int, path: FieldPath) throws {
        indent(level)
        appendTag(open: name)
        if fields.isEmpty {
            out.removeLast()
            out.append(contentsOf: "/>\n".utf8)
            return
        }
        out.append(0x0A)
        for field in fields {
            try checkName(field.key, path: path.appending(field.key))
            try appendMember(field.key, field.value, level: level + 1, path: path.appending(field.key))
        }
        indent(level)
        appendTag(close: name)
        out.append(0x0A)
    }

    /// One field: nothing for null, repeated elements for a list, else one element.
    private func appendMember(_ name: String, _ value: Value, level: Int, path: FieldPath) throws {
        switch value {
        case .null:
            return
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try appendListItem(name, element, level: level, path: path.appending(index: index))
            }
        default:
            try appendElement(name, value, level: level, path: path)
        }
    }

    private func appendListItem(_ name: String, _ value: Value, level: Int, path: FieldPath) throws {
        switch value {
        case .null:
            throw LarderError(.unrepresentable, "XML cannot hold null inside a list", location: SourceLocation(fieldPath: path))
        case .array(let inner):
            // A list inside a list: one element whose children are <item> elements.
            indent(level)
            appendTag(open: name)
            if inner.isEmpty {
                out.removeLast()
                out.append(contentsOf: "/>\n".utf8)
                return
            }
            out.append(0x0A)
            for (index, element) in inner.enumerated() {
                try appendListItem("item", element, level: level + 1, path: path.appending(index: index))
            }
            indent(level)
            appendTag(close: name)
            out.append(0x0A)
        default:
            try appendElement(name, value, level: level, path: path)
        }
    }

    private func appendElement(_ name: String, _ value: Value, level: Int, path: FieldPath) throws {
        switch value {
        case .object(let fields):
            try appendObject(name, fields, level: level, path: path)
            return
        case .null, .array:
            return  // handled by the callers
        default:
            break
        }
        indent(level)
        appendTag(open: name)
        switch value {
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONWriter.appendInteger(i, to: &out)
        case .double(let d): out.append(contentsOf: d.description.utf8)
        case .string(let s):
            if let problem = XMLWriter.appendEscaped(s, to: &out, inAttribute: false) {
                throw LarderError(.unrepresentable, problem, location: SourceLocation(fieldPath: path))
            }
        case .null, .array, .object: break
        }
        appendTag(close: name)
        out.append(0x0A)
    }

    @inline(__always) private func appendTag(open name: String) {
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ">"))
    }

    @inline(__always) private func appendTag(close name: String) {
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ">"))
    }

    @inline(__always) private func indent(_ level: Int) {
        for _ in 0..<level { out.append(contentsOf: "  ".utf8) }
    }

    /// Field names become element names, so they must be XML names without a namespace prefix.
    private func checkName(_ name: String, path: FieldPath) throws {
        if XMLWriter.isSimpleName(name) || validNames.contains(name) { return }
        let valid = name.withCString { xmlValidateNCName(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), 0) == 0 }
        guard valid else {
            throw LarderError(
                .unrepresentable, "the field name \"\(name)\" is not a valid XML element name", location: SourceLocation(fieldPath: path))
        }
        if validNames.count < 10_000 { validNames.insert(name) }
    }

    /// ASCII names: a letter or '_', then letters, digits, '_', '-', '.'.
    private static func isSimpleName(_ name: String) -> Bool {
        var first = true
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): if first { return false }
            default: return false
            }
            first = false
        }
        return !first
    }

    // MARK: Text

    /// Appends `text` escaped for element content (`&`, `<`, `>`, CR) or an attribute value
    /// (also `"`, tab and LF). Returns what XML 1.0 cannot hold (a C0 control character other
    /// than tab, LF and CR, or U+FFFE / U+FFFF), with nothing appended; `nil` on success.
    @discardableResult
    static func appendEscaped(_ text: String, to out: inout [UInt8], inAttribute: Bool) -> String? {
        var text = text
        let mark = out.count
        let problem: String? = text.withUTF8 { bytes -> String? in
            var runStart = 0
            var i = 0
            let count = bytes.count
            while i < count {
                let c = bytes[i]
                // Fast path: everything above '>' except the lead byte of U+FFFE / U+FFFF.
                if c > 0x3E && c != 0xEF {
                    i += 1
                    continue
                }
                let replacement: StaticString
                switch c {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case 0x0D: replacement = "&#13;"
                case UInt8(ascii: "\"") where inAttribute: replacement = "&quot;"
                case 0x09 where inAttribute: replacement = "&#9;"
                case 0x0A where inAttribute: replacement = "&#10;"
                case 0xEF:
                    if i + 2 < count, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF {
                        return "XML 1.0 cannot hold the noncharacter U+FFF\(bytes[i + 2] == 0xBE ? "E" : "F")"
                    }
                    i += 1
                    continue
                case 0x00..<0x20 where c != 0x09 && c != 0x0A:
                    let hex = String(c, radix: 16, uppercase: true)
                    return "XML 1.0 cannot hold the control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex)"
                default:
                    i += 1
                    continue
                }
                if i > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                i += 1
                runStart = i
            }
            if runStart < count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
            return nil
        }
        if problem != nil { out.removeSubrange(mark...) }
        return problem
    }
}
