import Foundation
import GRDB
public import LarderCore
public import LarderFormats
public import LarderRegistry
import LarderSQLite

/// The store's migrations, with their ledger: migrate (one transaction per step, resuming after
/// the last committed step), dry runs, imports, ledger validation, repair and baseline.
///
/// Modelled on GRDB's `DatabaseMigrator` (one transaction per migration, a ledger table) and
/// Flyway (checksums, validate, repair, baseline).
public struct Ledger {
    /// The store.
    public let store: Store
    /// The migrator (registry, stages, converters).
    public let migrator: Migrator
    /// The clock: when steps are applied and recorded.
    public var clock: LarderClock = .system

    /// Creates a ledger over `store`.
    public init(store: Store, migrator: Migrator) {
        self.store = store
        self.migrator = migrator
    }

    var registry: SchemaRegistry { migrator.registry }
    private static let batchSize = 500

    // MARK: Checks

    /// Refuses a store whose types are newer than the registry knows.
    func refuseTooNew(_ states: [SchemaState]) throws {
        for state in states {
            guard let entry = registry.manifest.type(state.type) else {
                throw LarderError(
                    .store,
                    "\(store.path) holds \(state.type) records, a type \(registry.manifest.file) does not define")
            }
            for version in [state.version, state.pendingTo].compactMap({ $0 }) where version > entry.latest {
                throw LarderError(
                    .store,
                    "\(store.path) holds \(state.type) records at schema version \(version), newer than \(registry.manifest.file) knows (newest: \(entry.latest)); use a newer larder or pass --schemas with the registry that wrote it"
                )
            }
        }
    }

    /// The types with records or state, in manifest order.
    public func types() throws -> [String] {
        let stored = try store.readDatabase { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT type FROM records UNION SELECT type FROM schema_state")
        }
        return registry.manifest.types.map(\.name).filter(stored.contains)
            + stored.filter { registry.manifest.type($0) == nil }
    }

    // MARK: Import

    /// What an import did.
    public struct ImportSummary: Sendable {
        public var imported = 0
        public var rejected = 0
        public var versions: [String: Int?] = [:]
    }

