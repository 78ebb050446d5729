import Foundation
import LarderCore

/// One difference between two versions of a schema, with what it means for each direction.
public struct SchemaChange: Sendable, Hashable {
    /// How a change affects reading data across versions.
    public enum Effect: String, Sendable, Hashable, Comparable {
        case fine, unknown, breaks

        public static func < (a: Effect, b: Effect) -> Bool {
            let order: [Effect] = [.fine, .unknown, .breaks]
            return (order.firstIndex(of: a) ?? 0) < (order.firstIndex(of: b) ?? 0)
        }
    }

    /// Where: a JSON pointer; `*` stands for every element of a list.
    public var path: String
    /// What changed, in words.
    public var description: String
    /// Whether the newer version can read data written by the older one.
    public var backward: Effect
    /// Why not (or why it cannot be told), when it matters.
    public var backwardReason: String?
    /// Whether the older version can read data written by the newer one.
    public var forward: Effect
    public var forwardReason: String?
    /// Whether it breaks CloudKit's additive-only production schema (a field removed, renamed or retyped).
    public var breaksCloudKit: Bool
}

/// The verdict for one pair of versions under a mode.
public struct CompatibilityVerdict: Sendable {
    /// compatible, incompatible or unknown.
    public enum Outcome: String, Sendable { case compatible, incompatible, unknown }

    /// The older version.
    public var older: Int
    /// The newer version.
    public var newer: Int
    /// The mode checked.
    public var mode: CompatibilityMode
    /// The outcome.
    public var outcome: Outcome
    /// The changes that decide it: path and reason.
    public var reasons: [(path: String, reason: String)]
    /// Every change between the two versions.
    public var changes: [SchemaChange]
}

/// Checks schema versions against compatibility modes (Confluent's BACKWARD, FORWARD, FULL,
/// their transitive forms and NONE, plus CLOUDKIT_PRODUCTION) and lists the changes between
/// any two versions.
public struct CompatibilityChecker {
    /// The registry.
    public let registry: SchemaRegistry

    /// Creates a checker.
    public init(registry: SchemaRegistry) {
        self.registry = registry
    }

    /// The changes from `older` to `newer` of `type`.
    ///
    /// Renames declared by migration steps between them are reported as renames.
    public func diff(type: String, from older: Int, to newer: Int) throws -> [SchemaChange] {
        let a = SchemaShape.make(from: try registry.jsonSchemaValue(type: type, version: older))
        let b = SchemaShape.make(from: try registry.jsonSchemaValue(type: type, version: newer))
        var renames: [String: (to: String, step: String)] = [:]
        let (low, high) = (min(older, newer), max(older, newer))
        for transition in try registry.type(type).migrations where transition.from >= low && transition.to <= high {
            for step in transition.steps {
                if case .rename(let from, let to) = step.kind {
                    let (source, target) = older <= newer ? (from, to) : (to, from)
                    renames["/" + source.description.replacingOccurrences(of: ".", with: "/")] = (
                        "/" + target.description.replacingOccurrences(of: ".", with: "/"), step.id
                    )
                }
                if case .convert(let field, let to?, _, false, _) = step.kind {
                    let (source, target) = older <= newer ? (field, to) : (to, field)
                    renames["/" + source.description.replacingOccurrences(of: ".", with: "/")] = (
                        "/" + target.description.replacingOccurrences(of: ".", with: "/"), step.id
                    )
                }
            }
        }
        var changes: [SchemaChange] = []
        compare(a, b, path: "", into: &changes, renames: renames)
        return changes
    }

    /// The verdicts for `type` under `mode` (default: the manifest's), one per pair the mode checks.
    public func check(type: String, mode: CompatibilityMode? = nil) throws -> [CompatibilityVerdict] {
        let entry = try registry.type(type)
        let mode = mode ?? entry.compatibility
        let versions = entry.versions.map(\.version)
        var verdicts: [CompatibilityVerdict] = []
        for (index, newer) in versions.enumerated() where index > 0 {
            let olders = mode.isTransitive ? Array(versions[..<index]) : [versions[index - 1]]
            for older in olders {
                let changes = try diff(type: type, from: older, to: newer)
                verdicts.append(verdict(changes, older: older, newer: newer, mode: mode))
            }
        }
        return verdicts
    }

