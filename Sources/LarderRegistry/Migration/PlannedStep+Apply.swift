public import LarderCore

extension Value {
    /// Runs `body` on every object `path` reaches, in place; returns whether any call changed something.
    ///
    /// `.each` reaches each element of a list. Missing members are skipped.
    mutating func updateObjects(
        at path: ArraySlice<StepPathComponent>, _ body: (inout Fields, FieldPath) throws -> Bool,
        at here: FieldPath = .root
    )
        rethrows -> Bool
    {
        guard let first = path.first else {
            guard case .object(var fields) = self else { return false }
            self = .null  // keep `fields` uniquely referenced so edits do not copy it
            defer { self = .object(fields) }
            return try body(&fields, here)
        }
        switch first {
        case .key(let key):
            guard case .object(var fields) = self, var child = fields[key], !child.isNull else { return false }
            self = .null
            fields[key] = .null
            let changed = try child.updateObjects(at: path.dropFirst(), body, at: here.appending(key))
            fields[key] = child
            self = .object(fields)
            return changed
        case .each:
            guard case .array(var elements) = self else { return false }
            self = .null
            var changed = false
            for index in elements.indices {
                if try elements[index].updateObjects(at: path.dropFirst(), body, at: here.appending(index: index)) {
                    changed = true
                }
            }
            self = .array(elements)
            return changed
        }
    }
}

/// Which way a step runs.
public enum MigrationDirection: String, Sendable, Hashable {
    /// From the older version to the newer.
    case up
    /// Back from the newer version to the older, through the step's inverse.
    case down
}

/// A step placed in a plan: which step, which way, and in which transition.
public struct PlannedStep: Sendable, Hashable {
    /// The manifest's step.
    public var step: MigrationStep
    /// Up or down.
    public var direction: MigrationDirection
    /// The version the step's transition starts from, in the direction of travel.
    public var fromVersion: Int
    /// The version the transition ends at.
    public var toVersion: Int
    /// Whether this is the last step of its transition (the record is at `toVersion` after it).
    public var endsTransition: Bool
    /// The step's position in its transition, from 1.
    public var position: Int
    /// The number of steps in its transition.
    public var transitionLength: Int

    /// `recipe-1-2-owner (rename authorID → ownerID)`, with `↓` going down.
    public var label: String {
        "\(step.id)\(direction == .down ? " ↓" : "")"
    }

    /// What it does, in the direction it runs.
    public var summary: String {
        guard direction == .down else { return step.summary }
        switch step.kind {
        case .rename(let from, let to): return "rename \(to) → \(from)"
        case .defaultValue(let field, _): return "drop \(field) (added going up)"
        case .add(let field, _): return "drop \(field) when empty (new in v\(fromVersion))"
        case .map(let field, _, _, _, _): return "map \(field) back"
        case .convert(let field, let to, let converter, let keepSource, let inverse):
            if keepSource, let to { return "drop \(to) (derived going up)" }
            return "convert \(to ?? field)\(to != nil ? " → \(field)" : "") with \(inverse ?? converter)"
        case .nest(let field?, _, let into): return "unwrap {\(into)} in each \(field) element"
        case .nest(nil, let fields, let into): return "move \(fields.joined(separator: ", ")) out of \(into)"
        case .drop(let field, _): return "restore \(field)"
        case .stage(_, let inverse): return "stage \(inverse ?? "?")"
        case .relax(let field, let required, let maxLength):
            let rules = MigrationStep.relaxedRules(required: required, maxLength: maxLength).dropFirst(" (was ".count)
            return "refuse a record breaking v\(toVersion)'s rule for \(field) (\(rules)"

        }
    }
}

/// What a step needs besides the record: converters, stages and the image store.
public struct StepEnvironment {
    /// Converters by id.
    public var converters: [String: Converter]
    /// Stages by id.
    public var stages: [String: MigrationStage]
    /// The stage context (images, type).
    public var stageContext: StageContext
}

