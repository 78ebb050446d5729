import GRDB
import LarderCore

extension Store {
    /// A SHA-256 digest of every row of every table (in table-name and rowid order), to tell
    /// whether two stores hold exactly the same data, such as before and after an interrupted run.
    ///
    /// Reads the whole store: O(rows).
    /// - Parameter excluding: tables left out (the history, whose timings differ between runs),
    ///   with their autoincrement counters.
    public func contentDigest(excluding: Set<String> = []) throws -> String {
        try read { db in
            var text: [UInt8] = []
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables where !excluding.contains(table) {
                text.append(contentsOf: "table \(table)\n".utf8)
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))").map { $0["name"] as String }
                // SQLite renders each row (quote() is exact for every value type), one string per row.
                let rendered = columns.map { "quote(\($0.quotedDatabaseIdentifier))" }.joined(separator: " || ',' || ")
                let order = table == "sqlite_sequence" ? "name" : "rowid"
                let skip = table == "sqlite_sequence" ? excluding : []
                let cursor = try Row.fetchCursor(
                    db, sql: "SELECT \(rendered) AS line, \(table == "sqlite_sequence" ? "name" : "NULL") AS owner FROM \(table.quotedDatabaseIdentifier) ORDER BY \(order)")
                while let row = try cursor.next() {
                    // The autoincrement counter of an excluded table is part of that table.
                    if let owner: String = row["owner"], skip.contains(owner) { continue }
                    let line: String = row["line"]
                    text.append(contentsOf: line.utf8)
                    text.append(0x0A)
                }
            }
            return SHA256.hash(text).hexString
        }
    }
}
