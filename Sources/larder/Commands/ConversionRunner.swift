import ArgumentParser
import Foundation
import LarderCore
import LarderFormats

/// Runs a ``ConversionPipeline`` for a command: rejects file, progress and summary.
enum ConversionRunner {
    static func convert(
        input: InputOptions, rejects: RejectsOptions, progress: ProgressOptions, stage: String, check: RecordCheck,
        limits: ReaderLimits = .default,
        transform: ((Value, RecordType, Int?) throws -> Value)? = nil,
        hint: PlainFileHint? = nil,
        makeWriter: (EnvelopeHeader?, RecordType?) throws -> any RecordWriter
    ) throws -> ConversionPipeline.Summary {
        let rejectsWriter = try rejects.resolvedRejectsPath.map { try RejectsWriter(path: $0) }
        let meter = progress.start(stage, inputs: input.resolvedInputs)
        defer { meter.finish() }
        var pipeline = ConversionPipeline(
            inputs: input.resolvedInputs, inputFormat: input.inputFormat, recordType: input.type, check: check,
            keepGoing: rejects.keepGoing, limits: limits,
            progress: { summary in meter.update(records: summary.read) })
        pipeline.transform = transform
        if let hint { pipeline.onRecordFailure = hint.observe }
        let summary: ConversionPipeline.Summary
        do {
            summary = try pipeline.run(makeWriter: makeWriter) { record, error in
                try rejectsWriter?.reject(record, error)
            }
        } catch {
            try hint?.fail(with: error)
            throw error
        }
        try rejectsWriter?.finish()
        meter.finish()
        var text = "larder: \(summary.text)"
        if let path = rejectsWriter?.path, summary.rejected > 0 { text += " (rejects in \(path))" }
        Stderr.print(text)
        for name in summary.abandonedInputs { Stderr.print("larder: stopped reading \(name) at its syntax error") }
        hint?.print()
        return summary
    }

    /// Exits 1 when anything was rejected, after the summary has been printed.
    static func finish(_ summary: ConversionPipeline.Summary) throws {
        if summary.rejected > 0 { throw DataErrorsExit() }
    }
}
