import Foundation
import LarderCloudKit
import LarderCore
import LarderStore
import LarderTestSupport
import Synchronization
import Testing

@testable import LarderSync

/// Security round 3: a server (or anything between) that answers badly on purpose cannot make the
/// client loop, fill its memory, or send its credentials elsewhere.
@Suite struct HostileServerTests {
    /// Answers every request with `answer(request)`, and keeps what was asked.
    final class ScriptedTransport: Transport, Sendable {
        let answer: @Sendable (TransportRequest) -> TransportResponse
        /// Bytes the answer pretends to have past its body (a body too long to build in a test).
        let claimedExtraBytes: Int
        let sent = Mutex<[TransportRequest]>([])
        init(claimedExtraBytes: Int = 0, _ answer: @escaping @Sendable (TransportRequest) -> TransportResponse) {
            self.answer = answer
            self.claimedExtraBytes = claimedExtraBytes
        }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            sent.withLock { $0.append(request) }
            let response = answer(request)
            guard response.body.count + claimedExtraBytes <= request.maxResponseBytes else {
                throw ResponseTooLarge(limit: request.maxResponseBytes)
            }
            return response
        }
    }

    static func client(_ transport: ScriptedTransport) -> CloudKitClient {
        var components = URLComponents()
        (components.scheme, components.host, components.port) = ("http", "127.0.0.1", 9)
        return CloudKitClient(
            target: CloudKitTarget(
                baseURL: components.url ?? URL(fileURLWithPath: "/"),
                endpoint: DatabaseEndpoint(container: "c", environment: .development, database: .private),
                zoneID: RecordZoneID(zoneName: "z")),
            transport: transport, credentials: .apiToken("api-secret", webAuthToken: "web-secret"))
    }

    static func json(_ text: String) -> TransportResponse {
        TransportResponse(status: 200, headers: ["content-type": "application/json"], body: Data(text.utf8))
    }

    @Test("a change feed answering moreComing with the same token stops with an error instead of looping")
    func moreComingWithoutProgressStops() async throws {
        let transport = ScriptedTransport { _ in
            Self.json(#"{"zones":[{"zoneID":{"zoneName":"z"},"syncToken":"T1","moreComing":true,"records":[]}]}"#)
        }
        let directory = try TemporaryDirectory()
        var downloader = ZoneDownloader(client: Self.client(transport), outputPath: directory.path("out.json"))
        downloader.clock = TestClock().clock
        do {
            _ = try await downloader.run()
            Issue.record("the download finished")
        } catch let error as LarderError {
            #expect(error.description.contains("no progress"), "\(error.description)")
        }
        // The first page (no token) moves to T1; the second answers T1 again: two requests, not thousands.
        #expect(transport.sent.withLock(\.count) == 2)
    }

    @Test("an asset longer than its record declares is not read past the declared size")
    func assetIsCappedAtItsDeclaredSize() async throws {
        let transport = ScriptedTransport { _ in TransportResponse(status: 200, body: Data(count: 1 << 20)) }
        let client = Self.client(transport)
        await #expect(throws: CloudKitFailure.self) {
            _ = try await client.downloadAsset("http://127.0.0.1:9/_assets/download/x", expectedSize: 43)
        }
        #expect(transport.sent.withLock { $0.first?.maxResponseBytes } == 43)
        // One try: asking again brings the same answer.
        #expect(transport.sent.withLock(\.count) == 1)
    }

    @Test("credentials go only to the endpoint's origin: a downloadURL elsewhere gets none")
    func credentialsStayOnTheEndpointsOrigin() async throws {
        let transport = ScriptedTransport { _ in TransportResponse(status: 200, body: Data("img".utf8)) }
        let client = Self.client(transport)
        for url in [
            "http://evil.example/steal", "https://127.0.0.1:9/x", "http://127.0.0.1:10/x",
            "http://127.0.0.1.evil.example:9/x",
        ] {
            _ = try await client.downloadAsset(url)
        }
        _ = try await client.downloadAsset("http://127.0.0.1:9/_assets/download/own")
        let urls = transport.sent.withLock { $0.map(\.url.absoluteString) }
        #expect(
            urls.filter { $0.contains("secret") } == [
                "http://127.0.0.1:9/_assets/download/own?ckAPIToken=api-secret&ckWebAuthToken=web-secret"
            ])
    }

    @Test("an answer past the transport's limit fails without being retried")
    func oversizedAnswerIsNotRetried() async throws {
        let transport = ScriptedTransport(claimedExtraBytes: 1_500_000_000) { _ in Self.json("{}") }
        await #expect(throws: CloudKitFailure.self) { _ = try await Self.client(transport).lookup(["a"]) }
        #expect(transport.sent.withLock(\.count) == 1)
    }
}

/// A zone holding a share (`cloudkit.share`, as any app that shares a record has) downloads and syncs.
@Suite struct ShareInZoneTests {
    /// Uploads the three recipes of ``ImageSyncTests/writeInput(in:seed:)`` into `zone` and shares the first.
    static func uploadAndShare(_ server: UploadTestServer, _ directory: TemporaryDirectory, zone: String) async throws {
        let client = try await ImageSyncTests.uploadInput(server, directory, zone: zone)
        let root = try #require(
            try await client.zoneChanges(syncToken: nil).records.compactMap(\.record).first {
                $0.recordType == "recipe"
            })
        var share = Record(recordName: "Share-1", recordType: "cloudkit.share", fields: [:])
        share.forRecord = ForRecord(recordName: root.recordName ?? "", recordChangeTag: root.recordChangeTag)
        share.publicPermission = SharePermission.readOnly
        let body = try WireEncoder.encode(
            ModifyRecordsRequest(operations: [RecordOperation(.create, share)], zoneID: RecordZoneID(zoneName: zone)))
        let results = try await client.modify(body: Data(body))
        #expect(results.first?.record?.recordType == "cloudkit.share", "\(results)")
    }

    @Test("download of a zone with a share writes the recipes and counts the share, never '{}'")
    func downloadLeavesTheShareOut() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            try await Self.uploadAndShare(server, directory, zone: "shared")
            var downloader = ZoneDownloader(
                client: server.client(zone: "shared"), outputPath: directory.path("out/recipes.json"))
            downloader.clock = TestClock().clock
            let report = try await downloader.run()
            #expect(report.records == 3)
            #expect(report.otherTypes == ["cloudkit.share": 1])
            let text = try String(contentsOfFile: directory.path("out/recipes.json"), encoding: .utf8)
            #expect(!text.contains("{}"))
        }
    }

    @Test("sync of a zone with a share applies the recipes and leaves the share")
    func syncLeavesTheShareOut() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            try await Self.uploadAndShare(server, directory, zone: "shared-sync")
            try FileManager.default.createDirectory(atPath: directory.path("dev"), withIntermediateDirectories: true)
            let store = try Store(path: directory.path("dev/store.db"), create: true)
            var sync = StoreSync(store: store, client: server.client(zone: "shared-sync"))
            sync.deviceID = "dev"
            sync.clock = TestClock().clock
            _ = try await sync.run()
            #expect(try store.records(type: "recipe").count == 3)
        }
    }
}
