/// Where a problem is: file, line and column (1-based), record index (0-based) and field path.
///
/// Every part is optional, because not every problem has every part.
public struct SourceLocation: Sendable, Hashable, Codable {
    /// The input file, or `<stdin>`.
    public var file: String?
    /// The 1-based line.
    public var line: Int?
    /// The 1-based column.
    public var column: Int?
    /// The 0-based index of the record in its input.
    public var recordIndex: Int?
    /// The field inside the record.
    public var fieldPath: FieldPath?

    /// Creates a location.
    public init(
        file: String? = nil, line: Int? = nil, column: Int? = nil, recordIndex: Int? = nil, fieldPath: FieldPath? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.recordIndex = recordIndex
        self.fieldPath = fieldPath
    }

    /// `file:line:col` (or as much of it as is known), for the start of a compiler-style message.
    public var positionPrefix: String? {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let line {
            parts.append(String(line))
            if let column { parts.append(String(column)) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }

    /// `record 11: steps[2].timerSeconds: ` (or as much of it as is known).
    public var recordPrefix: String {
        var text = ""
        if let recordIndex { text += "record \(recordIndex): " }
        if let fieldPath, !fieldPath.isRoot { text += "\(fieldPath): " }
        return text
    }

    /// Fills the parts this location lacks from `other`.
    public func merged(with other: SourceLocation?) -> SourceLocation {
        guard let other else { return self }
        return SourceLocation(
            file: file ?? other.file, line: line ?? other.line, column: column ?? other.column,
            recordIndex: recordIndex ?? other.recordIndex, fieldPath: fieldPath ?? other.fieldPath
        )
    }
}
