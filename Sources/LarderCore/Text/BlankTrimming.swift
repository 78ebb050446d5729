// Foundation-free trimming for the importers' hot paths: `trimmingCharacters(in:)` goes through
// `NSString` on Linux, which cost the MealMaster and CSV importers a fifth of their time under the
// fuzzer. Each helper answers as the Foundation call it replaces (FoundationFreeTextTests).

extension Unicode.Scalar {
    /// Unicode's `White_Space` property, ASCII's (tab to carriage return, space) without a lookup.
    package var isWhitespace: Bool {
        value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
    }

    /// Whether Foundation's `CharacterSet.whitespaces` holds the scalar: tab, space, no-break space
    /// and Unicode's other space separators, and U+200B (zero width space), as Foundation has it.
    package var isBlank: Bool {
        switch value {
        case 0x20, 0x09: true
        case 0..<0x80: false
        case 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Whether Foundation's `CharacterSet.whitespacesAndNewlines` holds the scalar: a blank, the
    /// line breaks U+000A to U+000D and U+0085, and the line and paragraph separators.
    package var isBlankOrNewline: Bool {
        switch value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: isBlank
        }
    }
}

extension Substring {
    /// The text without the scalars at either end for which `isTrimmed` holds (Foundation-free;
    /// scalar by scalar, as `trimmingCharacters(in:)` does, so a blank before a combining mark goes).
    package func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> Substring {
        var scalars = unicodeScalars[...]
        while let first = scalars.first, isTrimmed(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, isTrimmed(last) { scalars = scalars.dropLast() }
        return Substring(scalars)
    }

    /// `trimmingCharacters(in: .whitespaces)` without Foundation (its `NSString` round trip cost the
    /// MealMaster and CSV importers a fifth of their time).
    package var trimmingBlanks: String { String(trimmingScalars(where: \.isBlank)) }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)` without Foundation.
    package var trimmingBlanksAndNewlines: String { String(trimmingScalars(where: \.isBlankOrNewline)) }
}

extension String {
    /// `trimmingCharacters(in: .whitespaces)` without Foundation.
    package var trimmingBlanks: String { trimmed(where: \.isBlank) }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)` without Foundation.
    package var trimmingBlanksAndNewlines: String { trimmed(where: \.isBlankOrNewline) }

    /// The text itself when neither end has a scalar to trim (most cells and lines: no copy), else a
    /// trimmed copy.
    private func trimmed(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last, !isTrimmed(first), !isTrimmed(last)
        else { return isEmpty ? self : String(self[...].trimmingScalars(where: isTrimmed)) }
        return self
    }

    /// The text without the scalars at either end for which `isTrimmed` holds (Foundation-free).
    package func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        String(self[...].trimmingScalars(where: isTrimmed))
    }
}
