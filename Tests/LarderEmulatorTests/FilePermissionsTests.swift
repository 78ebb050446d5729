import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue #12: the config (tokens) and the SQLite store are readable by their owner only.
@Suite struct FilePermissionsTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test("file permissions: the data folder is 0700 and the SQLite files (with -wal and -shm) are 0600")
    func storeIsOwnerOnly() async throws {
        let folder = try TemporaryDirectory()
        let data = folder.path("data")
        let server = try await TestServer.start(
            configuration: TestServer.configuration {
                $0.inMemory = false
                $0.dataDirectory = data
            })
        _ = try await server.client().modify([
            RecordOperation(.create, .make("r1", fields: ["title": .string("secret")]))
        ])
        #expect(try Self.mode(data) == 0o700)
        for name in ["emulator.sqlite", "emulator.sqlite-wal", "emulator.sqlite-shm"] {
            #expect(FileManager.default.fileExists(atPath: "\(data)/\(name)"), "\(name)")
            #expect(try Self.mode("\(data)/\(name)") == 0o600, "\(name)")
        }
        await server.stop()
    }

    @Test("file permissions: an existing store's files and folder are tightened on open")
    func existingStoreIsTightened() async throws {
        let folder = try TemporaryDirectory()
        let data = folder.path("old")
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(
            atPath: "\(data)/emulator.sqlite", contents: nil, attributes: [.posixPermissions: 0o644])
        let server = try await TestServer.start(
            configuration: TestServer.configuration {
                $0.inMemory = false
                $0.dataDirectory = data
            })
        #expect(try Self.mode(data) == 0o700)
        #expect(try Self.mode("\(data)/emulator.sqlite") == 0o600)
        await server.stop()
    }

    @Test("file permissions: the config file with its tokens is written 0600, in a new folder made 0700")
    func configIsOwnerOnly() throws {
        let folder = try TemporaryDirectory()
        let file = URL(fileURLWithPath: folder.path("fresh/config.json"))
        let made = EmulatorConfiguration.makeDevelopment()
        try made.configuration.write(to: file)
        #expect(try Self.mode(file.path) == 0o600)
        #expect(try Self.mode(folder.path("fresh")) == 0o700)
        // Rewriting keeps it private, and the admin token survives the round trip.
        try made.configuration.write(to: file)
        #expect(try Self.mode(file.path) == 0o600)
        let loaded = try EmulatorConfiguration.load(from: file)
        #expect(loaded.adminToken == made.configuration.adminToken && loaded.adminToken != nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("fresh"))
        #expect(leftovers == ["config.json"])
    }
}
