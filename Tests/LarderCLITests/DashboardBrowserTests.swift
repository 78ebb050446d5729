import Foundation
import LarderTestSupport
import Testing

/// Debian's chromium, chromium-driver and python3-selenium (`make browser-deps` installs them).
let browserAvailable: Bool = {
    let files = FileManager.default
    guard files.isExecutableFile(atPath: "/usr/bin/chromium"), files.isExecutableFile(atPath: "/usr/bin/chromedriver"),
        files.isExecutableFile(atPath: "/usr/bin/python3")
    else { return false }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    probe.arguments = ["-c", "import selenium"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    do {
        try probe.run()
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    } catch {
        return false
    }
}()

/// Issues #16 and #30 (part 3) in a real browser.
///
/// Starts `larder serve --in-memory --port 0`, and runs Tests/Browser/dashboard_test.py, which loads the samples and 10,000 generated records and drives
/// headless Chromium through the dashboard. Screenshots go to .build/test-output/dashboard/.
@Suite struct DashboardBrowserTests {
    static let container = "iCloud.com.example.larder"
    static let apiToken = String(repeating: "be", count: 32)
    static let webAuthToken = "browser+alice/token="
    static let owner = "_a11ce"

    @Test(
        "the dashboard in headless Chromium: hub, navigate, filter, page 10k records, titles and times, JSON folds, photo, edit and delete, export as Larder JSON, fault rule in the live log, CSRF, XSS, reset",
        .enabled(
            if: browserAvailable, "chromium/chromedriver/selenium not installed (make browser-deps installs them)"),
        .timeLimit(.minutes(5)))
    func dashboardInABrowser() async throws {
        let folder = try TemporaryDirectory()
        let config = folder.path("config.json")
        let users = [["userRecordName": Self.owner, "webAuthToken": Self.webAuthToken, "firstName": "Alice"]]
        let document: [String: Any] = [
            "containers": [Self.container], "apiTokens": [Self.apiToken], "users": users,
            "adminToken": String(repeating: "ad", count: 32),
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: config))
        let (server, url) = try Self.startServer(config: config, log: folder.path("serve.log"))
        defer {
            server.interrupt()
            server.waitUntilExit()
        }
        let output = CLI.packageRoot.appendingPathComponent(".build/test-output/dashboard")
        let (status, transcript) = try Self.runScript([
            "--base", url.absoluteString, "--container", Self.container, "--api-token", Self.apiToken,
            "--web-auth-token", Self.webAuthToken, "--owner", Self.owner, "--admin-token",
            String(repeating: "ad", count: 32),
            "--samples", CLI.packageRoot.appendingPathComponent("samples/recipes.json").path, "--out", output.path,
        ])
        let failures = transcript.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        #expect(status == 0 && failures.isEmpty, "dashboard_test.py exited \(status):\n\(transcript)")
        #expect(transcript.contains("PASS paging through the Batch records"))
        for view in [
            "PASS the hub counts the zone's records by type", "PASS no word in the records list is broken mid-word",
            "PASS JSON in a STRING field is pretty-printed in a fold",
            "PASS an uploaded photo is previewed from the emulator's own download URL",
            "PASS the edit went through records/modify", "PASS the delete went through records/modify",
            "PASS Export as Larder JSON downloads the envelope larder reads",
        ] {
            #expect(transcript.contains(view), "\(view) missing:\n\(transcript)")
        }
        let shots = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".png") }
        #expect(shots.count >= 15, "screenshots: \(shots.sorted())")
    }

    /// `larder serve --in-memory --port 0 --config …`, its stderr in `log`; returns once it printed its URL.
    static func startServer(config: String, log: String) throws -> (Process, URL) {
        FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--in-memory", "--port", "0", "--config", config]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        let text = ServeCommandTests.firstLine(of: out)
        let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let url = URL(string: text), url.port != nil else {
            process.terminate()
            throw CLIFailure(description: "larder serve printed no URL; stderr:\n\(stderr)")
        }
        return (process, url)
    }

    /// Runs the selenium script with /usr/bin/python3; returns its exit status and everything it printed.
    static func runScript(_ arguments: [String]) throws -> (Int32, String) {
        let folder = try TemporaryDirectory()
        let transcript = folder.path("transcript.txt")
        FileManager.default.createFile(atPath: transcript, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: transcript))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [CLI.packageRoot.appendingPathComponent("Tests/Browser/dashboard_test.py").path] + arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOfFile: transcript, encoding: .utf8))
    }

    struct CLIFailure: Error, CustomStringConvertible {
        var description: String
    }
}
