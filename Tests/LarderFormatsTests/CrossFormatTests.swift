import Foundation
import LarderCore
import LarderFormats
import LarderSamples
import LarderTestSupport
import Testing

/// Properties that hold across every codec: lossless round trips and the layout matrix.
@Suite struct CrossFormatTests {
    /// Strings that a YAML reader would take for something else, or that XML and JSON must escape.
    static let awkwardStrings = [
        "no", "Off", "yes", "ON", "y", "n", "~", "null", "true", "1e3", "0x10", "0o17", ".inf", "-.nan", "2024-01-01",
        "12:30", "", " leading space", "trailing space ", "multi\nline\n", "windows\r\nline", "tab\there",
        "quote \" and backslash \\", "<tag attr=\"v\">&amp;</tag>", "# not a comment", "- not a list", "key: value",
        "☕️ 寿司 🍣 Ünïcödé", "'single'", "@at", "`tick`", "%percent", "!bang", "*star", "&anchor", "{brace}", "[bracket]",
    ]

    /// Records of every type with awkward strings, empty lists, absent optionals, large numbers and long text.
    static func adversarialRecords(seed: UInt64) -> [Value] {
        var g = SeededGenerator(seed: seed)
        func pick(_ list: [String]) -> String { list[Int(g.next() % UInt64(list.count))] }
        var records: [Value] = []
        let generator = RecordGenerator(seed: seed)
        for index in 0..<12 {
            var recipe = generator.recipe(index)
            recipe.title = pick(awkwardStrings) + (index % 2 == 0 ? "" : " " + pick(awkwardStrings))
            if recipe.title.isEmpty { recipe.title = "x" }
            recipe.cuisine = index % 3 == 0 ? nil : pick(awkwardStrings)
            recipe.tags = index % 4 == 0 ? [] : [pick(awkwardStrings), pick(awkwardStrings)]
            recipe.dietaryNotes = []
            recipe.prepTime = index % 5 == 0 ? Int(Int64.max) : recipe.prepTime
            recipe.cookTime = index % 5 == 1 ? nil : recipe.cookTime
            if index % 3 == 1 {
                recipe.ingredients[0].quantity = 1e300
                recipe.ingredients[0].note = String(repeating: "long text ✓ ", count: 2_000)
            }
            if index % 3 == 2 { recipe.ingredients[0].quantity = 0.1 + 0.2 }
            recipe.instructions[0].text = pick(awkwardStrings) + "."
            records.append(recipe.value)
        }
        for index in 0..<6 {
            var brew = generator.brewRecipe(index)
            brew.name = pick(awkwardStrings) + "!"
            records.append(brew.value)
            var log = generator.brewLog(index)
            log.note = index % 2 == 0 ? nil : pick(awkwardStrings)
            log.tasteTags = index % 3 == 0 ? [] : log.tasteTags
            records.append(log.value)
        }
        return records
    }

    private static func write(
        _ records: [Value], as format: DataFormat, type: RecordType?, gzip: Bool = false, envelope: Bool = false
    ) throws -> [UInt8] {
        let memory = MemoryByteSink()
        let sink: any ByteSink = gzip ? try GzipWriter(memory) : memory
        let header = type.map { EnvelopeHeader(schema: $0.rawValue, version: $0.currentVersion) }
        let writer = try RecordIO.makeWriter(
            sink: sink, format: format,
            options: WriterOptions(envelope: envelope || format == .xml ? header : nil, recordType: type))
        for record in records { try writer.write(record) }
        try writer.finish()
        return memory.bytes
    }

    private static func read(_ bytes: [UInt8], type: RecordType?) throws -> [Value] {
        let reader = try RecordIO.openReader(source: MemoryByteSource(bytes, name: "t"), recordType: type)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        return values
    }

    /// Each type's records as typed models, the form "the same records" is judged in.
    private static func models(_ values: [Value], _ type: RecordType) throws -> [AnyHashable] {
        try values.map { AnyHashable(try type.decode($0)) }
    }

    @Test("JSON → YAML → XML → JSON returns the same records", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func roundTripThroughEveryFormat(seed: UInt64) throws {
        let all = Self.adversarialRecords(seed: seed)
        for type in RecordType.allCases {
            let records = all.filter { RecordType.guess(from: $0) == type }
            let fromJSON = try Self.read(try Self.write(records, as: .json, type: type), type: type)
            let fromYAML = try Self.read(try Self.write(fromJSON, as: .yaml, type: type), type: type)
            let fromXML = try Self.read(try Self.write(fromYAML, as: .xml, type: type), type: type)
            let back = try Self.read(try Self.write(fromXML, as: .json, type: type), type: type)
            #expect(try Self.models(back, type) == Self.models(records, type), "type \(type)")
            #expect(fromYAML == records, "YAML keeps values exactly, type \(type)")
        }
    }

    @Test("every format × gzip × envelope layout reads back what was written", arguments: DataFormat.allCases)
    func layoutMatrix(format: DataFormat) throws {
        let records = Self.adversarialRecords(seed: 9).filter { RecordType.guess(from: $0) == .brewLog }
        for gzip in [false, true] {
            for envelope in [false, true] where !(envelope && format == .ndjson) {
                let bytes = try Self.write(records, as: format, type: .brewLog, gzip: gzip, envelope: envelope)
                if gzip { #expect(bytes.prefix(2) == [0x1f, 0x8b]) }
                let back = try Self.read(bytes, type: .brewLog)
                #expect(
                    try Self.models(back, .brewLog) == Self.models(records, .brewLog),
                    "\(format) gzip=\(gzip) envelope=\(envelope)")
            }
        }
    }

    @Test("the envelope header survives every format that carries one", arguments: [DataFormat.json, .yaml, .xml])
    func envelopeHeaderSurvives(format: DataFormat) throws {
        let bytes = try Self.write([BrewLog.make().value], as: format, type: .brewLog, envelope: true)
        let reader = try RecordIO.openReader(source: MemoryByteSource(bytes, name: "t"))
        while try reader.next() != nil {}
        #expect(reader.header == EnvelopeHeader(schema: "brewLog", version: RecordType.brewLog.currentVersion))
    }

    @Test("format sniffing finds every format, compressed or not", arguments: DataFormat.allCases)
    func sniffing(format: DataFormat) throws {
        let records = [BrewLog.make(id: "a").value, BrewLog.make(id: "b").value]
        for gzip in [false, true] {
            let bytes = try Self.write(records, as: format, type: .brewLog, gzip: gzip)
            let (_, detected) = try RecordIO.sniff(MemoryByteSource(bytes))
            #expect(detected == format, "gzip=\(gzip)")
        }
    }
}
