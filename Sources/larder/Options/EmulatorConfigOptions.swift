import ArgumentParser
import Foundation

/// Where the emulator's config file and data live (`larder serve`, `larder emulator`).
struct EmulatorConfigOptions: ParsableArguments {
    @Option(name: .long, help: "The emulator config file (JSON). Default: DATA/config.json.")
    var config: String?

    @Option(name: .long, help: "The emulator data folder (SQLite store, config, key). Default: .larder/emulator.")
    var data: String?

    /// The data folder: `--data`, `LARDER_DATA`, or `.larder/emulator`.
    var dataDirectory: String {
        data ?? ProcessInfo.processInfo.environment["LARDER_DATA"] ?? ".larder/emulator"
    }

    /// The config file: `--config`, `LARDER_EMULATOR_CONFIG`, or `DATA/config.json`; nil when
    /// running in memory without one.
    func configFile(inMemory: Bool) -> URL? {
        if let config { return URL(fileURLWithPath: config) }
        if let path = ProcessInfo.processInfo.environment["LARDER_EMULATOR_CONFIG"] {
            return URL(fileURLWithPath: path)
        }
        if inMemory { return nil }
        return URL(fileURLWithPath: dataDirectory).appendingPathComponent("config.json")
    }
}
