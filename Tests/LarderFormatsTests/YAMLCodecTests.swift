import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@Suite struct YAMLCodecTests {
    private func readAll(_ text: String, name: String = "t.yaml", limits: ReaderLimits = .default) throws -> [Value] {
        let reader = try YAMLReader(source: MemoryByteSource(text, name: name), limits: limits)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        return values
    }

    private func writeAll(_ records: [Value], options: WriterOptions = WriterOptions()) throws -> String {
        let sink = MemoryByteSink()
        let writer = try YAMLWriter(sink: sink, options: options)
        for record in records { try writer.write(record) }
        try writer.finish()
        return sink.text
    }

    @Test("a YAML record over the record size limit is refused with its index before libyaml buffers it")
    func recordSizeLimit() throws {
        let big = String(repeating: "stir and wait. ", count: 20_000)  // 300 KB in one scalar
        let text = "- title: Soup\n- title: Stew\n  notes: \(big)\n- title: Salad\n"
        var limits = ReaderLimits.default
        limits.maxRecordSize = 64 << 10
        let reader = try YAMLReader(source: MemoryByteSource(text, name: "big.yaml"), limits: limits)
        #expect(try reader.next()?.value["title"] == "Soup")
        let error = try #require(throws: LarderError.self) { try reader.next() }
        #expect(error.code == .refusedInput)
        #expect(error.message.contains("record size limit of 64 KiB"))
        #expect(error.location?.file == "big.yaml")
        #expect(error.location?.recordIndex == 1)
        // A single-record document is limited too; under the limit everything reads.
        #expect(throws: LarderError.self) { try self.readAll("title: Stew\nnotes: \(big)\n", limits: limits) }
        #expect(try readAll(text).count == 3)
    }

    // MARK: Layouts

    @Test("a .yaml file starting with a flow mapping is read as YAML, not sniffed as JSON")
    func flowMappingYAMLFile() throws {
        let directory = try TemporaryDirectory()
        func read(_ name: String, _ text: String) throws -> [Value] {
            let reader = try RecordIO.openReader(path: try directory.write(name, text))
            var values: [Value] = []
            while let item = try reader.next() { values.append(item.value) }
            return values
        }
        #expect(try read("recipes.yaml", "{title: Soup, servings: 2}\n") == [["title": "Soup", "servings": 2]])
        #expect(try read("recipes.yml", "[{title: Soup}, {title: Stew}]\n") == [["title": "Soup"], ["title": "Stew"]])
        // No extension: JSON only when the content really starts like JSON.
        #expect(try read("recipes", "{title: Soup}\n") == [["title": "Soup"]])
        #expect(try read("list", "[{title: Soup}]\n") == [["title": "Soup"]])
        #expect(try read("data", "{\"title\": \"Soup\"}") == [["title": "Soup"]])
        #expect(try read("items", "[ {\"title\": \"Soup\"} ]") == [["title": "Soup"]])
        // The extension is a strong hint: .json content is parsed (and refused) as JSON.
        #expect(throws: LarderError.self) { try read("recipes.json", "{title: Soup}\n") }
        #expect(
            try read("recipes.ndjson", "{\"title\": \"Soup\"}\n{\"title\": \"Stew\"}\n") == [
                ["title": "Soup"], ["title": "Stew"],
            ])
    }

    @Test("reads a top-level sequence of records")
    func readsSequence() throws {
        let text = "- id: a\n  n: 1\n- id: b\n  tags: [x, y]\n- {id: c}\n"
        #expect(try readAll(text) == [["id": "a", "n": 1], ["id": "b", "tags": ["x", "y"]], ["id": "c"]])
        #expect(try readAll("[]\n") == [])
        #expect(try readAll("") == [])
        #expect(try readAll("# only a comment\n") == [])
    }

    @Test("reads a multi-document stream of records and of record sequences, skipping empty documents")
    func readsDocuments() throws {
        #expect(try readAll("---\nid: 1\n---\nid: 2\n...\n") == [["id": 1], ["id": 2]])
        #expect(
            try readAll("--- \n- a: 1\n- a: 2\n---\n- a: 3\n---\n---\nb: 4\n") == [
                ["a": 1], ["a": 2], ["a": 3], ["b": 4],
            ])
    }

    @Test("reads CRLF line endings and a byte-order mark")
    func readsCRLFAndBOM() throws {
        #expect(
            try readAll("\u{FEFF}- id: a\r\n  text: |\r\n    one\r\n    two\r\n- id: b\r\n") == [
                ["id": "a", "text": "one\ntwo\n"], ["id": "b"],
            ])
    }

    @Test("reads a single mapping as one record")
    func readsSingleMapping() throws {
        let reader = try YAMLReader(source: MemoryByteSource("id: r-1\ntitle: Soup\nrecords: 3\n"))
        let item = try #require(try reader.next())
        #expect(item.value == ["id": "r-1", "title": "Soup", "records": 3])
        #expect(item.index == 0)
        #expect(item.location.line == 1 && item.location.column == 1)
        #expect(try reader.next() == nil)
        #expect(reader.header == nil)
    }

    @Test("streams the records of an envelope whose header comes before or after them")
    func readsEnvelope() throws {
        let before = try YAMLReader(
            source: MemoryByteSource("schema: recipe\nversion: 3\nrecords:\n- id: a\n- id: b\n"))
        #expect(try before.next()?.value == ["id": "a"])
        #expect(before.header == EnvelopeHeader(schema: "recipe", version: 3))
        #expect(try before.next()?.value == ["id": "b"])
        #expect(try before.next() == nil)

        let after = try YAMLReader(source: MemoryByteSource("records:\n  - id: a\nschema: brewLog\nversion: 2\n"))
        #expect(try after.next()?.value == ["id": "a"])
        #expect(try after.next() == nil)
        #expect(after.header == EnvelopeHeader(schema: "brewLog", version: 2))

        #expect(try readAll("schema: recipe\nrecords: []\n") == [])
    }

    @Test("gives each record its index and starting line and column")
    func locatesRecords() throws {
        let reader = try YAMLReader(source: MemoryByteSource("- a: 1\n- b: 2\n\n-   c: 3\n", name: "r.yaml"))
        _ = try reader.next()
        _ = try reader.next()
        let third = try #require(try reader.next())
        #expect(third.index == 2)
        #expect(third.location == SourceLocation(file: "r.yaml", line: 4, column: 5, recordIndex: 2))
    }

    @Test(
        "reads the real-world YAML files of the shared corpus",
        .enabled(if: Corpus.has("orf") && Corpus.has("cooklang"), "needs ../shared/corpus (or LARDER_CORPUS)"))
    func readsCorpus() throws {
        let root = URL(fileURLWithPath: Corpus.path(""))
        func records(_ path: String) throws -> [Value] {
            let reader = try RecordIO.openReader(path: root.appendingPathComponent(path).path)
            #expect(reader is YAMLReader)
            var values: [Value] = []
            while let item = try reader.next() { values.append(item.value) }
            return values
        }
        let banana = try #require(try records("orf/banana-bread.yaml").first)
        #expect(banana["recipe_name"] == "Banana Bread")
        #expect(banana["oven_fan"] == "Off")  // a string in YAML 1.2, where PyYAML (1.1) says false
        #expect(banana["yields"] == [["amount": 3, "unit": "loaves"]])
        #expect(banana["ingredients"]?.arrayValue?.count == 13)
        let sample = try #require(try records("orf/orf-sample-1.yaml").first)
        #expect(sample["yields"] == [["servings": 4], ["servings": 10]])
        let canonical = try records("cooklang/canonical.yaml")
        #expect(canonical.count == 1)
        #expect(canonical.first?["version"] == 7)
        #expect(canonical.first?["tests"]?.objectValue?.count == 60)
    }

    // MARK: Scalars

    @Test("resolves plain scalars by the YAML 1.2 core schema")
    func resolvesCoreSchema() throws {
        let text = """
            - null: [~, null, Null, NULL]
              empty:
              bool: [true, True, TRUE, false, False, FALSE]
              int: [0, -7, +12, 0x1F, 0o17, 9223372036854775807, -9223372036854775808]
              float: [1.5, -0.25, .5, 5., 1e3, 1.0e+300, -.inf, .Inf]
              string: [no, Off, yes, on, y, n, 1_000, 0b101, 2024-01-01, 12:30, nan, inf, 0x, 0o8, 1e, abc, 08]
              big: 18446744073709551616
            """
        let record = try #require(try readAll(text).first)
        #expect(record["null"] == [nil, nil, nil, nil])
        #expect(record["empty"] == .null)
        #expect(record["bool"] == [true, true, true, false, false, false])
        #expect(record["int"] == [0, -7, 12, 31, 15, .int(.max), .int(.min)])
        #expect(record["float"] == [1.5, -0.25, 0.5, 5.0, 1000.0, 1.0e300, .double(-.infinity), .double(.infinity)])
        #expect(
            record["string"] == [
                "no", "Off", "yes", "on", "y", "n", "1_000", "0b101", "2024-01-01", "12:30", "nan", "inf", "0x", "0o8",
                "1e", "abc",
                8,
            ])
        #expect(record["big"] == .double(18_446_744_073_709_551_616))
        let nan = try #require(try readAll("- x: .nan").first?["x"])
        if case .double(let d) = nan { #expect(d.isNaN) } else { Issue.record("expected a double, got \(nan)") }
    }

    @Test("reads quoted scalars as strings and honours core-schema tags")
    func honoursQuotesAndTags() throws {
        let text = """
            - a: 'true'
              b: "12"
              c: !!str 12
              d: !!int "12"
              e: !!float 3
              f: !!bool "false"
              g: !!null ""
              h: ! 12
              i: |
                line one
                line two
              j: !!timestamp 2024-01-01
            """
        #expect(
            try readAll(text) == [
                [
                    "a": "true", "b": "12", "c": "12", "d": 12, "e": 3.0, "f": false, "g": nil, "h": "12",
                    "i": "line one\nline two\n",
                    "j": "2024-01-01",
                ]
            ])
    }

    @Test("refuses unsupported tags and values that do not fit their tag")
    func refusesBadTags() throws {
        let custom = try #require(throws: LarderError.self) { try readAll("- a: !ruby/object 1\n") }
        #expect(custom.code == .syntax)
        #expect(custom.message.contains("unsupported tag !ruby/object"))
        #expect(custom.location?.line == 1 && custom.location?.column == 6)
        let mismatch = try #require(throws: LarderError.self) { try readAll("- a: !!int twelve\n") }
        #expect(mismatch.message == "\"twelve\" is not a valid !!int")
    }

    @Test("turns scalar mapping keys into their text and refuses complex keys")
    func convertsKeys() throws {
        #expect(
            try readAll("- 1: a\n  true: b\n  null: c\n  'q': d\n") == [["1": "a", "true": "b", "null": "c", "q": "d"]])
        let complex = try #require(throws: LarderError.self) { try readAll("- ? [a, b]\n  : c\n") }
        #expect(complex.code == .syntax)
        #expect(complex.message.contains("mapping key must be a scalar"))
        #expect(complex.location?.line == 1 && complex.location?.column == 5)
    }

    // MARK: Anchors, aliases and hostile input

    @Test("resolves anchors and aliases, also across records of one document")
    func resolvesAliases() throws {
        let text = "- base: &b {x: 1, y: [2, 3]}\n  copy: *b\n  k: &k key\n  *k : v\n- again: *b\n"
        #expect(
            try readAll(text) == [
                ["base": ["x": 1, "y": [2, 3]], "copy": ["x": 1, "y": [2, 3]], "k": "key", "key": "v"],
                ["again": ["x": 1, "y": [2, 3]]],
            ])
        let undefined = try #require(throws: LarderError.self) { try readAll("- a: *nope\n") }
        #expect(undefined.code == .syntax)
        #expect(undefined.message.contains("*nope"))
        let otherDocument = try #require(throws: LarderError.self) { try readAll("--- \na: &x 1\n---\nb: *x\n") }
        #expect(otherDocument.location?.line == 4)
    }

    @Test("refuses a billion-laughs alias bomb quickly")
    func refusesAliasBomb() throws {
        var text = "- a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            text += "  a\(level): &a\(level) [\(refs)]\n"
        }
        let error = try #require(throws: LarderError.self) { try readAll(text, name: "bomb.yaml") }
        #expect(error.code == .refusedInput)
        #expect(error.message.hasPrefix("alias expansion exceeds 100000 nodes in one record"))
        #expect(error.location?.file == "bomb.yaml")
        #expect(error.location?.line == 6)
    }

    @Test("refuses nesting deeper than the limit, also when built from aliases")
    func refusesDepthBombs() throws {
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        let error = try #require(throws: LarderError.self) { try readAll("- \(deep)\n") }
        #expect(error.code == .refusedInput)
        #expect(error.message == "nesting deeper than 256 levels")

        let limits = ReaderLimits(maxDepth: 10, maxAliasExpansion: 1000)
        var chain = "- a0: &a0 [1]\n"
        for level in 1...12 { chain += "  a\(level): &a\(level) [*a\(level - 1)]\n" }
        let aliased = try #require(throws: LarderError.self) { try readAll(chain, limits: limits) }
        #expect(aliased.code == .refusedInput)
        #expect(aliased.message.contains("through alias *a"))
        #expect(try readAll("- [[[[1]]]]\n", limits: limits) == [[[[[1]]]]])
    }

    @Test("names a duplicate key with its line and column")
    func refusesDuplicateKeys() throws {
        let error = try #require(throws: LarderError.self) {
            try readAll("- id: a\n  title: x\n  title: y\n", name: "d.yaml")
        }
        #expect(error.code == .syntax)
        #expect(error.description.hasPrefix("d.yaml:3:3: error: record 0: duplicate key \"title\""))
        var wide = "- k0: 0\n"
        for i in 1..<100 { wide += "  k\(i): \(i)\n" }
        let late = try #require(throws: LarderError.self) { try readAll(wide + "  k42: again\n") }
        #expect(late.location?.line == 101)
    }

    // MARK: Errors and locations

    @Test("reports a syntax error with file, line, column, record and a caret")
    func reportsSyntaxErrors() throws {
        let text = "- id: a\n  title: Soup\n- id: b\n  title: \"unclosed\n"
        let error = try #require(throws: LarderError.self) { try readAll(text, name: "bad.yaml") }
        #expect(error.code == .syntax)
        #expect(error.location?.file == "bad.yaml")
        #expect(error.location?.line == 5 && error.location?.column == 1)
        #expect(error.location?.recordIndex == 1)
        #expect(
            error.message.contains(
                "found unexpected end of stream while scanning a quoted scalar that started at line 4, column 10"))

        let indent = "- id: a\n  title: x\n bad: y\n"
        let second = try #require(throws: LarderError.self) { try readAll(indent, name: "i.yaml") }
        #expect(second.description.hasPrefix("i.yaml:3:2: error: record 1: did not find expected '-' indicator"))
        #expect(second.snippet == " bad: y\n ^")

        let colon = try #require(throws: LarderError.self) { try readAll("- a: b: c\n", name: "c.yaml") }
        #expect(
            colon.description
                == "c.yaml:1:7: error: record 0: mapping values are not allowed in this context\n- a: b: c\n      ^")
    }

    @Test("answers truncated or corrupted YAML with a LarderError, never a crash")
    func survivesCorruption() throws {
        var generator = TrickyValueGenerator(seed: 7)
        let text = Array(
            try writeAll(
                (0..<5).map { _ in generator.record() },
                options: WriterOptions(envelope: EnvelopeHeader(schema: "recipe", version: 3))
            ).utf8)
        let noise: [UInt8] = Array(":-[]{}&*!|>'\"%@`#,? \t\n\r".utf8) + [0x00, 0xFF, 0xC3]
        for trial in 0..<300 {
            var bytes = text
            if trial % 3 == 0 {
                bytes.removeSubrange(generator.below(bytes.count)...)
            } else {
                for _ in 0..<(1 + generator.below(4)) {
                    bytes[generator.below(bytes.count)] = noise[generator.below(noise.count)]
                }
            }
            let reader = try YAMLReader(source: MemoryByteSource(bytes))
            do {
                while try reader.next() != nil {}
            } catch let error as LarderError {
                #expect(error.location?.file == "<memory>")
                #expect(try reader.next() == nil)
            }
        }
    }

    @Test("reports invalid UTF-8 with its line")
    func reportsInvalidUTF8() throws {
        let bytes = Array("- a: ok\n- b: ".utf8) + [0xFF, 0x0A]
        let reader = try YAMLReader(source: MemoryByteSource(bytes, name: "u.yaml"))
        let error = try #require(throws: LarderError.self) { while try reader.next() != nil {} }
        #expect(error.code == .syntax)
        #expect(error.location?.line == 2 && error.location?.column == 6)
        #expect(error.message.contains("0xFF"))
        #expect(try reader.next() == nil)
    }

    @Test("maps a field path of the last record back to its line and column")
    func locatesFieldPaths() throws {
        let text = """
            - id: first
            - id: b
              steps:
                - timerSeconds: 1
                  shared: &s [1, 2]
                - copy: *s
                  timerSeconds: "5 min"
              title: Soup
            """
        let reader = try YAMLReader(source: MemoryByteSource(text, name: "b.yaml"))
        _ = try reader.next()
        #expect(reader.location(of: "id") == SourceLocation(file: "b.yaml", line: 1, column: 7, fieldPath: "id"))
        _ = try reader.next()
        #expect(reader.location(of: "steps[1].timerSeconds")?.line == 7)
        #expect(reader.location(of: "steps[1].timerSeconds")?.column == 21)
        #expect(reader.location(of: "steps[0].shared[1]")?.column == 22)
        #expect(reader.location(of: "title")?.line == 8)
        #expect(reader.location(of: "title")?.column == 10)
        #expect(reader.location(of: "steps")?.line == 4)
        #expect(reader.location(of: "missing") == nil)
        #expect(reader.snippet(of: "steps[1].timerSeconds") == "      timerSeconds: \"5 min\"\n                    ^")
    }

    @Test("maps field paths in a single-mapping document")
    func locatesInSingleMapping() throws {
        let reader = try YAMLReader(source: MemoryByteSource("id: a\ningredients:\n  - item: salt\n    quantity: x\n"))
        _ = try reader.next()
        #expect(reader.location(of: "ingredients[0].quantity")?.line == 4)
        #expect(reader.location(of: "ingredients[0].quantity")?.column == 15)
    }

    @Test("streams many records across input refills")
    func streamsAcrossRefills() throws {
        var text = ""
        for i in 0..<5000 { text += "- id: r\(i)\n  note: \(String(repeating: "word ", count: 40))\n" }
        text += "- id: last\n  big: \(String(repeating: "x", count: 600_000))\n"
        let reader = try YAMLReader(source: MemoryByteSource(text))
        var count = 0
        var last: RecordItem?
        while let item = try reader.next() {
            count += 1
            last = item
        }
        #expect(count == 5001)
        #expect(last?.location.line == 10_001)
        #expect(reader.location(of: "big")?.line == 10_002)
    }

    @Test("reads gzip-compressed YAML through RecordIO")
    func readsGzip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("r.yaml.gz")
        let writer = try RecordIO.openWriter(path: path, format: .yaml)
        try writer.write(["id": "a", "answer": "no"])
        try writer.write(["id": "b", "list": []])
        try writer.finish()
        let reader = try RecordIO.openReader(path: path)
        #expect(reader is YAMLReader)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        #expect(values == [["id": "a", "answer": "no"], ["id": "b", "list": []]])
    }

    // MARK: Writing

    @Test("writes a block sequence, or an envelope, with [] {} and null")
    func writesLayouts() throws {
        let records: [Value] = [
            ["id": "a", "tags": [], "extra": [:], "owner": nil, "count": 3, "ok": true],
            ["id": "b", "steps": [["t": 1]]],
        ]
        let written = try writeAll(records)
        #expect(
            written == """
                - id: a
                  tags: []
                  extra: {}
                  owner: null
                  count: 3
                  ok: true
                - id: b
                  steps:
                  - t: 1

                """)
        let envelope = try writeAll(
            [["id": "a"]], options: WriterOptions(envelope: EnvelopeHeader(schema: "recipe", version: 3)))
        #expect(envelope == "schema: recipe\nversion: 3\nrecords:\n- id: a\n")
        #expect(try writeAll([]) == "[]\n")
        #expect(
            try writeAll([], options: WriterOptions(envelope: EnvelopeHeader(schema: "recipe", version: 3)))
                == "schema: recipe\nversion: 3\nrecords: []\n")
    }

    static let ambiguous: [String] = [
        "no", "No", "NO", "Off", "off", "yes", "Yes", "on", "ON", "y", "Y", "n", "N", "~", "null", "Null", "true",
        "False",
        "1e3", "0x10", "0o7", "0b101", "017", "1_000", ".inf", "-.inf", ".NaN", "2024-01-01",
        "2001-12-14 21:59:43.10 -5",
        "12:30", "190:20:30.15", "1.5", "-0", "+1", "=", "<<", "", " ", "  lead", "trail  ", "- dash", "-", "? q",
        ": c",
        "a: b", "a #b", "#c", "[x]", "{y}", "&a", "*a", "!t", "|", ">", "%d", "@at", "`tick", "'single'", "\"double\"",
        "multi\nline", "trailing newline\n", "two trailing\n\n", "\nleading newline", "cr\r\nlf", "lone\rcr",
        "tab\there",
        "\ttab", "trailing space \nnext", "nel\u{85}x", "ls\u{2028}ps\u{2029}", "nul\u{0}x", "bell\u{7}", "bom\u{FEFF}",
        "emoji 😀", "é", "日本語", "x", "---", "...", "a\\b",
    ]

    @Test("quotes every string a YAML 1.1 or 1.2 reader would take for something else, and reads it back")
    func roundTripsAmbiguousStrings() throws {
        let record = Value.object(
            Fields(Self.ambiguous.enumerated().map { Field(key: "k\($0.offset)", value: .string($0.element)) }))
        let keyed = Value.object(
            Fields(Self.ambiguous.enumerated().map { Field(key: $0.element, value: .int(Int64($0.offset))) }))
        let text = try writeAll([record, keyed])
        #expect(text.contains("k0: 'no'\n"))
        #expect(text.contains("k3: 'Off'\n"))
        #expect(text.contains("k19: '0x10'\n"))
        #expect(text.contains("'2024-01-01': "))
        #expect(try readAll(text) == [record, keyed])
    }

    @Test("writes doubles and integers so that they read back exactly")
    func roundTripsNumbers() throws {
        let doubles: [Double] = [
            15.0, 1e300, -1e-300, 0.1, 5e-324, .greatestFiniteMagnitude, 1e16, 123_456.789, -0.0, .infinity, -.infinity,
        ]
        let record: Value = [
            "d": .array(doubles.map(Value.double)), "i": [.int(.max), .int(.min), 0, -1],
        ]
        let text = try writeAll([record])
        #expect(text.contains("- 15.0\n"))
        #expect(text.contains("- 1.0e+300\n"))
        #expect(text.contains("- .inf\n"))
        #expect(text.contains("- -9223372036854775808\n"))
        let back = try #require(try readAll(text).first)
        #expect(back == record)
        guard case .double(let negativeZero)? = back["d"]?.arrayValue?[8] else {
            Issue.record("expected -0.0")
            return
        }
        #expect(negativeZero.sign == .minus)
        let nan = try readAll(try writeAll([["x": .double(.nan)]]))
        if case .double(let d)? = nan.first?["x"] { #expect(d.isNaN) } else { Issue.record("expected NaN back") }
    }

    @Test("write then read returns the same generated records")
    func roundTripsGeneratedRecords() throws {
        var generator = TrickyValueGenerator(seed: 0x5EED)
        let records = (0..<300).map { _ in generator.record() }
        let text = try writeAll(records)
        let back = try readAll(text)
        #expect(back.count == records.count)
        for (index, pair) in zip(back, records).enumerated() where pair.0 != pair.1 {
            Issue.record("record \(index) differs:\n\(pair.1)\nread back as\n\(pair.0)")
            break
        }
        let enveloped = try writeAll(
            records, options: WriterOptions(envelope: EnvelopeHeader(schema: "recipe", version: 3)))
        #expect(try readAll(enveloped) == records)
    }

    @Test("reports a failing sink as an I/O error")
    func reportsSinkErrors() throws {
        final class FailingSink: ByteSink {
            func write(_ bytes: UnsafeRawBufferPointer) throws { throw LarderError(.io, "disk full") }
            func close() throws {}
        }
        let writer = try YAMLWriter(sink: FailingSink())
        let error = try #require(throws: LarderError.self) {
            for i in 0..<10_000 { try writer.write(["id": .int(Int64(i)), "text": "some text to fill the buffer"]) }
            try writer.finish()
        }
        #expect(error.message == "disk full")
    }
}

