internal import CLibYAML
public import LarderCore

/// Streams records out of YAML with libyaml's event API.
///
/// Accepted layouts: a top-level sequence of records, a multi-document stream (each document
/// one record, or a sequence of records), a single mapping (one record), and the envelope
/// `{schema: recipe, version: 3, records: [...]}` whose header may come before or after the
/// records. Sequences of records are streamed item by item: memory holds libyaml's buffers,
/// one record, a 256 KiB input window, and the values of anchors defined so far in the
/// current document (aliases may refer to them from a later record).
///
/// Plain scalars resolve by the YAML 1.2 core schema (docs/yaml.md has the table): `no`, `Off` and
/// `yes` are strings; `.inf` and `.nan` become doubles, which JSON output then refuses as
/// `unrepresentable`. Quoted scalars are strings; the tags `!!str`, `!!int`, `!!float`,
/// `!!bool`, `!!null`, `!!seq`, `!!map` are honoured (`!!binary` and `!!timestamp` keep their
/// text); other tags are refused. Mapping keys that are scalars become their text; YAML 1.1
/// merge keys (`<<`) are not expanded.
///
/// ```swift
/// let reader = try YAMLReader(source: try FileByteSource(path: "recipes.yaml"))
/// while let item = try reader.next() { print(item.value) }
/// ```
public final class YAMLReader: RecordReader {
    public let name: String
    public private(set) var header: EnvelopeHeader?

    private let limits: ReaderLimits
    private let input: YAMLInput
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private var hasEvent = false

    private enum State {
        case streamStart, betweenDocuments, documentRoot, topMapping, documentEnd, done
        case records(inEnvelope: Bool)
    }
    private var state = State.streamStart
    private var recordCount = 0

    /// A 1-based line and column.
    private struct Mark {
        var line: Int32
        var column: Int32

        init(_ mark: yaml_mark_t) {
            line = Int32(truncatingIfNeeded: mark.line + 1)
            column = Int32(truncatingIfNeeded: mark.column + 1)
        }
    }

    /// An anchored node: its value, how many nodes it counts (aliases inside included), and
    /// its height (0 for a scalar, 1 for a flat list or mapping).
    private struct Anchored {
        var value: Value
        var nodeCount: Int
        var height: Int
    }
    private var anchors: [String: Anchored] = [:]
    private var anchoredNodes = 0
    private var aliasNodes = 0
    /// The height of the node `parseNode` returned last.
    private var lastHeight = 0

    // The top-level mapping: a single record, or an envelope.
    private var topFields: [Field] = []
    private var topMark: Mark
    private var sawRecords = false
    private var topKeyCheck = KeyCheck()

    // The record last returned, and one mark per node in pre-order.
    private var marks: [Mark] = []
    private var lastValue: Value?

