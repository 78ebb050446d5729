import LarderCore

/// Character encodings Larder meets in recipe files, sniffed from the bytes and decoded to UTF-8.
public enum TextEncoding: String, Sendable, Hashable {
    case utf8 = "UTF-8"
    case utf16LittleEndian = "UTF-16LE"
    case utf16BigEndian = "UTF-16BE"
    case latin1 = "ISO-8859-1"
    case windows1252 = "windows-1252"

    /// The encoding a declared name means (`utf-8`, `ISO-8859-1`, `latin1`, `cp1252`); `nil`
    /// when Larder does not know it.
    ///
    /// Like browsers, ISO-8859-1 is read as its superset windows-1252.
    public init?(declaredName: String) {
        switch declaredName.lowercased().filter({ $0 != "-" && $0 != "_" && $0 != " " }) {
        case "utf8", "unicode11utf8": self = .utf8
        case "utf16le": self = .utf16LittleEndian
        case "utf16be", "utf16": self = .utf16BigEndian
        case "iso88591", "latin1", "l1", "iso885915", "usascii", "ascii", "windows1252", "cp1252", "xcp1252":
            self = .windows1252
        default: return nil
        }
    }

    /// Sniffs the encoding of a document from its first bytes: a byte-order mark, then an XML
    /// declaration's `encoding="…"`, then an HTML `<meta charset>` or `content="…; charset=…"`.
    ///
    /// Returns `nil` when nothing is declared (the caller assumes UTF-8). Searches the first 4 KiB
    /// as bytes, ASCII letters lowercased and every other byte past ASCII read as a space (a search
    /// of them as a `String` cost a tenth of the schema.org importer's time under the fuzzer).
    public static func sniff(_ head: [UInt8]) -> TextEncoding? {
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
        if head.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if head.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        if head.count >= 4, head[0] == 0x3C, head[1] == 0, head[2] == 0x3F, head[3] == 0 { return .utf16LittleEndian }
        if head.count >= 4, head[0] == 0, head[1] == 0x3C, head[2] == 0, head[3] == 0x3F { return .utf16BigEndian }
        let text = head.prefix(4096).map { $0 >= 0x80 ? 0x20 : $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        if text.starts(with: "<?xml".utf8), let end = firstRange(of: "?>", in: text[...]) {
            let declaration = text[..<end.lowerBound]
            guard let range = firstRange(of: "encoding=", in: declaration) else { return nil }
            let value = declaration[range.upperBound...]
            guard let quote = value.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            let body = value.dropFirst()
            return body.firstIndex(of: quote).flatMap {
                TextEncoding(declaredName: String(decoding: body[..<$0], as: UTF8.self))
            }
        }
        var rest = text[...]
        while let meta = firstRange(of: "<meta", in: rest) {
            let tail = rest[meta.upperBound...]
            let end = tail.firstIndex(of: UInt8(ascii: ">")) ?? tail.endIndex
            let tag = tail[..<end]
            if let range = firstRange(of: "charset=", in: tag) {
                let value = tag[range.upperBound...].drop {
                    $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == 0x20
                }
                let name = value.prefix {
                    $0 >= 0x61 && $0 <= 0x7A || $0 >= 0x30 && $0 <= 0x39 || $0 == UInt8(ascii: "-")
                        || $0 == UInt8(ascii: "_")
                }
                if let encoding = TextEncoding(declaredName: String(decoding: name, as: UTF8.self)) { return encoding }
            }
            rest = tail[end...]
        }
        return nil
    }

    /// Where the ASCII `needle` first occurs in `text`.
    private static func firstRange(of needle: StaticString, in text: ArraySlice<UInt8>) -> Range<Int>? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first, text.count >= pattern.count else { return nil }
        var i = text.startIndex
        let last = text.endIndex - pattern.count
        while i <= last {
            if text[i] == first, text[i..<(i + pattern.count)].elementsEqual(pattern) { return i..<(i + pattern.count) }
            i += 1
        }
        return nil
    }

    /// What windows-1252 maps bytes 0x80–0x9F to (`nil` for its five undefined bytes).
    package static let cp1252High: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]

    /// The character windows-1252 gives `byte` (undefined bytes as their Latin-1 control code).
    static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        if byte >= 0x80 && byte <= 0x9F, let mapped = cp1252High[Int(byte - 0x80)] { return mapped }
        return Unicode.Scalar(byte)
    }

    /// Decodes a whole (small) buffer: the sniffed or `declared` encoding, else UTF-8, with each
    /// byte that is not valid UTF-8 read as windows-1252.
    /// - Returns: the text and whether the windows-1252 fallback was needed.
    public static func decode(_ bytes: [UInt8], declared: TextEncoding? = nil) -> (text: String, usedFallback: Bool) {
        let source = TranscodingByteSource(
            MemoryByteSource(bytes), encoding: declared ?? sniff(Array(bytes.prefix(4096))))
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        do {
            while case let n = try chunk.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 {
                out.append(contentsOf: chunk[0..<n])
            }
        } catch {
            // A memory source does not fail; were it to, the text is every byte read as
            // windows-1252, never the part before the failure.
            var text = String.UnicodeScalarView()
            for byte in bytes { text.append(windows1252Scalar(byte)) }
            return (String(text), true)
        }
        return (String(decoding: out, as: UTF8.self), source.usedFallback)
    }
}

