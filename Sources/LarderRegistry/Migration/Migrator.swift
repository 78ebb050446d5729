public import LarderCore

/// The steps that take records of one type from one version to another.
public struct MigrationPlan: Sendable {
    /// The record type.
    public var type: String
    /// The version records start at.
    public var from: Int
    /// The version they end at.
    public var to: Int
    /// The steps in order.
    public var steps: [PlannedStep]

    package init(type: String, from: Int, to: Int, steps: [PlannedStep]) {
        self.type = type
        self.from = from
        self.to = to
        self.steps = steps
    }

    /// Whether there is nothing to do.
    public var isEmpty: Bool { steps.isEmpty }

    /// The versions passed through: `[1, 2, 3]`.
    public var versions: [Int] {
        var result = [from]
        for step in steps where step.endsTransition { result.append(step.toVersion) }
        return result
    }
}

/// Plans and applies migrations: path finding over the manifest's transitions, the converters
/// and stages steps name, and the checksums the store's ledger records.
///
/// A value type, like GRDB's `DatabaseMigrator`: register extra stages or converters with
/// ``registering(_:)-(MigrationStage)`` and get a modified copy.
public struct Migrator: Sendable {
    /// The registry.
    public let registry: SchemaRegistry
    /// Stages by id (the built-ins and any registered).
    public private(set) var stages: [String: MigrationStage]
    /// Converters by id.
    public private(set) var converters: [String: Converter]

    /// Creates a migrator with the built-in stages and converters.
    public init(registry: SchemaRegistry) {
        self.registry = registry
        stages = MigrationStage.builtIn
        converters = Converter.builtIn
    }

    /// A copy with `stage` registered (replacing one with the same id).
    public func registering(_ stage: MigrationStage) -> Migrator {
        var copy = self
        copy.stages[stage.id] = stage
        return copy
    }

    /// A copy with `converter` registered.
    public func registering(_ converter: Converter) -> Migrator {
        var copy = self
        copy.converters[converter.id] = converter
        return copy
    }

    /// The environment steps run in.
    public func environment(images: any ImageStore, type: String) -> StepEnvironment {
        StepEnvironment(
            converters: converters, stages: stages, stageContext: StageContext(images: images, recordType: type))
    }

    // MARK: Planning

    /// The shortest plan from `from` to `to`: up through the transitions' steps, down through
    /// their inverses in reverse order.
    /// - Throws: ``LarderError`` `schema-error` when no path exists, naming the lossy step when
    ///   the only way down runs through a step that declares no inverse.
    public func plan(type: String, from: Int, to: Int) throws -> MigrationPlan {
        let entry = try registry.type(type)
        _ = try registry.version(type: type, from)
        _ = try registry.version(type: type, to)
        guard from != to else { return MigrationPlan(type: type, from: from, to: to, steps: []) }
        if let route = route(entry, from: from, to: to, allowLossy: false) {
            return MigrationPlan(type: type, from: from, to: to, steps: steps(for: route))
        }
        if let route = route(entry, from: from, to: to, allowLossy: true) {
            for edge in route where edge.direction == .down {
                if let lossy = edge.transition.steps.first(where: { $0.lossyReason != nil }) {
                    throw LarderError(
                        .schema,
                        "cannot migrate \(type) from v\(from) down to v\(to): step \(lossy.id) (\(lossy.summary), v\(edge.transition.from) → v\(edge.transition.to)) is lossy: \(lossy.lossyReason ?? "")"
                    )
                }
            }
        }
        throw LarderError(.schema, "no migration path for \(type) from v\(from) to v\(to) in \(registry.manifest.file)")
    }

    private struct Edge {
        var transition: SchemaManifest.Transition
        var direction: MigrationDirection
        var target: Int
    }

