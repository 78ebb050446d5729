import Foundation
import LarderCore
import LarderTestSupport
import Testing

@Suite struct ModelTests {
    @Test("a recipe survives encoding to a value and back")
    func recipeRoundTrips() throws {
        let recipe = Recipe.make()
        #expect(try Recipe(value: recipe.value) == recipe)
    }

    @Test("the V60 starter recipe is valid")
    func starterIsValid() {
        #expect(BrewRecipe.v60Starter().validate().isEmpty)
    }

    @Test(
        "brew recipe rules from seed 002",
        arguments: [
            ("name", "name must not be empty"),
            ("doseGrams", "dose must be greater than 0, found 0.0"),
            ("steps", "water additions sum to 250 g, expected the target yield 240 g (±1 g)"),
        ])
    func brewRecipeRules(path: String, message: String) {
        var recipe = BrewRecipe.v60Starter()
        switch path {
        case "name": recipe.name = "  "
        case "doseGrams": recipe.doseGrams = 0
        default: recipe.targetYieldGrams = 240
        }
        let diagnostics = recipe.validate()
        #expect(diagnostics.map(\.message) == [message])
        #expect(diagnostics.first?.location.fieldPath?.description == path)
    }

    @Test("brew log rules: v4's own, and seed 002's as BrewGuide's rules")
    func brewLogRules() {
        #expect(BrewLog.make().validate().isEmpty)
        #expect(BrewLog.make(rating: 6).validate().map(\.message) == ["rating must be 1-5, found 6"])
        // A long note is a brewLog v4; BrewGuide keeps 280 characters at most.
        let long = BrewLog.make(note: String(repeating: "a", count: 281))
        #expect(long.validate().isEmpty)
        #expect(RecordRules.brewGuide.check(long).map(\.location.fieldPath) == ["note"])
        #expect(RecordRules.brewGuide.check(BrewLog.make(note: String(repeating: "a", count: 280))).isEmpty)
        #expect(RecordRules.brewGuide.check(BrewLog.make(rating: 6)).map(\.message) == ["rated 6, and it needs 1-5"])
        #expect(RecordRules.brewGuide.check(BrewLog.make(doseGrams: 0)).map(\.location.fieldPath) == ["doseGrams"])
    }

    @Test("a type mismatch names the field path")
    func typeMismatchNamesPath() throws {
        var value = BrewRecipe.v60Starter().value
        if case .object(var fields) = value, case .array(var steps)? = fields["steps"],
            case .object(var step) = steps[2]
        {
            step["timerSeconds"] = "5 min"
            steps[2] = .object(step)
            fields["steps"] = .array(steps)
            value = .object(fields)
        }
        let error = try #require(throws: LarderError.self) { try BrewRecipe(value: value) }
        #expect(error.description == "error: steps[2].timerSeconds: expected an integer, found \"5 min\"")
    }

    @Test("timestamps parse and format losslessly to the millisecond")
    func timestamps() {
        #expect(Timestamp.parse("2024-01-01T10:00:00Z").map(Timestamp.format) == "2024-01-01T10:00:00Z")
        #expect(Timestamp.parse("2024-02-29T23:59:59.250+01:00").map(Timestamp.format) == "2024-02-29T22:59:59.250Z")
        #expect(Timestamp.parse("2023-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("2024-01-01") == nil)
    }
}