    /// Loads records into the store in one transaction: each is checked against its type's schema
    /// at its version (declared, `version`, or the store's), and inserted or replaced by id.
    /// - Parameters:
    ///   - inputs: The files to read (`-`: standard input).
    ///   - format: The input format; sniffed when nil.
    ///   - recordType: The records' type when the input does not declare it.
    ///   - version: The records' schema version when the input does not declare it.
    ///   - keepGoing: Reject bad records and import the rest, instead of stopping at the first.
    ///   - onReject: receives rejected records under `keepGoing`.
    /// - Returns: How many records were imported and rejected, by type and version.
    /// - Throws: ``LarderError``: the first bad record without `keepGoing` (nothing is imported),
    ///   `usage-error` when the records' version differs from the store's for their type.
    public func importRecords(
        inputs: [String], format: DataFormat? = nil, recordType: RecordType? = nil, version: Int? = nil,
        keepGoing: Bool = false,
        onReject: (Value?, LarderError) throws -> Void = { _, _ in }
    ) throws -> ImportSummary {
        let started = clock.now()
        return try store.writeDatabase { db in
            var summary = ImportSummary()
            let states = try Store.states(db)
            try refuseTooNew(states)
            var stateByType = Dictionary(uniqueKeysWithValues: states.map { ($0.type, $0) })
            // Whether the store holds records of a type: asked once per type, then kept up to date
            // here (a count per record would scan the type's rows each time: quadratic).
            var typeHasRecords: [String: Bool] = [:]
            var pipeline = ConversionPipeline(
                inputs: inputs, inputFormat: format, recordType: recordType, check: .none, keepGoing: keepGoing)
            pipeline.transform = { record, type, declared in
                let name = type.rawValue
                let existing = stateByType[name]
                var resolved = declared ?? version ?? existing?.version
                let storeHasRecords: Bool
                if let known = typeHasRecords[name] {
                    storeHasRecords = known
                } else {
                    storeHasRecords =
                        try Bool.fetchOne(
                            db, sql: "SELECT EXISTS (SELECT 1 FROM records WHERE type = ?)", arguments: [name]) ?? false
                    typeHasRecords[name] = storeHasRecords
                }
                if let resolved, let current = existing?.version, resolved != current {
                    throw LarderError(
                        .usage,
                        "these \(name) records are v\(resolved) but the store holds v\(current): migrate the file first (larder migrate FILE --to \(current)) or the store (larder migrate --store \(store.path) --type \(name) --to \(resolved))"
                    )
                }
                if resolved != nil, existing?.version == nil, storeHasRecords {
                    throw LarderError(
                        .usage,
                        "the store holds \(name) records without a schema version: adopt them first with larder schema baseline --type \(name) --version N --store \(store.path)"
                    )
                }
                if let resolved {
                    _ = try registry.version(type: name, resolved)
                    try migrator.check(record, type: name, version: resolved)
                    if existing == nil {
                        let state = SchemaState(
                            type: name, version: resolved, pendingFrom: nil, pendingTo: nil, stepsDone: 0)
                        try Store.setState(db, state, now: Timestamp.format(clock.now()))
                        stateByType[name] = state
                    }
                } else if existing == nil && !storeHasRecords {
                    // No version anywhere: the records stay unversioned until a baseline adopts them.
                    resolved = nil
                }
                try Store.upsert(db, type: name, record: record, version: resolved)
                typeHasRecords[name] = true
                summary.versions[name] = resolved
                return record
            }
            let result = try pipeline.run(makeWriter: { _, _ in NullRecordWriter() }) { record, error in
                if error.code == .usage || error.code == .schema { throw error }
                try onReject(record, error)
            }
            summary.imported = result.written
            summary.rejected = result.rejected
            try Store.recordHistory(
                db, kind: .import, source: inputs.joined(separator: ", "), appliedAt: started,
                duration: clock.now().timeIntervalSince(started),
                recordsTouched: result.written, success: true, details: "\(result.rejected) rejected")
            return summary
        }
    }

    // MARK: Migrate

    /// What a store migration did.
    public struct MigrationOutcome: Sendable {
        /// Steps committed, in order, with the records each changed.
        public var steps: [(id: String, direction: MigrationDirection, touched: Int)] = []
        /// Records moved to the rejects table.
        public var rejected = 0
        /// Where the type ended.
        public var finalVersion: Int?
        /// A note when the run resumed an interrupted transition.
        public var resumedFrom: String?
    }

    /// The plan for `type` from where the store is to `target` (newest when `nil`), resuming a
    /// transition a previous run left between steps.
    public func plan(type: String, to target: Int?) throws -> (plan: MigrationPlan, skip: Int, state: SchemaState) {
        let states = try store.schemaStates()
        try refuseTooNew(states)
        guard let state = states.first(where: { $0.type == type }) else {
            if try store.recordCount(type: type) > 0 {
                throw LarderError(
                    .usage,
                    "\(store.path) holds \(type) records without a schema version: adopt them with larder schema baseline --type \(type) --version N"
                )
            }
            throw LarderError(.usage, "\(store.path) holds no \(type) records")
        }
        guard let version = state.version else {
            throw LarderError(
                .usage,
                "\(store.path): \(type) has no schema version: adopt it with larder schema baseline --type \(type) --version N"
            )
        }
        let goal = try target ?? registry.type(type).latest
        if let pendingFrom = state.pendingFrom, let pendingTo = state.pendingTo {
            // Finish the interrupted transition first, then go on to the goal.
            let first = try migrator.plan(type: type, from: pendingFrom, to: pendingTo)
            let rest = try migrator.plan(type: type, from: pendingTo, to: goal)
            return (
                MigrationPlan(type: type, from: pendingFrom, to: goal, steps: first.steps + rest.steps),
                state.stepsDone, state
            )
        }
        return (try migrator.plan(type: type, from: version, to: goal), 0, state)
    }