    private func verdict(_ changes: [SchemaChange], older: Int, newer: Int, mode: CompatibilityMode)
        -> CompatibilityVerdict
    {
        var reasons: [(String, String)] = []
        var worst = SchemaChange.Effect.fine
        func consider(_ effect: SchemaChange.Effect, _ change: SchemaChange, _ reason: String?) {
            guard effect != .fine else { return }
            worst = max(worst, effect)
            reasons.append((change.path, (effect == .unknown ? "cannot tell: " : "") + (reason ?? change.description)))
        }
        for change in changes {
            switch mode {
            case .none: break
            case .backward, .backwardTransitive: consider(change.backward, change, change.backwardReason)
            case .forward, .forwardTransitive: consider(change.forward, change, change.forwardReason)
            case .full, .fullTransitive:
                let effect = max(change.backward, change.forward)
                let reason = change.backward >= change.forward ? change.backwardReason : change.forwardReason
                consider(effect, change, reason)
            case .cloudKitProduction:
                if change.breaksCloudKit {
                    consider(.breaks, change, "\(change.description): CloudKit's production schema only grows")
                }
            }
        }
        let outcome: CompatibilityVerdict.Outcome =
            worst == .breaks ? .incompatible : worst == .unknown ? .unknown : .compatible
        return CompatibilityVerdict(
            older: older, newer: newer, mode: mode, outcome: outcome, reasons: reasons, changes: changes)
    }

    // MARK: Comparing shapes

    /// Compares two shapes at `path`: their types, enumerations, bounds and formats, object members
    /// (each compared in turn, renames by migration steps recognised) and list elements.
    private func compare(
        _ a: SchemaShape, _ b: SchemaShape, path: String, into changes: inout [SchemaChange],
        renames: [String: (to: String, step: String)]
    ) {
        let display = path.isEmpty ? "/" : path
        compareTypes(a, b, display: display, into: &changes)
        compareEnums(a, b, display: display, into: &changes)
        compareConstraints(a, b, display: display, into: &changes)
        compareMembers(a, b, path: path, into: &changes, renames: renames)
        // List elements.
        if let oldItems = a.items, let newItems = b.items, a.types.contains("array") && b.types.contains("array") {
            compare(oldItems, newItems, path: path + "/*", into: &changes, renames: renames)
        }
    }

    /// A change of type: widening is fine backward, narrowing forward.
    private func compareTypes(_ a: SchemaShape, _ b: SchemaShape, display: String, into changes: inout [SchemaChange]) {
        let oldTypes = Self.normalizedTypes(a)
        let newTypes = Self.normalizedTypes(b)
        if oldTypes != newTypes, !oldTypes.isEmpty || !newTypes.isEmpty {
            let widened = newTypes.isEmpty || (!oldTypes.isEmpty && oldTypes.isSubset(of: newTypes))
            let narrowed = !newTypes.isEmpty && (oldTypes.isEmpty || newTypes.isSubset(of: oldTypes))
            let retyped = a.baseTypes != b.baseTypes
            changes.append(
                SchemaChange(
                    path: display, description: "type \(a.typeText) → \(b.typeText)",
                    backward: widened ? .fine : .breaks,
                    backwardReason: "values of type \(a.typeText) no longer accepted",
                    forward: narrowed ? .fine : .breaks,
                    forwardReason: "the older version does not accept \(b.typeText)", breaksCloudKit: retyped))
        }
    }

