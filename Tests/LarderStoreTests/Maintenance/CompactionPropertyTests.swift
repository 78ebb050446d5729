import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderRegistry
@testable import LarderStore

/// Random device histories (seeded): devices create, edit, delete, set local-only, re-enable
/// cloud, sync, go away for weeks, join late, and compact their tombstones.
///
/// After everyone comes back and syncs, no deleted record may be live anywhere: every device's cloud-enabled records
/// equal the cloud's live ones, the cloud never took back a purged record, and every local-only record is exactly what
/// its device made it.
@Suite struct CompactionPropertyTests {
    /// How tombstones leave the cloud in a history.
    enum Cleanup {
        /// `TombstoneCompaction` on a device, its purges pushed at that device's next sync.
        case compaction
        /// Every acknowledged tombstone purged straight from the cloud (seed 003's option B,
        /// time-limited tombstones), to show the check catches what compaction prevents.
        case naive
    }

    struct Outcome {
        var violations: [String] = []
        var purges = 0
        var expiries = 0
        var resets = 0
    }

    static let horizon: TimeInterval = 30 * 86_400

    func runHistory(seed: UInt64, steps: Int = 160, cleanup: Cleanup) throws -> Outcome {
        var random = SeededGenerator(seed: seed)
        var world = try SyncWorld(["A", "B", "C"])
        var awayUntil: [String: Date] = [:]
        var expectedLocal: [String: [String: String]] = [:]  // device → id → title of its local-only records
        var counter = 0
        var outcome = Outcome()
        let joiners = ["D", "E"]

        func present() -> [String] {
            world.devices.keys.sorted().filter { (awayUntil[$0] ?? .distantPast) <= world.now }
        }

        for _ in 0..<steps {
            let roll = Int.random(in: 0..<100, using: &random)
            let ids = present()
            guard let deviceID = ids.randomElement(using: &random) else {
                world.advance(days: 1)
                continue
            }
            let device = world[deviceID]
            let live = try device.liveRecords()
            switch roll {
            case 0..<12:
                counter += 1
                let id = "s\(seed)-\(counter)"
                let localOnly = Int.random(in: 0..<6, using: &random) == 0
                try device.create(id, title: "made on \(deviceID) #\(counter)", at: world.now, localOnly: localOnly)
                if localOnly { expectedLocal[deviceID, default: [:]][id] = "made on \(deviceID) #\(counter)" }
            case 12..<20:
                guard let id = live.keys.sorted().randomElement(using: &random) else { break }
                counter += 1
                let title = "edited on \(deviceID) #\(counter)"
                try device.edit(id, title: title, at: world.now)
                if live[id]?.isCloudEnabled == false { expectedLocal[deviceID, default: [:]][id] = title }
            case 20..<27:
                guard let id = live.keys.sorted().randomElement(using: &random) else { break }
                try device.sync.delete(type: "recipe", id: id, at: world.now)
                expectedLocal[deviceID]?[id] = nil
            case 27..<32:
                guard let id = live.filter({ $0.value.isCloudEnabled }).keys.sorted().randomElement(using: &random)
                else { break }
                try device.sync.setLocalOnly(type: "recipe", id: id, at: world.now)
                expectedLocal[deviceID, default: [:]][id] = live[id]?.value["title"]?.stringValue
            case 32..<35:
                guard let id = live.filter({ !$0.value.isCloudEnabled }).keys.sorted().randomElement(using: &random)
                else { break }
                try device.sync.enableCloud(type: "recipe", id: id, at: world.now)
                expectedLocal[deviceID]?[id] = nil
            case 35..<62:
                try device.sync(with: world.cloud)
            case 62..<70:
                switch cleanup {
                case .compaction:
                    let summary = try device.compact(at: world.now, horizon: Self.horizon)
                    outcome.expiries += summary.newlyExpired.count
                case .naive:
                    for (name, record) in world.cloud.records where record.isTombstone {
                        if world.cloud.purge(
                            recordName: name, tag: record.changeTag, registryTag: world.cloud.registryTag) == nil
                        {
                            outcome.purges += 1
                        }
                    }
                }
            case 70..<88:
                world.advance(minutes: Double(Int.random(in: 1...240, using: &random)))
            case 88..<94:
                world.advance(days: Double(Int.random(in: 1...12, using: &random)))
            case 94..<98:
                awayUntil[deviceID] = world.now.addingTimeInterval(
                    Double(Int.random(in: 10...60, using: &random)) * 86_400)
            default:
                if let joiner = joiners.first(where: { world.devices[$0] == nil }) {
                    world.devices[joiner] = try SimulatedDevice(
                        id: joiner, directory: world.directory, cloud: world.cloud)
                }
            }
        }
        // Everyone comes back and syncs until quiet.
        for _ in 0..<3 {
            world.advance(minutes: 5)
            for id in world.devices.keys.sorted() { try world[id].sync(with: world.cloud) }
        }
        if cleanup == .compaction { outcome.purges = world.cloud.purged.count }
        outcome.resets = world.devices.values.reduce(0) { $0 + $1.resets }
        outcome.violations = try check(world, expectedLocal: expectedLocal)
        return outcome
    }

