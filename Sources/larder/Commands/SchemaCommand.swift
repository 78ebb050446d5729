import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore

/// `larder schema`: the schema registry and a store's schema history.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Inspect the schema registry, check compatibility, and keep a store's schema history in line.",
        discussion: """
            The registry (Schemas/registry.yaml, its JSON Schemas and XSDs) is built into larder; \
            --schemas DIR uses a folder instead.
            """,
        subcommands: [
            SchemaListCommand.self, SchemaShowCommand.self, SchemaCheckCommand.self, SchemaDiffCommand.self,
            SchemaValidateCommand.self, SchemaRepairCommand.self, SchemaBaselineCommand.self,
        ]
    )
}

struct SchemaListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the record types, their versions and compatibility modes.")

    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let registry = try schemaOptions.registry()
        print("registry: \(registry.manifest.file)")
        for type in registry.manifest.types {
            print("\(type.name)  (compatibility \(type.compatibility.rawValue), newest v\(type.latest))")
            if let description = type.description { print("  \(description)") }
            for version in type.versions {
                print(
                    "  v\(version.version)  \(version.jsonSchema)\(version.xsd.map { ", \($0)" } ?? "")\(version.description.map { "  — \($0)" } ?? "")"
                )
            }
            for transition in type.migrations {
                print(
                    "  v\(transition.from) → v\(transition.to): \(transition.steps.count) step\(transition.steps.count == 1 ? "" : "s"): \(transition.steps.map(\.id).joined(separator: ", "))"
                )
            }
        }
    }
}

struct SchemaShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a version's JSON Schema (or XSD), and its migration steps.")

    @Argument(help: "Record type: recipe, brewRecipe or brewLog.")
    var type: String

    @Argument(help: "Version (default: the newest).")
    var version: Int?

    @Flag(name: .long, help: "Print the XSD instead of the JSON Schema.")
    var xsd = false

    @Flag(name: .long, help: "Print the migration steps into and out of this version.")
    var steps = false

    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let registry = try schemaOptions.registry()
        let entry = try registry.type(type)
        let number = version ?? entry.latest
        let versionEntry = try registry.version(type: type, number)
        if steps {
            let migrator = Migrator(registry: registry)
            for transition in entry.migrations where transition.from == number || transition.to == number {
                print("v\(transition.from) → v\(transition.to):")
                for step in transition.steps {
                    print("  \(step.id): \(step.summary)\(step.lossyReason.map { "  [lossy: \($0)]" } ?? "")")
                    if let description = step.description { print("      \(description)") }
                    print("      checksum \(migrator.checksum(of: step))")
                }
            }
            return
        }
        if xsd {
            print(try registry.xsdText(type: type, version: number), terminator: "")
        } else {
            print(try registry.source.text(versionEntry.jsonSchema), terminator: "")
        }
    }
}

struct SchemaCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check each type's versions against its compatibility mode.",
        discussion: """
            Modes: BACKWARD (each version reads the previous one's data), FORWARD (the previous \
            version reads the new one's data), FULL (both), their _TRANSITIVE forms (against every \
            earlier version), NONE, and CLOUDKIT_PRODUCTION (additive only: no field removed, \
            renamed or retyped). The verdict per version pair is compatible, incompatible or \
            unknown, with the JSON path and reason of each breaking change. Exit 1 when a pair is \
            incompatible.
            """
    )

    @Argument(help: "Types to check (default: all).")
    var types: [String] = []

    @Option(name: .long, help: "Check under this mode instead of each type's own.")
    var mode: String?

    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let registry = try schemaOptions.registry()
        let checker = CompatibilityChecker(registry: registry)
        var override: CompatibilityMode?
        if let mode {
            guard let parsed = CompatibilityMode(rawValue: mode.uppercased().replacingOccurrences(of: "-", with: "_"))
            else {
                throw ValidationError(
                    "unknown mode \(mode) (known: \(CompatibilityMode.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            override = parsed
        }
        var failed = false
        for name in types.isEmpty ? registry.manifest.types.map(\.name) : types {
            let entry = try registry.type(name)
            let mode = override ?? entry.compatibility
            let verdicts = try checker.check(type: name, mode: mode)
            print("\(name) (\(mode.rawValue)\(override == nil ? "" : ", overriding \(entry.compatibility.rawValue)")):")
            if verdicts.isEmpty { print("  v\(entry.latest): the only version, nothing to compare") }
            for verdict in verdicts {
                var line = "  v\(verdict.older) → v\(verdict.newer): \(verdict.outcome.rawValue)"
                if mode == .none {
                    line +=
                        " (NONE checks nothing; \(verdict.changes.count) change\(verdict.changes.count == 1 ? "" : "s"), see larder schema diff \(name) \(verdict.older) \(verdict.newer))"
                }
                print(line)
                for (path, reason) in verdict.reasons { print("      \(path): \(reason)") }
                if verdict.outcome == .incompatible { failed = true }
            }
        }
        if failed { throw DataErrorsExit() }
    }
}

