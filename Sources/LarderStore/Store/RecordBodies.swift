import GRDB
import LarderCore
import LarderFormats
import LarderSQLite

/// A stored record's body with the names of its record, for errors that say which record is bad.
struct StoredBody {
    var type: String
    var id: String
    var body: String
}

extension StoredBody {
    /// Reads the `type`, `id` and `body` columns of a `records` row.
    /// - Throws: ``StoredValueError`` naming the column whose value is not text.
    init(row: Row) throws {
        type = try row.decode(forColumn: "type", in: .records)
        id = try row.decode(forColumn: "id", in: .records)
        body = try row.decode(forColumn: "body", in: .records)
    }
}

/// Parses stored record bodies.
///
/// Batches go through one NDJSON reader, so a million records do not each pay for a reader.
///
/// A body that is not one JSON object (damaged on disk, or written by hand) is an error naming
/// its record's type and id, never an empty record and never skipped.
enum RecordBodies {
    /// Parses one body.
    /// - Throws: ``LarderError`` naming the record when the body is not one JSON object.
    static func parse(_ body: String, type: String, id: String) throws -> Value {
        try parseOne(StoredBody(type: type, id: id, body: body)).get()
    }

    /// Parses a batch, in order.
    /// - Throws: ``LarderError`` naming the first record whose body is not one JSON object.
    static func parse(batch bodies: [StoredBody]) throws -> [Value] {
        try results(batch: bodies).map { try $0.get() }
    }

    /// Parses a batch, in order, each body to its value or to the error naming its record.
    static func results(batch bodies: [StoredBody]) -> [Result<Value, LarderError>] {
        guard !bodies.isEmpty else { return [] }
        if let values = parseTogether(bodies) { return values.map { .success($0) } }
        // Something is wrong in the batch: parse each body alone to tell which.
        return bodies.map(parseOne)
    }

    /// All bodies through one reader; `nil` when any of them is not exactly one JSON object (or
    /// holds a newline, which would shift the lines and so the records the values belong to).
    private static func parseTogether(_ bodies: [StoredBody]) -> [Value]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(bodies.reduce(0) { $0 + $1.body.utf8.count + 1 })
        for stored in bodies {
            let start = bytes.count
            bytes.append(contentsOf: stored.body.utf8)
            if bytes[start...].contains(0x0A) { return nil }
            bytes.append(0x0A)
        }
        let reader = JSONReader(source: MemoryByteSource(bytes, name: "store"), lineMode: true)
        var values: [Value] = []
        values.reserveCapacity(bodies.count)
        do {
            while let item = try reader.next() {
                guard item.value.objectValue != nil else { return nil }
                values.append(item.value)
            }
        } catch {
            return nil
        }
        return values.count == bodies.count ? values : nil
    }

    /// One body through its own reader.
    private static func parseOne(_ stored: StoredBody) -> Result<Value, LarderError> {
        let reader = JSONReader(
            source: MemoryByteSource(Array(stored.body.utf8) + [0x0A], name: "store"), lineMode: true)
        let problem: LarderError
        do {
            if let first = try reader.next() {
                if first.value.objectValue == nil {
                    problem = LarderError(.malformedRecord, "it holds \(first.value.kindDescription)")
                } else if try reader.next() != nil {
                    problem = LarderError(.malformedRecord, "it holds more than one JSON value")
                } else {
                    return .success(first.value)
                }
            } else {
                problem = LarderError(.malformedRecord, "it is empty")
            }
        } catch let error as LarderError {
            problem = error
        } catch {
            problem = LarderError(.store, "\(error)", underlying: error)
        }
        return .failure(
            LarderError(
                problem.code,
                "\(stored.type) \(stored.id): the stored body is not a JSON object (\(problem.message)); the store is damaged: restore it from a backup, or delete the record",
                underlying: problem))
    }
}
