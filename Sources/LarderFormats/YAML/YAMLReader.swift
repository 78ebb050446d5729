public import LarderCore

/// Streams records out of YAML with libyaml's event API. (Placeholder: the YAML codec lands next.)
public final class YAMLReader: RecordReader {
    public let name: String
    public private(set) var header: EnvelopeHeader?

    /// Creates a reader over decompressed bytes.
    public init(source: any ByteSource, limits: ReaderLimits = .default) throws {
        name = source.name
        throw LarderError(.usage, "YAML input is not supported yet", location: SourceLocation(file: name))
    }

    public func next() throws -> RecordItem? { nil }
    public func location(of path: FieldPath) -> SourceLocation? { nil }
}
