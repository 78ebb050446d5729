// The libFuzzer entry of `larder-fuzz-emulator`, the emulator's request-body targets (EmulatorFuzzTargets;
// built only with LARDER_FUZZ=1, see Package.swift and Fuzz/Entry/main.swift).
import LarderEmulatorFuzzing
import LarderFuzzing

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    FuzzEntry.initialize(targets: EmulatorFuzzTargets.all, binary: "larder-fuzz-emulator")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzEntry.run(data, size)
}
