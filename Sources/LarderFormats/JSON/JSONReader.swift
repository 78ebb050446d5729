import Foundation
public import LarderCore
import LarderSystem

/// Streams records out of JSON: a top-level array, a single object, an envelope
/// `{"schema", "version", "records": [...]}`, or objects one after another (NDJSON).
///
/// Holds one buffer that grows to the size of the largest record, never the whole input.
/// Strict RFC 8259 by default; with `lenient` it tolerates trailing commas and raw control
/// characters inside strings, as real web pages publish them.
public final class JSONReader: RecordReader {
    private let source: any ByteSource
    public let name: String
    private let limits: ReaderLimits
    private let lineMode: Bool
    private let lenient: Bool

    /// Where parsing must stop: `end`, or the end of the current line in line mode.
    private var limit = 0
    /// Whether `limit` is a hard stop (end of input, or end of line in line mode).
    private var atEnd: Bool { eof || lineBounded }
    private var lineBounded = false
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var end = 0  // bytes filled
    private var pos = 0  // parse position
    private var eof = false
    private var bufferBase = 0  // absolute offset of buffer[0]

    // Line tracking: line and column at buffer offset `markPos`.
    private var markPos = 0
    private var markLine = 1
    private var markColumn = 1

    private enum State {
        case start
        case topArray(envelope: Bool)
        case topObject, afterTop, done
    }
    private var state = State.start
    private var envelopeFields = Fields()
    private var sawRecordsKey = false
    private var recordCount = 0

    // The record last returned: where it starts, and each node's absolute offset in pre-order.
    private var recordStartLine = 1
    private var recordStartColumn = 1
    private var recordStartPos = 0
    private var nodeOffsets: [Int] = []
    private var recordBytesValid = false
    /// Whether the last record's text is what ``JSONWriter`` writes for it.
    private var lastRecordIsVerbatim = false

    public private(set) var header: EnvelopeHeader?
    /// Absolute offsets (in the decompressed input) of the last record's JSON text.
    private var lastRecordBytes: Range<Int>?

    /// The envelope's members other than `records`, as far as read (all of them after the last
    /// record); empty for other layouts.
    public var envelopeMembers: Fields { envelopeFields }

    /// Where the record last returned sits in the (decompressed) input: absolute byte offsets
    /// from its first to just past its last byte.
    ///
    /// Lets a caller copy records verbatim.
    public private(set) var lastRecordByteRange: Range<Int>?

    /// How many times a value's parse started over from its first byte because the buffer ran
    /// out (tests check that this grows with the logarithm of a value's size, not linearly).
    private(set) var parseRestarts = 0

    /// Problems lenient mode repaired instead of refusing (a lone surrogate escape read as
    /// U+FFFD), each at its file, line and column, in input order.
    public private(set) var warnings: [Diagnostic] = []

