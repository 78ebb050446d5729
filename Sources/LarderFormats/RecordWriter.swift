public import LarderCore

/// Writes records one at a time to a sink.
public protocol RecordWriter: AnyObject {
    /// Appends one record.
    /// - Throws: ``LarderError`` `unrepresentable` when the format cannot hold the value
    ///   (nothing of the record is written then), or `io-error`.
    func write(_ record: Value) throws
    /// Writes the closing part (`]`, `</records>`) and closes the sink.
    func finish() throws
}

/// How a writer lays out its output.
public struct WriterOptions: Sendable, Hashable {
    /// Wrap the records in an envelope with this header (JSON and YAML); XML always writes one.
    public var envelope: EnvelopeHeader?
    /// The record type, for XML element names and typing.
    public var recordType: RecordType?
    /// Indent nested structures (JSON); records are always one per line otherwise.
    public var pretty: Bool

    /// Creates options.
    public init(envelope: EnvelopeHeader? = nil, recordType: RecordType? = nil, pretty: Bool = false) {
        self.envelope = envelope
        self.recordType = recordType
        self.pretty = pretty
    }
}
