import LarderCore
package import LarderFormats

/// Pulls the `<script type="application/ld+json">` blocks out of an HTML page while reading it.
///
/// HTML comments are skipped, everything else is passed over. Holds one block at a time.
package final class HTMLJSONLDScanner {
    private let source: any ByteSource
    private var buffer: [UInt8]
    private var count = 0
    private var position = 0
    private var ended = false
    /// The 1-based line the scanner is on, for diagnostics.
    package private(set) var line = 1

    /// Creates a scanner over UTF-8 bytes (wrap the page in a ``TranscodingByteSource``).
    package init(source: any ByteSource) {
        self.source = source
        buffer = [UInt8](repeating: 0, count: source.chunkSize)
    }

    private func nextByte() throws -> UInt8? {
        if position == count {
            if ended { return nil }
            count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            position = 0
            if count == 0 {
                ended = true
                return nil
            }
        }
        let b = buffer[position]
        position += 1
        if b == 0x0A { line += 1 }
        return b
    }

    /// The next block's text and the line it starts on, or `nil` after the last.
    package func nextBlock() throws -> (text: String, line: Int)? {
        while let b = try nextByte() {
            guard b == UInt8(ascii: "<") else { continue }
            var tag: [UInt8] = []
            while let c = try nextByte(), c != UInt8(ascii: ">") {
                tag.append(c)
                if tag.count == 3, tag == Array("!--".utf8) {
                    try skipComment()
                    tag = []
                    break
                }
                if tag.count > 8192 { break }
            }
            guard tag.count >= 6 else { continue }
            let lowered = String(decoding: tag, as: UTF8.self).lowercased()
            guard lowered.hasPrefix("script"), lowered.contains("application/ld+json") else { continue }
            let startLine = line
            var body: [UInt8] = []
            let closing = Array("</script".utf8)
            var matched = 0
            while let c = try nextByte() {
                let lower = c >= 65 && c <= 90 ? c + 32 : c
                if lower == closing[matched] {
                    matched += 1
                    if matched == closing.count { break }
                    continue
                }
                if matched > 0 {
                    body.append(contentsOf: closing[0..<matched].map { $0 })
                    matched = lower == closing[0] ? 1 : 0
                    if matched == 1 { continue }
                }
                body.append(c)
            }
            return (String(decoding: body, as: UTF8.self), startLine)
        }
        return nil
    }

    private func skipComment() throws {
        var dashes = 0
        while let c = try nextByte() {
            if c == UInt8(ascii: ">") && dashes >= 2 { return }
            dashes = c == UInt8(ascii: "-") ? dashes + 1 : 0
        }
    }
}
