import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import LarderSync
import Synchronization

/// A transport in front of the real emulator that can fail requests on cue, and that checks
/// that no record is in two `records/modify` requests at the same time.
final class ScriptedTransport: Transport {
    enum Injection: Sendable {
        /// Forward unchanged.
        case pass
        /// Answer the whole request with this error, without forwarding.
        case whole(ServerErrorCode, status: Int, retryAfter: Int?)
        /// Forward all but these records; answer them with per-record errors.
        case perRecord([String: ServerErrorCode], retryAfter: Int?)
        /// Forward, let the server apply it, then lose the answer (the connection drops).
        case loseAnswer
    }

    struct Log: Sendable {
        var modifyRequests: [[String]] = []
        var overlaps: [String] = []
        var inFlight: [String: Int] = [:]
    }

    let base: any Transport
    let script: @Sendable (_ number: Int, _ names: [String]) -> Injection
    let log = Mutex(Log())

    init(
        base: any Transport,
        script: @escaping @Sendable (_ number: Int, _ names: [String]) -> Injection = { _, _ in .pass }
    ) {
        self.base = base
        self.script = script
    }

    var modifyRequests: [[String]] { log.withLock { $0.modifyRequests } }
    var overlaps: [String] { log.withLock { $0.overlaps } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.path.hasSuffix("/records/modify") else { return try await base.send(request) }
        let body = try JSONDecoder().decode(Value.self, from: request.body)
        let operations = body["operations"]?.arrayValue ?? []
        let names = operations.compactMap { $0["record"]?["recordName"]?.stringValue }
        let number = log.withLock { log -> Int in
            log.modifyRequests.append(names)
            for name in names {
                if log.inFlight[name, default: 0] > 0 { log.overlaps.append(name) }
                log.inFlight[name, default: 0] += 1
            }
            return log.modifyRequests.count
        }
        defer { log.withLock { log in for name in names { log.inFlight[name, default: 1] -= 1 } } }
        switch script(number, names) {
        case .pass:
            return try await base.send(request)
        case .whole(let code, let status, let retryAfter):
            var fields = Fields()
            fields.append(key: "uuid", value: "scripted")
            fields.append(key: "serverErrorCode", value: .string(code.rawValue))
            fields.append(key: "reason", value: .string("scripted \(code.rawValue)"))
            if let retryAfter { fields.append(key: "retryAfter", value: .int(Int64(retryAfter))) }
            return TransportResponse(status: status, body: Data(try JSONWriter.string(.object(fields)).utf8))
        case .loseAnswer:
            _ = try await base.send(request)
            throw URLError(.networkConnectionLost)
        case .perRecord(let errors, let retryAfter):
            let kept = operations.filter { errors[$0["record"]?["recordName"]?.stringValue ?? ""] == nil }
            var forwarded: [Value] = []
            if !kept.isEmpty {
                guard case .object(var members) = body else { return try await base.send(request) }
                members["operations"] = .array(kept)
                var copy = request
                copy.body = Data(try JSONWriter.string(.object(members)).utf8)
                let response = try await base.send(copy)
                guard response.status == 200 else { return response }
                forwarded = try JSONDecoder().decode(Value.self, from: response.body)["records"]?.arrayValue ?? []
            }
            var results: [Value] = []
            var next = forwarded.makeIterator()
            for name in names {
                if let code = errors[name] {
                    var fields = Fields()
                    fields.append(key: "recordName", value: .string(name))
                    fields.append(key: "serverErrorCode", value: .string(code.rawValue))
                    fields.append(key: "reason", value: .string("scripted \(code.rawValue)"))
                    fields.append(key: "uuid", value: "scripted")
                    if let retryAfter { fields.append(key: "retryAfter", value: .int(Int64(retryAfter))) }
                    results.append(.object(fields))
                } else {
                    results.append(next.next() ?? .null)
                }
            }
            let answer: Value = ["records": .array(results)]
            return TransportResponse(status: 200, body: Data(try JSONWriter.string(answer).utf8))
        }
    }
}

/// Collects outcomes; settles conflicts by a policy.
final class CollectingDelegate: UploadDelegate {
    let policy: ConflictPolicy
    let outcomes = Mutex<[String: [UploadOutcome]]>([:])

    init(policy: ConflictPolicy = .fail) { self.policy = policy }

    func willSend(_ items: [UploadItem]) async throws {}

    func resolveConflict(_ item: UploadItem, ours: [String: FieldValue], server: Record) async throws
        -> ConflictResolution
    {
        policy.resolve(ours: ours, server: server)
    }

    func didFinish(_ results: [(item: UploadItem, outcome: UploadOutcome)]) async throws {
        outcomes.withLock { outcomes in
            for (item, outcome) in results { outcomes[item.recordName, default: []].append(outcome) }
        }
    }

    var all: [String: [UploadOutcome]] { outcomes.withLock { $0 } }

    func rejected() -> [String: String] {
        var reasons: [String: String] = [:]
        for (name, list) in all {
            for outcome in list { if case .rejected(let reason, _) = outcome { reasons[name] = reason } }
        }
        return reasons
    }
}

/// Upload items for records.
func uploadItems(_ records: [Value], type: RecordType = .recipe) throws -> [UploadItem] {
    try records.map { record in
        UploadItem(
            recordName: try RecordMapping.recordName(for: record, type: type.rawValue), recordType: type.rawValue,
            fields: try RecordMapping().fields(of: record, type: type), record: record)
    }
}

/// Runs an uploader over items.
func upload(_ items: [UploadItem], with uploader: Uploader) async throws -> UploadStatistics {
    var remaining = items[...]
    return try await uploader.run {
        guard let first = remaining.first else { return nil }
        remaining = remaining.dropFirst()
        return first
    }
}
