public import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import LarderSystem

extension EmulatorConfiguration {
    /// Values given on the command line; nil means "not given".
    public struct Flags: Sendable {
        public var host: String?
        public var port: Int?
        public var dataDirectory: String?
        public var inMemory: Bool?
        public var signatureSkewSeconds: Int?
        public var refuseReplays: Bool?
        public init(
            host: String? = nil, port: Int? = nil, dataDirectory: String? = nil, inMemory: Bool? = nil,
            signatureSkewSeconds: Int? = nil, refuseReplays: Bool? = nil
        ) {
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.inMemory = inMemory
            self.signatureSkewSeconds = signatureSkewSeconds
            self.refuseReplays = refuseReplays
        }
    }

    /// Resolves the configuration: flag, then `LARDER_*` environment, then `file`, then default.
    ///
    /// Environment: `LARDER_HOST`, `LARDER_PORT`, `LARDER_DATA`, `LARDER_IN_MEMORY` (1/true),
    /// `LARDER_MAX_OPERATIONS`, `LARDER_MAX_RECORDS_PER_PAGE`, `LARDER_MAX_RECORD_BYTES`,
    /// `LARDER_MAX_BODY_BYTES`.
    /// - Throws: ``LarderError`` `usage-error` for an unreadable file, an unknown key, or a bad value.
    public static func resolve(
        flags: Flags, environment: [String: String], file: URL?
    ) throws -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        if let file { configuration = try load(from: file) }
        func int(_ name: String) throws -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text) else { throw LarderError(.usage, "\(name)=\(text) is not an integer") }
            return value
        }
        if let host = environment["LARDER_HOST"] { configuration.host = host }
        if let port = try int("LARDER_PORT") { configuration.port = port }
        if let data = environment["LARDER_DATA"] { configuration.dataDirectory = data }
        if let text = environment["LARDER_IN_MEMORY"] {
            configuration.inMemory = ["1", "true", "yes"].contains(text.lowercased())
        }
        if let value = try int("LARDER_MAX_OPERATIONS") { configuration.limits.maxOperationsPerRequest = value }
        if let value = try int("LARDER_MAX_RECORDS_PER_PAGE") { configuration.limits.maxRecordsPerPage = value }
        if let value = try int("LARDER_MAX_RECORD_BYTES") { configuration.limits.maxRecordBytes = value }
        if let value = try int("LARDER_MAX_BODY_BYTES") { configuration.limits.maxRequestBodyBytes = value }
        if let host = flags.host { configuration.host = host }
        if let port = flags.port { configuration.port = port }
        if let data = flags.dataDirectory {
            configuration.dataDirectory = data
            configuration.inMemory = false
        }
        if let inMemory = flags.inMemory, inMemory { configuration.inMemory = true }
        if let skew = flags.signatureSkewSeconds { configuration.signatureSkewSeconds = skew }
        if let refuse = flags.refuseReplays, refuse { configuration.refuseReplays = true }
        try configuration.validate()
        return configuration
    }

    /// Reads a JSON config file.
    /// - Throws: ``LarderError`` `io-error` when unreadable, `usage-error` naming the key path when invalid.
    public static func load(from file: URL) throws -> EmulatorConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw LarderError(.io, "cannot read emulator config \(file.path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(EmulatorConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw LarderError(.usage, "\(file.path): \(DecodingErrorText.describe(error))")
        } catch {
            throw LarderError(.usage, "\(file.path): \(error)")
        }
    }

    /// Writes the configuration as pretty JSON, atomically, readable by its owner only (0600, whatever
    /// the umask: it holds the API, web-auth and admin tokens); a folder it creates is 0700.
    /// - Throws: ``LarderError`` `io-error`.
    public func write(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try PrivateFile.write(encoder.encode(self), to: file)
        } catch {
            throw LarderError(.io, "cannot write emulator config \(file.path): \(error.localizedDescription)")
        }
    }

    /// A development configuration with fresh secrets: one container, an API token, two discoverable
    /// users (alice and bob) with web-auth tokens, and one server-to-server key pair.
    /// - Returns: the configuration and the key's private PEM (to be written beside it).
    public static func makeDevelopment(
        container: String = "iCloud.com.example.larder"
    ) -> (configuration: EmulatorConfiguration, privateKeyPEM: String) {
        var configuration = EmulatorConfiguration()
        configuration.containers = [container]
        configuration.apiTokens = [Secrets.hex(bytes: 32)]
        configuration.adminToken = Secrets.hex(bytes: 32)
        configuration.users = [
            Secrets.makeUser(firstName: "Alice", email: "alice@example.com", discoverable: true),
            Secrets.makeUser(firstName: "Bob", email: "bob@example.com", discoverable: true),
        ]
        let pair = RequestSigner.makeKeyPair()
        configuration.serverKeys = [
            ServerKey(
                keyID: Secrets.hex(bytes: 32), publicKeyPEM: pair.publicKeyPEM,
                userRecordName: configuration.users[0].userRecordName)
        ]
        return (configuration, pair.privateKeyPEM)
    }
}

/// Random identifiers and secrets for development configs.
public enum Secrets {
    /// `bytes` random bytes as lowercase hex.
    public static func hex(bytes: Int) -> String {
        RandomSource.system.hex(bytes: bytes)
    }

    /// A web-auth token shaped like Apple's: base64 with `+`, `/` and `=` that must be percent-encoded.
    public static func webAuthToken() -> String {
        let bytes = RandomSource.system.bytes(40)
        return "1_" + Data(bytes).base64EncodedString() + "+/="
    }

    /// A user with a fresh record name and token.
    public static func makeUser(firstName: String, email: String?, discoverable: Bool = false) -> EmulatorUser {
        EmulatorUser(
            userRecordName: "_" + hex(bytes: 16), webAuthToken: webAuthToken(), emailAddress: email,
            firstName: firstName, lastName: "Example", discoverable: discoverable)
    }
}

/// Renders a `DecodingError` as `path.to.key: what went wrong`.
package enum DecodingErrorText {
    package static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            let found =
                context.debugDescription.components(separatedBy: "but found ").last.map { ", found " + $0 } ?? ""
            return
                "\(path(context.codingPath)): expected \(describe(type))\(found.hasSuffix(".") ? String(found.dropLast()) : found)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(describe(type)), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required key is missing"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default: "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)".hasPrefix("Array") ? "a list" : "\(type)"
        }
    }
}

/// Files only their owner may read: the emulator's config, keys and store.
package enum PrivateFile {
    /// Writes `data` to a 0600 temporary file beside `file` and renames it into place; creates a
    /// missing folder as 0700.
    ///
    /// The mode is set explicitly, so the umask does not matter.
    /// - Throws: `CocoaError` when the folder cannot be made, ``LarderError`` `io-error` naming the file.
    package static func write(_ data: Data, to file: URL) throws {
        let folder = file.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            _ = chmod(folder.path, 0o700)
        }
        // The same atomic writer as every output (temp file, fsync, rename), created 0600.
        let sink = try FileByteSink(path: file.path, mode: 0o600)
        try data.withUnsafeBytes { try sink.write($0) }
        try sink.close()
    }

    /// Sets `path`'s mode to `mode` when it exists.
    package static func restrict(_ path: String, mode: mode_t = 0o600) {
        if FileManager.default.fileExists(atPath: path) { _ = chmod(path, mode) }
    }
}
