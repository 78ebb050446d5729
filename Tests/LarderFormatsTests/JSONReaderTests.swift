import Foundation
import LarderCore
import Testing

@testable import LarderFormats

@Suite struct JSONReaderTests {
    private func readAll(_ text: String, lineMode: Bool = false) throws -> [Value] {
        let reader = JSONReader(source: MemoryByteSource(text, name: "t.json"), lineMode: lineMode)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        return values
    }

    @Test("reads a top-level array, an envelope, a single object and concatenated objects")
    func readsEveryLayout() throws {
        #expect(try readAll("[{\"a\":1},{\"a\":2}]") == [["a": 1], ["a": 2]])
        #expect(try readAll("{\"schema\":\"recipe\",\"version\":3,\"records\":[{\"a\":1}]}") == [["a": 1]])
        #expect(try readAll("{\"a\":1}") == [["a": 1]])
        #expect(try readAll("{\"a\":1}\n{\"a\":2}\n", lineMode: true) == [["a": 1], ["a": 2]])
        #expect(try readAll("[]") == [])
    }

    @Test("reads the envelope header even when it follows the records")
    func readsTrailingHeader() throws {
        let reader = JSONReader(
            source: MemoryByteSource("{\"records\":[{\"a\":1}],\"schema\":\"brewLog\",\"version\":2}"))
        while try reader.next() != nil {}
        #expect(reader.header == EnvelopeHeader(schema: "brewLog", version: 2))
    }

    @Test("parses every scalar kind exactly")
    func parsesScalars() throws {
        let values = try readAll(
            #"[{"s":"é\n\u00e9\ud83d\ude00","i":-9223372036854775807,"d":1.5e300,"b":true,"n":null,"e":[],"o":{}}]"#)
        #expect(
            values == [
                [
                    "s": "é\né😀", "i": .int(-9_223_372_036_854_775_807), "d": 1.5e300, "b": true, "n": nil, "e": [],
                    "o": [:],
                ]
            ])
    }

    @Test("names line and column of a syntax error")
    func reportsSyntaxErrorPosition() throws {
        let error = try #require(throws: LarderError.self) { try readAll("[\n  {\"a\": 1},\n  {\"b\": tru}\n]") }
        #expect(error.code == .syntax)
        #expect(error.location?.line == 3)
        #expect(error.location?.column == 9)
    }

    @Test("refuses nesting deeper than the limit")
    func refusesDeepNesting() throws {
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        let error = try #require(throws: LarderError.self) { try readAll("[\(deep)]") }
        #expect(error.code == .refusedInput)
    }

    @Test("a huge token read from a pipe in small chunks is parsed a logarithmic number of times, not once per chunk")
    func hugeTokenFromPipe() throws {
        let size = 2 << 20
        let text = "[{\"id\": \"big\", \"title\": \"" + String(repeating: "x", count: size) + "\"}]"
        for lineMode in [false, true] {
            let input = lineMode ? String(text.dropFirst().dropLast()) + "\n" : text
            let reader = JSONReader(source: ChunkedSource(Array(input.utf8), chunk: 4096), lineMode: lineMode)
            let item = try #require(try reader.next())
            #expect(item.value["title"]?.stringValue?.utf8.count == size)
            #expect(try reader.next() == nil)
            // 2 MiB in 4 KiB reads is 512 reads: restarting the parse after each would be quadratic.
            #expect(reader.parseRestarts <= 24, "line mode \(lineMode): \(reader.parseRestarts) restarts")
        }
    }

