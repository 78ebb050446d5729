import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderStore

/// The store as a record source: every record of one type, page by page, and a damaged body as
/// an error naming its record.
@Suite struct StoreRecordReaderTests {
    /// A store holding `ids` as recipes (in that order) and one brew log.
    static func makeStore(_ directory: TemporaryDirectory, ids: [String]) throws -> Store {
        let store = try Store(path: directory.path("larder.db"), create: true)
        try store.write { transaction in
            for id in ids {
                try transaction.upsert(Recipe.make(id: id, title: "Recipe \(id)").value, type: "recipe", version: 3)
            }
            try transaction.upsert(BrewLog.make(id: "log-1").value, type: "brewLog", version: 2)
        }
        return store
    }

    /// Reads everything, each record's title or its error.
    static func readAll(_ reader: StoreRecordReader) -> [String] {
        var seen: [String] = []
        while true {
            do {
                guard let item = try reader.next() else { return seen }
                seen.append("\(item.index): \(item.value["title"]?.stringValue ?? "?")")
            } catch {
                seen.append("error: \(error)")
            }
        }
    }

    @Test("reads every record of its type in insertion order, a page at a time, and no other type")
    func readsInPages() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.makeStore(directory, ids: ["e", "d", "c", "b", "a"])
        let reader = StoreRecordReader(store: store, type: "recipe", pageSize: 2)
        #expect(Self.readAll(reader) == ["0: Recipe e", "1: Recipe d", "2: Recipe c", "3: Recipe b", "4: Recipe a"])
        #expect(try reader.next() == nil, "stays at the end")
        #expect(reader.name == store.path && reader.header == nil)
        #expect(Self.readAll(StoreRecordReader(store: store, type: "brewLog")).count == 1)
        #expect(Self.readAll(StoreRecordReader(store: store, type: "unknown")).isEmpty)
    }

    @Test("a stored body that does not parse is an error naming the record; the records after it are still read")
    func damagedBodyNamesTheRecord() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.makeStore(directory, ids: ["a", "r-bad", "c"])
        try store.executeRaw(
            "UPDATE records SET body = ? WHERE type = 'recipe' AND id = 'r-bad'",
            arguments: ["{\"id\": \"r-bad\", \"title\": "])
        let reader = StoreRecordReader(store: store, type: "recipe", pageSize: 2)
        #expect(reader.canRecover)
        #expect(try reader.next()?.value["id"] == .string("a"))
        #expect {
            try reader.next()
        } throws: { error in
            guard let error = error as? LarderError else { return false }
            return error.message.hasPrefix("recipe r-bad: the stored body is not a JSON object")
                && error.location?.file == store.path
                && error.location?.recordIndex == 1
        }
        #expect(try reader.next()?.value["id"] == .string("c"))
        #expect(try reader.next() == nil)
    }
}