extension PlannedStep {
    private func failure(_ message: String, at path: FieldPath) -> LarderError {
        LarderError(.invalidRecord, "migration step \(step.id): \(message)", location: SourceLocation(fieldPath: path))
    }

    /// Applies the step to `record` in place and returns whether it changed anything.
    /// - Throws: ``LarderError`` `invalid-record` naming the step and the field path when the
    ///   record cannot be migrated (an unmapped value, a failed conversion, a stage's error).
    public func apply(to record: inout Value, environment: StepEnvironment) throws -> Bool {
        switch (step.kind, direction) {
        case (.rename(let from, let to), .up): return rename(&record, from: from.leaf, to: to.leaf, in: from.parent)
        case (.rename(let from, let to), .down): return rename(&record, from: to.leaf, to: from.leaf, in: from.parent)
        case (.defaultValue(let field, let source), .up): return try fill(&record, field, source)
        case (.defaultValue(let field, _), .down): return remove(&record, field)
        case (.add(let field, let value?), .up): return try fill(&record, field, .value(value))
        case (.add, .up): return false
        case (.add(let field, let value), .down): return try removeIfEmpty(&record, field, declared: value)
        case (.map(let field, let values, let ignoreCase, let otherwise, _), .up):
            return try map(&record, field, values, ignoreCase: ignoreCase, otherwise: otherwise)
        case (.map(let field, _, _, _, let inverse), .down):
            return try map(&record, field, inverse ?? [], ignoreCase: false, otherwise: .reject)
        case (.convert(let field, let to, let converter, let keepSource, _), .up):
            return try convert(
                &record, from: field, to: to ?? field, converterID: converter, removeSource: to != nil && !keepSource,
                environment)
        case (.convert(let field, let to, _, let keepSource, let inverse), .down):
            if keepSource, let to { return remove(&record, to) }
            return try convert(
                &record, from: to ?? field, to: field, converterID: inverse ?? "", removeSource: to != nil, environment)
        case (.nest(let field?, _, let into), .up): return try wrapEach(&record, field, into)
        case (.nest(let field?, _, let into), .down): return try unwrapEach(&record, field, into)
        case (.nest(nil, let names, let into), .up): return nest(&record, names, into)
        case (.nest(nil, let names, let into), .down): return try unnest(&record, names, into)
        case (.drop(let field, _), .up): return remove(&record, field)
        case (.drop(let field, let inverse), .down):
            guard let inverse else { throw failure("cannot run backwards: \(step.lossyReason ?? "lossy")", at: .root) }
            return try fill(&record, field, inverse)
        case (.stage(let id, _), .up): return try runStage(id, &record, environment)
        case (.stage(_, let inverse), .down):
            guard let inverse else { throw failure("cannot run backwards: \(step.lossyReason ?? "lossy")", at: .root) }
            return try runStage(inverse, &record, environment)
        case (.relax, .up): return false
        case (.relax(let field, let required, let maxLength), .down):
            try checkOlderRule(record, field, required: required, maxLength: maxLength)
            return false
        }
    }

    /// Refuses a record going down to a version whose rule for `field` it breaks: the field is
    /// absent or null where that version requires it, or its text is longer than it allowed.
    private func checkOlderRule(_ record: Value, _ field: StepPath, required: Bool, maxLength: Int?) throws {
        // A tombstone carries its identity only, in every version: no rule of a live record applies.
        if case .bool(true)? = record["isDeleted"] { return }
        var copy = record
        let key = field.leaf
        _ = try copy.updateObjects(at: field.parent[...]) { fields, path in
            let current = fields[key]
            if required, current == nil || current?.isNull == true {
                throw failure(
                    "cannot go down to v\(toVersion): \(key) is absent, and v\(toVersion) requires it (give it a value, or keep v\(fromVersion))",
                    at: path.appending(key))
            }
            if let maxLength, case .string(let text)? = current, text.count > maxLength {
                throw failure(
                    "cannot go down to v\(toVersion): \(key) holds \(text.count) characters, and v\(toVersion) allows at most \(maxLength) (this would cut it; shorten it, or keep v\(fromVersion))",
                    at: path.appending(key))
            }
            return false
        }
    }

