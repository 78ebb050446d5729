import GRDB
public import LarderCore
public import LarderFormats
import LarderSQLite

/// Reads a store's records of one type, tombstones included, in rowid (insertion) order, as a
/// ``RecordReader``: a store can be the input of anything that reads files (dedupe, conversion).
///
/// Streams: rows are read a page at a time (``pageSize``, 4,096 by default), each page in its own
/// short read transaction keyed on the last rowid seen, so memory stays at one page and the
/// store is not held locked while the caller works. A record whose stored body does not parse is
/// an error naming it (type and id); reading can go on with the next record (``canRecover``).
///
/// ```swift
/// let reader = StoreRecordReader(store: try Store(path: "larder.db"), type: "recipe")
/// while let item = try reader.next() { print(item.value["title"] ?? .null) }
/// ```
public final class StoreRecordReader: RecordReader {
    /// The store's path.
    public let name: String
    /// Stores have no envelope.
    public let header: EnvelopeHeader? = nil
    /// The record type read.
    public let type: String
    /// The most rows one read transaction fetches.
    public let pageSize: Int
    private let store: Store
    private var page: [Result<Value, LarderError>] = []
    private var position = 0
    private var lastRowID: Int64 = 0
    private var count = 0
    private var isExhausted = false

    /// Creates a reader of the records of `type` in `store`.
    /// - Parameters:
    ///   - store: The store to read.
    ///   - type: The record type.
    ///   - pageSize: the most rows read per transaction (at least 1).
    public init(store: Store, type: String, pageSize: Int = 4096) {
        self.store = store
        self.type = type
        self.pageSize = max(pageSize, 1)
        name = store.path
    }

    /// The next record, or `nil` after the last.
    /// - Throws: ``LarderError`` naming the record (type and id) whose stored body is not one
    ///   JSON object, with the store as the file and the record's index; `store-error` when the
    ///   database fails.
    public func next() throws -> RecordItem? {
        if position == page.count {
            guard !isExhausted, try readPage() else { return nil }
        }
        let entry = page[position]
        position += 1
        defer { count += 1 }
        let location = SourceLocation(file: name, recordIndex: count)
        switch entry {
        case .success(let value): return RecordItem(value: value, index: count, location: location)
        case .failure(let error): throw error.locatedAt(location)
        }
    }

    /// Reads the next page; returns whether it held any row.
    private func readPage() throws -> Bool {
        // The rows are decoded inside the read, so a bad value is a store error naming the file.
        let (bodies, pageLastRowID) = try store.readDatabase { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT rowid, type, id, body FROM records WHERE type = ? AND rowid > ? ORDER BY rowid LIMIT ?",
                arguments: [type, lastRowID, pageSize])
            return (try rows.map(StoredBody.init(row:)), try rows.last?.decode(Int64.self, atIndex: 0, in: .records))
        }
        isExhausted = bodies.count < pageSize
        guard let pageLastRowID else { return false }
        lastRowID = pageLastRowID
        page = RecordBodies.results(batch: bodies)
        position = 0
        return true
    }

    /// A bad body spoils only its own record.
    public var canRecover: Bool { true }

    /// Stored records carry no positions inside them.
    public func location(of path: FieldPath) -> SourceLocation? { nil }
}
