import Foundation
// Public so the two `@inlinable` reads can name GRDB's types: their callers specialize them,
// which keeps a row read as cheap as GRDB's own.
public import GRDB

extension Row {
    /// The value at `index`, decoded as `Value` (an optional type accepts `NULL`).
    ///
    /// GRDB's throwing decoding, with the error naming `table`, the column and the row; O(1), and
    /// no allocation unless the value does not decode.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - index: The column's index in the row.
    ///   - table: The table the row comes from.
    /// - Returns: The decoded value.
    /// - Throws: What ``StoredTable/error`` makes of a ``StoredValueError`` when the value is not a `Value`.
    @inlinable
    package func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int, in table: StoredTable
    ) throws -> Value {
        do {
            return try decode(type, atIndex: index)
        } catch {
            throw storedValueError(in: table, atIndex: index, named: nil, expected: type, underlying: error)
        }
    }

    /// The value of the column named `column`, decoded as `Value` (an optional type accepts `NULL`
    /// and a missing column).
    ///
    /// Like ``decode(_:atIndex:in:)``; the column is looked up by name (case-insensitive, O(columns)).
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - column: The column's name.
    ///   - table: The table the row comes from.
    /// - Returns: The decoded value.
    /// - Throws: What ``StoredTable/error`` makes of a ``StoredValueError`` when the value is not a
    ///   `Value` or the row has no such column.
    @inlinable
    package func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn column: String, in table: StoredTable
    ) throws -> Value {
        do {
            return try decode(type, forColumn: column)
        } catch {
            throw storedValueError(
                in: table, atIndex: nil, named: column, expected: type, underlying: error)
        }
    }

    /// The error for a value that did not decode: the column at `index`, else the one named `name`.
    @usableFromInline
    package func storedValueError(
        in table: StoredTable, atIndex index: Int?, named name: String?, expected: Any.Type, underlying: any Error
    ) -> any Error {
        let position = index.map { self.index(startIndex, offsetBy: $0) } ?? name.flatMap(position(ofColumn:))
        let problem = StoredValueError(
            table: table.name, column: name ?? position.map { self[$0].0 } ?? "?", row: key(table.key),
            expected: Self.expectation(expected), found: position.map { Self.describe(self[$0].1) } ?? "no such column",
            underlying: underlying)
        return table.error(problem)
    }

    /// `type = 'recipe' and id = 'r1'` from the key columns the row has, or nil when it has none.
    private func key(_ columns: [String]) -> String? {
        let parts = columns.compactMap { name in
            position(ofColumn: name).map { "\(name) = \(Self.literal(self[$0].1))" }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " and ")
    }

    /// The leftmost column named `name`, ignoring case (as GRDB looks columns up).
    private func position(ofColumn name: String) -> Index? {
        firstIndex { $0.0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// What a column of `type` must hold, in words.
    private static func expectation(_ type: Any.Type) -> String {
        switch type {
        case is Int64.Type, is Int.Type, is Int32.Type: "an integer"
        case is Int64?.Type, is Int?.Type, is Int32?.Type: "an integer or NULL"
        case is Double.Type: "a number"
        case is Double?.Type: "a number or NULL"
        case is Bool.Type: "a boolean (an integer)"
        case is Bool?.Type: "a boolean (an integer) or NULL"
        case is String.Type: "text"
        case is String?.Type: "text or NULL"
        case is Data.Type: "a blob"
        case is Data?.Type: "a blob or NULL"
        default: "\(type)"
        }
    }

    /// A stored value with its SQLite storage class: `TEXT 'abc'`, `INTEGER 5`, `BLOB of 3 bytes`, `NULL`.
    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64: "INTEGER \(literal(value))"
        case .double: "REAL \(literal(value))"
        case .string: "TEXT \(literal(value))"
        case .blob: literal(value)
        }
    }

    /// A stored value as SQL would write it (text cut at 60 characters, a blob by its size):
    /// `'abc'`, `5`, `2.5`, `NULL`, `BLOB of 3 bytes`.
    private static func literal(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .string(let text):
            "'" + (text.count > 60 ? String(text.prefix(60)) + "…" : text).replacingOccurrences(of: "'", with: "''")
                + "'"
        case .blob(let data): "BLOB of \(data.count) byte\(data.count == 1 ? "" : "s")"
        }
    }
}
