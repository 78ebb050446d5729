public import LarderCore

extension SchemaManifest {
    /// Reads a manifest from its parsed document.
    ///
    /// - Parameters:
    ///   - document: the manifest as a value (from YAML or JSON).
    ///   - file: its name for messages.
    /// - Throws: ``LarderError`` `schema-error` naming the file and the JSON pointer of the first
    ///   problem: an unknown key, a missing field, a bad step.
    public init(document: Value, file: String) throws {
        var parser = ManifestParser(file: file)
        self = try parser.manifest(document)
    }
}

/// Reads the manifest value strictly: unknown keys are errors, so a typo never goes unnoticed.
struct ManifestParser {
    let file: String

    func error(_ pointer: String, _ message: String) -> LarderError {
        LarderError(.schema, "\(pointer.isEmpty ? "/" : pointer): \(message)", location: SourceLocation(file: file))
    }

    func object(_ value: Value?, _ pointer: String, allowed: Set<String>) throws -> Fields {
        guard let fields = value?.objectValue else {
            throw error(pointer, "expected a mapping, found \(value?.kindDescription ?? "nothing")")
        }
        for key in fields.keys where !allowed.contains(key) {
            let known = allowed.sorted().joined(separator: ", ")
            throw error(pointer + "/" + key, "unknown key \"\(key)\" (known: \(known))")
        }
        return fields
    }

    func string(_ fields: Fields, _ key: String, _ pointer: String) throws -> String {
        guard let value = try optionalString(fields, key, pointer) else {
            throw error(pointer + "/" + key, "required key is missing")
        }
        return value
    }

    func optionalString(_ fields: Fields, _ key: String, _ pointer: String) throws -> String? {
        guard let value = fields[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw error(pointer + "/" + key, "expected text, found \(value.kindDescription)")
        }
        return text
    }

    func int(_ fields: Fields, _ key: String, _ pointer: String) throws -> Int {
        switch fields[key] {
        case .int(let i)?: return Int(i)
        case .string(let s)? where Int(s) != nil: return Int(s) ?? 0
        case nil: throw error(pointer + "/" + key, "required key is missing")
        case let other?: throw error(pointer + "/" + key, "expected an integer, found \(other.kindDescription)")
        }
    }

    func bool(_ fields: Fields, _ key: String, _ pointer: String) throws -> Bool {
        switch fields[key] {
        case .bool(let b)?: return b
        case nil, .null?: return false
        case let other?: throw error(pointer + "/" + key, "expected true or false, found \(other.kindDescription)")
        }
    }

    func path(_ fields: Fields, _ key: String, _ pointer: String) throws -> StepPath {
        let text = try string(fields, key, pointer)
        guard let path = StepPath(text), case .key = path.components.last else {
            throw error(pointer + "/" + key, "\"\(text)\" is not a field path (name, a.b, list[].name)")
        }
        return path
    }

    func list(_ value: Value?, _ pointer: String) throws -> [Value] {
        guard let value, !value.isNull else { return [] }
        guard let array = value.arrayValue else {
            throw error(pointer, "expected a list, found \(value.kindDescription)")
        }
        return array
    }

    mutating func manifest(_ document: Value) throws -> SchemaManifest {
        let root = try object(document, "", allowed: ["format", "types", "description"])
        let format = try int(root, "format", "")
        guard format == 1 else {
            throw error("/format", "manifest format \(format) is newer than this larder understands (1)")
        }
        let types = try object(root["types"], "/types", allowed: Set(root["types"]?.objectValue?.keys ?? []))
        var entries: [SchemaManifest.TypeEntry] = []
        var stepIDs: [String: String] = [:]
        for field in types {
            let entry = try typeEntry(field.key, field.value, "/types/" + field.key)
            for transition in entry.migrations {
                for step in transition.steps {
                    if let other = stepIDs[step.id] {
                        throw error(step.pointer + "/id", "step id \"\(step.id)\" is already used at \(other)")
                    }
                    stepIDs[step.id] = step.pointer
                }
            }
            entries.append(entry)
        }
        return SchemaManifest(format: format, types: entries, file: file)
    }

