import LarderCore
import LarderSystem

/// Feeds libyaml's parser from a ``ByteSource`` in chunks, and keeps the last 64 KiB it handed
/// over so that an error's source line can be quoted with a caret under the column.
///
/// libyaml pulls through ``readYAMLInput(_:_:_:_:)``. An error thrown by the source (an I/O
/// error, corrupt gzip) cannot cross the C frame, so it is kept in ``error`` and libyaml is
/// told the read failed; the reader then throws the kept error instead of libyaml's.
final class YAMLInput {
    private let source: any ByteSource
    private let capacity = 256 * 1024
    private let history = 64 * 1024
    private let buffer: UnsafeMutablePointer<UInt8>
    /// Bytes in `buffer`, and how many of them libyaml has taken.
    private var filled = 0
    private var handed = 0
    private var eof = false
    /// The absolute offset of `buffer[0]`, the 1-based line it is on, and whether it starts that line.
    private var baseOffset = 0
    private var baseLine = 1
    private var baseStartsLine = true

    /// The error the source threw, if any.
    private(set) var error: (any Error)?

    /// The absolute offset at which reading is refused (`Int.max` between records).
    ///
    /// It is the start of the record being read plus ``ReaderLimits/maxRecordSize``. Past it,
    /// ``read(into:size:count:)`` fails with ``RecordTooLarge`` so that libyaml never buffers
    /// more of an oversized record.
    var refuseAt = Int.max
    /// The absolute offset of the next byte libyaml will be handed.
    var offset: Int { baseOffset + handed }

    /// The read was refused at ``refuseAt``.
    struct RecordTooLarge: Error {}

    init(source: any ByteSource) {
        self.source = source
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// Copies up to `size` bytes into libyaml's buffer; false when the source failed.
    func read(into destination: UnsafeMutablePointer<UInt8>, size: Int, count: inout Int) -> Bool {
        if baseOffset + handed >= refuseAt {
            error = RecordTooLarge()
            return false
        }
        if handed == filled && !eof {
            do {
                try refill()
            } catch {
                self.error = error
                return false
            }
        }
        let n = min(size, filled - handed)
        if n > 0 { memcpy(destination, buffer + handed, n) }
        handed += n
        count = n
        return true
    }

    private func refill() throws {
        let drop = handed - min(handed, history)
        if drop > 0 {
            baseLine += Self.countNewlines(UnsafeBufferPointer(start: buffer, count: drop))
            baseStartsLine = buffer[drop - 1] == 0x0A
            memmove(buffer, buffer + drop, filled - drop)
            filled -= drop
            handed -= drop
            baseOffset += drop
        }
        let n = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacity - filled))
        if n == 0 { eof = true }
        filled += n
    }

    /// The number of `\n` bytes, eight at a time.
    static func countNewlines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var count = 0
        var i = 0
        while i + 8 <= bytes.count {
            // Bytes equal to 0x0A become zero; count the zero bytes exactly (no carries across bytes).
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ (ones &* 0x0A)
            let zeroes = ~(((x & ~highs) &+ ~highs) | x) & highs
            count += zeroes.nonzeroBitCount
            i += 8
        }
        while i < bytes.count {
            if bytes[i] == 0x0A { count += 1 }
            i += 1
        }
        return count
    }

    /// The offset in `buffer` where 1-based `line` starts, when it is still held.
    private func start(ofLine line: Int) -> Int? {
        guard line >= baseLine else { return nil }
        var current = baseLine
        var i = 0
        if !baseStartsLine {
            // The first line held is partial: it cannot be quoted.
            guard line > baseLine else { return nil }
        } else if line == baseLine {
            return 0
        }
        while i < filled {
            if buffer[i] == 0x0A {
                current += 1
                if current == line { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    /// The source line `line` with a caret under 1-based `column` (counted in characters), when
    /// the line is still held and not absurdly long.
    func snippet(line: Int, column: Int) -> String? {
        guard let start = start(ofLine: line) else { return nil }
        var end = start
        while end < filled, buffer[end] != 0x0A {
            end += 1
            if end - start > 500 { return nil }
        }
        if end > start, buffer[end - 1] == 0x0D { end -= 1 }
        let text = String(decoding: UnsafeBufferPointer(start: buffer + start, count: end - start), as: UTF8.self)
        guard !text.isEmpty else { return nil }
        // Keep tabs under tabs so the caret lines up however the terminal expands them.
        let pad = text.prefix(max(column - 1, 0)).map { $0 == "\t" ? "\t" : " " }.joined()
        return text + "\n" + pad + "^"
    }

    /// The 1-based line and column of absolute byte `offset`, when it is still held.
    func position(ofOffset offset: Int) -> (line: Int, column: Int?)? {
        let target = offset - baseOffset
        guard target >= 0, target <= filled else { return nil }
        var line = baseLine
        var lineStart: Int? = baseStartsLine ? 0 : nil
        var i = 0
        while i < target {
            if buffer[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        guard let lineStart else { return (line, nil) }
        var column = 1
        var j = lineStart
        while j < target {
            if buffer[j] & 0xC0 != 0x80 { column += 1 }
            j += 1
        }
        return (line, column)
    }
}

/// libyaml's read handler: `data` is an unretained ``YAMLInput``.
func readYAMLInput(
    _ data: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int,
    _ sizeRead: UnsafeMutablePointer<Int>?
) -> Int32 {
    guard let data, let buffer, let sizeRead else { return 0 }
    let input = Unmanaged<YAMLInput>.fromOpaque(data).takeUnretainedValue()
    return input.read(into: buffer, size: size, count: &sizeRead.pointee) ? 1 : 0
}
