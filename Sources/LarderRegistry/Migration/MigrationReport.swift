public import LarderCore

/// A field a step changed, before and after, for the dry-run plan.
public struct FieldChange: Sendable, Hashable {
    /// Where.
    public var path: FieldPath
    /// The value before (`nil`: absent).
    public var before: Value?
    /// The value after (`nil`: removed).
    public var after: Value?

    /// `difficulty: "Pretty easy" → "easy"`.
    public var text: String {
        "\(path): \(before.map { $0.compactText(limit: 50) } ?? "(absent)") → \(after.map { $0.compactText(limit: 50) } ?? "(removed)")"
    }

    /// The deepest differences between `before` and `after`, at most `limit`.
    static func differences(_ before: Value?, _ after: Value?, at path: FieldPath = .root, limit: Int = 4)
        -> [FieldChange]
    {
        var result: [FieldChange] = []
        collect(before, after, path, &result, limit)
        return result
    }

    private static func collect(
        _ before: Value?, _ after: Value?, _ path: FieldPath, _ out: inout [FieldChange], _ limit: Int
    ) {
        guard out.count < limit else { return }
        if let before, let after, before == after { return }
        switch (before, after) {
        case (.object(let a)?, .object(let b)?):
            for field in a { collect(field.value, b[field.key], path.appending(field.key), &out, limit) }
            for field in b where !a.contains(key: field.key) {
                collect(nil, field.value, path.appending(field.key), &out, limit)
            }
        case (.array(let a)?, .array(let b)?) where a.count == b.count && !a.isEmpty:
            // The first element that changed stands for the rest.
            if let index = a.indices.first(where: { a[$0] != b[$0] }) {
                collect(a[index], b[index], path.appending(index: index), &out, limit)
            }
        default:
            out.append(FieldChange(path: path, before: before, after: after))
        }
    }
}

/// What a migration did, or (in a dry run) would do: per plan, per step, the records touched
/// and one sample of the change; and how many results validate against the target schema.
public final class MigrationReport {
    /// The statistics of one plan (one source version of one type).
    public final class PlanStatistics {
        /// The plan.
        public let plan: MigrationPlan
        /// Records that went through it.
        public internal(set) var records = 0
        /// Per step, the records it changed.
        public internal(set) var touched: [Int]
        /// Per step, the first change it made.
        public internal(set) var samples: [[FieldChange]?]
        /// Results that validate against the target schema.
        public internal(set) var valid = 0
        /// Records rejected (a step failed, or the result does not validate).
        public internal(set) var rejected = 0
        /// The first few rejections, as messages.
        public internal(set) var firstFailures: [String] = []

        init(plan: MigrationPlan) {
            self.plan = plan
            touched = Array(repeating: 0, count: plan.steps.count)
            samples = Array(repeating: nil, count: plan.steps.count)
        }
    }

    /// Per plan, in first-seen order.
    public private(set) var plans: [PlanStatistics] = []
    /// Records already at the target version (nothing to do).
    public internal(set) var unchanged = 0
    /// Records whose version could not be told (rejected).
    public internal(set) var undetected = 0
    /// How records without a declared version were placed: `recipe v1: 24`.
    public internal(set) var detected: [String: Int] = [:]
    /// Whether samples are collected (dry runs).
    public let collectsSamples: Bool

    /// Creates an empty report.
    public init(collectsSamples: Bool) {
        self.collectsSamples = collectsSamples
    }

    func statistics(for plan: MigrationPlan) -> PlanStatistics {
        if let existing = plans.first(where: {
            $0.plan.type == plan.type && $0.plan.from == plan.from && $0.plan.to == plan.to
        }) {
            return existing
        }
        let created = PlanStatistics(plan: plan)
        plans.append(created)
        return created
    }

    /// The plan as text: each step, the records it touches, a sample before → after.
    public func renderPlan(title: String) -> String {
        var lines: [String] = [title]
        if !detected.isEmpty {
            for (key, count) in detected.sorted(by: { $0.key < $1.key }) {
                lines.append(
                    "  no version declared: \(count) record\(count == 1 ? "" : "s") validate as \(key) (the newest version that fits)"
                )
            }
        }
        if undetected > 0 {
            lines.append(
                "  \(undetected) record\(undetected == 1 ? "" : "s") match no version of the schema (rejected)")
        }
        if unchanged > 0 {
            lines.append("  \(unchanged) record\(unchanged == 1 ? " is" : "s are") already at the target version")
        }
        for stats in plans where !stats.plan.isEmpty {
            let plan = stats.plan
            lines.append(
                "  \(plan.type) v\(plan.from) → v\(plan.to) (\(plan.versions.map { "v\($0)" }.joined(separator: " → "))): \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s"), \(stats.records) record\(stats.records == 1 ? "" : "s")"
            )
            for (index, step) in plan.steps.enumerated() {
                let number = String(index + 1).leftPadded(to: 3)
                lines.append(
                    "  \(number). \(step.label.rightPadded(to: 28)) \(step.summary)  [\(stats.touched[index]) touched]")
                for change in stats.samples[index] ?? [] { lines.append("         e.g. \(change.text)") }
            }
            lines.append(
                "       validation against \(plan.type) v\(plan.to): \(stats.valid) valid, \(stats.rejected) rejected")
            for failure in stats.firstFailures { lines.append("         \(failure)") }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The text with spaces before it up to `width` characters.
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
    /// The text with spaces after it up to `width` characters.
    package func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

extension Migrator {
    /// Runs `plan` on `record` step by step, recording what each step touched (and, when the
    /// report collects them, a sample change), then validates the result against the target.
    /// - Throws: ``LarderError`` as ``migrate(_:plan:environment:validate:touched:)`` does; the
    ///   failure is counted in the report first.
    public func migrate(_ record: Value, plan: MigrationPlan, environment: StepEnvironment, report: MigrationReport)
        throws -> Value
    {
        let stats = report.statistics(for: plan)
        stats.records += 1
        var value = record
        do {
            for (index, step) in plan.steps.enumerated() {
                // `.none`, not `nil`: Value is ExpressibleByNilLiteral.
                let before: Value? = report.collectsSamples && stats.samples[index] == nil ? .some(value) : .none
                if try step.apply(to: &value, environment: environment) {
                    stats.touched[index] += 1
                    if let before { stats.samples[index] = FieldChange.differences(before, value) }
                }
            }
            try check(value, type: plan.type, version: plan.to)
        } catch let error as LarderError {
            stats.rejected += 1
            if stats.firstFailures.count < 3 {
                let id = record["id"]?.stringValue.map { "id \($0): " } ?? ""
                stats.firstFailures.append(
                    "rejected \(id)\(error.location?.fieldPath.map { "\($0): " } ?? "")\(error.message)")
            }
            throw error
        }
        stats.valid += 1
        return value
    }
}
