import LarderCore
import LarderFormats

/// Reads a text source line by line, streaming: a line ends at LF, and a CR before it is dropped
/// (CRLF files read as LF ones).
///
/// Holds one chunk (64 KiB, or the size of a smaller file) and the current line; a line longer than `maxLineBytes` is cut there
/// and the rest of it read as further lines.
final class TextLineReader {
    private let source: any ByteSource
    private var chunk: [UInt8]
    private var position = 0
    private var filled = 0
    private var isAtEnd = false
    private let maxLineBytes: Int
    /// The 1-based number of the line the last ``next()`` returned.
    private(set) var lineNumber = 0

    /// Creates a reader over `source` (already decoded to UTF-8).
    init(_ source: any ByteSource, maxLineBytes: Int = 16 << 20) {
        self.source = source
        self.maxLineBytes = maxLineBytes
        chunk = [UInt8](repeating: 0, count: source.chunkSize)
    }

    /// The next line without its line ending, or `nil` at the end of the input.
    /// - Throws: the source's ``LarderError`` (`io-error`).
    func next() throws -> String? {
        var line: [UInt8] = []
        var sawAny = false
        while true {
            if position == filled {
                if isAtEnd { break }
                filled = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                position = 0
                if filled == 0 {
                    isAtEnd = true
                    break
                }
            }
            sawAny = true
            let start = position
            while position < filled, chunk[position] != 0x0A { position += 1 }
            line.append(contentsOf: chunk[start..<position])
            if position < filled {
                position += 1
                lineNumber += 1
                return Self.text(line)
            }
            if line.count >= maxLineBytes {
                lineNumber += 1
                return Self.text(line)
            }
        }
        guard sawAny, !line.isEmpty else { return nil }
        lineNumber += 1
        return Self.text(line)
    }

    private static func text(_ bytes: [UInt8]) -> String {
        let end = bytes.last == 0x0D ? bytes.count - 1 : bytes.count
        return String(decoding: bytes[0..<end], as: UTF8.self)
    }
}
