import LarderCore
import Testing

@testable import LarderFormats

@Suite struct JSONWriterTests {
    @Test(
        "a number JSON cannot hold (NaN, ±infinity) is refused at its field path, and nothing of the record is written")
    func nonFiniteNumberNamesItsField() throws {
        let sink = MemoryByteSink()
        let writer = JSONWriter(sink: sink, lineMode: true)
        try writer.write(["id": "ok"])
        for (record, path) in [
            (["id": "r1", "prepTime": .double(.infinity)] as Value, "prepTime"),
            (["id": "r2", "extras": ["plain": ["a": 1, "b": [2.5, .double(-.infinity)]]]], "extras.plain.b[1]"),
            (["id": "r3", "ingredients": [["quantity": .double(.nan)]]], "ingredients[0].quantity"),
        ] {
            let error = try #require(throws: LarderError.self) { try writer.write(record) }
            #expect(error.code == .unrepresentable)
            #expect(error.location?.fieldPath == FieldPath(parsing: path))
            let appended = try #require(throws: LarderError.self) { _ = try JSONWriter.string(record) }
            #expect(appended.code == .unrepresentable)
            var bytes: [UInt8] = []
            let viaAppend = try #require(throws: LarderError.self) { try JSONWriter.append(record, to: &bytes) }
            #expect(viaAppend.location?.fieldPath == FieldPath(parsing: path))
        }
        try writer.write(["id": "after"])
        try writer.finish()
        #expect(String(decoding: sink.bytes, as: UTF8.self) == "{\"id\":\"ok\"}\n{\"id\":\"after\"}\n")
    }
}
