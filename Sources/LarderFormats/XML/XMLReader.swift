internal import CLibXML2
public import LarderCore

/// libxml2 is initialised once per process, before the first parser.
let libxml2Initialised: Void = xmlInitParser()

/// Streams records out of XML with libxml2's SAX2 push parser, chunk by chunk: never a DOM
/// of the file.
///
/// Layouts: `<records schema="recipe" version="3"><recipe>…</recipe>…</records>` (the
/// `schema` and `version` attributes are optional and go to ``header``), or a document whose
/// root element is a single record (`<recipe>…</recipe>`). Inside a record there is one
/// element per field: repeated elements are list items (a list of objects repeats the element
/// with child elements), nested objects are child elements, and attributes of record or field
/// elements are read as fields too.
///
/// XML text has no types, so each record is typed with a ``Shape`` (by default its record
/// type's current shape: from `recordType`, else the `schema` attribute, else the element
/// name): `.integer` text becomes an integer, `.number` text a double when it has '.', 'e',
/// 'E' or is inf/nan and an integer otherwise, `.boolean` `true`/`false`/`1`/`0`, `.list`
/// fields always arrays, strings exactly as written (no trimming). Fields the shape does not
/// know are strings, objects for elements with children, arrays when the element repeats.
/// Text that does not fit its shape stays a string, so the record check names the field.
/// An absent element is an absent field; an element with `xsi:nil="true"` (XML Schema instance
/// namespace) is null, one with `larder:empty="true"` (namespace `urn:larder:xml`) an empty list.
///
/// Hostile input is refused (`refused-input`, with file:line:col) before anything is
/// expanded or fetched: any document type declaration, entity declaration or entity reference
/// other than the five predefined ones and character references. No network access
/// (`XML_PARSE_NONET`), no external DTD, no entity substitution, libxml2's default size limits.
///
/// Memory: one input chunk (64 KiB), the records completed in it, and the record being built.
///
/// Why SAX2 push and not xmlTextReader: the same libxml2 parser with the same options, but
/// without a tree node built and freed per event. On 100k indented recipes (228 MB) a bare
/// `xmlTextReaderRead` loop costs 2.07 s of CPU, a bare SAX2 push parse 0.93 s; and the SAX
/// declaration callbacks refuse a DTD before any of its declarations is parsed.
///
/// ```swift
/// let reader = try XMLReader(source: FileByteSource(path: "recipes.xml"), recordType: .recipe)
/// while let item = try reader.next() { print(item.value) }
/// ```
public final class XMLReader: RecordReader {
    public let name: String
    public var header: EnvelopeHeader? { assembler.pointee.header }
    /// Whether reading can go on after the last error: yes after a record-level problem
    /// (mixed content, nesting too deep), no after malformed XML or refused input.
    public private(set) var canRecover = false

    private let source: any ByteSource
    /// The parse state, at a fixed address that libxml2's callbacks reach as user data.
    private let assembler: UnsafeMutablePointer<XMLRecordAssembler>
    private var context: xmlParserCtxtPtr?
    /// Two input chunks used in turn: the one being parsed and the one before it, so the source
    /// line of a field of the record last returned is usually still at hand for a snippet.
    private let chunks: [UnsafeMutableRawBufferPointer]
    /// For each chunk: the input offset of its first byte, and how many bytes it holds.
    private var chunkStart = [0, 0]
    private var chunkCount = [0, 0]
    private var currentChunk = 1
    private var bytesRead = 0
    /// Whether libxml2's offsets are offsets into the raw input (UTF-8, no converter).
    private var offsetsAreRaw = false
    private var isFinished = false
    private var lastValue: Value?
    private var lastPositions: [XMLPosition] = []

    /// The chunk read from the source and fed to libxml2 at a time.
    private static let chunkSize = 64 * 1024

    /// Creates a reader that types records with the current shape of their record type.
    /// - Parameters:
    ///   - source: the bytes (already decompressed).
    ///   - recordType: the type of every record; when `nil`, the `schema` attribute of
    ///     `<records>`, else each record element's name (`recipe`, `brewRecipe`, `brewLog`).
    ///   - limits: the deepest nesting accepted inside a record.
    /// - Throws: nothing yet; kept `throws` so the reader may check its input on creation.
    public convenience init(
        source: any ByteSource, recordType: RecordType? = nil, limits: ReaderLimits = .default
    ) throws {
        try self.init(source: source, limits: limits) { element, header in
            (recordType ?? header?.recordType ?? RecordType(rawValue: element))?.shape
        }
    }

    /// Creates a reader that types every record with `shape` (for example the shape of an
    /// older schema version).
    public convenience init(source: any ByteSource, shape: Shape, limits: ReaderLimits = .default) throws {
        try self.init(source: source, limits: limits) { _, _ in shape }
    }

    /// Creates a reader that asks `shapeResolver` for the shape of each kind of record element.
    ///
    /// - Parameters:
    ///   - source: the bytes (already decompressed).
    ///   - limits: the deepest nesting accepted inside a record.
    ///   - shapeResolver: called with a record element's name and the header read so far
    ///     (`schema` and `version` of `<records>`) the first time that element name appears;
    ///     `nil` reads the record untyped (leaf text as strings).
    /// - Throws: nothing yet; kept `throws` so the reader may check its input on creation.
    public init(
        source: any ByteSource, limits: ReaderLimits = .default,
        shapeResolver: @escaping (_ recordElement: String, _ header: EnvelopeHeader?) -> Shape?
    ) throws {
        _ = libxml2Initialised
        self.source = source
        name = source.name
        assembler = .allocate(capacity: 1)
        assembler.initialize(to: XMLRecordAssembler(name: source.name, limits: limits, shapeResolver: shapeResolver))
        chunks = (0..<2).map { _ in .allocate(byteCount: XMLReader.chunkSize, alignment: 16) }
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
        assembler.deinitialize(count: 1)
        assembler.deallocate()
        for chunk in chunks { chunk.deallocate() }
    }

