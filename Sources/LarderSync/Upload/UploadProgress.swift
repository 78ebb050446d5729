import Foundation
import LarderCore

/// A retry's wait, as the progress line counts it down.
public struct RetryWait: Sendable, Hashable, Codable {
    /// Seconds left.
    public var seconds: Double
    /// Why: the server's code (`THROTTLED`), or `no answer`.
    public var reason: String

    /// Creates a wait.
    public init(seconds: Double, reason: String) {
        self.seconds = seconds
        self.reason = reason
    }
}

/// Renders upload progress: a bar for a terminal, or plain periodic lines for logs.
///
/// ```
/// [██████████░░░░░░░░░░]  52% 52,000/100,000 records  4,210 rec/s  ETA 0:11
/// larder upload: 52000/100000 records (52%), 4210 records/s, ETA 11 s
/// ```
public struct UploadProgress: Sendable {
    /// Records expected in total (0 when unknown).
    public var total: Int
    /// Records settled so far.
    public var done: Int
    /// Seconds since the start.
    public var elapsed: Double
    /// While the upload waits to retry: the seconds left and why (`THROTTLED`, `no answer`).
    public var retryWait: RetryWait?

    /// Creates a snapshot.
    public init(total: Int, done: Int, elapsed: Double, retryWait: RetryWait? = nil) {
        self.total = total
        self.done = done
        self.elapsed = elapsed
        self.retryWait = retryWait
    }

    /// `  retrying in 12 s (THROTTLED)`, or nothing.
    private var waiting: String {
        guard let retryWait else { return "" }
        return "  retrying in \(Int(saturating: retryWait.seconds, .up)) s (\(retryWait.reason))"
    }

    /// Records per second so far.
    public var rate: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    /// Seconds left at the current rate; nil when unknown.
    public var eta: Double? {
        guard total > 0, rate > 0 else { return nil }
        return Double(max(0, total - done)) / rate
    }

    /// The terminal line (no newline; the caller prefixes `\r`).
    public func bar(width: Int = 20) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = String(format: "%3d%%", Int((fraction * 100).rounded(.down)))
        let counts = total > 0 ? "\(Self.grouped(done))/\(Self.grouped(total))" : Self.grouped(done)
        let eta = self.eta.map { "  ETA \(Self.clock($0))" } ?? ""
        return "[\(bar)] \(percent) \(counts) records  \(Self.grouped(Int(saturating: rate))) rec/s\(eta)\(waiting)"
    }

    /// The plain line for non-terminals.
    public func line(prefix: String = "larder upload") -> String {
        var text = "\(prefix): \(done)"
        if total > 0 {
            text += "/\(total) records (\(Int((Double(done) / Double(total) * 100).rounded(.down)))%)"
        } else {
            text += " records"
        }
        // A rate over an elapsed time near 0 can be infinite: shown at Int's bound, never trapping.
        text += ", \(Int(saturating: rate)) records/s"
        if let eta { text += ", ETA \(Int(saturating: eta, .up)) s" }
        if let retryWait {
            text += ", retrying in \(Int(saturating: retryWait.seconds, .up)) s (\(retryWait.reason))"
        }
        return text
    }

    /// `1,234,567`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return String(out.reversed())
    }

    /// `0:42`, `12:05` or `1:02:03`, rounded up.
    package static func clock(_ seconds: Double) -> String {
        let total = Int(saturating: seconds, .up)
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }
}
