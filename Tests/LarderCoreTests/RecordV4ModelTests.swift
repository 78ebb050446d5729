import Foundation
import LarderCore
import LarderTestSupport
import Testing

@Suite struct RecordV4ModelTests {
    @Test("a fully populated v4 recipe survives encoding to a value and back")
    func fullRecipeRoundTrips() throws {
        let recipe = Recipe.makeFull()
        #expect(recipe.validate().isEmpty, "\(recipe.validate())")
        #expect(try Recipe(value: recipe.value) == recipe)
        let value = recipe.value
        #expect(value["cuisines"] == ["Thai", "Street food"] && value["cuisine"] == nil, "v4 writes cuisines only")
        #expect(value["ingredients"]?.arrayValue?.first?["group"] == "Noodles")
        #expect(value["instructions"]?.arrayValue?[1]["name"] == "Sauce")
        #expect(value["extras"]?["paprika"]?["hash"] == "e3b0c44298fc")
        #expect(value["rating"] == ["value": 4.5, "scale": 5.0, "count": 210])
    }

    @Test("v3's cuisine reads as a one-element cuisines, and the cuisine property is the first cuisine")
    func cuisineBecomesCuisines() throws {
        var fields = Recipe.make().value.objectValue ?? Fields()
        fields.removeValue(forKey: "cuisines")
        fields["cuisine"] = "Italian"
        let recipe = try Recipe(value: .object(fields))
        #expect(recipe.cuisines == ["Italian"] && recipe.cuisine == "Italian")
        fields["cuisines"] = ["Thai", "Lao"]
        let both = try Recipe(value: .object(fields))
        #expect(both.cuisines == ["Thai", "Lao"], "cuisines wins over the deprecated cuisine")
        var edited = both
        edited.cuisine = "Isan"
        #expect(edited.cuisines == ["Isan", "Lao"])
        edited.cuisine = nil
        #expect(edited.cuisines.isEmpty)
    }

    @Test("empty v4 members are written the way v3 wrote its lists: lists always, objects only when present")
    func emptyMembers() throws {
        let value = Recipe.make().value
        for key in ["notes", "categories", "courses", "cuisines", "tools", "images", "reviews"] {
            #expect(value[key]?.arrayValue != nil, "\(key)")
        }
        for key in ["description", "nutrition", "yield", "totalTime", "author", "rating", "extras", "language"] {
            #expect(value[key] == nil, "\(key)")
        }
        #expect(value["instructions"]?.arrayValue?.first?["images"] == nil, "step images only when there are some")
    }

    @Test(
        "v4 rules name the field",
        arguments: [
            ("rating.value", "rating must be between 0 and its scale 5.0, found 7.0"),
            ("images", "at most one image may be primary, found 2"),
            ("extras.paprika", "extras.paprika must be an object of the source's fields, found a string"),
            ("totalTime", "totalTime must not be negative, found -1"),
        ])
    func recipeRules(path: String, message: String) {
        var recipe = Recipe.makeFull()
        switch path {
        case "rating.value": recipe.rating = RecipeRating(score: 7, scale: 5)
        case "images": recipe.images = [RecipeImage(ref: "a", isPrimary: true), RecipeImage(url: "b", isPrimary: true)]
        case "extras.paprika": recipe.extras["paprika"] = "loose text"
        default: recipe.totalTime = -1
        }
        let diagnostics = recipe.validate()
        #expect(diagnostics.map(\.message) == [message])
        #expect(diagnostics.first?.location.fieldPath?.description == path)
    }

    @Test("a malformed v4 member names its path")
    func malformedMember() throws {
        var fields = Recipe.makeFull().value.objectValue ?? Fields()
        fields["nutrition"] = ["calories": 240]
        let error = try #require(throws: LarderError.self) { try Recipe(value: .object(fields)) }
        #expect(error.description == "error: nutrition.calories: expected a string, found 240")
        fields["nutrition"] = nil
        fields["extras"] = "not an object"
        let extras = try #require(throws: LarderError.self) { try Recipe(value: .object(fields)) }
        #expect(extras.location?.fieldPath == "extras")
    }

    @Test("a fully populated v3 brew log and v2 brew recipe survive encoding, and seed 002's rules still hold")
    func brewRecordsRoundTrip() throws {
        let log = BrewLog.makeFull()
        #expect(log.validate().isEmpty, "\(log.validate())")
        #expect(try BrewLog(value: log.value) == log)
        let recipe = BrewRecipe.makeFull()
        #expect(recipe.validate().isEmpty, "\(recipe.validate())")
        #expect(try BrewRecipe(value: recipe.value) == recipe)
        var bad = log
        bad.rating = 0
        bad.tds = 140
        #expect(
            bad.validate().map(\.message) == [
                "rating must be 1-5, found 0", "TDS must be a percentage (0-100), found 140.0",
            ])
        var badRecipe = recipe
        badRecipe.targetYieldGrams = 240
        #expect(badRecipe.validate().first?.location.fieldPath == "steps", "water additions still sum to the target")
    }

    @Test("a recipe's rating object does not make it a brew log; a brew log's number still does")
    func guessesTypeWithRating() {
        #expect(RecordType.guess(from: Recipe.makeFull().value) == .recipe)
        #expect(RecordType.guess(from: BrewLog.makeFull().value) == .brewLog)
        #expect(RecordType.guess(from: ["id": "x", "rating": 4]) == .brewLog)
        #expect(RecordType.recipe.currentVersion == 4 && RecordType.brewLog.currentVersion == 4)
        #expect(RecordType.brewRecipe.currentVersion == 2)
    }
}
