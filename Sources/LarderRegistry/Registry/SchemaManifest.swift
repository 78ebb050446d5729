public import LarderCore

/// How a type's versions must relate to each other (Confluent Schema Registry's modes, plus
/// CloudKit's production rule).
public enum CompatibilityMode: String, Sendable, Hashable, CaseIterable {
    /// Each version reads data written by the one before it.
    case backward = "BACKWARD"
    /// Each version reads data written by every earlier one.
    case backwardTransitive = "BACKWARD_TRANSITIVE"
    /// The version before reads data written by each new one.
    case forward = "FORWARD"
    /// Every earlier version reads data written by each new one.
    case forwardTransitive = "FORWARD_TRANSITIVE"
    /// Backward and forward.
    case full = "FULL"
    /// Backward and forward, against every earlier version.
    case fullTransitive = "FULL_TRANSITIVE"
    /// Anything goes (migrations carry the data).
    case none = "NONE"
    /// Additive only: no field removed, renamed or retyped, as CloudKit's production schema requires.
    case cloudKitProduction = "CLOUDKIT_PRODUCTION"

    /// Whether each version is compared with every earlier version, not only the one before.
    public var isTransitive: Bool {
        switch self {
        case .backwardTransitive, .forwardTransitive, .fullTransitive, .cloudKitProduction: true
        default: false
        }
    }
}

/// One step of a field path in a migration step: `instructions[].text` is
/// `instructions`, every element, `text`.
public enum StepPathComponent: Sendable, Hashable {
    /// An object member.
    case key(String)
    /// Every element of a list.
    case each
}

/// A field path in a migration step, such as `authorID` or `instructions[].timerSeconds`.
public struct StepPath: Sendable, Hashable, CustomStringConvertible {
    /// The components from the record root.
    public var components: [StepPathComponent]

    /// Parses `a.b`, `list[].field`.
    public init?(_ text: String) {
        var components: [StepPathComponent] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var name = Substring(part)
            var eachCount = 0
            while name.hasSuffix("[]") {
                name = name.dropLast(2)
                eachCount += 1
            }
            guard !name.isEmpty, !name.contains("["), !name.contains("]") else { return nil }
            components.append(.key(String(name)))
            components.append(contentsOf: Array(repeating: .each, count: eachCount))
        }
        guard !components.isEmpty else { return nil }
        self.components = components
    }

    /// The path without its last member: where a rename or default works.
    public var parent: [StepPathComponent] { Array(components.dropLast()) }

    /// The last member's name.
    public var leaf: String {
        if case .key(let key) = components.last { return key }
        return ""
    }

    /// `instructions[].text`.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .each: text += "[]"
            }
        }
        return text
    }
}

/// One declarative migration step or custom stage, as the manifest declares it.
public struct MigrationStep: Sendable, Hashable {
    /// Where a new value comes from.
    public enum Source: Sendable, Hashable {
        /// A literal value.
        case value(Value)
        /// A copy of a sibling field.
        case field(String)
    }

    /// What to do with a value the map does not name.
    public enum Otherwise: Sendable, Hashable {
        /// Leave it as it is.
        case keep
        /// Remove the field.
        case drop
        /// Reject the record.
        case reject
        /// Use this value.
        case value(Value)
    }

    /// What the step does.
    public enum Kind: Sendable, Hashable {
        /// Renames a field (its inverse renames it back).
        case rename(from: StepPath, to: StepPath)
        /// Adds a field when it is absent (its inverse drops it).
        case defaultValue(field: StepPath, source: Source)
        /// Declares a field new in the later version, filled with `value` when absent (nothing
        /// without one). Its inverse drops the field only when it holds nothing (absent, null, an
        /// empty list, object or text, or `value`); a record whose field holds data is refused,
        /// so going down never loses data silently.
        case add(field: StepPath, value: Value?)
        /// Maps values through a table; `inverse` maps them back (none: the step is lossy).
        case map(
            field: StepPath, values: [(String, Value)], ignoreCase: Bool, otherwise: Otherwise,
            inverse: [(String, Value)]?)
        /// Converts a field's value with a named converter, optionally into another field.
        case convert(field: StepPath, to: StepPath?, converter: String, keepSource: Bool, inverse: String?)
        /// Moves sibling fields into a new object (`fields` → `into`), or wraps each element of a
        /// list into an object under `eachInto`. Its inverse flattens them again.
        case nest(field: StepPath?, fields: [String], into: String)
        /// Removes a field; `inverse` says how to restore it going down (none: the step is lossy).
        case drop(field: StepPath, inverse: Source?)
        /// A custom stage in Swift, by id, with the id of its inverse stage.
        case stage(id: String, inverse: String?)
        /// Loosens a field's rule in the later version: it was `required`, or its text held at most
        /// `maxLength` characters. Going up nothing changes; going down a record that breaks the
        /// older rule is refused, naming the field (nothing is invented or cut).
        case relax(field: StepPath, required: Bool, maxLength: Int?)

