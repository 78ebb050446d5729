import LarderCore
import LarderFormats

extension ImportContext {
    /// Streams the `<name>` elements of an XML document through ``XMLSubtreeReader`` (no DTD
    /// fetched, no entity expanded), each isolated: `fields` gives the element's source fields
    /// (the reject's raw value is `raw` of them), and a ``LarderError`` `body` throws rejects that
    /// record alone, located at the element's line.
    /// - Throws: ``LarderError`` `syntax-error` with line and column for malformed XML;
    ///   `malformed-record` when the document has no `<name>` element.
    func forEachXMLRecord(
        _ source: any ByteSource, named name: String, origin: ImportOrigin, fields: (XMLElementNode) -> Fields,
        raw: (Fields) -> Value = { .object($0) }, _ body: (XMLElementNode, Fields, ImportOrigin) throws -> Void
    ) throws {
        let reader = try XMLSubtreeReader(source: source, recordElements: [name])
        var index = 0
        while let element = try reader.nextRecord() {
            let itemOrigin = origin.item(index)
            index += 1
            let recordFields = fields(element)
            try isolating(itemOrigin, raw: raw(recordFields)) {
                do {
                    try body(element, recordFields, itemOrigin)
                } catch let error as LarderError {
                    throw error.locatedAt(SourceLocation(line: element.line))
                }
            }
        }
        if index == 0 {
            throw LarderError(
                .malformedRecord, "no <\(name)> element found (the root element is <\(reader.rootName ?? "nothing")>)",
                location: origin.location())
        }
    }
}
