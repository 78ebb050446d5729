import Foundation
import LarderCore
import LarderDedupe
import LarderRegistry

/// The schema registry's migrations as dedupe's ``RecordUpgrade`` hook: records of an older
/// recipe version (declared by their input, or detected as the newest version whose schema
/// accepts them) are migrated in memory to the current version before matching.
///
/// Plans are made once per source version. Images moved out of v1 records (the `image-move`
/// stage) go to `images/` next to the output, as `larder migrate` puts them.
// @unchecked Sendable: the plans are built in init and only read afterwards; the image store,
// the one mutable part, is only used under `lock` (the two input tasks may migrate at once).
final class RegistryUpgrade: @unchecked Sendable {
    private let migrator: Migrator
    private let plans: [Int: MigrationPlan]
    private let current: Int
    private let images: FileImageStore
    private let lock = NSLock()

    /// Plans every way up to the current recipe version; `outputDirectory` receives moved images.
    init(migrator: Migrator, outputDirectory: String) throws {
        self.migrator = migrator
        current = RecordType.recipe.currentVersion
        var plans: [Int: MigrationPlan] = [:]
        for version in try migrator.registry.type(RecordType.recipe.rawValue).versions.map(\.version)
        where version != current {
            plans[version] = try? migrator.plan(type: RecordType.recipe.rawValue, from: version, to: current)
        }
        self.plans = plans
        images = FileImageStore(baseDirectory: outputDirectory)
    }

    /// The hook.
    var hook: RecordUpgrade {
        RecordUpgrade { [self] record, type, declared in try upgrade(record, type: type, declaredVersion: declared) }
    }

    private func upgrade(_ record: Value, type: RecordType, declaredVersion: Int?) throws -> Value {
        guard type == .recipe else { return record }
        let version =
            declaredVersion ?? migrator.registry.newestValidVersion(type: type.rawValue, of: record) ?? current
        guard version != current else { return record }
        guard let plan = plans[version] else {
            throw LarderError(
                .schema, "the schema registry has no way to migrate recipe v\(version) records to v\(current)")
        }
        lock.lock()
        defer { lock.unlock() }
        return try migrator.migrate(
            record, plan: plan, environment: migrator.environment(images: images, type: type.rawValue))
    }
}
