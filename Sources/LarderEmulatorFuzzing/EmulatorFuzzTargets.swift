package import LarderFuzzing

/// The fuzz targets of the emulator's request bodies: a `records/query` body run against an
/// in-memory store (`ck-query`, through GRDB) and an asset upload's multipart body (`multipart`).
///
/// They are a module and a binary of their own (`Fuzz/EmulatorEntry`, `larder-fuzz-emulator`) so that
/// the file targets' binary links no emulator, GRDB, NIO or Hummingbird. The wire types every request
/// decodes (`ck-request`, `change-token`) are in ``FuzzTargets``.
package enum EmulatorFuzzTargets {
    /// Every target of this module, by name.
    package static let all: [FuzzTargets.Target] = [
        FuzzTargets.Target(name: "ck-query", seedSuffixes: [".ckquery.json"]) { QueryFuzzing.run($0) },
        FuzzTargets.Target(name: "multipart", seedSuffixes: [".multipart"]) { MultipartFuzzing.run($0) },
    ]
}
