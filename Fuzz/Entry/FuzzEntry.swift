// libFuzzer entry points for `make fuzz` (built only with LARDER_FUZZ=1, see Package.swift).
// `LARDER_FUZZ_TARGET` names the target (FuzzTargets.all); libFuzzer supplies `main`.
import LarderFuzzing

#if canImport(Glibc)
    import Glibc
#endif

nonisolated(unsafe) private var selected: FuzzTargets.Target?

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let name = getenv("LARDER_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTargets.named(name) else {
        let names = FuzzTargets.all.map(\.name).joined(separator: " ")
        fputs("larder-fuzz: set LARDER_FUZZ_TARGET to one of: \(names)\n", stderr)
        exit(2)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = selected?.run(bytes)
    return 0
}
