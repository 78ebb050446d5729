import LarderCore
public import LarderFormats

/// One set of records to dedupe: where it comes from and which set it is.
public struct DedupeInput: Sendable {
    /// Which of the user's sets the records belong to.
    public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
        /// Recipes the user saved (SnapChef `getUserSavedRecipes`).
        case saved
        /// Recipes the user created (`getUserCreatedRecipes`): their id and owner win.
        case created
        /// Records whose own `isSaved` / `isCreated` flags say which set they are in (a store).
        case mixed
    }

    /// The name diagnostics and the merge log use (the path).
    public var name: String
    /// Which set.
    public var role: Role
    /// Opens a fresh reader over the records.
    public var makeReader: @Sendable () throws -> any RecordReader
    /// The file's path, when the input is a file (records may then be fetched from it again).
    public var path: String?

    /// Creates an input from a reader factory.
    public init(name: String, role: Role, makeReader: @escaping @Sendable () throws -> any RecordReader) {
        self.name = name
        self.role = role
        self.makeReader = makeReader
    }

    /// A file in any format Larder reads (`-` for standard input), gzip detected.
    public static func file(_ path: String, role: Role, format: DataFormat? = nil) -> DedupeInput {
        var input = DedupeInput(name: path == "-" ? "<stdin>" : path, role: role) {
            try RecordIO.openReader(path: path, format: format, recordType: .recipe)
        }
        if path != "-" { input.path = path }
        return input
    }
}

/// How a dedupe pass matches and merges.
public struct DedupeConfiguration: Sendable {
    /// The fuzzy-score threshold, 0...1 (default 0.85).
    public var threshold: Double = PairScorer.defaultThreshold
    /// Blocking parameters.
    public var blocking = BlockingPlan()
    /// The schema upgrade applied to every record before matching (identity by default).
    public var upgrade: RecordUpgrade = .identity
    /// Reject malformed records and go on, instead of stopping at the first.
    public var keepGoing = false
    /// Where scratch files go (the system temporary directory by default).
    public var scratchDirectory: String?
    /// The output format the records will be written in.
    ///
    /// For JSON and NDJSON, records wait in the scratch files already serialized, and records that
    /// merge with nothing are copied to the output without being parsed again.
    public var outputFormat: DataFormat = .json
    /// Whether JSON output is indented.
    public var pretty = false

    var spillEncoding: SpillEncoding {
        outputFormat == .json || outputFormat == .ndjson ? .json(pretty: pretty) : .binary
    }

    /// The defaults.
    public init() {}
}
