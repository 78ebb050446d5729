import Foundation
import LarderTestSupport
import Testing

/// Numbers no integer holds, in the files Larder reads and the flags it takes.
///
/// `1e300`, a 400-digit quantity, a duration of `PT99999999999999999999H`, Int64.max minutes:
/// `Int(_:)` from such a double, or a sum or product of such integers, traps (exit by SIGILL, 132
/// from a shell). Each must end in exit 0 or 1 with the value kept as written (the import report
/// names the field) or the record rejected at its field, and a flag past range is a usage error.
@Suite struct OutOfRangeNumberCLITests {
    /// One attack: an input file and what must come of it.
    struct Attack: Sendable, CustomTestStringConvertible {
        var name: String
        var format: String
        var file: String
        var content: String
        var status: Int32
        /// Texts stderr (with `--report`, the field census) must contain.
        var stderr: [String]
        /// Text the output's extras must contain (compact JSON), when the record is imported.
        var extras: String? = nil

        var testDescription: String { name }
    }

    private static func sample(_ name: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("samples/import/\(name)"), encoding: .isoLatin1)
    }

    private static let digits400 = String(repeating: "9", count: 400)

    static let attacks: [Attack] = [
        Attack(
            name: "schema.org: prepTime 1e300, cookTime PT99999999999999999999H, a yield of 1e300, a step timer",
            format: "schemaorg", file: "r.jsonld",
            content: #"{"@type":"Recipe","name":"Huge","recipeYield":["1e300","1e300 loaves"],"prepTime":1e300,"#
                + #""cookTime":"-PT99999999999999999999H","recipeIngredient":["1 egg"],"#
                + #""recipeInstructions":[{"@type":"HowToStep","text":"Wait.","timeRequired":"PT99999999999999999999H"}]}"#,
            status: 0, stderr: ["prepTime: 1 kept in extras", "cookTime: 1 kept in extras"]),
        Attack(
            name: "Mealie: recipeServings 1e300", format: "mealie", file: "mealie.json",
            content:
                #"{"name":"Focaccia","slug":"focaccia","recipeServings":1e300,"recipeIngredient":[{"note":"flour"}]}"#,
            status: 0, stderr: ["recipeServings: 1 kept in extras"]),
        Attack(
            name: "Mealie: recipeServings -1e300 and a totalTime of PT99999999999999999999H", format: "mealie",
            file: "mealie.json",
            content: #"{"name":"Focaccia","slug":"focaccia","recipeServings":-1e300,"#
                + #""totalTime":"PT99999999999999999999H","recipeIngredient":[{"note":"flour"}]}"#,
            status: 0, stderr: ["recipeServings: 1 kept in extras", "totalTime: 1 kept in extras"]),
        Attack(
            name: "Tandoor: servings 1e300 rejects the recipe at servings", format: "tandoor", file: "tandoor.json",
            content: #"{"name":"Dal","working_time":10,"servings":1e300,"steps":[]}"#,
            status: 1, stderr: ["tandoor.json: error: servings: expected a number of servings up to"]),
        Attack(
            name: "Tandoor: working and waiting times of Int64.max do not overflow their sum", format: "tandoor",
            file: "tandoor.json",
            content:
                #"{"name":"Dal","working_time":9223372036854775807,"waiting_time":9223372036854775807,"steps":[]}"#,
            status: 0, stderr: []),
        Attack(
            name: "Crouton: serves and duration 1e300", format: "crouton", file: "Soup.crumb",
            content: #"{"uuid":"11111111-2222-3333-4444-555555555555","name":"Soup","serves":1e300,"#
                + #""duration":1e300,"cookingDuration":-1e300,"steps":[]}"#,
            status: 0, stderr: ["serves: 1 kept in extras", "duration: 1 kept in extras"]),
        Attack(
            name: "plain YAML: prepTime 1e300, totalTime {hours: 1e300}, a step of Int64.max minutes",
            format: "plain", file: "r.yaml",
            content: """
                title: Huge
                prepTime: 1e300
                totalTime: {hours: 1e300}
                ingredients: [1 egg]
                steps:
                  - text: Wait.
                    minutes: 9223372036854775807

                """,
            status: 0, stderr: []),
        Attack(
            name: "Cooklang: a timer of 400 digits of hours", format: "cooklang", file: "r.cook",
            content: ">> title: Huge\n\nAdd @egg{1} and wait ~{\(digits400)%hours}.\n", status: 0, stderr: []),
        Attack(
            name: "plain YAML: .inf and .nan durations and an unknown .inf field are kept in extras as that text",
            format: "plain", file: "r.yaml",
            content: "title: Soup\nprepTime: .inf\ncookTime: .nan\nweird: -.inf\nsteps: [Cook it.]\n",
            status: 0, stderr: ["prepTime: 1 kept in extras", "cookTime: 1 kept in extras", "weird: 1 kept in extras"],
            extras: #""plain":{"prepTime":".inf","cookTime":".nan","weird":"-.inf"}"#),
        Attack(
            name: "ORF: an unknown .inf field is kept in extras as that text", format: "orf", file: "r.yaml",
            content: "recipe_name: Soup\nweird_number: .inf\ningredients:\n  - onion:\n      amounts:\n"
                + "        - amount: 1\n          unit: each\nsteps:\n  - step: Cook it.\n",
            status: 0, stderr: ["weird_number: 1 kept in extras"], extras: #""orf":{"weird_number":".inf"}"#),
        Attack(
            name: "ORF: yields of .inf servings are kept in extras, not read as 0 servings", format: "orf",
            file: "r.yaml",
            content: "recipe_name: Soup\nyields:\n  - servings: .inf\nsteps:\n  - step: Cook it.\n",
            status: 0, stderr: ["yields: 1 kept in extras"], extras: #""orf":{"yields":[{"servings":".inf"}]}"#),
    ]

    @Test(
        "a number past Int's range imports without it, named in the report, or rejects at its field", arguments: attacks
    )
    func importsOrRejectsAtTheField(_ attack: Attack) throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write(attack.file, attack.content)
        let result = try CLI.run([
            "import", input, "--from", attack.format, "-o", dir.path("out.json"), "--report", dir.path("report.json"),
        ])
        #expect(result.status == attack.status, "\(result.stderr)")
        for text in attack.stderr { #expect(result.stderr.contains(text), "\(result.stderr)") }
        if let extras = attack.extras {
            let output = try String(contentsOfFile: dir.path("out.json"), encoding: .utf8)
            let compact = output.filter { !$0.isWhitespace }
            #expect(compact.contains(extras.filter { !$0.isWhitespace }), "\(output)")
        }
    }

    @Test(
        "a RecipeML time of 400 digits imports without it",
        arguments: [
            ("recipeml", "cafe-scones.xml", "<qty>15</qty>", "<qty>\(digits400)</qty>")
        ])
    func editedSampleImports(format: String, name: String, original: String, replacement: String) throws {
        let dir = try TemporaryDirectory()
        let text = try Self.sample(name)
        #expect(text.contains(original))
        let input = try dir.write(name, text.replacingOccurrences(of: original, with: replacement))
        let result = try CLI.run(["import", input, "--from", format, "-o", dir.path("out.json")])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("migrating a step whose text holds a duration past Int's range leaves no timer and keeps the text")
    func migrationDurationPastIntRange() throws {
        let dir = try TemporaryDirectory()
        let source = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("samples/v1/recipes-v1.json"), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(source.utf8)) as? [String: Any])
        var records = try #require(object["records"] as? [[String: Any]])
        var record = records[0]
        record["instructions"] = ["Bake for 99999999999999999999 hours.", "Rest 3 minutes."]
        records = [record]
        var edited = object
        edited["records"] = records
        let input = try dir.write(
            "v1.json", String(decoding: try JSONSerialization.data(withJSONObject: edited), as: UTF8.self))
        let result = try CLI.run(["migrate", input, "--to", "3", "-o", dir.path("out.json")])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try dir.read("out.json")
        #expect(output.contains("99999999999999999999 hours"))
        #expect(output.contains("\"timerSeconds\":180"), "\(output)")
    }

    @Test(
        "exporting a recipe with Int.max minutes and timers and a yield and quantity of 1e300 writes every format",
        arguments: ["schemaorg", "paprika", "recipeml", "mealie", "tandoor", "nextcloud", "mealmaster", "html"])
    func exportPastIntRange(_ format: String) throws {
        let dir = try TemporaryDirectory()
        let source = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("samples/recipes.json"), encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(source.utf8)) as? [String: Any])
        var record = try #require((object["records"] as? [[String: Any]])?.first)
        var ingredients = try #require(record["ingredients"] as? [[String: Any]])
        ingredients[0]["quantity"] = 1e300
        var steps = try #require(record["instructions"] as? [[String: Any]])
        steps[0]["timerSeconds"] = Int64.max
        record["ingredients"] = ingredients
        record["instructions"] = steps
        record["prepTime"] = Int64.max
        record["cookTime"] = Int64.max
        record["servings"] = nil
        record["yield"] = ["quantity": 1e300, "unit": "loaves", "text": "1e300 loaves"]
        var edited = object
        edited["records"] = [record]
        let input = try dir.write(
            "huge.json", String(decoding: try JSONSerialization.data(withJSONObject: edited), as: UTF8.self))
        let result = try CLI.run(["export", input, "--to", format, "-o", dir.path("out-\(format)")])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(
        "a duration flag past what a millisecond count holds is a usage error",
        arguments: [
            ["cache", "prune", "--cache", "c.json", "--ttl", "1e300"],
            ["tombstones", "compact", "--store", "s.db", "--horizon", "1e300d"],
            [
                "upload", "x.json", "--endpoint", "http://127.0.0.1:1", "--container", "iCloud.x", "--api-token", "t",
                "--timeout", "inf",
            ],
            [
                "upload", "x.json", "--endpoint", "http://127.0.0.1:1", "--container", "iCloud.x", "--api-token", "t",
                "--timeout", "1e300",
            ],
        ])
    func durationFlagPastRange(_ arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        let result = try CLI.run(arguments, in: dir.url)
        #expect(result.status == 2, "\(result.stderr)")
    }

    @Test("a cache file whose ttlSeconds is 1e300 prunes nothing as expired instead of trapping")
    func cacheFileTTLPastRange() throws {
        let dir = try TemporaryDirectory()
        let cache = try dir.write(
            "cache.json",
            #"{"fetchedAt":"2024-01-01T00:00:00Z","ttlSeconds":1e300,"records":[{"id":"r-1","fetchedAt":"2024-03-01T08:00:00Z","recipe":{"id":"r-1","title":"T"}}]}"#
        )
        let result = try CLI.run(["cache", "prune", "--cache", cache, "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
