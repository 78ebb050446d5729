/// A problem found in the data, with where it is.
///
/// Recoverable ones go to a rejects file; fatal ones are thrown as ``LarderError``.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        case note, warning, error
    }

    /// How bad it is.
    public var severity: Severity
    /// A stable machine-readable code, such as `type-mismatch`.
    public var code: String
    /// What happened, in words.
    public var message: String
    /// Where it happened.
    public var location: SourceLocation

    /// Creates a diagnostic.
    public init(severity: Severity = .error, code: String, message: String, location: SourceLocation = SourceLocation())
    {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
    }

    /// The problem as a compiler-style message.
    ///
    /// For example, `recipes.yaml:12:7: error: record 11: steps[2].timerSeconds: expected an integer, found "5 min"`.
    /// Control characters from the data are escaped (``TerminalText``): this is text for people.
    public var description: String {
        var text = ""
        if let prefix = location.positionPrefix { text += prefix + ": " }
        text += "\(severity.rawValue): " + location.recordPrefix + message
        return TerminalText.escaped(text)
    }
}
