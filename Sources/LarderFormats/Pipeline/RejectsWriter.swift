public import LarderCore

/// Writes rejected records as NDJSON lines `{"record": …, "diagnostic": {…}}`, atomically.
///
/// The file appears only when ``finish()`` is called; a run without rejects writes an
/// empty file so that a stale one from an earlier run never lingers. Warnings (records kept,
/// but with data left out) are kept in ``warnings`` for the command to print, not written.
public final class RejectsWriter: DiagnosticSink {
    private let sink: any ByteSink
    /// Where the rejects go.
    public let path: String
    /// How many records were rejected.
    public private(set) var count = 0
    /// The warnings given so far, in order.
    public private(set) var warnings: [Diagnostic] = []

    /// Opens the rejects file at `path`.
    public init(path: String) throws {
        self.path = path
        sink = try FileByteSink(path: path)
    }

    /// Creates a rejects writer over any sink (tests).
    public init(sink: any ByteSink, path: String = "<memory>") {
        self.sink = sink
        self.path = path
    }

    /// Records one rejected record (or `nil` when the input was too broken to yield one)
    /// with its diagnostic.
    public func reject(_ record: Value?, _ diagnostic: Diagnostic, raw: String? = nil) throws {
        var fields = Fields()
        fields.append(key: "record", value: record ?? .null)
        if let raw { fields.append(key: "raw", value: .string(raw)) }
        fields.append(key: "diagnostic", value: diagnostic.value)
        var out: [UInt8] = []
        do {
            try JSONWriter.append(.object(fields), to: &out)
        } catch let error as LarderError where error.code == .unrepresentable {
            // A record from YAML may hold .inf or .nan, which JSON cannot: keep it, with those as strings.
            out.removeAll()
            fields["record"] = (record ?? .null).replacingNonFiniteNumbers()
            try JSONWriter.append(.object(fields), to: &out)
        }
        out.append(0x0A)
        try sink.write(out)
        count += 1
    }

    /// Records one rejected record with the error that refused it (its diagnostic is written).
    public func reject(_ record: Value?, _ error: LarderError, raw: String?) throws {
        try reject(record, error.diagnostic, raw: raw)
    }

    /// Keeps a warning (the rejects file holds rejected records only).
    public func warn(_ diagnostic: Diagnostic) {
        warnings.append(diagnostic)
    }

    /// Finishes the file and moves it into place.
    public func finish() throws {
        try sink.close()
    }
}

extension Value {
    /// The value with infinite and NaN doubles replaced by the strings `.inf`, `-.inf`, `.nan` (their
    /// YAML spellings), which JSON and every store can hold.
    public func replacingNonFiniteNumbers() -> Value {
        switch self {
        case .double(let d) where !d.isFinite: return .string(d.isNaN ? ".nan" : d < 0 ? "-.inf" : ".inf")
        case .array(let elements): return .array(elements.map { $0.replacingNonFiniteNumbers() })
        case .object(let fields):
            return .object(
                Fields(
                    uncheckedUniqueElements: fields.map {
                        Field(key: $0.key, value: $0.value.replacingNonFiniteNumbers())
                    }))
        default: return self
        }
    }
}

extension Diagnostic {
    /// The diagnostic as a value: severity, code, message, file, line, column, record, path, and text.
    public var value: Value {
        var b = ValueBuilder()
        b.set("severity", severity.rawValue)
        b.set("code", code)
        b.set("message", message)
        b.set("file", location.file)
        b.set("line", location.line)
        b.set("column", location.column)
        b.set("record", location.recordIndex)
        b.set("path", location.fieldPath.map { $0.isRoot ? "" : $0.description })
        b.set("pointer", location.fieldPath.map(\.jsonPointer))
        b.set("text", description)
        return b.value
    }
}
