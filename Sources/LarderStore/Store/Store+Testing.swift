import GRDB

// The test-only path into a store's SQLite file: tests reach it through `@testable import
// LarderStore` to set a store up fast, count rows, watch the statements run, or damage a store on
// purpose (a corrupt body, a newer revision, another program's database). Nothing else calls it.

extension Store {
    /// Runs raw SQL (one or more statements) outside any transaction, with `arguments` bound to
    /// its `?` placeholders (text; SQLite converts it for integer columns).
    func executeRaw(_ sql: String, arguments: [String?] = []) throws {
        try database.writeWithoutTransaction { db in try db.execute(sql: sql, arguments: StatementArguments(arguments))
        }
    }

    /// Runs raw SQL on the SQLite file at `path`, which need not be a Larder store (nor exist).
    static func executeRaw(_ sql: String, onFile path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    /// The number of rows of `table`.
    func rowCount(table: String) throws -> Int {
        try readDatabase { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
        }
    }

    /// Calls `onStatement` with every statement the store runs from now on, arguments expanded.
    func traceStatements(_ onStatement: @escaping @Sendable (String) -> Void) throws {
        database.writeWithoutTransaction { db in db.trace { event in onStatement(event.expandedDescription) } }
    }
}

extension StoreTransaction {
    /// Runs raw SQL in this transaction (see ``Store/executeRaw(_:arguments:)``).
    func executeRaw(_ sql: String, arguments: [String?] = []) throws {
        try db.execute(sql: sql, arguments: StatementArguments(arguments))
    }
}
