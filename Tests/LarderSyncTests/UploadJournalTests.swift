import Foundation
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderSync

@Suite struct UploadJournalTests {
    @Test("acknowledged records are known to the next run; planned ones are in doubt")
    func reloads() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("upload.journal")
        do {
            let journal = try UploadJournal(path: path, target: "t", nowMilliseconds: 1)
            try await journal.planned([("a", "d1"), ("b", "d2"), ("c", "d3")])
            try await journal.acknowledged([("a", "d1", "tag-a")])
            try await journal.keptServer([("b", "d2", "tag-b")])
        }
        let again = try UploadJournal(path: path, target: "t", nowMilliseconds: 2)
        #expect(again.entries["a"] == UploadJournal.Entry(digest: "d1", changeTag: "tag-a", keptServer: false))
        #expect(again.entries["b"]?.keptServer == true)
        #expect(again.entries["c"] == nil)
        #expect(again.inDoubt == ["c"])
    }

    @Test("a line torn by a crash at the end is ignored")
    func tornLastLine() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("upload.journal")
        do {
            let journal = try UploadJournal(path: path, target: "t", nowMilliseconds: 1)
            try await journal.acknowledged([("a", "d1", "tag-a")])
        }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"k":"ack","n":["b"],"d":["d"#.utf8))
        try handle.close()
        let again = try UploadJournal(path: path, target: "t", nowMilliseconds: 2)
        #expect(again.entries.keys.sorted() == ["a"])
    }

    @Test("damage before the last line and another target's journal are refused")
    func refusesForeignOrDamaged() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("j", "{\"k\":\"run\",\"v\":1,\"target\":\"other\",\"at\":1}\n")
        #expect(throws: LarderError.self) { try UploadJournal(path: path, target: "mine", nowMilliseconds: 1) }
        let damaged = try directory.write(
            "k", "{\"k\":\"run\",\"v\":1,\"target\":\"mine\",\"at\":1}\nnot json\n{\"k\":\"ack\",\"n\":[],\"d\":[]}\n")
        #expect(throws: LarderError.self) { try UploadJournal(path: damaged, target: "mine", nowMilliseconds: 1) }
    }

    @Test("each run starts from a compact rewrite")
    func compacts() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("upload.journal")
        for run in 0..<3 {
            let journal = try UploadJournal(path: path, target: "t", nowMilliseconds: Int64(run))
            for index in 0..<20 {
                try await journal.planned([("r\(index)", "d\(run)")])
                try await journal.acknowledged([("r\(index)", "d\(run)", "tag\(run)")])
            }
        }
        _ = try UploadJournal(path: path, target: "t", nowMilliseconds: 9)
        let lines = try directory.read("upload.journal").split(separator: "\n")
        #expect(lines.count == 2)  // the run header and one acknowledgement line
        let final = try UploadJournal(path: path, target: "t", nowMilliseconds: 10)
        #expect(final.entries["r7"]?.digest == "d2")
    }
}

/// The asset journal reads as the upload journal does: a damaged line is an error, not a forgotten receipt.
@Suite struct AssetJournalTests {
    @Test("a damaged line before the last is an error naming it; a torn last line is left out")
    func damagedLines() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("upload.journal.assets")
        let journal = try AssetJournal(path: path)
        try await journal.record(sha256: "aa", asset: Asset(fileChecksum: "qg=="), now: 1)
        try await journal.record(sha256: "bb", asset: Asset(fileChecksum: "uw=="), now: 1)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        // A torn last write: the receipt before it is still there.
        try Data((lines[0] + "\n" + lines[1].prefix(10)).utf8).write(to: URL(fileURLWithPath: path))
        #expect(await (try AssetJournal(path: path)).receipt(sha256: "aa", now: 2) != nil)
        // Damage in the middle is named.
        try Data((lines[0] + "\n{not json\n" + lines[1] + "\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try AssetJournal(path: path)
        } throws: { error in
            (error as? LarderError)?.description.contains("damaged at line 2") == true
        }
    }
}