    /// Creates a reader.
    /// - Parameters:
    ///   - source: the bytes (already decompressed).
    ///   - lineMode: NDJSON: one record per line, and a malformed line does not stop the rest.
    ///   - lenient: tolerate trailing commas and raw newlines or tabs in strings.
    ///   - limits: The largest record and the deepest nesting accepted.
    public init(source: any ByteSource, lineMode: Bool = false, lenient: Bool = false, limits: ReaderLimits = .default)
    {
        self.source = source
        self.name = source.name
        self.lineMode = lineMode
        self.lenient = lenient
        self.limits = limits
        // 1 MiB, or for bytes in memory their size (and one byte, so that the read finding their end
        // does not grow it): a JSON-LD block of a page got 1 MiB, its page faults and ASan's shadow
        // for each block cost a tenth of the schema.org importer's time under the fuzzer.
        capacity = source.remainingByteCount.map { min(1 << 20, max(64, $0 + 1)) } ?? 1 << 20
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    public var canRecover: Bool { lineMode }

    // MARK: Buffer

    /// Makes room and reads more; keeps bytes from `keep` on.
    ///
    /// Returns false at end of input.
    private func fill(keeping keep: Int) throws -> Bool {
        if eof { return false }
        advanceMark(to: keep)
        if keep > 0 {
            let live = end - keep
            if live > 0 { memmove(buffer, buffer + keep, live) }
            bufferBase += keep
            end = live
            pos -= keep
            markPos -= keep
            recordStartPos -= keep
            recordBytesValid = false
        }
        // A value being parsed starts over from its first byte after each refill. A file fills
        // the whole buffer per read, but a pipe gives at most 64 KiB: reading until the live bytes
        // have doubled keeps a huge token at O(log n) restarts instead of one per read
        // (quadratic). Line mode finds the line's end first and never restarts, so a stream of
        // NDJSON lines is handed on as soon as each line arrives.
        let wanted = lineMode ? 1 : max(1, end)
        var gained = 0
        while gained < wanted {
            if end == capacity {
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
            }
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
            if n == 0 {
                eof = true
                break
            }
            end += n
            gained += n
        }
        return gained > 0
    }

    private func advanceMark(to target: Int) {
        guard target > markPos else { return }
        var i = markPos
        var lastNewline = -1
        while i < target, let hit = memchr(buffer + i, 0x0A, target - i) {
            let offset = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            markLine += 1
            lastNewline = offset
            i = offset + 1
        }
        let from = lastNewline >= 0 ? lastNewline + 1 : markPos
        var column = lastNewline >= 0 ? 1 : markColumn
        for j in from..<target where buffer[j] & 0xC0 != 0x80 { column += 1 }
        markColumn = column
        markPos = target
    }

    private func lineColumn(at offset: Int) -> (Int, Int) {
        if offset >= markPos {
            var line = markLine
            var column = markColumn
            var i = markPos
            while i < min(offset, end) {
                if buffer[i] == 0x0A {
                    line += 1
                    column = 1
                } else if buffer[i] & 0xC0 != 0x80 {
                    column += 1
                }
                i += 1
            }
            return (line, column)
        }
        return (markLine, markColumn)
    }

    private func syntaxError(_ message: String, at offset: Int? = nil) -> LarderError {
        let (line, column) = lineColumn(at: offset ?? pos)
        return LarderError(
            .syntax, message,
            location: SourceLocation(file: name, line: line, column: column, recordIndex: recordCount),
            snippet: snippet(at: offset ?? pos, column: column))
    }

    private func snippet(at offset: Int, column: Int) -> String? {
        JSONReader.snippet(in: buffer, count: end, at: offset)
    }

    /// The source line around `offset` in `buffer[0..<count]` (at most 200 bytes either side) with
    /// a caret under `offset`; nil on an empty line.
    static func snippet(in buffer: UnsafePointer<UInt8>, count end: Int, at offset: Int) -> String? {
        guard offset <= end else { return nil }
        var lineStart = offset
        while lineStart > 0, lineStart > offset - 200, buffer[lineStart - 1] != 0x0A { lineStart -= 1 }
        var lineEnd = offset
        while lineEnd < end, lineEnd < offset + 200, buffer[lineEnd] != 0x0A { lineEnd += 1 }
        let text = String(
            decoding: UnsafeBufferPointer(start: buffer + lineStart, count: lineEnd - lineStart), as: UTF8.self)
        guard !text.isEmpty else { return nil }
        let caretColumn = String(
            decoding: UnsafeBufferPointer(start: buffer + lineStart, count: offset - lineStart), as: UTF8.self
        ).count
        return text + "\n" + String(repeating: " ", count: caretColumn) + "^"
    }

    /// Calls `body` with the record the last ``next()`` returned as compact JSON, when its
    /// text in the input is exactly what ``JSONWriter`` writes for its value (no whitespace
    /// inside it, strings escaped and numbers spelled as the writer does: a Larder-written file
    /// always is); `nil` otherwise, or when the reader no longer holds the bytes.
    ///
    /// Lets a conversion to compact JSON copy a record instead of serializing its value again.
    public func withLastRecordAsWritten<R>(_ body: (_ json: UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard lastRecordIsVerbatim else { return nil }
        return try withLastRecordText { text, _ in try body(text) }
    }

    // MARK: Top level

    /// Calls `body` with the JSON text of the record the last ``next()`` returned, exactly as
    /// it appears in the input (from its first to its last byte), and the text's byte offset in
    /// the (decompressed) input, when the reader still holds it; `nil` otherwise (a record
    /// read from a top-level object).
    ///
    /// The bytes are valid only inside `body`. Lets a caller keep or find again a record's text without serializing its
    /// value.
    public func withLastRecordText<R>(_ body: (_ text: UnsafeRawBufferPointer, _ offset: Int) throws -> R) rethrows
        -> R?
    {
        guard recordBytesValid, let range = lastRecordBytes, range.lowerBound >= bufferBase,
            range.upperBound - bufferBase <= end
        else {
            return nil
        }
        return try body(
            UnsafeRawBufferPointer(start: buffer + (range.lowerBound - bufferBase), count: range.count),
            range.lowerBound)
    }

    public func next() throws -> RecordItem? {
        lastRecordBytes = nil
        lastRecordIsVerbatim = false
        while true {
            switch state {
            case .done:
                return nil
            case .start, .afterTop:
                let first: Bool
                if case .start = state { first = true } else { first = false }
                guard try skipWhitespaceAtTop(skipBOM: first) else {
                    state = .done
                    return nil
                }
                if lineMode {
                    state = .afterTop
                    return try readRecord()
                }
                try beginTopValue()
            case .topArray(let isEnvelope):
                guard try skipWhitespaceAtTop(skipBOM: false) else {
                    throw syntaxError("unexpected end of input inside the records array")
                }
                if buffer[pos] == UInt8(ascii: "]") {
                    pos += 1
                    if isEnvelope {
                        state = .topObject
                        topObjectNeedsComma = true
                    } else {
                        state = .afterTop
                    }
                    continue
                }
                if !firstInArray {
                    guard buffer[pos] == UInt8(ascii: ",") else {
                        throw syntaxError(
                            "expected ',' or ']' after record \(recordCount - 1), found \(describeByte(pos))")
                    }
                    pos += 1
                    guard try skipWhitespaceAtTop(skipBOM: false) else {
                        throw syntaxError("unexpected end of input inside the records array")
                    }
                    if buffer[pos] == UInt8(ascii: "]") {
                        if !lenient { throw syntaxError("trailing comma before ']'") }
                        continue
                    }
                }
                firstInArray = false
                return try readRecord()
            case .topObject:
                if let item = try readTopObjectMember() { return item }
            }
        }
    }

    private var firstInArray = false
    /// Buffer ranges of the keys of the objects being parsed, for duplicate detection.
    private var keyRanges: [(Int, Int)] = []

    /// Skips whitespace (and newlines) at the top level, refilling as needed; false at end.
    private func skipWhitespaceAtTop(skipBOM: Bool) throws -> Bool {
        while true {
            while pos < end {
                let c = buffer[pos]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                    pos += 1
                } else if skipBOM && c == 0xEF && end - pos >= 3 && buffer[pos + 1] == 0xBB && buffer[pos + 2] == 0xBF {
                    pos += 3
                } else {
                    return true
                }
            }
            guard try fill(keeping: pos) else { return false }
        }
    }

    private func beginTopValue() throws {
        let c = buffer[pos]
        if c == UInt8(ascii: "[") {
            pos += 1
            state = .topArray(envelope: false)
            firstInArray = true
        } else if c == UInt8(ascii: "{") {
            pos += 1
            envelopeFields = Fields()
            sawRecordsKey = false
            topObjectStart = (bufferBase + pos - 1, lineColumn(at: pos - 1))
            topObjectNeedsComma = false
            state = .topObject
        } else {
            throw syntaxError("expected a JSON array or object, found \(describeByte(pos))")
        }
    }

    private var topObjectStart: (Int, (Int, Int)) = (0, (1, 1))
    private var topObjectNeedsComma = false

    /// Reads the next member of a top-level object: a header field, the start of the envelope's
    /// records array, or the end of the object (which yields the object itself as a record
    /// when it had no `records`).
    private func readTopObjectMember() throws -> RecordItem? {
        guard try skipWhitespaceAtTop(skipBOM: false) else {
            throw syntaxError("unexpected end of input inside an object")
        }
        if buffer[pos] == UInt8(ascii: "}") {
            pos += 1
            state = .afterTop
            if sawRecordsKey {
                header = EnvelopeHeader(
                    schema: envelopeFields["schema"]?.stringValue,
                    version: envelopeFields["version"].flatMap { v -> Int? in
                        if case .int(let i) = v { return Int(i) }
                        return nil
                    })
                return nil
            }
            // A plain object at the top level is one record.
            let index = recordCount
            recordCount += 1
            let (line, column) = topObjectStart.1
            nodeOffsets = []
            recordBytesValid = false
            lastValue = nil
            return RecordItem(
                value: .object(envelopeFields), index: index,
                location: SourceLocation(file: name, line: line, column: column, recordIndex: index))
        }
        if topObjectNeedsComma {
            guard buffer[pos] == UInt8(ascii: ",") else {
                throw syntaxError("expected ',' or '}', found \(describeByte(pos))")
            }
            pos += 1
            guard try skipWhitespaceAtTop(skipBOM: false) else {
                throw syntaxError("unexpected end of input inside an object")
            }
            if buffer[pos] == UInt8(ascii: "}") && lenient { return nil }
        }
        // Parse `"key": ` and then either the records array or a whole value, restarting on refill.
        // Absolute, because a refill moves the buffer's contents.
        let memberStartAbsolute = bufferBase + pos
        while true {
            let memberStart = memberStartAbsolute - bufferBase
            do {
                pos = memberStart
                limit = end
                lineBounded = false
                let (key, startsRecords) = try scan { s -> (String, Bool) in
                    let key = try s.parseString()
                    s.skipWhitespace()
                    try s.need(1)
                    guard s.buffer[s.pos] == UInt8(ascii: ":") else {
                        throw ScanError(
                            message: "expected ':' after a key, found \(s.describeByte(s.pos))", offset: s.pos)
                    }
                    s.pos += 1
                    s.skipWhitespace()
                    try s.need(1)
                    return (key, key == "records" && s.buffer[s.pos] == UInt8(ascii: "["))
                }
                // The members are gathered one by one here, not by the scanner's object parse:
                // a repeated key must be refused here too, or the later value silently replaces
                // the earlier one (lenient mode keeps both, as the scanner's `keepBoth` does).
                let repeated = envelopeFields.contains(key: key)
                if (repeated && !lenient) || (startsRecords && sawRecordsKey) {
                    throw syntaxError("duplicate key \"\(key)\"", at: memberStart)
                }
                if startsRecords && !repeated {
                    pos += 1
                    sawRecordsKey = true
                    header = EnvelopeHeader(
                        schema: envelopeFields["schema"]?.stringValue,
                        version: envelopeFields["version"].flatMap { v -> Int? in
                            if case .int(let i) = v { return Int(i) }
                            return nil
                        })
                    state = .topArray(envelope: true)
                    firstInArray = true
                    topObjectNeedsComma = true
                    return nil
                }
                nodeOffsets.removeAll(keepingCapacity: true)
                let value = try scan { try $0.parseValue(depth: 1) }
                if !sawRecordsKey, bufferBase + pos - topObjectStart.0 > limits.maxRecordSize {
                    throw topObjectTooLarge()
                }
                if repeated, let earlier = envelopeFields[key] {
                    var alias = "\(key) (earlier value)"
                    var n = 2
                    while envelopeFields.contains(key: alias) {
                        alias = "\(key) (earlier value \(n))"
                        n += 1
                    }
                    envelopeFields[alias] = earlier
                    warnings.append(repeatedKeyWarning(key, keptAs: alias, at: memberStart))
                }
                envelopeFields[key] = value
                topObjectNeedsComma = true
                return nil
            } catch is NeedMore {
                parseRestarts += 1
                let offset = memberStart
                // A plain object is one record: stop reading once it passes the size limit.
                if !sawRecordsKey, bufferBase + end - topObjectStart.0 > limits.maxRecordSize {
                    throw topObjectTooLarge()
                }
                guard try fill(keeping: offset) else { throw syntaxError("unexpected end of input inside an object") }
                continue
            }
        }
    }

    /// The size-limit error for the plain top-level object being read; reading stops there.
    private func topObjectTooLarge() -> LarderError {
        state = .done
        let (line, column) = topObjectStart.1
        return limits.recordTooLarge(
            at: SourceLocation(file: name, line: line, column: column, recordIndex: recordCount))
    }

    /// The size-limit error for the record starting at buffer offset `start`.
    private func recordTooLarge(at start: Int) -> LarderError {
        let (line, column) = lineColumn(at: start)
        return limits.recordTooLarge(
            at: SourceLocation(file: name, line: line, column: column, recordIndex: recordCount))
    }

    /// In line mode: refuses the line starting at `start` for its size, discarding the rest of it
    /// without buffering it, so that reading goes on at the next line.
    private func skipOversizedLine(at start: Int) throws -> Never {
        let error = recordTooLarge(at: start)
        recordCount += 1
        while true {
            pos = end
            guard try fill(keeping: end) else {
                pos = end
                throw error
            }
            if let hit = memchr(buffer, 0x0A, end) {
                pos = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                throw error
            }
        }
    }

    private func readRecord() throws -> RecordItem {
        let startAbsolute = bufferBase + pos
        while true {
            let lineLimit = lineMode ? try lineEnd(fromAbsolute: startAbsolute) : 0
            let start = startAbsolute - bufferBase
            pos = start
            do {
                nodeOffsets.removeAll(keepingCapacity: true)
                advanceMark(to: start)
                if lineMode {
                    limit = lineLimit - bufferBase
                    lineBounded = true
                } else {
                    limit = end
                    lineBounded = false
                }
                let value: Value
                var valueEnd = 0
                var verbatim = false
                do {
                    let checkLine = lineMode
                    value = try scan { s in
                        let value = try s.parseValue(depth: 1)
                        verbatim = s.verbatim
                        valueEnd = s.pos
                        if checkLine { try s.finishLine() }
                        return value
                    }
                } catch is NeedMore where lineBounded {
                    throw syntaxError("unexpected end of line inside the record")
                }
                lineBounded = false
                if valueEnd - start > limits.maxRecordSize {
                    let error = recordTooLarge(at: start)
                    if !lineMode {
                        // (In line mode the catch below counts the record and skips its line.)
                        recordCount += 1
                        state = .done
                    }
                    throw error
                }
                lastRecordByteRange = (bufferBase + start)..<(bufferBase + pos)
                recordStartPos = start
                recordStartLine = markLine
                recordStartColumn = markColumn
                recordBytesValid = true
                lastRecordBytes = (nodeOffsets.first ?? startAbsolute)..<(bufferBase + valueEnd)
                lastValue = value
                lastRecordIsVerbatim = verbatim
                let index = recordCount
                recordCount += 1
                return RecordItem(
                    value: value, index: index,
                    location: SourceLocation(file: name, line: markLine, column: markColumn, recordIndex: index))
            } catch is NeedMore {
                parseRestarts += 1
                keyRanges.removeAll(keepingCapacity: true)
                if end - start > limits.maxRecordSize {
                    let error = recordTooLarge(at: start)
                    state = .done
                    throw error
                }
                guard try fill(keeping: start) else {
                    pos = end
                    let error = syntaxError("unexpected end of input inside a record")
                    state = .done
                    throw error
                }
            } catch let error as LarderError where lineMode {
                // Skip the rest of the bad line so reading can go on, and count it as a record.
                recordCount += 1
                lineBounded = false
                pos = min(end, lineLimit - bufferBase + 1)
                throw error
            }
        }
    }

    /// The absolute offset of the newline ending the line that starts at absolute offset
    /// `startAbsolute` (or the end of input), refilling as needed.
    private func lineEnd(fromAbsolute startAbsolute: Int) throws -> Int {
        var scanned = 0
        while true {
            let start = startAbsolute - bufferBase
            let from = start + scanned
            if from < end, let hit = memchr(buffer + from, 0x0A, end - from) {
                return bufferBase + buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            scanned = end - start
            if scanned > limits.maxRecordSize { try skipOversizedLine(at: start) }
            guard try fill(keeping: start) else { return bufferBase + end }
        }
    }

    private func describeByte(_ offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let c = buffer[offset]
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return String(format: "byte 0x%02X", c)
    }

    /// Lenient mode's warning for a repeated key whose earlier value was kept as `alias`.
    private func repeatedKeyWarning(_ key: String, keptAs alias: String, at offset: Int) -> Diagnostic {
        let (line, column) = lineColumn(at: offset)
        return Diagnostic(
            severity: .warning, code: "duplicate-key",
            message:
                "duplicate key \"\(key)\": the last value is read (as browsers and JSON-LD processors read it); the earlier one is kept as \"\(alias)\"",
            location: SourceLocation(file: name, line: line, column: column, recordIndex: recordCount))
    }

    /// Runs `body` on a scanner over the current buffer, then takes back its position and node
    /// offsets; scanner errors become located ``LarderError``s, `NeedMore` passes through.
    private func scan<T>(_ body: (inout JSONScanner) throws -> T) throws -> T {
        var scanner = JSONScanner(
            buffer: buffer, pos: pos, limit: limit, atEnd: atEnd, bufferBase: bufferBase, maxDepth: limits.maxDepth,
            lenient: lenient, nodeOffsets: [], keyRanges: [])
        swap(&scanner.nodeOffsets, &nodeOffsets)
        swap(&scanner.keyRanges, &keyRanges)
        defer {
            pos = scanner.pos
            swap(&scanner.nodeOffsets, &nodeOffsets)
            swap(&scanner.keyRanges, &keyRanges)
            keyRanges.removeAll(keepingCapacity: true)
        }
        do {
            let result = try body(&scanner)
            for (offset, escape) in scanner.loneSurrogates {
                let (line, column) = lineColumn(at: offset)
                warnings.append(
                    Diagnostic(
                        severity: .warning, code: "lone-surrogate",
                        message: "lone surrogate \(escape) in a string read as U+FFFD (it encodes no character)",
                        location: SourceLocation(file: name, line: line, column: column, recordIndex: recordCount)))
            }
            for (offset, key, alias) in scanner.repeatedKeys {
                warnings.append(repeatedKeyWarning(key, keptAs: alias, at: offset))
            }
            return result
        } catch let error as ScanError {
            let located = syntaxError(error.message, at: error.offset)
            guard error.refused else { throw located }
            throw LarderError(.refusedInput, error.message, location: located.location, snippet: located.snippet)
        }
    }

    // MARK: Locations

    public func location(of path: FieldPath) -> SourceLocation? {
        guard recordBytesValid, let item = lastValueForLocation(), let index = item.preorderIndex(of: path),
            index < nodeOffsets.count
        else { return nil }
        let offset = nodeOffsets[index] - bufferBase
        guard offset >= 0, offset <= end else { return nil }
        let (line, column) = lineColumn(at: offset)
        return SourceLocation(file: name, line: line, column: column, fieldPath: path)
    }

    public func snippet(of path: FieldPath) -> String? {
        guard recordBytesValid, let value = lastValue, let index = value.preorderIndex(of: path),
            index < nodeOffsets.count
        else { return nil }
        let offset = nodeOffsets[index] - bufferBase
        guard offset >= 0, offset <= end else { return nil }
        return snippet(at: offset, column: 0)
    }

    private var lastValue: Value?
    private func lastValueForLocation() -> Value? { lastValue }
}