    /// Every way a deleted record could have come back.
    func check(_ world: SyncWorld, expectedLocal: [String: [String: String]]) throws -> [String] {
        var violations = world.cloud.resurrections.map { "the cloud took back \($0) after its tombstone was purged" }
        let cloudLive = Dictionary(
            uniqueKeysWithValues: world.cloud.liveRecords.values.map { ($0.id, $0.body["title"]?.stringValue) })
        for (deviceID, device) in world.devices.sorted(by: { $0.key < $1.key }) {
            let live = try device.liveRecords()
            let localOnly = Set(live.filter { !$0.value.isCloudEnabled }.keys)
            let mine = live.filter { $0.value.isCloudEnabled }.mapValues { $0.value["title"]?.stringValue }
            let expected = cloudLive.filter { !localOnly.contains($0.key) }
            for (id, title) in mine where expected[id] != title {
                violations.append(
                    expected[id] == nil
                        ? "\(deviceID) still has \(id) (\(title ?? "?")), which the cloud deleted"
                        : "\(deviceID) has \(id) as \(title ?? "?"), the cloud as \(expected[id].flatMap { $0 } ?? "?")"
                )
            }
            for id in expected.keys where mine[id] == nil {
                violations.append("\(deviceID) lacks \(id), which the cloud has")
            }
            let actualLocal = live.filter { !$0.value.isCloudEnabled }.mapValues {
                $0.value["title"]?.stringValue ?? ""
            }
            if actualLocal != (expectedLocal[deviceID] ?? [:]) {
                violations.append(
                    "\(deviceID)'s local-only records changed: \(actualLocal) instead of \(expectedLocal[deviceID] ?? [:])"
                )
            }
        }
        return violations
    }

    @Test("after compaction no deleted record comes back on any live device (random device histories, seeds 1-8)")
    func compactionNeverResurrects() throws {
        var totals = Outcome()
        for seed in UInt64(1)...UInt64(8) {
            let outcome = try runHistory(seed: seed, cleanup: .compaction)
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.prefix(5))")
            totals.purges += outcome.purges
            totals.expiries += outcome.expiries
            totals.resets += outcome.resets
        }
        // The histories must reach the interesting cases, or the property says nothing.
        #expect(
            totals.purges > 0 && totals.expiries > 0 && totals.resets > 0,
            "purges \(totals.purges), expiries \(totals.expiries), resets \(totals.resets)")
    }

    @Test("the same check catches seed 003's option B: purging tombstones without waiting for the devices")
    func checkCatchesTimeLimitedTombstones() throws {
        var caught = 0
        for seed in UInt64(1)...UInt64(4) where try !runHistory(seed: seed, cleanup: .naive).violations.isEmpty {
            caught += 1
        }
        #expect(caught > 0, "purging tombstones without waiting for the devices must bring deleted records back")
    }
}
