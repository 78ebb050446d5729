public import LarderCore

/// Writes rejected records as NDJSON lines `{"record": …, "diagnostic": {…}}`, atomically.
///
/// The file appears only when ``finish()`` is called; a run without rejects writes an
/// empty file so that a stale one from an earlier run never lingers.
public final class RejectsWriter {
    private let sink: any ByteSink
    /// Where the rejects go.
    public let path: String
    /// How many records were rejected.
    public private(set) var count = 0

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
        try JSONWriter.append(.object(fields), to: &out)
        out.append(0x0A)
        try sink.write(out)
        count += 1
    }

    /// Finishes the file and moves it into place.
    public func finish() throws {
        try sink.close()
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