    /// Migrates every record of `type` in the store to `target`: one transaction per step, each
    /// recorded in the history with its checksum, duration and records touched.
    ///
    /// The last step of each transition validates every record against the new version.
    ///
    /// A step that fails rolls back alone: the store stays as after the previous step, the
    /// failure is recorded in the history (success = 0), and the next run resumes there.
    /// - Parameters:
    ///   - type: The record type.
    ///   - target: The version to reach; the registry's newest when nil.
    ///   - keepGoing: Move records a step cannot migrate to the rejects table and go on.
    ///   - onReject: receives records rejected under `keepGoing` (moved to the rejects table).
    /// - Returns: The steps applied or skipped and the records touched.
    /// - Throws: ``LarderError``: no migration path, a failed step (recorded in the history), or
    ///   `store-error` when the database fails.
    public func migrate(
        type: String, to target: Int? = nil, keepGoing: Bool = false,
        onReject: (Value, LarderError) throws -> Void = { _, _ in }
    ) throws -> MigrationOutcome {
        let (plan, skip, state) = try self.plan(type: type, to: target)
        let remaining = Array(plan.steps.dropFirst(skip))
        if !keepGoing, remaining.contains(where: { $0.direction == .down }) {
            try refuseLossyRecords(type: type, steps: remaining)
        }
        var outcome = MigrationOutcome()
        if skip > 0, let from = state.pendingFrom, let to = state.pendingTo {
            outcome.resumedFrom =
                "resuming \(type) v\(from) → v\(to) after step \(skip) of \(plan.steps.first?.transitionLength ?? 0)"
        }
        outcome.finalVersion = state.version
        for index in skip..<plan.steps.count {
            let step = plan.steps[index]
            let started = clock.now()
            do {
                let (touched, rejected) = try store.writeDatabase { db in
                    try apply(step, type: type, db: db, keepGoing: keepGoing, started: started, onReject: onReject)
                }
                outcome.steps.append((step.step.id, step.direction, touched))
                outcome.rejected += rejected
                if step.endsTransition { outcome.finalVersion = step.toVersion }
            } catch let error as LarderError {
                do {
                    try store.writeDatabase { db in
                        try Store.recordHistory(
                            db, kind: .migration, type: type, stepID: step.step.id, direction: step.direction.rawValue,
                            fromVersion: step.fromVersion,
                            toVersion: step.toVersion, checksum: migrator.checksum(of: step.step),
                            source: registry.manifest.file, appliedAt: started,
                            duration: clock.now().timeIntervalSince(started), recordsTouched: 0, success: false,
                            details: error.description)
                    }
                } catch let historyError {
                    // The step's own error is what the caller needs; say that its record is missing too.
                    var unrecorded = error
                    unrecorded.message +=
                        " (the failed run could not be recorded in the history either: \(historyError))"
                    throw unrecorded
                }
                throw error
            }
        }
        return outcome
    }

    /// Runs a plan that goes down over every record in memory first, so that a record the way down
    /// would lose data in (an `add` step's field holding data, two elements where one fits) is
    /// refused before any step changes the store.
    /// - Throws: ``LarderError`` naming the type, the record's id and the field.
    private func refuseLossyRecords(type: String, steps: [PlannedStep]) throws {
        try store.readDatabase { db in
            let environment = migrator.environment(
                images: StoreImageStore(db: db, type: type, isDryRun: true), type: type)
            try Self.forEachRecord(type: type, db: db) { _, id, original in
                var value = original
                do {
                    for step in steps { _ = try step.apply(to: &value, environment: environment) }
                } catch let error as LarderError {
                    let located = error.locatedAt(SourceLocation(file: store.path))
                    throw LarderError(
                        located.code,
                        "\(type) \(id): \(located.message) (nothing was changed: the store's \(type) records stay as they are)",
                        location: located.location)
                }
            }
        }
    }