        public static func == (lhs: Kind, rhs: Kind) -> Bool { "\(lhs)" == "\(rhs)" }
        public func hash(into hasher: inout Hasher) { hasher.combine("\(self)") }
    }

    /// The step's unique id, recorded in the store's history.
    public var id: String
    /// What it is for.
    public var description: String?
    /// What it does.
    public var kind: Kind
    /// The step exactly as declared, for its checksum.
    public var definition: Value
    /// Where it is declared: the manifest's JSON pointer.
    public var pointer: String

    /// A one-line summary: `rename authorID → ownerID`.
    public var summary: String {
        switch kind {
        case .rename(let from, let to): return "rename \(from) → \(to)"
        case .defaultValue(let field, .value(let v)): return "default \(field) = \(v.compactText(limit: 30))"
        case .defaultValue(let field, .field(let other)): return "default \(field) = \(other)"
        case .add(let field, let value?): return "add \(field) = \(value.compactText(limit: 30))"
        case .add(let field, nil): return "add \(field)"
        case .map(let field, let values, _, _, _): return "map \(field) (\(values.count) values)"
        case .convert(let field, let to, let converter, _, _):
            return "convert \(field)\(to.map { " → \($0)" } ?? "") with \(converter)"
        case .nest(let field?, _, let into): return "nest each \(field) element into {\(into)}"
        case .nest(nil, let fields, let into): return "nest \(fields.joined(separator: ", ")) into \(into)"
        case .drop(let field, _): return "drop \(field)"
        case .stage(let id, _): return "stage \(id)"
        case .relax(let field, let required, let maxLength):
            return "relax \(field)" + Self.relaxedRules(required: required, maxLength: maxLength)
        }
    }

    /// ` (was required, at most 280 characters)`.
    static func relaxedRules(required: Bool, maxLength: Int?) -> String {
        let rules = [required ? "required" : nil, maxLength.map { "at most \($0) characters" }].compactMap { $0 }
        return rules.isEmpty ? "" : " (was \(rules.joined(separator: ", ")))"
    }

    /// Why the step cannot run backwards, or `nil` when it declares (or implies) an inverse.
    public var lossyReason: String? {
        switch kind {
        case .rename, .defaultValue, .nest, .add, .relax: return nil
        case .map(_, _, _, _, let inverse): return inverse == nil ? "map declares no inverse table" : nil
        case .convert(_, _, let converter, let keepSource, let inverse):
            return keepSource || inverse != nil ? nil : "converter \(converter) declares no inverse converter"
        case .drop(let field, let inverse): return inverse == nil ? "drop \(field) declares no value to restore" : nil
        case .stage(let id, let inverse): return inverse == nil ? "stage \(id) declares no inverse stage" : nil
        }
    }
}

/// The manifest (`Schemas/registry.yaml`): the record types, their versions and schema files, each
/// type's compatibility mode, and the migration steps between versions.
public struct SchemaManifest: Sendable {
    /// One schema version of a type.
    public struct Version: Sendable, Hashable {
        /// The version number.
        public var version: Int
        /// The JSON Schema's path relative to `Schemas/`.
        public var jsonSchema: String
        /// The XSD's path relative to `Schemas/`.
        public var xsd: String?
        /// What this version is.
        public var description: String?
    }

    /// The steps that take a type from one version to another.
    public struct Transition: Sendable, Hashable {
        /// The version the steps start from.
        public var from: Int
        /// The version they end at.
        public var to: Int
        /// The steps, in order.
        public var steps: [MigrationStep]
    }

    /// One record type.
    public struct TypeEntry: Sendable {
        /// Its name, such as `recipe`.
        public var name: String
        /// What it is.
        public var description: String?
        /// How its versions must relate.
        public var compatibility: CompatibilityMode
        /// Its versions, oldest first.
        public var versions: [Version]
        /// The transitions between versions.
        public var migrations: [Transition]

        /// The newest version.
        public var latest: Int { versions.last?.version ?? 0 }

        /// The entry for `version`.
        public func version(_ number: Int) -> Version? { versions.first { $0.version == number } }
    }

    /// The manifest format (1).
    public var format: Int
    /// The types, in manifest order.
    public var types: [TypeEntry]
    /// The manifest's file name for messages.
    public var file: String

    /// The entry for type `name`.
    public func type(_ name: String) -> TypeEntry? { types.first { $0.name == name } }

    /// Every step of every type, by id.
    public var stepsByID: [String: (type: String, transition: Transition, step: MigrationStep)] {
        var result: [String: (type: String, transition: Transition, step: MigrationStep)] = [:]
        for type in types {
            for transition in type.migrations {
                for step in transition.steps { result[step.id] = (type.name, transition, step) }
            }
        }
        return result
    }
}
