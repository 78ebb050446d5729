/// The error every Larder library throws: a code, a message, where, and what caused it.
///
/// Shaped like NIO's `FileSystemError`: `code` is a small extensible struct with a stable
/// string, so callers can switch on it while new codes stay source compatible.
public struct LarderError: Error, Sendable, CustomStringConvertible {
    /// A stable identifier for the kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string, such as `malformed-record`.
        public let rawValue: String

        private init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// The input is not well-formed in its format (JSON, YAML, XML, gzip).
        public static let syntax = Code("syntax-error")
        /// A record does not have the shape of its type (a wrong type, a missing field).
        public static let malformedRecord = Code("malformed-record")
        /// A record is well-formed but breaks a domain rule.
        public static let invalidRecord = Code("invalid-record")
        /// The input was refused as hostile (external entities, alias bombs, nesting too deep).
        public static let refusedInput = Code("refused-input")
        /// The value cannot be represented in the output format.
        public static let unrepresentable = Code("unrepresentable")
        /// A schema, manifest or migration problem.
        public static let schema = Code("schema-error")
        /// A store / database problem.
        public static let store = Code("store-error")
        /// The network or a remote server failed.
        public static let network = Code("network-error")
        /// Reading or writing a file failed.
        public static let io = Code("io-error")
        /// The command line or configuration is wrong.
        public static let usage = Code("usage-error")
        /// A conflict the caller asked to fail on.
        public static let conflict = Code("conflict")
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
    public init(
        _ code: Code, _ message: String, location: SourceLocation? = nil, snippet: String? = nil,
        underlying: (any Error)? = nil
    ) {
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
