import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replays asset requests shaped as Apple's reference shows them (WSREF/UploadAssets,
/// RereferenceAssets, Types "Asset Dictionary"), as raw JSON the way a third-party client sends it,
/// and checks every answer's keys against the documented ones.
@Suite struct AssetReplayTests {
    /// The keys Apple documents for an asset dictionary.
    static let assetKeys: Set<String> = [
        "fileChecksum", "size", "referenceChecksum", "wrappingKey", "receipt", "downloadURL",
    ]

    static func keys(_ value: Value?) -> Set<String> { Set(value?.objectValue?.keys ?? []) }

    @Test("assets/upload, the upload URL, records/modify and rereference answer in Apple's documented shapes")
    func replaysAssetShapes() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = server.client()
            // Step 1: tokens (Apple's example: recordType, fieldName, recordName; zoneID optional).
            let tokens = try await client.post(
                "assets/upload",
                json:
                    #"{"zoneID":{"zoneName":"_defaultZone"},"tokens":[{"recordType":"Recipe","fieldName":"image","recordName":"photo-1"},{"recordType":"Recipe","fieldName":"image"}]}"#
            )
            #expect(tokens.status == 200)
            #expect(Self.keys(tokens.json) == ["tokens"])
            let list = try #require(tokens.json["tokens"]?.arrayValue)
            #expect(list.count == 2)
            for token in list { #expect(Self.keys(token) == ["recordName", "fieldName", "url"]) }
            #expect(list[0]["recordName"] == "photo-1")
            #expect(list[1]["recordName"]?.stringValue?.isEmpty == false)  // the server names it
            let url = try #require(list[0]["url"]?.stringValue)

            // Step 2: POST the bytes; the answer is {singleFile: {…}}.
            var upload = URLRequest(url: try #require(URL(string: url)))
            upload.httpMethod = "POST"
            upload.httpBody = pngBytes
            let (data, response) = try await URLSession.shared.data(for: upload)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let receipt = try JSONDecoder().decode(Value.self, from: data)
            #expect(Self.keys(receipt) == ["singleFile"])
            let singleFile = try #require(receipt["singleFile"])
            #expect(
                Self.keys(singleFile) == ["fileChecksum", "size", "receipt", "wrappingKey", "referenceChecksum"])

            // Step 3: save the record with the asset dictionary, untyped as in Apple's examples.
            let dictionary = String(decoding: try JSONEncoder().encode(singleFile), as: UTF8.self)
            let saved = try await client.post(
                "records/modify",
                json:
                    #"{"operations":[{"operationType":"create","record":{"recordType":"Recipe","recordName":"photo-1","fields":{"image":{"value":\#(dictionary)}}}}]}"#
            )
            #expect(saved.status == 200, "\(saved.text)")
            let field = try #require(saved.json["records"]?.arrayValue?.first?["fields"]?["image"])
            #expect(field["type"] == "ASSETID")
            let asset = try #require(field["value"])
            #expect(Self.keys(asset).isSubset(of: Self.assetKeys))
            #expect(Self.keys(asset).isSuperset(of: ["fileChecksum", "size", "downloadURL"]))
            #expect(!Self.keys(asset).contains("receipt"))

            // Rereference: {assets: [{recordName, fieldName, value: asset dictionary with a receipt}]}.
            let again = try await client.post(
                "assets/rereference", json: #"{"assets":[{"recordName":"photo-1","fieldName":"image"}]}"#)
            #expect(again.status == 200)
            #expect(Self.keys(again.json) == ["assets"])
            let entry = try #require(again.json["assets"]?.arrayValue?.first)
            #expect(Self.keys(entry) == ["recordName", "fieldName", "value"])
            #expect(Self.keys(entry["value"]).isSubset(of: Self.assetKeys))
            #expect(entry["value"]?["receipt"]?.stringValue != nil)
        }
    }

    @Test("assets/upload in the shared database and with no tokens are BAD_REQUEST")
    func refusesMalformedUploads() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let empty = try await server.client().post("assets/upload", json: #"{"tokens":[]}"#)
            #expect(empty.status == 400)
            #expect(empty.errorCode == "BAD_REQUEST")
            let shared = try await server.client(database: .shared).post(
                "assets/upload", json: #"{"tokens":[{"recordType":"Recipe","fieldName":"image"}]}"#)
            #expect(shared.errorCode == "BAD_REQUEST")
            let expired = try await server.client().post(
                "records/modify",
                json:
                    #"{"operations":[{"operationType":"create","record":{"recordType":"Recipe","recordName":"x","fields":{"image":{"value":{"receipt":"nope","size":3},"type":"ASSETID"}}}}]}"#
            )
            #expect(expired.json["records"]?.arrayValue?.first?["serverErrorCode"] == "BAD_REQUEST")
        }
    }
}
