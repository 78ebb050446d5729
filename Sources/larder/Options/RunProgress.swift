import ArgumentParser
import Foundation
import LarderCore
import LarderSync
import LarderSystem
import Synchronization

/// `--quiet` and `--progress`: whether a long run shows its progress line.
struct ProgressOptions: ParsableArguments {
    @Flag(name: .long, help: "Show no progress line.")
    var quiet = false

    @Flag(
        name: .long,
        help: "Show progress even when stderr is not a terminal (CI logs): one line every 5 seconds.")
    var progress = false

    /// The progress of one run, for `stage`; `totalBytes`: the inputs' size when known, for the
    /// percentage and ETA; `totalRecords`: the count when known (`generate`).
    func start(_ stage: String, inputs: [String] = [], totalRecords: Int? = nil) -> RunProgress {
        let mode: RunProgress.Mode = quiet ? .off : progress ? .lines : Stderr.isTerminal ? .line : .off
        return RunProgress(
            mode: mode, stage: stage, totalBytes: RunProgress.size(of: inputs), totalRecords: totalRecords)
    }
}

/// One self-updating line on stderr for a run that may last more than a second: stage, records,
/// bytes read of the total, rate and ETA (`convert: 45,000 records · 61 MB of 160 MB (38%) · 84,000/s · ETA 0:02`).
///
/// On a terminal the line is redrawn in place at most ten times a second, from the first second
/// on (a run that ends sooner shows nothing), and cleared before the summary line; with
/// `--progress` it is printed as a plain line every 5 seconds. Bytes read are the process's own
/// read count (`/proc/self/io`), so every reader is measured without a hook; where that file is
/// missing the line shows records and rate only.
final class RunProgress: Sendable {
    /// How the line is shown.
    enum Mode: Sendable {
        /// Not at all.
        case off
        /// Redrawn in place (a terminal).
        case line
        /// A plain line every few seconds (a log).
        case lines
    }

    private struct State {
        var stage: String
        /// Records done (negative: not counted, as in a stage that only reads).
        var records = 0
        /// The bytes the stage reads, when known, and the read count when it began.
        var totalBytes: Int64?
        var startBytes: Int64?
        var lastShown = 0.0
        var shown = false
    }

    private let mode: Mode
    private let totalRecords: Int?
    private let started: Double
    private let delay: Double
    private let interval: Double
    private let state: Mutex<State>

    /// The run in progress, for the interrupt message.
    static let current = Mutex<RunProgress?>(nil)

    init(mode: Mode, stage: String, totalBytes: Int64?, totalRecords: Int?) {
        self.mode = mode
        self.totalRecords = totalRecords
        started = LarderClock.system.monotonicSeconds()
        let environment = ProcessInfo.processInfo.environment
        delay = environment["LARDER_PROGRESS_AFTER"].flatMap(Double.init) ?? 1
        interval = mode == .lines ? environment["LARDER_PROGRESS_INTERVAL"].flatMap(Double.init) ?? 5 : 0.1
        state = Mutex(
            State(stage: stage, totalBytes: totalBytes.flatMap { $0 > 0 ? $0 : nil }, startBytes: Self.bytesRead()))
        if mode != .off { Self.current.withLock { $0 = self } }
    }

    /// Records `records` done so far (in `stage`, when it changed), redrawing the line when due.
    func update(records: Int, stage: String? = nil) {
        guard mode != .off else { return }
        let now = LarderClock.system.monotonicSeconds()
        let line: String? = state.withLock { state in
            state.records = records
            if let stage { state.stage = stage }
            guard now - started >= delay, now - state.lastShown >= interval else { return nil }
            state.lastShown = now
            state.shown = true
            return text(state, now: now)
        }
        guard let line else { return }
        switch mode {
        case .line: Stderr.write("\r\u{1B}[K" + TerminalText.escaped(line))
        case .lines: Stderr.write(TerminalText.escaped(line) + "\n")
        case .off: break
        }
    }

    /// Starts a stage that reads no counted input (a dedupe's write phase): its line shows the
    /// stage, records when given and the rate, without a byte count.
    func begin(stage: String) {
        state.withLock { state in
            state.stage = stage
            state.totalBytes = nil
            state.records = -1
        }
    }

    /// Clears the line (before the summary), once.
    func finish() {
        let wasShown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if mode == .line, wasShown { Stderr.write("\r\u{1B}[K") }
        Self.current.withLock { if $0 === self { $0 = nil } }
    }

    /// Clears the line for the interrupt message (from the signal queue).
    func clearForInterrupt() {
        if mode == .line { Stderr.write("\r\u{1B}[K") }
    }

    /// The line's text.
    private func text(_ state: State, now: Double) -> String {
        let elapsed = max(now - started, 0.001)
        let rate = Double(state.records) / elapsed
        var parts = [
            state.records < 0 ? state.stage : "\(state.stage): \(UploadProgress.grouped(state.records)) records"
        ]
        var fraction: Double?
        if state.records >= 0, let totalRecords, totalRecords > 0 {
            fraction = Double(state.records) / Double(totalRecords)
            parts[0] += " of \(UploadProgress.grouped(totalRecords))"
        }
        if let totalBytes = state.totalBytes, let startBytes = state.startBytes, let current = Self.bytesRead() {
            let read = min(max(current - startBytes, 0), totalBytes)
            parts.append("\(Self.megabytes(read)) of \(Self.megabytes(totalBytes))")
            fraction = fraction ?? Double(read) / Double(totalBytes)
        }
        if let fraction { parts[parts.count - 1] += " (\(Int((min(fraction, 1) * 100).rounded(.down)))%)" }
        if state.records >= 0 { parts.append("\(UploadProgress.grouped(Int(rate)))/s") }
        if let fraction, fraction > 0.01, fraction < 1 {
            parts.append("ETA " + UploadProgress.clock(elapsed * (1 - fraction) / fraction))
        }
        return parts.joined(separator: " · ")
    }

    /// The bytes this process has read so far (`rchar` of `/proc/self/io`), or nil.
    static func bytesRead() -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
            return Int64(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// The total size of the input files (nil when one is standard input or unreadable).
    static func size(of paths: [String]) -> Int64? {
        guard !paths.isEmpty else { return nil }
        var total: Int64 = 0
        for path in paths {
            guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let size = attributes[.size] as? NSNumber
            else { return nil }
            total += size.int64Value
        }
        return total
    }

    /// `61 MB` (or `820 KB`).
    static func megabytes(_ bytes: Int64) -> String {
        bytes >= 1_000_000 ? "\(bytes / 1_000_000) MB" : "\(bytes / 1_000) KB"
    }
}
