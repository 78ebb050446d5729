// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Larder",
    // macOS: not built yet (README, "Platforms"). The C library is imported in LarderSystem alone, with a Darwin
    // branch for each call that differs; 15 is the first macOS with Synchronization's Mutex and Atomic.
    platforms: [.macOS(.v15)],
    products: [
        .library(
            name: "Larder",
            targets: [
                "Larder", "LarderCore", "LarderFormats", "LarderImport", "LarderRegistry", "LarderDedupe",
                "LarderCloudKit", "LarderStore", "LarderEmulator", "LarderSync",
            ]
        ),
        .executable(name: "larder", targets: ["larder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // emulator: `traits: []` drops swift-configuration (see docs/emulator.md for the build times).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // Already built for Hummingbird; LarderSync's plain-HTTP transport uses it directly.
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CLibYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CLibZ", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // SHA-256, HMAC and ECDSA P-256 from the system's OpenSSL (swift-crypto's BoringSSL cost more
        // compile time than any Larder module for these three; DEVELOPERS.md, "Build time").
        .systemLibrary(
            name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // Core ← Formats ← {Import, Registry, Dedupe, CloudKit} ← {Store, Emulator, Sync} ← larder.
        // C libraries are imported by LarderFormats (libcrypto by LarderCloudKit; the platform's C library, Glibc or
        // Darwin, by LarderSystem alone); GRDB by LarderStore (the local store), LarderEmulator (the server's own
        // database) and LarderSQLite (the row reading both share).
        .target(name: "LarderCore"),
        // The only module that imports the platform's C library (Glibc, Darwin or Musl); see its CLibrary.swift.
        .target(name: "LarderSystem"),
        .target(name: "LarderFormats", dependencies: ["LarderCore", "LarderSystem", "CLibXML2", "CLibYAML", "CLibZ"]),
        .target(name: "LarderImport", dependencies: ["LarderCore", "LarderFormats"]),
        .target(name: "LarderRegistry", dependencies: ["LarderCore", "LarderFormats"]),
        .target(name: "LarderDedupe", dependencies: ["LarderCore", "LarderFormats", "LarderSystem"]),
        .target(name: "LarderCloudKit", dependencies: ["LarderCore", "LarderFormats", "LarderSystem", "CLibCrypto"]),
        .target(name: "LarderSQLite", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "LarderStore",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderRegistry", "LarderSQLite", "LarderSystem",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "LarderEmulator",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderCloudKit", "LarderSQLite", "LarderSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "LarderSync",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderCloudKit", "LarderRegistry", "LarderDedupe", "LarderStore",
                "LarderSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // `import Larder`: re-exports the modules above (and holds the DocC catalog, Sources/Larder/Larder.docc).
        .target(
            name: "Larder",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderImport", "LarderRegistry", "LarderDedupe", "LarderCloudKit",
                "LarderStore", "LarderEmulator", "LarderSync",
            ]
        ),
        // Test-data generators: `larder generate` and the tests use them; the libraries do not.
        .target(name: "LarderSamples", dependencies: ["LarderCore", "LarderFormats", "LarderDedupe"]),
        .executableTarget(
            name: "larder",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderImport", "LarderRegistry", "LarderDedupe", "LarderCloudKit",
                "LarderStore", "LarderEmulator", "LarderSync", "LarderSamples", "LarderSystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "LarderTestSupport", dependencies: ["LarderCore", "LarderFormats", "LarderRegistry"]),
        // The fuzz targets (make fuzz); the tests run them over the regression corpus too. The file and
        // wire-format targets link no emulator (no GRDB, NIO or Hummingbird: fewer coverage counters for
        // libFuzzer to scan after each input); the emulator's request targets are a module of their own.
        .target(
            name: "LarderFuzzing",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderImport", "LarderRegistry", "LarderCloudKit", "LarderSystem",
            ]),
        .target(
            name: "LarderEmulatorFuzzing",
            dependencies: ["LarderCore", "LarderCloudKit", "LarderEmulator", "LarderFuzzing"]),
        .testTarget(
            name: "LarderFuzzingTests", dependencies: ["LarderFuzzing", "LarderEmulatorFuzzing", "LarderTestSupport"]),
        .testTarget(name: "LarderCoreTests", dependencies: ["LarderCore", "LarderTestSupport"]),
        .testTarget(name: "LarderFormatsTests", dependencies: ["LarderFormats", "LarderSamples", "LarderTestSupport"]),
        .testTarget(name: "LarderImportTests", dependencies: ["LarderImport", "LarderFormats", "LarderTestSupport"]),
        .testTarget(name: "LarderRegistryTests", dependencies: ["LarderRegistry", "LarderTestSupport"]),
        .testTarget(
            name: "LarderStoreTests",
            dependencies: ["LarderStore", "LarderRegistry", "LarderSamples", "LarderTestSupport"]
        ),
        .testTarget(name: "LarderDedupeTests", dependencies: ["LarderDedupe", "LarderSamples", "LarderTestSupport"]),
        .testTarget(
            name: "LarderCLITests",
            dependencies: ["LarderTestSupport", "larder", "LarderRegistry", "LarderStore", "LarderSamples"]
        ),
        .testTarget(name: "LarderCloudKitTests", dependencies: ["LarderCloudKit", "LarderCore", "LarderFormats"]),
        .testTarget(
            name: "LarderEmulatorTests",
            dependencies: [
                "LarderEmulator", "LarderCloudKit", "LarderCore", "LarderTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LarderSyncTests",
            dependencies: [
                "LarderSync", "LarderEmulator", "LarderCloudKit", "LarderCore", "LarderFormats", "LarderRegistry",
                "LarderDedupe", "Larder",
                "LarderStore", "LarderSamples", "LarderTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
// `make fuzz`: the libFuzzer binaries, only when LARDER_FUZZ is set (they have no `main` of their own):
// `larder-fuzz` (files and wire formats) and `larder-fuzz-emulator` (the emulator's request bodies).
let fuzzing = Context.environment["LARDER_FUZZ"] != nil
if fuzzing {
    // Linked with libFuzzer's runtime (its `main`) and ASan's.
    let fuzzerLink: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
    package.targets.append(contentsOf: [
        .executableTarget(
            name: "larder-fuzz", dependencies: ["LarderFuzzing", "LarderSystem"], path: "Fuzz/Entry",
            linkerSettings: fuzzerLink),
        .executableTarget(
            name: "larder-fuzz-emulator", dependencies: ["LarderEmulatorFuzzing", "LarderFuzzing", "LarderSystem"],
            path: "Fuzz/EmulatorEntry",
            linkerSettings: fuzzerLink),
    ])
    package.products.append(contentsOf: [
        .executable(name: "larder-fuzz", targets: ["larder-fuzz"]),
        .executable(name: "larder-fuzz-emulator", targets: ["larder-fuzz-emulator"]),
    ])
}

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    // The fuzz build (scripts/fuzz.sh) passes `--sanitize=address`: every module, dependencies included,
    // gets ASan. Larder's own modules get libFuzzer's coverage here too (swiftc keeps the last `-sanitize=`,
    // and these flags come after SwiftPM's); GRDB, NIO and Hummingbird (350,000 counters, scanned after
    // every input) get none.
    if fuzzing && target.type != .test {
        settings.append(.unsafeFlags(["-sanitize=fuzzer,address"]))
    }
    target.swiftSettings = settings
}
