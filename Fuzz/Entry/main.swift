// libFuzzer entry points for `make fuzz` (built only with LARDER_FUZZ=1, see Package.swift, with
// `swift build --sanitize=fuzzer --sanitize=address`, which lets libFuzzer's main run the file).
// `LARDER_FUZZ_TARGET` names the target (FuzzTargets.all).
import LarderFuzzing

#if canImport(Glibc)
    import Glibc
#endif

/// The chosen target, resolved once. (A type's static, not a main.swift global: libFuzzer's
/// main runs instead of this file's top-level code, which would initialise such globals.)
enum Selected {
    static let target: FuzzTargets.Target? = getenv("LARDER_FUZZ_TARGET").flatMap { FuzzTargets.named(String(cString: $0)) }
    /// `LARDER_FUZZ_VERBOSE=1`: print how many items each input gave (is the target reading?).
    static let verbose = getenv("LARDER_FUZZ_VERBOSE") != nil
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    // `LARDER_FUZZ_TARGET=seeds`: each target's name and seed file suffixes, one target a line
    // (scripts/fuzz.sh seeds each target as FuzzRegressionTests does).
    if let name = getenv("LARDER_FUZZ_TARGET"), String(cString: name) == "seeds" {
        for target in FuzzTargets.all {
            let line = ([target.name] + target.seedSuffixes).joined(separator: " ") + "\n"
            _ = line.withCString { write(1, $0, strlen($0)) }
        }
        exit(0)
    }
    if Selected.target == nil {
        let names = FuzzTargets.all.map(\.name).joined(separator: " ")
        let message = "larder-fuzz: set LARDER_FUZZ_TARGET to one of: \(names)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let read = Selected.target?.run(bytes) ?? 0
    if Selected.verbose {
        let line = "larder-fuzz: \(size) bytes, \(read) items read\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
    return 0
}
