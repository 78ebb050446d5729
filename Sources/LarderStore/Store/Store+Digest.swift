import Foundation
import GRDB
import LarderSQLite

extension Store {
    /// A fingerprint of every row of every table (in table-name and rowid order), to tell whether
    /// two stores hold exactly the same data, such as before and after an interrupted run.
    ///
    /// Each row is rendered by SQLite (`quote()` of every column) and the text is hashed with
    /// 128 bits of FNV-1a (two 64-bit lanes): fast even in a debug build, meant to tell states
    /// apart, not to resist a forger. Reads the whole store: O(rows).
    /// - Parameter excluding: tables left out (the history, whose timings differ between runs),
    ///   with their autoincrement counters.
    /// - Returns: 32 hex digits.
    /// - Throws: ``LarderError`` `store-error` when the database fails.
    public func contentDigest(excluding: Set<String> = []) throws -> String {
        try readDatabase { db in
            var text: [UInt8] = []
            text.reserveCapacity(1 << 20)
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables where !excluding.contains(table) {
                text.append(contentsOf: "table \(table)\n".utf8)
                let rows = StoredTable(table)
                let info = StoredTable("table_info(\(table))")
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))").map {
                    try $0.decode(String.self, forColumn: "name", in: info)
                }
                // SQLite renders each row (quote() is exact for every value type), one string per row.
                let rendered = columns.map { "quote(\($0.quotedDatabaseIdentifier))" }.joined(separator: " || ',' || ")
                let order = table == "sqlite_sequence" ? "name" : "rowid"
                let skip = table == "sqlite_sequence" ? excluding : []
                let cursor = try Row.fetchCursor(
                    db,
                    sql:
                        "SELECT \(rendered) AS line, \(table == "sqlite_sequence" ? "name" : "NULL") AS owner FROM \(table.quotedDatabaseIdentifier) ORDER BY \(order)"
                )
                while let row = try cursor.next() {
                    // The autoincrement counter of an excluded table is part of that table.
                    if let owner: String = try row.decode(atIndex: 1, in: rows), skip.contains(owner) { continue }
                    let line: String = try row.decode(atIndex: 0, in: rows)
                    text.append(contentsOf: line.utf8)
                    text.append(0x0A)
                }
            }
            return Self.fingerprint(text)
        }
    }

    /// FNV-1a over `bytes` in two 64-bit lanes (different offset bases), as 32 hex digits.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var low: UInt64 = 0xCBF2_9CE4_8422_2325
        var high: UInt64 = 0x6C62_272E_07BB_0142
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ low
            }
        }
        let hex = { (value: UInt64) -> String in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }
}
