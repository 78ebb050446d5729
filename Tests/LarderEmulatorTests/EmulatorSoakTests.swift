import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// The emulator soak: 16 clients of two users doing mixed operations with fault rules on, then a
/// checker.
///
/// `make test` runs `LARDER_SOAK_OPS` (default 300) operations per client; `make soak` runs the issue's 10,000.
@Suite struct EmulatorSoakTests {
    static let operationsPerClient = ProcessInfo.processInfo.environment["LARDER_SOAK_OPS"].flatMap(Int.init) ?? 300
    static let seed = ProcessInfo.processInfo.environment["LARDER_SOAK_SEED"].flatMap(UInt64.init) ?? 20_240_612
    static let clientCount = 16

    /// Retryable refusals, forced conflicts and expired change tokens, on every API the clients use.
    ///
    /// An expired token makes its client read the whole zone again, so expiries are spread to about 64 over a run of
    /// any size.
    static let faultRules = [
        #"{"operation":"changes/zone","probability":\#(min(0.05, 64 / (3.5 * Double(operationsPerClient)))),"error":"CHANGE_TOKEN_EXPIRED"}"#,
        #"{"operation":"records/modify","probability":0.05,"error":"THROTTLED","retryAfter":1}"#,
        #"{"operation":"records/modify","probability":0.03,"error":"CONFLICT"}"#,
        #"{"operation":"records/lookup","probability":0.05,"error":"TRY_AGAIN_LATER"}"#,
        #"{"operation":"records/query","probability":0.05,"error":"THROTTLED"}"#,
        #"{"operation":"changes/zone","probability":0.03,"error":"TRY_AGAIN_LATER"}"#,
        #"{"operation":"zones/modify","probability":0.1,"error":"THROTTLED"}"#,
    ]

    @Test(
        "16 clients of 2 users, mixed operations under fault rules: every acknowledged write visible exactly once, change feeds complete and monotone, nothing readable across users"
    )
    func soak() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            for user in SoakClient.users {
                for zone in SoakClient.zones { try await server.client(user).createZone(zone) }
            }
            for rule in Self.faultRules { try await ControlPlaneTests.addFault(server, rule) }
            let ledger = SoakLedger()
            let started = ContinuousClock.now
            let clients = try await withThrowingTaskGroup(of: SoakClient.self) { group in
                for index in 0..<Self.clientCount {
                    group.addTask {
                        var client = SoakClient(
                            index: index, server: server, ledger: ledger, seed: Self.seed &+ UInt64(index))
                        for _ in 0..<Self.operationsPerClient { try await client.step() }
                        return client
                    }
                }
                var finished: [SoakClient] = []
                for try await client in group { finished.append(client) }
                return finished
            }
            _ = try await ControlPlaneTests.call(server, "DELETE", "faults")
            let elapsed = ContinuousClock.now - started
            try await SoakChecker(server: server, ledger: ledger).check(clients: clients)
            let counts = ledger.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                separator: ", ")
            print(
                "soak: \(Self.clientCount) clients × \(Self.operationsPerClient) operations in \(elapsed), seed \(Self.seed): \(counts)"
            )
            #expect(ledger.counts["refused (fault rule)", default: 0] > 0, "no fault rule fired")
        }
    }
}

/// What the clients saw acknowledged, and counters for the summary.
final class SoakLedger: Sendable {
    /// One acknowledged write: from the change tag `before` (nil: created) to `after` (nil: deleted).
    struct Write: Sendable, Hashable {
        var before: String?
        var after: String?
        var stamp: Int64?
    }

    private let state = Mutex<(writes: [String: [Write]], counts: [String: Int])>(([:], [:]))

    static func key(user: EmulatorUser, zone: String, name: String) -> String {
        "\(user.userRecordName)/\(zone)/\(name)"
    }

    func acknowledge(_ key: String, _ write: Write) {
        state.withLock { $0.writes[key, default: []].append(write) }
    }

    func count(_ what: String) {
        state.withLock { $0.counts[what, default: 0] += 1 }
    }

    var writes: [String: [Write]] { state.withLock { $0.writes } }
    var counts: [String: Int] { state.withLock { $0.counts } }
}

struct SoakFailure: Error, CustomStringConvertible {
    var description: String
}

/// One client: a user, a zone shared with three other clients, a replica kept by the change
/// feed, and the change tags it knows.
struct SoakClient: Sendable {
    static let users = [TestServer.alice, TestServer.bob]
    static let zones = ["Soak-A", "Soak-B"]
    static let recordType = "Soak"

