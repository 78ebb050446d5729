import LarderCore
import LarderFormats

extension ImportContext {
    /// Streams the records of a JSON array (or the one object) in `source`, each isolated: `body`
    /// gets the record and its origin (`origin` with the record's index), and a ``LarderError`` it
    /// throws rejects that record alone, with the record as the reject's raw value.
    ///
    /// The bytes are decoded to UTF-8 first (with a warning when some had to be read as
    /// windows-1252); one record at a time is held, within ``readerLimits``. With `listKey`, an
    /// object whose member of that name is a list (an API's `{"Results": […]}`) stands for the
    /// list's elements; it is read whole, within the same limit.
    /// - Throws: ``LarderError`` `syntax-error` with line and column when the JSON breaks off.
    func forEachJSONRecord(
        _ source: any ByteSource, origin: ImportOrigin, unwrapping listKey: String? = nil,
        _ body: (Value, ImportOrigin) throws -> Void
    ) throws {
        let decoded = TranscodingByteSource(source, encoding: nil)
        defer { if decoded.usedFallback { warnEncodingFallback(origin) } }
        let reader = JSONReader(source: decoded, lenient: true, limits: readerLimits)
        var index = 0
        while let item = try reader.next() {
            for value in listKey.flatMap({ item.value[$0]?.arrayValue }) ?? [item.value] {
                let itemOrigin = origin.item(index)
                index += 1
                try isolating(itemOrigin, raw: value) { try body(value, itemOrigin) }
            }
        }
    }
}
