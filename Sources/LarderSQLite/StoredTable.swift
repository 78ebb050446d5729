/// A table of a Larder database, as the errors of reading its rows name it: the table, the columns
/// that tell its rows apart, and the error a value that is not what its column must hold becomes.
///
/// Declared once per table as a `static let`, so reading a row costs nothing more than GRDB's
/// own throwing decoding; the key columns are read, and the error made, only when a read fails.
///
/// ```swift
/// extension StoredTable {
///     static let zone = StoredTable("zone", key: ["id", "name"])
/// }
/// let epoch = try row.decode(Int64.self, atIndex: 4, in: .zone)
/// ```
@usableFromInline
package struct StoredTable: Sendable {
    /// The table's name, or what the row comes from (`records (counted by type)`).
    package let name: String
    /// The columns that identify a row in an error (`type`, `id`), when the query selects them.
    package let key: [String]
    /// The error a ``StoredValueError`` becomes before it is thrown (itself by default).
    package let error: @Sendable (StoredValueError) -> any Error

    /// Creates a table description.
    /// - Parameters:
    ///   - name: The table's name.
    ///   - key: The columns that identify a row; an error names the row by their values.
    ///   - error: The error to throw in place of a ``StoredValueError`` (a module's own server error).
    package init(
        _ name: String, key: [String] = [], error: @escaping @Sendable (StoredValueError) -> any Error = { $0 }
    ) {
        self.name = name
        self.key = key
        self.error = error
    }
}
