extension StringProtocol {
    /// The text's lines without the empty ones: what `split(whereSeparator: \.isNewline)` gives.
    ///
    /// ASCII text (most cells, fields and lines) is split a byte at a time at U+000A to U+000D,
    /// which is the same split there (a CR LF is one `Character` but its two bytes leave only an
    /// empty line between them, and empty lines are dropped); other text is split by characters.
    /// Splitting by characters broke each text into graphemes, a tenth of the CSV importer's time.
    package var nonEmptyLines: [SubSequence] {
        let ascii = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 }
        }
        guard ascii == true else { return split(whereSeparator: \.isNewline) }
        var lines: [SubSequence] = []
        let bytes = utf8
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte >= 0x0A && byte <= 0x0D {
                if start != index { lines.append(self[start..<index]) }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if start != bytes.endIndex { lines.append(self[start..<bytes.endIndex]) }
        return lines
    }
}
