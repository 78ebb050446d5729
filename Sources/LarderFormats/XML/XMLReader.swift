internal import CLibXML2
public import LarderCore

/// libxml2 is initialised once per process, before the first parser.
private let libxml2Initialised: Void = xmlInitParser()

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
/// An absent element is an absent field: XML cannot tell an empty list from a missing one.
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
    private var chunk: UnsafeMutableRawBufferPointer
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
    public convenience init(source: any ByteSource, recordType: RecordType? = nil, limits: ReaderLimits = .default) throws {
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
    ///   - shapeResolver: called with a record element's name and the header read so far
    ///     (`schema` and `version` of `<records>`) the first time that element name appears;
    ///     `nil` reads the record untyped (leaf text as strings).
    public init(
        source: any ByteSource, limits: ReaderLimits = .default,
        shapeResolver: @escaping (_ recordElement: String, _ header: EnvelopeHeader?) -> Shape?
    ) throws {
        _ = libxml2Initialised
        self.source = source
        name = source.name
        assembler = .allocate(capacity: 1)
        assembler.initialize(to: XMLRecordAssembler(name: source.name, limits: limits, shapeResolver: shapeResolver))
        chunk = .allocate(byteCount: XMLReader.chunkSize, alignment: 16)
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
        assembler.deinitialize(count: 1)
        assembler.deallocate()
        chunk.deallocate()
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
                case .failure(let error, let recoverable):
                    canRecover = recoverable
                    lastValue = nil
                    if !recoverable { isFinished = true }
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
        let count: Int
        do {
            count = try source.read(into: chunk)
        } catch {
            isFinished = true
            canRecover = false
            throw error
        }
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
            try parse(bytes.map { $0 + first }, count - first, terminate: count == 0)
            return
        }
        try parse(bytes, count, terminate: count == 0)
    }

    private func parse(_ bytes: UnsafePointer<CChar>?, _ count: Int, terminate: Bool) throws {
        guard let context else { return }
        if count > 0 || terminate { xmlParseChunk(context, bytes, Int32(count), terminate ? 1 : 0) }
        if terminate || assembler.pointee.hasFailed { isFinished = true }
    }

    /// Whitespace, or a byte of the UTF-8 byte order mark.
    private static func isBlankByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }

    public func location(of path: FieldPath) -> SourceLocation? {
        guard let lastValue, let index = lastValue.preorderIndex(of: path), index < lastPositions.count else { return nil }
        let position = lastPositions[index]
        guard position.line > 0 else { return nil }
        return SourceLocation(
            file: name, line: Int(position.line), column: position.column > 0 ? Int(position.column) : nil, fieldPath: path)
    }
}
