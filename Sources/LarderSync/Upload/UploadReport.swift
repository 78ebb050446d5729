import Foundation
import LarderCore

/// The final report of an upload: what was read, written, skipped, conflicted, retried and
/// given up, and how long it took.
///
/// Printed as text on stderr, and as JSON with `--report`.
public struct UploadReport: Sendable, Hashable, Codable {
    /// The target (server, container, environment, database, zone).
    public var target: String
    /// Records read from the inputs (or pending changes from the store).
    public var read = 0
    /// Records migrated from an older schema version.
    public var migrated = 0
    /// Records merged away by the dedupe pass.
    public var mergedByDedupe = 0
    /// Records written to the server (created, replaced, deleted).
    public var uploaded = 0
    /// Records the server already held: skipped because the journal had them, or found equal.
    public var unchanged = 0
    /// Of those, skipped by the journal without a request.
    public var skippedByJournal = 0
    /// Conflicts met, and how they were settled.
    public var conflicts = 0
    public var conflictResolutions: [String: Int] = [:]
    /// Items sent again after a retryable failure, throttling answers, and batch splits.
    public var retries = 0
    public var throttles = 0
    public var splits = 0
    /// Records that could not be uploaded (see the dead-letter file), by stage.
    public var deadLetters = 0
    public var deadLettersByStage: [String: Int] = [:]
    public var deadLetterFile: String?
    /// Requests sent and request bytes.
    public var requests = 0
    public var bytesSent = 0
    /// Wall-clock seconds, and records settled per second.
    public var seconds = 0.0
    public var recordsPerSecond = 0.0
    /// Of those, seconds spent preparing (migration, dedupe) before the first request.
    public var preparationSeconds = 0.0
    /// Seconds spent waiting for back-off or throttling (summed over workers).
    public var secondsWaiting = 0.0
    /// The journal.
    public var journal: String?
    /// Inputs whose reading stopped at a syntax error.
    public var abandonedInputs: [String] = []
    /// Image files uploaded as assets in this run (bytes the asset journal already had are not counted).
    public var imagesUploaded = 0
    /// What went up other than asked, with why (an image file that exists but cannot be read is
    /// left out of its records): never silent.
    public var warnings: [String] = []

    /// Creates an empty report for `target`.
    public init(target: String) { self.target = target }

    /// Takes the uploader's counters (uploaded, unchanged, conflicts, retries, waits).
    public mutating func add(_ statistics: UploadStatistics) {
        uploaded += statistics.written
        unchanged += statistics.alreadyThere
        conflicts += statistics.conflicts
        conflictResolutions.merge(statistics.conflictResolutions, uniquingKeysWith: +)
        retries += statistics.retries
        throttles += statistics.throttles
        splits += statistics.splits
        secondsWaiting += statistics.secondsWaiting
    }

    /// Whether anything failed (dead letters or abandoned inputs): exit status 1.
    public var hasDataErrors: Bool { deadLetters > 0 || !abandonedInputs.isEmpty }

    /// The JSON form (pretty, keys sorted).
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }

    /// The text form, one fact per line.
    public func text(title: String = "larder upload") -> String {
        let number = UploadProgress.grouped
        var lines = ["\(title): \(number(read)) records → \(target)"]
        if migrated > 0 { lines.append("  migrated      \(number(migrated))") }
        if mergedByDedupe > 0 { lines.append("  deduped       \(number(mergedByDedupe)) merged away") }
        lines.append("  uploaded      \(number(uploaded))")
        var unchangedText = "  unchanged     \(number(unchanged))"
        if skippedByJournal > 0 { unchangedText += " (\(number(skippedByJournal)) skipped by the journal)" }
        lines.append(unchangedText)
        var conflictText = "  conflicts     \(number(conflicts))"
        if !conflictResolutions.isEmpty {
            conflictText +=
                " ("
                + conflictResolutions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + ")"
        }
        lines.append(conflictText)
        if imagesUploaded > 0 { lines.append("  images        \(number(imagesUploaded)) uploaded") }
        lines.append("  retries       \(number(retries)) (\(number(throttles)) throttled, \(number(splits)) splits)")
        var deadText = "  dead letters  \(number(deadLetters))"
        if deadLetters > 0 {
            deadText +=
                " ("
                + deadLettersByStage.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + ")"
            if let deadLetterFile { deadText += " → \(deadLetterFile)" }
        }
        lines.append(deadText)
        for input in abandonedInputs { lines.append("  abandoned     \(input) (a syntax error stopped reading it)") }
        for warning in warnings { lines.append("  warning       \(warning)") }
        lines.append("  requests      \(number(requests)), \(Self.bytes(bytesSent)) sent")
        var time = String(
            format: "  time          %.2f s (%@ records/s", seconds, number(Int(saturating: recordsPerSecond)))
        if preparationSeconds > 0 {
            time += String(
                format: "; preparing %.2f s, uploading %.2f s", preparationSeconds, seconds - preparationSeconds)
        }
        lines.append(time + ")")
        return lines.joined(separator: "\n")
    }

    static func bytes(_ count: Int) -> String {
        if count >= 1 << 20 { return String(format: "%.1f MB", Double(count) / 1_048_576) }
        if count >= 1 << 10 { return String(format: "%.1f KB", Double(count) / 1024) }
        return "\(count) B"
    }
}
