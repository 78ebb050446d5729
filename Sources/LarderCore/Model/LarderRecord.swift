/// The kinds of record Larder reads and writes.
public enum RecordType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A cooking recipe.
    case recipe
    /// A coffee brew recipe (BrewGuide).
    case brewRecipe
    /// A brew log entry (BrewGuide).
    case brewLog

    /// The model type for this kind of record.
    public var modelType: any LarderRecord.Type {
        switch self {
        case .recipe: Recipe.self
        case .brewRecipe: BrewRecipe.self
        case .brewLog: BrewLog.self
        }
    }

    /// The schema version the model types implement: recipe 4, brewRecipe 2, brewLog 4.
    public var currentVersion: Int {
        switch self {
        case .recipe: 4
        case .brewRecipe: 2
        case .brewLog: 4
        }
    }

    /// The oldest schema version whose records the model reads as they are, because every
    /// version since only added optional fields or loosened rules: recipe 3, brewRecipe 1, brewLog 2.
    public var oldestReadableVersion: Int {
        switch self {
        case .recipe: 3
        case .brewRecipe: 1
        case .brewLog: 2
        }
    }

    /// Whether the model reads records declared at `version` as they are (`nil`, undeclared: yes),
    /// so that checks through the model (structure, domain rules) apply to them.
    public func modelReads(version: Int?) -> Bool {
        guard let version else { return true }
        return (oldestReadableVersion...currentVersion).contains(version)
    }

    /// Decodes a record of the current version into its model type.
    public func decode(_ value: Value) throws -> any LarderRecord {
        try modelType.init(value: value)
    }

    /// The shape of the current version, for typing formats without types.
    public var shape: Shape { modelType.shape }

    /// The element name for one record in XML.
    public var elementName: String { rawValue }

    /// Guesses the type of a record from its fields: `recipeNameAtBrew`, or a `rating` that is not
    /// an object in a record without a `title`, means a brew log (a recipe's rating is an object),
    /// `steps` with a dose a brew recipe, otherwise a recipe.
    public static func guess(from value: Value) -> RecordType {
        guard let fields = value.objectValue else { return .recipe }
        if fields.contains(key: "recipeNameAtBrew") { return .brewLog }
        if let rating = fields["rating"], rating.objectValue == nil, !fields.contains(key: "title") { return .brewLog }
        if fields.contains(key: "steps") || fields.contains(key: "method") { return .brewRecipe }
        return .recipe
    }
}

/// A record of the current schema version: decodes from and encodes to a ``Value`` and
/// checks the domain rules of the app it comes from.
public protocol LarderRecord: Sendable, Hashable {
    /// Which kind of record this is.
    static var recordType: RecordType { get }
    /// The shape of the current version.
    static var shape: Shape { get }
    /// Decodes a record, throwing ``LarderError`` with the field path on a type mismatch.
    init(value: Value) throws
    /// The record as a value, fields in canonical order, absent optionals left out.
    var value: Value { get }
    /// The record's id.
    var id: String { get }
    /// Its sync state.
    var sync: SyncMetadata { get set }
    /// The domain-rule violations, empty when the record is valid. Tombstones have none.
    func validate() -> [Diagnostic]
}

extension LarderRecord {
    /// The CloudKit record name: the explicit one, else the type and id.
    public var recordName: String { sync.recordName ?? "\(Self.recordType.rawValue)-\(id)" }
}

/// Collects rule violations with their field paths.
public struct RuleChecker: Sendable {
    /// The violations so far.
    public private(set) var diagnostics: [Diagnostic] = []

    /// Creates an empty checker.
    public init() {}

    /// Records a violation at `path` unless `condition` holds.
    public mutating func require(_ condition: Bool, _ path: FieldPath, _ message: @autoclosure () -> String) {
        if !condition {
            diagnostics.append(
                Diagnostic(code: "rule-violation", message: message(), location: SourceLocation(fieldPath: path)))
        }
    }
}
