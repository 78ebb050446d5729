import Foundation
import LarderTestSupport
import Testing

/// Errors that say what to do (issue 31, part 2): a mistyped command line names the fix.
@Suite struct UsageHintCLITests {
    static let recipes = CLI.packageRoot.appendingPathComponent("samples/recipes.json").path

    @Test("a mistyped command: unknown command 'conver'; did you mean 'convert'?")
    func mistypedCommand() throws {
        let result = try CLI.run(["conver", Self.recipes, "--to", "yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown command 'conver'; did you mean 'convert'?"), "\(result.stderr)")
        #expect(!result.stderr.contains("Unknown option '--to'"))
        let nested = try CLI.run(["store", "exprt"])
        #expect(nested.status == 2 && nested.stderr.contains("did you mean 'export'?"), "\(nested.stderr)")
        let far = try CLI.run(["frobnicate"])
        #expect(far.status == 2 && far.stderr.contains("unknown command 'frobnicate'"), "\(far.stderr)")
    }

    @Test("convert --format yaml and -t yaml name --to; a near miss gets a did-you-mean")
    func otherToolsSpellings() throws {
        for spelling in ["--format", "-t"] {
            let result = try CLI.run(["convert", Self.recipes, spelling, "yaml"])
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("unknown option '\(spelling)'; this command names it --to"), "\(result.stderr)")
        }
        let near = try CLI.run(["convert", Self.recipes, "--tto", "yaml"])
        #expect(near.stderr.contains("did you mean '--to'?"), "\(near.stderr)")
    }

    @Test("import --to html points to export; --to yml is taken as yq takes it")
    func formatsOfOtherCommands() throws {
        let directory = try TemporaryDirectory()
        let html = try CLI.run(["import", Self.recipes, "--to", "html", "-o", directory.path("out.html")])
        #expect(html.status == 2)
        #expect(html.stderr.contains("larder export --to html"), "\(html.stderr)")
        let yml = try CLI.run(["convert", Self.recipes, "--to", "yml", "-o", directory.path("out.yml")])
        #expect(yml.status == 0, "\(yml.stderr)")
        #expect(try String(contentsOfFile: directory.path("out.yml"), encoding: .utf8).hasPrefix("schema: recipe"))
    }
}

/// A YAML file indented with a tab says so, with the caret (libyaml said "found character that
/// cannot start any token").
@Suite struct YAMLTabCLITests {
    @Test("a YAML file indented with a tab: 'YAML forbids tabs for indentation; indent with spaces'")
    func tabIndentation() throws {
        let directory = try TemporaryDirectory()
        try Data("- title: Soup\n  ingredients:\n\t- water\n".utf8).write(
            to: URL(fileURLWithPath: directory.path("tab.yaml")))
        let result = try CLI.run(["convert", directory.path("tab.yaml"), "--to", "json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("tab.yaml:3:1"), "\(result.stderr)")
        #expect(result.stderr.contains("YAML forbids tabs for indentation; indent with spaces"), "\(result.stderr)")
        #expect(result.stderr.contains("\t- water\n^"))
    }
}

/// Another app's export given to convert says which app, and that `larder import` reads it.
@Suite struct AppExportHintCLITests {
    @Test("a Gourmet XML (.grmt) given to import says what it is and what Larder reads of Gourmet")
    func gourmetXML() throws {
        let directory = try TemporaryDirectory()
        let grmt =
            #"<?xml version="1.0"?><gourmetDoc><recipe id="1"><title>Soup</title>"#
            + #"<ingredient-list><ingredient><amount>1</amount><item>water</item></ingredient></ingredient-list>"#
            + "</recipe></gourmetDoc>\n"
        try Data(grmt.utf8).write(to: URL(fileURLWithPath: directory.path("soup.grmt")))
        let result = try CLI.run(["import", directory.path("soup.grmt"), "-o", directory.path("out.json")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Gourmet Recipe Manager's XML export"), "\(result.stderr)")
        #expect(!result.stderr.contains("expected an ingredient line"))
    }

    @Test("a Cookmate backup or a Rezeptsuite XML given to convert points to larder import")
    func appExportToConvert() throws {
        for (sample, app) in [("cookmate-backup.mcb", "Cookmate"), ("rezeptsuite-export.xml", "Rezeptsuite.de")] {
            let path = CLI.packageRoot.appendingPathComponent("samples/import/\(sample)").path
            let result = try CLI.run(["convert", path, "--to", "json"])
            #expect(result.status != 0)
            #expect(
                result.stderr.contains("looks like a \(app) export") && result.stderr.contains("larder import"),
                "\(result.stderr)")
        }
    }
}

/// One vocabulary (issue 31, part 3): formats are --from/--to everywhere, versions --to-version.
@Suite struct FlagVocabularyCLITests {
    static let v1 = CLI.packageRoot.appendingPathComponent("samples/v1/recipes-v1.json").path

    @Test("migrate --to-version N --to FORMAT; the old --to N and --format still work and warn")
    func migrateVocabulary() throws {
        let directory = try TemporaryDirectory()
        let new = try CLI.run(["migrate", Self.v1, "--to-version", "3", "--to", "yaml", "-o", directory.path("a.yaml")])
        #expect(new.status == 0, "\(new.stderr)")
        #expect(!new.stderr.contains("warning"))
        #expect(try String(contentsOfFile: directory.path("a.yaml"), encoding: .utf8).contains("version: 3"))
        let old = try CLI.run(["migrate", Self.v1, "--to", "3", "--format", "yaml", "-o", directory.path("b.yaml")])
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stderr.contains("--to 3 names a version; it is --to-version 3 now"))
        #expect(old.stderr.contains("--format is --to now"))
        #expect(
            try String(contentsOfFile: directory.path("a.yaml"), encoding: .utf8)
                == String(contentsOfFile: directory.path("b.yaml"), encoding: .utf8))
        let wrong = try CLI.run(["migrate", Self.v1, "--to", "v3"])
        #expect(wrong.status == 2 && wrong.stderr.contains("--to-version"), "\(wrong.stderr)")
    }
}

/// Thousands of records refused for one reason print it once, with a count and the first numbers.
@Suite struct GroupedRejectionCLITests {
    @Test(
        "2,000 brews rejected for one reason: one line and a count, not 600 KB of the same line",
        .enabled(
            if: Corpus.has("exports/beanconqueror/BeanconquerorTestData-2024.json"),
            "needs ../shared/corpus/exports/beanconqueror"))
    func groupedReasons() throws {
        let directory = try TemporaryDirectory()
        let result = try CLI.run(
            [
                "import", Corpus.path("exports/beanconqueror/BeanconquerorTestData-2024.json"), "-o",
                directory.path("out.json"), "--keep-going", "--rejects", directory.path("rejects.ndjson"),
            ], in: directory.url)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("rejected:") }
        // Every rejection is still kept in full in the rejects file.
        let kept = try String(contentsOfFile: directory.path("rejects.ndjson"), encoding: .utf8)
            .split(separator: "\n").count
        #expect(lines.count <= 10, "\(lines.count) rejection lines")
        #expect(result.stderr.utf8.count < 20_000, "\(result.stderr.utf8.count) bytes of stderr")
        if kept > 3 {
            #expect(result.stderr.contains("more for the same reason"), "\(result.stderr.prefix(2000))")
        }
    }
}
