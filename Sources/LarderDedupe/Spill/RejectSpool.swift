import LarderCore
import LarderFormats

/// Holds one input's rejected records while inputs are read in parallel, then hands them to the
/// real ``DiagnosticSink`` in input order.
///
/// The records wait in an anonymous scratch file (binary encoding, so any value fits); their
/// errors, which are small, wait in memory.
// @unchecked Sendable: filled by one task during the first pass, then handed to the caller,
// which alone replays it.
final class RejectSpool: DiagnosticSink, @unchecked Sendable {
    /// One rejected record: where it waits (nil when there was none), and why.
    private struct Entry {
        var record: (offset: UInt64, length: UInt32)?
        var error: LarderError
        var raw: String?
    }

    private let file: SpillFile
    private var entries: [Entry] = []
    private var warnings: [Diagnostic] = []

    /// Creates a spool whose scratch file goes in `directory` (the system's temporary one by default).
    init(directory: String? = nil) throws {
        file = try SpillFile(directory: directory)
    }

    /// Rejected records so far.
    var count: Int { entries.count }

    /// Keeps the record in the scratch file and its error in memory.
    func reject(_ record: Value?, _ error: LarderError, raw: String?) throws {
        let stored = try record.map { value -> (offset: UInt64, length: UInt32) in
            let (offset, length, _) = try file.append(value)
            return (offset, length)
        }
        entries.append(Entry(record: stored, error: error, raw: raw))
    }

    /// Keeps the warning.
    func warn(_ diagnostic: Diagnostic) {
        warnings.append(diagnostic)
    }

    /// Gives everything kept to `sink`, in the order it came.
    /// - Throws: ``LarderError`` `io-error` when the scratch file cannot be read, or what `sink` throws.
    func replay(into sink: any DiagnosticSink) throws {
        try file.flush()
        var scratch: [UInt8] = []
        for entry in entries {
            let record = try entry.record.map { try file.read(offset: $0.offset, length: $0.length, scratch: &scratch) }
            try sink.reject(record, entry.error, raw: entry.raw)
        }
        for warning in warnings { try sink.warn(warning) }
    }
}
