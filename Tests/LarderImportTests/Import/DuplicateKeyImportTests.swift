import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// A JSON-LD page that repeats a key (issue 29 part 4): import keeps the recipe, reads the last
/// value as browsers and JSON-LD processors do, keeps the earlier one in extras and warns;
/// convert and validate stay strict.
@Suite struct DuplicateKeyImportTests {
    private let page = """
        {"@context": "https://schema.org", "@type": "Recipe", "name": "Lemon Bars",
         "description": "Old text.", "recipeIngredient": ["1 lemon"],
         "description": "Tangy lemon bars.", "recipeInstructions": "Mix.\\nBake."}
        """

    @Test("lenient reading: the last value is the key's, the earlier one stays beside it, with a warning")
    func lenientKeepsBoth() throws {
        let reader = JSONReader(source: MemoryByteSource(page, name: "p.json"), lenient: true)
        let value = try #require(try reader.next()).value
        #expect(value["description"] == "Tangy lemon bars.")
        #expect(value["description (earlier value)"] == "Old text.")
        let warning = try #require(reader.warnings.first)
        #expect(warning.code == "duplicate-key" && warning.location.line == 3)
        #expect(warning.message.contains(#"the earlier one is kept as "description (earlier value)""#))
        // Three times, and an alias a later member already has as its own key.
        let odd = #"{"a": 1, "a": 2, "a (earlier value)": "own", "a": 3}"#
        let three = try #require(try JSONReader(source: MemoryByteSource(odd, name: "o"), lenient: true).next()).value
        #expect(three["a"] == 3 && three["a (earlier value)"] == "own")
        #expect(three.objectValue?.count == 4)
        #expect(Set(three.objectValue?.map(\.key) ?? []).count == 4)
    }

    @Test("strict reading (convert, validate) still refuses the repeated key, naming it")
    func strictRefuses() throws {
        let reader = JSONReader(source: MemoryByteSource(page, name: "p.json"))
        let error = try #require(throws: LarderError.self) { try reader.next() }
        #expect(error.message.contains(#"duplicate key "description""#))
        let dir = try TemporaryDirectory()
        let path = try dir.write("r.json", #"[{"id": "r", "title": "T", "title": "U"}]"#)
        let convert = try CLI.run(["convert", path, "--to", "ndjson"])
        #expect(convert.status != 0 && convert.stderr.contains("duplicate key"))
    }

    @Test("import keeps the recipe: the last description, the earlier in extras, a warning naming the line")
    func importKeepsTheRecipe() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("lemon.json", page)
        let sink = ImportCollector()
        try SchemaOrgImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.title == "Lemon Bars" && recipe.description == "Tangy lemon bars.")
        #expect(sink.warnings.contains { $0.contains("line 3") && $0.contains(#"duplicate key "description""#) })
        let kept = recipe.extras["schemaorg"]?["description (earlier value)"]
        #expect(kept == "Old text.", "\(recipe.extras)")
        let cli = try CLI.run(["import", path, "-o", dir.path("out.json")])
        #expect(cli.status == 0 && cli.stderr.contains("1 imported"), "\(cli.stderr)")
    }
}
