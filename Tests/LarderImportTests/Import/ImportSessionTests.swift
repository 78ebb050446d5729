import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct ImportSessionTests {
    @Test("re-running an import gives the same ids and no duplicates")
    func reRunsAreIdempotent() throws {
        let dir = try TemporaryDirectory()
        let inputs = [ImportFixtures.sample("sample.paprikarecipes"), ImportFixtures.sample("overnight-oats.jsonld")]
        let (first, records) = try ImportFixtures.session(inputs, in: dir)
        #expect(first.imported.count == 4)
        let (second, again) = try ImportFixtures.session(inputs, in: dir)
        #expect(second.imported.isEmpty)
        #expect(second.duplicates.count == 4)
        #expect(second.duplicates.allSatisfy { $0.reason == "already in the output (imported earlier)" })
        #expect(again.map { $0["id"] } == records.map { $0["id"] })
        let other = try TemporaryDirectory()
        let (_, fresh) = try ImportFixtures.session(inputs, in: other)
        #expect(fresh.map { $0["id"] } == records.map { $0["id"] })
    }

    @Test("reports the same recipe from two sources as a duplicate by name")
    func detectsContentDuplicates() throws {
        let dir = try TemporaryDirectory()
        let a = try dir.write(
            "a.jsonld",
            #"{"@type":"Recipe","name":"Tea","url":"https://a.example/tea","recipeIngredient":["1 tea bag"],"recipeInstructions":"Steep."}"#
        )
        let b = try dir.write(
            "b.jsonld",
            #"{"@type":"Recipe","name":"Tea","url":"https://b.example/tea","recipeIngredient":["1  tea bag"],"recipeInstructions":"Steep."}"#
        )
        let (report, records) = try ImportFixtures.session([a, b], in: dir)
        #expect(records.count == 1)
        #expect(report.duplicates.map(\.name) == ["Tea"])
        #expect(report.duplicates.first?.reason?.contains("a.jsonld") == true)
    }

    @Test("writes embedded photos beside the output and references them")
    func writesImages() throws {
        let dir = try TemporaryDirectory()
        let (report, records) = try ImportFixtures.session(
            [ImportFixtures.sample("sample.paprikarecipes")], in: dir, output: "recipes.json")
        #expect(report.images == 1)
        let refs = records.compactMap { $0["imageRef"]?.stringValue }
        let ref = try #require(refs.first)
        #expect(ref.hasPrefix("recipes-images/"))
        #expect(FileManager.default.fileExists(atPath: dir.path(ref)))
    }

    @Test("without keep-going the first bad item stops the import and nothing is written")
    func stopsAtFirstBadItem() throws {
        let dir = try TemporaryDirectory()
        let bad = try dir.write("bad.jsonld", #"{"@type":"Recipe","recipeIngredient":["1 egg"]}"#)
        let error = try #require(throws: LarderError.self) {
            _ = try ImportFixtures.session(
                [ImportFixtures.sample("overnight-oats.jsonld"), bad], in: dir, keepGoing: false)
        }
        #expect(error.location?.fieldPath?.description == "name")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.json")))
    }

    @Test("with keep-going bad items go to the rejects file with their entry and field path")
    func writesRejects() throws {
        let dir = try TemporaryDirectory()
        let bad = try dir.write("bad.jsonld", #"{"@type":"Recipe","recipeIngredient":["1 egg"]}"#)
        let (report, records) = try ImportFixtures.session(
            [bad, ImportFixtures.sample("overnight-oats.jsonld")], in: dir)
        #expect(records.count == 1)
        #expect(report.rejected.count == 1)
        let rejects = try dir.read("rejects.ndjson")
        #expect(rejects.contains("\"path\":\"name\""))
        #expect(rejects.contains("bad.jsonld"))
    }

    @Test("splits a Beanconqueror import into one output per record type")
    func splitsBrewOutputs() throws {
        let dir = try TemporaryDirectory()
        let session = try ImportSession(
            options: ImportSession.Options(
                outputPath: dir.path("coffee.json"), keepGoing: true, importedAt: fixtureDate))
        let report = try session.run([(ImportFixtures.sample("Beanconqueror.zip"), nil)])
        #expect(report.outputs.sorted() == [dir.path("coffee.brewLog.json"), dir.path("coffee.brewRecipe.json")])
        let logs = try RecordIO.openReader(path: dir.path("coffee.brewLog.json"))
        var count = 0
        while let item = try logs.next() {
            _ = try BrewLog(value: item.value)
            count += 1
        }
        #expect(count == 5)
        #expect(logs.header?.recordType == .brewLog)
    }
}
