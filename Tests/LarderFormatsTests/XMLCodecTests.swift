import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@Suite struct XMLCodecTests {
    // MARK: Helpers

    private func reader(
        _ text: String, name: String = "t.xml", recordType: RecordType? = nil, limits: ReaderLimits = .default
    ) throws -> XMLReader {
        try XMLReader(source: MemoryByteSource(text, name: name), recordType: recordType, limits: limits)
    }

    private func readAll(_ text: String, recordType: RecordType? = nil) throws -> [Value] {
        let reader = try reader(text, recordType: recordType)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        return values
    }

    private func xml(_ records: [Value], options: WriterOptions = WriterOptions(recordType: .recipe)) throws -> String {
        let sink = MemoryByteSink()
        let writer = try XMLWriter(sink: sink, options: options)
        for record in records { try writer.write(record) }
        try writer.finish()
        return sink.text
    }

    private let recipeXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <records schema="recipe" version="3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:larder="urn:larder:xml">
          <recipe>
            <id>r1</id>
            <title>Eggs</title>
            <tags>a</tags>
            <tags>b</tags>
            <ingredients>
              <quantity>2</quantity>
              <item>eggs</item>
            </ingredients>
            <servings>4</servings>
          </recipe>
          <recipe>
            <id>r2</id>
            <title>Toast</title>
            <tags>solo</tags>
          </recipe>
        </records>
        """

    // MARK: Layouts

    @Test("reads the envelope, its header and every record")
    func readsEnvelope() throws {
        let reader = try reader(recipeXML)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        #expect(reader.header == EnvelopeHeader(schema: "recipe", version: 3))
        #expect(
            values == [
                [
                    "id": "r1", "title": "Eggs", "tags": ["a", "b"], "ingredients": [["quantity": 2, "item": "eggs"]],
                    "servings": 4,
                ],
                ["id": "r2", "title": "Toast", "tags": ["solo"]],
            ])
    }

    @Test("reads <records> without a schema, typing records by their element names")
    func readsEnvelopeWithoutSchema() throws {
        let reader = try reader(
            "<records><brewLog><id>l1</id><rating>5</rating><doseGrams>15</doseGrams></brewLog></records>")
        let item = try #require(try reader.next())
        #expect(item.value == ["id": "l1", "rating": 5, "doseGrams": 15])
        #expect(reader.header == EnvelopeHeader(schema: "brewLog", version: nil))
        #expect(try reader.next() == nil)
    }

    @Test("reads a document whose root is a single record")
    func readsSingleRecordDocument() throws {
        let reader = try reader("<recipe><id>r1</id><servings>2</servings><isPublic>1</isPublic></recipe>")
        #expect(try reader.next()?.value == ["id": "r1", "servings": 2, "isPublic": true])
        #expect(try reader.next() == nil)
        #expect(reader.header == nil)
    }

    @Test("reads an empty envelope and an empty input as no records")
    func readsEmptyInputs() throws {
        #expect(try readAll("<records schema=\"recipe\" version=\"3\"/>") == [])
        #expect(try readAll("<records></records>") == [])
        #expect(try readAll("") == [])
        #expect(try readAll("  \n") == [])
    }

    // MARK: Typing

    @Test("types text by the record type's shape")
    func typesByShape() throws {
        let values = try readAll(
            """
            <records><recipe>
              <prepTime> 15 </prepTime><isPublic>true</isPublic><isSaved>0</isSaved>
              <ingredients><quantity>15</quantity><quantityMax>15.0</quantityMax><item>x</item></ingredients>
              <ingredients><quantity>1e3</quantity><item>y</item></ingredients>
              <ingredients><quantity>9223372036854775807</quantity><item>z</item></ingredients>
              <title>  spaced  </title><cuisine></cuisine><ownerID/><sourceURL>0x10</sourceURL>
            </recipe></records>
            """)
        #expect(
            values == [
                [
                    "prepTime": 15, "isPublic": true, "isSaved": false,
                    "ingredients": [
                        ["quantity": 15, "quantityMax": .double(15), "item": "x"],
                        ["quantity": .double(1000), "item": "y"],
                        ["quantity": .int(Int64.max), "item": "z"],
                    ],
                    "title": "  spaced  ", "cuisine": "", "ownerID": "", "sourceURL": "0x10",
                ]
            ])
    }

    @Test("reads a one-element list as a list and unknown fields as strings, objects and arrays")
    func typesListsAndUnknownFields() throws {
        let values = try readAll(
            """
            <records schema="recipe"><recipe>
              <tags>only</tags>
              <extra>7</extra><nested><a>1</a><b>x</b></nested><twice>1</twice><twice>2</twice>
            </recipe></records>
            """)
        #expect(values == [["tags": ["only"], "extra": "7", "nested": ["a": "1", "b": "x"], "twice": ["1", "2"]]])
    }

    @Test("keeps text that does not fit its shape as a string for the record check")
    func keepsMisfitText() throws {
        let values = try readAll("<recipe><prepTime>5 min</prepTime><isPublic>yes</isPublic></recipe>")
        #expect(values == [["prepTime": "5 min", "isPublic": "yes"]])
        #expect(throws: LarderError.self) { try Recipe(value: values[0]) }
    }

    @Test("reads attributes of record and field elements as fields")
    func readsAttributesAsFields() throws {
        let values = try readAll("<records><recipe id=\"r9\" servings=\"3\"><title>T</title></recipe></records>")
        #expect(values == [["id": "r9", "servings": 3, "title": "T"]])
        let escaped = try readAll("<recipe id=\"a&amp;b &lt;&#38;&#65;&amp;#38;\" title=\"x&#10;y&#13;\"/>")
        #expect(escaped == [["id": "a&b <&A&#38;", "title": "x\ny\r"]])
        let reader = try reader("<records schema=\"r&amp;d\"><x/></records>")
        _ = try reader.next()
        #expect(reader.header?.schema == "r&d")
    }

    @Test("groups repeated elements that are not adjacent, in order of first appearance")
    func groupsNonAdjacentRepeats() throws {
        let text = "<recipe>\n<tags>a</tags>\n<title>T</title>\n<tags>b</tags>\n</recipe>"
        let reader = try reader(text)
        let item = try #require(try reader.next())
        #expect(item.value == ["tags": ["a", "b"], "title": "T"])
        #expect(reader.location(of: "tags[1]")?.line == 4)
        #expect(reader.location(of: "title")?.line == 3)
    }

    @Test("a shape resolver receives the declared version and types with the shape it returns")
    func resolvesShapeByVersion() throws {
        var asked: [String] = []
        let reader = try XMLReader(
            source: MemoryByteSource("<records schema=\"recipe\" version=\"1\"><recipe><n>4</n></recipe></records>")
        ) {
            element, header in
            asked.append("\(element)@\(header?.version ?? 0)")
            return .object(["n": .integer])
        }
        #expect(try reader.next()?.value == ["n": 4])
        #expect(asked == ["recipe@1"])
        let fixed = try XMLReader(source: MemoryByteSource("<x><n>4.5</n></x>"), shape: .object(["n": .number]))
        #expect(try fixed.next()?.value == ["n": 4.5])
    }

    // MARK: Round trips

    @Test("JSON → XML → JSON returns generated model records exactly", arguments: RecordType.allCases)
    func roundTripsModelRecords(type: RecordType) throws {
        var generator = AwkwardRecordGenerator(seed: 7)
        let originals = (0..<60).map { generator.value(of: type, index: $0) }
        // Through JSON text first, so the XML side starts from what a JSON file holds.
        let json = try originals.map { try JSONWriter.string($0) }.joined(separator: "\n")
        let jsonReader = JSONReader(source: MemoryByteSource(json), lineMode: true)
        var fromJSON: [Value] = []
        while let item = try jsonReader.next() { fromJSON.append(item.value) }
        #expect(fromJSON == originals)

        let text = try xml(
            fromJSON,
            options: WriterOptions(envelope: EnvelopeHeader(schema: type.rawValue, version: type.currentVersion)))
        let back = try readAll(text)
        #expect(back.count == originals.count)
        for (original, read) in zip(originals, back) {
            #expect(read == original)
            #expect(try type.decode(read).value == type.decode(original).value)
            // And back to the same JSON text.
            #expect(try JSONWriter.string(read) == JSONWriter.string(original))
        }
    }

    @Test("keeps integers integers and doubles doubles in number fields")
    func keepsNumberKinds() throws {
        let records: [Value] = [
            ["doseGrams": 15, "targetYieldGrams": 15.0, "waterTemperatureCelsius": 1e300, "rating": 5],
            ["doseGrams": .double(0.1 + 0.2), "targetYieldGrams": .double(5e-324), "waterTemperatureCelsius": -0.5],
            ["doseGrams": .int(-9_223_372_036_854_775_807), "targetYieldGrams": .double(1e16)],
        ]
        let text = try xml(records, options: WriterOptions(recordType: .brewLog))
        #expect(try readAll(text) == records)
    }

    @Test(
        "round-trips tricky strings exactly",
        arguments: [
            "no", "Off", "1e3", "~", "0x10", "2024-01-01", "true", "null", "15", "15.0", "",
            "  leading and trailing  ", " ", "\r\n", "a\rb\r", "line1\nline2\n", "tab\there", "<tag>&amp;</tag>", "]]>",
            "\"quotes\" 'apos'", "émoji 😀 中文 עברית", "\u{7F}\u{85}\u{2028}",
            String(repeating: "long text ", count: 5000),
        ])
    func roundTripsTrickyStrings(text: String) throws {
        let record: Value = ["id": "r1", "title": .string(text), "tags": [.string(text), "x"]]
        #expect(try readAll(xml([record])) == [record])
    }

    // MARK: Writer

    @Test("writes the envelope, one element per field and repeated elements for lists")
    func writesLayout() throws {
        // Reading the sample layout and writing it back gives the same text.
        let header = EnvelopeHeader(schema: "recipe", version: 3)
        let written = try xml(try readAll(recipeXML), options: WriterOptions(envelope: header, recordType: .recipe))
        #expect(written == recipeXML + "\n")
        // Null and an empty list are marked; an empty object is one empty element.
        let text = try xml([["id": "r1", "empty": [], "gone": nil, "o": [:]]])
        #expect(
            text.hasSuffix(
                "<recipe>\n    <id>r1</id>\n    <empty larder:empty=\"true\"/>\n    <gone xsi:nil=\"true\"/>\n"
                    + "    <o/>\n  </recipe>\n</records>\n"))
    }

    @Test("round-trips nulls and empty lists, in fields, lists and unknown fields")
    func roundTripsNullsAndEmptyLists() throws {
        let record: Value = [
            "id": "r1", "tags": [], "note": nil, "ingredients": [["item": "x", "unit": nil]],
            "dietaryNotes": ["a", nil, "b"], "extra": [], "gone": nil,
        ]
        #expect(try readAll(xml([record])) == [record])
        // Another producer's XML without the namespaces reads as before, attributes as fields.
        #expect(try readAll("<recipe nil=\"true\"><tags>a</tags></recipe>") == [["nil": "true", "tags": ["a"]]])
    }

    @Test(
        "the null and empty-list marks: only in their namespaces, true or 1 (trimmed) marks, other values mark nothing")
    func readsMarkAttributes() throws {
        let namespaces = "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:larder=\"urn:larder:xml\""
        let text = """
            <records \(namespaces) xmlns:o="urn:other" xmlns:x="http://www.w3.org/2001/XMLSchema-instancex">
            <recipe><id>r1</id><a xsi:nil=" 1 "/><b xsi:nil="false"/><tags larder:empty="1"/>
            <c larder:empty="yes"/><d o:nil="true"/><e x:nil="true"/><f larder:nil="true"/><g xsi:empty="true"/></recipe>
            </records>
            """
        let expected: Value = [
            "id": "r1", "a": nil, "b": "", "tags": [], "c": "", "d": ["o:nil": "true"], "e": ["x:nil": "true"],
            "f": ["larder:nil": "true"], "g": ["xsi:empty": "true"],
        ]
        #expect(try readAll(text) == [expected])
    }

    @Test("escapes markup characters and carriage returns")
    func escapesText() throws {
        let text = try xml([["title": "a<b>&c\r\nd\te"]])
        #expect(text.contains("<title>a&lt;b&gt;&amp;c&#13;\nd\te</title>"))
    }

    @Test("refuses a record holding a control character, naming the field, and writes nothing of it")
    func refusesControlCharacters() throws {
        let sink = MemoryByteSink()
        let writer = try XMLWriter(sink: sink, options: WriterOptions(recordType: .recipe))
        try writer.write(["id": "ok"])
        let error = try #require(throws: LarderError.self) {
            try writer.write(["id": "bad", "instructions": [["text": "fine"], ["text": "bell\u{07}"]]])
        }
        #expect(error.code == .unrepresentable)
        #expect(error.location?.fieldPath == "instructions[1].text")
        #expect(error.message.contains("U+0007"))
        try writer.finish()
        #expect(!sink.text.contains("bad"))
        #expect(try readAll(sink.text) == [["id": "ok"]])
    }

    @Test("refuses field names that are not XML names")
    func refusesUnrepresentableStructure() throws {
        let writer = try XMLWriter(sink: MemoryByteSink(), options: WriterOptions(recordType: .recipe))
        let badName = try #require(throws: LarderError.self) { try writer.write(["my field": 1]) }
        #expect(badName.code == .unrepresentable)
        #expect(badName.location?.fieldPath == "my field")

        try writer.write(["ünïcode_name": 1])
    }

    // MARK: Hostile input

    @Test("refuses an external entity (XXE) without reading the file")
    func refusesXXE() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE records [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
            <records><recipe><title>&xxe;</title></recipe></records>
            """
        let error = try #require(throws: LarderError.self) { try readAll(text) }
        #expect(error.code == .refusedInput)
        #expect(error.location?.file == "t.xml")
        #expect(error.location?.line == 2)
        #expect(error.location?.column != nil)
        #expect(!error.description.contains("root:"))
    }

    @Test("refuses entity expansion (billion laughs)")
    func refusesBillionLaughs() throws {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for i in 1...9 {
            let previous = i == 1 ? "lol" : "lol\(i - 1)"
            text += "<!ENTITY lol\(i) \"\(String(repeating: "&\(previous);", count: 10))\">\n"
        }
        text += "]>\n<records><recipe><title>&lol9;</title></recipe></records>\n"
        let error = try #require(throws: LarderError.self) { try readAll(text) }
        #expect(error.code == .refusedInput)
        #expect(error.location?.line == 2)
    }

    @Test("does not fetch an external DTD, local or remote")
    func refusesExternalDTD() throws {
        let directory = try TemporaryDirectory()
        let dtd = try directory.write("evil.dtd", "<!ENTITY leak \"LEAKED\">")
        for system in [dtd, "http://127.0.0.1:9/evil.dtd"] {
            let text =
                "<?xml version=\"1.0\"?>\n<!DOCTYPE records SYSTEM \"\(system)\">\n"
                + "<records><recipe><title>&leak;</title></recipe></records>"
            let reader = try reader(text)
            let error = try #require(throws: LarderError.self) { try reader.next() }
            #expect(error.code == .refusedInput)
            #expect(!reader.canRecover)
            #expect(try reader.next() == nil)
        }
    }

    @Test("refuses references to undeclared entities")
    func refusesEntityReferences() throws {
        let error = try #require(throws: LarderError.self) {
            try readAll("<records>\n<recipe><title>&nope;</title></recipe></records>")
        }
        #expect(error.code == .refusedInput)
        #expect(error.location?.line == 2)
        // The five predefined entities and character references are fine.
        #expect(
            try readAll("<recipe><title>&lt;&gt;&amp;&apos;&quot;&#233;&#x41;</title></recipe>") == [
                ["title": "<>&'\"éA"]
            ])
    }

    @Test("refuses nesting deeper than the limit and goes on with the next record")
    func refusesDeepNesting() throws {
        let deep = String(repeating: "<a>", count: 10) + "x" + String(repeating: "</a>", count: 10)
        let reader = try reader(
            "<records><recipe>\(deep)</recipe><recipe><id>r2</id></recipe></records>",
            limits: ReaderLimits(maxDepth: 5, maxAliasExpansion: 10))
        let error = try #require(throws: LarderError.self) { try reader.next() }
        #expect(error.code == .refusedInput)
        #expect(reader.canRecover)
        #expect(try reader.next()?.value == ["id": "r2"])
        // Past libxml2's own limit of 256 levels the input itself is refused.
        let deeper = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        let refused = try #require(throws: LarderError.self) {
            try readAll("<records><recipe>\(deeper)</recipe></records>")
        }
        #expect(refused.code == .refusedInput)
        #expect(refused.message.contains("256"))
    }

    @Test("rejects a record mixing text with elements and goes on with the next")
    func rejectsMixedContent() throws {
        let reader = try reader(
            "<records>\n<recipe><title>T<b>bold</b></title></recipe>\n<recipe><id>r2</id></recipe></records>")
        let error = try #require(throws: LarderError.self) { try reader.next() }
        #expect(error.code == .malformedRecord)
        #expect(error.location?.line == 2)
        #expect(error.location?.recordIndex == 0)
        #expect(reader.canRecover)
        let item = try #require(try reader.next())
        #expect(item.value == ["id": "r2"])
        #expect(item.index == 1)
    }

    // MARK: Malformed input

    @Test("reports a truncated file as a syntax error with its line, after the records before it")
    func reportsTruncation() throws {
        let reader = try reader("<records>\n<recipe><id>r1</id></recipe>\n<recipe>\n<id>r2</i", name: "cut.xml")
        #expect(try reader.next()?.value == ["id": "r1"])
        let error = try #require(throws: LarderError.self) { try reader.next() }
        #expect(error.code == .syntax)
        #expect(error.location?.file == "cut.xml")
        #expect(error.location?.line == 4)
        #expect(error.location?.recordIndex == 1)
        #expect(error.description.hasPrefix("cut.xml:4:"))
        #expect(!reader.canRecover)
        #expect(try reader.next() == nil)
    }

    @Test("reports mismatched tags with line and column")
    func reportsMismatchedTags() throws {
        let error = try #require(throws: LarderError.self) {
            try readAll("<records>\n  <recipe><id>r1</title></recipe>\n</records>")
        }
        #expect(error.code == .syntax)
        #expect(error.location?.line == 2)
        #expect(error.location?.column != nil)
    }

    @Test("rejects text outside any record")
    func rejectsStrayText() throws {
        let reader = try reader("<records>stray<recipe><id>r1</id></recipe></records>")
        #expect(throws: LarderError.self) { try reader.next() }
        #expect(reader.canRecover)
        #expect(try reader.next()?.value == ["id": "r1"])
    }

    @Test("refuses a version attribute that is not an integer")
    func refusesBadVersion() throws {
        let error = try #require(throws: LarderError.self) {
            try readAll("<records version=\"three\"><recipe/></records>")
        }
        #expect(error.code == .syntax)
    }

    // MARK: Locations and streaming

    @Test("maps a field path back to the line and column of its element")
    func locatesFieldPaths() throws {
        let text = try xml([Recipe.make().value, Recipe.make(id: "r-2").value])
        let reader = try reader(text, name: "r.xml")
        _ = try reader.next()
        let second = try #require(try reader.next())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let recordLine = try #require(lines.indices.filter { lines[$0].contains("<recipe>") }.last) + 1
        #expect(second.location.line == recordLine)
        #expect(second.location.column == 3)
        let timer = try #require(reader.location(of: "instructions[0].timerSeconds"))
        #expect(lines[timer.line! - 1].contains("<timerSeconds>540</timerSeconds>"))
        #expect(timer.column == 7)
        #expect(timer.line! > recordLine)
        let tag = try #require(reader.location(of: "tags[0]"))
        #expect(lines[tag.line! - 1].contains("<tags>italian</tags>"))
        #expect(reader.location(of: "nope") == nil)
    }

    @Test("shows the source line of a field, and of a syntax error, with a caret")
    func showsSnippets() throws {
        let text =
            "<records>\n  <recipe>\n    <id>a</id>\n    <prepTime>5 min</prepTime>\n  </recipe>\n"
            + "  <recipe>\n    <id>b</oops>\n"
        let reader = try reader(text)
        _ = try reader.next()
        #expect(reader.snippet(of: "prepTime") == "    <prepTime>5 min</prepTime>\n    ^")
        let error = try #require(throws: LarderError.self) { try reader.next() }
        #expect(error.snippet == "    <id>b</oops>\n                ^")
    }

    @Test("names the open element when the input ends early")
    func namesOpenElementAtEnd() throws {
        let error = try #require(throws: LarderError.self) { try readAll("<records>\n<recipe>\n<title>Half") }
        #expect(error.message.contains("unexpected end of input inside <title>"))
        #expect(error.location?.line == 3)
    }

    @Test("a record over the record size limit is refused by name and index, and the next record is read")
    func recordSizeLimit() throws {
        let big = String(repeating: "stir and wait. ", count: 10_000)  // 150 KB of text
        let text = """
            <records><recipe><title>Soup</title></recipe><recipe><title>Stew</title><notes>\(big)</notes></recipe>\
            <recipe><title>Salad</title></recipe></records>
            """
        var limits = ReaderLimits.default
        limits.maxRecordSize = 64 << 10
        let reader = try reader(text, name: "big.xml", limits: limits)
        #expect(try reader.next()?.value["title"] == "Soup")
        let error = try #require(throws: LarderError.self) { try reader.next() }
        #expect(error.code == .refusedInput)
        #expect(error.message.contains("record size limit of 64 KiB"))
        #expect(error.location?.file == "big.xml")
        #expect(error.location?.recordIndex == 1)
        #expect(try reader.next()?.value["title"] == "Salad")
        // Many small elements count too (16 bytes each), not only text.
        let many = "<records><recipe>" + String(repeating: "<t/>", count: 5_000) + "</recipe></records>"
        #expect(throws: LarderError.self) { try self.reader(many, limits: limits).next() }
        // Under the limit, the same record reads.
        #expect(try self.reader(text).next() != nil)
    }

    @Test("streams records larger than the read chunk")
    func streamsLargeRecords() throws {
        let big = String(repeating: "x", count: 3_000_000)
        let values = try readAll(try xml([["title": .string(big)], ["title": "y"]]))
        #expect(values == [["title": .string(big)], ["title": "y"]])
    }

    @Test("reads gzip-compressed XML through RecordIO, sniffing the format")
    func readsGzipThroughRecordIO() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("recipes.data.gz")
        let writer = try RecordIO.openWriter(
            path: path, format: .xml, options: WriterOptions(envelope: EnvelopeHeader(schema: "recipe", version: 3)))
        let recipes = (0..<50).map { Recipe.make(id: "r-\($0)") }
        for recipe in recipes { try writer.write(recipe.value) }
        try writer.finish()
        let reader = try RecordIO.openReader(path: path)
        var decoded: [Recipe] = []
        while let item = try reader.next() { decoded.append(try Recipe(value: item.value)) }
        #expect(decoded == recipes)
        #expect(reader.header == EnvelopeHeader(schema: "recipe", version: 3))
    }
}

