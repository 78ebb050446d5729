import ArgumentParser
import Foundation
import LarderCore
import LarderRegistry
import LarderStore

/// `larder store pending --store PATH`: the queued changes.
struct StorePendingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List the changes waiting for the cloud, oldest first."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "Show at most this many.")
    var limit: Int?

    func run() throws {
        let changes = try SyncState(store: try Store(path: storeOptions.store)).pendingChanges(limit: limit)
        for change in changes {
            print(
                "#\(change.seq) \(change.kind) \(change.type) \(change.id) (\(change.recordName)) based on \(change.baseTag ?? "nothing") "
                    + "queued \(Timestamp.format(change.createdAt))")
        }
        if changes.isEmpty { Stderr.print("larder: nothing pending") }
    }
}

/// `larder store ack --store PATH [SEQ...]`: record the cloud's confirmation.
struct StoreAckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Record that the cloud confirmed queued changes (what sync does after an upload).",
        discussion: """
            For scripts and tests that stand in for sync: each change leaves the queue and its \
            record notes the change tag (`--tag-prefix` + its number) and the time (--now). \
            Without numbers, every queued change is confirmed.
            """
    )

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var nowOption: NowOption

    @Option(name: .long, help: "Change tags are this prefix and the change number.")
    var tagPrefix = "ack-"

    @Argument(help: "Queued change numbers (see larder store pending); none: all.")
    var seqs: [Int64] = []

    func run() throws {
        let sync = SyncState(store: try Store(path: storeOptions.store))
        let changes = try sync.pendingChanges().filter { seqs.isEmpty || seqs.contains($0.seq) }
        for seq in seqs where !changes.contains(where: { $0.seq == seq }) {
            throw LarderError(.usage, "no queued change #\(seq)")
        }
        for change in changes {
            _ = try sync.acknowledge(change, changeTag: "\(tagPrefix)\(change.seq)", at: nowOption.date)
        }
        Stderr.print(
            "larder: \(changes.count) change\(changes.count == 1 ? "" : "s") acknowledged at \(Timestamp.format(nowOption.date))"
        )
    }
}

/// `larder store device ID --store PATH --watermark T [--seen T]`: a device's sync.
struct StoreDeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Record a device's sync: register it, or advance its watermark and last-seen time.",
        discussion: """
            The watermark is the cloud time the device has fetched changes up to; it never moves \
            backwards. A device that was marked expired stays expired until it reports a higher \
            --epoch (it reset); until then this says it must reset.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The device id.")
    var id: String

    @Option(name: .long, help: "A human name for it.")
    var name: String?

    @Option(name: .long, help: ArgumentHelp("The cloud time it has fetched changes up to.", valueName: "time"))
    var watermark: TimestampArgument?

    @Option(name: .long, help: ArgumentHelp("When it synced (default: --now, else the clock).", valueName: "time"))
    var seen: TimestampArgument?

    @Option(name: .long, help: "Its reset count.")
    var epoch = 0

    @Flag(name: .long, help: "This is the device the store belongs to.")
    var this = false

    @OptionGroup var nowOption: NowOption

    func run() throws {
        let sync = SyncState(store: try Store(path: storeOptions.store))
        let status = try sync.recordDeviceSync(
            id: id, name: name, watermark: watermark?.date, seenAt: seen?.date ?? nowOption.date, epoch: epoch,
            isSelf: this)
        Stderr.print("larder: " + status.message(for: id))
    }
}

/// `larder store devices --store PATH`.
struct StoreDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List the devices the store knows.")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        for device in try SyncState(store: try Store(path: storeOptions.store)).devices() {
            print(
                "\(device.id)\t\(device.name)\twatermark \(device.watermark.map(Timestamp.format) ?? "never")\tlast seen \(Timestamp.format(device.lastSeen))"
                    + "\tepoch \(device.epoch)\(device.isSelf ? "\tthis device" : "")\(device.isExpired ? "\tEXPIRED (must reset)" : "")"
            )
        }
    }
}