    private func rename(_ record: inout Value, from: String, to: String, in parent: [StepPathComponent]) -> Bool {
        record.updateObjects(at: parent[...]) { fields, _ in
            guard fields.contains(key: from) else { return false }
            fields.renameKey(from, to: to)
            return true
        }
    }

    private func fill(_ record: inout Value, _ field: StepPath, _ source: MigrationStep.Source) throws -> Bool {
        let key = field.leaf
        return record.updateObjects(at: field.parent[...]) { fields, _ in
            if let existing = fields[key], !existing.isNull { return false }
            switch source {
            case .value(let value): fields[key] = value
            case .field(let other):
                guard let copy = fields[other], !copy.isNull else { return false }
                fields[key] = copy
            }
            return true
        }
    }

    private func remove(_ record: inout Value, _ field: StepPath) -> Bool {
        let key = field.leaf
        return record.updateObjects(at: field.parent[...]) { fields, _ in
            fields.removeValue(forKey: key) != nil
        }
    }

    /// Drops `field` where it holds nothing; refuses the record where it holds data, naming the field.
    private func removeIfEmpty(_ record: inout Value, _ field: StepPath, declared: Value?) throws -> Bool {
        let key = field.leaf
        return try record.updateObjects(at: field.parent[...]) { fields, path in
            guard let current = fields[key] else { return false }
            let isEmpty: Bool
            switch current {
            case .null: isEmpty = true
            case .array(let elements): isEmpty = elements.isEmpty
            case .object(let members): isEmpty = members.isEmpty
            case .string(let text): isEmpty = text.isEmpty
            default: isEmpty = false
            }
            guard isEmpty || (declared.map { current.jsonEquals($0) } ?? false) else {
                throw failure(
                    "cannot go down to v\(toVersion): \(key) holds \(current.compactText(limit: 60)), and v\(toVersion) has no field for it (this would lose data; empty \(key) first, or keep v\(fromVersion))",
                    at: path.appending(key))
            }
            fields.removeValue(forKey: key)
            return true
        }
    }

    private func map(
        _ record: inout Value, _ field: StepPath, _ table: [(String, Value)], ignoreCase: Bool,
        otherwise: MigrationStep.Otherwise
    ) throws -> Bool {
        let key = field.leaf
        return try record.updateObjects(at: field.parent[...]) { fields, path in
            guard let current = fields[key], !current.isNull else { return false }
            let text: String
            switch current {
            case .string(let s): text = s
            case .int(let i): text = String(i)
            case .bool(let b): text = b ? "true" : "false"
            case .double(let d): text = d.schemaText
            default: throw failure("cannot map \(current.kindDescription)", at: path.appending(key))
            }
            let lookup = ignoreCase ? MapKey.normalize(text) : text
            if let match = table.first(where: { $0.0 == lookup }) {
                guard !match.1.jsonEquals(current) else { return false }
                fields[key] = match.1
                return true
            }
            switch otherwise {
            case .keep: return false
            case .drop:
                fields.removeValue(forKey: key)
                return true
            case .value(let value):
                fields[key] = value
                return true
            case .reject:
                let known = table.prefix(8).map { "\"\($0.0)\"" }.joined(separator: ", ")
                throw failure(
                    "\(current.snippet) is not in the map (\(known)\(table.count > 8 ? ", …" : ""))",
                    at: path.appending(key))
            }
        }
    }

