// The libFuzzer binary `larder-fuzz`, the file and wire-format targets (built only with LARDER_FUZZ=1, see
// Package.swift and scripts/fuzz.sh). `LARDER_FUZZ_TARGET` names the target (FuzzTargets.all). It links no
// emulator, GRDB, NIO or Hummingbird: the emulator's targets are `larder-fuzz-emulator` (Fuzz/EmulatorEntry).
//
// This file's top-level code is the program's `main`, and hands the command line to libFuzzer's driver
// (`LLVMFuzzerRunDriver`, libFuzzer's own `main` being left out of the link by SwiftPM's): the build passes
// `--sanitize=address` alone, so SwiftPM compiles the file as a program, not as a library for libFuzzer's
// `main` as it does with `--sanitize=fuzzer`.
import LarderFuzzing
import LarderSystem

/// libFuzzer's `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *, size_t))`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

FuzzEntry.initialize(targets: FuzzTargets.all, binary: "larder-fuzz")
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &arguments) { data, size in FuzzEntry.run(data, size) })
