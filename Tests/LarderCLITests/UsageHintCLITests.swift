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