/// Deterministic random records for round-trip properties: unicode, empty lists and objects,
/// nulls, extreme numbers, long text, and strings YAML would otherwise resolve to other types.
struct TrickyValueGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    private static let words = [
        "salt", "crème brûlée", "日本酒", "🍝", "Ω", "naïve", "x", "tab\tin", "quote's", "\"dq\"", "a: b", "# hash",
    ]

    mutating func string() -> String {
        switch below(6) {
        case 0: return YAMLCodecTests.ambiguous[below(YAMLCodecTests.ambiguous.count)]
        case 1:
            let count = 50 + below(400)
            return (0..<count).map { _ in Self.words[below(Self.words.count)] }.joined(
                separator: below(4) == 0 ? "\n" : " ")
        case 2:
            let scalars = (0..<(1 + below(12))).compactMap { _ -> Character? in
                let ranges: [ClosedRange<UInt32>] = [
                    0x20...0x7E, 0xA0...0x2FF, 0x400...0x4FF, 0x3040...0x30FF, 0x1F300...0x1F64F, 0x0...0x1F,
                ]
                let range = ranges[below(ranges.count)]
                return Unicode.Scalar(range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1)))
                    .map(Character.init)
            }
            return String(scalars)
        default:
            return Self.words[below(Self.words.count)] + (below(2) == 0 ? "" : " \(below(1000))")
        }
    }

    mutating func scalar() -> Value {
        switch below(8) {
        case 0: return .null
        case 1: return .bool(below(2) == 0)
        case 2: return .int([Int64.max, .min, 0, -1, 42, Int64(bitPattern: next())][below(6)])
        case 3:
            let d = Double(bitPattern: next())
            return .double(d.isFinite ? d : [15.0, -0.0, 1e300, 0.1][below(4)])
        default: return .string(string())
        }
    }

    mutating func value(depth: Int) -> Value {
        guard depth < 4 else { return scalar() }
        switch below(10) {
        case 0: return .array((0..<below(4)).map { _ in value(depth: depth + 1) })
        case 1: return object(depth: depth + 1, size: below(4))
        default: return scalar()
        }
    }

    mutating func object(depth: Int, size: Int) -> Value {
        var fields = Fields()
        for _ in 0..<size {
            let key = below(3) == 0 ? string() : "field\(below(30))"
            fields[key] = value(depth: depth)
        }
        return .object(fields)
    }

    mutating func record() -> Value { object(depth: 0, size: 3 + below(12)) }
}
