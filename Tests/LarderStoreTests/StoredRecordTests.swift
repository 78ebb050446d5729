import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderStore

/// A stored record whose body is damaged is an error naming it (type and id) wherever the store
/// parses it: never an empty record, never skipped.
@Suite struct StoredRecordTests {
    static let damagedBodies = [
        "{\"id\": \"r-bad\", \"title\": ",  // cut off
        "[1, 2]",  // not an object
        "",  // empty
        "{\"id\":\"r-bad\"}\n{\"id\":\"r-x\"}",  // two records where one belongs
    ]

    /// A store holding recipes a, r-bad (with `body` written over its own) and c.
    static func damagedStore(_ directory: TemporaryDirectory, body: String) throws -> Store {
        let store = try StoreRecordReaderTests.makeStore(directory, ids: ["a", "r-bad", "c"])
        try store.executeRaw("UPDATE records SET body = ? WHERE type = 'recipe' AND id = 'r-bad'", arguments: [body])
        return store
    }

    static func namesTheRecord(_ error: any Error) -> Bool {
        (error as? LarderError)?.message.hasPrefix("recipe r-bad: the stored body is not a JSON object") == true
    }

    @Test("reading the records of a type fails naming the damaged record", arguments: damagedBodies)
    func recordsNameTheDamagedRecord(body: String) throws {
        let directory = try TemporaryDirectory()
        let store = try Self.damagedStore(directory, body: body)
        #expect { try store.records(type: "recipe") } throws: { Self.namesTheRecord($0) }
        let writer = JSONWriter(sink: MemoryByteSink(), lineMode: true)
        #expect { try StoreExport.write(store: store, type: "recipe", to: writer) } throws: { Self.namesTheRecord($0) }
        let damaged = try #require(try store.storedRecord(type: "recipe", id: "r-bad"))
        #expect { try damaged.value() } throws: { Self.namesTheRecord($0) }
        #expect(
            try store.storedRecord(type: "recipe", id: "c")?.value()["title"] == .string("Recipe c"),
            "the others still read")
    }

    @Test("a sync operation on a damaged record fails naming it and changes nothing")
    func syncOperationNamesTheDamagedRecord() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.damagedStore(directory, body: "[]")
        let sync = SyncState(store: store)
        let before = try store.contentDigest()
        #expect { try sync.setLocalOnly(type: "recipe", id: "r-bad", at: fixtureDate) } throws: {
            Self.namesTheRecord($0)
        }
        #expect(try store.contentDigest() == before)
    }
}
