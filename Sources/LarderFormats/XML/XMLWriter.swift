internal import CLibXML2
public import LarderCore

/// Writes records as `<records schema="…" version="…">` XML, one element per record named after
/// its record type, one element per field, each record indented on its own lines.
///
/// Lists are written as repeated elements and nested objects as child elements. What XML text
/// cannot spell is marked with an attribute, so it reads back the same: a `null` is
/// `<note xsi:nil="true"/>` and an empty list `<tags larder:empty="true"/>` (both namespaces are
/// declared on `<records>`). Numbers are written so that ``XMLReader`` reads them back the
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
    /// The output buffer and element writer: a struct, so a record's many small appends are one
    /// access to this property rather than one dynamically checked access each.
    private var serializer = XMLRecordSerializer()
    private var started = false

    /// Creates a writer.
    /// - Parameters:
    ///   - sink: where the bytes go; closed by ``finish()``.
    ///   - options: `recordType` names the record elements (else each record's guessed type);
    ///     `envelope` gives the `schema` and `version` attributes of `<records>` (the schema
    ///     defaults to the record type; no version is claimed unless given).
    /// - Throws: nothing at present; `throws` leaves room for checks of the options.
    public init(sink: any ByteSink, options: WriterOptions = WriterOptions()) throws {
        self.sink = sink
        self.options = options
        recordElement = options.recordType?.elementName ?? options.envelope?.recordType?.elementName
    }

    private func start() throws {
        try serializer.appendRoot(
            schema: options.envelope?.schema ?? options.recordType?.rawValue, version: options.envelope?.version)
        started = true
    }

    public func write(_ record: Value) throws {
        if !started { try start() }
        guard case .object(let fields) = record else {
            throw LarderError(.unrepresentable, "an XML record must be an object, found \(record.kindDescription)")
        }
        let element = recordElement ?? RecordType.guess(from: record).elementName
        try serializer.appendRecord(element, fields)
        if serializer.out.count >= 64 * 1024 {
            try sink.write(serializer.out.bytes)
            serializer.out.removeAll()
        }
    }

    public func finish() throws {
        if !started { try start() }
        serializer.out.append("</records>\n")
        try sink.write(serializer.out.bytes)
        serializer.out.removeAll()
        try sink.close()
    }
}

/// Serialises records as indented XML elements into a byte buffer.
///
/// Field paths are built only when an error unwinds: each level catches, prepends its own
/// component and rethrows, so the success path allocates no paths.
struct XMLRecordSerializer: ~Copyable {
    var out = OutputBuffer(capacity: 80 * 1024)
    private var validNames: Set<String> = []

    /// The XML declaration and the `<records>` start tag.
    /// - Throws: ``LarderError`` `unrepresentable` when the schema name holds a character XML cannot.
    mutating func appendRoot(schema: String?, version: Int?) throws {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records")
        if let schema {
            out.append(" schema=\"")
            if let problem = XMLRecordSerializer.appendEscaped(schema, to: &out, inAttribute: true) {
                throw LarderError(.unrepresentable, "the schema name cannot be written: \(problem)")
            }
            out.append(0x22)
        }
        if let version {
            out.append(" version=\"")
            JSONWriter.serialize(integer: Int64(version), into: &out)
            out.append(0x22)
        }
        out.append(" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:larder=\"urn:larder:xml\">\n")
    }

    /// Appends one record element; on error nothing of the record stays in the buffer.
    mutating func appendRecord(_ element: String, _ fields: Fields) throws {
        let mark = out.count
        do {
            try appendObject(element, fields, level: 1)
        } catch {
            out.truncate(to: mark)
            throw error
        }
    }

    // MARK: Elements

    /// Opens an element whose children follow on their own lines; an empty one is written
    /// `<name/>` and `false` returned.
    private mutating func openContainer(_ name: String, level: Int, isEmpty: Bool) -> Bool {
        indent(level)
        appendTag(open: name)
        if isEmpty {
            out.truncate(to: out.count - 1)
            out.append("/>\n")
            return false
        }
        out.append(0x0A)
        return true
    }

    private mutating func closeContainer(_ name: String, level: Int) {
        indent(level)
        appendTag(close: name)
        out.append(0x0A)
    }

    private mutating func appendObject(_ name: String, _ fields: Fields, level: Int) throws {
        guard openContainer(name, level: level, isEmpty: fields.isEmpty) else { return }
        for field in fields {
            do {
                try checkName(field.key)
                try appendMember(field.key, field.value, level: level + 1)
            } catch let error as LarderError {
                throw error.prefixingPath(with: .key(field.key))
            }
        }
        closeContainer(name, level: level)
    }

    /// One field: nothing for null, repeated elements for a list, else one element.
    private mutating func appendMember(_ name: String, _ value: Value, level: Int) throws {
        switch value {
        case .null:
            appendMarked(name, "xsi:nil", level: level)
        case .array(let elements) where elements.isEmpty:
            appendMarked(name, "larder:empty", level: level)
        case .array(let elements):
            for index in elements.indices {
                do {
                    try appendListItem(name, elements[index], level: level)
                } catch let error as LarderError {
                    throw error.prefixingPath(with: .index(index))
                }
            }
        default:
            try appendElement(name, value, level: level)
        }
    }