/// Deterministic model records with awkward content: unicode, long text, large numbers, and
/// strings other formats would read as something else.
struct AwkwardRecordGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    private mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    private static let awkward = [
        "no", "Off", "1e3", "~", "0x10", "2024-01-01", "true", "null", "15", "  padded  ", "\r\n", "a\rb",
        "tab\tand\nnewline", "<b>&amp;</b>", "]]>", "\"q\" 'a'", "crème brûlée", "😀🍳", "中文", "", " ",
    ]

    private mutating func text() -> String {
        switch int(0...9) {
        case 0: return String(repeating: "Stir gently. ", count: int(50...400))
        case 1...4: return AwkwardRecordGenerator.awkward[int(0...AwkwardRecordGenerator.awkward.count - 1)]
        default: return "Text \(int(0...1_000_000)) ünïcödé"
        }
    }

    private mutating func double() -> Double {
        switch int(0...5) {
        case 0: return 15.0
        case 1: return 1e300
        case 2: return 0.1 + 0.2
        case 3: return Double(int(1...500)) / 4
        case 4: return 5e-324
        default: return Double(int(0...100_000))
        }
    }

    private mutating func date() -> Date { Date(timeIntervalSince1970: Double(int(0...2_000_000_000))) }

    mutating func value(of type: RecordType, index: Int) -> Value {
        switch type {
        case .recipe: return recipe(index).value
        case .brewRecipe: return brewRecipe(index).value
        case .brewLog: return brewLog(index).value
        }
    }

    private mutating func recipe(_ index: Int) -> Recipe {
        let ingredients = (0..<int(0...5)).map { _ in
            Ingredient(
                quantity: chance(70) ? double() : nil, quantityMax: chance(20) ? double() : nil,
                unit: chance(50) ? "g" : nil,
                item: text(), note: chance(30) ? text() : nil, original: text())
        }
        let steps = (0..<int(0...4)).map { _ in
            InstructionStep(text: text(), timerSeconds: chance(50) ? int(0...Int(Int32.max)) : nil)
        }
        let created = date()
        return Recipe(
            id: "r-\(index)", title: text(), ingredients: ingredients, instructions: steps, createdAt: created,
            updatedAt: created.addingTimeInterval(Double(int(0...100_000))), ownerID: chance(50) ? text() : nil,
            imageRef: chance(20) ? "img/\(index).jpg" : nil, cuisine: chance(50) ? text() : nil,
            difficulty: chance(50) ? .hard : nil, prepTime: chance(50) ? int(0...Int.max / 2) : nil,
            cookTime: chance(50) ? int(0...300) : nil,
            servings: chance(50) ? int(1...12) : nil, dietaryNotes: (0..<int(0...2)).map { _ in text() },
            tags: (0..<int(0...3)).map { _ in text() }, isPublic: chance(50),
            sourceURL: chance(30) ? "https://example.com/?a=1&b=2" : nil,
            isSaved: chance(50), isCreated: chance(50), isFavorited: chance(50),
            sync: SyncMetadata(
                recordName: chance(50) ? "recipe-\(index)" : nil, isCloudEnabled: chance(80),
                changeTag: chance(50) ? text() : nil))
    }

    private mutating func brewRecipe(_ index: Int) -> BrewRecipe {
        BrewRecipe(
            id: "b-\(index)", name: text(), method: BrewMethod.allCases[int(0...BrewMethod.allCases.count - 1)],
            isStarter: chance(10),
            origin: .custom, doseGrams: double(), targetYieldGrams: double(),
            waterTemperatureCelsius: chance(50) ? double() : nil,
            grindLabel: chance(50) ? .mediumFine : nil,
            steps: (0..<int(1...5)).map { order in
                BrewStep(
                    order: order, instruction: text(), timerSeconds: int(0...600),
                    waterGrams: chance(50) ? double() : nil)
            },
            createdAt: date())
    }

    private mutating func brewLog(_ index: Int) -> BrewLog {
        BrewLog(
            id: "l-\(index)", recipeNameAtBrew: text(), doseGrams: double(), targetYieldGrams: double(),
            waterTemperatureCelsius: chance(50) ? double() : nil, rating: int(1...5),
            tasteTags: (0..<int(0...3)).map { _ in TasteTag.allCases[int(0...TasteTag.allCases.count - 1)] },
            brewTimeSeconds: chance(50) ? int(0...1000) : nil, note: chance(70) ? text() : nil, createdAt: date(),
            recipeID: chance(50) ? "b-\(index)" : nil)
    }
}
