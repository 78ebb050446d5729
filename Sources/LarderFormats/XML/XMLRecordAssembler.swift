internal import CLibXML2
import LarderCore

/// Element and attribute names by id.
///
/// libxml2 interns names in its dictionary, so a name's pointer identifies it: the table maps
/// pointers to ids with open addressing, hashing no text.
struct XMLNameTable {
    private var keys: [UInt] = Array(repeating: 0, count: 256)  // local pointer bits (0: empty)
    private var prefixes: [UInt] = Array(repeating: 0, count: 256)
    private var ids: [Int32] = Array(repeating: -1, count: 256)
    /// The names, `prefix:local` when prefixed.
    private(set) var names: [String] = []

    mutating func id(_ local: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?) -> Int32 {
        let key = UInt(bitPattern: local)
        let prefixKey = prefix.map { UInt(bitPattern: $0) } ?? 0
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: ((key ^ (prefixKey &* 31)) >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 40) & mask
        while keys[slot] != 0 {
            if keys[slot] == key && prefixes[slot] == prefixKey { return ids[slot] }
            slot = (slot + 1) & mask
        }
        var text = String(cString: local)
        if let prefix { text = String(cString: prefix) + ":" + text }
        let id = Int32(names.count)
        names.append(text)
        keys[slot] = key
        prefixes[slot] = prefixKey
        ids[slot] = id
        if names.count * 2 > keys.count { grow() }
        return id
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldPrefixes = prefixes
        let oldIDs = ids
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        prefixes = Array(repeating: 0, count: oldKeys.count * 2)
        ids = Array(repeating: -1, count: oldKeys.count * 2)
        let mask = keys.count - 1
        for i in oldKeys.indices where oldKeys[i] != 0 {
            var slot =
                Int(truncatingIfNeeded: ((oldKeys[i] ^ (oldPrefixes[i] &* 31)) >> 3) &* 0x9E37_79B9_7F4A_7C15 >> 40)
                & mask
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[i]
            prefixes[slot] = oldPrefixes[i]
            ids[slot] = oldIDs[i]
        }
    }
}

/// Turns libxml2's SAX2 events into records: the state behind ``XMLReader``.
///
/// libxml2 calls the handlers installed by ``makeHandler()`` while it parses a chunk, with a
/// pointer to this struct as user data (a pointer, not a class reference, so the hot callbacks
/// pay neither reference counting nor dynamic exclusivity checks). Each finished record (or
/// record-level problem) is queued, and ``XMLReader/next()`` hands them out in order. The queue
/// holds at most the records of one input chunk.
struct XMLRecordAssembler {
    /// What the parser produced, in document order.
    enum Event {
        case record(RecordItem, positions: [XMLPosition])
        /// `offset`: where in the input, for a source snippet (-1 unknown).
        case failure(LarderError, recoverable: Bool, offset: Int)
        /// A slot already handed out.
        case consumed
    }

    let name: String
    let limits: ReaderLimits
    let shapeResolver: (String, EnvelopeHeader?) -> Shape?
    /// The libxml2 parser, set once it exists (for positions and to stop it).
    var context: xmlParserCtxtPtr?

    private(set) var header: EnvelopeHeader?
    private var events: [Event] = []
    private var eventHead = 0
    /// A fatal error or a refusal was queued: parsing is over.
    private(set) var hasFailed = false
    /// A root element was seen (an empty document has none).
    private(set) var sawRoot = false
    /// Whether every byte fed so far was whitespace (or a byte order mark): such an input
    /// holds no records, and libxml2's complaint about a missing root is no error.
    var inputIsBlank = true
    /// The reader is feeding the end of the input.
    var isTerminating = false

    private var nameTable = XMLNameTable()
    private var shapes = XMLShapeTable()
    /// Compiled record shape by record element name id.
    private var recordShapes: [Int32: Int32] = [:]

    // Document state.
    private var depth = 0
    /// The name ids of the open elements, outermost first (-1 for the `<records>` root).
    private var openElements: [Int32] = []
    private var recordDepth = 1
    private var isEnvelope = false
    private var recordCount = 0

    // Record state.
    private var inRecord = false
    private var skipping = false
    private var recordError: LarderError?
    private var recordShape: Int32 = 0
    private var recordStart = XMLPosition(line: 0, column: 0, offset: -1)
    private var recordErrorOffset = -1
    private var tree = XMLRecordTree()
    private var stack: [Int32] = []
    /// Where the innermost open element's text starts in the tree's text buffer.
    private var textStart = 0
    private var textIsBlank = true