    private mutating func appendListItem(_ name: String, _ value: Value, level: Int) throws {
        switch value {
        case .null:
            appendMarked(name, "xsi:nil", level: level)
        case .array(let inner) where inner.isEmpty:
            appendMarked(name, "larder:empty", level: level)
        case .array(let inner):
            // A list inside a list: one element whose children are <item> elements.
            guard openContainer(name, level: level, isEmpty: false) else { return }
            for index in inner.indices {
                do {
                    try appendListItem("item", inner[index], level: level + 1)
                } catch let error as LarderError {
                    throw error.prefixingPath(with: .index(index))
                }
            }
            closeContainer(name, level: level)
        default:
            try appendElement(name, value, level: level)
        }
    }

    private mutating func appendElement(_ name: String, _ value: Value, level: Int) throws {
        switch value {
        case .object(let fields):
            try appendObject(name, fields, level: level)
            return
        case .null, .array:
            return  // handled by the callers
        default:
            break
        }
        indent(level)
        appendTag(open: name)
        switch value {
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let i): JSONWriter.serialize(integer: i, into: &out)
        case .double(let d): out.append(string: d.description)
        case .string(let s):
            if let problem = XMLRecordSerializer.appendEscaped(s, to: &out, inAttribute: false) {
                throw LarderError(.unrepresentable, problem, location: SourceLocation(fieldPath: .root))
            }
        case .null, .array, .object: break
        }
        appendTag(close: name)
        out.append(0x0A)
    }

    /// `<name xsi:nil="true"/>` (null) or `<name larder:empty="true"/>` (an empty list).
    private mutating func appendMarked(_ name: String, _ attribute: StaticString, level: Int) {
        indent(level)
        out.append(UInt8(ascii: "<"))
        out.append(string: name)
        out.append(UInt8(ascii: " "))
        out.append(attribute)
        out.append("=\"true\"/>\n")
    }

    @inline(__always) private mutating func appendTag(open name: String) {
        out.append(UInt8(ascii: "<"))
        out.append(string: name)
        out.append(UInt8(ascii: ">"))
    }

    @inline(__always) private mutating func appendTag(close name: String) {
        out.append("</")
        out.append(string: name)
        out.append(UInt8(ascii: ">"))
    }

    private static let spaces: StaticString = "                                                                "

    @inline(__always) private mutating func indent(_ level: Int) {
        var remaining = level * 2
        while remaining > 0 {
            let count = min(remaining, XMLRecordSerializer.spaces.utf8CodeUnitCount)
            XMLRecordSerializer.spaces.withUTF8Buffer { out.append(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            remaining -= count
        }
    }

    /// Field names become element names, so they must be XML names without a namespace prefix.
    private mutating func checkName(_ name: String) throws {
        if XMLRecordSerializer.isSimpleName(name) || validNames.contains(name) { return }
        let valid = name.withCString {
            xmlValidateNCName(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), 0) == 0
        }
        guard valid else {
            throw LarderError(
                .unrepresentable, "the field name \"\(name)\" is not a valid XML element name",
                location: SourceLocation(fieldPath: .root))
        }
        if validNames.count < 10_000 { validNames.insert(name) }
    }

    /// ASCII names: a letter or '_', then letters, digits, '_', '-', '.'.
    private static func isSimpleName(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable(isSimpleName)
            ?? Array(name.utf8).withUnsafeBufferPointer(isSimpleName)
    }

    private static func isSimpleName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var first = true
        for byte in bytes {
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

    /// Appends `text` escaped for element content (`&`, `<`, `>`, CR) or an attribute value (also `"`, tab and LF).
    ///
    /// Returns what XML 1.0 cannot hold (a C0 control character other than tab, LF and CR, or
    /// U+FFFE / U+FFFF), with nothing appended; `nil` on success.
    @discardableResult
    static func appendEscaped(_ text: String, to out: inout OutputBuffer, inAttribute: Bool) -> String? {
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
                    let padded = String(repeating: "0", count: 4 - hex.count) + hex
                    return "XML 1.0 cannot hold the control character U+\(padded)"
                default:
                    i += 1
                    continue
                }
                if i > runStart { out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                out.append(replacement)
                i += 1
                runStart = i
            }
            if runStart < count { out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
            return nil
        }
        if problem != nil { out.truncate(to: mark) }
        return problem
    }
}

extension LarderError {
    /// The error with `component` put in front of its field path.
    fileprivate func prefixingPath(with component: FieldPath.Component) -> LarderError {
        var copy = self
        var location = copy.location ?? SourceLocation()
        location.fieldPath = FieldPath(components: [component] + (location.fieldPath?.components ?? []))
        copy.location = location
        return copy
    }
}
