import Foundation
import LarderTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Long runs show progress on a terminal's stderr only (one self-updating line: stage, records,
/// bytes of the total, percentage, rate, ETA), `--quiet` silences it, `--progress` forces plain
/// lines for logs, and Ctrl-C says what was left.
@Suite struct ProgressCLITests {
    /// Progress from the first record, and plain lines at every update, so a short run shows them.
    static let immediate = ["LARDER_PROGRESS_AFTER": "0", "LARDER_PROGRESS_INTERVAL": "0"]

    /// A file of `count` generated recipes (NDJSON) in `directory`.
    static func recipes(_ count: Int, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("in.ndjson")
        let result = try CLI.run(["generate", "--type", "recipe", "-n", String(count), "--to", "ndjson", "-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    /// Runs larder under a pseudo-terminal (util-linux `script`), returning what the terminal showed.
    static func onTerminal(_ arguments: [String], environment: [String: String]) throws -> String {
        let quoted = ([CLI.executable.path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let exports = environment.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let result = try CLI.runProgram(
            "/usr/bin/script", ["-qfec", "env \(exports) \(quoted.joined(separator: " "))", "/dev/null"], timeout: 300)
        return result.stdout
    }

    @Test(
        "on a terminal, convert shows one self-updating line (records, MB of total, %, rate) cleared before the summary",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script"))
    func terminalLine() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.recipes(10_500, in: dir)
        let shown = try Self.onTerminal(
            ["convert", input, "--to", "json", "-o", dir.path("out.json")], environment: Self.immediate)
        #expect(shown.contains("\r\u{1B}[Kconvert: 10,000 records · "), "\(shown.debugDescription)")
        #expect(shown.contains(" MB of ") && shown.contains("%) · ") && shown.contains("/s"), "\(shown)")
        // The line is cleared, then the summary follows on its own line.
        #expect(shown.contains("\r\u{1B}[Klarder: 10500 records: 10500 written"), "\(shown.debugDescription)")
        let quiet = try Self.onTerminal(
            ["convert", input, "--to", "json", "-o", dir.path("out2.json"), "--quiet"], environment: Self.immediate)
        #expect(!quiet.contains("convert: 10,000"), "\(quiet)")
        #expect(quiet.contains("10500 written"), "\(quiet)")
    }

    @Test("off a terminal nothing is shown unless --progress, which prints plain lines")
    func logLines() throws {
        let dir = try TemporaryDirectory()
        let input = try Self.recipes(10_500, in: dir)
        let plain = try CLI.run(
            ["convert", input, "--to", "json", "-o", dir.path("a.json")], environment: Self.immediate)
        #expect(plain.status == 0 && !plain.stderr.contains("convert: "), "\(plain.stderr)")
        let forced = try CLI.run(
            ["convert", input, "--to", "json", "-o", dir.path("b.json"), "--progress"], environment: Self.immediate)
        #expect(forced.stderr.contains("convert: 10,000 records · "), "\(forced.stderr)")
        #expect(!forced.stderr.contains("\r"), "plain lines in a log: \(forced.stderr.debugDescription)")
        let generate = try CLI.run(
            ["generate", "--type", "recipe", "-n", "2048", "-o", dir.path("g.json"), "--progress"],
            environment: Self.immediate)
        #expect(generate.stderr.contains("generate: 2,048 records of 2,048 (100%)"), "\(generate.stderr)")
        let imported = try CLI.run(
            [
                "import", CLI.packageRoot.appendingPathComponent("samples/import/mealmaster-classics.mmf").path,
                "-o", dir.path("i.json"), "--progress",
            ], environment: Self.immediate)
        #expect(imported.stderr.contains("import (MealMaster): 1 records"), "\(imported.stderr)")
        let saved = CLI.packageRoot.appendingPathComponent("samples/saved.json").path
        let created = CLI.packageRoot.appendingPathComponent("samples/created.json").path
        let deduped = try CLI.run(
            ["dedupe", "--saved", saved, "--created", created, "-o", dir.path("d.json"), "--progress"],
            environment: Self.immediate)
        #expect(deduped.stderr.contains("dedupe (reading and matching)"), "\(deduped.stderr)")
    }

    @Test("Ctrl-C during a run says it was interrupted and that nothing was written")
    func interruptSaysWhatWasLeft() async throws {
        try await offCooperativePool {
            let directory = try TemporaryDirectory()
            let log = directory.path("stderr.txt")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let (process, _) = try InterruptionTests.startConvert(output: "out.json", in: directory, stderr: handle)
            kill(process.processIdentifier, SIGINT)
            #expect(InterruptionTests.waitForExit(process))
            #expect(process.terminationStatus == 130)
            try handle.close()
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.contains("larder: interrupted: nothing was written"), "\(text)")
        }
    }
}
