import ArgumentParser
import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Logging

/// `larder serve`: the CloudKit Web Services emulator on loopback.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a local CloudKit Web Services emulator (records, zones, changes, shares, auth).",
        discussion: """
            Serves /database/1/{container}/{development|production}/{public|private|shared}/… like \
            api.apple-cloudkit.com, so a CloudKit client works unchanged but for the base URL. \
            Prints the bound URL on the first line of standard output; stops gracefully on SIGINT \
            or SIGTERM. Data lives in a SQLite store in --data (WAL, one transaction per request) \
            or, with --in-memory, nowhere.

            On first start a development config is written (container, API token, two users with \
            web-auth tokens, a server-to-server key pair) and how to use it is printed on stderr. \
            Settings resolve flag → LARDER_* environment → config file → default.

            Control plane: /_emulator/health, reset, export, import, requests, faults, schema/deploy, \
            signin. It answers only to a loopback Host and Origin, takes only application/json bodies, \
            and needs the admin token (printed at start, `adminToken` in the config file; send \
            Authorization: Bearer <token> or X-Larder-Admin-Token) unless caller and Host are both \
            loopback. A non-loopback --host prints a warning and always requires the token. See \
            docs/emulator.md.

            Examples:
              larder serve                               # .larder/emulator, port 8787
              larder serve --in-memory --port 0          # tests and demos
              larder serve --data db --export-on-exit state.json
            """
    )

    @Option(name: .long, help: "Address to bind (default 127.0.0.1; any other address exposes the emulator).")
    var host: String?

    @Option(name: .long, help: "Port (default 8787; 0 picks a free port).")
    var port: Int?

    @OptionGroup var location: EmulatorConfigOptions

    @Flag(name: .long, help: "Keep all data in memory (nothing is written but an explicit --config).")
    var inMemory = false

    @Option(
        name: .long,
        help:
            "Accept server-to-server signatures dated within ± this many seconds (default 300; config signatureSkewSeconds)."
    )
    var signatureSkew: Int?

    @Flag(
        name: .long,
        help:
            "Refuse a server-to-server request whose key ID, date and signature were already seen (config refuseReplays)."
    )
    var refuseReplays = false

    @Option(name: .customLong("import"), help: "Load an exported state (JSON) before serving.")
    var importFile: String?

    @Option(name: .long, help: "Write the whole state as JSON to this file when stopping.")
    var exportOnExit: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = LogLevelArgument(level: .notice)

    func validate() throws {
        if inMemory, location.data != nil { throw ValidationError("--data and --in-memory cannot be used together") }
    }

    func run() async throws {
        let level = logLevel.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let environment = ProcessInfo.processInfo.environment
        let inMemory =
            self.inMemory || ["1", "true", "yes"].contains(environment["LARDER_IN_MEMORY"]?.lowercased() ?? "")
        let file = location.configFile(inMemory: inMemory)
        var firstStart = try prepareConfigFile(file)
        let configuration = try resolveConfiguration(
            file: file, inMemory: inMemory, environment: environment, firstStart: &firstStart)
        let emulator = try Emulator(configuration: configuration, logger: Logger(label: "larder.emulator"))
        if let importFile {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: importFile))
            } catch {
                throw LarderError(.io, "cannot read \(importFile): \(error.localizedDescription)")
            }
            try emulator.importState(from: data)
        }
        let notes = firstStart.map { Self.usage(configuration: $0.0, keyPath: $0.1, file: file) }
        let usage = Self.usage(configuration: configuration, keyPath: nil, file: file, brief: true)
        do {
            try await emulator.run { url in
                Self.announce(url, configuration: configuration, emulator: emulator, usage: notes ?? usage)
            }
        } catch {
            throw LarderError(
                .network, "the emulator could not serve on \(configuration.host):\(configuration.port): \(error)")
        }
        if let exportOnExit {
            let data = try emulator.exportState()
            do {
                try data.write(to: URL(fileURLWithPath: exportOnExit), options: .atomic)
            } catch {
                throw LarderError(.io, "cannot write \(exportOnExit): \(error.localizedDescription)")
            }
            Stderr.print("larder: state exported to \(exportOnExit)")
        }
        Stderr.print("larder: emulator stopped")
    }

    /// Writes a development config and server key on the first start (returned, to print how to
    /// use them), and gives a config written before the admin token existed its token.
    private func prepareConfigFile(_ file: URL?) throws -> (EmulatorConfiguration, String?)? {
        guard let file else { return nil }
        guard FileManager.default.fileExists(atPath: file.path) else {
            let made = EmulatorConfiguration.makeDevelopment()
            try made.configuration.write(to: file)
            let keyPath = file.deletingLastPathComponent().appendingPathComponent("server-key.pem").path
            do {
                try PrivateFile.write(Data(made.privateKeyPEM.utf8), to: URL(fileURLWithPath: keyPath))
            } catch {
                throw LarderError(.io, "cannot write \(keyPath): \(error.localizedDescription)")
            }
            return (made.configuration, keyPath)
        }
        var stored = try EmulatorConfiguration.load(from: file)
        if stored.adminToken == nil {
            stored.adminToken = Secrets.hex(bytes: 32)
            do {
                try stored.write(to: file)
            } catch {
                Stderr.print("larder: note: the admin token is for this run only: \(error)")
            }
        }
        return nil
    }

    /// The configuration from flags, environment and the config file; without a file (in memory),
    /// a fresh development configuration, which is then also the first start's.
    private func resolveConfiguration(
        file: URL?, inMemory: Bool, environment: [String: String],
        firstStart: inout (EmulatorConfiguration, String?)?
    ) throws -> EmulatorConfiguration {
        guard file == nil else {
            var configuration = try EmulatorConfiguration.resolve(
                flags: .init(
                    host: host, port: port, dataDirectory: inMemory ? nil : location.dataDirectory, inMemory: inMemory,
                    signatureSkewSeconds: signatureSkew, refuseReplays: refuseReplays),
                environment: environment, file: file)
            if !inMemory, configuration.dataDirectory == nil { configuration.dataDirectory = location.dataDirectory }
            return configuration
        }
        let made = EmulatorConfiguration.makeDevelopment()
        firstStart = (made.configuration, nil)
        var configuration = try EmulatorConfiguration.resolve(
            flags: .init(
                host: host, port: port, inMemory: true, signatureSkewSeconds: signatureSkew,
                refuseReplays: refuseReplays),
            environment: environment, file: nil)
        configuration.containers = made.configuration.containers
        configuration.apiTokens = made.configuration.apiTokens
        configuration.users = made.configuration.users
        configuration.serverKeys = made.configuration.serverKeys
        configuration.adminToken = made.configuration.adminToken
        return configuration
    }

    /// Prints the URL on stdout and, on stderr, where the store is, a warning when the emulator
    /// is reachable from beyond loopback, how to call it and the admin token.
    private static func announce(
        _ url: URL, configuration: EmulatorConfiguration, emulator: Emulator, usage: String
    ) {
        let storeText = configuration.inMemory ? "in memory" : configuration.dataDirectory ?? ""
        let exposed = !emulator.isLoopbackOnly
        Stdout.line(url.absoluteString)
        Stderr.print("larder: emulator listening on \(url.absoluteString) (\(storeText))")
        Stderr.print(
            "larder: dashboard \(url.absoluteString)/_emulator/ui/" + (exposed ? " (sign in with the admin token)" : "")
        )
        if exposed {
            Stderr.print(
                "larder: WARNING: listening on \(configuration.host), not loopback: anyone who can reach it can call "
                    + "the CloudKit API with the config's tokens, and the /_emulator/ control plane needs the admin "
                    + "token from every caller. Use --host 127.0.0.1 unless you mean it.")
        }
        Stderr.print(usage.replacingOccurrences(of: "BASE", with: url.absoluteString))
        Stderr.print(
            "larder: admin token \(emulator.adminToken) (control plane: Authorization: Bearer <token>, "
                + (exposed ? "always required)" : "required unless caller and Host are loopback)"))
    }

    static func usage(configuration: EmulatorConfiguration, keyPath: String?, file: URL?, brief: Bool = false) -> String
    {
        let container = configuration.containers.first ?? ""
        let token = configuration.apiTokens.first ?? "<api token>"
        // The upload a user runs next: the config file carries the tokens, else they are spelled out.
        let credentials =
            file.map { "--emulator-config \($0.path)" }
            ?? "--container \(container) --api-token \(token) --web-auth-token '\(configuration.users.first?.webAuthToken ?? "")'"
        let upload = "  try: larder upload recipes.json --endpoint BASE \(credentials)"
        if brief {
            return "larder: config \(file?.path ?? "(in memory)"); `larder emulator users` lists the web-auth tokens\n"
                + upload
        }
        var lines = [
            file.map { "larder: wrote a development config to \($0.path)" }
                ?? "larder: development config (in memory, not saved)",
            "  container  \(container)",
            "  API token  \(token)",
        ]
        for user in configuration.users {
            lines.append("  user       \(user.firstName ?? "") \(user.userRecordName) <\(user.emailAddress ?? "")>")
            lines.append("             web-auth token \(user.webAuthToken)")
        }
        for key in configuration.serverKeys {
            lines.append("  server key \(key.keyID)" + (keyPath.map { " (private key: \($0))" } ?? ""))
        }
        lines.append(
            "  try: curl 'BASE/database/1/\(container)/development/private/zones/list?ckAPIToken=\(token)&ckWebAuthToken=\(percentEncode(configuration.users.first?.webAuthToken ?? ""))'"
        )
        lines.append(upload)
        return lines.joined(separator: "\n")
    }

    static func percentEncode(_ text: String) -> String { WebAuthToken.percentEncoded(text) }
}

/// `--log-level` values.
struct LogLevelArgument: ExpressibleByArgument {
    var level: Logger.Level
    init(level: Logger.Level) { self.level = level }
    init?(argument: String) {
        guard let level = Logger.Level(rawValue: argument.lowercased()) else { return nil }
        self.level = level
    }
    var defaultValueDescription: String { level.rawValue }
}

/// Writes a line to standard output and flushes it (the bound URL must reach a pipe at once).
enum Stdout {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
