public import ArgumentParser
import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderSync
import Synchronization

/// Where and as whom `upload`, `download` and `sync` talk to CloudKit Web Services.
///
/// Each setting resolves flag → `LARDER_*` environment → `--emulator-config` (a `larder serve`
/// config file: container, API token, a user's web-auth token) → default.
struct CloudKitOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "Server base URL, e.g. http://127.0.0.1:8787 or https://api.apple-cloudkit.com (LARDER_ENDPOINT).")
    var endpoint: String?

    @Option(name: .long, help: "Container identifier, e.g. iCloud.com.example.app (LARDER_CONTAINER).")
    var container: String?

    @Option(name: .long, help: "development or production (LARDER_ENVIRONMENT; default development).")
    var environment: DatabaseEndpoint.Environment?

    @Option(name: .long, help: "private or public (LARDER_DATABASE; default private).")
    var database: DatabaseEndpoint.Scope?

    @Option(
        name: .long,
        help: "Record zone (LARDER_ZONE; default larder in the private database, _defaultZone in the public one).")
    var zone: String?

    @Option(name: .long, help: "API token (LARDER_API_TOKEN).")
    var apiToken: String?

    @Option(name: .long, help: "Web-auth token of the signed-in user (LARDER_WEB_AUTH_TOKEN).")
    var webAuthToken: String?

    @Option(name: .long, help: "Server-to-server key ID (LARDER_KEY_ID); public database only.")
    var keyID: String?

    @Option(name: .long, help: "Server-to-server private key, a PEM file (LARDER_KEY).")
    var key: String?

    @Option(
        name: .long, help: "Take container and credentials from a `larder serve` config file (LARDER_EMULATOR_CONFIG).")
    var emulatorConfig: String?

    @Option(
        name: .long,
        help: "With --emulator-config: the user to act as (first name, email or userRecordName; default the first).")
    var user: String?

    @Option(name: .long, help: "Seconds before a request without an answer is retried.")
    var timeout: Double = 60

    /// The longest `--timeout`: a year, in seconds (past it, or infinity, is a usage error).
    static let maximumTimeout = 31_536_000.0

    func validate() throws {
        if keyID != nil, key == nil { throw ValidationError("--key-id needs --key PEM") }
        if key != nil, keyID == nil { throw ValidationError("--key needs --key-id") }
        if keyID != nil, apiToken != nil { throw ValidationError("use either --api-token or --key-id/--key, not both") }
        guard timeout > 0, timeout <= Self.maximumTimeout else {
            throw ValidationError("--timeout must be positive and at most \(Int(Self.maximumTimeout)) seconds (a year)")
        }
    }

    /// The resolved target and credentials.
    struct Resolved {
        var target: CloudKitTarget
        var credentials: CloudKitCredentials
    }

    /// Resolves every setting in one place: flag, environment, emulator config, default.
    ///
    /// - Parameter env: the process environment (`LARDER_ENDPOINT`, `LARDER_CONTAINER`, ...).
    /// - Returns: the target (endpoint, container, environment, database, zone) and credentials.
    /// - Throws: ``LarderError`` `usage-error` for a missing or contradictory setting, `io-error`
    ///   when the key file cannot be read.
    func resolve(environment env: [String: String] = ProcessInfo.processInfo.environment) throws -> Resolved {
        let file = try setting(emulatorConfig, "LARDER_EMULATOR_CONFIG", env).map(emulatorDefaults) ?? FileDefaults()
        guard let endpointText = setting(endpoint, "LARDER_ENDPOINT", env) else {
            throw LarderError(
                .usage, "give the server with --endpoint URL (or LARDER_ENDPOINT), e.g. the URL `larder serve` prints")
        }
        guard let baseURL = URL(string: endpointText), let scheme = baseURL.scheme,
            ["http", "https"].contains(scheme.lowercased()),
            baseURL.host != nil
        else {
            throw LarderError(.usage, "--endpoint \(endpointText) is not an http(s) URL")
        }
        guard let containerID = setting(container, "LARDER_CONTAINER", env) ?? file.container else {
            throw LarderError(
                .usage, "give the container with --container ID (or LARDER_CONTAINER, or --emulator-config)")
        }
        let scope = try resolveScope(env)
        let zoneName =
            setting(zone, "LARDER_ZONE", env) ?? (scope == .public ? RecordZoneID.defaultZoneName : "larder")
        if scope == .public, zoneName != RecordZoneID.defaultZoneName {
            throw LarderError(.usage, "the public database has only the default zone; drop --zone \(zoneName)")
        }
        let target = CloudKitTarget(
            baseURL: baseURL,
            endpoint: DatabaseEndpoint(
                container: containerID, environment: try resolveEnvironment(env), database: scope),
            zoneID: RecordZoneID(zoneName: zoneName))
        return Resolved(target: target, credentials: try resolveCredentials(env, file: file))
    }

    /// A flag's value, else the environment variable's when it is not empty.
    private func setting(_ flag: String?, _ name: String, _ env: [String: String]) -> String? {
        flag ?? env[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What an emulator config supplies when flags and environment do not.
    private struct FileDefaults {
        var container: String?
        var apiToken: String?
        var webAuthToken: String?
    }

    /// The container, API token and the chosen user's web-auth token of the emulator config at `path`.
    private func emulatorDefaults(_ path: String) throws -> FileDefaults {
        let configuration: EmulatorConfiguration
        do {
            configuration = try EmulatorConfiguration.load(from: URL(fileURLWithPath: path))
        } catch let error as LarderError {
            throw error
        } catch {
            throw LarderError(.usage, "cannot read the emulator config: \(error)", location: SourceLocation(file: path))
        }
        let wanted = user?.lowercased()
        let chosen =
            wanted.map { wanted in
                configuration.users.first {
                    $0.userRecordName.lowercased() == wanted || $0.emailAddress?.lowercased() == wanted
                        || $0.firstName?.lowercased() == wanted
                }
            } ?? configuration.users.first
        if let wanted, chosen == nil {
            throw LarderError(.usage, "the emulator config has no user \(wanted)", location: SourceLocation(file: path))
        }
        return FileDefaults(
            container: configuration.containers.first, apiToken: configuration.apiTokens.first,
            webAuthToken: chosen?.webAuthToken)
    }

    /// `--environment`, else `LARDER_ENVIRONMENT`, else development.
    private func resolveEnvironment(_ env: [String: String]) throws -> DatabaseEndpoint.Environment {
        if let environment { return environment }
        guard let text = env["LARDER_ENVIRONMENT"], !text.isEmpty else { return .development }
        guard let parsed = DatabaseEndpoint.Environment(rawValue: text) else {
            throw LarderError(.usage, "LARDER_ENVIRONMENT=\(text) is not development or production")
        }
        return parsed
    }

    /// `--database`, else `LARDER_DATABASE`, else private; never the shared database.
    private func resolveScope(_ env: [String: String]) throws -> DatabaseEndpoint.Scope {
        var scope = DatabaseEndpoint.Scope.private
        if let database {
            scope = database
        } else if let text = env["LARDER_DATABASE"], !text.isEmpty {
            guard let parsed = DatabaseEndpoint.Scope(rawValue: text), parsed != .shared else {
                throw LarderError(.usage, "LARDER_DATABASE=\(text) is not private or public")
            }
            scope = parsed
        }
        guard scope != .shared else {
            throw LarderError(
                .usage, "--database shared is not supported: upload to your private or the public database")
        }
        return scope
    }

    /// A server-to-server key (`--key-id` and `--key`), else an API token with its web-auth token.
    private func resolveCredentials(_ env: [String: String], file: FileDefaults) throws -> CloudKitCredentials {
        if let keyIDValue = setting(keyID, "LARDER_KEY_ID", env) {
            guard let keyPath = setting(key, "LARDER_KEY", env) else {
                throw LarderError(.usage, "--key-id needs --key PEM (or LARDER_KEY)")
            }
            let pem: String
            do {
                pem = try String(contentsOfFile: keyPath, encoding: .utf8)
            } catch {
                throw LarderError(.io, "cannot read the key \(keyPath): \(error.localizedDescription)")
            }
            do {
                return .serverKey(try RequestSigner(keyID: keyIDValue, privateKeyPEM: pem))
            } catch {
                throw LarderError(
                    .usage, "\(keyPath) is not a P-256 private key in PEM form", location: SourceLocation(file: keyPath)
                )
            }
        }
        guard let token = setting(apiToken, "LARDER_API_TOKEN", env) ?? file.apiToken else {
            throw LarderError(
                .usage,
                "give credentials: --api-token T --web-auth-token W, --key-id K --key PEM, or --emulator-config FILE")
        }
        return .apiToken(token, webAuthToken: setting(webAuthToken, "LARDER_WEB_AUTH_TOKEN", env) ?? file.webAuthToken)
    }

    /// A client for the resolved target: NIO for `http://` endpoints (the emulator), URLSession
    /// for `https://`.
    func makeClient() throws -> CloudKitClient {
        let resolved = try resolve()
        return CloudKitClient(
            target: resolved.target, transport: NIOHTTPTransport(timeout: timeout), credentials: resolved.credentials
        )
    }
}

extension DatabaseEndpoint.Environment: ExpressibleByArgument {}
extension DatabaseEndpoint.Scope: ExpressibleByArgument {}
extension ConflictPolicy: ExpressibleByArgument {}
extension RecordRules: ExpressibleByArgument {}

/// `--progress`: how progress is shown on stderr.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    /// A bar when stderr is a terminal, plain lines otherwise.
    case auto
    case bar, lines, none
}

/// Shows progress on stderr: a bar redrawn in place on a terminal, or a plain line every
/// `interval` seconds.
final class ProgressPrinter: Sendable {
    private let isBar: Bool
    private let isQuiet: Bool
    private let interval: Double
    private let prefix: String
    private let last = Mutex<(time: Double, done: Int)>((-1e9, -1))

    init(mode: ProgressMode, interval: Double, prefix: String) {
        let resolved = mode == .auto ? (Stderr.isTerminal ? ProgressMode.bar : .lines) : mode
        isBar = resolved == .bar
        isQuiet = resolved == .none
        self.interval = interval
        self.prefix = prefix
    }

    func show(_ progress: UploadProgress, isFinal: Bool = false) {
        guard !isQuiet else { return }
        let now = progress.elapsed
        let due = last.withLock { last -> Bool in
            let wait = isBar ? 0.1 : interval
            if isFinal, !isBar, last.done == progress.done { return false }  // that line is already out
            guard isFinal || now - last.time >= wait else { return false }
            last = (now, progress.done)
            return true
        }
        guard due else { return }
        if isBar {
            Stderr.write("\r\(progress.bar())" + (isFinal ? "\n" : ""))
        } else {
            Stderr.print(progress.line(prefix: prefix))
        }
    }
}
