internal import CLibYAML
public import LarderCore

/// Writes records as YAML with libyaml's emitter event API, record by record.
///
/// The default layout is a block sequence of records (`- id: ...`); with `options.envelope`
/// it is a mapping `schema:`, `version:`, `records:` holding that sequence. Empty lists are
/// written `[]`, empty objects `{}`, null `null`. libyaml's emitter holds a few events of
/// look-ahead and a small output buffer; nothing else accumulates.
///
/// Output is lossless: every string a YAML 1.1 or 1.2 reader would resolve to another type
/// (`no`, `Off`, `yes`, `~`, `1e3`, `0x10`, `.inf`, `2024-01-01`, `12:30`, the empty string)
/// is quoted; multi-line text is a literal block, or double-quoted where a block could not keep
/// it exactly (carriage returns, trailing spaces); doubles always carry a `.` (`15.0`,
/// `1.0e+300`) and non-finite ones are `.inf`, `-.inf`, `.nan`. libyaml escapes characters
/// outside the Basic Multilingual Plane in double quotes (`"\U0001F600"`), which reads back
/// the same.
///
/// ```swift
/// let writer = try YAMLWriter(sink: try FileByteSink(path: "recipes.yaml"))
/// try writer.write(["id": "r-1", "title": "Pasta"])
/// try writer.finish()
/// ```
public final class YAMLWriter: RecordWriter {
    private let output: YAMLOutput
    private let options: WriterOptions
    private let emitter: UnsafeMutablePointer<yaml_emitter_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private var started = false
    private var finished = false

    /// Creates a writer; nothing is written until the first record or ``finish()``.
    /// - Parameters:
    ///   - sink: where the YAML goes; closed by ``finish()``.
    ///   - options: `envelope` wraps the records in `{schema, version, records}`.
    /// - Throws: ``LarderError`` `io-error` when libyaml cannot allocate its emitter.
    public init(sink: any ByteSink, options: WriterOptions = WriterOptions()) throws {
        let emitter = UnsafeMutablePointer<yaml_emitter_t>.allocate(capacity: 1)
        guard yaml_emitter_initialize(emitter) == 1 else {
            emitter.deallocate()
            throw LarderError(.io, "libyaml could not allocate an emitter")
        }
        self.emitter = emitter
        event = .allocate(capacity: 1)
        output = YAMLOutput(sink: sink)
        self.options = options
        yaml_emitter_set_output(emitter, writeYAMLOutput, Unmanaged.passUnretained(output).toOpaque())
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_width(emitter, -1)
        yaml_emitter_set_indent(emitter, 2)
        yaml_emitter_set_break(emitter, YAML_LN_BREAK)
    }

    deinit {
        yaml_emitter_delete(emitter)
        emitter.deallocate()
        event.deallocate()
    }

    public func write(_ record: Value) throws {
        guard !finished else { throw LarderError(.usage, "cannot write a record after finish()") }
        if !started { try start() }
        try emit(record)
    }

    public func finish() throws {
        guard !finished else { return }
        if !started { try start() }
        finished = true
        yaml_sequence_end_event_initialize(event)
        try emitEvent()
        if options.envelope != nil {
            yaml_mapping_end_event_initialize(event)
            try emitEvent()
        }
        yaml_document_end_event_initialize(event, 1)
        try emitEvent()
        yaml_stream_end_event_initialize(event)
        try emitEvent()
        guard yaml_emitter_flush(emitter) == 1 else { throw emitterError() }
        try output.sink.close()
    }

    private func start() throws {
        started = true
        yaml_stream_start_event_initialize(event, YAML_UTF8_ENCODING)
        try emitEvent()
        yaml_document_start_event_initialize(event, nil, nil, nil, 1)
        try emitEvent()
        if let envelope = options.envelope {
            yaml_mapping_start_event_initialize(event, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE)
            try emitEvent()
            try emitString("schema")
            if let schema = envelope.schema { try emitString(schema) } else { try emitPlain("null") }
            if let version = envelope.version {
                try emitString("version")
                try emitInteger(Int64(version))
            }
            try emitString("records")
        }
        yaml_sequence_start_event_initialize(event, nil, nil, 1, YAML_BLOCK_SEQUENCE_STYLE)
        try emitEvent()
    }

    // MARK: Values