    private func convert(
        _ record: inout Value, from: StepPath, to: StepPath, converterID: String, removeSource: Bool,
        _ environment: StepEnvironment
    ) throws -> Bool {
        guard let converter = environment.converters[converterID] else {
            throw failure("unknown converter \"\(converterID)\"", at: .root)
        }
        let source = from.leaf
        let target = to.leaf
        return try record.updateObjects(at: from.parent[...]) { fields, path in
            let input = fields[source]
            let output: Value?
            do {
                output = try converter.convert(input.flatMap { $0.isNull ? nil : $0 })
            } catch let failure as ConversionFailure {
                throw self.failure("\(converterID): \(failure.message)", at: path.appending(source))
            }
            var changed = false
            if removeSource, fields.removeValue(forKey: source) != nil { changed = true }
            if let output {
                if !(fields[target]?.jsonEquals(output) ?? false) {
                    fields[target] = output
                    changed = true
                }
            } else if fields.removeValue(forKey: target) != nil {
                changed = true
            }
            return changed
        }
    }

    private func wrapEach(_ record: inout Value, _ field: StepPath, _ key: String) throws -> Bool {
        let name = field.leaf
        return try record.updateObjects(at: field.parent[...]) { fields, path in
            guard let current = fields[name], !current.isNull else { return false }
            guard let elements = current.arrayValue else {
                throw failure("expected a list, found \(current.kindDescription)", at: path.appending(name))
            }
            var changed = false
            let wrapped: [Value] = elements.map { element in
                if case .object = element { return element }
                changed = true
                return .object(Fields(uncheckedUniqueElements: [Field(key: key, value: element)]))
            }
            if changed { fields[name] = .array(wrapped) }
            return changed
        }
    }

    private func unwrapEach(_ record: inout Value, _ field: StepPath, _ key: String) throws -> Bool {
        let name = field.leaf
        return try record.updateObjects(at: field.parent[...]) { fields, path in
            guard let elements = fields[name]?.arrayValue else { return false }
            var changed = false
            var flat: [Value] = []
            for (index, element) in elements.enumerated() {
                guard let object = element.objectValue else {
                    flat.append(element)
                    continue
                }
                let extra = object.keys.filter { $0 != key }
                guard extra.isEmpty else {
                    throw failure(
                        "cannot unwrap: the element has \(extra.joined(separator: ", ")) besides \(key)",
                        at: path.appending(name).appending(index: index))
                }
                flat.append(object[key] ?? .null)
                changed = true
            }
            if changed { fields[name] = .array(flat) }
            return changed
        }
    }

    private func nest(_ record: inout Value, _ names: [String], _ into: String) -> Bool {
        record.updateObjects(at: []) { fields, _ in
            var inner = fields[into]?.objectValue ?? Fields()
            var changed = false
            for name in names {
                if let value = fields.removeValue(forKey: name) {
                    inner[name] = value
                    changed = true
                }
            }
            if changed { fields[into] = .object(inner) }
            return changed
        }
    }

    private func unnest(_ record: inout Value, _ names: [String], _ into: String) throws -> Bool {
        try record.updateObjects(at: []) { fields, _ in
            guard let inner = fields[into] else { return false }
            guard let members = inner.objectValue else {
                throw failure("expected an object, found \(inner.kindDescription)", at: FieldPath.root.appending(into))
            }
            let extra = members.keys.filter { !names.contains($0) }
            guard extra.isEmpty else {
                throw failure(
                    "cannot flatten \(into): it has \(extra.joined(separator: ", "))",
                    at: FieldPath.root.appending(into))
            }
            fields.removeValue(forKey: into)
            for member in members { fields[member.key] = member.value }
            return true
        }
    }

    private func runStage(_ id: String, _ record: inout Value, _ environment: StepEnvironment) throws -> Bool {
        guard let stage = environment.stages[id] else { throw failure("unknown stage \"\(id)\"", at: .root) }
        do {
            return try stage.run(&record, environment.stageContext)
        } catch let error as LarderError {
            var located = error
            located.message = "migration step \(step.id) (stage \(id)): " + error.message
            throw located
        } catch let failure as ConversionFailure {
            throw self.failure("stage \(id): \(failure.message)", at: .root)
        }
    }
}