    @Test("escaped strings read back exactly: runs between escapes, every escape, wide characters")
    func escapedStringsRoundTrip() throws {
        // Each string written by Foundation's encoder (which escapes `"`, `\\`, `/` and controls) and read back.
        let alphabet: [String] = [
            "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "é", "ß", "€",
            "\u{1F372}", "{", "}", ":", ",",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<500 {
            let text = (0..<next(40)).map { _ in alphabet[next(alphabet.count)] }.joined()
            let json = String(decoding: try JSONEncoder().encode(["t": text]), as: UTF8.self)
            #expect(try readAll(json) == [["t": .string(text)]], "\(json)")
        }
        // A raw control character is refused at its column; a quote-only string is empty.
        #expect(throws: LarderError.self) { try readAll("[{\"t\": \"ab\u{01}c\\n\"}]") }
        #expect(try readAll(#"[{"t": "\"\"", "u": ""}]"#) == [["t": "\"\"", "u": ""]])
    }

    @Test("a lone surrogate escape is refused in strict mode at its line and column")
    func refusesLoneSurrogate() throws {
        for (text, column) in [
            (#"[{"title": "a\ud800"}]"#, 14), (#"[{"title": "\udc00b"}]"#, 13), (#"[{"title": "\ud800\u0041"}]"#, 13),
        ] {
            #expect {
                try readAll("\n" + text)
            } throws: { error in
                let error = error as? LarderError
                return error?.code == .syntax && error?.location?.line == 2 && error?.location?.column == column
                    && error?.message.contains("lone surrogate") == true
            }
        }
        // A proper pair is one character.
        #expect(try readAll(#"[{"t": "\ud83c\udf72"}]"#) == [["t": "\u{1F372}"]])
    }

    @Test("a lone surrogate escape in lenient mode becomes U+FFFD with a warning")
    func lenientLoneSurrogate() throws {
        let reader = JSONReader(source: MemoryByteSource(#"{"name": "So\ud800up"}"#, name: "page.json"), lenient: true)
        #expect(try reader.next()?.value == ["name": "So\u{FFFD}up"])
        #expect(reader.warnings.count == 1)
        #expect(reader.warnings.first?.description.hasPrefix("page.json:1:13: warning:") == true, "\(reader.warnings)")
    }

    @Test("streams records larger than the read buffer")
    func streamsAcrossRefills() throws {
        let big = String(repeating: "x", count: 3_000_000)
        let values = try readAll("[{\"t\":\"\(big)\"},{\"t\":\"y\"}]")
        #expect(values.count == 2)
        #expect(values[1] == ["t": "y"])
    }

    @Test("maps a field path back to its line and column")
    func locatesFieldPaths() throws {
        let reader = JSONReader(
            source: MemoryByteSource(
                "[\n{\"steps\": [\n  {\"timerSeconds\": 1},\n  {\"timerSeconds\": \"5 min\"}]}]", name: "b.json"))
        _ = try reader.next()
        let location = reader.location(of: "steps[1].timerSeconds")
        #expect(location?.line == 4)
        #expect(location?.column == 20)
    }

    @Test("keeps reading NDJSON after a malformed line")
    func recoversInLineMode() throws {
        let reader = JSONReader(source: MemoryByteSource("{\"a\":1}\n{\"a\":\n{\"a\":3}\n"), lineMode: true)
        #expect(try reader.next()?.value == ["a": 1])
        #expect(throws: LarderError.self) { try reader.next() }
        #expect(try reader.next()?.value == ["a": 3])
        #expect(try reader.next() == nil)
    }
}

@Suite struct JSONReaderRefillTests {
    @Test("reads a top-level object whose members arrive across several reads")
    func readsTopObjectAcrossRefills() throws {
        let members = (0..<400).map { "\"key\($0)\": [\"value number \($0)\", {\"n\": \($0)}]" }
        let text = "{\n" + members.joined(separator: ",\n") + "\n}"
        let reader = JSONReader(source: PeekableByteSource(MemoryByteSource(text)))
        _ = try PeekableByteSource(MemoryByteSource(text)).peek(10)
        let chunked = JSONReader(source: ChunkedSource(Array(text.utf8), chunk: 4096))
        let whole = try reader.next()?.value
        let pieces = try chunked.next()?.value
        #expect(whole?.objectValue?.count == 400)
        #expect(pieces == whole)
    }

    @Test("bytes in memory or in a file get a buffer of their size, grown when decoding lengthens them")
    func bufferSizedToTheInput() throws {
        let text = "[" + (0..<300).map { "{\"title\":\"caf\u{E9} \($0)\"}" }.joined(separator: ",") + "]"
        func values(_ reader: JSONReader) throws -> [Value] {
            var values: [Value] = []
            while let item = try reader.next() { values.append(item.value) }
            return values
        }
        let expected = try values(JSONReader(source: ChunkedSource(Array(text.utf8), chunk: 1 << 20)))
        #expect(expected.count == 300)
        let memory = JSONReader(source: PeekableByteSource(MemoryByteSource(text)))
        #expect(try values(memory) == expected)
        #expect(memory.parseRestarts == 0)
        // windows-1252: each é one byte, two once decoded, so the buffer sized to the bytes grows.
        var latin: [UInt8] = []
        for byte in text.utf8 where byte != 0xC3 { latin.append(byte == 0xA9 ? 0xE9 : byte) }
        let path = NSTemporaryDirectory() + "larder-json-buffer-\(getpid()).json"
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(latin)))
        let file = try FileByteSource(path: path)
        #expect(file.remainingByteCount == latin.count)
        let decoded = TranscodingByteSource(file, encoding: nil)
        #expect(try values(JSONReader(source: decoded)) == expected)
        #expect(decoded.usedFallback)
        #expect(file.remainingByteCount == 0)
    }
}

/// Hands out at most `chunk` bytes per read, like a pipe (64 KiB) or a slow socket, to exercise refills.
private final class ChunkedSource: ByteSource {
    let name = "chunked"
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0
    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes
        self.chunk = chunk
    }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(chunk, buffer.count, bytes.count - offset)
        for i in 0..<n { buffer[i] = bytes[offset + i] }
        offset += n
        return n
    }
}
