// The libFuzzer binary `larder-fuzz-emulator`, the emulator's request-body targets (EmulatorFuzzTargets; built
// only with LARDER_FUZZ=1). How it starts libFuzzer: see Fuzz/Entry/main.swift.
import LarderEmulatorFuzzing
import LarderFuzzing
import LarderSystem

/// libFuzzer's `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *, size_t))`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

FuzzEntry.initialize(targets: EmulatorFuzzTargets.all, binary: "larder-fuzz-emulator")
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &arguments) { data, size in FuzzEntry.run(data, size) })
