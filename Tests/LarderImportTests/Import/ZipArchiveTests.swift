import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct ZipArchiveTests {
    @Test("reads back stored and deflated entries written by ZipWriter, entry by entry")
    func roundTripsEntries() throws {
        let dir = try TemporaryDirectory()
        let big = Array(String(repeating: "larder ", count: 50_000).utf8)
        try ImportFixtures.zip([("a.txt", Array("hello".utf8)), ("dir/b.bin", big)], at: dir.path("x.zip"))
        let archive = try ZipArchive(path: dir.path("x.zip"))
        var seen: [String: [UInt8]] = [:]
        while let entry = try archive.nextEntry() { seen[entry.path] = try archive.open(entry).readAllForTest() }
        #expect(seen["a.txt"] == Array("hello".utf8))
        #expect(seen["dir/b.bin"] == big)
    }

    @Test("skips __MACOSX, dotfiles and folders, and refuses an entry that escapes the archive")
    func skipsJunkAndRefusesZipSlip() throws {
        let dir = try TemporaryDirectory()
        try ImportFixtures.zip(
            [
                ("__MACOSX/._r.json", [1, 2]), (".DS_Store", [0]), ("folder/", []), ("../evil.txt", Array("x".utf8)),
                ("ok.txt", Array("y".utf8)),
            ],
            at: dir.path("x.zip"))
        let sink = ImportCollector()
        var visited: [String] = []
        try ArchiveWalker(path: dir.path("x.zip")).forEachEntry(context: sink.context) { entry, _, _ in
            visited.append(entry.path)
        }
        #expect(visited == ["ok.txt"])
        #expect(sink.rejects.count == 1)
        #expect(sink.rejects.first?.0.code == .refusedInput)
        #expect(sink.rejects.first?.0.message.contains("zip slip") == true)
        #expect(sink.rejects.first?.1.entry == "../evil.txt")
    }

    @Test("refuses a zip bomb: an entry expanding past the ratio limit")
    func refusesZipBomb() throws {
        let dir = try TemporaryDirectory()
        try ImportFixtures.zip([("bomb.json", [UInt8](repeating: 0x20, count: 12 << 20))], at: dir.path("bomb.zip"))
        let archive = try ZipArchive(path: dir.path("bomb.zip"))
        let entry = try #require(try archive.nextEntry())
        let error = try #require(throws: LarderError.self) { _ = try archive.open(entry).readAllForTest() }
        #expect(error.code == .refusedInput)
        #expect(error.message.contains("zip bomb"))
    }

    @Test("detects a damaged entry by its CRC-32")
    func detectsCorruption() throws {
        let dir = try TemporaryDirectory()
        try ImportFixtures.zip([("a.txt", Array("hello world, hello zip".utf8))], at: dir.path("x.zip"), deflate: false)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: dir.path("x.zip"))))
        bytes[30 + 5 + 3] ^= 0xFF  // a byte of the stored data
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path("x.zip")))
        let archive = try ZipArchive(path: dir.path("x.zip"))
        let entry = try #require(try archive.nextEntry())
        #expect(throws: LarderError.self) { _ = try archive.open(entry).readAllForTest() }
    }

    @Test("says clearly when a file is not a zip archive")
    func rejectsNonZip() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("x.zip", "not a zip at all")
        let error = try #require(throws: LarderError.self) { _ = try ZipArchive(path: path) }
        #expect(error.code == .syntax)
    }
}

extension ByteSource {
    func readAllForTest() throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}

@Suite struct Zip64Tests {
    @Test("reads and writes archives past 65,535 entries through the zip64 end records")
    func handlesZip64EntryCounts() throws {
        let dir = try TemporaryDirectory()
        let writer = ZipWriter(sink: try FileByteSink(path: dir.path("many.zip")))
        let count = 65_540
        for i in 0..<count { try writer.add(path: "e\(i)", bytes: [UInt8(i & 0xFF)], deflate: false) }
        try writer.finish()
        let archive = try ZipArchive(path: dir.path("many.zip"))
        #expect(archive.entryCount == UInt64(count))
        var seen = 0
        var last: ZipEntry?
        while let entry = try archive.nextEntry() {
            seen += 1
            last = entry
        }
        #expect(seen == count)
        let entry = try #require(last)
        #expect(entry.path == "e\(count - 1)")
        #expect(try archive.open(entry).readAllForTest() == [UInt8((count - 1) & 0xFF)])
    }
}
