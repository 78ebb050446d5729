// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Larder",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Larder", targets: ["LarderCore", "LarderFormats", "LarderRegistry", "LarderDedupe"]),
        .executable(name: "larder", targets: ["larder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(name: "CLibYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CLibZ", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "LarderCore"),
        .target(name: "LarderFormats", dependencies: ["LarderCore", "CLibXML2", "CLibYAML", "CLibZ"]),
        .target(
            name: "LarderRegistry",
            dependencies: ["LarderCore", "LarderFormats", "CLibXML2", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "LarderDedupe", dependencies: ["LarderCore", "LarderFormats"]),
        .executableTarget(
            name: "larder",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderRegistry", "LarderDedupe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(name: "LarderTestSupport", dependencies: ["LarderCore", "LarderFormats"]),
        .testTarget(name: "LarderCoreTests", dependencies: ["LarderCore", "LarderTestSupport"]),
        .testTarget(name: "LarderFormatsTests", dependencies: ["LarderFormats", "LarderTestSupport"]),
        .testTarget(name: "LarderRegistryTests", dependencies: ["LarderRegistry", "LarderTestSupport"]),
        .testTarget(name: "LarderDedupeTests", dependencies: ["LarderDedupe", "LarderTestSupport"]),
        .testTarget(name: "LarderCLITests", dependencies: ["LarderTestSupport", "larder"]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
