package import LarderCore
package import LarderFormats

/// Reads JSON-LD: a `.jsonld`/`.json` file that is one JSON value, or the
/// `<script type="application/ld+json">` blocks of a saved HTML page.
package enum JSONLDBlocks {
    /// Parses one JSON text leniently, the way pages publish it.
    ///
    /// Raw newlines in strings, trailing commas and `\'` are accepted. A top-level list comes
    /// back as one `.array`.
    /// - Parameters:
    ///   - source: the JSON text.
    ///   - limits: the limits on nesting and on the size of one value.
    ///   - onWarning: gets what was repaired rather than refused (a lone surrogate
    ///     escape read as U+FFFD), with line and column.
    /// - Returns: the one value the text holds; an `.array` of the values for a top-level list,
    ///   or when the text holds several values or none.
    /// - Throws: ``LarderError`` `syntax-error` with line and column; `refused-input` when one
    ///   value (a top-level object, or one element of a top-level list) passes `limits.maxRecordSize`.
    package static func parse(
        _ source: any ByteSource, limits: ReaderLimits = .default, onWarning: (Diagnostic) -> Void = { _ in }
    ) throws -> Value {
        let peekable = PeekableByteSource(source)
        let head = try peekable.peek(4096)
        let isArray =
            head.first {
                $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
            } == UInt8(ascii: "[")
        let reader = JSONReader(source: peekable, lineMode: false, lenient: true, limits: limits)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        reader.warnings.forEach(onWarning)
        if isArray { return .array(values) }
        return values.count == 1 ? values[0] : .array(values)
    }

    /// A reader's warning as an import report line's message: `line L, column C: message`.
    package static func warningText(_ warning: Diagnostic) -> String {
        let position =
            warning.location.line.map { line in
                "line \(line)" + (warning.location.column.map { ", column \($0)" } ?? "") + ": "
            } ?? ""
        return position + warning.message
    }

    /// Parses JSON-LD text (a script block's body): comment and CDATA wrappers and trailing
    /// semicolons are removed first.
    package static func parse(
        text: String, name: String, limits: ReaderLimits = .default, onWarning: (Diagnostic) -> Void = { _ in }
    ) throws -> Value {
        var body = Substring(text.trimmingWhitespace)
        var changed = true
        while changed {
            changed = false
            for open in ["//<![CDATA[", "/*<![CDATA[*/", "<![CDATA[", "<!--"] where body.hasPrefix(open) {
                body = Substring(body.dropFirst(open.count).trimmingWhitespace)
                changed = true
            }
            for close in ["//]]>", "/*]]>*/", "]]>", "-->", "//"] where body.hasSuffix(close) {
                body = Substring(body.dropLast(close.count).trimmingWhitespace)
                changed = true
            }
        }
        while body.hasSuffix(";") { body = body.dropLast() }
        let bytes = Array(body.utf8)
        let isArray = bytes.first == UInt8(ascii: "[")
        let reader = JSONReader(
            source: MemoryByteSource(bytes, name: name), lineMode: false, lenient: true, limits: limits)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        reader.warnings.forEach(onWarning)
        if isArray { return .array(values) }
        // Several values one after another in one block are read as a list.
        return values.count == 1 ? values[0] : .array(values)
    }
}