    let index: Int
    let user: EmulatorUser
    let zoneName: String
    let zone: RecordZoneID
    let client: TestClient
    let ledger: SoakLedger
    var random: SeededGenerator
    /// Live records this client knows, with their latest known change tags.
    var known = KnownTags()
    /// The zone as the change feed has told this client.
    var replica: [String: SoakRecord] = [:]
    var token: String?
    var lastSequence: Int64 = -1
    var created = 0
    var stamps: Int64 = 0

    init(index: Int, server: TestServer, ledger: SoakLedger, seed: UInt64) {
        self.index = index
        user = Self.users[index % 2]
        zoneName = Self.zones[(index / 2) % 2]
        zone = RecordZoneID(zoneName: zoneName)
        client = server.client(user)
        self.ledger = ledger
        random = SeededGenerator(seed: seed)
    }

    func key(_ name: String) -> String { SoakLedger.key(user: user, zone: zoneName, name: name) }

    // MARK: Operations

    mutating func step() async throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25: try await create()
        case 25..<50: try await update()
        case 50..<58: try await delete()
        case 58..<68: try await query()
        case 68..<88: try await fetchChanges()
        case 88..<94: try await lookUpOtherUsersRecord()
        default: try await scratchZone()
        }
    }

    /// Sends until the answer is not a retryable refusal (no sleeping: the fault rules' retryAfter
    /// is a hint, and the soak is about correctness).
    func send<Answer: Decodable>(_ operation: String, _ body: some Encodable & Sendable, as _: Answer.Type) async throws
        -> Answer
    {
        try JSONDecoder().decode(Answer.self, from: try await send(operation, body).data)
    }

    func send(_ operation: String, _ body: some Encodable & Sendable) async throws -> TestClient.Answer {
        for _ in 0..<200 {
            let answer = try await client.post(operation, body)
            if answer.status != 200, let code = answer.errorCode, code == "THROTTLED" || code == "TRY_AGAIN_LATER" {
                ledger.count("refused (fault rule)")
                continue
            }
            guard answer.status == 200 else {
                throw SoakFailure(description: "client \(index) \(operation): \(answer.status) \(answer.text)")
            }
            return answer
        }
        throw SoakFailure(description: "client \(index) \(operation): still refused after 200 tries")
    }

    /// A new version's fields, with a stamp no other write has.
    mutating func fields() -> (fields: [String: FieldValue], stamp: Int64) {
        stamps += 1
        let stamp = Int64(index) * 1_000_000_000 + stamps
        return (["owner": .string(user.userRecordName), "client": .int64(Int64(index)), "stamp": .int64(stamp)], stamp)
    }

    func modify(_ operations: [RecordOperation]) async throws -> [SoakRecord] {
        let results = try await send(
            "records/modify", ModifyRecordsRequest(operations: operations, zoneID: zone), as: SoakRecords.self
        ).records
        guard results.count == operations.count else {
            throw SoakFailure(
                description: "client \(index): \(results.count) results for \(operations.count) operations")
        }
        return results
    }

    mutating func create() async throws {
        let count = Int.random(in: 1...3, using: &random)
        var operations: [RecordOperation] = []
        for _ in 0..<count {
            created += 1
            operations.append(
                RecordOperation(.create, .make("c\(index)-\(created)", type: Self.recordType, fields: fields().fields)))
        }
        let results = try await modify(operations)
        for (operation, result) in zip(operations, results) {
            let name = operation.record.recordName ?? ""
            if result.isRecord {
                ledger.acknowledge(
                    key(name), .init(before: nil, after: result.recordChangeTag, stamp: operation.record.stamp))
                known[name] = result.recordChangeTag
                ledger.count("created")
            } else {
                // A forced CONFLICT (and ATOMIC_ERROR for the rest of the batch): not written.
                #expect(
                    ["CONFLICT", "ATOMIC_ERROR"].contains(result.serverErrorCode),
                    "create \(name): \(result.serverErrorCode ?? "?")")
                ledger.count("create refused")
            }
        }
    }

    mutating func pickKnown() -> (String, String)? {
        guard let name = known.randomName(using: &random) else { return nil }
        return known[name].map { (name, $0) }
    }

    mutating func update() async throws {
        guard let (name, tag) = pickKnown() else { return try await create() }
        let (fields, stamp) = fields()
        let record = try await modify([
            RecordOperation(.update, .make(name, type: Self.recordType, fields: fields, tag: tag))
        ])[0]
        if record.isRecord {
            ledger.acknowledge(key(name), .init(before: tag, after: record.recordChangeTag, stamp: stamp))
            #expect(record.stamp == stamp, "update \(name) answered another version")
            known[name] = record.recordChangeTag
            ledger.count("updated")
        } else {
            try await settleRefusal(name, record, doing: "update")
        }
    }

    mutating func delete() async throws {
        guard let (name, tag) = pickKnown() else { return try await create() }
        let record = try await modify([RecordOperation(.delete, .make(name, tag: tag))])[0]
        if record.isRecord {
            #expect(record.deleted == true)
            ledger.acknowledge(key(name), .init(before: tag, after: nil, stamp: nil))
            known[name] = nil
            ledger.count("deleted")
        } else {
            try await settleRefusal(name, record, doing: "delete")
        }
    }

    /// A refused update or delete: someone else changed or deleted the record (or a rule forced
    /// the conflict).
    ///
    /// Looks the record up again.
    mutating func settleRefusal(_ name: String, _ result: SoakRecord, doing what: String) async throws {
        let code = result.serverErrorCode
        #expect(code == "CONFLICT" || code == "NOT_FOUND", "\(what) \(name): \(code ?? "?")")
        ledger.count("\(what) refused")
        let lookup = LookupRecordsRequest(records: [.init(recordName: name)], zoneID: zone)
        let current = try await send("records/lookup", lookup, as: SoakRecords.self).records.first
        if let current, current.isRecord {
            try checkOwner(current, "lookup")
            known[name] = current.recordChangeTag
        } else {
            #expect(current?.serverErrorCode == "NOT_FOUND", "lookup \(name): \(current?.serverErrorCode ?? "?")")
            known[name] = nil
        }
    }

    mutating func query() async throws {
        let request = QueryRecordsRequest(query: Query(recordType: Self.recordType), zoneID: zone, resultsLimit: 50)
        let records = try await send("records/query", request, as: SoakRecords.self).records.filter(\.isRecord)
        #expect(Set(records.compactMap(\.recordName)).count == records.count, "a query page named a record twice")
        for record in records { try checkOwner(record, "query") }
        ledger.count("queries")
    }

    /// Reads the change feed from this client's token to the end and applies it to the replica.
    mutating func fetchChanges() async throws {
        while true {
            let request = ZoneChangesRequest(zones: [.init(zoneID: zone, syncToken: token, resultsLimit: 50)])
            guard let changes = try await send("changes/zone", request, as: SoakZoneChanges.self).zones.first else {
                throw SoakFailure(description: "client \(index): changes/zone answered no zone")
            }
            guard let syncToken = changes.syncToken else {
                #expect(changes.serverErrorCode == "CHANGE_TOKEN_EXPIRED", "\(changes.serverErrorCode ?? "?")")
                // Start over, as a device must when its token expires.
                token = nil
                replica = [:]
                lastSequence = -1  // a feed read from the start again restarts its tokens
                ledger.count("change token expired")
                continue
            }
            let records = (changes.records ?? []).filter(\.isRecord)
            let names = records.compactMap(\.recordName)
            #expect(Set(names).count == names.count, "a change page named a record twice")
            for record in records {
                guard let name = record.recordName else { continue }
                if record.deleted == true {
                    replica[name] = nil
                    known[name] = nil
                } else {
                    try checkOwner(record, "changes")
                    replica[name] = record
                    known[name] = record.recordChangeTag
                }
            }
            let sequence = try #require(ChangeToken.decode(syncToken)).sequence
            #expect(
                sequence >= lastSequence,
                "client \(index): the change token went back from \(lastSequence) to \(sequence)")
            lastSequence = sequence
            token = syncToken
            ledger.count("change pages")
            if changes.moreComing != true { return }
        }
    }

    /// Asks, in this user's own zone, for a record a client of the other user created: never found.
    mutating func lookUpOtherUsersRecord() async throws {
        let other = (index + 1 + 2 * Int.random(in: 0..<8, using: &random)) % 16
        let name = "c\(other)-\(Int.random(in: 1...max(1, created), using: &random))"
        let lookup = LookupRecordsRequest(records: [.init(recordName: name)], zoneID: zone)
        let result = try await send("records/lookup", lookup, as: SoakRecords.self).records.first
        #expect(result?.serverErrorCode == "NOT_FOUND", "\(user.userRecordName) read \(name) of another user")
        ledger.count("cross-user lookups")
    }

    /// Creates a zone of its own, writes into it, deletes it, and checks that it is gone.
    mutating func scratchZone() async throws {
        let scratch = RecordZoneID(zoneName: "Scratch-\(index)")
        let create = try await send(
            "zones/modify", ZonesModifyRequest(operations: [.init(operationType: "create", zoneID: scratch)]))
        #expect(try create.decode(ZonesResponse.self).zones.first?.zone != nil)
        let write = ModifyRecordsRequest(
            operations: [
                RecordOperation(.forceReplace, .make("scratch", type: Self.recordType, fields: fields().fields))
            ], zoneID: scratch)
        let wrote = try await send("records/modify", write, as: SoakRecords.self).records.first
        #expect(wrote?.isRecord == true || wrote?.serverErrorCode == "CONFLICT")
        _ = try await send(
            "zones/modify", ZonesModifyRequest(operations: [.init(operationType: "delete", zoneID: scratch)]))
        let gone = try await client.post(
            "records/lookup", LookupRecordsRequest(records: [.init(recordName: "scratch")], zoneID: scratch))
        if gone.errorCode == "TRY_AGAIN_LATER" { return }
        #expect(
            gone.errorCode == "ZONE_NOT_FOUND"
                || (try? gone.decode(SoakRecords.self).records.first?.serverErrorCode) == "ZONE_NOT_FOUND",
            "\(gone.text)")
        ledger.count("scratch zones")
    }

    func checkOwner(_ record: SoakRecord, _ where: String) throws {
        #expect(
            record.owner == user.userRecordName,
            "\(user.userRecordName) saw \(record.recordName ?? "?") of another user in \(`where`)")
        #expect(
            record.zoneID == nil || record.zoneID?.zoneName == zoneName,
            "\(`where`): record of zone \(record.zoneID?.zoneName ?? "?")")
    }
}

