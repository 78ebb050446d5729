import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderSync
import LarderSystem

/// Maps every error to the documented exit status in one place: 0 ok, 1 data, 2 usage, 3 I/O.
///
/// Commands throw; only this type prints an error and picks the status. The libraries know
/// nothing of exit statuses: ``status(for:)`` is the one table from ``LarderError/Code``.
enum ExitStatus {
    static let success: Int32 = 0
    static let dataError: Int32 = 1
    static let usage: Int32 = 2
    static let io: Int32 = 3

    /// The exit status for a kind of failure: usage 2; files, network and store 3; the data 1.
    static func status(for code: LarderError.Code) -> Int32 {
        switch code {
        case .usage: usage
        case .io, .network, .store: io
        default: dataError
        }
    }

    /// Prints the error to stderr (help and version to stdout) and exits with its status.
    static func exit(for error: any Error, printingWith command: any ParsableCommand.Type) -> Never {
        switch error {
        case let error as LarderError:
            Stderr.print("larder: " + error.description)
            LibC.exit(status(for: error.code))
        case let stopped as UploadStopped:
            exit(for: stopped.larderError, printingWith: command)
        case let error as CocoaError:
            // A Foundation file error a command did not name: still an I/O failure, not a data error.
            Stderr.print("larder: error: \(error.localizedDescription)")
            LibC.exit(io)
        case let error as DataErrorsExit:
            LibC.exit(error.status)
        default:
            let code = command.exitCode(for: error)
            let message = command.fullMessage(for: error)
            if code != .success, let hint = optionHint(for: command) { Stderr.print(hint) }
            if code == .success {
                if !message.isEmpty { print(HelpLayout.wrappingUsage(message)) }
                LibC.exit(success)
            }
            if !message.isEmpty { Stderr.print(message) }
            // argument-parser uses 64 (EX_USAGE) for usage and validation errors: Larder documents 2.
            LibC.exit(code == .validationFailure ? usage : (code.rawValue == 1 ? dataError : usage))
        }
    }
}

extension ExitStatus {
    /// A hint naming the option the user meant, for the subcommand the command line names.
    static func optionHint(for root: any ParsableCommand.Type) -> String? {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: any ParsableCommand.Type = root
        var rest = arguments[...]
        // Walk down the subcommands the arguments name (`store export …`).
        while let next = rest.first, !next.hasPrefix("-"),
            let sub = command.configuration.subcommands.first(where: { $0._commandName == next })
        {
            command = sub
            rest = rest.dropFirst()
        }
        let subcommands = command.configuration.subcommands.map { $0._commandName }
        if !subcommands.isEmpty, let hint = UsageHints.unknownCommand(Array(rest), commands: subcommands) {
            return hint
        }
        // `import --to html`, `convert --to csv`: a format only `export` writes.
        if ["import", "convert"].contains(command._commandName),
            let index = rest.firstIndex(where: { $0 == "--to" || $0.hasPrefix("--to=") })
        {
            let value =
                rest[index].hasPrefix("--to=")
                ? String(rest[index].dropFirst(5)) : rest.dropFirst(index - rest.startIndex + 1).first ?? ""
            if DataFormat(argument: value) == nil, !value.isEmpty {
                return
                    "larder: error: \(command._commandName) writes Larder's record formats (json, ndjson, yaml, xml); "
                    + "other apps' formats and cookbooks come from `larder export --to \(value)` (see `larder export --help`)"
            }
        }
        let known = optionNames(of: command)
        return UsageHints.unknownOption(Array(rest), known: known)
    }

    /// The option names (`--to`, `-o`, …) a command takes, from its help.
    static func optionNames(of command: any ParsableCommand.Type) -> [String] {
        var names: [String] = []
        for line in command.helpMessage(columns: 1000).split(separator: "\n") {
            for word in line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" })
            where word.hasPrefix("-") && word.count > 1 {
                names.append(String(word.prefix { $0 != "=" && $0 != "<" }))
            }
        }
        return names
    }
}

/// Thrown by a command that has already reported its data errors and only needs to exit.
struct DataErrorsExit: Error {
    var status: Int32 = ExitStatus.dataError
}

/// Writes to standard error, unbuffered.
enum Stderr {
    /// Writes a line for people: control characters from record-derived text are escaped
    /// (``TerminalText``), so a title cannot drive the terminal.
    static func print(_ text: String) {
        let text = TerminalText.escaped(text)
        write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Writes text as it is (no newline added), straight to file descriptor 2.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }  // empty text: nothing to write
            var offset = 0
            while offset < bytes.count {
                let n = LibC.write(2, base + offset, bytes.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Whether standard error is a terminal (progress is shown only then).
    static var isTerminal: Bool { isatty(2) == 1 }
}
