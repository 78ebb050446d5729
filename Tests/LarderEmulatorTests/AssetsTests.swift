import Foundation
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Logging
import Synchronization
import Testing

@testable import LarderEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A one-pixel PNG's signature and header: enough for the content-type sniffer.
let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR-larder-test".utf8)

extension TestClient {
    /// assets/upload for one field, then the bytes to its URL: the receipt's `singleFile`.
    func uploadAsset(_ bytes: Data, record: String, field: String = "photo", zone: RecordZoneID? = nil)
        async throws -> Asset
    {
        let answer = try await post(
            "assets/upload",
            AssetUploadRequest(
                zoneID: zone, tokens: [.init(recordName: record, recordType: "Recipe", fieldName: field)]))
        guard answer.status == 200 else { throw AnswerError(answer: answer) }
        let token = try #require(try answer.decode(AssetUploadResponse.self).tokens.first)
        var request = URLRequest(url: try #require(URL(string: token.url)))
        request.httpMethod = "POST"
        request.httpBody = bytes
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw AnswerError(answer: Answer(status: status, data: data, headers: [:]))
        }
        return try JSONDecoder().decode(AssetUploadReceipt.self, from: data).singleFile
    }

    /// GETs a download URL as this client (its API and web-auth tokens appended), or with no credentials.
    func download(_ url: String, signedIn: Bool = true, range: String? = nil) async throws -> Answer {
        var text = url
        if signedIn, let apiToken {
            text += "?ckAPIToken=\(apiToken)"
            if let webAuthToken { text += "&ckWebAuthToken=\(TestClient.percentEncode(webAuthToken))" }
        }
        var request = URLRequest(url: try #require(URL(string: text)))
        if let range { request.setValue(range, forHTTPHeaderField: "Range") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(data: data, response: response)
    }

    /// Creates `name` with `photo` set to an uploaded asset and returns the saved record.
    func createWithAsset(_ name: String, bytes: Data, zone: RecordZoneID? = nil) async throws -> Record {
        let receipt = try await uploadAsset(bytes, record: name, zone: zone)
        let results = try await modify(
            [RecordOperation(.create, .make(name, fields: ["photo": .asset(receipt.jsonValue)], zone: zone))],
            zone: zone)
        guard let record = results.records.first else { throw RecordFailure(results: results) }
        return record
    }
}

struct RecordFailure: Error, CustomStringConvertible {
    var results: [RecordResult]
    var description: String { "\(results)" }
}

extension Record {
    var photo: Asset? { field("photo").flatMap { try? Asset(value: $0) } }
}

@Suite struct AssetsTests {
    @Test("an uploaded image round-trips: receipt, ASSETID field, downloadURL with the same bytes and type")
    func roundTrip() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let receipt = try await alice.uploadAsset(pngBytes, record: "r1")
            #expect(receipt.fileChecksum == AssetDigest.fileChecksum(pngBytes))
            #expect(receipt.size == Int64(pngBytes.count))
            #expect(receipt.receipt != nil)
            #expect(receipt.wrappingKey != nil && receipt.referenceChecksum != nil)  // private database
            let saved = try await alice.createWithAsset("r2", bytes: pngBytes)
            let photo = try #require(saved.photo)
            #expect(photo.fileChecksum == receipt.fileChecksum)
            #expect(photo.size == Int64(pngBytes.count))
            #expect(photo.receipt == nil)
            let answer = try await alice.download(try #require(photo.downloadURL))
            #expect(answer.status == 200)
            #expect(answer.data == pngBytes)
            #expect(answer.headers["content-type"] == "image/png")
            // A lookup answers the field the same way.
            let lookup = try await alice.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "r2")]))
            let again = try #require(try lookup.decode(RecordsResponse.self).records.records.first?.photo)
            #expect(again.fileChecksum == photo.fileChecksum)
            #expect(try await alice.download(try #require(again.downloadURL)).data == pngBytes)
        }
    }

    @Test("a private record's downloadURL works as handed out (an <img src>), never with another user's credentials")
    func crossUserDenial() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let saved = try await server.client().createWithAsset("mine", bytes: pngBytes)
            let url = try #require(saved.photo?.downloadURL)
            let bob = try await server.client(TestServer.bob).download(url)
            #expect(bob.status == 403)
            #expect(bob.errorCode == "ACCESS_DENIED")
            #expect(!bob.data.starts(with: pngBytes.prefix(8)))
            // CloudKit JS puts the URL into an <img src>: no token is sent, and the URL is enough.
            let asHandedOut = try await server.client().download(url, signedIn: false)
            #expect(asHandedOut.status == 200 && asHandedOut.data == pngBytes)
            let forged = try await server.client().download(
                url.replacingOccurrences(of: "/download/", with: "/download/A"))
            #expect(forged.status == 404)
        }
    }

    @Test("a downloadURL past its hour is refused, even as the credential it is")
    func expiredDownloadURL() async throws {
        let offset = Mutex<Double>(0)
        let clock = LarderClock(
            now: { Date().addingTimeInterval(offset.withLock { $0 }) }, monotonicSeconds: { 0 }, sleep: { _ in })
        var logger = Logger(label: "larder.emulator.tests")
        logger.logLevel = .critical
        let emulator = try Emulator(configuration: TestServer.configuration(), logger: logger, clock: clock)
        let server = TestServer(emulator: emulator, baseURL: try await emulator.start())
        try await stopping(server) { _ in
            let url = try #require(
                try await server.client().createWithAsset("mine", bytes: pngBytes).photo?.downloadURL)
            #expect(try await server.client().download(url, signedIn: false).status == 200)
            offset.withLock { $0 = 2 * 3600 }
            let late = try await server.client().download(url, signedIn: false)
            #expect(late.status == 403 && late.errorCode == "ACCESS_DENIED", "\(late.text)")
        }
    }

    @Test("another user's receipt cannot be saved into a record")
    func foreignReceiptRefused() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let receipt = try await server.client().uploadAsset(pngBytes, record: "r")
            let results = try await server.client(TestServer.bob).modify(
                [RecordOperation(.create, .make("r", fields: ["photo": .asset(receipt.jsonValue)]))])
            #expect(results.errorCodes == ["BAD_REQUEST"])
            let guessed = try await server.client(TestServer.bob).modify(
                [
                    RecordOperation(
                        .create,
                        .make(
                            "g",
                            fields: ["photo": .asset(Asset(fileChecksum: receipt.fileChecksum, size: 20).jsonValue)]))
                ])
            #expect(guessed.errorCodes == ["BAD_REQUEST"])
        }
    }

    @Test("Range requests answer 206 with Content-Range, and 416 past the end")
    func rangeRequests() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let url = try #require(try await alice.createWithAsset("r", bytes: pngBytes).photo?.downloadURL)
            let part = try await alice.download(url, range: "bytes=2-5")
            #expect(part.status == 206)
            #expect(part.headers["content-range"] == "bytes 2-5/\(pngBytes.count)")
            #expect(part.data == pngBytes.subdata(in: 2..<6))
            let tail = try await alice.download(url, range: "bytes=-4")
            #expect(tail.data == pngBytes.suffix(4))
            let past = try await alice.download(url, range: "bytes=\(pngBytes.count)-")
            #expect(past.status == 416)
            #expect(past.headers["content-range"] == "bytes */\(pngBytes.count)")
        }
    }

    @Test(
        "the same bytes are stored once; deleting one record keeps them for the other, deleting both releases them once their receipts expire"
    )
    func refcountedRelease() async throws {
        let folder = try TemporaryDirectory()
        let server = try await TestServer.start {
            $0.inMemory = false
            $0.dataDirectory = folder.path("data")
        }
        try await stopping(server) { _ in
            let alice = server.client()
            let first = try await alice.createWithAsset("a", bytes: pngBytes)
            let second = try await alice.createWithAsset("b", bytes: pngBytes)
            let hex = AssetDigest.sha256Hex(pngBytes)
            let file = folder.path("data/assets/\(hex.prefix(2))/\(hex)")
            #expect(FileManager.default.fileExists(atPath: file))
            _ = try await alice.modify([RecordOperation(.forceDelete, .make("a"))])
            #expect(try await alice.download(try #require(second.photo?.downloadURL)).data == pngBytes)
            _ = try await alice.modify([RecordOperation(.forceDelete, .make("b"))])
            // The two receipts are still within their 15 minutes: they keep the bytes.
            #expect(FileManager.default.fileExists(atPath: file))
            let later = Int64(Date().timeIntervalSince1970 * 1000) + AssetCatalog.uploadLifetimeMs + 60_000
            let released = try server.emulator.store.collectAssets(now: later)
            #expect(released == [hex])
            #expect(!FileManager.default.fileExists(atPath: file))
            #expect(try await alice.download(try #require(first.photo?.downloadURL)).status == 404)
        }
    }

    @Test("receipt attack: another user's delete of the same bytes keeps them for an unexpired receipt")
    func receiptKeepsItsBytes() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let bob = server.client(TestServer.bob)
            // Bob uploads, but has not saved his record yet.
            let receipt = try await bob.uploadAsset(pngBytes, record: "bobs")
            // Alice saves the same bytes and deletes her record: the bytes are Bob's too.
            _ = try await alice.createWithAsset("alices", bytes: pngBytes)
            _ = try await alice.modify([RecordOperation(.forceDelete, .make("alices"))])
            let results = try await bob.modify([
                RecordOperation(.create, .make("bobs", fields: ["photo": .asset(receipt.jsonValue)]))
            ])
            let saved = try #require(results.records.first, "\(results)")
            #expect(try await bob.download(try #require(saved.photo?.downloadURL)).data == pngBytes)
        }
    }

    @Test("deleting a zone releases the assets of its records once their receipts expire")
    func zoneDeleteReleases() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Photos")
            let zone = RecordZoneID(zoneName: "Photos")
            let url = try #require(try await alice.createWithAsset("z", bytes: pngBytes, zone: zone).photo?.downloadURL)
            let answer = try await alice.post(
                "zones/modify", ZonesModifyRequest(operations: [.init(operationType: "delete", zoneID: zone)]))
            #expect(answer.status == 200)
            let later = Int64(Date().timeIntervalSince1970 * 1000) + AssetCatalog.uploadLifetimeMs + 60_000
            #expect(try server.emulator.store.collectAssets(now: later) == [AssetDigest.sha256Hex(pngBytes)])
            #expect(try await alice.download(url).status == 404)
        }
    }

    @Test("export and import carry the asset bytes; a reset drops them")
    func exportImportReset() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.createWithAsset("kept", bytes: pngBytes)
            let exported = try server.emulator.exportState()
            let url = try #require(try await alice.createWithAsset("other", bytes: Data("x".utf8)).photo?.downloadURL)
            _ = try await ControlPlaneTests.call(server, "POST", "reset")
            #expect(try await alice.download(url).status == 404)
            try server.emulator.importState(from: exported)
            let lookup = try await alice.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "kept")]))
            let photo = try #require(try lookup.decode(RecordsResponse.self).records.records.first?.photo)
            #expect(try await alice.download(try #require(photo.downloadURL)).data == pngBytes)
        }
    }

    @Test("an asset over the configured size is refused with the limit named")
    func sizeLimit() async throws {
        let server = try await TestServer.start { $0.limits.maxAssetBytes = 8 }
        try await stopping(server) { _ in
            do {
                _ = try await server.client().uploadAsset(pngBytes, record: "big")
                Issue.record("an oversized asset was accepted")
            } catch let error as AnswerError {
                #expect(error.answer.status == 400)
                #expect(error.answer.text.contains("limit is 8 bytes"))
            }
        }
    }

    @Test("assets/rereference gives a new receipt that saves the same asset into another record")
    func rereference() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let original = try #require(try await alice.createWithAsset("one", bytes: pngBytes).photo)
            let answer = try await alice.post(
                "assets/rereference",
                AssetRereferenceRequest(
                    assets: [
                        .init(recordName: "one", fieldName: "photo"), .init(recordName: "none", fieldName: "photo"),
                    ]))
            let entries = try answer.decode(AssetRereferenceResponse.self).assets
            #expect(entries.count == 2)
            #expect(entries.last?.serverErrorCode == "NOT_FOUND")
            let fresh = try #require(entries.first?.value)
            #expect(fresh.fileChecksum == original.fileChecksum)
            #expect(fresh.receipt != nil)
            let results = try await alice.modify(
                [RecordOperation(.create, .make("two", fields: ["photo": .asset(fresh.jsonValue)]))])
            let copy = try #require(results.records.first?.photo)
            #expect(try await alice.download(try #require(copy.downloadURL)).data == pngBytes)
        }
    }

    @Test("a public record's downloadURL works without credentials")
    func publicDownload() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client(database: .public)
            let url = try #require(try await alice.createWithAsset("pub", bytes: pngBytes).photo?.downloadURL)
            let answer = try await alice.download(url, signedIn: false)
            #expect(answer.status == 200)
            #expect(answer.data == pngBytes)
        }
    }

    @Test("asset attack: an uploaded HTML file is served as data, never as a page of the emulator's origin")
    func uploadedPageDoesNotRun() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client(database: .public)
            let page = Data("<html><script>fetch('/_emulator/reset',{method:'POST'})</script></html>".utf8)
            let url = try #require(try await alice.createWithAsset("page", bytes: page).photo?.downloadURL)
            let answer = try await alice.download(url, signedIn: false)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == "application/octet-stream")
            #expect(answer.headers["x-content-type-options"] == "nosniff")
            #expect(answer.headers["content-security-policy"]?.contains("sandbox") == true)
            #expect(answer.headers["content-disposition"] == "attachment")
            let image = try #require(try await alice.createWithAsset("img", bytes: pngBytes).photo?.downloadURL)
            #expect(try await alice.download(image, signedIn: false).headers["content-disposition"] == "inline")
        }
    }

    @Test("saving a fetched record back keeps its asset without a new upload")
    func saveBackFetchedAsset() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let saved = try await alice.createWithAsset("r", bytes: pngBytes)
            var fields = saved.fields ?? [:]
            fields["title"] = FieldValue.string("renamed").recordField
            var record = Record.make("r", tag: saved.recordChangeTag)
            record.fields = fields
            let results = try await alice.modify([RecordOperation(.update, record)])
            #expect(results.records.first?.photo?.fileChecksum == saved.photo?.fileChecksum)
        }
    }
}
