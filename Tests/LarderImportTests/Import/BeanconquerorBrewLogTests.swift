import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// Every brew log people have (issue 29 part 3): unrated and unweighed brews and long notes import
/// as brewLog v4, and the method comes from Beanconqueror's preparation types and names.
@Suite struct BeanconquerorBrewLogTests {
    /// A backup of one preparation of `type` named `name`, with the given brews (JSON objects).
    private func backup(type: String, name: String, brews: [String]) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "Beanconqueror.json",
            """
            {"BEANS": [{"name": "Kochere", "roaster": "Sample", "config": {"uuid": "bean-1"}}],
             "PREPARATION": [{"name": "\(name)", "type": "\(type)", "config": {"uuid": "prep-1"}}],
             "MILL": [], "SETTINGS": [{"brew_rating": 5}],
             "BREWS": [\(brews.joined(separator: ","))]}
            """)
        return (dir, path)
    }

    private func parse(_ json: String) throws -> Value {
        try #require(try JSONReader(source: MemoryByteSource(json, name: "brew.json")).next()).value
    }

    private func brew(
        _ id: String, rating: Double = 0, dose: Double = 0, water: Double = 0, beverage: Double = 0,
        time: Int = 0, bloom: Int = 0, note: String = ""
    ) -> String {
        """
        {"config": {"uuid": "\(id)", "unix_timestamp": 1731445292}, "method_of_preparation": "prep-1",
         "bean": "bean-1", "rating": \(rating), "grind_weight": \(dose), "brew_quantity": \(water),
         "brew_beverage_quantity": \(beverage), "brew_time": \(time), "coffee_blooming_time": \(bloom),
         "note": "\(note)", "mill_speed": 0}
        """
    }

    @Test("an unrated, unweighed brew with a long note is a brew log, not a reject; 0 is dropped as 'not recorded'")
    func unratedUnweighedLongNote() throws {
        let long = String(repeating: "Fruity, bright, a little thin. ", count: 20)
        let (dir, path) = try backup(
            type: "V60", name: "V60", brews: [brew("a"), brew("b", rating: 4, dose: 15, water: 250, note: long)])
        _ = dir
        let sink = ImportCollector()
        try BeanconquerorImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.brewLogs.count == 2)
        let unrated = try #require(sink.brewLogs.first)
        #expect(unrated.rating == nil && unrated.doseGrams == nil && unrated.targetYieldGrams == nil)
        #expect(unrated.validate().isEmpty)
        #expect(unrated.value["rating"] == nil && unrated.value["doseGrams"] == nil)
        let rated = sink.brewLogs[1]
        #expect(rated.rating == 4 && rated.doseGrams == 15 && rated.targetYieldGrams == 250)
        #expect(rated.note == long.trimmingCharacters(in: .whitespaces) && long.count > 280)
        #expect(rated.validate().isEmpty)
        // The census names why each 0 left nothing, and keeps what it has no field for.
        let census = BeanconquerorImporter.census(of: try parse(brew("a")), log: unrated)
        #expect(census.fate(of: "rating") == .dropped("0: not recorded (Beanconqueror writes 0 for \"none\")"))
        #expect(census.fate(of: "grind_weight") == census.fate(of: "rating"))
        #expect(census.fate(of: "mill_speed") == .extras)
        // BrewGuide would refuse both, and says why.
        #expect(
            RecordRules.brewGuide.check(unrated).map(\.location.fieldPath) == [
                "rating", "doseGrams", "targetYieldGrams",
            ])
        let refusal = try #require(RecordRules.brewGuide.refusal(of: rated))
        #expect(refusal.location?.fieldPath == "note")
        #expect(refusal.message.contains("a note of \(rated.note?.count ?? 0) characters, and it keeps at most 280"))
    }

    @Test(
        "the method comes from the preparation's type, and for the user's own from its name",
        arguments: [
            ("AEROPRESS", "Aeropress", BrewMethod.aeropress), ("AEROPRESS_INVERTED", "Inverted", .aeropress),
            ("XENIA", "Xenia", .espresso), ("PORTAFILTER", "Siebträger", .espresso), ("SANREMO_YOU", "You", .espresso),
            ("HARIO_SWITCH", "Switch", .clever), ("BIALETTI", "Moka", .mokaPot), ("COLD_DRIP", "Dripster", .coldBrew),
            ("KALITA_WAVE", "Wave 185", .kalitaWave), ("DELTER_PRESS", "Delter", .other),
            ("CUSTOM_PREPARATION", "My AeroPress Go", .aeropress),
            ("CUSTOM_PREPARATION", "Gaggia Classic espresso", .espresso),
            ("CUSTOM_PREPARATION", "Grandma's pot", .other),
        ])
    func methodFromPreparation(type: String, name: String, method: BrewMethod) {
        #expect(BeanconquerorPreparation.method(type: type, name: name) == method)
    }

    @Test("an espresso machine's recipe is a shot pulled, dose in and beverage out; an AeroPress's a steep")
    func recipeStepsByMethod() throws {
        let (dir, path) = try backup(
            type: "XENIA", name: "Xenia",
            brews: [brew("s", rating: 5, dose: 18, water: 0, beverage: 36, time: 28, bloom: 5)])
        _ = dir
        let sink = ImportCollector()
        try BeanconquerorImporter().importItems(at: path, context: sink.context)
        let log = try #require(sink.brewLogs.first)
        #expect(log.method == .espresso && log.targetYieldGrams == 36)
        let recipe = try #require(sink.brewRecipes.first)
        #expect(recipe.method == .espresso)
        #expect(
            recipe.steps.map(\.instruction) == ["Pre-infuse", "Pull the shot: 18 g of coffee in, 36 g out in 28 s"])
        #expect(!recipe.steps.contains { $0.instruction.contains("Pour") })
        #expect(recipe.validate().isEmpty, "\(recipe.validate())")

        let (dir2, aeropress) = try backup(
            type: "AEROPRESS", name: "Aeropress", brews: [brew("p", rating: 3, dose: 15, water: 230, time: 120)])
        _ = dir2
        let sink2 = ImportCollector()
        try BeanconquerorImporter().importItems(at: aeropress, context: sink2.context)
        let steep = try #require(sink2.brewRecipes.first)
        #expect(steep.method == .aeropress)
        #expect(steep.steps.map(\.instruction) == ["Add 230 g of water and steep"])
        #expect(steep.validate().isEmpty)
    }

    @Test(
        "the app's own 2,000-brew test backup imports every brew",
        .enabled(
            if: Corpus.has("exports/beanconqueror"), "needs ../shared/corpus/exports/beanconqueror (or LARDER_CORPUS)"))
    func realTestBackup() throws {
        let sink = ImportCollector()
        try BeanconquerorImporter().importItems(
            at: Corpus.path("exports/beanconqueror/BeanconquerorTestData-2024.json"), context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.prefix(3).map(\.0.description))")
        #expect(sink.brewLogs.count == 2000)
        #expect(sink.brewLogs.allSatisfy { $0.validate().isEmpty && $0.method == .aeropress })
        #expect(sink.brewLogs.allSatisfy { !RecordRules.brewGuide.check($0).isEmpty })
    }
}
