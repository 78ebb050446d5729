/// The error every Larder library throws: a code, a message, where, and what caused it.
///
/// Shaped like NIO's `FileSystemError`: `code` is a small extensible struct with a stable
/// string, so callers can switch on it while new codes stay source compatible.
public struct LarderError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for the kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string, such as `malformed-record`.
        public let rawValue: String
        /// The process exit status this kind of failure maps to (1 data, 2 usage, 3 I/O).
        public let exitStatus: Int32

        private init(_ rawValue: String, exitStatus: Int32) {
            self.rawValue = rawValue
            self.exitStatus = exitStatus
        }

        public var description: String { rawValue }

        /// The input is not well-formed in its format (JSON, YAML, XML, gzip).
        public static let syntax = Code("syntax-error", exitStatus: 1)
        /// A record does not have the shape of its type (a wrong type, a missing field).
        public static let malformedRecord = Code("malformed-record", exitStatus: 1)
        /// A record is well-formed but breaks a domain rule.
        public static let invalidRecord = Code("invalid-record", exitStatus: 1)
        /// The input was refused as hostile (external entities, alias bombs, nesting too deep).
        public static let refusedInput = Code("refused-input", exitStatus: 1)
        /// The value cannot be represented in the output format.
        public static let unrepresentable = Code("unrepresentable", exitStatus: 1)
        /// A schema, manifest or migration problem.
        public static let schema = Code("schema-error", exitStatus: 1)
        /// A store / database problem.
        public static let store = Code("store-error", exitStatus: 3)
        /// The network or a remote server failed.
        public static let network = Code("network-error", exitStatus: 3)
        /// Reading or writing a file failed.
        public static let io = Code("io-error", exitStatus: 3)
        /// The command line or configuration is wrong.
        public static let usage = Code("usage-error", exitStatus: 2)
        /// A conflict the caller asked to fail on.
        public static let conflict = Code("conflict", exitStatus: 1)
    }

    /// What kind of failure.
    public var code: Code
    /// What happened and what to do about it.
    public var message: String
    /// Where, when known.
    public var location: SourceLocation?
    /// A source line with a caret under the column, when cheap to get.
    public var snippet: String?
    /// The error that caused this one.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, location: SourceLocation? = nil, snippet: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.snippet = snippet
        self.underlying = underlying
    }

    /// The same error with the parts of `location` it lacks filled in.
    public func locatedAt(_ other: SourceLocation) -> LarderError {
        var copy = self
        copy.location = (location ?? SourceLocation()).merged(with: other)
        return copy
    }

    /// This error as a diagnostic, for a rejects file.
    public var diagnostic: Diagnostic {
        Diagnostic(code: code.rawValue, message: message, location: location ?? SourceLocation())
    }

    /// Compiler-style text, with the snippet on the following lines when there is one.
    public var description: String {
        var text = diagnostic.description
        if let snippet { text += "\n" + TerminalText.escaped(snippet) }
        return text
    }
}
