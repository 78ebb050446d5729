import Foundation
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderEmulator

/// Security round 3: a request of one object with very many members is answered at once.
///
/// From a caller holding only an API token, it cost the emulator 14-17 s per MB (the duplicate-key check compared every pair of keys
/// once their signatures filled). Now linear: the server answers it, and the next request, at once.
@Suite struct ManyMembersTests {
    @Test(
        "many members attack: a request of 200,000 members is answered and the server serves on",
        .timeLimit(.minutes(3)))
    func manyMembersRequest() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = server.client()
            let fields = (0..<200_000).map { "\"f\($0)\":{\"value\":\($0)}" }.joined(separator: ",")
            let body =
                "{\"operations\":[{\"operationType\":\"create\",\"record\":{\"recordName\":\"wide\","
                + "\"recordType\":\"Note\",\"fields\":{\(fields)}}}]}"
            let answer = try await client.raw("records/modify", body: Data(body.utf8))
            // Refused or stored, the answer comes, and a CloudKit error body names why.
            #expect(answer.status == 200 || answer.errorCode != nil, "\(answer.status) \(answer.text.prefix(300))")
            // As many new fields as fit in one record reach the schema, each added once.
            let fitting = (0..<5_000).map { "\"g\($0)\":{\"value\":1}" }.joined(separator: ",")
            let fits =
                "{\"operations\":[{\"operationType\":\"create\",\"record\":{\"recordName\":\"fits\","
                + "\"recordType\":\"Note\",\"fields\":{\(fitting)}}}]}"
            let stored = try await client.raw("records/modify", body: Data(fits.utf8))
            #expect(stored.status == 200, "\(stored.text.prefix(300))")
            let lookup = try await client.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "x")]))
            #expect(lookup.status == 200)
            let duplicate =
                "{\"operations\":[],\"zoneID\":{\"zoneName\":\"_defaultZone\"},"
                + (0..<100_000).map { "\"k\($0)\":0" }.joined(separator: ",") + ",\"k5\":1}"
            let refused = try await client.raw("records/modify", body: Data(duplicate.utf8))
            #expect(refused.status == 400, "\(refused.text.prefix(300))")
            #expect(refused.text.contains("duplicate key"), "\(refused.text.prefix(300))")
        }
    }
}
