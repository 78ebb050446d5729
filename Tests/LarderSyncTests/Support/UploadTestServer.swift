import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderFormats
import LarderSync
import LarderTestSupport
import Logging
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An in-process emulator (127.0.0.1, port 0, in memory) with one user, and clients for it.
struct UploadTestServer {
    static let container = "iCloud.com.example.upload-tests"
    static let apiToken = String(repeating: "fedcba9876543210", count: 4)
    static let user = EmulatorUser(userRecordName: "_0a11ce", webAuthToken: "alice+upload/token=", firstName: "Alice")

    let emulator: Emulator
    let baseURL: URL

    static func start(_ adjust: (inout EmulatorConfiguration) -> Void = { _ in }) async throws -> UploadTestServer {
        var configuration = EmulatorConfiguration()
        configuration.port = 0
        configuration.inMemory = true
        configuration.containers = [container]
        configuration.apiTokens = [apiToken]
        configuration.users = [user]
        configuration.requestLogCapacity = 100_000
        adjust(&configuration)
        var logger = Logger(label: "larder.upload.tests")
        logger.logLevel = .critical
        let emulator = try Emulator(configuration: configuration, logger: logger)
        return UploadTestServer(emulator: emulator, baseURL: try await emulator.start())
    }

    func stop() async { await emulator.stop() }

    func target(zone: String = "larder") -> CloudKitTarget {
        CloudKitTarget(
            baseURL: baseURL,
            endpoint: DatabaseEndpoint(container: Self.container, environment: .development, database: .private),
            zoneID: RecordZoneID(zoneName: zone))
    }

    /// A client over URLSession, optionally through a transport wrapper.
    func client(zone: String = "larder", wrap: (any Transport) -> any Transport = { $0 }) -> CloudKitClient {
        CloudKitClient(
            target: target(zone: zone), transport: wrap(URLSessionTransport(timeout: 300)),
            credentials: .apiToken(Self.apiToken, webAuthToken: Self.user.webAuthToken))
    }

    /// A JSON config file a child `larder` can read with --emulator-config.
    func writeConfig(to path: String) throws {
        var configuration = EmulatorConfiguration()
        configuration.containers = [Self.container]
        configuration.apiTokens = [Self.apiToken]
        configuration.users = [Self.user]
        try configuration.write(to: URL(fileURLWithPath: path))
    }

    // MARK: Control plane

    func control(_ method: String, _ path: String, json: String? = nil) async throws -> Value {
        var request = URLRequest(url: baseURL.appendingPathComponent("_emulator").appendingPathComponent(path))
        request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONDecoder().decode(Value.self, from: data)
    }

    /// The logged requests whose operation is `operation`.
    func loggedRequests(_ operation: String) async throws -> [Value] {
        let log = try await control("GET", "requests")
        return (log["requests"]?.arrayValue ?? []).filter { $0["operation"]?.stringValue == operation }
    }

    func clearLog() async throws { _ = try await control("DELETE", "requests") }

    func addFault(_ json: String) async throws { _ = try await control("POST", "faults", json: json) }

    func clearFaults() async throws { _ = try await control("DELETE", "faults") }

    // MARK: Reading back

