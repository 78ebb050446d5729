import Foundation
import LarderTestSupport
import Testing

/// Where Apple's cloudkit.js (2.6.4) is.
///
/// `LARDER_CLOUDKIT_JS`, else /tmp/cloudkit-js/cloudkit.js. It is Apple's file and is not in the repository.
let cloudKitJSPath: String =
    ProcessInfo.processInfo.environment["LARDER_CLOUDKIT_JS"] ?? "/tmp/cloudkit-js/cloudkit.js"

let cloudKitJSAvailable: Bool =
    FileManager.default.isReadableFile(atPath: cloudKitJSPath)
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/node")

/// Issue 30 part 1, end to end: scripts/cloudkit-js-capture.js drives Apple's CloudKit JS, unmodified,
/// against `larder serve` and checks every call as an app would use its result.
@Suite struct CloudKitJSEndToEndTests {
    @Test(
        "Apple's CloudKit JS 2.6.4 against larder serve: every call of its public API that issue 30 lists passes",
        .enabled(
            if: cloudKitJSAvailable,
            "no cloudkit.js at \(cloudKitJSPath) (set LARDER_CLOUDKIT_JS; see docs/emulator.md) or no /usr/bin/node"),
        .timeLimit(.minutes(3)))
    func cloudKitJSEndToEnd() throws {
        let folder = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/node")
        process.arguments = [
            CLI.packageRoot.appendingPathComponent("scripts/cloudkit-js-capture.js").path, "--lib", cloudKitJSPath,
            "--larder", CLI.executable.path, "--out", folder.path("capture.txt"),
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let transcript = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(transcript)")
        #expect(transcript.contains("31 passed, 0 failed"), "\(transcript)")
        #expect(!transcript.contains("FAIL"), "\(transcript)")
    }
}
