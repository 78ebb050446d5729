import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

/// recipe v4, brewLog v3 and brewRecipe v2 records, fully populated, through every codec.
@Suite struct RecordV4FormatTests {
    private static func write(_ records: [Value], as format: DataFormat, type: RecordType) throws -> [UInt8] {
        let memory = MemoryByteSink()
        let header = EnvelopeHeader(schema: type.rawValue, version: type.currentVersion)
        let writer = try RecordIO.makeWriter(
            sink: memory, format: format,
            options: WriterOptions(envelope: format == .ndjson ? nil : header, recordType: type))
        for record in records { try writer.write(record) }
        try writer.finish()
        return memory.bytes
    }

    private static func read(_ bytes: [UInt8], type: RecordType) throws -> [Value] {
        let reader = try RecordIO.openReader(source: MemoryByteSource(bytes, name: "t"), recordType: type)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        return values
    }

    @Test(
        "a fully populated v4 recipe comes back equal through JSON, NDJSON, YAML and XML",
        arguments: DataFormat.allCases)
    func recipeRoundTrip(format: DataFormat) throws {
        let recipes = [Recipe.makeFull(), Recipe.make()]
        let back = try Self.read(try Self.write(recipes.map(\.value), as: format, type: .recipe), type: .recipe)
        #expect(try back.map(Recipe.init(value:)) == recipes, "\(format)")
    }

    @Test(
        "a fully populated v3 brew log and v2 brew recipe come back equal through every format",
        arguments: DataFormat.allCases)
    func brewRoundTrip(format: DataFormat) throws {
        let logs = [BrewLog.makeFull(), BrewLog.make()]
        let backLogs = try Self.read(try Self.write(logs.map(\.value), as: format, type: .brewLog), type: .brewLog)
        #expect(try backLogs.map(BrewLog.init(value:)) == logs, "\(format)")
        let recipes = [BrewRecipe.makeFull(), BrewRecipe.v60Starter()]
        let backRecipes = try Self.read(
            try Self.write(recipes.map(\.value), as: format, type: .brewRecipe), type: .brewRecipe)
        #expect(try backRecipes.map(BrewRecipe.init(value:)) == recipes, "\(format)")
    }

    @Test("the XML of a v4 recipe holds its sections, extras and empty lists the way the writer marks them")
    func xmlLayout() throws {
        let xml = String(
            decoding: try Self.write([Recipe.makeFull().value, Recipe.make().value], as: .xml, type: .recipe),
            as: UTF8.self)
        #expect(xml.contains("<records schema=\"recipe\" version=\"4\""))
        #expect(xml.contains("<group>Sauce</group>") && xml.contains("<name>Sauce</name>"))
        #expect(xml.contains("<extras>\n      <paprika>\n        <hash>e3b0c44298fc</hash>"))
        #expect(xml.contains("<notes larder:empty=\"true\"/>"))
    }
}