    func typeEntry(_ name: String, _ value: Value, _ pointer: String) throws -> SchemaManifest.TypeEntry {
        let fields = try object(value, pointer, allowed: ["description", "compatibility", "versions", "migrations"])
        let modeText = try optionalString(fields, "compatibility", pointer) ?? "BACKWARD"
        guard let mode = CompatibilityMode(rawValue: modeText.uppercased()) else {
            let known = CompatibilityMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(pointer + "/compatibility", "unknown compatibility mode \"\(modeText)\" (known: \(known))")
        }
        var versions: [SchemaManifest.Version] = []
        for (i, item) in try list(fields["versions"], pointer + "/versions").enumerated() {
            let at = "\(pointer)/versions/\(i)"
            let v = try object(item, at, allowed: ["version", "jsonSchema", "xsd", "description"])
            let number = try int(v, "version", at)
            if let last = versions.last, number <= last.version {
                throw error(
                    at + "/version", "versions must be listed oldest first, each once (\(number) after \(last.version))"
                )
            }
            versions.append(
                SchemaManifest.Version(
                    version: number, jsonSchema: try string(v, "jsonSchema", at), xsd: try optionalString(v, "xsd", at),
                    description: try optionalString(v, "description", at)))
        }
        guard !versions.isEmpty else { throw error(pointer + "/versions", "a type needs at least one version") }
        var transitions: [SchemaManifest.Transition] = []
        for (i, item) in try list(fields["migrations"], pointer + "/migrations").enumerated() {
            let at = "\(pointer)/migrations/\(i)"
            let t = try object(item, at, allowed: ["from", "to", "steps", "description"])
            let from = try int(t, "from", at)
            let to = try int(t, "to", at)
            for (key, number) in [("from", from), ("to", to)] where !versions.contains(where: { $0.version == number })
            {
                throw error(at + "/" + key, "\(name) has no version \(number)")
            }
            guard from < to else {
                throw error(at, "a migration goes up, from an older version to a newer one (\(from) → \(to))")
            }
            var steps: [MigrationStep] = []
            for (j, stepValue) in try list(t["steps"], at + "/steps").enumerated() {
                steps.append(try step(stepValue, "\(at)/steps/\(j)"))
            }
            transitions.append(SchemaManifest.Transition(from: from, to: to, steps: steps))
        }
        return SchemaManifest.TypeEntry(
            name: name, description: try optionalString(fields, "description", pointer), compatibility: mode,
            versions: versions,
            migrations: transitions)
    }

    static let stepKinds: Set<String> = [
        "rename", "default", "add", "map", "convert", "nest", "drop", "stage", "relax",
    ]

    func source(_ fields: Fields, _ pointer: String) throws -> MigrationStep.Source? {
        if let from = try optionalString(fields, "from", pointer) { return .field(from) }
        if let value = fields["value"] { return .value(value) }
        return nil
    }

