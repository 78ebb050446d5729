import LarderSystem

/// What the libFuzzer binaries' entry points do (`Fuzz/Entry` and `Fuzz/EmulatorEntry`, each with
/// its own targets): pick the target named by `LARDER_FUZZ_TARGET` once, before libFuzzer's driver
/// starts, then run it on each input the driver gives.
package enum FuzzEntry {
    /// The chosen target. (Set once by ``initialize(targets:binary:)`` before the first input.)
    nonisolated(unsafe) private static var target: FuzzTargets.Target?
    /// `LARDER_FUZZ_VERBOSE=1`: print how many items each input gave (is the target reading?).
    nonisolated(unsafe) private static var verbose = false

    /// Resolves `LARDER_FUZZ_TARGET` among `targets`, before libFuzzer's driver starts.
    ///
    /// `LARDER_FUZZ_TARGET=seeds` prints each target's name and seed file suffixes, one target a line
    /// (scripts/fuzz.sh seeds each target as FuzzRegressionTests does), and exits. An unknown or
    /// missing name prints the binary's targets after "one of: " (scripts/fuzz.sh reads them) and exits 2.
    /// - Parameters:
    ///   - targets: The binary's targets.
    ///   - binary: The binary's name, for the message.
    package static func initialize(targets: [FuzzTargets.Target], binary: String) {
        let name = getenv("LARDER_FUZZ_TARGET").map { String(cString: $0) }
        if name == "seeds" {
            for target in targets {
                printLine(([target.name] + target.seedSuffixes).joined(separator: " "), to: 1)
            }
            exit(0)
        }
        target = targets.first { $0.name == name }
        if target == nil {
            printLine(
                "\(binary): set LARDER_FUZZ_TARGET to one of: \(targets.map(\.name).joined(separator: " "))", to: 2)
            exit(2)
        }
        verbose = getenv("LARDER_FUZZ_VERBOSE") != nil
    }

    /// Runs the chosen target on one input: libFuzzer's callback (`LLVMFuzzerTestOneInput`'s role).
    /// - Parameters:
    ///   - data: The input's bytes (nil when it is empty).
    ///   - size: The input's length.
    /// - Returns: 0, libFuzzer's "keep going".
    package static func run(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let read = target?.run(bytes) ?? 0
        if verbose { printLine("larder-fuzz: \(size) bytes, \(read) items read", to: 2) }
        return 0
    }

    private static func printLine(_ text: String, to fd: Int32) {
        let line = text + "\n"
        _ = line.withCString { write(fd, $0, strlen($0)) }
    }
}