    /// Expects every record in `zone` exactly once, with its fields, and nothing else there; with
    /// `writes`, that the zone saw that many writes.
    func expectHolds(_ records: [Value], zone: String, writes: Int64? = nil) async throws {
        let (contents, sequence) = try await zoneContents(zone: zone)
        #expect(contents.count == records.count, "zone \(zone)")
        for record in records {
            let name = try RecordMapping.recordName(for: record, type: "recipe")
            guard let stored = contents[name] else {
                Issue.record("\(name) is missing from zone \(zone)")
                continue
            }
            #expect(Semantic.equal(try RecordMapping().value(of: stored), record), "\(zone) \(name)")
        }
        if let writes { #expect(sequence == writes, "zone \(zone) saw \(sequence) writes, not \(writes)") }
    }

    /// Every live record of the zone, by name, read through the change feed, and the number
    /// of writes the zone has seen (the change sequence of the final token).
    func zoneContents(zone: String = "larder") async throws -> (records: [String: Record], writes: Int64) {
        let client = client(zone: zone)
        var token: String?
        var records: [String: Record] = [:]
        while true {
            let page = try await client.zoneChanges(syncToken: token, resultsLimit: 200)
            for result in page.records {
                guard let record = result.record, let name = record.recordName else { continue }
                records[name] = record.deleted == true ? nil : record
            }
            token = page.syncToken
            if !page.moreComing { break }
        }
        let sequence = token.flatMap(ChangeToken.decode)?.sequence ?? -1
        return (records, sequence)
    }
}

/// A clock whose sleeps return at once and only move a virtual time forward.
final class TestClock: Sendable {
    private let state = Mutex<(now: Double, sleeps: [Double])>((0, []))

    var sleeps: [Double] { state.withLock { $0.sleeps } }

    var clock: LarderClock {
        LarderClock(
            now: { Date() },
            monotonicSeconds: { self.state.withLock { $0.now } },
            sleep: { seconds in
                self.state.withLock {
                    $0.now += seconds
                    $0.sleeps.append(seconds)
                }
            })
    }
}

/// Records for the tests: `count` generated recipes, deterministic for a seed.
enum TestRecords {
    static func recipes(_ count: Int, seed: Int = 1, prefix: String = "r") -> [Value] {
        (0..<count).map { index in
            let id = "\(prefix)\(seed)-\(index)"
            let fields: [(String, Value)] = [
                ("id", .string(id)), ("title", .string("Recipe \(index) of seed \(seed)")),
                (
                    "ingredients",
                    .array([
                        .object(
                            Fields([
                                Field(key: "quantity", value: .double(Double(index % 7) + 0.5)),
                                Field(key: "item", value: "flour"), Field(key: "original", value: "some flour"),
                            ]))
                    ])
                ),
                (
                    "instructions",
                    .array([
                        .object(
                            Fields([
                                Field(key: "text", value: "Mix and bake."),
                                Field(key: "timerSeconds", value: .int(Int64(60 * (index % 5 + 1)))),
                            ]))
                    ])
                ),
                ("createdAt", "2024-01-01T10:00:00Z"), ("updatedAt", "2024-01-02T10:00:00Z"),
                ("servings", .int(Int64(index % 6 + 1))),
                ("tags", .array([.string("tag\(index % 3)")])), ("dietaryNotes", .array([])),
                ("isPublic", .bool(index % 2 == 0)),
                ("isSaved", false), ("isCreated", true), ("isFavorited", false), ("isCloudEnabled", true),
                ("isDeleted", false),
            ]
            return .object(Fields(fields.map { Field(key: $0.0, value: $0.1) }))
        }
    }

    /// Records as an envelope file (`{"schema":"recipe","version":3,"records":[…]}`).
    static func envelope(_ records: [Value], type: RecordType = .recipe) -> String {
        let body = records.map { (try? JSONWriterShim.string($0)) ?? "null" }.joined(separator: ",\n")
        return "{\"schema\":\"\(type.rawValue)\",\"version\":\(type.currentVersion),\"records\":[\n\(body)\n]}\n"
    }
}

enum JSONWriterShim {
    static func string(_ value: Value) throws -> String { try JSONWriter.string(value) }
}

/// Compares records as JSON objects do: member order aside, and numbers by value.
enum Semantic {
    static func equal(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { field in b[field.key].map { equal(field.value, $0) } ?? false }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Double(a) == b
        default:
            return lhs == rhs
        }
    }
}

/// Runs the built `larder` on a dispatch thread: `CLI.run` blocks until the child exits, and
/// blocking a cooperative thread would starve the in-process emulator the child talks to.
func runLarder(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
) async throws -> CLIResult {
    try await offCooperativePool { try CLI.run(arguments, in: directory, environment: environment) }
}
extension UploadTestServer: StoppableTestResource {}
