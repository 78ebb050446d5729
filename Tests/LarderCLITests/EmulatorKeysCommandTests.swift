import Foundation
import LarderTestSupport
import Testing

@Suite struct EmulatorKeysCommandTests {
    /// The public key PEM of the first server key in `data`'s config (made on first use).
    static func publicKey(in data: String) throws -> String {
        #expect(try CLI.run(["emulator", "keys", "--data", data]).status == 0)
        let config =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/config.json")))
            as? [String: Any]
        let keys = try #require(config?["serverKeys"] as? [[String: Any]])
        return try #require(keys.first?["publicKeyPEM"] as? String)
    }

    @Test("keys add --public-key registers an existing P-256 public key and writes no private key")
    func registersExistingPublicKey() throws {
        let folder = try TemporaryDirectory()
        let pem = try folder.write("existing.pub.pem", try Self.publicKey(in: folder.path("other")))
        let data = folder.path("emu")
        let added = try CLI.run(["emulator", "keys", "add", "--public-key", pem, "--data", data])
        #expect(added.status == 0, "\(added.stderr)")
        let fields = added.stdout.trimmingCharacters(in: .newlines).split(separator: "\t").map(String.init)
        #expect(fields.count == 2 && fields[0].count == 64 && fields[1] == "-")
        let config = try String(contentsOfFile: data + "/config.json", encoding: .utf8)
        #expect(config.contains(fields[0]))
        let listed = try CLI.run(["emulator", "keys", "--data", data])
        #expect(listed.stdout.contains(fields[0]))
        let files = try FileManager.default.contentsOfDirectory(atPath: data)
        #expect(files.filter { $0.hasPrefix("server-key-") }.isEmpty, "\(files)")
    }

    @Test("keys add --public-key refuses a file that is not a P-256 public key, naming it")
    func refusesBadPublicKeyFile() throws {
        let folder = try TemporaryDirectory()
        let data = folder.path("emu")
        let garbage = try folder.write(
            "garbage.pem", "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----\n")
        let refused = try CLI.run(["emulator", "keys", "add", "--public-key", garbage, "--data", data])
        #expect(refused.status == 2 && refused.stderr.contains(garbage) && refused.stderr.contains("P-256"))
        let privateKey = try String(contentsOfFile: data + "/server-key.pem", encoding: .utf8)
        let privatePath = try folder.write("private.pem", privateKey)
        let wrongHalf = try CLI.run(["emulator", "keys", "add", "--public-key", privatePath, "--data", data])
        #expect(wrongHalf.status == 2 && wrongHalf.stderr.contains("-pubout"), "\(wrongHalf.stderr)")
        let missing = try CLI.run(["emulator", "keys", "add", "--public-key", folder.path("nope.pem"), "--data", data])
        #expect(missing.status != 0 && missing.stderr.contains("nope.pem"))
        let both = try CLI.run([
            "emulator", "keys", "add", "--public-key", garbage, "--out", folder.path("x.pem"), "--data", data,
        ])
        #expect(both.status == 2)
    }
}
