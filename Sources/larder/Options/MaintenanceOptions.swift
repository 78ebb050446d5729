import ArgumentParser
import Foundation
import LarderCore

/// A duration flag: `90d`, `2w`, `12h`, `30m`, `45s`, or plain seconds (`1800`).
struct DurationArgument: ExpressibleByArgument, CustomStringConvertible {
    let seconds: TimeInterval
    let text: String

    init(seconds: TimeInterval, text: String) {
        self.seconds = seconds
        self.text = text
    }

    init?(argument: String) {
        let units: [(String, TimeInterval)] = [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]
        let lowered = argument.lowercased()
        var multiplier: TimeInterval = 1
        var number = Substring(lowered)
        for (suffix, factor) in units where lowered.hasSuffix(suffix) {
            multiplier = factor
            number = lowered.dropLast(suffix.count)
            break
        }
        // A duration must be a count of milliseconds (`--ttl 1e300` is refused as a usage error).
        guard let value = Double(number), value > 0, Int64(rounding: value * multiplier * 1000) != nil else {
            return nil
        }
        seconds = value * multiplier
        text = argument
    }

    var description: String { text }
    static var defaultCompletionKind: CompletionKind { .default }
}

/// A point in time flag: an RFC 3339 date-time (`2024-03-01T08:00:00Z`).
struct TimestampArgument: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        guard let date = Timestamp.parse(argument) else { return nil }
        self.date = date
    }
}

/// A size flag: bytes, or with a unit (`512k`, `10MB`, `1GiB`; powers of 1024).
struct ByteCountArgument: ExpressibleByArgument {
    let bytes: Int

    init?(argument: String) {
        let lowered = argument.lowercased().replacingOccurrences(of: "ib", with: "").replacingOccurrences(
            of: "b", with: "")
        let units: [(String, Int)] = [("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)]
        var multiplier = 1
        var number = Substring(lowered)
        for (suffix, factor) in units where lowered.hasSuffix(suffix) {
            multiplier = factor
            number = lowered.dropLast()
            break
        }
        guard let value = Int(number), value >= 0 else { return nil }
        bytes = value * multiplier
    }
}

/// `--now T`: the time a maintenance run takes as now (default: the clock).
struct NowOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Take this RFC 3339 time as now (default: the clock).", valueName: "time"))
    var now: TimestampArgument?

    /// The clock a run uses: its wall time stays at `--now`, or at the moment this is read, so the
    /// whole run (and its report) agrees on one "now"; durations are measured for real.
    var clock: LarderClock {
        let system = LarderClock.system
        let date = now?.date ?? system.now()
        return LarderClock(now: { date }, monotonicSeconds: system.monotonicSeconds, sleep: system.sleep)
    }

    var date: Date { clock.now() }
}
