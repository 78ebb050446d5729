import LarderCore
import LarderFormats

/// Reads RFC 4180 rows from UTF-8 text, streaming: cells separated by the delimiter, rows by CRLF
/// or LF, quoted cells (`"…"`, with `""` for a quote) that may hold delimiters and line breaks.
///
/// Holds one 64 KiB chunk and the row being read. A row that breaks the grammar (a quote inside
/// an unquoted cell, text after a closing quote, a quoted cell never closed, a row larger than
/// `maxRowBytes`) is still returned, with ``Row/problem`` set, so the caller can reject it and go on.
final class CSVRowReader {
    /// One row and the 1-based line it starts on.
    struct Row {
        var cells: [String]
        var line: Int
        /// What is wrong with the row, if anything.
        var problem: String?
    }

    private enum State { case cellStart, unquoted, quoted, quoteInQuoted }

    private let source: any ByteSource
    private let delimiter: UInt8
    private let maxRowBytes: Int
    /// Up to 64 KiB, sized to the input when it is smaller (zeroing 64 KiB cost every small file).
    private var chunk: [UInt8]
    private var position = 0
    private var filled = 0
    private var isAtEnd = false
    private var line = 1

    /// Creates a reader over UTF-8 text with `delimiter` (`,`, `;` or tab).
    init(_ source: any ByteSource, delimiter: UInt8, maxRowBytes: Int) {
        self.source = source
        self.delimiter = delimiter
        self.maxRowBytes = maxRowBytes
        unquotedStops = (0...255).map { $0 == Int(delimiter) || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        chunk = [UInt8](repeating: 0, count: source.chunkSize)
    }

    private func nextByte() throws -> UInt8? {
        if position == filled {
            if isAtEnd { return nil }
            filled = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            position = 0
            if filled == 0 {
                isAtEnd = true
                return nil
            }
        }
        defer { position += 1 }
        return chunk[position]
    }

    /// The next row (blank lines skipped), or `nil` at the end of the input.
    /// - Throws: the source's ``LarderError`` (`io-error`).
    func next() throws -> Row? {
        var cells: [String] = []
        var cell: [UInt8] = []
        var state = State.cellStart
        var row = Row(cells: [], line: line)
        var size = 0
        var sawAny = false
        func endCell() {
            cells.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
            state = .cellStart
        }
        func note(_ problem: String) {
            if row.problem == nil { row.problem = problem }
        }
        func keep(_ byte: UInt8) {
            size += 1
            if size > maxRowBytes {
                note("the row is larger than the record size limit (\(maxRowBytes) bytes)")
                return
            }
            cell.append(byte)
        }
        while true {
            // A run of ordinary bytes inside a cell is taken whole: the byte-at-a-time loop below
            // was most of a file's time in the fuzzer (a call and a bounds check per byte).
            if state == .quoted || state == .unquoted, position < filled {
                let run = ordinaryRun(quoted: state == .quoted)
                if !run.isEmpty {
                    let room = max(0, maxRowBytes - size)
                    size += run.count
                    if size > maxRowBytes {
                        note("the row is larger than the record size limit (\(maxRowBytes) bytes)")
                    }
                    cell.append(contentsOf: chunk[run.prefix(room)])
                    position = run.upperBound
                    continue
                }
            }
            guard let byte = try nextByte() else { break }
            if byte == 0x0A { line += 1 }
            if state != .quoted {
                // Outside quotes: a delimiter ends the cell, a line break the row (a CR is dropped).
                if byte == delimiter {
                    sawAny = true
                    endCell()
                    continue
                }
                if byte == 0x0D { continue }
                if byte == 0x0A {
                    if !sawAny && cells.isEmpty && cell.isEmpty {
                        row.line = line
                        continue
                    }
                    endCell()
                    row.cells = cells
                    return row
                }
            }
            sawAny = true
            switch state {
            case .cellStart where byte == 0x22:
                state = .quoted
            case .cellStart, .unquoted:
                if byte == 0x22 { note("a quote inside an unquoted cell (cell \(cells.count + 1))") }
                state = .unquoted
                keep(byte)
            case .quoted:
                if byte == 0x22 { state = .quoteInQuoted } else { keep(byte) }
            case .quoteInQuoted:
                if byte == 0x22 {
                    keep(byte)
                    state = .quoted
                } else {
                    note("text after the closing quote of cell \(cells.count + 1)")
                    state = .unquoted
                    keep(byte)
                }
            }
        }
        guard sawAny || !cells.isEmpty || !cell.isEmpty else { return nil }
        if state == .quoted { note("a quoted cell (cell \(cells.count + 1)) is never closed") }
        endCell()
        row.cells = cells
        return row
    }

    /// The bytes from `position` on, within the chunk, that a cell takes as they are: up to a quote
    /// or a line feed in a quoted cell (counting the lines it passes), up to a delimiter, quote, CR
    /// or LF in an unquoted one.
    private func ordinaryRun(quoted: Bool) -> Range<Int> {
        let start = position
        let end = filled
        var lines = 0
        let stops = quoted ? quotedStops : unquotedStops
        let stop = chunk.withUnsafeBufferPointer { buffer in
            // A table lookup, not four comparisons a byte: under the fuzzer each comparison is a call.
            stops.withUnsafeBufferPointer { stops in
                var i = start
                while i < end {
                    let byte = buffer[i]
                    if stops[Int(byte)] {
                        guard quoted, byte == 0x0A else { break }
                        lines += 1
                    }
                    i += 1
                }
                return i
            }
        }
        line += lines
        return start..<stop
    }

    /// The bytes that end a run in a quoted cell: a quote (and a line feed, to count it).
    private let quotedStops: [Bool] = (0...255).map { $0 == 0x22 || $0 == 0x0A }
    /// The bytes that end a run in an unquoted cell: the delimiter, a quote, CR and LF.
    private let unquotedStops: [Bool]

    /// The delimiter the header line uses: the most frequent of `;`, tab and `,` outside quotes
    /// (`,` when none is there).
    static func sniffDelimiter(_ head: [UInt8]) -> UInt8 {
        var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
        var inQuotes = false
        for byte in head {
            if byte == 0x22 { inQuotes.toggle() }
            if inQuotes { continue }
            if byte == 0x0A { break }
            if counts[byte] != nil { counts[byte, default: 0] += 1 }
        }
        let best = [UInt8(0x2C), 0x3B, 0x09].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? 0x2C
        return (counts[best] ?? 0) > 0 ? best : 0x2C
    }
}