    init(name: String, limits: ReaderLimits, shapeResolver: @escaping (String, EnvelopeHeader?) -> Shape?) {
        self.name = name
        self.limits = limits
        self.shapeResolver = shapeResolver
        stack.reserveCapacity(64)
    }

    private var names: [String] { nameTable.names }

    // MARK: Queue

    /// The next queued event, if any.
    mutating func popEvent() -> Event? {
        guard eventHead < events.count else { return nil }
        var event = Event.consumed
        swap(&event, &events[eventHead])  // moves the event out: no copy, no reference counting
        eventHead += 1
        if eventHead == events.count {
            events.removeAll(keepingCapacity: true)
            eventHead = 0
        }
        return event
    }

    private mutating func fail(_ error: LarderError, recoverable: Bool, offset: Int? = nil) {
        events.append(.failure(error, recoverable: recoverable, offset: offset ?? parserPosition().offset))
        if !recoverable {
            hasFailed = true
            if let context { xmlStopParser(context) }
        }
    }

    /// Where the parser is now.
    private func parserPosition() -> XMLPosition {
        var line: Int32 = 0
        var column: Int32 = 0
        var offset = -1
        larder_xml_parser_position(context, &line, &column, &offset)
        return XMLPosition(line: line, column: column, offset: offset)
    }

    func parserLocation() -> SourceLocation {
        location(parserPosition())
    }

    private func location(_ position: XMLPosition) -> SourceLocation {
        SourceLocation(
            file: name, line: position.line > 0 ? Int(position.line) : nil,
            column: position.column > 0 ? Int(position.column) : nil, recordIndex: inRecord ? recordCount : nil)
    }

    /// Refuses the input (DTDs, entities) and stops the parser.
    mutating func refuse(_ message: String) {
        guard !hasFailed else { return }
        fail(LarderError(.refusedInput, message, location: parserLocation()), recoverable: false)
    }

    // MARK: SAX events

    mutating func startElement(
        _ local: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ attributeCount: Int32,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        if depth == 1 {
            sawRoot = true
            if prefix == nil, strcmp(local, "records") == 0 {
                isEnvelope = true
                recordDepth = 2
                openElements.append(-1)
                readEnvelopeAttributes(attributeCount, attributes)
                return
            }
            recordDepth = 1
        }
        let name = nameTable.id(local, prefix)
        openElements.append(name)
        if depth == recordDepth {
            beginRecord(name, attributeCount, attributes)
            return
        }
        guard inRecord, !skipping else { return }
        let position = startTagPosition()
        guard depth - recordDepth + 1 <= limits.maxDepth else {
            failRecord(.refusedInput, "nesting deeper than \(limits.maxDepth) levels", at: position)
            return
        }
        let parent = stack[stack.count - 1]
        if !textIsBlank {
            failRecord(
                .malformedRecord, "element <\(names[Int(tree.name(of: parent))])> mixes text with child elements",
                at: position)
            return
        }
        tree.truncateText(to: textStart)  // layout whitespace before the child
        if tree.textEnd + tree.nodes.count * 16 > limits.maxRecordSize {
            refuseOversizedRecord(at: position)
            return
        }
        let node = tree.add(name: name, parent: parent, position: position)
        addAttributes(attributeCount, attributes, to: node, at: position)
        stack.append(node)
        textStart = tree.textEnd
        textIsBlank = true
    }

    mutating func endElement() {
        defer {
            depth -= 1
            openElements.removeLast()
        }
        if depth > recordDepth {
            guard inRecord, !skipping, let node = stack.popLast() else { return }
            close(node)
        } else if depth == recordDepth {
            finishRecord()
        }
    }

