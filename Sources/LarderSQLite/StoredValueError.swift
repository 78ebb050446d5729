/// A value in a database row that is not what its column must hold: text in an integer column,
/// `NULL` where a value is required, a blob that is not UTF-8 text, or a column the row lacks.
///
/// A Larder database can be edited by hand, damaged, or written by another program; reading
/// such a row throws this error (naming the table, the column and the row) instead of trapping.
package struct StoredValueError: Error, Sendable, CustomStringConvertible {
    /// The table the row comes from.
    package var table: String
    /// The column whose value does not decode.
    package var column: String
    /// The row, by its key columns (`type = 'recipe' and id = 'r1'`), when the query selects them.
    package var row: String?
    /// What the column must hold (`an integer`).
    package var expected: String
    /// What it holds (`TEXT 'abc'`, `NULL`, `no such column`).
    package var found: String
    /// GRDB's decoding error.
    package var underlying: any Error

    /// `table records, column version (the row where type = 'recipe' and id = 'r1'): expected an
    /// integer, found TEXT 'abc'`.
    package var description: String {
        let place = row.map { " (the row where \($0))" } ?? ""
        return "table \(table), column \(column)\(place): expected \(expected), found \(found)"
    }
}
