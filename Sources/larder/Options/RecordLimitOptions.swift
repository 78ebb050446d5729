import ArgumentParser
import Foundation
import LarderFormats

/// `--max-record-size`, for every command that opens readers or importers.
struct RecordLimitOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most one record may take, decoded (default 16MB). Bigger records are refused while they are read.",
            valueName: "size"))
    var maxRecordSize: ByteSize?

    /// The reader limits with this record size.
    var limits: ReaderLimits {
        var limits = ReaderLimits.default
        if let maxRecordSize { limits.maxRecordSize = maxRecordSize.bytes }
        return limits
    }
}

/// A size such as `64MB`, `512KiB`, `1G` or `1048576` (bytes); K, M and G count in 1024s.
struct ByteSize: ExpressibleByArgument {
    var bytes: Int

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = text.prefix { $0.isNumber }
        var unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        if unit.hasSuffix("IB") {
            unit = String(unit.dropLast(2))
        } else if unit.hasSuffix("B") {
            unit = String(unit.dropLast())
        }
        let shifts = ["": 0, "K": 10, "M": 20, "G": 30]
        guard let count = Int(digits), count > 0, let shift = shifts[unit], count <= Int.max >> shift else {
            return nil
        }
        bytes = count << shift
    }
}
