public import LarderCore

/// Writes records as YAML with libyaml's emitter. (Placeholder: the YAML codec lands next.)
public final class YAMLWriter: RecordWriter {
    /// Creates a writer.
    public init(sink: any ByteSink, options: WriterOptions = WriterOptions()) throws {
        throw LarderError(.usage, "YAML output is not supported yet")
    }

    public func write(_ record: Value) throws {}
    public func finish() throws {}
}
