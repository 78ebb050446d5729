import Foundation
import LarderTestSupport
import Testing

@Suite struct RegistryCLITests {
    private func sample(_ name: String) -> String { CLI.packageRoot.appendingPathComponent(name).path }

    @Test("schema list works from any directory, and from a copied binary (the registry is built in)")
    func schemaListAnywhere() throws {
        let directory = try TemporaryDirectory()
        let result = try CLI.run(["schema", "list"], in: directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("recipe  (compatibility NONE, newest v4)") && result.stdout.contains("brewLog"))
        let copy = directory.path("larder-copy")
        try FileManager.default.copyItem(atPath: CLI.executable.path, toPath: copy)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: copy)
        process.arguments = ["schema", "show", "recipe", "1"]
        process.currentDirectoryURL = directory.url
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && output.contains("\"authorID\""))
    }

    @Test("migrate --dry-run prints the plan and writes nothing")
    func dryRun() throws {
        let directory = try TemporaryDirectory()
        let result = try CLI.run(
            [
                "migrate", sample("samples/v1/recipes-v1.json"), "--to", "3", "--dry-run", "-o",
                directory.path("out.json"),
            ], in: directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("recipe-1-2-owner") && result.stdout.contains("[24 touched]"))
        #expect(result.stdout.contains("e.g. difficulty: \"Easy\" → \"easy\""))
        #expect(result.stdout.contains("validation against recipe v3: 24 valid, 0 rejected"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("migrate writes the input's format with the target version declared, and images beside it")
    func migrateFile() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("recipes-v3.json")
        let result = try CLI.run(["migrate", sample("samples/v1/recipes-v1.json"), "--to", "3", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("24 records: 24 written, 0 rejected") && result.stderr.contains("6 image(s)"))
        let text = try directory.read("recipes-v3.json")
        #expect(text.hasPrefix(#"{"schema":"recipe","version":3,"records":["#))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("images")).count == 6)
        let validate = try CLI.run(["validate", output])
        #expect(validate.status == 0 && validate.stderr.contains("24 valid, 0 invalid"), "\(validate.stderr)")
        // And back down to v2: the images stay referenced.
        let down = try CLI.run([
            "migrate", output, "--to", "2", "--format", "ndjson", "-o", directory.path("v2.ndjson"),
        ])
        #expect(down.status == 0, "\(down.stderr)")
        #expect(try directory.read("v2.ndjson").split(separator: "\n").count == 24)
    }

    @Test("a record that cannot be migrated stops the run with no output, or goes to the rejects with --keep-going")
    func badRecord() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(
            "bad.json",
            #"{"schema": "brewLog", "version": 1, "records": [{"id": "a", "recipeNameAtBrew": "X", "doseGrams": 15, "targetYieldGrams": 250, "rating": 4, "tasteTag": "sweet", "createdAt": "2024-01-01T00:00:00Z"}, {"id": "b", "recipeNameAtBrew": "Y", "doseGrams": 15, "targetYieldGrams": 250, "rating": 9, "createdAt": "2024-01-01T00:00:00Z"}]}"#
        )
        let stop = try CLI.run(["migrate", input, "-o", directory.path("out.json")])
        #expect(stop.status == 1)
        #expect(
            stop.stderr.contains("record 1: rating: 9 is greater than the maximum 5 (brewLog v4 at /rating)"),
            "\(stop.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.json")))
        let going = try CLI.run([
            "migrate", input, "-o", directory.path("out.json"), "--keep-going", "--rejects",
            directory.path("rejects.ndjson"),
        ])
        #expect(going.status == 1 && going.stderr.contains("2 records: 1 written, 1 rejected"))
        #expect(try directory.read("rejects.ndjson").contains("\"pointer\":\"/rating\""))
        #expect(try directory.read("out.json").contains("\"tasteTags\":[\"sweet\"]"))
    }

    @Test("store import, migrate, schema validate and repair from the command line")
    func storeFlow() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("larder.db")
        let imported = try CLI.run([
            "store", "import", sample("samples/v1/recipes-v1.json"), sample("samples/v1/brew-logs-v1.json"), "--store",
            store,
        ])
        #expect(imported.status == 0 && imported.stderr.contains("44 records imported"), "\(imported.stderr)")
        let dry = try CLI.run(["migrate", "--store", store, "--dry-run"])
        #expect(
            dry.status == 0 && dry.stdout.contains("brewLog-1-2-taste-tags") && dry.stdout.contains("nothing written"),
            "\(dry.stderr)")
        let migrated = try CLI.run(["migrate", "--store", store])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(
            migrated.stderr.contains("recipe in \(store) is at v4")
                && migrated.stderr.contains("brewLog in \(store) is at v4"))
        let validated = try CLI.run(["schema", "validate", "--store", store])
        #expect(
            validated.status == 0 && validated.stdout.contains("47 applied step(s), all match the registry"),
            "\(validated.stdout)")
        let again = try CLI.run(["migrate", "--store", store, "--type", "recipe"])
        #expect(again.status == 0 && again.stderr.contains("nothing to do"))
        let down = try CLI.run(["migrate", "--store", store, "--type", "brewLog", "--to", "1"])
        #expect(
            down.status == 1 && down.stderr.contains("step brewLog-1-2-taste-tags") && down.stderr.contains("lossy"),
            "\(down.stderr)")
        let repaired = try CLI.run(["schema", "repair", "--store", store])
        #expect(repaired.status == 0 && repaired.stdout.contains("nothing to repair"))
    }

    @Test("schema check exits 1 when a pair breaks the mode, and says where; diff lists the changes")
    func checkAndDiff() throws {
        let own = try CLI.run(["schema", "check"])
        #expect(own.status == 0, "\(own.stdout)\(own.stderr)")
        let backward = try CLI.run(["schema", "check", "recipe", "--mode", "backward"])
        #expect(backward.status == 1)
        #expect(
            backward.stdout.contains("v1 → v2: incompatible")
                && backward.stdout.contains("/authorID: renamed to /ownerID"))
        let diff = try CLI.run(["schema", "diff", "recipe", "1", "3"])
        #expect(diff.status == 0 && diff.stdout.contains("/syncStatus") && diff.stdout.contains("migration: 14 steps"))
    }

    @Test("validate finds the newest version that accepts an undeclared file and says so")
    func validateDetects() throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write(
            "logs.ndjson",
            #"{"id": "a", "recipeNameAtBrew": "X", "doseGrams": 15, "targetYieldGrams": 250, "rating": 4, "tasteTag": "sweet", "createdAt": "2024-01-01T00:00:00Z"}"#
                + "\n")
        let result = try CLI.run(["validate", input, "--type", "brewLog"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "no version declared: 1 record validate as brewLog v1 (the newest version that fits)"))
    }
}