/// Record names with change tags, and a uniform random pick in O(1) (a client of the full-size
/// soak knows thousands).
struct KnownTags: Sendable {
    private var tags: [String: String] = [:]
    private var names: [String] = []
    private var positions: [String: Int] = [:]

    subscript(name: String) -> String? {
        get { tags[name] }
        set {
            if let newValue {
                if tags.updateValue(newValue, forKey: name) == nil {
                    positions[name] = names.count
                    names.append(name)
                }
            } else if tags.removeValue(forKey: name) != nil, let position = positions.removeValue(forKey: name) {
                let last = names.removeLast()
                if position < names.count {
                    names[position] = last
                    positions[last] = position
                }
            }
        }
    }

    func randomName(using random: inout SeededGenerator) -> String? {
        names.isEmpty ? nil : names[Int.random(in: 0..<names.count, using: &random)]
    }
}

extension Record {
    /// The soak's unique write stamp.
    var stamp: Int64? {
        if case .int(let value)? = field("stamp") { return value }
        return nil
    }
}

/// A record, or a record's error, as the soak reads it: only the parts it checks, decoded without
/// `Value`'s `try?` fallbacks (each of those throws, and under Swift Testing every throw captures
/// a backtrace: most of the run's time with `RecordResult`).
struct SoakRecord: Decodable, Sendable {
    struct Typed<T: Decodable & Sendable>: Decodable, Sendable { var value: T }
    struct Fields: Decodable, Sendable {
        var owner: Typed<String>?
        var stamp: Typed<Int64>?
    }

