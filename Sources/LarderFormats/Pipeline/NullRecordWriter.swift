public import LarderCore

/// A writer that discards records: for checks that only report.
public final class NullRecordWriter: RecordWriter {
    /// Creates a writer.
    public init() {}
    public func write(_ record: Value) throws {}
    public func finish() throws {}
}
