public import LarderCore

/// Writes records as `<records schema=… version=…>` XML. (Placeholder: the XML codec lands next.)
public final class XMLWriter: RecordWriter {
    /// Creates a writer.
    public init(sink: any ByteSink, options: WriterOptions = WriterOptions()) throws {
        throw LarderError(.usage, "XML output is not supported yet")
    }

    public func write(_ record: Value) throws {}
    public func finish() throws {}
}
