import Foundation
import LarderCore
import LarderFormats
import LarderRegistry

/// The first stage: each input migrated to its types' newest versions as it is read, one
/// ``FileMigration/Stream`` per input, in input order; refused records go to the dead letters
/// (stage `migrate`).
final class MigrationSource: RecordSource {
    /// The inputs' paths (`-` for standard input), in order.
    let inputs: [String]
    private let streams: [FileMigration.Stream]
    private var current = 0

    /// Opens nothing yet: each input is opened when first read.
    init(inputs: [String], streams: [FileMigration.Stream]) {
        self.inputs = inputs
        self.streams = streams
    }

    /// The next migrated record of any input.
    func next() throws -> PreparedRecord? {
        while current < streams.count {
            if let record = try next(ofInput: current) { return record }
            current += 1
        }
        return nil
    }

    /// The next migrated record of input `index` (records of one input come in order).
    func next(ofInput index: Int) throws -> PreparedRecord? {
        try streams[index].cursor.next().map { PreparedRecord(value: $0.value, type: $0.type, index: $0.index) }
    }

    /// Records read from the inputs so far.
    var read: Int { streams.reduce(0) { $0 + $1.summary.pipeline.read } }

    /// Records migrated from an older version so far.
    var migrated: Int { streams.reduce(0) { $0 + $1.summary.migratedRecords } }

    /// Inputs whose reading stopped at a syntax error.
    var abandonedInputs: [String] { streams.flatMap { $0.summary.pipeline.abandonedInputs } }
}
