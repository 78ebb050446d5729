public import LarderCore

/// Where recoverable problems go: records refused (with why), and warnings about data that was
/// left out or read differently than it says.
///
/// Every route a rejected record takes goes through one sink: the rejects file (``RejectsWriter``),
/// an upload's dead letters, or a ``DiagnosticLog`` that keeps them for a report. A warning names
/// the file, record and field it is about in its ``Diagnostic/location`` and why in its message.
///
/// ```swift
/// let rejects = try RejectsWriter(path: "rejects.ndjson")
/// try rejects.reject(record, error)
/// try rejects.warn(Diagnostic(severity: .warning, code: "image-unreadable", message: "…"))
/// ```
public protocol DiagnosticSink: AnyObject {
    /// Takes one rejected record and why.
    ///
    /// - Parameters:
    ///   - record: the record, or `nil` when the input was too broken to yield one.
    ///   - error: why it was rejected, with where (file, record index, field path).
    ///   - raw: the record's source text, when that is all there is.
    /// - Throws: ``LarderError`` `io-error` when the sink cannot be written.
    func reject(_ record: Value?, _ error: LarderError, raw: String?) throws

    /// Takes one warning: data kept but left out or changed, and why.
    ///
    /// - Throws: ``LarderError`` `io-error` when the sink cannot be written.
    func warn(_ diagnostic: Diagnostic) throws
}

extension DiagnosticSink {
    /// Takes one rejected record and why (no source text).
    public func reject(_ record: Value?, _ error: LarderError) throws {
        try reject(record, error, raw: nil)
    }

    /// Takes a warning made of a code, a message and where it is about.
    public func warn(code: String, _ message: String, location: SourceLocation = SourceLocation()) throws {
        try warn(Diagnostic(severity: .warning, code: code, message: message, location: location))
    }
}
