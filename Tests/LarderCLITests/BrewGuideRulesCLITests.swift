import Foundation
import LarderCore
import LarderTestSupport
import Testing

/// `larder validate --rules brewguide` and every brew of a real coffee log imported (issue 29 part 3).
@Suite struct BrewGuideRulesCLITests {
    private let logs = """
        {"schema": "brewLog", "version": 4, "records": [
          {"id": "ok", "recipeNameAtBrew": "V60", "doseGrams": 15, "targetYieldGrams": 250, "rating": 4,
           "createdAt": "2026-01-02T03:04:05Z"},
          {"id": "unrated", "recipeNameAtBrew": "Aeropress", "createdAt": "2026-01-02T03:04:05Z"}
        ]}
        """

    @Test("brewLog v4 holds an unrated, unweighed log; --rules brewguide names it, and why, and exits 1")
    func validateWithRules() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("logs.json", logs)
        let plain = try CLI.run(["validate", path])
        #expect(plain.status == 0, "\(plain.stderr)")
        let strict = try CLI.run(["validate", path, "--rules", "brewguide"])
        #expect(strict.status == 1)
        #expect(
            strict.stderr.contains("record 1: rating: BrewGuide would refuse it: unrated, and it needs a rating of 1-5")
        )
        #expect(strict.stderr.contains("also doseGrams: no dose"))
        #expect(!strict.stderr.contains("record 0"))
        #expect(strict.stderr.contains("2 records: 1 valid, 1 invalid (with BrewGuide's rules)"))
        let bad = try CLI.run(["validate", path, "--rules", "brewgide"])
        #expect(bad.status == 2)
    }

    @Test("the XML of the same logs: valid against the v4 XSD, and BrewGuide's rules still apply")
    func validateXMLWithRules() throws {
        let dir = try TemporaryDirectory()
        let json = try dir.write("logs.json", logs)
        let xml = dir.path("logs.xml")
        #expect(try CLI.run(["convert", json, "--to", "xml", "-o", xml]).status == 0)
        #expect(try CLI.run(["validate", xml]).status == 0)
        let strict = try CLI.run(["validate", xml, "--rules", "brewguide"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("1 that BrewGuide would refuse"), "\(strict.stderr)")
    }

    @Test(
        "larder import takes all 2,000 brews of Beanconqueror's own test backup",
        .enabled(
            if: Corpus.has("exports/beanconqueror"), "needs ../shared/corpus/exports/beanconqueror (or LARDER_CORPUS)"))
    func importRealBackup() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("logs.json")
        let result = try CLI.run([
            "import", Corpus.path("exports/beanconqueror/BeanconquerorTestData-2024.json"), "-o", out,
        ])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(result.stderr.contains("2000 imported, 0 rejected"))
        #expect(try CLI.run(["validate", dir.path("logs.brewLog.json")]).status == 0)
    }
}
