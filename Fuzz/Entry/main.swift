// The libFuzzer entry of `larder-fuzz`, the file and wire-format targets (built only with LARDER_FUZZ=1,
// see Package.swift, with `swift build --sanitize=fuzzer --sanitize=address`, which lets libFuzzer's
// main run the file). `LARDER_FUZZ_TARGET` names the target (FuzzTargets.all). It links no emulator,
// GRDB, NIO or Hummingbird: the emulator's targets are `larder-fuzz-emulator` (Fuzz/EmulatorEntry).
import LarderFuzzing

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    FuzzEntry.initialize(targets: FuzzTargets.all, binary: "larder-fuzz")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntry.run(data, size)
}