    /// Enumeration values removed, added, or a free value now restricted to a list.
    private func compareEnums(_ a: SchemaShape, _ b: SchemaShape, display: String, into changes: inout [SchemaChange]) {
        if let oldValues = a.enumValues ?? nil, let newValues = b.enumValues {
            let removed = oldValues.filter { v in !newValues.contains { $0.jsonEquals(v) } }
            let added = newValues.filter { v in !oldValues.contains { $0.jsonEquals(v) } }
            if !removed.isEmpty {
                let list = removed.map { $0.compactText(limit: 20) }.joined(separator: ", ")
                changes.append(
                    SchemaChange(
                        path: display, description: "values removed: \(list)", backward: .breaks,
                        backwardReason: "older data may hold \(list)",
                        forward: .fine, forwardReason: nil, breaksCloudKit: false))
            }
            if !added.isEmpty {
                let list = added.map { $0.compactText(limit: 20) }.joined(separator: ", ")
                changes.append(
                    SchemaChange(
                        path: display, description: "values added: \(list)", backward: .fine, backwardReason: nil,
                        forward: .breaks,
                        forwardReason: "the older version rejects \(list)", breaksCloudKit: false))
            }
        } else if a.enumValues == nil, let newValues = b.enumValues, !a.types.isEmpty {
            changes.append(
                SchemaChange(
                    path: display, description: "now restricted to \(newValues.count) values", backward: .breaks,
                    backwardReason: "older free values outside the list are rejected", forward: .fine,
                    forwardReason: nil, breaksCloudKit: false))
        }
    }

    /// Bounds and formats (tighter or looser), and changed alternatives.
    private func compareConstraints(
        _ a: SchemaShape, _ b: SchemaShape, display: String, into changes: inout [SchemaChange]
    ) {
        for key in SchemaShape.constraintKeys where a.constraints[key] != b.constraints[key] {
            let old = a.constraints[key]
            let new = b.constraints[key]
            let tighter = Self.isTighter(key, old: old, new: new)
            let text =
                "\(key) \(old.map { $0.compactText(limit: 30) } ?? "none") → \(new.map { $0.compactText(limit: 30) } ?? "none")"
            let backward: SchemaChange.Effect = tighter == nil ? .unknown : tighter == true ? .breaks : .fine
            let forward: SchemaChange.Effect = tighter == nil ? .unknown : tighter == true ? .fine : .breaks
            changes.append(
                SchemaChange(
                    path: display, description: text, backward: backward,
                    backwardReason: "\(text): older values may fall outside",
                    forward: forward, forwardReason: "\(text): newer values may fall outside the older bound",
                    breaksCloudKit: false))
        }
        if a.opaque != b.opaque {
            changes.append(
                SchemaChange(
                    path: display,
                    description:
                        "\(Set(a.opaque).symmetricDifference(b.opaque).sorted().joined(separator: ", ")) changed",
                    backward: .unknown, backwardReason: "alternatives changed", forward: .unknown,
                    forwardReason: "alternatives changed", breaksCloudKit: false))
        }
    }

    /// Members, when both sides are objects (a value that became an object is a change of type):
    /// openness, required-ness, members compared in turn, renamed, removed and added.
    private func compareMembers(
        _ a: SchemaShape, _ b: SchemaShape, path: String, into changes: inout [SchemaChange],
        renames: [String: (to: String, step: String)]
    ) {
        let display = path.isEmpty ? "/" : path
        let bothObjects =
            (a.types.isEmpty || a.types.contains("object")) && (b.types.isEmpty || b.types.contains("object"))
        if bothObjects, !a.properties.isEmpty || !b.properties.isEmpty {
            if a.isClosed != b.isClosed {
                changes.append(
                    SchemaChange(
                        path: display,
                        description: b.isClosed ? "no longer accepts other fields" : "now accepts other fields",
                        backward: b.isClosed ? .unknown : .fine,
                        backwardReason: "older data may hold fields the newer version refuses",
                        forward: b.isClosed ? .fine : .unknown,
                        forwardReason: "newer data may hold fields the older version refuses",
                        breaksCloudKit: false))
            }
            var handledAdditions: Set<String> = []
            for (name, old) in a.properties {
                compareMember(
                    name, old, a, b, path: path, into: &changes, renames: renames, handledAdditions: &handledAdditions)
            }
            for (name, new) in b.properties
            where a.property(name) == nil && !handledAdditions.contains(path + "/" + name) {
                let required = b.required.contains(name)
                let backward: SchemaChange.Effect =
                    required ? (new.hasDefault ? .fine : .breaks) : (a.isClosed ? .fine : .unknown)
                changes.append(
                    SchemaChange(
                        path: path + "/" + name,
                        description:
                            "added (\(required ? "required" : "optional")\(new.hasDefault ? ", with a default" : ""), \(new.typeText))",
                        backward: backward,
                        backwardReason: required
                            ? "added as required without a default: older data lacks it"
                            : "older data was open and may hold \(name) with another type",
                        forward: a.isClosed ? .breaks : .fine,
                        forwardReason: "added, and the older version refuses other fields", breaksCloudKit: false))
            }
        }
    }

