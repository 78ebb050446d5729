import Foundation
import LarderTestSupport
import Testing

/// `--help` of every command, word for word, against golden files in `Golden/help/`.
///
/// The commands are discovered by walking the SUBCOMMANDS sections from `larder --help` down, so
/// a new command without a golden file fails here. After a deliberate change to the help text,
/// re-record with `LARDER_RECORD_GOLDEN=1 swift test --disable-xctest --filter HelpGoldenTests`
/// and review the diff.
@Suite struct HelpGoldenTests {
    static let goldenDirectory = CLI.packageRoot.appendingPathComponent("Tests/LarderCLITests/Golden/help")
    static var isRecording: Bool { ProcessInfo.processInfo.environment["LARDER_RECORD_GOLDEN"] == "1" }

    /// Runs `larder <path…> --help` at a fixed width, so the wrapping does not follow the terminal.
    static func help(_ path: [String]) throws -> CLIResult {
        try CLI.run(path + ["--help"], environment: ["COLUMNS": "100", "LINES": "50"])
    }

    /// The subcommand names a help text lists.
    static func subcommands(in help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        var names: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            // A command's line starts with two spaces and its name; continuation lines are indented further.
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
            if let name = line.dropFirst(2).split(separator: " ").first { names.append(String(name)) }
        }
        return names
    }

    /// Every command path, root first.
    static func commandPaths() throws -> [[String]] {
        var paths: [[String]] = []
        var queue: [[String]] = [[]]
        while !queue.isEmpty {
            let path = queue.removeFirst()
            paths.append(path)
            let result = try help(path)
            for name in subcommands(in: result.stdout) where name != "help" {
                queue.append(path + [name])
            }
        }
        return paths
    }

    static func goldenName(_ path: [String]) -> String {
        (["larder"] + path).joined(separator: "-") + ".txt"
    }

    @Test("every command's --help matches its golden file, exit status 0, nothing on stderr")
    func helpMatchesGolden() throws {
        let paths = try Self.commandPaths()
        #expect(paths.count > 20, "expected the whole command tree, found \(paths.count) commands")
        var seen: Set<String> = []
        for path in paths {
            let result = try Self.help(path)
            let name = Self.goldenName(path)
            seen.insert(name)
            #expect(result.status == 0, "larder \(path.joined(separator: " ")) --help exited \(result.status)")
            #expect(
                result.stderr.isEmpty, "larder \(path.joined(separator: " ")) --help wrote to stderr: \(result.stderr)")
            let file = Self.goldenDirectory.appendingPathComponent(name)
            if Self.isRecording {
                try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
                try Data(result.stdout.utf8).write(to: file, options: .atomic)
                continue
            }
            guard let golden = try? String(contentsOf: file, encoding: .utf8) else {
                Issue.record(
                    "no golden file \(name) for `larder \(path.joined(separator: " ")) --help`; record it with LARDER_RECORD_GOLDEN=1"
                )
                continue
            }
            #expect(
                result.stdout == golden,
                "`larder \(path.joined(separator: " ")) --help` differs from Golden/help/\(name)")
        }
        // A golden file whose command is gone is stale.
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Self.goldenDirectory.path)) ?? []
        for file in files where file.hasSuffix(".txt") && !seen.contains(file) {
            Issue.record("Golden/help/\(file) has no command any more")
        }
    }

    @Test("the subcommand parser reads argument-parser's SUBCOMMANDS section")
    func parsesSubcommands() {
        let help = """
            USAGE: larder store <subcommand>

            SUBCOMMANDS:
              import                  Import records.
              export                  Export records, with a description
                                      that wraps.

              See 'larder help store <subcommand>' for detailed help.
            """
        #expect(Self.subcommands(in: help) == ["import", "export"])
    }
}

/// `larder <command> --help | less`: piped, the help is laid out for 80 columns, and no line of any
/// command's help may run past them.
@Suite struct HelpWidthTests {
    @Test("no line of any command's --help is wider than 80 columns at COLUMNS=80")
    func fitsEightyColumns() throws {
        for path in try HelpGoldenTests.commandPaths() {
            let result = try CLI.run(path + ["--help"], environment: ["COLUMNS": "80", "LINES": "50"])
            for line in result.stdout.split(separator: "\n") where line.count > 80 {
                Issue.record("larder \(path.joined(separator: " ")) --help: \(line.count) columns: \(line)")
            }
        }
    }
}
