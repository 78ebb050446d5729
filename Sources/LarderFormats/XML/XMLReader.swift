public import LarderCore

/// Streams records out of XML with libxml2's xmlTextReader. (Placeholder: the XML codec lands next.)
public final class XMLReader: RecordReader {
    public let name: String
    public private(set) var header: EnvelopeHeader?

    /// Creates a reader; `recordType` types the text of known fields.
    public init(source: any ByteSource, recordType: RecordType? = nil, limits: ReaderLimits = .default) throws {
        name = source.name
        throw LarderError(.usage, "XML input is not supported yet", location: SourceLocation(file: name))
    }

    public func next() throws -> RecordItem? { nil }
    public func location(of path: FieldPath) -> SourceLocation? { nil }
}