    /// One member of the older shape: required-ness changed and compared in turn when the newer
    /// shape has it, else renamed (by a migration step) or removed.
    private func compareMember(
        _ name: String, _ old: SchemaShape, _ a: SchemaShape, _ b: SchemaShape, path: String,
        into changes: inout [SchemaChange], renames: [String: (to: String, step: String)],
        handledAdditions: inout Set<String>
    ) {
        let memberPath = path + "/" + name
        if let new = b.property(name) {
            let wasRequired = a.required.contains(name)
            let isRequired = b.required.contains(name)
            if !wasRequired && isRequired {
                changes.append(
                    SchemaChange(
                        path: memberPath,
                        description: "now required\(new.hasDefault ? " (with a default)" : "")",
                        backward: new.hasDefault ? .fine : .breaks,
                        backwardReason: "older data may lack it, and it has no default",
                        forward: .fine, forwardReason: nil, breaksCloudKit: false))
            } else if wasRequired && !isRequired {
                changes.append(
                    SchemaChange(
                        path: memberPath, description: "no longer required", backward: .fine,
                        backwardReason: nil,
                        forward: old.hasDefault ? .fine : .breaks,
                        forwardReason: "the older version requires it, and newer data may lack it",
                        breaksCloudKit: false))
            }
            compare(old, new, path: memberPath, into: &changes, renames: renames)
        } else if let rename = renames[memberPath], rename.to.hasPrefix(path + "/"),
            b.property(String(rename.to.dropFirst(path.count + 1))) != nil
        {
            handledAdditions.insert(rename.to)
            changes.append(
                SchemaChange(
                    path: memberPath, description: "renamed to \(rename.to) (migration step \(rename.step))",
                    backward: b.isClosed ? .breaks : .fine,
                    backwardReason:
                        "renamed to \(rename.to): the newer version refuses \(name) (step \(rename.step) moves it)",
                    forward: a.required.contains(name) || a.isClosed ? .breaks : .fine,
                    forwardReason:
                        "renamed to \(rename.to): the older version \(a.required.contains(name) ? "requires \(name)" : "refuses \(rename.to)")",
                    breaksCloudKit: true))
        } else {
            let required = a.required.contains(name)
            changes.append(
                SchemaChange(
                    path: memberPath,
                    description: "removed (was \(required ? "required " : "")\(old.typeText))",
                    backward: b.isClosed ? .breaks : .fine,
                    backwardReason: "removed, and the newer version refuses older data that has it",
                    forward: required && !old.hasDefault ? .breaks : .fine,
                    forwardReason: "removed, but the older version requires it",
                    breaksCloudKit: true))
        }
    }

    private static func normalizedTypes(_ shape: SchemaShape) -> Set<String> {
        var types = shape.types
        if types.contains("number") { types.remove("integer") }
        return types
    }

    /// Whether `new` is stricter than `old` for bound `key`; `nil` when it cannot be said.
    private static func isTighter(_ key: String, old: Value?, new: Value?) -> Bool? {
        func number(_ v: Value?) -> Double? {
            switch v {
            case .int(let i)?: Double(i)
            case .double(let d)?: d
            default: nil
            }
        }
        switch key {
        case "minimum", "exclusiveMinimum", "minLength", "minItems":
            guard let new = number(new) else { return false }
            guard let old = number(old) else { return true }
            return new > old
        case "maximum", "exclusiveMaximum", "maxLength", "maxItems":
            guard let new = number(new) else { return false }
            guard let old = number(old) else { return true }
            return new < old
        default:
            // pattern, format, multipleOf: adding one narrows, removing one widens, changing one
            // cannot be compared in general.
            if old == nil { return true }
            if new == nil { return false }
            return nil
        }
    }
}