    public func next() throws -> RecordItem? {
        while true {
            if let event = assembler.pointee.popEvent() {
                switch event {
                case .record(let item, let positions):
                    canRecover = false
                    lastValue = item.value
                    lastPositions = positions
                    return item
                case .failure(var error, let recoverable, let offset):
                    canRecover = recoverable
                    lastValue = nil
                    if !recoverable { isFinished = true }
                    if error.snippet == nil { error.snippet = snippet(atOffset: offset) }
                    throw error
                case .consumed:
                    continue
                }
            }
            if isFinished { return nil }
            try feed()
        }
    }

    /// Reads one chunk and parses it; at the end of the input tells libxml2 to finish.
    private func feed() throws {
        currentChunk = 1 - currentChunk
        let chunk = chunks[currentChunk]
        chunkCount[currentChunk] = 0
        let count: Int
        do {
            count = try source.read(into: chunk)
        } catch {
            isFinished = true
            canRecover = false
            throw error
        }
        chunkStart[currentChunk] = bytesRead
        chunkCount[currentChunk] = count
        bytesRead += count
        let bytes = chunk.baseAddress?.assumingMemoryBound(to: CChar.self)
        if assembler.pointee.inputIsBlank, count > 0 {
            for byte in UnsafeRawBufferPointer(rebasing: chunk[..<count]) where !XMLReader.isBlankByte(byte) {
                assembler.pointee.inputIsBlank = false
                break
            }
        }
        if context == nil {
            // The first bytes let libxml2 detect the encoding.
            var handler = XMLRecordAssembler.makeHandler()
            let first = min(count, 4)
            let created = name.withCString { file in
                xmlCreatePushParserCtxt(&handler, UnsafeMutableRawPointer(assembler), bytes, Int32(first), file)
            }
            guard let created else {
                isFinished = true
                throw LarderError(.io, "libxml2 could not create a parser", location: SourceLocation(file: name))
            }
            xmlCtxtUseOptions(created, Int32(XML_PARSE_NONET.rawValue))
            context = created
            assembler.pointee.context = created
            offsetsAreRaw = larder_xml_input_is_raw_utf8(created) == 1
            parse(bytes.map { $0 + first }, count - first, terminate: count == 0)
            return
        }
        parse(bytes, count, terminate: count == 0)
    }

    private func parse(_ bytes: UnsafePointer<CChar>?, _ count: Int, terminate: Bool) {
        guard let context else { return }
        assembler.pointee.isTerminating = terminate
        if count > 0 || terminate { xmlParseChunk(context, bytes, Int32(count), terminate ? 1 : 0) }
        // An encoding declaration may have switched libxml2 to a converter; a halted parser says nothing.
        switch larder_xml_input_is_raw_utf8(context) {
        case 1: break
        case 0: offsetsAreRaw = false
        default: break
        }
        if terminate || assembler.pointee.hasFailed { isFinished = true }
    }

    /// Whitespace, or a byte of the UTF-8 byte order mark.
    private static func isBlankByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }

    public func snippet(of path: FieldPath) -> String? {
        guard let lastValue, let index = lastValue.preorderIndex(of: path), index < lastPositions.count else {
            return nil
        }
        return snippet(atOffset: lastPositions[index].offset)
    }

    /// The input byte at `offset`, when one of the two chunks still holds it.
    private func byte(at offset: Int) -> UInt8? {
        for k in 0..<2 where offset >= chunkStart[k] && offset < chunkStart[k] + chunkCount[k] {
            return chunks[k].load(fromByteOffset: offset - chunkStart[k], as: UInt8.self)
        }
        return nil
    }

    /// The source line around `offset` with a caret under it, when the bytes are still held.
    private func snippet(atOffset offset: Int) -> String? {
        guard offsetsAreRaw, offset >= 0, byte(at: offset) != nil || offset == bytesRead else { return nil }
        var start = offset
        while start > offset - 200, let b = byte(at: start - 1), b != 0x0A { start -= 1 }
        var end = offset
        while end < offset + 200, let b = byte(at: end), b != 0x0A, b != 0x0D { end += 1 }
        let line = (start..<end).compactMap(byte(at:))
        guard line.count == end - start, !line.isEmpty else { return nil }
        let caret = String(decoding: line[0..<(offset - start)], as: UTF8.self).count
        return String(decoding: line, as: UTF8.self) + "\n" + String(repeating: " ", count: caret) + "^"
    }

    public func location(of path: FieldPath) -> SourceLocation? {
        guard let lastValue, let index = lastValue.preorderIndex(of: path), index < lastPositions.count else {
            return nil
        }
        let position = lastPositions[index]
        guard position.line > 0 else { return nil }
        return SourceLocation(
            file: name, line: Int(position.line), column: position.column > 0 ? Int(position.column) : nil,
            fieldPath: path)
    }
}
