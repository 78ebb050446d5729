import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore

/// `larder tombstones`: the store's persistent minimal tombstones.
struct TombstonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tombstones",
        abstract: "Maintain the store's tombstones (deleted and set-local records).",
        subcommands: [TombstonesCompactCommand.self]
    )
}

/// `larder tombstones compact --store PATH [--horizon 90d] [--now T] [--dry-run]`.
struct TombstonesCompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Drop the tombstones no device can still need, in one transaction.",
        discussion: """
            A tombstone is dropped only when the cloud has acknowledged the delete, nothing \
            pending refers to its record, and every known device's sync watermark is past the \
            acknowledgement. A device not seen for longer than --horizon is marked expired: it \
            stops blocking, and must reset (fetch everything again) when it comes back. Each \
            dropped tombstone queues the purge of its cloud copy. Kept tombstones that still \
            carry data from older versions are stripped to id, recordName, isDeleted, \
            deletedAt, updatedAt (and the change tag).

            The report lists every expired device, every tombstone kept (with the device that \
            blocks it) and every tombstone dropped, then the totals. It is printed after the \
            transaction commits; the run is recorded in the store's history. A second run \
            changes nothing. --dry-run decides the same way and writes nothing.

            Examples:
              larder tombstones compact --store larder.db --dry-run
              larder tombstones compact --store larder.db --horizon 60d --now 2024-06-01T00:00:00Z
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp("How long a device may go unseen before it expires (90d, 12w, 36h).", valueName: "duration"))
    var horizon = DurationArgument(seconds: 90 * 86_400, text: "90d")

    @OptionGroup var nowOption: NowOption

    @Flag(name: .long, help: "Decide and report, but change nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Report as NDJSON: one object per decision, then {\"summary\": …}.")
    var json = false

    func run() throws {
        let store = try Store(path: storeOptions.store)
        var compaction = TombstoneCompaction(store: store)
        compaction.horizon = horizon.seconds
        compaction.clock = nowOption.clock
        compaction.isDryRun = dryRun
        let spool = try ReportSpool()
        let verb = dryRun ? "would drop" : "dropped"
        if !json {
            try spool.line(
                "tombstones compact\(dryRun ? " (dry run: nothing changes)" : ""): \(store.path), now \(Timestamp.format(compaction.clock.now())), horizon \(horizon.text)"
            )
        }
        // The same device blocks many tombstones: describe each (device, count) once.
        var reasons: [TombstoneCompaction.KeepReason: String] = [:]
        let summary = try compaction.run { event in
            if case .kept(_, let reason, _) = event, case .device = reason, reasons[reason] == nil {
                reasons[reason] = reason.description
            }
            try spool.line(
                json
                    ? try Self.json(event, reasons: reasons)
                    : Self.text(event, verb: verb, horizon: horizon.text, reasons: reasons))
        }
        CrashSwitch.step()  // after the commit: a kill here leaves the store as after
        if json {
            try spool.line("{\"summary\":" + String(decoding: try Self.encoder.encode(summary), as: UTF8.self) + "}")
        } else {
            for line in Self.summaryLines(summary, verb: verb) { try spool.line(line) }
        }
        try spool.print()
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func text(
        _ event: TombstoneCompaction.Event, verb: String, horizon: String,
        reasons: [TombstoneCompaction.KeepReason: String] = [:]
    ) -> String {
        switch event {
        case .deviceExpired(let device, let isNew):
            return "expired  device \(device.label): last seen \(Timestamp.format(device.lastSeen))"
                + (isNew
                    ? ", more than \(horizon) ago; it no longer blocks, and must reset when it comes back"
                    : " (expired earlier); it must reset when it comes back")
        case .kept(let tombstone, let reason, let stripped):
            return "kept     \(name(tombstone)): \(reasons[reason] ?? reason.description)"
                + (stripped > 0 ? "; stripped \(stripped) bytes of leftover data" : "")
        case .dropped(let tombstone, let bytes):
            return
                "\(verb == "dropped" ? "dropped " : "drop    ") \(name(tombstone)): acknowledged \(tombstone.acknowledgedAt.map(Timestamp.format) ?? "?"), every device is past it; \(bytes) bytes, cloud purge queued"
        }
    }

    static func name(_ tombstone: TombstoneCompaction.TombstoneReference) -> String {
        "\(tombstone.type) \(tombstone.id)" + (tombstone.deletedAt.map { " (deleted \($0))" } ?? "")
    }

    static func json(_ event: TombstoneCompaction.Event, reasons: [TombstoneCompaction.KeepReason: String] = [:]) throws
        -> String
    {
        var object = ValueBuilder()
        switch event {
        case .deviceExpired(let device, let isNew):
            object.set("event", "expired")
            object.set("device", device.id)
            object.set("name", device.name)
            object.set("lastSeen", device.lastSeen)
            object.set("isNew", isNew)
        case .kept(let tombstone, let reason, let stripped):
            object.set("event", "kept")
            object.set("type", tombstone.type)
            object.set("id", tombstone.id)
            object.set("deletedAt", tombstone.deletedAt)
            object.set("reason", reasons[reason] ?? reason.description)
            if case .device(let device, let others) = reason {
                object.set("blockedBy", device.id)
                object.set("alsoBlocking", others)
            }
            object.set("strippedBytes", stripped)
        case .dropped(let tombstone, let bytes):
            object.set("event", "dropped")
            object.set("type", tombstone.type)
            object.set("id", tombstone.id)
            object.set("deletedAt", tombstone.deletedAt)
            object.set("acknowledgedAt", tombstone.acknowledgedAt)
            object.set("bytes", bytes)
        }
        return try JSONWriter.string(object.value)
    }

    static func summaryLines(_ summary: TombstoneCompaction.Summary, verb: String) -> [String] {
        let blockers = summary.blockingDevices.sorted { $0.key < $1.key }.map {
            "\($0.key) \(ReportFormat.count($0.value))"
        }.joined(separator: ", ")
        return [
            "summary: \(ReportFormat.count(summary.tombstones)) tombstones: \(ReportFormat.count(summary.dropped)) \(verb), \(ReportFormat.count(summary.kept)) kept "
                + "(\(ReportFormat.count(summary.keptNotAcknowledged)) not acknowledged, \(ReportFormat.count(summary.keptPending)) pending, "
                + "\(ReportFormat.count(summary.keptByDevice)) waiting for devices\(blockers.isEmpty ? "" : ": " + blockers))",
            "         devices expired: \(summary.newlyExpired.isEmpty ? "none new" : summary.newlyExpired.joined(separator: ", "))"
                + (summary.expired.count > summary.newlyExpired.count
                    ? " (\(summary.expired.count) expired in all)" : ""),
            "         fat tombstones stripped: \(ReportFormat.count(summary.stripped)), \(ReportFormat.bytes(summary.bytesSaved)) saved; "
                + "dropped tombstones held \(ReportFormat.bytes(summary.bytesFreed)); cloud purges queued: \(ReportFormat.count(summary.purgesQueued))",
        ]
    }
}
