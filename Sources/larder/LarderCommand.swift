import ArgumentParser
import LarderSystem

/// The `larder` command: a thin root that only lists subcommands.
@main
struct LarderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "larder",
        abstract: "Import, convert, validate, migrate, dedupe and sync recipe and brew-log data.",
        discussion: """
            Exit codes: 0 success, 1 data errors (malformed or rejected records), 2 usage errors, \
            3 I/O errors (files, store, network).
            """,
        version: larderVersion,
        subcommands: [
            ConvertCommand.self,
            ValidateCommand.self,
            GenerateCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            MigrateCommand.self,
            SchemaCommand.self,
            StoreCommand.self,
            ServeCommand.self,
            EmulatorCommand.self,
            DedupeCommand.self,
            DedupeGenerateCommand.self,
            TombstonesCommand.self,
            CacheCommand.self,
            UploadCommand.self,
            DownloadCommand.self,
            SyncCommand.self,
        ]
    )

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let commands = configuration.subcommands.map { $0._commandName }
        if let hint = UsageHints.unknownCommand(arguments, commands: commands) {
            Stderr.print(hint)
            LibC.exit(ExitStatus.usage)
        }
        do {
            var command = try parseAsRoot()
            // `serve` shuts down gracefully on SIGINT/SIGTERM through its service group.
            if !(command is ServeCommand) { InterruptCleanup.install() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            ExitStatus.exit(for: error, printingWith: Self.self)
        }
    }
}

/// The version `--version` prints.
let larderVersion = "0.1.0"