    /// Breadth-first search over versions: fewest transitions wins.
    private func route(_ entry: SchemaManifest.TypeEntry, from: Int, to: Int, allowLossy: Bool) -> [Edge]? {
        var previous: [Int: (Int, Edge)] = [:]
        var queue = [from]
        var seen: Set<Int> = [from]
        while !queue.isEmpty {
            let node = queue.removeFirst()
            if node == to { break }
            var edges: [Edge] = []
            for transition in entry.migrations {
                if transition.from == node {
                    edges.append(Edge(transition: transition, direction: .up, target: transition.to))
                }
                if transition.to == node, allowLossy || transition.steps.allSatisfy({ $0.lossyReason == nil }) {
                    edges.append(Edge(transition: transition, direction: .down, target: transition.from))
                }
            }
            for edge in edges where !seen.contains(edge.target) {
                seen.insert(edge.target)
                previous[edge.target] = (node, edge)
                queue.append(edge.target)
            }
        }
        guard seen.contains(to) else { return nil }
        var route: [Edge] = []
        var node = to
        while node != from, let (before, edge) = previous[node] {
            route.append(edge)
            node = before
        }
        return route.reversed()
    }

    private func steps(for route: [Edge]) -> [PlannedStep] {
        var result: [PlannedStep] = []
        for edge in route {
            let ordered = edge.direction == .up ? edge.transition.steps : edge.transition.steps.reversed()
            let (start, end) =
                edge.direction == .up
                ? (edge.transition.from, edge.transition.to) : (edge.transition.to, edge.transition.from)
            for (index, step) in ordered.enumerated() {
                result.append(
                    PlannedStep(
                        step: step, direction: edge.direction, fromVersion: start, toVersion: end,
                        endsTransition: index == ordered.count - 1,
                        position: index + 1, transitionLength: ordered.count))
            }
            if ordered.isEmpty, var last = result.popLast() {
                last.endsTransition = true
                result.append(last)
            }
        }
        return result
    }

    // MARK: Checksums

    /// The checksum the ledger records for `step`: SHA-256 over the step's normalized form
    /// (sorted keys, no formatting, LF line endings, no BOM; the description left out), plus the
    /// implementation version of the stages it runs.
    public func checksum(of step: MigrationStep) -> String {
        var text = step.definition.canonicalJSON
        if case .stage(let id, let inverse) = step.kind {
            for stage in [id] + (inverse.map { [$0] } ?? []) {
                text += "|\(stage)@\(stages[stage]?.implementationVersion ?? 0)"
            }
        }
        return sha256Checksum(text)
    }

    // MARK: Applying

    /// Runs `plan` on one record and checks the result against the target version's schema.
    /// - Parameters:
    ///   - record: the record at the plan's source version.
    ///   - plan: the steps to run, in order.
    ///   - environment: the converters, stages and stage context the steps use.
    ///   - validate: whether to check the result against the target schema; `false` skips the check.
    ///   - touched: called with each step's index when the step changed the record.
    /// - Returns: the migrated record.
    /// - Throws: ``LarderError`` `invalid-record` from a step, or `malformed-record` when the
    ///   result does not match the target schema (with the violation's path).
    public func migrate(
        _ record: Value, plan: MigrationPlan, environment: StepEnvironment, validate: Bool = true,
        touched: ((Int) -> Void)? = nil
    ) throws -> Value {
        var value = record
        for (index, step) in plan.steps.enumerated() where try step.apply(to: &value, environment: environment) {
            touched?(index)
        }
        if validate { try check(value, type: plan.type, version: plan.to) }
        return value
    }

    /// Checks `record` against `type` at `version`.
    /// - Throws: ``LarderError`` `malformed-record` whose location holds the first violation's path
    ///   and whose message gives the JSON pointer and how many more there are.
    public func check(_ record: Value, type: String, version: Int) throws {
        let schema = try registry.jsonSchema(type: type, version: version)
        guard !schema.isValid(record) else { return }
        throw SchemaCheckFailure.error(schema: schema, violations: schema.validate(record, limit: 10))
    }
}

/// Turns schema violations into one error for a record.
package enum SchemaCheckFailure {
    package static func error(schema: JSONSchema, violations: [SchemaViolation]) -> LarderError {
        guard let first = violations.first else {
            return LarderError(.malformedRecord, "does not match \(schema.name)")
        }
        var message = "\(first.message) (\(schema.name) at \(first.path.isRoot ? "/" : first.path.jsonPointer))"
        if violations.count > 1 {
            let more = violations.dropFirst().prefix(3).map(\.description).joined(separator: "; ")
            message += "; also \(more)\(violations.count > 4 ? "; …" : "")"
        }
        return LarderError(.malformedRecord, message, location: SourceLocation(fieldPath: first.path))
    }
}
