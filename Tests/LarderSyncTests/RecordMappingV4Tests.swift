import Foundation
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderSync

/// The CloudKit mapping carries recipe v4's, brewLog v3's and brewRecipe v2's fields both ways.
extension RecordMappingTests {
    @Test("a fully populated v4 recipe, v3 brew log and v2 brew recipe come back from CloudKit fields unchanged")
    func v4RecordsRoundTrip() throws {
        let recipe = Recipe.makeFull()
        #expect(try Recipe(value: try roundTrip(recipe.value, type: .recipe)) == recipe)
        let log = BrewLog.makeFull()
        #expect(try BrewLog(value: try roundTrip(log.value, type: .brewLog)) == log)
        let brew = BrewRecipe.makeFull()
        #expect(try BrewRecipe(value: try roundTrip(brew.value, type: .brewRecipe)) == brew)
    }

    @Test("nested v4 values travel as JSON text in STRING fields, lists of text as STRING_LIST, no hints needed")
    func v4FieldTypes() throws {
        let fields = try mapping.fields(of: Recipe.makeFull().value, type: .recipe)
        for key in ["notes", "nutrition", "yield", "author", "rating", "images", "extras", "ingredients"] {
            #expect(fields[key]?.type == .string, "\(key)")
        }
        #expect(fields["cuisines"] == .list(elementType: .string, [.string("Thai"), .string("Street food")]))
        #expect(fields["totalTime"] == .int64(45))
        #expect(fields[RecordMapping.hintsField] == nil)
        let empty = try mapping.fields(of: Recipe.make().value, type: .recipe)
        #expect(empty["notes"] == .string("[]") && empty["categories"] == .list(elementType: .string, []))
        #expect(empty[RecordMapping.hintsField] == nil)
        let log = try mapping.fields(of: BrewLog.makeFull().value, type: .brewLog)
        #expect(log["bean"]?.type == .string && log["tds"] == .double(1.38) && log["rating"] == .int64(4))
        #expect(log[RecordMapping.hintsField] == nil)
    }
}
