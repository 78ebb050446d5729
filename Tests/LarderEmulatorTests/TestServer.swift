import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderTestSupport
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An emulator on 127.0.0.1, port 0, in memory, with fixed users; stopped by ``stop()``.
struct TestServer {
    static let container = "iCloud.com.example.tests"
    static let apiToken = String(repeating: "0123456789abcdef", count: 4)
    static let alice = EmulatorUser(
        userRecordName: "_a11ce", webAuthToken: "alice+token/with=chars", emailAddress: "alice@example.com",
        firstName: "Alice", lastName: "Example")
    static let bob = EmulatorUser(
        userRecordName: "_b0b", webAuthToken: "bob+token/with=chars", emailAddress: "bob@example.com",
        firstName: "Bob", lastName: "Example")
    static let keyPair = RequestSigner.makeKeyPair()
    static let keyID = String(repeating: "a1b2c3d4", count: 8)

    let emulator: Emulator
    let baseURL: URL

    static func configuration(_ adjust: (inout EmulatorConfiguration) -> Void = { _ in }) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.port = 0
        configuration.inMemory = true
        configuration.containers = [container]
        configuration.apiTokens = [apiToken]
        configuration.users = [alice, bob]
        configuration.serverKeys = [
            ServerKey(keyID: keyID, publicKeyPEM: keyPair.publicKeyPEM, userRecordName: alice.userRecordName)
        ]
        adjust(&configuration)
        return configuration
    }

    static func start(_ adjust: (inout EmulatorConfiguration) -> Void = { _ in }) async throws -> TestServer {
        try await start(configuration: configuration(adjust))
    }

    static func start(configuration: EmulatorConfiguration) async throws -> TestServer {
        var logger = Logger(label: "larder.emulator.tests")
        logger.logLevel = .critical
        let emulator = try Emulator(configuration: configuration, logger: logger)
        let url = try await emulator.start()
        return TestServer(emulator: emulator, baseURL: url)
    }

    func stop() async { await emulator.stop() }

    /// A client acting as `user` (nil: API token only).
    func client(
        _ user: EmulatorUser? = alice, database: DatabaseEndpoint.Scope = .private,
        environment: DatabaseEndpoint.Environment = .development
    ) -> TestClient {
        TestClient(
            baseURL: baseURL,
            endpoint: DatabaseEndpoint(container: TestServer.container, environment: environment, database: database),
            apiToken: TestServer.apiToken, webAuthToken: user?.webAuthToken)
    }
}

/// A tiny CloudKit Web Services client over URLSession.
struct TestClient: Sendable {
    var baseURL: URL
    var endpoint: DatabaseEndpoint
    var apiToken: String?
    var webAuthToken: String?
    var signer: RequestSigner?

    struct Answer: Sendable {
        var status: Int
        var data: Data
        var headers: [String: String]
        var text: String { String(decoding: data, as: UTF8.self) }
        var json: Value { (try? JSONDecoder().decode(Value.self, from: data)) ?? .null }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: data) }

        var errorCode: String? { json["serverErrorCode"]?.stringValue }

        /// An answer from what URLSession returned (header names lowercased).
        init(data: Data, response: URLResponse) {
            let http = response as? HTTPURLResponse
            var fields: [String: String] = [:]
            for (key, value) in http?.allHeaderFields ?? [:] {
                if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
            }
            self.init(status: http?.statusCode ?? 0, data: data, headers: fields)
        }

        init(status: Int, data: Data, headers: [String: String]) {
            self.status = status
            self.data = data
            self.headers = headers
        }
    }

    static func percentEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    func url(_ operation: String, extraQuery: String? = nil) -> URL {
        var query: [String] = []
        if let apiToken { query.append("ckAPIToken=\(apiToken)") }
        if let webAuthToken { query.append("ckWebAuthToken=\(TestClient.percentEncode(webAuthToken))") }
        if let extraQuery { query.append(extraQuery) }
        let text =
            baseURL.absoluteString + endpoint.path(operation)
            + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        guard let url = URL(string: text) else { preconditionFailure("not a URL: \(text)") }
        return url
    }

    func raw(_ operation: String, method: String = "POST", body: Data?, headers: [String: String] = [:]) async throws
        -> Answer
    {
        var request = URLRequest(url: url(operation))
        request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        if let signer {
            for (name, value) in try signer.headers(body: body ?? Data(), path: endpoint.path(operation)) {
                request.setValue(value, forHTTPHeaderField: name)
            }
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(data: data, response: response)
    }

    func post<T: Encodable>(_ operation: String, _ body: T) async throws -> Answer {
        try await raw(operation, body: try JSONEncoder().encode(body))
    }

    func post(_ operation: String, json: String) async throws -> Answer {
        try await raw(operation, body: Data(json.utf8))
    }

    func get(_ operation: String) async throws -> Answer {
        try await raw(operation, method: "GET", body: nil)
    }

    // Typed helpers.

    func modify(_ operations: [RecordOperation], zone: RecordZoneID? = nil, atomic: Bool? = nil) async throws
        -> [RecordResult]
    {
        let answer = try await post(
            "records/modify", ModifyRecordsRequest(operations: operations, zoneID: zone, atomic: atomic))
        guard answer.status == 200 else { throw AnswerError(answer: answer) }
        return try answer.decode(RecordsResponse.self).records
    }

    func createZone(_ name: String) async throws {
        let answer = try await post(
            "zones/modify",
            ZonesModifyRequest(operations: [.init(operationType: "create", zoneID: RecordZoneID(zoneName: name))]))
        guard answer.status == 200, try answer.decode(ZonesResponse.self).zones.first?.zone != nil else {
            throw AnswerError(answer: answer)
        }
    }

    func query(_ query: Query, zone: RecordZoneID? = nil, limit: Int? = nil, marker: String? = nil) async throws
        -> QueryResponse
    {
        let answer = try await post(
            "records/query",
            QueryRecordsRequest(query: query, zoneID: zone, resultsLimit: limit, continuationMarker: marker))
        guard answer.status == 200 else { throw AnswerError(answer: answer) }
        return try answer.decode(QueryResponse.self)
    }

    func zoneChanges(_ zone: RecordZoneID, token: String? = nil, limit: Int? = nil) async throws -> ZoneChangesResult {
        let answer = try await post(
            "changes/zone", ZoneChangesRequest(zones: [.init(zoneID: zone, syncToken: token, resultsLimit: limit)]))
        guard answer.status == 200, let first = try answer.decode(ZoneChangesResponse.self).zones.first else {
            throw AnswerError(answer: answer)
        }
        return first
    }
}

struct AnswerError: Error, CustomStringConvertible {
    var answer: TestClient.Answer
    var description: String { "HTTP \(answer.status): \(answer.text)" }
}

extension Record {
    static func make(
        _ name: String?, type: String = "Recipe", fields: [String: FieldValue] = [:], tag: String? = nil,
        zone: RecordZoneID? = nil
    ) -> Record {
        Record(
            recordName: name, recordType: type, recordChangeTag: tag, fields: fields.mapValues(RecordField.init),
            zoneID: zone)
    }

    func field(_ name: String) -> Value? { fields?[name]?.value }
}

extension Array where Element == RecordResult {
    var records: [Record] { compactMap(\.record) }
    var errorCodes: [String?] { map { $0.error?.serverErrorCode.rawValue } }
}
extension TestServer: StoppableTestResource {}
