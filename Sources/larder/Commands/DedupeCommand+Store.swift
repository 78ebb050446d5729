import Foundation
import LarderCore
import LarderDedupe
import LarderFormats
import LarderRegistry
import LarderStore

extension DedupeCommand {
    /// `larder dedupe --store PATH`: dedupe the store's recipes in place, in one transaction.
    ///
    /// Each merged cluster's survivor row gets the merged record (a queued save); every other
    /// member becomes a minimal tombstone (a queued delete), through ``SyncState`` like any local
    /// edit, so the next sync carries the merge to the other devices. The merge log keeps every member's whole record and is
    /// always written (`--log`, default `PATH.dedupe-<time>.json`, a new file each run), so
    /// nothing replaced is lost.
    func runStore(_ path: String, configuration: DedupeConfiguration) async throws {
        let store = try Store(path: path)
        let type = RecordType.recipe
        if let state = try store.schemaStates().first(where: { $0.type == type.rawValue }) {
            if let from = state.pendingFrom, let to = state.pendingTo {
                throw LarderError(
                    .store,
                    "\(path) is halfway through migrating recipes from v\(from) to v\(to): finish it with larder migrate --store \(path) first"
                )
            }
            if let version = state.version, version != type.currentVersion {
                throw LarderError(
                    .store,
                    "\(path) holds recipe v\(version) records and dedupe writes v\(type.currentVersion): migrate the store first (larder migrate --store \(path) --type recipe)"
                )
            }
        }
        let snapshot = try store.read { transaction in try transaction.snapshot(type: type.rawValue) }
        let rejectsWriter = try rejects.resolvedRejectsPath.map { try RejectsWriter(path: $0) }
        let input = DedupeInput(name: path, role: .mixed) { StoreRecordReader(store: store, type: type.rawValue) }
        let analysis = try await DedupePass(inputs: [input], configuration: configuration).analyze(
            rejects: rejectsWriter)
        try rejectsWriter?.finish()
        if let explain {
            // Inspecting: the store is left as it is.
            print(TerminalText.escaped(try analysis.explain(explain)), terminator: "")
            report(analysis.summary, analysis: analysis, logPath: nil)
            Stderr.print("larder dedupe: --explain leaves \(path) unchanged")
            return
        }
        let logPath = log ?? Self.newLogPath(for: path)
        // A run killed by SIGKILL leaves its (empty) temporary log: each run's log has a new name,
        // so remove any dedupe log temporaries of this store whose process is gone.
        let storeName = path.split(separator: "/").last.map(String.init) ?? path
        TemporaryFiles.removeStale(in: PathParts.directory(of: path)) {
            $0.hasPrefix(storeName + ".dedupe-") && $0.hasSuffix(".json")
        }
        let logWriter = try MergeLogWriter(
            sink: try FileByteSink(path: logPath), threshold: threshold, inputs: [(path, "store")])
        let clock = LarderClock.system
        let startedAt = clock.now()
        let started = clock.monotonicSeconds()
        var retired = 0
        try store.write { transaction in
            guard try transaction.snapshot(type: type.rawValue) == snapshot else {
                throw LarderError(
                    .store, "\(path) changed while dedupe was reading it; nothing was written, run dedupe again")
            }
            // Through the sync state, like any local edit: the rewritten survivor and each retired
            // member (a minimal tombstone, seed 003) are queued for the cloud, so the merge reaches
            // the user's other devices.
            try analysis.applyMerges(log: logWriter, logRecords: true) { cluster in
                guard cluster.record["isDeleted"] != .bool(true) else {
                    throw LarderError(
                        .store,
                        "\(path): the survivor \(cluster.survivorID) of a cluster is deleted; nothing was written")
                }
                try transaction.saveIfChanged(cluster.record, type: type.rawValue, at: startedAt)
                for member in cluster.members where member.id != cluster.survivorID {
                    if try transaction.delete(type: type.rawValue, id: member.id, at: startedAt) == .changed {
                        retired += 1
                    }
                }
            }
            let summary = analysis.summary
            try transaction.recordHistory(
                kind: HistoryKind(rawValue: "dedupe"), type: type.rawValue, source: logPath, appliedAt: startedAt,
                duration: clock.monotonicSeconds() - started, recordsTouched: summary.mergedRecords, success: true,
                details: try JSONWriter.string(summary.value))
        }
        report(analysis.summary, analysis: analysis, logPath: logPath)
        Stderr.print(
            "larder dedupe: \(retired) duplicate record\(retired == 1 ? "" : "s") in \(path) became tombstones; their records are in \(logPath)"
        )
        if analysis.summary.rejected > 0 { throw DataErrorsExit() }
    }

    /// `PATH.dedupe-20240501T101500Z.json`, with a counter when that exists already.
    static func newLogPath(for store: String) -> String {
        let stamp = Timestamp.format(LarderClock.system.now()).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "")
        var candidate = "\(store).dedupe-\(stamp).json"
        var n = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = "\(store).dedupe-\(stamp)-\(n).json"
            n += 1
        }
        return candidate
    }
}