    /// Calls `body` with each stored record of `type` in rowid order, reading ``batchSize`` rows at a
    /// time inside `db`; bodies are parsed a batch at a time (a damaged one is an error naming it).
    ///
    /// `body` may change or delete the record it is given: paging goes on from its rowid.
    private static func forEachRecord(
        type: String, db: Database, _ body: (_ rowID: Int64, _ id: String, _ value: Value) throws -> Void
    ) throws {
        var lastRowID: Int64 = 0
        while true {
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT rowid, type, id, body FROM records WHERE type = ? AND rowid > ? ORDER BY rowid LIMIT ?",
                arguments: [type, lastRowID, batchSize])
            guard let last = rows.last else { return }
            lastRowID = try last.decode(atIndex: 0, in: .records)
            let bodies = try rows.map(StoredBody.init(row:))
            let values = try RecordBodies.parse(batch: bodies)
            for (index, row) in rows.enumerated() {
                try body(try row.decode(atIndex: 0, in: .records), bodies[index].id, values[index])
            }
        }
    }

    /// One step over every record of the type, inside the caller's transaction.
    private func apply(
        _ step: PlannedStep, type: String, db: Database, keepGoing: Bool, started: Date,
        onReject: (Value, LarderError) throws -> Void
    ) throws -> (touched: Int, rejected: Int) {
        let environment = migrator.environment(images: StoreImageStore(db: db, type: type), type: type)
        let schema = step.endsTransition ? try registry.jsonSchema(type: type, version: step.toVersion) : nil
        var touched = 0
        var rejected = 0
        try Self.forEachRecord(type: type, db: db) { rowID, id, original in
            var value = original
            do {
                let changed = try step.apply(to: &value, environment: environment)
                if let schema, !schema.isValid(value) {
                    throw SchemaCheckFailure.error(schema: schema, violations: schema.validate(value, limit: 10))
                }
                if changed {
                    try Store.updateBody(db, rowID: rowID, type: type, id: id, record: value)
                    touched += 1
                }
            } catch let error as LarderError {
                let located = error.locatedAt(SourceLocation(file: store.path))
                guard keepGoing else {
                    throw LarderError(
                        located.code,
                        "\(type) \(id): \(located.message) (step \(step.step.id) rolled back; the store is as after the step before)",
                        location: located.location)
                }
                try db.execute(
                    sql:
                        "INSERT INTO rejects (type, id, version, body, reason, step_id, rejected_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [
                        type, id, step.fromVersion, try JSONWriter.string(original), located.description,
                        step.step.id, Timestamp.format(clock.now()),
                    ])
                try db.execute(sql: "DELETE FROM records WHERE rowid = ?", arguments: [rowID])
                try onReject(original, located)
                rejected += 1
            }
        }
        var state = try Store.state(db, type: type) ?? SchemaState(type: type, version: step.fromVersion, stepsDone: 0)
        if step.endsTransition {
            try db.execute(sql: "UPDATE records SET version = ? WHERE type = ?", arguments: [step.toVersion, type])
            state.version = step.toVersion
            state.pendingFrom = nil
            state.pendingTo = nil
            state.stepsDone = 0
        } else {
            state.pendingFrom = step.fromVersion
            state.pendingTo = step.toVersion
            state.stepsDone = step.position
        }
        try Store.setState(db, state, now: Timestamp.format(clock.now()))
        try Store.recordHistory(
            db, kind: .migration, type: type, stepID: step.step.id, direction: step.direction.rawValue,
            fromVersion: step.fromVersion,
            toVersion: step.toVersion, checksum: migrator.checksum(of: step.step), source: registry.manifest.file,
            appliedAt: started,
            duration: clock.now().timeIntervalSince(started), recordsTouched: touched, success: true,
            details: rejected > 0 ? "\(rejected) rejected" : nil)
        return (touched, rejected)
    }

    /// Simulates ``migrate(type:to:keepGoing:onReject:)`` in memory: reads every record of the
    /// type, runs the plan, validates, and writes nothing.
    public func dryRun(type: String, to target: Int? = nil) throws -> (MigrationReport, MigrationPlan, skip: Int) {
        let (plan, skip, _) = try self.plan(type: type, to: target)
        let report = MigrationReport(collectsSamples: true)
        let remaining = MigrationPlan(
            type: type, from: plan.from, to: plan.to, steps: Array(plan.steps.dropFirst(skip)))
        try store.readDatabase { db in
            let environment = migrator.environment(
                images: StoreImageStore(db: db, type: type, isDryRun: true), type: type)
            try Self.forEachRecord(type: type, db: db) { _, _, value in
                do {
                    _ = try migrator.migrate(value, plan: remaining, environment: environment, report: report)
                } catch is LarderError {
                    // A record the plan rejects: the report counts it and keeps the first reasons.
                }
            }
        }
        return (report, remaining, skip)
    }

    // MARK: Validate, repair, baseline

    /// A problem between the store's ledger and the registry.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Compares every applied step with the registry: a changed definition (checksum), a step
    /// that is no longer there, a failed step not cleared, a type newer than the registry.
    public func validate() throws -> (problems: [Problem], notes: [String]) {
        var problems: [Problem] = []
        var notes: [String] = []
        let states = try store.schemaStates()
        do {
            try refuseTooNew(states)
        } catch let error as LarderError {
            problems.append(Problem(message: error.message))
        }
        let steps = registry.manifest.stepsByID
        for entry in try store.history() where entry.kind == .migration && !entry.isRemoved {
            guard let id = entry.stepID else { continue }
            guard entry.isSuccess else {
                problems.append(
                    Problem(
                        message:
                            "step \(id) failed at \(entry.appliedAt) (\(entry.details ?? "no details")); clear it with larder schema repair"
                    ))
                continue
            }
            guard let declared = steps[id] else {
                problems.append(
                    Problem(
                        message:
                            "applied step \(id) (checksum \(entry.checksum ?? "none")) is no longer in \(registry.manifest.file); realign with larder schema repair"
                    ))
                continue
            }
            let current = migrator.checksum(of: declared.step)
            if current != entry.checksum {
                problems.append(
                    Problem(
                        message:
                            "step \(id) in \(registry.manifest.file) (\(declared.step.pointer)) changed after it was applied to \(store.path): applied checksum \(entry.checksum ?? "none"), current checksum \(current); restore the step, or accept the change with larder schema repair"
                    ))
            }
        }
        for state in states {
            if let from = state.pendingFrom, let to = state.pendingTo {
                notes.append(
                    "\(state.type) is between v\(from) and v\(to) after \(state.stepsDone) step(s): larder migrate --store \(store.path) --type \(state.type) finishes it"
                )
            } else if let version = state.version, let latest = registry.manifest.type(state.type)?.latest,
                version < latest
            {
                notes.append("\(state.type) is at v\(version); the newest is v\(latest)")
            } else if state.version == nil {
                notes.append("\(state.type) has no schema version yet (larder schema baseline)")
            }
        }
        return (problems, notes)
    }

    /// Realigns the ledger with the registry in one transaction: failed steps are cleared, changed
    /// steps take their current checksums, and steps no longer in the registry are marked removed.
    ///
    /// A `repair` row lists what changed.
    /// - Returns: what was done, one line each.
    public func repair() throws -> [String] {
        let started = clock.now()
        let steps = registry.manifest.stepsByID
        return try store.writeDatabase { db in
            var actions: [String] = []
            let entries = try Row.fetchAll(
                db, sql: "SELECT * FROM history WHERE kind = 'migration' AND is_removed = 0 ORDER BY rank"
            ).map(HistoryEntry.init(row:))
            for entry in entries {
                guard let id = entry.stepID else { continue }
                if !entry.isSuccess {
                    try db.execute(sql: "UPDATE history SET is_removed = 1 WHERE rank = ?", arguments: [entry.rank])
                    actions.append("cleared the failed run of step \(id) at \(entry.appliedAt)")
                } else if let declared = steps[id] {
                    let current = migrator.checksum(of: declared.step)
                    if current != entry.checksum {
                        try db.execute(
                            sql: "UPDATE history SET checksum = ? WHERE rank = ?", arguments: [current, entry.rank])
                        actions.append("step \(id): checksum \(entry.checksum ?? "none") → \(current)")
                    }
                } else {
                    try db.execute(sql: "UPDATE history SET is_removed = 1 WHERE rank = ?", arguments: [entry.rank])
                    actions.append("step \(id) is no longer in the registry: marked removed")
                }
            }
            if !actions.isEmpty {
                try Store.recordHistory(
                    db, kind: .repair, source: registry.manifest.file, appliedAt: started,
                    duration: clock.now().timeIntervalSince(started),
                    recordsTouched: 0, success: true, details: actions.joined(separator: "\n"))
            }
            return actions
        }
    }

    /// Adopts the records of `type` at `version` (Flyway's baseline): for a store whose records
    /// carry no schema version.
    ///
    /// Every record must validate against that version.
    /// - Throws: ``LarderError`` `usage-error` when the type already has a version or migrations,
    ///   `malformed-record` listing the first records that do not validate.
    public func baseline(type: String, version: Int) throws -> Int {
        let started = clock.now()
        _ = try registry.version(type: type, version)
        let schema = try registry.jsonSchema(type: type, version: version)
        let checksum = sha256Checksum(try registry.jsonSchemaValue(type: type, version: version).canonicalJSON)
        return try store.writeDatabase { db in
            if let state = try Store.state(db, type: type), let current = state.version {
                throw LarderError(
                    .usage, "\(store.path): \(type) is already at v\(current); baseline adopts only unversioned records"
                )
            }
            let migrations =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM history WHERE kind = 'migration' AND type = ? AND is_removed = 0",
                    arguments: [type]) ?? 0
            if migrations > 0 {
                throw LarderError(
                    .usage,
                    "\(store.path): \(type) already has \(migrations) applied migration step(s); baseline is for stores without history"
                )
            }
            var count = 0
            var failures: [String] = []
            try Self.forEachRecord(type: type, db: db) { _, id, value in
                count += 1
                if !schema.isValid(value), failures.count < 5 {
                    failures.append(
                        "\(id): \(SchemaCheckFailure.error(schema: schema, violations: schema.validate(value, limit: 3)).message)"
                    )
                }
            }
            guard failures.isEmpty else {
                throw LarderError(
                    .malformedRecord,
                    "cannot baseline \(type) at v\(version): records do not validate against it:\n  "
                        + failures.joined(separator: "\n  "))
            }
            try db.execute(sql: "UPDATE records SET version = ? WHERE type = ?", arguments: [version, type])
            try Store.setState(
                db, SchemaState(type: type, version: version, stepsDone: 0), now: Timestamp.format(clock.now()))
            try Store.recordHistory(
                db, kind: .baseline, type: type, toVersion: version, checksum: checksum,
                source: registry.source.displayPath(try registry.version(type: type, version).jsonSchema),
                appliedAt: started, duration: clock.now().timeIntervalSince(started), recordsTouched: count,
                success: true)
            return count
        }
    }
}

extension SchemaState {
    init(type: String, version: Int?, stepsDone: Int) {
        self.init(type: type, version: version, pendingFrom: nil, pendingTo: nil, stepsDone: stepsDone)
    }
}
