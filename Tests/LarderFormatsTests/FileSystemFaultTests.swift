import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

/// The file-system fault seam (``FileSystemCalls`` and ``IOFaultPlan``) under the writers: short
/// writes are finished, and a failed write, fsync or rename leaves what was there and names the file.
@Suite struct FileSystemFaultTests {
    @Test("reads the LARDER_FAULT_IO rules and refuses malformed ones")
    func parsesPlans() throws {
        let text = "enospc@3:*.ndjson,short@1+,fsync.eio@2,rename.eintr@1:*/out.json,commit.enospc@1+"
        let plan = try IOFaultPlan(parsing: text.replacingOccurrences(of: ",", with: ", "))
        #expect(
            plan.rules == [
                .init(.write, .error(ENOSPC), at: 3, pattern: "*.ndjson"),
                .init(.write, .short, at: 1, isPersistent: true),
                .init(.fsync, .error(EIO), at: 2), .init(.rename, .error(EINTR), at: 1, pattern: "*/out.json"),
                .init(.commit, .error(ENOSPC), at: 1, isPersistent: true),
            ])
        #expect(plan.description == text)
        for bad in [
            "enospc", "enospc@0", "enospc@x", "full@1", "fsync.short@1", "sync.eio@1", "eio@1:", "eio@-1", "eintr@1+",
        ] {
            #expect(throws: LarderError.self, "\(bad)") { try IOFaultPlan(parsing: bad) }
        }
    }

    @Test("a rule fires on the N-th matching call, or from it on with +, and only for its paths")
    func countsMatchingCalls() throws {
        let dir = try TemporaryDirectory()
        let plan = try IOFaultPlan(parsing: "eio@2:*/a.txt,enospc@2+:*/b.txt")
        let results = try FileSystemCalls.withFaults(plan) { () throws -> [String] in
            var outcomes: [String] = []
            for name in ["a.txt", "b.txt", "c.txt"] {
                for _ in 0..<3 {
                    let path = dir.path(name)
                    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                    defer { close(fd) }
                    let failure = [UInt8]("x".utf8).withUnsafeBytes { FileSystemCalls.writeAll(fd, $0, path: path) }
                    outcomes.append(failure == 0 ? "ok" : String(cString: strerror(failure)))
                }
            }
            return outcomes
        }
        let eio = String(cString: strerror(EIO))
        let enospc = String(cString: strerror(ENOSPC))
        #expect(results == ["ok", eio, "ok", "ok", enospc, enospc, "ok", "ok", "ok"])
        // Outside the scope nothing fails.
        let path = dir.path("a.txt")
        let fd = open(path, O_WRONLY | O_APPEND)
        defer { close(fd) }
        #expect([UInt8]("y".utf8).withUnsafeBytes { FileSystemCalls.writeAll(fd, $0, path: path) } == 0)
    }

    @Test("FileByteSink writes every byte through short writes and EINTR")
    func finishesShortWrites() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("out.bin")
        let bytes = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let plan = try IOFaultPlan(
            parsing: "short@1+:\(path),eintr@2:\(path),eintr@5:\(path),fsync.eintr@1:\(path),rename.eintr@1:\(path)")
        try FileSystemCalls.withFaults(plan) {
            let sink = try FileByteSink(path: path)
            // A small piece (buffered), a large one (written through), and a small one flushed by close.
            try sink.write(Array(bytes[..<1000]))
            try sink.write(Array(bytes[1000..<600_000]))
            try sink.write(Array(bytes[600_000...]))
            try sink.close()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["out.bin"])
    }

    @Test(
        "a failed write, fsync or rename under FileByteSink leaves the previous file, no temporary file, and names the file",
        arguments: ["enospc@1", "eio@4", "enospc@12", "fsync.eio@1", "fsync.enospc@1", "rename.eio@1"])
    func failureLeavesPreviousFile(rule: String) throws {
        for previous in [nil, "previous content\n"] {
            let dir = try TemporaryDirectory()
            let path = dir.path("out.ndjson")
            if let previous { try dir.write("out.ndjson", previous) }
            let plan = try IOFaultPlan(parsing: "short@1+:\(path),\(rule):\(path)")
            let failure = FileSystemCalls.withFaults(plan) { () -> LarderError? in
                do {
                    let sink = try FileByteSink(path: path)
                    for _ in 0..<3 { try sink.write(Array(repeating: 0x61, count: 200_000)) }
                    try sink.close()
                    return nil
                } catch {
                    return error as? LarderError
                }
            }
            let error = try #require(failure, "\(rule) did not fail")
            #expect(error.code == .io)
            #expect(error.description.hasPrefix(path + ": error: "), "\(error.description)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
            #expect(names == (previous == nil ? [] : ["out.ndjson"]), "\(rule): \(names)")
            if let previous { #expect(try dir.read("out.ndjson") == previous) }
        }
    }

    @Test("a failed image write leaves no file behind, keeps the files already there, and names the image")
    func imageWriteFailure() throws {
        let dir = try TemporaryDirectory()
        try dir.write("keep.png", "an earlier image")
        let plan = try IOFaultPlan(parsing: "short@1+:\(dir.url.path)/*,enospc@4:\(dir.url.path)/*")
        let bytes = [UInt8](repeating: 7, count: 5000)
        #expect {
            try FileSystemCalls.withFaults(plan) {
                try ContainedFile.createNew(in: dir.url.path, stem: "pancakes", fileExtension: "png", bytes: bytes)
            }
        } throws: { error in
            (error as? LarderError)?.description.hasPrefix(dir.path("pancakes.png") + ": error: ") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["keep.png"])
        #expect(try dir.read("keep.png") == "an earlier image")
        // The same write under short writes alone completes with every byte.
        let name = try FileSystemCalls.withFaults(try IOFaultPlan(parsing: "short@1+:\(dir.url.path)/*")) {
            try ContainedFile.createNew(in: dir.url.path, stem: "pancakes", fileExtension: "png", bytes: bytes)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path(name))) == Data(bytes))
    }

    @Test("a plan holds for its task and child tasks, and not for other tasks")
    func planIsScopedToItsTask() async throws {
        let dir = try TemporaryDirectory()
        let inside = dir.path("inside.json")
        let outside = dir.path("outside.json")
        func write(_ path: String) -> Bool {
            do {
                let sink = try FileByteSink(path: path)
                try sink.write("{}\n")
                try sink.close()
                return true
            } catch {
                return false
            }
        }
        let plan = try IOFaultPlan(parsing: "eio@1+")
        async let other: Bool = {
            // Another task while the plan is in force (it starts before and is awaited after).
            await Task.yield()
            return write(outside)
        }()
        let results = await FileSystemCalls.withFaults(plan) { () async -> [Bool] in
            async let child = write(inside)
            return [write(inside), await child]
        }
        #expect(results == [false, false])
        #expect(await other)
        #expect(write(inside))
    }
}