    private func emit(_ value: Value) throws {
        switch value {
        case .null: try emitPlain("null")
        case .bool(let b): try emitPlain(b ? "true" : "false")
        case .int(let i): try emitInteger(i)
        case .double(let d):
            var text = YAMLCoreSchema.format(d)
            try text.withUTF8 { try emitScalar($0, plainImplicit: true, style: YAML_PLAIN_SCALAR_STYLE) }
        case .string(let s): try emitString(s)
        case .array(let elements):
            let style = elements.isEmpty ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE
            yaml_sequence_start_event_initialize(event, nil, nil, 1, style)
            try emitEvent()
            for element in elements { try emit(element) }
            yaml_sequence_end_event_initialize(event)
            try emitEvent()
        case .object(let fields):
            let style = fields.isEmpty ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE
            yaml_mapping_start_event_initialize(event, nil, nil, 1, style)
            try emitEvent()
            for field in fields {
                try emitString(field.key)
                try emit(field.value)
            }
            yaml_mapping_end_event_initialize(event)
            try emitEvent()
        }
    }

    private func emitPlain(_ text: StaticString) throws {
        try emitScalar(
            UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), plainImplicit: true,
            style: YAML_PLAIN_SCALAR_STYLE)
    }

    private func emitInteger(_ value: Int64) throws {
        // At most 20 bytes: a small string, stored inline without allocating.
        var text = String(value)
        try text.withUTF8 { try emitScalar($0, plainImplicit: true, style: YAML_PLAIN_SCALAR_STYLE) }
    }

    private func emitString(_ text: String) throws {
        // For a native string this is its own storage: no copy.
        var copy = text
        try copy.withUTF8 { try emitString(bytes: $0) }
    }

    private func emitString(bytes: UnsafeBufferPointer<UInt8>) throws {
        switch YAMLCoreSchema.style(for: bytes) {
        case .plain: try emitScalar(bytes, plainImplicit: true, style: YAML_PLAIN_SCALAR_STYLE)
        // Not plain-implicit, so libyaml quotes it (single quotes, or double when needed).
        case .quoted: try emitScalar(bytes, plainImplicit: false, style: YAML_PLAIN_SCALAR_STYLE)
        case .literal: try emitScalar(bytes, plainImplicit: false, style: YAML_LITERAL_SCALAR_STYLE)
        case .doubleQuoted: try emitScalar(bytes, plainImplicit: false, style: YAML_DOUBLE_QUOTED_SCALAR_STYLE)
        }
    }

    private func emitScalar(_ bytes: UnsafeBufferPointer<UInt8>, plainImplicit: Bool, style: yaml_scalar_style_t) throws
    {
        guard bytes.count <= Int32.max else {
            throw LarderError(.unrepresentable, "a string longer than 2 GiB cannot be written as YAML")
        }
        // libyaml copies the text into the event, so `bytes` need only live for this call.
        let ok = yaml_scalar_event_initialize(
            event, nil, nil, UnsafeMutablePointer(mutating: bytes.baseAddress ?? ("" as StaticString).utf8Start),
            Int32(bytes.count),
            plainImplicit ? 1 : 0, 1, style)
        guard ok == 1 else { throw LarderError(.io, "libyaml could not allocate a scalar event") }
        try emitEvent()
    }

    @inline(__always) private func emitEvent() throws {
        guard yaml_emitter_emit(emitter, event) == 1 else { throw emitterError() }
    }

    private func emitterError() -> LarderError {
        if let error = output.error {
            return error as? LarderError ?? LarderError(.io, "write failed: \(error)", underlying: error)
        }
        let problem = emitter.pointee.problem.map { String(cString: $0) } ?? "unknown problem"
        return LarderError(.io, "libyaml's emitter failed: \(problem)")
    }
}

/// Passes libyaml's output to a ``ByteSink``, keeping the sink's error (which cannot cross the
/// C frame) for the writer to throw.
final class YAMLOutput {
    let sink: any ByteSink
    var error: (any Error)?

    init(sink: any ByteSink) {
        self.sink = sink
    }
}

/// libyaml's write handler: `data` is an unretained ``YAMLOutput``.
func writeYAMLOutput(_ data: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let output = Unmanaged<YAMLOutput>.fromOpaque(data).takeUnretainedValue()
    do {
        try output.sink.write(UnsafeRawBufferPointer(start: buffer, count: size))
        return 1
    } catch {
        output.error = error
        return 0
    }
}
