import Foundation
import LarderCore
import LarderDedupe
import LarderFormats

/// The dedupe stage: recipes merged without duplicates (the ``DedupePass``), other records
/// handed on as they come.
///
/// Each input is classified by its first migrated record. An input of another type streams
/// straight through, in input order; the recipe inputs are kept for last, then read (still
/// migrating) into the pass, which spills them to its scratch files and clusters them, and its
/// output is handed on a record at a time (``DedupeAnalysis/Records``). No record is written to
/// a file that a later stage reads back. Records the pass refuses go to `rejects` (the dead
/// letters, stage `dedupe`).
final class DedupeSource: RecordSource {
    private let upstream: MigrationSource
    private let configuration: DedupeConfiguration
    private let rejects: any DiagnosticSink
    private let clock: LarderClock
    /// The input streaming through, when one is.
    private var passing: Int?
    private var nextInput = 0
    /// The recipe inputs, each with its first record (already read to classify it).
    private var recipeInputs: [(input: Int, first: PreparedRecord)] = []
    private var output: DedupeAnalysis.Records?
    private var outputIndex = 0
    /// Records handed on without dedupe.
    private var passed = 0
    /// Records merged away (members of clusters minus the survivors), once the pass has run.
    private(set) var mergedAway = 0
    /// Seconds spent reading the recipes into the pass and clustering them.
    private(set) var seconds = 0.0
    /// Called once the pass has run, with every record this stage will hand on.
    var onCounted: ((Int) -> Void)?

    /// Dedupes the recipes `upstream` yields; the pass's scratch files go in `scratchDirectory`.
    init(upstream: MigrationSource, scratchDirectory: String, rejects: any DiagnosticSink, clock: LarderClock) {
        self.upstream = upstream
        var configuration = DedupeConfiguration()
        configuration.keepGoing = true
        configuration.scratchDirectory = scratchDirectory
        configuration.outputFormat = .json
        self.configuration = configuration
        self.rejects = rejects
        self.clock = clock
    }

    func next() async throws -> PreparedRecord? {
        while output == nil {
            if let input = passing {
                if let record = try upstream.next(ofInput: input) {
                    passed += 1
                    return record
                }
                passing = nil
            }
            guard nextInput < upstream.inputs.count else {
                output = try await dedupe()
                break
            }
            let input = nextInput
            nextInput += 1
            guard let first = try upstream.next(ofInput: input) else { continue }
            if first.type == .recipe {
                recipeInputs.append((input, first))
            } else {
                passing = input
                passed += 1
                return first
            }
        }
        guard let value = try output?.next() else { return nil }
        defer { outputIndex += 1 }
        return PreparedRecord(value: value, type: .recipe, index: outputIndex)
    }

    /// Runs the pass over the recipe inputs: an empty output when there are none.
    private func dedupe() async throws -> DedupeAnalysis.Records? {
        guard !recipeInputs.isEmpty else {
            onCounted?(passed)
            return nil
        }
        let started = clock.monotonicSeconds()
        let reader = MigratedRecipeReader(upstream: upstream, inputs: recipeInputs)
        recipeInputs = []
        let box = ReaderBox(reader)
        let pass = DedupePass(
            inputs: [DedupeInput(name: reader.name, role: .mixed) { box.reader }], configuration: configuration)
        let analysis = try await pass.analyze(rejects: rejects)
        // A plan problem stops the migration, as it does without dedupe (the pass would have taken it for a bad record).
        if let failure = reader.failure { throw failure }
        let summary = analysis.summary
        mergedAway = summary.mergedRecords - summary.clusters
        let records = analysis.records()
        seconds = clock.monotonicSeconds() - started
        onCounted?(passed + records.count)
        return records
    }
}

/// The recipe inputs as one ``RecordReader`` for the dedupe pass, migrating as it is read.
///
/// Records are numbered across the inputs (the pass orders ties by that number, as it did by
/// input then index); each one's location names its own input and index there. An error the
/// migration throws ends the reading and is kept in ``failure`` for the stage to throw.
final class MigratedRecipeReader: RecordReader {
    private let upstream: MigrationSource
    private var inputs: [(input: Int, first: PreparedRecord)]
    private var pendingFirst: PreparedRecord?
    private var count = 0
    /// What stopped the migration, if something did.
    private(set) var failure: (any Error)?

    init(upstream: MigrationSource, inputs: [(input: Int, first: PreparedRecord)]) {
        self.upstream = upstream
        self.inputs = inputs
        pendingFirst = inputs.first?.first
    }

    /// The recipe inputs' names, for diagnostics.
    var name: String { "recipes to dedupe" }

    /// Migrated records carry no envelope.
    var header: EnvelopeHeader? { nil }

    func next() throws -> RecordItem? {
        while let (input, _) = inputs.first {
            let record: PreparedRecord?
            if let first = pendingFirst {
                record = first
                pendingFirst = nil
            } else {
                do {
                    record = try upstream.next(ofInput: input)
                } catch {
                    failure = error
                    inputs = []
                    return nil
                }
            }
            guard let record else {
                inputs.removeFirst()
                pendingFirst = inputs.first?.first
                continue
            }
            defer { count += 1 }
            return RecordItem(
                value: record.value, index: count,
                location: SourceLocation(file: upstream.inputs[input], recordIndex: record.index))
        }
        return nil
    }

    func location(of path: FieldPath) -> SourceLocation? { nil }
}

/// Hands the reader to the pass's reading task, which alone uses it while the stage waits.
// @unchecked Sendable: the stage awaits the pass, so the reader is never used from two tasks at once.
private final class ReaderBox: @unchecked Sendable {
    let reader: MigratedRecipeReader
    init(_ reader: MigratedRecipeReader) { self.reader = reader }
}
