import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// The row reader takes runs of ordinary bytes whole; the byte-at-a-time state machine it replaced is
/// kept here as the reference, and both read the same seeded inputs, handed out in reads of every size.
@Suite struct CSVRowReaderAgreementTests {

    @Test("seeded rows: the run-taking reader agrees with the byte-at-a-time reference")
    func agreesWithReference() throws {
        var generator = SeededGenerator(seed: 4180)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("Pancakes".utf8), [0x2C], [0x3B], [0x09], [0x22], [0x22, 0x22], [0x0A],
            [0x0D, 0x0A],
            [0x0D], Array(" ".utf8), Array("é".utf8), Array(String(repeating: "x", count: 40).utf8),
        ]
        for round in 0..<3_000 {
            let count = Int.random(in: 0...24, using: &generator)
            var input: [UInt8] = []
            for _ in 0..<count { input += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
            let delimiter: UInt8 = [0x2C, 0x3B, 0x09][round % 3]
            let limit = [8, 64, 1 << 20][round % 3]
            let readSize = [1, 3, 7, 1 << 16][Int.random(in: 0..<4, using: &generator)]
            let reader = CSVRowReader(
                SmallReads(input, size: readSize), delimiter: delimiter, maxRowBytes: limit)
            var reference = ReferenceRows(input, delimiter: delimiter, maxRowBytes: limit)
            while true {
                let expected = reference.next()
                let actual = try reader.next()
                #expect(actual?.cells == expected?.cells, "input \(input), reads of \(readSize)")
                #expect(actual?.line == expected?.line, "input \(input)")
                #expect(actual?.problem == expected?.problem, "input \(input)")
                if expected == nil || actual == nil { break }
            }
        }
    }
}

/// A source that hands out at most `size` bytes a read, so runs meet the chunk's end anywhere.
private final class SmallReads: ByteSource {
    let base: MemoryByteSource
    let size: Int
    init(_ bytes: [UInt8], size: Int) {
        base = MemoryByteSource(bytes)
        self.size = size
    }
    var name: String { base.name }
    var remainingByteCount: Int? { base.remainingByteCount }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(size)))
    }
}

/// The reader as it was: one byte at a time through the state machine.
private struct ReferenceRows {
    struct Row {
        var cells: [String]
        var line: Int
        var problem: String?
    }
    private enum State { case cellStart, unquoted, quoted, quoteInQuoted }
    let bytes: [UInt8]
    let delimiter: UInt8
    let maxRowBytes: Int
    var position = 0
    var line = 1

    init(_ bytes: [UInt8], delimiter: UInt8, maxRowBytes: Int) {
        self.bytes = bytes
        self.delimiter = delimiter
        self.maxRowBytes = maxRowBytes
    }

    mutating func next() -> Row? {
        var cells: [String] = []
        var cell: [UInt8] = []
        var state = State.cellStart
        var row = Row(cells: [], line: line)
        var size = 0
        var sawAny = false
        func endCell() {
            cells.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll()
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
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == 0x0A { line += 1 }
            if state != .quoted {
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
}
