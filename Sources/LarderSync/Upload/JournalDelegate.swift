import LarderCloudKit
import LarderCore

/// Records outcomes in the journal and the dead letters; settles conflicts by the policy.
struct JournalDelegate: UploadDelegate {
    let journal: UploadJournal
    let deadLetters: DeadLetters
    let policy: ConflictPolicy

    func willSend(_ items: [UploadItem]) async throws {
        try await journal.planned(items.map { ($0.recordName, $0.digest) })
    }

    func resolveConflict(_ item: UploadItem, ours: [String: FieldValue], server: Record) async throws
        -> ConflictResolution
    {
        policy.resolve(ours: ours, server: server)
    }

    func didFinish(_ results: [(item: UploadItem, outcome: UploadOutcome)]) async throws {
        var acknowledged: [(name: String, digest: String, tag: String?)] = []
        var kept: [(name: String, digest: String, tag: String?)] = []
        for (item, outcome) in results {
            switch outcome {
            case .written(let tag, _, _), .alreadyThere(let tag, _):
                acknowledged.append((item.recordName, item.digest, tag))
            case .deleted:
                acknowledged.append((item.recordName, item.digest, nil))
            case .keptServer(let server):
                kept.append((item.recordName, item.digest, server.recordChangeTag))
            case .rejected(let reason, let code):
                try deadLetters.add(
                    record: item.record, recordName: item.recordName, recordType: item.recordType, stage: "upload",
                    code: code,
                    reason: reason, origin: item.origin)
                try await journal.deadLetter(name: item.recordName, reason: reason)
            }
        }
        try await journal.acknowledged(acknowledged)
        try await journal.keptServer(kept)
    }
}
