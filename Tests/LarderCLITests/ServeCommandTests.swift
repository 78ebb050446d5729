import Foundation
import LarderTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct ServeCommandTests {
    @Test("serve --help documents the flags")
    func serveHelpListsFlags() throws {
        let result = try CLI.run(["serve", "--help"])
        #expect(result.status == 0)
        for flag in ["--host", "--port", "--data", "--in-memory", "--import", "--export-on-exit", "--config"] {
            #expect(result.stdout.contains(flag), "missing \(flag)")
        }
    }

    /// Starts `larder serve`, returns the process and the URL it printed first.
    static func start(_ arguments: [String]) throws -> (Process, URL, Pipe) {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, try #require(URL(string: firstLine(of: out))), err)
    }

    /// The first line a child writes to `pipe` (waits for it), without the newline.
    static func firstLine(of pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(10) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    static func send(_ url: URL, _ path: String, body: String) async throws -> (Int, String) {
        var request = URLRequest(url: try #require(URL(string: url.absoluteString + path)))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test("serve writes a development config on first start, keeps data across restarts, and exports on exit")
    func serveKeepsDataAcrossRestarts() async throws {
        let folder = try TemporaryDirectory()
        let data = folder.path("data")
        let (first, url, firstErr) = try Self.start(["--data", data, "--export-on-exit", folder.path("state.json")])
        let config =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/config.json")))
            as? [String: Any]
        let token = try #require((config?["apiTokens"] as? [String])?.first)
        let users = try #require(config?["users"] as? [[String: Any]])
        let web = try #require(users.first?["webAuthToken"] as? String)
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query =
            "?ckAPIToken=\(token)&ckWebAuthToken=\(web.addingPercentEncoding(withAllowedCharacters: allowed) ?? web)"
        let base = "/database/1/iCloud.com.example.larder/development/private/"
        let (status, _) = try await Self.send(
            url, base + "records/modify" + query,
            body:
                #"{"operations":[{"operationType":"create","record":{"recordName":"kept","recordType":"Note","fields":{"text":{"value":"still here"}}}}]}"#
        )
        #expect(status == 200)
        first.terminate()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let log = String(decoding: firstErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("wrote a development config") && log.contains("API token"))
        // The plain token for --web-auth-token, the encoded one only inside the example URL.
        let encoded = web.addingPercentEncoding(withAllowedCharacters: allowed) ?? web
        #expect(log.contains("web-auth token \(web)\n") && !log.contains("ckWebAuthToken=\(web)"))
        #expect(log.contains("&ckWebAuthToken=\(encoded)'"))
        // Next to the curl example, the larder upload a user runs next, with the config that has the tokens.
        #expect(
            log.contains(
                "try: larder upload recipes.json --endpoint \(url.absoluteString) --emulator-config \(data)/config.json"
            ),
            "\(log)")
        #expect(FileManager.default.fileExists(atPath: folder.path("state.json")))

        let (second, url2, _) = try Self.start(["--data", data])
        defer {
            second.interrupt()
            second.waitUntilExit()
        }
        let (status2, text) = try await Self.send(
            url2, base + "records/lookup" + query, body: #"{"records":[{"recordName":"kept"}]}"#)
        #expect(status2 == 200 && text.contains("still here"))
    }

    @Test("emulator users and keys list and add entries in the config")
    func emulatorUsersAndKeys() throws {
        let folder = try TemporaryDirectory()
        let data = folder.path("emu")
        let listed = try CLI.run(["emulator", "users", "--data", data])
        #expect(listed.status == 0 && listed.stdout.split(separator: "\n").count == 3, "\(listed.stderr)")
        let added = try CLI.run([
            "emulator", "users", "add", "Carol", "--email", "carol@example.com", "--discoverable", "--data", data,
        ])
        #expect(added.status == 0 && added.stdout.hasPrefix("_"))
        let written =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/config.json")))
            as? [String: Any]
        let carol = (written?["users"] as? [[String: Any]])?.first {
            $0["emailAddress"] as? String == "carol@example.com"
        }
        #expect(carol?["discoverable"] as? Bool == true)
        #expect(try CLI.run(["emulator", "users", "list", "--data", data]).stdout.contains("carol@example.com"))
        let duplicate = try CLI.run([
            "emulator", "users", "add", "Carol", "--email", "carol@example.com", "--data", data,
        ])
        #expect(duplicate.status == 2)
        let key = try CLI.run(["emulator", "keys", "add", "--data", data])
        let keyID = try #require(key.stdout.split(separator: "\t").first.map(String.init))
        #expect(key.status == 0 && keyID.count == 64)
        #expect(try CLI.run(["emulator", "keys", "--data", data]).stdout.contains(keyID))
        let badConfig = try folder.write("bad.json", #"{"port": 1, "colour": "blue"}"#)
        let refused = try CLI.run(["serve", "--config", badConfig, "--in-memory"])
        #expect(refused.status == 2 && refused.stderr.contains("colour"))
    }
}
