import GRDB

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
                let order = table == "sqlite_sequence" ? "name" : "rowid"
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY \(order)")
                while let row = try cursor.next() {
                    // The autoincrement counter of an excluded table is part of that table.
                    if table == "sqlite_sequence", let name: String = row["name"], excluding.contains(name) { continue }
                    for (column, value) in row {
                        text.append(contentsOf: "\(column)=\(value.description);".utf8)
                    }
                    text.append(0x0A)
                }
            }
            return SHA256.hex(text)
        }
    }
}
