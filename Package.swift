// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Larder",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Larder", targets: ["LarderCore", "LarderFormats", "LarderDedupe"]),
        .executable(name: "larder", targets: ["larder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .target(name: "LarderDedupe", dependencies: ["LarderCore", "LarderFormats"]),
        .executableTarget(
            name: "larder",
            dependencies: [
                "LarderCore", "LarderFormats", "LarderDedupe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "LarderTestSupport", dependencies: ["LarderCore", "LarderFormats"]),
        .testTarget(name: "LarderCoreTests", dependencies: ["LarderCore", "LarderTestSupport"]),
        .testTarget(name: "LarderFormatsTests", dependencies: ["LarderFormats", "LarderTestSupport"]),
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