/// Turns any byte stream into valid UTF-8 while it is read: UTF-16 and windows-1252 /
/// Latin-1 are transcoded, a UTF-8 byte-order mark is dropped, and in UTF-8 input every byte
/// that does not form valid UTF-8 is read as windows-1252 (``usedFallback`` then says so,
/// for a warning).
///
/// Streams: holds at most a few bytes of an incomplete sequence between reads.
public final class TranscodingByteSource: ByteSource {
    private let base: any ByteSource
    private let encoding: TextEncoding
    private var carry: [UInt8] = []
    private var chunk: [UInt8] = []
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var started = false
    private var ended = false
    /// Whether any byte had to be read as windows-1252 although the input claimed (or was
    /// assumed to be) UTF-8.
    public private(set) var usedFallback = false

    /// Wraps `base`, decoding it as `encoding` (`nil`: UTF-8 with the windows-1252 fallback).
    public init(_ base: any ByteSource, encoding: TextEncoding?) {
        self.base = base
        self.encoding = encoding ?? .utf8
    }

    public var name: String { base.name }

    /// What `base` has left and what is decoded and not yet read: exact for UTF-8, a guess for
    /// what decoding lengthens (windows-1252, UTF-16).
    public var remainingByteCount: Int? {
        base.remainingByteCount.map { $0 + carry.count + output.count - outputOffset }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while outputOffset >= output.count {
            if ended { return 0 }
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
            // One chunk for every read, of 64 KiB or the size of what is left when that is smaller
            // (zeroing 64 KiB on each read cost every small file read under ASan).
            if chunk.isEmpty {
                chunk = [UInt8](repeating: 0, count: base.chunkSize)
            }
            let n = try chunk.withUnsafeMutableBytes { try base.read(into: $0) }
            if n == 0 { ended = true }
            var input = carry
            input.append(contentsOf: chunk[0..<n])
            carry.removeAll()
            convert(input, final: n == 0)
        }
        let n = min(buffer.count, output.count - outputOffset)
        output.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.baseAddress?.copyMemory(from: base + outputOffset, byteCount: n) }
        }
        outputOffset += n
        return n
    }

    private func append(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { output.append($0) }
    }

    private func convert(_ input: [UInt8], final: Bool) {
        var i = 0
        if !started {
            guard input.count >= 3 || final else {
                carry = input
                return
            }
            started = true
            if encoding == .utf8, input.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            if encoding == .utf16LittleEndian, input.starts(with: [0xFF, 0xFE]) { i = 2 }
            if encoding == .utf16BigEndian, input.starts(with: [0xFE, 0xFF]) { i = 2 }
        }
        switch encoding {
        case .latin1, .windows1252:
            while i < input.count {
                let b = input[i]
                if b < 0x80 { output.append(b) } else { append(TextEncoding.windows1252Scalar(b)) }
                i += 1
            }
        case .utf16LittleEndian, .utf16BigEndian:
            let little = encoding == .utf16LittleEndian
            var units: [UInt16] = []
            while i + 1 < input.count {
                units.append(
                    little ? UInt16(input[i]) | UInt16(input[i + 1]) << 8 : UInt16(input[i]) << 8 | UInt16(input[i + 1])
                )
                i += 2
            }
            // Keep a trailing high surrogate for the next chunk.
            if !final, let last = units.last, (0xD800..<0xDC00).contains(last) {
                units.removeLast()
                i -= 2
            }
            for scalar in String(decoding: units, as: UTF16.self).unicodeScalars { append(scalar) }
            if i < input.count { carry = Array(input[i...]) }
        case .utf8:
            // Valid UTF-8 is copied a run at a time, ASCII checked eight bytes at a time (a byte at a
            // time, with ASan and the fuzzer's comparison tracing, it was a twentieth of every import).
            var run = i
            while i < input.count {
                i = Self.endOfASCII(input, from: i)
                guard i < input.count else { break }
                let b = input[i]
                let length = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0
                if length > 0 && i + length > input.count && !final {
                    // Possibly a sequence cut by the chunk boundary: decide with the next chunk.
                    output.append(contentsOf: input[run..<i])
                    carry = Array(input[i...])
                    return
                }
                if length > 0, i + length <= input.count, Self.isValidSequence(input, at: i, length: length) {
                    i += length
                } else {
                    output.append(contentsOf: input[run..<i])
                    usedFallback = true
                    append(TextEncoding.windows1252Scalar(b))
                    i += 1
                    run = i
                }
            }
            output.append(contentsOf: input[run..<i])
        }
    }

    /// The index of the first byte from `start` on that is not ASCII (`bytes.count` when none is).
    private static func endOfASCII(_ bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBytes { raw in
            var i = start
            while i + 8 <= raw.count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                i += 8
            }
            while i < raw.count, raw[i] < 0x80 { i += 1 }
            return i
        }
    }

    private static func isValidSequence(_ b: [UInt8], at i: Int, length: Int) -> Bool {
        for j in 1..<length where b[i + j] & 0xC0 != 0x80 { return false }
        switch length {
        case 3:
            if b[i] == 0xE0 && b[i + 1] < 0xA0 { return false }  // overlong
            if b[i] == 0xED && b[i + 1] >= 0xA0 { return false }  // surrogates
        case 4:
            if b[i] == 0xF0 && b[i + 1] < 0x90 { return false }
            if b[i] == 0xF4 && b[i + 1] >= 0x90 { return false }
        default: break
        }
        return true
    }
}