    var recordName: String?
    var recordChangeTag: String?
    var deleted: Bool?
    var zoneID: RecordZoneID?
    var fields: Fields?
    var serverErrorCode: String?

    var isRecord: Bool { serverErrorCode == nil }
    var owner: String? { fields?.owner?.value }
    var stamp: Int64? { fields?.stamp?.value }
}

/// `records/modify`, `records/lookup` and `records/query` answers.
struct SoakRecords: Decodable, Sendable {
    var records: [SoakRecord]
    var continuationMarker: String?
}

/// A `changes/zone` answer: per zone, a page or an error.
struct SoakZoneChanges: Decodable, Sendable {
    struct Zone: Decodable, Sendable {
        var syncToken: String?
        var moreComing: Bool?
        var records: [SoakRecord]?
        var serverErrorCode: String?
    }

    var zones: [Zone]
}

/// Checks the end state against what the clients saw acknowledged.
struct SoakChecker {
    let server: TestServer
    let ledger: SoakLedger

    /// For every record: its acknowledged writes form one chain of change tags from its creation
    /// (no two acknowledged writes from the same tag: no lost update), and the end of the chain is
    /// what must be there (nil: deleted).
    func expectedState(user: EmulatorUser, zone: String) -> [String: SoakLedger.Write] {
        let prefix = SoakLedger.key(user: user, zone: zone, name: "")
        var expected: [String: SoakLedger.Write] = [:]
        for (key, writes) in ledger.writes where key.hasPrefix(prefix) {
            let name = String(key.dropFirst(prefix.count))
            var next = Dictionary(grouping: writes, by: { $0.before ?? "" })
            guard var current = next[""]?.first, next[""]?.count == 1 else {
                Issue.record("\(key): \(writes.filter { $0.before == nil }.count) acknowledged creations")
                continue
            }
            next[""] = nil
            var chain = 1
            while let tag = current.after, let following = next.removeValue(forKey: tag) {
                #expect(
                    following.count == 1,
                    "\(key): \(following.count) acknowledged writes from change tag \(tag) (a lost update)")
                current = following[0]
                chain += 1
            }
            #expect(
                chain == writes.count,
                "\(key): \(writes.count - chain) acknowledged writes are not in the record's history")
            if current.after != nil { expected[name] = current }
        }
        return expected
    }

    func check(clients: [SoakClient]) async throws {
        var namesByUser: [String: Set<String>] = [:]
        for user in SoakClient.users {
            for zone in SoakClient.zones {
                let expected = expectedState(user: user, zone: zone)
                let reader = try #require(clients.first { $0.user == user && $0.zoneName == zone })
                let zoneID = RecordZoneID(zoneName: zone)

                // The whole feed from the start: each live record once, as last acknowledged.
                var feed: [String: SoakRecord] = [:]
                var seen = Set<String>()
                var token: String?
                while true {
                    let request = ZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token, resultsLimit: 200)]
                    )
                    let page = try #require(
                        try await reader.send("changes/zone", request, as: SoakZoneChanges.self).zones.first)
                    for record in page.records ?? [] {
                        guard let name = record.recordName else { continue }
                        #expect(seen.insert(name).inserted, "\(zone): the feed named \(name) twice")
                        if record.deleted != true { feed[name] = record }
                    }
                    token = try #require(page.syncToken, "\(page.serverErrorCode ?? "")")
                    if page.moreComing != true { break }
                }
                expect(feed, equals: expected, "\(user.userRecordName) \(zone) feed")

                // A query with continuation markers: the same records, each once.
                var queried: [String: SoakRecord] = [:]
                var marker: String?
                repeat {
                    let request = QueryRecordsRequest(
                        query: Query(recordType: SoakClient.recordType), zoneID: zoneID, resultsLimit: 200,
                        continuationMarker: marker)
                    let page = try await reader.send("records/query", request, as: SoakRecords.self)
                    for record in page.records where record.isRecord {
                        guard let name = record.recordName else { continue }
                        #expect(
                            queried.updateValue(record, forKey: name) == nil,
                            "\(zone): the query returned \(name) twice")
                    }
                    marker = page.continuationMarker
                } while marker != nil
                expect(queried, equals: expected, "\(user.userRecordName) \(zone) query")

                // Each client's replica, caught up from its own token, is the same: no change missed.
                for var replica in clients where replica.user == user && replica.zoneName == zone {
                    try await replica.fetchChanges()
                    expect(replica.replica, equals: expected, "client \(replica.index) replica")
                }
                namesByUser[user.userRecordName, default: []].formUnion(feed.keys)
            }
        }
        let sets = Array(namesByUser.values)
        #expect(sets.count == 2 && sets[0].isDisjoint(with: sets[1]), "a record name is visible to both users")
    }

    func expect(_ records: [String: SoakRecord], equals expected: [String: SoakLedger.Write], _ what: String) {
        #expect(records.count == expected.count, "\(what): \(records.count) records, \(expected.count) acknowledged")
        let missing = Set(expected.keys).subtracting(records.keys)
        let extra = Set(records.keys).subtracting(expected.keys)
        #expect(missing.isEmpty, "\(what): acknowledged but missing: \(missing.sorted().prefix(10))")
        #expect(extra.isEmpty, "\(what): present but never acknowledged: \(extra.sorted().prefix(10))")
        for (name, write) in expected {
            guard let record = records[name] else { continue }
            #expect(
                record.recordChangeTag == write.after && record.stamp == write.stamp,
                "\(what): \(name) is not its last acknowledged write")
        }
    }
}