    /// Creates a reader over decompressed bytes; nothing is read until ``next()``.
    /// - Parameters:
    ///   - source: the bytes, pulled in chunks.
    ///   - limits: nesting depth and alias expansion caps for hostile input.
    /// - Throws: ``LarderError`` `io-error` when libyaml cannot allocate its parser.
    public init(source: any ByteSource, limits: ReaderLimits = .default) throws {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw LarderError(.io, "libyaml could not allocate a parser", location: SourceLocation(file: source.name))
        }
        self.parser = parser
        event = .allocate(capacity: 1)
        name = source.name
        self.limits = limits
        input = YAMLInput(source: source)
        topMark = Mark(yaml_mark_t())
        yaml_parser_set_input(parser, readYAMLInput, Unmanaged.passUnretained(input).toOpaque())
    }

    deinit {
        if hasEvent { yaml_event_delete(event) }
        event.deallocate()
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    // MARK: Records

    public func next() throws -> RecordItem? {
        do {
            return try advance()
        } catch {
            state = .done
            lastValue = nil
            throw error
        }
    }

    private func advance() throws -> RecordItem? {
        while true {
            switch state {
            case .done:
                return nil
            case .streamStart:
                try nextEvent()
                state = .betweenDocuments
            case .betweenDocuments:
                try nextEvent()
                switch event.pointee.type {
                case YAML_DOCUMENT_START_EVENT:
                    anchors.removeAll()
                    anchoredNodes = 0
                    state = .documentRoot
                case YAML_STREAM_END_EVENT:
                    state = .done
                    return nil
                default:
                    throw syntaxError("expected a document", at: currentMark)
                }
            case .documentRoot:
                try nextEvent()
                try beginDocumentRoot()
            case .records(let inEnvelope):
                try nextEvent()
                if event.pointee.type == YAML_SEQUENCE_END_EVENT {
                    state = inEnvelope ? .topMapping : .documentEnd
                    continue
                }
                return try readRecord()
            case .topMapping:
                if let item = try readTopMappingEntry() { return item }
            case .documentEnd:
                try nextEvent()
                guard event.pointee.type == YAML_DOCUMENT_END_EVENT else {
                    throw syntaxError("expected the end of the document", at: currentMark)
                }
                state = .betweenDocuments
            }
        }
    }

    private func beginDocumentRoot() throws {
        let e = event.pointee
        let mark = Mark(e.start_mark)
        switch e.type {
        case YAML_SEQUENCE_START_EVENT:
            try checkCollectionTag(e.data.sequence_start.tag, .sequence, at: mark)
            state = .records(inEnvelope: false)
        case YAML_MAPPING_START_EVENT:
            try checkCollectionTag(e.data.mapping_start.tag, .mapping, at: mark)
            topFields = []
            topKeyCheck = KeyCheck()
            sawRecords = false
            topMark = mark
            marks.removeAll(keepingCapacity: true)
            marks.append(mark)
            aliasNodes = 0
            limitRecord()  // a single record, until its `records` key makes it an envelope
            state = .topMapping
        case YAML_SCALAR_EVENT:
            let scalar = e.data.scalar
            let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
            // An empty document (`---` and nothing else) holds no record.
            guard scalar.style == YAML_PLAIN_SCALAR_STYLE, scalar.tag == nil, bytes.isEmpty else {
                throw syntaxError("expected a record (a mapping) or a sequence of records, found a scalar", at: mark)
            }
            state = .documentEnd
        default:
            throw syntaxError("expected a record (a mapping) or a sequence of records, found an alias", at: mark)
        }
    }

    private func readRecord() throws -> RecordItem {
        let start = currentMark
        marks.removeAll(keepingCapacity: true)
        aliasNodes = 0
        limitRecord()
        defer { input.refuseAt = .max }
        return makeItem(try parseNode(depth: 1), startingAt: start)
    }

    /// Starts counting a record's bytes against ``ReaderLimits/maxRecordSize``, from what libyaml
    /// has taken so far (it reads ahead by at most its 16 KiB buffer, which the limit allows for).
    private func limitRecord() {
        let (allowance, tooLarge) = limits.maxRecordSize.addingReportingOverflow(16 << 10)
        let (end, overflow) = input.offset.addingReportingOverflow(allowance)
        input.refuseAt = tooLarge || overflow ? .max : end
    }

    /// The record just read, remembered for ``location(of:)``, with the next index.
    private func makeItem(_ value: Value, startingAt start: Mark) -> RecordItem {
        lastValue = value
        let index = recordCount
        recordCount += 1
        return RecordItem(
            value: value, index: index,
            location: SourceLocation(file: name, line: Int(start.line), column: Int(start.column), recordIndex: index))
    }

    /// Reads one entry of a top-level mapping: a header field, the start of the envelope's
    /// records, or the end of the mapping (which yields the mapping itself when it had no records).
    private func readTopMappingEntry() throws -> RecordItem? {
        try nextEvent()
        if event.pointee.type == YAML_MAPPING_END_EVENT {
            input.refuseAt = .max
            state = .documentEnd
            if sawRecords {
                header = makeHeader()
                lastValue = nil
                return nil
            }
            defer { topFields = [] }
            return makeItem(.object(Fields(uncheckedUniqueElements: topFields)), startingAt: topMark)
        }
        let (key, keyMark) = try readKey()
        if key == "records" && sawRecords { throw syntaxError("duplicate key \"records\"", at: keyMark) }
        try checkDuplicate(key, in: topFields, with: &topKeyCheck, at: keyMark)
        try nextEvent()
        if key == "records" && event.pointee.type == YAML_SEQUENCE_START_EVENT {
            try checkCollectionTag(event.pointee.data.sequence_start.tag, .sequence, at: currentMark)
            sawRecords = true
            input.refuseAt = .max
            header = makeHeader()
            state = .records(inEnvelope: true)
            return nil
        }
        let value = try parseNode(depth: 2)
        topFields.append(Field(key: key, value: value))
        return nil
    }

    private func makeHeader() -> EnvelopeHeader {
        var header = EnvelopeHeader()
        for field in topFields {
            if field.key == "schema", case .string(let schema) = field.value { header.schema = schema }
            if field.key == "version", case .int(let version) = field.value { header.version = Int(exactly: version) }
        }
        return header
    }

    // MARK: Nodes

    @inline(__always) private func nextEvent() throws {
        if hasEvent {
            yaml_event_delete(event)
            hasEvent = false
        }
        guard yaml_parser_parse(parser, event) == 1 else { throw parserError() }
        hasEvent = true
    }

    private var currentMark: Mark { Mark(event.pointee.start_mark) }

    /// Builds the node whose first event is the current one, consuming its events; records a
    /// mark per node in pre-order.
    private func parseNode(depth: Int) throws -> Value {
        let e = event.pointee
        let mark = Mark(e.start_mark)
        marks.append(mark)
        switch e.type {
        case YAML_SCALAR_EVENT:
            let value = try scalarValue(e.data.scalar, at: mark)
            lastHeight = 0
            if let anchor = e.data.scalar.anchor {
                try register(String(cString: anchor), value, nodeCount: 1, height: 0, at: mark)
            }
            return value
        case YAML_ALIAS_EVENT:
            return try aliasValue(e.data.alias.anchor, depth: depth, at: mark)
        case YAML_SEQUENCE_START_EVENT:
            let start = e.data.sequence_start
            return try parseCollection(.sequence, start.tag, start.anchor, depth: depth, at: mark) { height in
                var elements: [Value] = []
                elements.reserveCapacity(capacityHint(depth))
                while true {
                    try nextEvent()
                    if event.pointee.type == YAML_SEQUENCE_END_EVENT { break }
                    elements.append(try parseNode(depth: depth + 1))
                    height = max(height, lastHeight)
                }
                rememberCapacity(elements.count, depth)
                return .array(elements)
            }
        case YAML_MAPPING_START_EVENT:
            let start = e.data.mapping_start
            return try parseCollection(.mapping, start.tag, start.anchor, depth: depth, at: mark) { height in
                var fields: [Field] = []
                fields.reserveCapacity(capacityHint(depth))
                var keyCheck = KeyCheck()
                while true {
                    try nextEvent()
                    if event.pointee.type == YAML_MAPPING_END_EVENT { break }
                    let (key, keyMark) = try readKey()
                    try checkDuplicate(key, in: fields, with: &keyCheck, at: keyMark)
                    try nextEvent()
                    fields.append(Field(key: key, value: try parseNode(depth: depth + 1)))
                    height = max(height, lastHeight)
                }
                rememberCapacity(fields.count, depth)
                return .object(Fields(uncheckedUniqueElements: fields))
            }
        default:
            throw syntaxError("unexpected YAML event", at: mark)
        }
    }

    /// The size of the last collection seen at each depth: records repeat their shape, so
    /// reserving that much saves most of the regrowth while a list or mapping fills.
    private var capacityHints = [Int](repeating: 0, count: 16)

    @inline(__always) private func capacityHint(_ depth: Int) -> Int {
        depth < capacityHints.count ? capacityHints[depth] : 0
    }

    @inline(__always) private func rememberCapacity(_ count: Int, _ depth: Int) {
        if depth < capacityHints.count { capacityHints[depth] = min(count, 256) }
    }

    /// Checks a list's or mapping's depth and tag, reads its children with `body` (which raises
    /// `height` to its tallest child's), and registers its anchor.
    private func parseCollection(
        _ kind: YAMLCoreSchema.Tag, _ tag: UnsafeMutablePointer<yaml_char_t>?,
        _ anchorText: UnsafeMutablePointer<yaml_char_t>?,
        depth: Int, at mark: Mark, body: (inout Int) throws -> Value
    ) throws -> Value {
        guard depth <= limits.maxDepth else { throw refusal("nesting deeper than \(limits.maxDepth) levels", at: mark) }
        try checkCollectionTag(tag, kind, at: mark)
        // The event is reused for the children: copy the anchor's name first.
        let anchor = anchorText.map { String(cString: $0) }
        let firstMark = marks.count - 1
        var height = 0
        let value = try body(&height)
        lastHeight = height + 1
        if let anchor { try register(anchor, value, nodeCount: marks.count - firstMark, height: height + 1, at: mark) }
        return value
    }

    private func scalarValue(_ scalar: yaml_event_t.__Unnamed_union_data.__Unnamed_struct_scalar, at mark: Mark) throws
        -> Value
    {
        let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
        if let tagText = scalar.tag {
            let text = String(cString: tagText)
            guard let tag = YAMLCoreSchema.Tag(text) else { throw unsupportedTag(text, at: mark) }
            guard let value = YAMLCoreSchema.resolve(bytes, tag: tag) else {
                let shown = String(decoding: bytes.prefix(40), as: UTF8.self)
                throw syntaxError("\"\(shown)\" is not a valid \(Self.describe(tag: text))", at: mark)
            }
            return value
        }
        if scalar.style == YAML_PLAIN_SCALAR_STYLE { return YAMLCoreSchema.resolvePlain(bytes) }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    private func checkCollectionTag(
        _ tagText: UnsafeMutablePointer<yaml_char_t>?, _ expected: YAMLCoreSchema.Tag, at mark: Mark
    ) throws {
        guard let tagText else { return }
        let text = String(cString: tagText)
        switch YAMLCoreSchema.Tag(text) {
        case .nonSpecific?: return
        case let tag? where tag == expected: return
        case nil: throw unsupportedTag(text, at: mark)
        default:
            throw syntaxError(
                "the tag \(Self.describe(tag: text)) does not fit a \(expected == .sequence ? "sequence" : "mapping")",
                at: mark)
        }
    }

    private func unsupportedTag(_ text: String, at mark: Mark) -> LarderError {
        syntaxError(
            "unsupported tag \(Self.describe(tag: text)); Larder reads the YAML core schema (!!str, !!int, !!float, !!bool, "
                + "!!null, !!seq, !!map)", at: mark)
    }

    /// `!!int` for `tag:yaml.org,2002:int`; other tags as written.
    private static func describe(tag: String) -> String {
        let prefix = "tag:yaml.org,2002:"
        return tag.hasPrefix(prefix) ? "!!" + tag.dropFirst(prefix.count) : tag
    }

    /// The current event as a mapping key: a scalar's text, or an alias to a scalar.
    private func readKey() throws -> (String, Mark) {
        let e = event.pointee
        let mark = Mark(e.start_mark)
        switch e.type {
        case YAML_SCALAR_EVENT:
            let scalar = e.data.scalar
            let key = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            if let anchor = scalar.anchor {
                try register(
                    String(cString: anchor), try scalarValue(scalar, at: mark), nodeCount: 1, height: 0, at: mark)
            }
            return (key, mark)
        case YAML_ALIAS_EVENT:
            let name = String(cString: e.data.alias.anchor)
            guard let anchored = anchors[name] else {
                throw syntaxError("alias *\(name) refers to no anchor defined before it", at: mark)
            }
            switch anchored.value {
            case .string(let s): return (s, mark)
            case .int(let i): return (String(i), mark)
            case .double(let d): return (YAMLCoreSchema.format(d), mark)
            case .bool(let b): return (b ? "true" : "false", mark)
            case .null: return ("null", mark)
            case .array, .object:
                throw syntaxError("a mapping key must be a scalar, but *\(name) is a collection", at: mark)
            }
        default:
            throw syntaxError("a mapping key must be a scalar; lists and mappings as keys are not supported", at: mark)
        }
    }

    /// Finds duplicate keys: a backwards scan while a mapping is small (records have a few dozen
    /// keys, where scanning beats hashing), a set once it is large, so a hostile mapping with a
    /// million keys stays linear.
    private struct KeyCheck {
        private var seen: Set<String>?

        mutating func isDuplicate(_ key: String, in fields: [Field]) -> Bool {
            if seen == nil && fields.count >= 32 { seen = Set(fields.lazy.map(\.key)) }
            if seen != nil { return seen?.insert(key).inserted == false }
            // Comparing lengths first is cheap (stored in the string) and settles most pairs.
            let length = key.utf8.count
            var i = fields.count - 1
            while i >= 0 {
                if fields[i].key.utf8.count == length && fields[i].key == key { return true }
                i -= 1
            }
            return false
        }
    }

    private func checkDuplicate(_ key: String, in fields: [Field], with check: inout KeyCheck, at mark: Mark) throws {
        if check.isDuplicate(key, in: fields) { throw syntaxError("duplicate key \"\(key)\"", at: mark) }
    }

    // MARK: Anchors and aliases

    private func register(_ name: String, _ value: Value, nodeCount: Int, height: Int, at mark: Mark) throws {
        if let previous = anchors[name] { anchoredNodes -= previous.nodeCount }
        anchoredNodes += nodeCount
        let budget = limits.maxAliasExpansion.multipliedReportingOverflow(by: 10)
        if !budget.overflow && anchoredNodes > budget.partialValue {
            throw refusal(
                "anchors hold more than \(budget.partialValue) nodes in one document; split the document or define fewer anchors",
                at: mark)
        }
        anchors[name] = Anchored(value: value, nodeCount: nodeCount, height: height)
    }

    private func aliasValue(_ anchor: UnsafeMutablePointer<yaml_char_t>, depth: Int, at mark: Mark) throws -> Value {
        let name = String(cString: anchor)
        guard let anchored = anchors[name] else {
            throw syntaxError(
                "alias *\(name) refers to no anchor defined before it (or to the node that contains it)", at: mark)
        }
        aliasNodes += anchored.nodeCount
        if aliasNodes > limits.maxAliasExpansion {
            throw refusal(
                "alias expansion exceeds \(limits.maxAliasExpansion) nodes in one record (a YAML alias bomb?)", at: mark
            )
        }
        if anchored.height > 0 && depth + anchored.height - 1 > limits.maxDepth {
            throw refusal("nesting deeper than \(limits.maxDepth) levels through alias *\(name)", at: mark)
        }
        // Every node the alias stands for gets the alias's position, keeping pre-order indices aligned.
        if anchored.nodeCount > 1 { marks.append(contentsOf: repeatElement(mark, count: anchored.nodeCount - 1)) }
        lastHeight = anchored.height
        return anchored.value
    }

    // MARK: Errors and locations

    private func location(_ mark: Mark) -> SourceLocation {
        SourceLocation(file: name, line: Int(mark.line), column: Int(mark.column), recordIndex: recordCount)
    }

    private func syntaxError(_ message: String, at mark: Mark) -> LarderError {
        LarderError(
            .syntax, message, location: location(mark),
            snippet: input.snippet(line: Int(mark.line), column: Int(mark.column)))
    }

    private func refusal(_ message: String, at mark: Mark) -> LarderError {
        LarderError(
            .refusedInput, message, location: location(mark),
            snippet: input.snippet(line: Int(mark.line), column: Int(mark.column)))
    }

    /// The error libyaml reports, or the one the byte source threw.
    private func parserError() -> LarderError {
        if input.error is YAMLInput.RecordTooLarge {
            return limits.recordTooLarge(at: SourceLocation(file: name, recordIndex: recordCount))
        }
        if let error = input.error {
            if let error = error as? LarderError {
                return error.locatedAt(SourceLocation(file: name, recordIndex: recordCount))
            }
            return LarderError(.io, "read failed: \(error)", location: SourceLocation(file: name), underlying: error)
        }
        let p = parser.pointee
        var message = p.problem.map { String(cString: $0) } ?? "malformed YAML"
        switch p.error {
        case YAML_MEMORY_ERROR:
            return LarderError(
                .io, "libyaml ran out of memory", location: SourceLocation(file: name, recordIndex: recordCount))
        case YAML_READER_ERROR:
            if p.problem_value != -1 {
                message +=
                    " (byte 0x" + String(UInt8(truncatingIfNeeded: p.problem_value), radix: 16, uppercase: true) + ")"
            }
            var location = SourceLocation(file: name, recordIndex: recordCount)
            if let position = input.position(ofOffset: p.problem_offset) {
                location.line = position.line
                location.column = position.column
            }
            if location.line == nil { message += " at byte offset \(p.problem_offset)" }
            return LarderError(.syntax, message, location: location)
        default:
            let problemMark = Mark(p.problem_mark)
            // libyaml says "found character that cannot start any token" at a tab: name the rule.
            if let line = input.snippet(line: Int(problemMark.line), column: Int(problemMark.column))?
                .split(separator: "\n", omittingEmptySubsequences: false).first,
                problemMark.column >= 1, line.utf8.count >= problemMark.column,
                Array(line.utf8)[Int(problemMark.column) - 1] == UInt8(ascii: "\t")
            {
                return syntaxError("YAML forbids tabs for indentation; indent with spaces", at: problemMark)
            }
            if let context = p.context {
                let contextMark = Mark(p.context_mark)
                message +=
                    " \(String(cString: context)) that started at line \(contextMark.line), column \(contextMark.column)"
            }
            return syntaxError(message, at: Mark(p.problem_mark))
        }
    }

    public func snippet(of path: FieldPath) -> String? {
        guard let location = location(of: path), let line = location.line, let column = location.column else {
            return nil
        }
        return input.snippet(line: line, column: column)
    }

    public func location(of path: FieldPath) -> SourceLocation? {
        guard let value = lastValue, let index = value.preorderIndex(of: path), index < marks.count else { return nil }
        let mark = marks[index]
        return SourceLocation(file: name, line: Int(mark.line), column: Int(mark.column), fieldPath: path)
    }
}
