import ArgumentParser
import Foundation
import LarderCore
import LarderRegistry
import LarderStore

/// `larder store stats --store PATH`.
struct StoreStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract:
            "Show what a store holds: records and tombstones per type, pending changes, devices, the recipe cache, the history."
    )

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var nowOption: NowOption

    @Flag(name: .long, help: "Print the counts as one JSON object.")
    var json = false

    func run() throws {
        let stats = try StoreStats(store: try Store(path: storeOptions.store), clock: nowOption.clock)
        if json {
            print(String(decoding: try TombstonesCompactCommand.encoder.encode(stats), as: UTF8.self))
            return
        }
        print("store: \(stats.path) (\(ReportFormat.bytes(stats.fileBytes)))")
        if stats.types.isEmpty { print("records: none") }
        for type in stats.types {
            print(
                "\(type.type)\(type.version.map { " v\($0)" } ?? ""): \(ReportFormat.count(type.records)) records, \(ReportFormat.bytes(type.bytes)): "
                    + "\(ReportFormat.count(type.live)) live (\(ReportFormat.count(type.localOnly)) local-only), "
                    + "\(ReportFormat.count(type.tombstones)) tombstones (\(ReportFormat.count(type.acknowledgedTombstones)) acknowledged, "
                    + "\(ReportFormat.count(type.fatTombstones)) still carrying data)")
        }
        let pending = stats.pending.sorted { $0.key < $1.key }.map { "\($0.key) \(ReportFormat.count($0.value))" }
        print(
            "pending changes: \(ReportFormat.count(stats.pending.values.reduce(0, +)))\(pending.isEmpty ? "" : " (" + pending.joined(separator: ", ") + ")")"
        )
        let others = stats.devices.filter { !$0.isSelf }
        let expired = others.filter(\.isExpired)
        print(
            "devices: \(stats.devices.count) (\(others.count - expired.count) live, \(expired.count) expired\(stats.devices.contains { $0.isSelf } ? ", this one included" : ""))"
        )
        for device in stats.devices {
            print(
                "  \(device.label)\(device.isSelf ? " [this device]" : ""): watermark \(device.watermark.map(Timestamp.format) ?? "never synced"), "
                    + "last seen \(Timestamp.format(device.lastSeen))\(device.isExpired ? ", EXPIRED at \(device.expiredAt.map(Timestamp.format) ?? "?") (must reset)" : "")"
            )
        }
        print(
            "recipe cache: \(ReportFormat.count(stats.cacheEntries)) entries, \(ReportFormat.bytes(stats.cacheBytes)), \(ReportFormat.count(stats.cachePinned)) pinned, "
                + "\(ReportFormat.count(stats.cacheExpired)) expired now"
                + (stats.cacheHits.map { ", hits \(ReportFormat.count($0))" } ?? "")
                + (stats.cacheMisses.map { ", misses \(ReportFormat.count($0))" } ?? ""))
        let history = stats.history.sorted { $0.key < $1.key }.map {
            "\($0.key) \($0.value) (last \(stats.lastRun[$0.key] ?? "?"))"
        }
        print("history: \(history.isEmpty ? "empty" : history.joined(separator: ", "))")
    }
}
