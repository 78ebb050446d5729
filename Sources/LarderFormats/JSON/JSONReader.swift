import Foundation
public import LarderCore

#if canImport(Glibc)
import Glibc
#endif

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

/// The hot JSON parse loop over one buffer, as a value type so its state stays in registers
/// (class properties would cost a dynamic exclusivity check on every access).
///
/// ``JSONReader`` drives it over its refilled buffer; ``parseDocument(_:name:maxDepth:)`` runs it
/// once over a whole document held in memory.
package struct JSONScanner {
    let buffer: UnsafePointer<UInt8>
    var pos: Int
    let limit: Int
    /// Whether `limit` is a hard stop (end of input or of the line) rather than a refill point.
    let atEnd: Bool
    let bufferBase: Int
    let maxDepth: Int
    let lenient: Bool
    var nodeOffsets: [Int]
    var keyRanges: [(Int, Int)]
    /// Lenient mode: lone surrogate escapes read as U+FFFD (buffer offset, the escape's text).
    var loneSurrogates: [(Int, String)] = []
    /// Lenient mode: repeated keys, both values kept (buffer offset, the key, the earlier value's key).
    var repeatedKeys: [(Int, String, String)] = []
    /// Whether the text parsed so far is byte for byte what ``JSONWriter`` writes for its value.
    ///
    /// That is: no whitespace between tokens, no escape the writer would spell otherwise, every
    /// number in the writer's spelling. Cleared at the first difference; a new scanner starts
    /// with it set.
    var verbatim = true

    @inline(__always) mutating func need(_ count: Int) throws {
        if limit - pos < count { throw NeedMore() }
    }

    @inline(__always) mutating func skipWhitespace() {
        while pos < limit {
            let c = buffer[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                pos += 1
                verbatim = false
            } else {
                return
            }
        }
    }

    mutating func describeByte(_ offset: Int) -> String {
        guard offset < limit else { return "end of input" }
        let c = buffer[offset]
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return String(format: "byte 0x%02X", c)
    }

    mutating func finishLine() throws {
        while pos < limit {
            let c = buffer[pos]
            if c == 0x20 || c == 0x0D || c == 0x09 {
                pos += 1
            } else {
                throw ScanError(message: "expected a newline after the record, found \(describeByte(pos))", offset: pos)
            }
        }
    }

    /// The value at the cursor: an object, a list, a string, a literal or a number.
    mutating func parseValue(depth: Int) throws -> Value {
        skipWhitespace()
        try need(1)
        nodeOffsets.append(bufferBase + pos)
        let c = buffer[pos]
        switch c {
        case UInt8(ascii: "{"):
            guard depth <= maxDepth else {
                throw ScanError(message: "nesting deeper than \(maxDepth) levels", offset: pos, refused: true)
            }
            return try parseObject(depth: depth)
        case UInt8(ascii: "["):
            guard depth <= maxDepth else {
                throw ScanError(message: "nesting deeper than \(maxDepth) levels", offset: pos, refused: true)
            }
            return try parseArray(depth: depth)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw ScanError(message: "expected a value, found \(describeByte(pos))", offset: pos)
        }
    }

    /// The object whose `{` is at the cursor; a duplicate key is an error (and, when lenient, a
    /// trailing comma is not).
    mutating func parseObject(depth: Int) throws -> Value {
        pos += 1
        var fields: [Field] = []
        let keyFrame = keyRanges.count
        defer { keyRanges.removeSubrange(keyFrame...) }
        var keySignatures: UInt64 = 0
        var manyKeys: Set<[UInt8]>?
        // Lenient mode: the members that hold a repeated key's earlier value.
        var aliases: [Int] = []
        skipWhitespace()
        try need(1)
        if buffer[pos] == UInt8(ascii: "}") {
            pos += 1
            return .object(Fields(uncheckedUniqueElements: fields))
        }
        // Records' objects mostly have a handful of members: one allocation instead of four.
        fields.reserveCapacity(8)
        while true {
            skipWhitespace()
            try need(1)
            guard buffer[pos] == UInt8(ascii: "\"") else {
                throw ScanError(message: "expected a quoted key, found \(describeByte(pos))", offset: pos)
            }
            let keyOffset = pos
            let key = try parseString()
            let keyLength = pos - keyOffset
            var repeated: Int?
            do {
                try noteKey(
                    key, at: keyOffset, length: keyLength, since: keyFrame, seen: &keySignatures, many: &manyKeys)
            } catch let error as ScanError where error.duplicateKey && lenient {
                repeated = fields.firstIndex { $0.key == key }
                if repeated == nil { throw error }
            }
            skipWhitespace()
            try need(1)
            guard buffer[pos] == UInt8(ascii: ":") else {
                throw ScanError(
                    message: "expected ':' after key \"\(key)\", found \(describeByte(pos))", offset: pos)
            }
            pos += 1
            let value = try parseValue(depth: depth + 1)
            if let repeated {
                keepBoth(&fields, at: repeated, later: value, keyOffset: keyOffset)
                aliases.append(fields.count - 1)
            } else {
                fields.append(Field(key: key, value: value))
            }
            skipWhitespace()
            try need(1)
            let d = buffer[pos]
            pos += 1
            if d == UInt8(ascii: "}") { break }
            guard d == UInt8(ascii: ",") else {
                pos -= 1
                throw ScanError(
                    message: "expected ',' or '}' after a field, found \(describeByte(pos))", offset: pos)
            }
            if lenient {
                skipWhitespace()
                try need(1)
                if buffer[pos] == UInt8(ascii: "}") {
                    pos += 1
                    verbatim = false
                    break
                }
            }
        }
        if !aliases.isEmpty { Self.renameTakenAliases(&fields, aliases) }
        return .object(Fields(uncheckedUniqueElements: fields))
    }

    /// Numbers on an earlier value's key that a later member of the object has as its own key,
    /// so the object's keys stay unique.
    static func renameTakenAliases(_ fields: inout [Field], _ aliases: [Int]) {
        for index in aliases {
            let base = fields[index].key
            var n = 2
            while fields.indices.contains(where: { $0 != index && fields[$0].key == fields[index].key }) {
                fields[index].key = "\(base) \(n)"
                n += 1
            }
        }
    }

    /// Lenient mode's answer to a repeated key (JSON-LD pages repeat `"description"`).
    ///
    /// The later value is the key's, as browsers, JSON-LD processors and recipe-scrapers read it, and the
    /// earlier one stays beside it under `key (earlier value)` (numbered past the first), so an
    /// importer keeps it in extras; ``JSONReader`` warns with the line and column. Strict mode
    /// (convert, validate) refuses the document instead.
    mutating func keepBoth(_ fields: inout [Field], at index: Int, later: Value, keyOffset: Int) {
        let key = fields[index].key
        var alias = "\(key) (earlier value)"
        var n = 2
        while fields.contains(where: { $0.key == alias }) {
            alias = "\(key) (earlier value \(n))"
            n += 1
        }
        fields.append(Field(key: alias, value: fields[index].value))
        fields[index].value = later
        repeatedKeys.append((keyOffset, key, alias))
        verbatim = false
    }

    /// Records the key just read, which starts at `offset` and spans `length` bytes of the
    /// buffer, after checking that the object (whose keys start at `frame`) has no such key yet.
    ///
    /// `seen` has a bit set for each key so far (by its length and first and last byte): a key
    /// whose bit is clear cannot repeat one, and skips the comparisons (a record's 30-odd keys
    /// took several hundred). Past ``linearKeyLimit`` keys the object's keys go into `many`, a set
    /// of their source text, so an object of 100,000 members costs 100,000 lookups, not 5 billion
    /// comparisons (a 1 MB request of them held the emulator for 15 s).
    mutating func noteKey(
        _ key: String, at offset: Int, length: Int, since frame: Int, seen: inout UInt64, many: inout Set<[UInt8]>?
    ) throws {
        if many != nil || keyRanges.count - frame >= Self.linearKeyLimit {
            if many == nil {
                var keys = Set<[UInt8]>(minimumCapacity: 2 * Self.linearKeyLimit)
                for (start, count) in keyRanges[frame...] { keys.insert(sourceText(at: start, length: count)) }
                many = keys
            }
            guard many?.insert(sourceText(at: offset, length: length)).inserted == true else {
                throw ScanError(message: "duplicate key \"\(key)\"", offset: offset, duplicateKey: true)
            }
            keyRanges.append((offset, length))
            return
        }
        // `length` counts the quotes (for "" the two bytes read are the quotes themselves).
        let signature = (length &* 7 &+ Int(buffer[offset + 1]) &+ Int(buffer[offset + length - 2]) &* 3) & 63
        let bit: UInt64 = 1 << UInt64(signature)
        guard seen & bit != 0 else {
            seen |= bit
            keyRanges.append((offset, length))
            return
        }
        var k = frame
        while k < keyRanges.count {
            let (otherStart, otherLength) = keyRanges[k]
            if otherLength == length && memcmp(buffer + otherStart, buffer + offset, length) == 0 {
                throw ScanError(message: "duplicate key \"\(key)\"", offset: offset, duplicateKey: true)
            }
            k += 1
        }
        keyRanges.append((offset, length))
    }

    /// Keys an object may have before its duplicate check uses a set instead of comparisons.
    static let linearKeyLimit = 32

    /// The buffer's bytes at `start`, `length` long (a key's source spelling).
    func sourceText(at start: Int, length: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: buffer + start, count: length))
    }

    /// The list whose `[` is at the cursor (when lenient, a trailing comma is allowed).
    mutating func parseArray(depth: Int) throws -> Value {
        pos += 1
        var elements: [Value] = []
        skipWhitespace()
        try need(1)
        if buffer[pos] == UInt8(ascii: "]") {
            pos += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            try need(1)
            let d = buffer[pos]
            pos += 1
            if d == UInt8(ascii: "]") { break }
            guard d == UInt8(ascii: ",") else {
                pos -= 1
                throw ScanError(message: "expected ',' or ']' in a list, found \(describeByte(pos))", offset: pos)
            }
            if lenient {
                skipWhitespace()
                try need(1)
                if buffer[pos] == UInt8(ascii: "]") {
                    pos += 1
                    verbatim = false
                    break
                }
            }
        }
        return .array(elements)
    }

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        try need(count)
        let matches = word.withUTF8Buffer { expected in
            expected.baseAddress.map { memcmp(buffer + pos, $0, count) == 0 } ?? (count == 0)
        }
        guard matches else { throw ScanError(message: "expected a value, found \(describeByte(pos))", offset: pos) }
        pos += count
        // A literal must not run on into letters (`trueish`).
        if pos < limit, isIdentifierByte(buffer[pos]) {
            throw ScanError(message: "expected a value, found \(describeByte(pos - count))", offset: pos - count)
        }
        if pos == limit && !atEnd { throw NeedMore() }
    }

    @inline(__always) mutating func isIdentifierByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
    }

    mutating func parseNumber() throws -> Value {
        let start = pos
        var i = pos
        var isInteger = true
        if buffer[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < limit, buffer[i] >= 0x30, buffer[i] <= 0x39 { i += 1 }
        if i == limit && !atEnd { throw NeedMore() }
        guard i > digitsStart else { throw ScanError(message: "expected a digit, found \(describeByte(i))", offset: i) }
        if buffer[digitsStart] == 0x30 && i - digitsStart > 1 {
            throw ScanError(message: "numbers must not have leading zeros", offset: start)
        }
        if i < limit && buffer[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let fractionStart = i
            while i < limit, buffer[i] >= 0x30, buffer[i] <= 0x39 { i += 1 }
            if i == limit && !atEnd { throw NeedMore() }
            guard i > fractionStart else { throw ScanError(message: "expected a digit after '.'", offset: i) }
        }
        if i < limit && (buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E")) {
            isInteger = false
            i += 1
            if i < limit && (buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-")) { i += 1 }
            let exponentStart = i
            while i < limit, buffer[i] >= 0x30, buffer[i] <= 0x39 { i += 1 }
            if i == limit && !atEnd { throw NeedMore() }
            guard i > exponentStart else { throw ScanError(message: "expected a digit in the exponent", offset: i) }
        }
        if i < limit && isIdentifierByte(buffer[i]) { throw ScanError(message: "malformed number", offset: start) }
        pos = i
        if isInteger && i - start <= 18 {
            var value: Int64 = 0
            var j = digitsStart
            while j < i {
                value = value &* 10 &+ Int64(buffer[j] - 0x30)
                j += 1
            }
            let negative = buffer[start] == UInt8(ascii: "-")
            // The writer spells -0 as 0.
            if negative && value == 0 { verbatim = false }
            return .int(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(start: buffer + start, count: i - start), as: UTF8.self)
        if isInteger, let exact = Int64(text) {
            verbatim = false
            return .int(exact)
        }
        guard let double = Double(text), double.isFinite else {
            throw ScanError(message: "number out of range", offset: start)
        }
        if verbatim && !JSONScanner.isShortestSpelling(buffer + start, count: i - start) {
            verbatim = double.description == text
        }
        return .double(double)
    }

    /// Whether the decimal number in `count` bytes at `text` (a valid JSON number, not an
    /// integer) is how Swift's `Double.description`, and so ``JSONWriter``, spells its value,
    /// judged from the digits alone; false means "cannot tell", not "differs".
    ///
    /// True for `-?D.F` without an exponent, at most 15 significant digits (so the digits are the
    /// shortest that round-trip), no trailing zero in `F` unless `F` is `0`, a value below
    /// 10^15 and at least 10^-4 (Swift switches to an exponent outside that), or zero.
    static func isShortestSpelling(_ text: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = text[0] == UInt8(ascii: "-") ? 1 : 0
        let integerStart = i
        while i < count, text[i] != UInt8(ascii: ".") {
            if text[i] > UInt8(ascii: "9") || text[i] < UInt8(ascii: "0") { return false }  // an exponent
            i += 1
        }
        let integerDigits = i - integerStart
        guard i < count, integerDigits <= 15 else { return false }
        let fractionStart = i + 1
        var j = fractionStart
        while j < count {
            if text[j] > UInt8(ascii: "9") || text[j] < UInt8(ascii: "0") { return false }
            j += 1
        }
        let fractionDigits = count - fractionStart
        if fractionDigits == 1 && text[fractionStart] == UInt8(ascii: "0") { return true }  // 5.0, 0.0, -0.0
        if text[count - 1] == UInt8(ascii: "0") { return false }
        if integerDigits == 1 && text[integerStart] == UInt8(ascii: "0") {
            var zeros = 0
            while zeros < fractionDigits, text[fractionStart + zeros] == UInt8(ascii: "0") { zeros += 1 }
            return zeros <= 3 && fractionDigits - zeros <= 15
        }
        return integerDigits + fractionDigits <= 15
    }

    mutating func parseString() throws -> String {
        // pos is at the opening quote. Fast path: no escapes, and ASCII needs no validation.
        var i = pos + 1
        var high: UInt8 = 0
        // Eight bytes at a time while none is a quote, a backslash or a control character.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var wideHigh: UInt64 = 0
        while i + 8 <= limit {
            let word = UnsafeRawPointer(buffer + i).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            wideHigh |= word
            i += 8
        }
        if wideHigh & highs != 0 { high = 0x80 }
        while i < limit {
            let c = buffer[i]
            if c == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: buffer + pos + 1, count: i - pos - 1)
                if high & 0x80 != 0 && !UTF8Text.isValid(bytes) {
                    throw ScanError(message: "string is not valid UTF-8", offset: pos)
                }
                pos = i + 1
                return UTF8Text.string(bytes)
            }
            if c == UInt8(ascii: "\\") { return try parseEscapedString() }
            if c < 0x20 {
                if lenient {
                    verbatim = false
                    return try parseEscapedString()
                }
                throw ScanError(
                    message: "control character U+\(String(format: "%04X", c)) must be escaped in a string", offset: i)
            }
            high |= c
            i += 1
        }
        throw NeedMore()
    }

    mutating func parseEscapedString() throws -> String {
        var bytes: [UInt8] = []
        var i = pos + 1
        // Bytes between escapes are copied a run at a time (a JSON text inside a string, as
        // CloudKit fields carry them, is mostly such runs between `\"` escapes).
        var runStart = i
        while true {
            guard i < limit else { throw NeedMore() }
            let c = buffer[i]
            if c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") {
                if c >= 0x20 {
                    i += 1
                    continue
                }
                if lenient {
                    verbatim = false  // a raw control character the writer escapes
                    i += 1
                    continue
                }
            }
            if i > runStart {
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer + runStart, count: i - runStart))
            }
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                defer { runStart = i }
                guard i + 1 < limit else { throw NeedMore() }
                let e = buffer[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                // The writer spells these otherwise (`/` as itself, the others as \u escapes).
                case UInt8(ascii: "/"):
                    bytes.append(0x2F)
                    verbatim = false
                case UInt8(ascii: "b"):
                    bytes.append(0x08)
                    verbatim = false
                case UInt8(ascii: "f"):
                    bytes.append(0x0C)
                    verbatim = false
                case UInt8(ascii: "'") where lenient:
                    bytes.append(0x27)
                    verbatim = false
                case UInt8(ascii: "u"):
                    let escapeOffset = i - 2
                    var scalar = try hex4(at: i)
                    // The writer escapes the control characters it has no short escape for as
                    // `\u00` and two lowercase hex digits.
                    if scalar >= 0x20 || scalar == 0x0A || scalar == 0x0D || scalar == 0x09
                        || buffer[i + 2] & 0xDF == buffer[i + 2] && buffer[i + 2] > UInt8(ascii: "9")
                        || buffer[i + 3] & 0xDF == buffer[i + 3] && buffer[i + 3] > UInt8(ascii: "9")
                    {
                        verbatim = false
                    }
                    i += 4
                    var isLone = false
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard i + 1 < limit else { throw NeedMore() }
                        if buffer[i] == UInt8(ascii: "\\") && buffer[i + 1] == UInt8(ascii: "u") {
                            let low = try hex4(at: i + 2)
                            if low >= 0xDC00 && low < 0xE000 {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                                i += 6
                            } else {
                                isLone = true
                            }
                        } else {
                            isLone = true
                        }
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        isLone = true
                    }
                    if isLone {
                        // RFC 8259 §8.2: a string with a lone surrogate is not interoperable.
                        let escape = String(
                            decoding: UnsafeBufferPointer(start: buffer + escapeOffset, count: 6), as: UTF8.self)
                        guard lenient else {
                            throw ScanError(
                                message:
                                    "lone surrogate \(escape) in a string: it encodes no character (RFC 8259 §8.2); "
                                    + "pair it with a \(scalar < 0xDC00 ? "low" : "high") surrogate or remove it",
                                offset: escapeOffset)
                        }
                        loneSurrogates.append((escapeOffset, escape))
                        scalar = 0xFFFD
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    bytes.append(contentsOf: String(Character(character)).utf8)
                default:
                    throw ScanError(
                        message: "invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string", offset: i - 2)
                }
                continue
            }
            throw ScanError(
                message: "control character U+\(String(format: "%04X", c)) must be escaped in a string", offset: i)
        }
        let text = try bytes.withUnsafeBufferPointer { pointer -> String in
            guard UTF8Text.isValid(pointer) else { throw ScanError(message: "string is not valid UTF-8", offset: pos) }
            return UTF8Text.string(pointer)
        }
        pos = i + 1
        return text
    }

    mutating func hex4(at i: Int) throws -> UInt32 {
        guard i + 4 <= limit else { throw NeedMore() }
        var value: UInt32 = 0
        for j in i..<(i + 4) {
            let c = buffer[j]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw ScanError(message: "invalid \\u escape", offset: j)
            }
            value = value << 4 | digit
        }
        return value
    }

}

/// A syntax error found by the scanner, at a buffer offset.
struct ScanError: Error {
    var message: String
    var offset: Int
    var refused = false
    /// A repeated key in an object (lenient mode keeps both values instead).
    var duplicateKey = false
}

/// The scanner needs bytes beyond its limit: refill and start the record again.
struct NeedMore: Error {}
