import ArgumentParser
import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator

/// `larder emulator users|keys`: list and add the emulator's users and server-to-server keys.
struct EmulatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulator",
        abstract: "Manage the local CloudKit emulator's users and server-to-server keys.",
        discussion: "Edits the config `larder serve` reads (restart the server to apply).",
        subcommands: [UsersCommand.self, KeysCommand.self]
    )

    /// Loads the config, creating a development one when there is none yet.
    static func load(_ location: EmulatorConfigOptions) throws -> (EmulatorConfiguration, URL) {
        guard let file = location.configFile(inMemory: false) else { throw ValidationError("no config file") }
        if !FileManager.default.fileExists(atPath: file.path) {
            let made = EmulatorConfiguration.makeDevelopment()
            try made.configuration.write(to: file)
            let keyPath = file.deletingLastPathComponent().appendingPathComponent("server-key.pem")
            do {
                try PrivateFile.write(Data(made.privateKeyPEM.utf8), to: keyPath)
            } catch {
                throw LarderError(.io, "cannot write \(keyPath.path): \(error.localizedDescription)")
            }
            Stderr.print("larder: wrote a development config to \(file.path)")
        }
        return (try EmulatorConfiguration.load(from: file), file)
    }
}

/// `larder emulator users [list|add]`.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "List or add emulator users.", subcommands: [List.self, Add.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List users and their web-auth tokens (TSV).")
        @OptionGroup var location: EmulatorConfigOptions

        func run() throws {
            let (configuration, _) = try EmulatorCommand.load(location)
            print("userRecordName\tname\temail\twebAuthToken")
            for user in configuration.users {
                print(
                    "\(user.userRecordName)\t\(user.firstName ?? "")\t\(user.emailAddress ?? "")\t\(user.webAuthToken)"
                )
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user with a fresh record name and web-auth token.")
        @OptionGroup var location: EmulatorConfigOptions
        @Argument(help: "The user's first name.") var name: String
        @Option(name: .long, help: "The user's email (used to invite them to shares).") var email: String?
        @Flag(name: .long, help: "Let other users find this one with users/discover and users/lookup.")
        var discoverable = false

        func run() throws {
            var (configuration, file) = try EmulatorCommand.load(location)
            if let email, configuration.users.contains(where: { $0.emailAddress?.lowercased() == email.lowercased() }) {
                throw LarderError(.usage, "a user with email \(email) already exists")
            }
            let user = Secrets.makeUser(firstName: name, email: email, discoverable: discoverable)
            configuration.users.append(user)
            try configuration.validate()
            try configuration.write(to: file)
            print("\(user.userRecordName)\t\(name)\t\(email ?? "")\t\(user.webAuthToken)")
            Stderr.print("larder: added user \(name) to \(file.path); restart `larder serve` to use it")
        }
    }
}

/// `larder emulator keys [list|add]`.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "List or add server-to-server keys.", subcommands: [List.self, Add.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List key IDs and the user each acts as (TSV).")
        @OptionGroup var location: EmulatorConfigOptions

        func run() throws {
            let (configuration, _) = try EmulatorCommand.load(location)
            print("keyID\tuserRecordName")
            for key in configuration.serverKeys {
                print("\(key.keyID)\t\(key.userRecordName ?? configuration.users.first?.userRecordName ?? "")")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a server-to-server key: a new P-256 pair, or an existing public key.",
            discussion: """
                Without --public-key a key pair is made and the private key written to --out. With \
                --public-key FILE the P-256 public key in FILE (PEM, `-----BEGIN PUBLIC KEY-----`, as \
                `openssl ec -in key.pem -pubout` writes it) is registered and no private key is written.

                Prints the key ID and the private key's path (`-` with --public-key), tab-separated.
                """)
        @OptionGroup var location: EmulatorConfigOptions
        @Option(name: .long, help: "Write the private key here (default: DATA/server-key-<id>.pem).") var out: String?
        @Option(name: .long, help: "Register this existing P-256 public key (a PEM file) instead of making a pair.")
        var publicKey: String?
        @Option(name: .long, help: "The user the key acts as (default: the first user).") var user: String?

        func validate() throws {
            if publicKey != nil, out != nil {
                throw ValidationError("--out writes a new private key; it cannot be combined with --public-key")
            }
        }

        func run() throws {
            var (configuration, file) = try EmulatorCommand.load(location)
            if let user, !configuration.users.contains(where: { $0.userRecordName == user }) {
                throw LarderError(.usage, "no user \(user); see `larder emulator users`")
            }
            let keyID = Secrets.hex(bytes: 32)
            let publicKeyPEM: String
            let path: String
            if let publicKey {
                publicKeyPEM = try Self.readPublicKey(publicKey)
                path = "-"
            } else {
                let pair = RequestSigner.makeKeyPair()
                publicKeyPEM = pair.publicKeyPEM
                path =
                    out
                    ?? file.deletingLastPathComponent().appendingPathComponent("server-key-\(keyID.prefix(8)).pem").path
                do {
                    try PrivateFile.write(Data(pair.privateKeyPEM.utf8), to: URL(fileURLWithPath: path))
                } catch {
                    throw LarderError(.io, "cannot write \(path): \(error.localizedDescription)")
                }
            }
            configuration.serverKeys.append(ServerKey(keyID: keyID, publicKeyPEM: publicKeyPEM, userRecordName: user))
            try configuration.write(to: file)
            print("\(keyID)\t\(path)")
            let source = publicKey.map { "public key \($0)" } ?? "private key \(path)"
            Stderr.print("larder: added key \(keyID) (\(source)); restart `larder serve` to use it")
        }

        /// The PEM text of `path` when it holds a P-256 public key.
        /// - Throws: ``LarderError`` `io-error` when unreadable, `usage-error` naming the file otherwise.
        static func readPublicKey(_ path: String) throws -> String {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw LarderError(.io, "cannot read the public key \(path): \(error.localizedDescription)")
            }
            guard RequestSigner.isPublicKey(text) else {
                let hint =
                    text.contains("PRIVATE KEY")
                    ? "it holds a private key; register the public half (openssl ec -in KEY -pubout)"
                    : "expected a P-256 public key in PEM form (-----BEGIN PUBLIC KEY-----)"
                throw LarderError(
                    .usage, "\(path): not a P-256 public key: \(hint)", location: SourceLocation(file: path))
            }
            return text
        }
    }
}