struct SchemaDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff", abstract: "Print the changes between two versions of a type, and what each breaks.")

    @Argument(help: "Record type.")
    var type: String
    @Argument(help: "The first version.")
    var from: Int
    @Argument(help: "The second version.")
    var to: Int

    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let registry = try schemaOptions.registry()
        let changes = try CompatibilityChecker(registry: registry).diff(type: type, from: from, to: to)
        print("\(type) v\(from) → v\(to): \(changes.count) change\(changes.count == 1 ? "" : "s")")
        for change in changes {
            var effects: [String] = []
            if change.backward != .fine {
                effects.append("backward: \(change.backward == .breaks ? "breaks" : "unknown")")
            }
            if change.forward != .fine {
                effects.append("forward: \(change.forward == .breaks ? "breaks" : "unknown")")
            }
            if change.breaksCloudKit { effects.append("CloudKit: breaks") }
            print(
                "  \(change.path.rightPadded(to: 30)) \(change.description)\(effects.isEmpty ? "" : "  [\(effects.joined(separator: ", "))]")"
            )
        }
        guard from != to else { return }
        do {
            let plan = try Migrator(registry: registry).plan(type: type, from: from, to: to)
            print(
                "migration: \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s"): \(plan.steps.map(\.label).joined(separator: ", "))"
            )
        } catch let error as LarderError {
            print("migration: \(error.message)")
        }
    }
}

struct SchemaValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the registry, and a store's applied steps against it (checksums).",
        discussion: """
            Fails (exit 1) when a step applied to the store has changed since (naming the manifest \
            and both checksums), is no longer in the registry, failed and was not cleared, or when \
            the store is newer than the registry. Without a store at --store, checks the registry only.
            """
    )

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let migrator = try schemaOptions.migrator()
        let registry = migrator.registry
        var problems = registry.consistencyProblems(converters: migrator.converters, stages: migrator.stages)
        for type in registry.manifest.types {
            for version in type.versions {
                if let xsd = version.xsd {
                    do {
                        _ = try XSDValidator.validate(
                            path: "/dev/null", xsd: try registry.xsdText(type: type.name, version: version.version),
                            xsdName: registry.source.displayPath(xsd), limit: 1)
                    } catch let error as LarderError where error.code == .schema {
                        problems.append(error.message)
                    } catch {}
                }
            }
        }
        print("registry \(registry.manifest.file): \(problems.isEmpty ? "ok" : "\(problems.count) problem(s)")")
        for problem in problems { print("  error: \(problem)") }
        if FileManager.default.fileExists(atPath: storeOptions.store) {
            let ledger = Ledger(store: try Store(path: storeOptions.store), migrator: migrator)
            let (ledgerProblems, notes) = try ledger.validate()
            let applied = try ledger.store.history().filter { $0.kind == .migration && $0.isSuccess && !$0.isRemoved }
                .count
            print(
                "store \(storeOptions.store): \(applied) applied step(s), \(ledgerProblems.isEmpty ? "all match the registry" : "\(ledgerProblems.count) problem(s)")"
            )
            for problem in ledgerProblems { print("  error: \(problem)") }
            for note in notes { print("  note: \(note)") }
            problems += ledgerProblems.map(\.message)
        } else {
            print("no store at \(storeOptions.store): checked the registry only")
        }
        if !problems.isEmpty { throw DataErrorsExit() }
    }
}

struct SchemaRepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract:
            "Realign a store's history with the registry: clear failed steps, accept changed checksums, mark removed steps."
    )

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let ledger = Ledger(store: try Store(path: storeOptions.store), migrator: try schemaOptions.migrator())
        let actions = try ledger.repair()
        if actions.isEmpty { print("\(storeOptions.store): nothing to repair") }
        for action in actions { print("repaired: \(action)") }
    }
}

struct SchemaBaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Adopt a store's unversioned records of a type at a schema version.",
        discussion: "Every record must validate against that version; later migrations start from it.")

    @Option(name: .long, help: "The version the records are at.")
    var version: Int

    @Option(name: .long, help: "The record type (default: the only unversioned type in the store).")
    var type: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let ledger = Ledger(store: try Store(path: storeOptions.store), migrator: try schemaOptions.migrator())
        let name: String
        if let type {
            name = type
        } else {
            let versioned = Set(try ledger.store.schemaStates().filter { $0.version != nil }.map(\.type))
            let candidates = try ledger.types().filter { !versioned.contains($0) }
            guard candidates.count == 1, let only = candidates.first else {
                throw ValidationError(
                    "pass --type (unversioned types in the store: \(candidates.isEmpty ? "none" : candidates.joined(separator: ", ")))"
                )
            }
            name = only
        }
        let count = try ledger.baseline(type: name, version: version)
        print("\(storeOptions.store): \(count) \(name) record\(count == 1 ? "" : "s") adopted at v\(version)")
    }
}