    mutating func characters(_ bytes: UnsafePointer<xmlChar>, _ count: Int32) {
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(count))
        guard inRecord else {
            // Text directly inside <records>: only layout whitespace belongs there.
            if depth >= 1, !XMLRecordTree.isBlank(buffer) {
                let snippet = String(decoding: buffer.prefix(40), as: UTF8.self)
                fail(
                    LarderError(.syntax, "text outside any record: \"\(snippet)\"", location: parserLocation()),
                    recoverable: true)
            }
            return
        }
        guard !skipping, let current = stack.last else { return }
        if tree.hasChildren(current) {
            // After child elements only layout whitespace may follow.
            if !XMLRecordTree.isBlank(buffer) {
                failRecord(
                    .malformedRecord, "element <\(names[Int(tree.name(of: current))])> mixes text with child elements",
                    at: tree.position(of: current))
            }
            return
        }
        tree.appendText(buffer)
        if textIsBlank, !XMLRecordTree.isBlank(buffer) { textIsBlank = false }
        if tree.textEnd > limits.maxRecordSize { refuseOversizedRecord(at: tree.position(of: current)) }
    }

    /// Rejects the record being read for passing ``ReaderLimits/maxRecordSize``, and stops keeping its text.
    ///
    /// The record's text bytes (and 16 bytes per element) are what it costs to hold. The reader
    /// goes on with the next record.
    private mutating func refuseOversizedRecord(at position: XMLPosition) {
        failRecord(.refusedInput, limits.recordTooLarge(at: location(position)).message, at: position)
        tree.truncateText(to: 0)
    }

    // MARK: Records

    private mutating func readEnvelopeAttributes(
        _ count: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        var envelope = EnvelopeHeader()
        guard count > 0, let attributes else {
            header = envelope
            return
        }
        for i in 0..<Int(count) {
            guard let local = attributes[i * 5], attributes[i * 5 + 1] == nil,
                let start = attributes[i * 5 + 3], let end = attributes[i * 5 + 4]
            else { continue }
            var bytes: [UInt8] = []
            XMLRecordAssembler.forEachAttributeRun(UnsafeBufferPointer(start: start, count: end - start)) {
                bytes.append(contentsOf: $0)
            }
            let value = String(decoding: bytes, as: UTF8.self)
            if strcmp(local, "schema") == 0 {
                envelope.schema = value
            } else if strcmp(local, "version") == 0 {
                guard let version = Int(value.trimmingXMLWhitespace()) else {
                    fail(
                        LarderError(
                            .syntax, "the version attribute must be an integer, found \"\(value)\"",
                            location: parserLocation()), recoverable: false)
                    return
                }
                envelope.version = version
            }
        }
        header = envelope
    }

    private mutating func beginRecord(
        _ nameID: Int32, _ attributeCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        if let shape = recordShapes[nameID] {
            recordShape = shape
        } else {
            let elementName = names[Int(nameID)]
            if isEnvelope, header?.schema == nil, RecordType(rawValue: elementName) != nil {
                header?.schema = elementName  // the record elements name the type when the root does not
            }
            let shape = shapes.intern(shapeResolver(elementName, header) ?? .any)
            recordShapes[nameID] = shape
            recordShape = shape
        }
        inRecord = true
        skipping = false
        recordError = nil
        tree.reset()
        stack.removeAll(keepingCapacity: true)
        recordStart = startTagPosition()
        let root = tree.add(name: nameID, parent: -1, position: recordStart)
        addAttributes(attributeCount, attributes, to: root, at: recordStart)
        stack.append(root)
        textStart = tree.textEnd
        textIsBlank = true
    }

    /// Attributes of an element inside a record are read as fields (leaf children).
    private mutating func addAttributes(
        _ count: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, to node: Int32,
        at position: XMLPosition
    ) {
        guard count > 0, let attributes else { return }
        for i in 0..<Int(count) {
            guard let local = attributes[i * 5], let start = attributes[i * 5 + 3], let end = attributes[i * 5 + 4]
            else { continue }
            if let uri = attributes[i * 5 + 2] {
                // The local name first: a short literal, where the namespace is a long string.
                let mark: XMLRecordTree.Mark =
                    Self.spells(local, "nil") && Self.spells(uri, XMLRecordAssembler.xsiNamespace)
                    ? .null
                    : Self.spells(local, "empty") && Self.spells(uri, XMLRecordAssembler.larderNamespace)
                        ? .emptyList : .none
                if mark != .none {
                    let value = UnsafeBufferPointer(start: start, count: end - start)
                    if XMLRecordTree.spellsTrue(value) { tree.setMark(mark, of: node) }
                    continue
                }
            }
            let child = tree.add(name: nameTable.id(local, attributes[i * 5 + 1]), parent: node, position: position)
            let textStart = tree.textEnd
            XMLRecordAssembler.forEachAttributeRun(UnsafeBufferPointer(start: start, count: end - start)) {
                tree.appendText($0)
            }
            tree.setText(of: child, from: textStart)
        }
    }

    /// The XML Schema instance namespace, whose `nil` attribute marks a null field.
    static let xsiNamespace: StaticString = "http://www.w3.org/2001/XMLSchema-instance"
    /// Larder's namespace, whose `empty` attribute marks an empty list.
    static let larderNamespace: StaticString = "urn:larder:xml"

    /// Whether the NUL-terminated `name` from libxml2 is `text`.
    private static func spells(_ name: UnsafePointer<xmlChar>, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { expected in
            for i in 0..<expected.count where name[i] != expected[i] { return false }
            return name[expected.count] == 0
        }
    }

    /// Hands over an attribute value in runs of bytes, with `&#38;` turned back into `&`.
    ///
    /// Without entity substitution libxml2's SAX2 parser passes a `&` of an attribute value (from
    /// `&amp;` or `&#38;`) on as the five characters `&#38;`, for a tree builder to decode; a raw
    /// `&` cannot occur there, so every `&` starts that sequence.
    static func forEachAttributeRun(_ value: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var runStart = 0
        var i = 0
        while i < value.count {
            if value[i] == UInt8(ascii: "&"), i + 5 <= value.count, value[i + 1] == UInt8(ascii: "#"),
                value[i + 2] == UInt8(ascii: "3"),
                value[i + 3] == UInt8(ascii: "8"), value[i + 4] == UInt8(ascii: ";")
            {
                body(UnsafeBufferPointer(rebasing: value[runStart..<(i + 1)]))  // up to and with the '&'
                i += 5
                runStart = i
            } else {
                i += 1
            }
        }
        if runStart < value.count { body(UnsafeBufferPointer(rebasing: value[runStart...])) }
    }

    private mutating func close(_ node: Int32) {
        if !tree.hasChildren(node) {
            tree.setText(of: node, from: textStart)
        } else if !textIsBlank {
            failRecord(
                .malformedRecord,
                "element <\(names[Int(tree.name(of: node))])> mixes text with child elements or attributes",
                at: tree.position(of: node))
        }
        textStart = tree.textEnd
        textIsBlank = true
    }

    private mutating func finishRecord() {
        guard inRecord else { return }
        if !skipping, let root = stack.first { close(root) }
        let index = recordCount
        recordCount += 1
        inRecord = false
        if let recordError {
            events.append(.failure(recordError, recoverable: true, offset: recordErrorOffset))
            return
        }
        var positions: [XMLPosition] = []
        positions.reserveCapacity(tree.nodes.count * 2)
        let value = tree.makeValue(shape: recordShape, shapes: &shapes, names: names, positions: &positions)
        let location = SourceLocation(
            file: name, line: recordStart.line > 0 ? Int(recordStart.line) : nil,
            column: recordStart.column > 0 ? Int(recordStart.column) : nil, recordIndex: index)
        events.append(.record(RecordItem(value: value, index: index, location: location), positions: positions))
    }

    /// Marks the current record bad; the rest of it is skipped and the error queued at its end.
    private mutating func failRecord(_ code: LarderError.Code, _ message: String, at position: XMLPosition) {
        if recordError == nil {
            recordError = LarderError(code, message, location: location(position))
            recordErrorOffset = position.offset
        }
        skipping = true
    }

    private func startTagPosition() -> XMLPosition {
        var line: Int32 = 0
        var column: Int32 = 0
        var offset = -1
        larder_xml_start_tag_position(context, &line, &column, &offset)
        return XMLPosition(line: line, column: column, offset: offset)
    }

    // MARK: Errors from libxml2

    /// Queues libxml2's error: fatal ones end the input; others (namespace errors) reject the
    /// record they are in.
    mutating func parserError(_ error: UnsafePointer<xmlError>) {
        guard !hasFailed else { return }
        let level = error.pointee.level
        guard level == XML_ERR_ERROR || level == XML_ERR_FATAL else { return }  // warnings: nothing is lost
        var message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        let line = Int(error.pointee.line)
        let column = Int(error.pointee.int2)
        let location = SourceLocation(
            file: name, line: line > 0 ? line : nil, column: column > 0 ? column : nil,
            recordIndex: inRecord ? recordCount : nil)
        if level == XML_ERR_FATAL && isTerminating && !openElements.isEmpty
            && error.pointee.code == Int32(XML_ERR_DOCUMENT_END.rawValue)
        {
            // libxml2's push parser calls a cut-off document "Extra content at the end": say what is open.
            let innermost = openElements[openElements.count - 1]
            let element = innermost < 0 ? "records" : names[Int(innermost)]
            message =
                "unexpected end of input inside <\(element)>"
                + (openElements.count > 1 ? " (\(openElements.count) elements are not closed)" : "")
        }
        if level == XML_ERR_FATAL {
            if !sawRoot && inputIsBlank {
                hasFailed = true  // an empty input holds no records
                return
            }
            if message.contains("Excessive depth") {
                fail(
                    LarderError(.refusedInput, "nesting deeper than libxml2's limit of 256 levels", location: location),
                    recoverable: false)
            } else {
                fail(LarderError(.syntax, "malformed XML: \(message)", location: location), recoverable: false)
            }
        } else if inRecord {
            if recordError == nil {
                recordError = LarderError(.syntax, "malformed XML: \(message)", location: location)
                recordErrorOffset = parserPosition().offset
            }
            skipping = true
        } else {
            fail(LarderError(.syntax, "malformed XML: \(message)", location: location), recoverable: true)
        }
    }

    // MARK: The handler

    /// A SAX2 handler whose callbacks forward to the assembler passed as libxml2's user data.
    ///
    /// Every declaration callback refuses the input: no DTD, internal or external, and no
    /// entity other than the five predefined ones is ever read, so XXE and entity expansion
    /// ("billion laughs") cannot happen. Errors go to `serror`, so libxml2 prints nothing.
    static func makeHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, local, prefix, _, _, _, attributeCount, _, attributes in
            guard let context, let local else { return }
            assembler(context).pointee.startElement(local, prefix, attributeCount, attributes)
        }
        handler.endElementNs = { context, _, _, _ in
            guard let context else { return }
            assembler(context).pointee.endElement()
        }
        handler.characters = { context, bytes, count in
            guard let context, let bytes else { return }
            assembler(context).pointee.characters(bytes, count)
        }
        handler.cdataBlock = handler.characters
        handler.ignorableWhitespace = handler.characters
        handler.internalSubset = { context, name, _, _ in
            guard let context else { return }
            let root = name.map { String(cString: $0) } ?? ""
            assembler(context).pointee.refuse(
                "document type declaration <!DOCTYPE \(root)> refused: Larder reads no DTDs or entity declarations "
                    + "(protection against external entities and entity expansion)")
        }
        handler.externalSubset = { context, _, _, _ in
            guard let context else { return }
            assembler(context).pointee.refuse("external DTD refused")
        }
        handler.entityDecl = { context, name, _, _, _, _ in
            guard let context else { return }
            assembler(context).pointee.refuse("entity declaration \(name.map { String(cString: $0) } ?? "") refused")
        }
        handler.getEntity = { context, name in
            guard let context else { return nil }
            assembler(context).pointee.refuse(
                "entity reference &\(name.map { String(cString: $0) } ?? "");"
                    + " refused: only &lt; &gt; &amp; &apos; &quot; and character references are read")
            return nil
        }
        handler.getParameterEntity = { context, name in
            guard let context else { return nil }
            assembler(context).pointee.refuse(
                "parameter entity reference %\(name.map { String(cString: $0) } ?? ""); refused")
            return nil
        }
        handler.resolveEntity = { context, _, systemID in
            guard let context else { return nil }
            assembler(context).pointee.refuse("external entity \(systemID.map { String(cString: $0) } ?? "") refused")
            return nil
        }
        handler.reference = { context, name in
            guard let context else { return }
            assembler(context).pointee.refuse("entity reference &\(name.map { String(cString: $0) } ?? ""); refused")
        }
        handler.notationDecl = { context, _, _, _ in
            guard let context else { return }
            assembler(context).pointee.refuse("notation declaration refused")
        }
        handler.unparsedEntityDecl = { context, _, _, _, _ in
            guard let context else { return }
            assembler(context).pointee.refuse("unparsed entity declaration refused")
        }
        handler.elementDecl = { context, _, _, _ in
            guard let context else { return }
            assembler(context).pointee.refuse("element declaration refused")
        }
        handler.attributeDecl = { context, _, _, _, _, _, tree in
            if let tree { xmlFreeEnumeration(tree) }  // the handler owns it
            guard let context else { return }
            assembler(context).pointee.refuse("attribute declaration refused")
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            assembler(context).pointee.parserError(error)
        }
        return handler
    }
}

/// The assembler libxml2 hands back as user data.
@inline(__always) private func assembler(_ context: UnsafeMutableRawPointer) -> UnsafeMutablePointer<XMLRecordAssembler>
{
    context.assumingMemoryBound(to: XMLRecordAssembler.self)
}

extension String {
    /// The string without leading and trailing XML whitespace.
    fileprivate func trimmingXMLWhitespace() -> Substring {
        var text = self[...]
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
