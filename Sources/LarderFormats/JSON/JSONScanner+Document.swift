package import LarderCore

extension JSONScanner {
    /// Parses one whole JSON document held in memory into a ``Value``, reading `bytes` in place.
    ///
    /// The same scanner and the same strict RFC 8259 rules as ``JSONReader``: objects keep their
    /// key order and refuse duplicate keys, strings must be valid UTF-8 without lone surrogate
    /// escapes, integers that fit in 64 bits become `.int` and other numbers `.double`. Whitespace
    /// may surround the value; anything else after it is an error. O(n) in the size of `bytes`; the
    /// only memory allocated is the resulting `Value`.
    ///
    /// ```swift
    /// let value = try body.withUnsafeBytes { try JSONScanner.parseDocument($0, name: "request body") }
    /// ```
    /// - Parameters:
    ///   - bytes: the document's UTF-8 text.
    ///   - name: the input's name in error locations.
    ///   - maxDepth: the deepest nesting accepted (the top-level value is depth 1).
    /// - Returns: the document's value.
    /// - Throws: ``LarderError`` `syntax-error` located at the line and column of the first
    ///   problem (as ``JSONReader`` reports it), with a caret snippet; `refused-input` for nesting
    ///   deeper than `maxDepth`.
    package static func parseDocument(
        _ bytes: UnsafeRawBufferPointer, name: String = "<json>", maxDepth: Int = ReaderLimits.default.maxDepth
    ) throws(LarderError) -> Value {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else {
            throw LarderError(
                .syntax, "unexpected end of input: expected a JSON value",
                location: SourceLocation(file: name, line: 1, column: 1))
        }
        let buffer = base.assumingMemoryBound(to: UInt8.self)
        var scanner = JSONScanner(
            buffer: buffer, pos: 0, limit: count, atEnd: true, bufferBase: 0, maxDepth: maxDepth, lenient: false,
            nodeOffsets: [], keyRanges: [])
        do {
            let value = try scanner.parseValue(depth: 1)
            scanner.skipWhitespace()
            guard scanner.pos == count else {
                throw ScanError(
                    message: "expected the end of input after the value, found \(scanner.describeByte(scanner.pos))",
                    offset: scanner.pos)
            }
            return value
        } catch let error as ScanError {
            throw located(error.message, at: error.offset, refused: error.refused, in: buffer, count: count, name: name)
        } catch {
            // `NeedMore`: the scanner ran into the end of the bytes.
            throw located(
                "unexpected end of input inside the value", at: count, refused: false, in: buffer, count: count,
                name: name)
        }
    }

    /// A ``LarderError`` at `offset`, with line and column counted as ``JSONReader`` counts them
    /// (columns in characters, 1-based) and a caret snippet.
    private static func located(
        _ message: String, at offset: Int, refused: Bool, in buffer: UnsafePointer<UInt8>, count: Int, name: String
    ) -> LarderError {
        var line = 1
        var column = 1
        for index in 0..<min(offset, count) {
            if buffer[index] == 0x0A {
                line += 1
                column = 1
            } else if buffer[index] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return LarderError(
            refused ? .refusedInput : .syntax, message,
            location: SourceLocation(file: name, line: line, column: column),
            snippet: JSONReader.snippet(in: buffer, count: count, at: offset))
    }
}
