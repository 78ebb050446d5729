import LarderCloudKit
import Testing

@testable import LarderSync

@Suite struct BatcherTests {
    func items(_ names: [String], bytes: Int = 100) -> [Batcher.Batched] {
        names.map { name in
            Batcher.Batched(
                item: UploadItem(recordName: name, recordType: "recipe", fields: ["title": .string(name)]),
                operation: [UInt8](repeating: 0x20, count: bytes))
        }
    }

    func drain(_ batcher: inout Batcher, from source: [Batcher.Batched]) async throws -> [[String]] {
        var remaining = source[...]
        var batches: [[String]] = []
        while let batch = try await batcher.next(from: {
            guard let first = remaining.first else { return nil }
            remaining = remaining.dropFirst()
            return first
        }) {
            batches.append(batch.map(\.item.recordName))
            batcher.settled(batch.map { Uploader.Settled(recordName: $0.item.recordName, changeTag: nil) }) { _, _ in []
            }
        }
        return batches
    }

    @Test("batches hold at most 200 operations")
    func operationLimit() async throws {
        var batcher = Batcher(maxOperations: 200, maxBytes: 1 << 30)
        let batches = try await drain(&batcher, from: items((0..<450).map { "r\($0)" }))
        #expect(batches.map(\.count) == [200, 200, 50])
    }

    @Test("batches stay under the byte budget")
    func byteLimit() async throws {
        var batcher = Batcher(maxOperations: 200, maxBytes: 10_000)
        let batches = try await drain(&batcher, from: items((0..<50).map { "r\($0)" }, bytes: 1000))
        #expect(batches.allSatisfy { $0.count <= 9 })
        #expect(batches.flatMap { $0 }.count == 50)
    }

    @Test("a record never has two writes in flight and its versions keep their order")
    func oneWriteInFlightPerRecord() async throws {
        var batcher = Batcher(maxOperations: 3, maxBytes: 1 << 30)
        var source = items(["a", "b", "a", "c", "a", "d"])[...]
        func pull() -> Batcher.Batched? {
            guard let first = source.first else { return nil }
            source = source.dropFirst()
            return first
        }
        let first = try #require(try await batcher.next(from: pull))
        #expect(first.map(\.item.recordName) == ["a", "b", "c"])
        // "a" is in flight: its later versions wait, the rest goes on.
        let second = try #require(try await batcher.next(from: pull))
        #expect(second.map(\.item.recordName) == ["d"])
        #expect(try await batcher.next(from: pull) == nil)
        #expect(batcher.waitingCount == 2)
        batcher.settled([Uploader.Settled(recordName: "a", changeTag: "t1")]) { item, tag in
            Array("\(item.recordName)@\(tag)".utf8)
        }
        let third = try #require(try await batcher.next(from: pull))
        #expect(third.map(\.item.recordName) == ["a"])
        #expect(third[0].item.baseTag == "t1")  // the next version replaces what the first wrote
        #expect(try await batcher.next(from: pull) == nil)
        batcher.settled([Uploader.Settled(recordName: "a", changeTag: "t2")]) { _, _ in [] }
        #expect(try await batcher.next(from: pull).map { $0.map(\.item.recordName) } == ["a"])
        #expect(batcher.isDrained)
    }
}
