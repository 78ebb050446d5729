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
    /// Why a version has no plan (the planner's own error), for the record that needs it.
    private let planErrors: [Int: String]
    private let current: Int
    private let images: FileImageStore
    private let lock = NSLock()

    /// Plans every way up to the current recipe version; `outputDirectory` receives moved images.
    init(migrator: Migrator, outputDirectory: String) throws {
        self.migrator = migrator
        current = RecordType.recipe.currentVersion
        var plans: [Int: MigrationPlan] = [:]
        var planErrors: [Int: String] = [:]
        for version in try migrator.registry.type(RecordType.recipe.rawValue).versions.map(\.version)
        where version != current {
            do {
                plans[version] = try migrator.plan(type: RecordType.recipe.rawValue, from: version, to: current)
            } catch {
                // Kept, not swallowed: a record of this version is refused with this cause.
                planErrors[version] = (error as? LarderError)?.message ?? "\(error)"
            }
        }
        self.plans = plans
        self.planErrors = planErrors
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
                .schema,
                "the schema registry has no way to migrate recipe v\(version) records to v\(current)"
                    + (planErrors[version].map { ": \($0)" } ?? ""))
        }
        lock.lock()
        defer { lock.unlock() }
        return try migrator.migrate(
            record, plan: plan, environment: migrator.environment(images: images, type: type.rawValue))
    }
}