    func step(_ value: Value, _ pointer: String) throws -> MigrationStep {
        let fields = try object(value, pointer, allowed: Self.stepKinds.union(["id", "description", "inverse"]))
        let id = try string(fields, "id", pointer)
        let kinds = fields.keys.filter { Self.stepKinds.contains($0) }
        guard kinds.count == 1, let kindName = kinds.first else {
            throw error(
                pointer,
                "a step has exactly one of \(Self.stepKinds.sorted().joined(separator: ", ")); found \(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))"
            )
        }
        let at = pointer + "/" + kindName
        let kind: MigrationStep.Kind
        if kindName == "stage" {
            guard let stage = fields["stage"]?.stringValue else { throw error(at, "expected a stage id") }
            kind = .stage(id: stage, inverse: try optionalString(fields, "inverse", pointer))
        } else {
            guard fields["inverse"] == nil else {
                throw error(pointer + "/inverse", "only stage steps take inverse here; put it inside \(kindName)")
            }
            switch kindName {
            case "rename":
                let body = try object(fields[kindName], at, allowed: ["field", "to"])
                let from = try path(body, "field", at)
                let to = try path(body, "to", at)
                guard from.parent == to.parent else {
                    throw error(at, "a rename stays in the same object (\(from) → \(to)); use nest to move fields")
                }
                kind = .rename(from: from, to: to)
            case "default":
                let body = try object(fields[kindName], at, allowed: ["field", "value", "from"])
                guard let source = try source(body, at) else { throw error(at, "default needs value or from") }
                kind = .defaultValue(field: try path(body, "field", at), source: source)
            case "add":
                let body = try object(fields[kindName], at, allowed: ["field", "value"])
                kind = .add(field: try path(body, "field", at), value: body["value"])
            case "relax":
                let body = try object(fields[kindName], at, allowed: ["field", "required", "maxLength"])
                let required = try bool(body, "required", at)
                var maxLength: Int?
                if let limit = body["maxLength"] {
                    guard case .int(let n) = limit, n >= 0, let length = Int(exactly: n) else {
                        throw error(at + "/maxLength", "expected a character count (0 or more), found \(limit.snippet)")
                    }
                    maxLength = length
                }
                guard required || maxLength != nil else {
                    throw error(at, "relax needs required: true or maxLength: N (the older version's rule)")
                }
                kind = .relax(field: try path(body, "field", at), required: required, maxLength: maxLength)
            case "map":
                let body = try object(
                    fields[kindName], at, allowed: ["field", "values", "ignoreCase", "otherwise", "inverse"])
                let ignoreCase = try bool(body, "ignoreCase", at)
                guard let table = body["values"]?.objectValue, !table.isEmpty else {
                    throw error(at + "/values", "expected a non-empty mapping of old → new values")
                }
                let values = table.map { (ignoreCase ? MapKey.normalize($0.key) : $0.key, $0.value) }
                var otherwise = MigrationStep.Otherwise.reject
                switch body["otherwise"] {
                case nil, .string("reject")?: otherwise = .reject
                case .string("keep")?: otherwise = .keep
                case .string("drop")?: otherwise = .drop
                case .object(let o)? where o.count == 1 && o["value"] != nil: otherwise = .value(o["value"] ?? .null)
                case let other?:
                    throw error(at + "/otherwise", "expected keep, drop, reject or {value: X}, found \(other.snippet)")
                }
                var inverse: [(String, Value)]?
                if let table = body["inverse"] {
                    guard let members = table.objectValue else {
                        throw error(at + "/inverse", "expected a mapping of new → old values")
                    }
                    inverse = members.map { ($0.key, $0.value) }
                }
                kind = .map(
                    field: try path(body, "field", at), values: values, ignoreCase: ignoreCase, otherwise: otherwise,
                    inverse: inverse)
            case "convert":
                let body = try object(
                    fields[kindName], at, allowed: ["field", "to", "converter", "keepSource", "inverse"])
                let field = try path(body, "field", at)
                let to = try body["to"] == nil ? nil : path(body, "to", at)
                if let to, to.parent != field.parent {
                    throw error(at + "/to", "convert writes into the same object (\(field) → \(to))")
                }
                let keepSource = try bool(body, "keepSource", at)
                if keepSource && to == nil {
                    throw error(at + "/keepSource", "keepSource needs a different target field in to")
                }
                kind = .convert(
                    field: field, to: to, converter: try string(body, "converter", at), keepSource: keepSource,
                    inverse: try optionalString(body, "inverse", at))
            case "nest":
                let body = try object(fields[kindName], at, allowed: ["field", "eachInto", "fields", "into"])
                if let each = try optionalString(body, "eachInto", at) {
                    kind = .nest(field: try path(body, "field", at), fields: [], into: each)
                } else {
                    let names = try list(body["fields"], at + "/fields").compactMap(\.stringValue)
                    guard !names.isEmpty else { throw error(at, "nest needs fields + into, or field + eachInto") }
                    kind = .nest(field: nil, fields: names, into: try string(body, "into", at))
                }
            default:  // drop
                let body = try object(fields[kindName], at, allowed: ["field", "inverse"])
                var inverse: MigrationStep.Source?
                if let spec = body["inverse"] {
                    let inverseFields = try object(spec, at + "/inverse", allowed: ["value", "from"])
                    inverse = try source(inverseFields, at + "/inverse")
                }
                kind = .drop(field: try path(body, "field", at), inverse: inverse)
            }
        }
        var definition = fields
        definition.removeValue(forKey: "description")
        return MigrationStep(
            id: id, description: try optionalString(fields, "description", pointer), kind: kind,
            definition: .object(definition), pointer: pointer)
    }
}

/// How `map` with `ignoreCase` compares values: lowercased, trimmed, inner whitespace collapsed.
enum MapKey {
    static func normalize(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "_" || $0 == "-" })
            .joined(separator: " ")
    }
}
