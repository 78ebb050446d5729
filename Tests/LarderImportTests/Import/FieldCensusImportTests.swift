import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// The change hash Larder's Paprika export writes (SHA-256 of name, ingredients, directions).
private enum PaprikaExporterHash {
    static func of(_ name: String, _ ingredients: String, _ directions: String) -> String {
        SHA256.hash(Array("\(name)\n\(ingredients)\n\(directions)".utf8)).hexString.uppercased()
    }
}

/// Every importer fills every field its format has, keeps the rest verbatim in `extras`, and
/// says so in its field census.
@Suite struct FieldCensusImportTests {
    private static let date = Date(timeIntervalSince1970: 1_700_000_000)
    /// A 1×1 PNG, base64.
    private static let png =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

    private static func parse(_ json: String) throws -> Value {
        try JSONLDBlocks.parse(MemoryByteSource(Array(json.utf8), name: "fixture.json"))
    }

    private static func extras(_ recipe: ImportedRecipe, _ format: ImportFormat) -> Fields {
        recipe.extras[format.rawValue]?.objectValue ?? Fields()
    }

    /// Every non-empty top-level field of `source` has a census entry, every extras entry is the
    /// source value unchanged, and every drop has a reason.
    private static func expectNoSilentDrops(
        _ recipe: ImportedRecipe, source: Fields, format: ImportFormat,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let kept = extras(recipe, format)
        for field in source where !FieldCensus.isEmpty(field.value) {
            guard let fate = recipe.fieldCensus.fate(of: field.key) else {
                Issue.record("\(field.key) has no census entry", sourceLocation: sourceLocation)
                continue
            }
            switch fate {
            case .extras:
                #expect(kept[field.key] == field.value, "extras.\(field.key)", sourceLocation: sourceLocation)
            case .dropped(let reason):
                #expect(!reason.isEmpty, sourceLocation: sourceLocation)
            case .carried:
                break
            }
        }
    }

    @Test("the recipe v4 fields ImportedRecipe gained survive makeRecipe(init(recipe:)) for exporters")
    func newFieldsRoundTrip() throws {
        var recipe = Recipe(id: "rt-0001", title: "Pho", createdAt: Self.date)
        recipe.sourceName = "Hanoi Street Food"
        recipe.cuisines = ["Vietnamese", "Street food"]
        recipe.tools = ["Stock pot"]
        recipe.language = "vi"
        recipe.videoURL = "https://larder.example/pho.mp4"
        recipe.reviews = ["Lan: Like home."]
        recipe.author = RecipeAuthor(name: "Minh", url: "https://larder.example/minh")
        recipe.notes = [RecipeNote(title: "Broth", text: "Skim often."), RecipeNote(text: "Serve with lime.")]
        recipe.rating = RecipeRating(score: 4.5, scale: 5, count: 31)
        recipe.instructions = [
            InstructionStep(text: "Char the onions.", images: [RecipeImage(url: "https://larder.example/onions.jpg")])
        ]
        recipe.extras.append(key: "mealie", value: ["settings": ["locked": true]])
        let back = ImportedRecipe(recipe: recipe).makeRecipe(id: recipe.id, imageRef: nil, importedAt: Self.date)
        #expect(back.sourceName == recipe.sourceName)
        #expect(back.cuisines == recipe.cuisines)
        #expect(back.tools == recipe.tools)
        #expect(back.language == recipe.language)
        #expect(back.videoURL == recipe.videoURL)
        #expect(back.reviews == recipe.reviews)
        #expect(back.author == recipe.author)
        #expect(back.notes == recipe.notes)
        #expect(back.rating == recipe.rating)
        #expect(back.instructions == recipe.instructions)
        #expect(back.extras == recipe.extras)
        #expect(
            ImportedRecipe(recipe: recipe).notes == "Broth\nSkim often.\n\nServe with lime.", "one text for exporters")
    }

    // MARK: Paprika

    @Test("Paprika: every key lands in its Larder field, hash and flags in extras, photos as images")
    func paprikaFields() throws {
        let source = try Self.parse(
            """
            {"uid":"5E0D7C1A-4F1B-4A57-9C2E-7A1D2B3C4D99","name":"Plum Cake","ingredients":"Dough:\\n200 g flour\\n6 plums",
             "directions":"Mix.\\nBake.","servings":"8 slices","rating":4,"difficulty":"Easy","notes":"Best warm.",
             "created":"2024-05-01 10:00:00","image_url":"https://larder.example/plum.jpg","cook_time":"40 min",
             "prep_time":"15 min","total_time":"1 hr 10 min","source":"Grandma's notebook",
             "source_url":"https://larder.example/plum","description":"A summer cake.","nutritional_info":"250 kcal",
             "categories":["Cakes"],"on_favorites":1,"photo_data":"\(Self.png)","photo":"ABC.jpg",
             "photo_hash":"f00d","hash":"c0ffee","photo_large":null,"scale":null,"in_trash":false,
             "on_grocery_list":0,"is_pinned":false,"photos":[{"name":"2","filename":"X.jpg","hash":"ab","data":"\(Self.png)"}]}
            """)
        let imported = try PaprikaImporter.recipe(from: source)
        let recipe = imported.makeRecipe(
            id: "plum", imageRefs: ["img/plum.png", nil, "img/plum-2.png"], importedAt: Self.date)
        #expect(recipe.title == "Plum Cake")
        #expect(recipe.description == "A summer cake.")
        #expect(recipe.notes == [RecipeNote(text: "Best warm.")])
        #expect(recipe.nutrition?.text == "250 kcal")
        #expect(recipe.sourceName == "Grandma's notebook")
        #expect(recipe.sourceURL == "https://larder.example/plum")
        #expect(recipe.yield?.text == "8 slices")
        #expect(recipe.totalTime == 70)
        #expect(recipe.prepTime == 15 && recipe.cookTime == 40)
        #expect(recipe.difficulty == .easy)
        #expect(recipe.rating?.score == 4)
        #expect(recipe.isFavorited)
        #expect(recipe.ingredients.map(\.group) == ["Dough", "Dough"])
        #expect(imported.images.count == 3, "photo_data, photos[0].data and image_url")
        #expect(recipe.images.map(\.url).contains("https://larder.example/plum.jpg"))
        let kept = Self.extras(imported, .paprika)
        #expect(kept["hash"] == .string("c0ffee"))
        #expect(kept["photo_hash"] == .string("f00d"))
        #expect(kept["photo"] == .string("ABC.jpg"))
        #expect(kept["in_trash"] == .bool(false))
        #expect(kept["on_grocery_list"] == .int(0))
        #expect(kept["photo_data"] == nil, "the photo is an image file, not extras")
        #expect(kept["photos"] == .array([["name": "2", "filename": "X.jpg", "hash": "ab"]]))
        #expect(recipe.extras["paprika"]?["hash"] == .string("c0ffee"))
        #expect(imported.fieldCensus.fate(of: "source") == .carried("sourceName"))
        #expect(imported.fieldCensus.fate(of: "hash") == .extras)
        #expect(imported.fieldCensus.fate(of: "photo_data") == .carried("images"))
        #expect(imported.fieldCensus.fate(of: "photo_large") == nil, "null is empty: nothing to lose")
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .paprika)
    }

    @Test("Paprika: a difficulty or rating Larder cannot read is kept in extras, not lost")
    func paprikaUnreadableValues() throws {
        let source = try Self.parse(#"{"name":"Odd","difficulty":"Fiendish","rating":"four","total_time":"a while"}"#)
        let imported = try PaprikaImporter.recipe(from: source)
        #expect(imported.fieldCensus.fate(of: "difficulty") == .extras)
        #expect(imported.fieldCensus.fate(of: "total_time") == .extras)
        #expect(Self.extras(imported, .paprika)["difficulty"] == .string("Fiendish"))
        #expect(Self.extras(imported, .paprika)["rating"] == .string("four"))
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .paprika)
        // What Larder's export writes again from the recipe is dropped, with the reason.
        let exported = try Self.parse(
            #"{"name":"X","ingredients":"1 egg","directions":"Boil.","rating":0,"source":"larder.example","#
                + #""source_url":"https://larder.example/x","hash":"\#(PaprikaExporterHash.of("X", "1 egg", "Boil."))"}"#
        )
        let again = try PaprikaImporter.recipe(from: exported)
        #expect(again.fieldCensus.fate(of: "rating") == .dropped("0 is Paprika's \"not rated\""))
        #expect(again.sourceName == nil)
        guard case .dropped? = again.fieldCensus.fate(of: "source"), case .dropped? = again.fieldCensus.fate(of: "hash")
        else {
            Issue.record("the derived source and hash are dropped with a reason: \(again.fieldCensus)")
            return
        }
        #expect(again.extras.isEmpty)
    }

    // MARK: Mela

    @Test("Mela: text, notes, nutrition, a source name in link, every image; wantToCook in extras")
    func melaFields() throws {
        let source = try Self.parse(
            """
            {"id":"7A0D7C1A-4F1B-4A57-9C2E-7A1D2B3C4D01","title":"Shakshuka","text":"Eggs in sauce.",
             "ingredients":"# Sauce\\n2 tins tomatoes\\n4 eggs","instructions":"# Cook\\nSimmer.\\nCrack eggs.",
             "yield":"2 servings","prepTime":"10 min","cookTime":"20 min","totalTime":"30 min","notes":"Add feta.",
             "nutrition":"400 kcal","link":"Ottolenghi, Plenty","favorite":true,"wantToCook":true,
             "categories":["Brunch"],"date":700000000,"images":["\(Self.png)","\(Self.png)"]}
            """)
        let imported = try MelaImporter.recipe(from: source)
        let recipe = imported.makeRecipe(id: "s", imageRefs: ["a.png", "b.png"], importedAt: Self.date)
        #expect(recipe.description == "Eggs in sauce.")
        #expect(recipe.notes.map(\.text) == ["Add feta."])
        #expect(recipe.nutrition?.text == "400 kcal")
        #expect(recipe.sourceName == "Ottolenghi, Plenty")
        #expect(recipe.sourceURL == nil)
        #expect(recipe.totalTime == nil && recipe.prepTime == 10 && recipe.cookTime == 20, "30 = prep + cook")
        #expect(recipe.categories == ["Brunch"])
        #expect(recipe.images.map(\.ref) == ["a.png", "b.png"], "both images are kept")
        #expect(recipe.instructions.map(\.name) == ["Cook", "Cook"])
        #expect(Self.extras(imported, .mela)["wantToCook"] == .bool(true))
        #expect(imported.fieldCensus.fate(of: "link") == .carried("sourceName"))
        #expect(imported.fieldCensus.fate(of: "images") == .carried("images"))
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .mela)
    }

    // MARK: Mealie

    @Test("Mealie 1.x: notes with titles, tools, comments, yield quantity; settings, assets and extras kept")
    func mealieV1Fields() throws {
        let source = try Self.parse(
            """
            {"id":"6f1c0000-0000-4000-8000-000000000002","userId":"u1","householdId":"h1","groupId":"g1",
             "name":"Granola","slug":"granola","image":"Xy12","recipeServings":0,"recipeYieldQuantity":12,
             "recipeYield":"bars","totalTime":"45 minutes","prepTime":"15 minutes","performTime":"30 minutes",
             "description":"Crunchy.","recipeCategory":[{"id":"c","name":"Breakfast","slug":"breakfast"}],
             "tags":[{"id":"t","name":"oats","slug":"oats"}],"tools":[{"id":"o","name":"Baking tray","slug":"tray"}],
             "rating":4.5,"orgURL":"https://larder.example/granola","dateAdded":"2024-02-01",
             "dateUpdated":"2024-02-03T10:00:00Z","createdAt":"2024-02-01T09:00:00Z","updatedAt":"2024-02-03T10:00:00Z",
             "lastMade":"2024-03-01T08:00:00Z",
             "recipeIngredient":[
               {"quantity":1.0,"unit":null,"food":null,"note":"2 cups rolled oats","isFood":false,"disableAmount":true,
                "display":"2 cups rolled oats","title":"Dry","originalText":null,"referenceId":"r1"},
               {"quantity":1.0,"unit":null,"food":null,"note":"1/2 cup honey","display":"1 1/2 cup honey","referenceId":"r2"},
               {"quantity":100,"unit":{"name":"g"},"food":{"name":"almonds"},"note":"chopped","disableAmount":false,
                "display":"100 g almonds chopped","originalText":"100 g almonds, chopped"}],
             "recipeInstructions":[{"id":"i1","title":"Bake","summary":"","text":"Spread on the tray.\\nBake 30 minutes.",
               "ingredientReferences":[]}],
             "nutrition":{"calories":"210","proteinContent":"5 g"},
             "settings":{"public":true,"showNutrition":true,"disableAmount":false,"locked":false},
             "assets":[{"name":"card","icon":"mdi-file","fileName":"card.pdf"}],
             "notes":[{"title":"Storage","text":"Keeps two weeks."},{"title":"","text":"Try maple syrup."}],
             "extras":{"color":"gold"},"comments":[{"text":"Lovely!","user":{"username":"ann"}}]}
            """)
        let imported = try MealieImporter.recipe(from: source)
        let recipe = imported.makeRecipe(id: "g", imageRef: nil, importedAt: Self.date)
        #expect(
            recipe.ingredients.map(\.original) == ["2 cups rolled oats", "1/2 cup honey", "100 g almonds, chopped"])
        #expect(recipe.ingredients.first?.group == "Dry")
        #expect(
            recipe.notes == [
                RecipeNote(title: "Storage", text: "Keeps two weeks."), RecipeNote(text: "Try maple syrup."),
            ])
        #expect(recipe.tools == ["Baking tray"])
        #expect(recipe.reviews == ["ann: Lovely!"])
        #expect(recipe.yield?.text == "12 bars")
        #expect(recipe.totalTime == nil && recipe.prepTime == 15 && recipe.cookTime == 30, "45 = prep + cook")
        #expect(recipe.nutrition?.calories == "210")
        #expect(recipe.rating?.score == 4.5)
        #expect(recipe.instructions.map(\.name) == ["Bake", "Bake"])
        let kept = Self.extras(imported, .mealie)
        #expect(kept["settings"] == source["settings"])
        #expect(kept["assets"] == source["assets"])
        #expect(kept["extras"] == ["color": "gold"])
        #expect(kept["lastMade"] == .string("2024-03-01T08:00:00Z"))
        #expect(kept["slug"] == .string("granola"), "the id is the id; the slug is kept")
        #expect(kept["createdAt"] != nil, "dateAdded gave the date; createdAt is kept")
        #expect(kept["userId"] == .string("u1"))
        #expect(imported.fieldCensus.fate(of: "notes") == .carried("notes"))
        #expect(imported.fieldCensus.fate(of: "comments") == .carried("reviews"))
        #expect(imported.fieldCensus.fate(of: "recipeServings") == .extras, "0 servings is kept as written")
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .mealie)
    }

    @Test("Mealie 2021 JSON: snake_case names, unparsed ingredients read as their line")
    func mealieLegacyFields() throws {
        let source = try Self.parse(
            """
            {"name":"Lentil Soup","slug":"lentil-soup","description":"Warming.","recipe_yield":"4 servings",
             "recipe_category":["Soup"],"tags":["vegan"],"tools":["Pot"],"rating":5,"org_url":"https://larder.example/l",
             "date_added":"2021-03-04","date_updated":"2021-03-05T00:00:00","total_time":"1 hour","prep_time":"10 minutes",
             "perform_time":"50 minutes",
             "recipe_ingredient":[{"title":"","note":"1 cup red lentils","unit":null,"food":null,"disable_amount":true,"quantity":1},
                                  {"title":null,"note":"1 onion","unit":null,"food":null,"disable_amount":true,"quantity":1}],
             "recipe_instructions":[{"title":"","text":"Cook everything."}],
             "nutrition":{"calories":"300"},"notes":[{"title":"Tip","text":"Add lemon."}],
             "settings":{"public":false,"show_nutrition":true},"assets":[],"extras":{},"comments":[]}
            """)
        let imported = try MealieImporter.recipe(from: source)
        let recipe = imported.makeRecipe(id: "l", imageRef: nil, importedAt: Self.date)
        #expect(recipe.ingredients.map(\.original) == ["1 cup red lentils", "1 onion"])
        #expect(recipe.tools == ["Pot"])
        #expect(recipe.notes == [RecipeNote(title: "Tip", text: "Add lemon.")])
        #expect(recipe.description == "Warming.")
        #expect(recipe.totalTime == 60 || recipe.totalTime == nil, "60 = prep + cook is left to them")
        #expect(recipe.cookTime == 50)
        #expect(Self.extras(imported, .mealie)["settings"] == source["settings"])
        #expect(imported.fieldCensus.fate(of: "assets") == nil, "an empty list loses nothing")
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .mealie)
    }

    @Test("Mealie 1.x backup: database.json rows joined with their ingredients, notes, nutrition, tags and tools")
    func mealieDatabaseBackup() throws {
        let database = """
            {"recipes":[{"id":"r1","name":"Chili","slug":"chili","description":"Hot.","recipe_yield":"6 bowls",
                         "group_id":"g1","name_normalized":"chili","org_url":"https://larder.example/chili"}],
             "recipes_ingredients":[
               {"id":2,"recipe_id":"r1","position":1,"quantity":1,"note":"chopped","unit_id":null,"food_id":"f1",
                "original_text":null},
               {"id":1,"recipe_id":"r1","position":0,"quantity":1,"note":"1 tin beans","unit_id":null,"food_id":null}],
             "ingredient_foods":[{"id":"f1","name":"onion"}],
             "recipe_instructions":[{"id":"i1","recipe_id":"r1","position":0,"text":"Simmer an hour."}],
             "notes":[{"id":3,"recipe_id":"r1","title":"Heat","text":"Add chipotle."}],
             "recipe_nutrition":[{"id":4,"recipe_id":"r1","calories":"450"}],
             "recipe_settings":[{"id":5,"recipe_id":"r1","public":true,"disable_amount":false}],
             "tags":[{"id":"t1","name":"spicy"}],"recipes_to_tags":[{"recipe_id":"r1","tag_id":"t1"}],
             "tools":[{"id":"o1","name":"Dutch oven"}],"recipes_to_tools":[{"recipe_id":"r1","tool_id":"o1"}],
             "api_extras":[{"id":6,"recipee_id":"r1","key_name":"heat","value":"7"}]}
            """
        let dir = try TemporaryDirectory()
        try ImportFixtures.zip([("database.json", Array(database.utf8))], at: dir.path("mealie.zip"))
        let sink = ImportCollector()
        try MealieImporter().importItems(at: dir.path("mealie.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.map(\.0.description))")
        let imported = try #require(sink.recipes.first?.0)
        let recipe = imported.makeRecipe(id: "c", imageRef: nil, importedAt: Self.date)
        #expect(recipe.ingredients.map(\.original) == ["1 tin beans", "1 onion, chopped"])
        #expect(recipe.notes == [RecipeNote(title: "Heat", text: "Add chipotle.")])
        #expect(recipe.nutrition?.calories == "450")
        #expect(recipe.tags == ["spicy"])
        #expect(recipe.tools == ["Dutch oven"])
        #expect(recipe.yield?.text == "6 bowls")
        let kept = Self.extras(imported, .mealie)
        #expect(kept["settings"] == ["public": true, "disable_amount": false])
        #expect(kept["extras"] == ["heat": "7"])
        #expect(kept["name_normalized"] == .string("chili"))
        #expect(imported.fieldCensus.fate(of: "notes") == .carried("notes"))
    }

    // MARK: Tandoor

    @Test("Tandoor: nutrition by schema.org name, keywords, times; internal and properties in extras")
    func tandoorFields() throws {
        let source = try Self.parse(
            """
            {"name":"Pesto","description":"Green.","keywords":[{"name":"sauce","description":""}],
             "working_time":10,"waiting_time":0,"internal":true,
             "nutrition":{"carbohydrates":3,"fats":20,"proteins":4,"calories":210,"source":"label"},
             "servings":4,"servings_text":"jars","source_url":"https://larder.example/pesto",
             "steps":[{"name":"Blend","instruction":"Blend it all.","ingredients":[
                {"food":{"name":"basil","plural_name":null},"unit":{"name":"g"},"amount":50,"note":"","order":0,
                 "is_header":false,"no_amount":false}],"time":2,"order":0,"show_as_header":true}],
             "properties":[{"property_amount":12,"property_type":{"name":"Iron"}}],"show_ingredient_overview":true}
            """)
        let imported = try TandoorImporter.recipe(from: source)
        let recipe = imported.makeRecipe(id: "p", imageRef: nil, importedAt: Self.date)
        #expect(recipe.nutrition?.carbohydrateContent == "3")
        #expect(recipe.nutrition?.fatContent == "20")
        #expect(recipe.nutrition?.proteinContent == "4")
        #expect(recipe.nutrition?.calories == "210")
        #expect(recipe.nutrition?.text == "source: label")
        #expect(recipe.yield?.text == "4 jars")
        #expect(recipe.tags == ["sauce"])
        #expect(recipe.prepTime == 10)
        #expect(recipe.description == "Green.")
        #expect(recipe.sourceURL == "https://larder.example/pesto")
        #expect(recipe.servings == 4)
        #expect(recipe.ingredients.map(\.original) == ["50 g basil"])
        #expect(recipe.instructions.map(\.text) == ["Blend it all."])
        #expect(recipe.instructions.first?.name == "Blend")
        #expect(recipe.instructions.first?.timerSeconds == 120)
        let kept = Self.extras(imported, .tandoor)
        #expect(kept["internal"] == .bool(true))
        #expect(kept["properties"] == source["properties"])
        #expect(kept["waiting_time"] == .int(0), "a zero time is kept as written")
        #expect(imported.fieldCensus.fate(of: "keywords") == .carried("tags"))
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .tandoor)
    }

    // MARK: Nextcloud

    @Test("Nextcloud Cookbook: schema.org fields and tools carried; its id and image routes in extras.nextcloud")
    func nextcloudFields() throws {
        let dir = try TemporaryDirectory()
        let json = """
            {"@context":"http://schema.org","@type":"Recipe","id":"1234","name":"Flatbread","description":"Quick.",
             "url":"https://larder.example/flatbread","image":"https://larder.example/flatbread.jpg",
             "imageUrl":"/apps/cookbook/webapp/recipes/1234/image?size=full",
             "imagePlaceholderUrl":"/apps/cookbook/assets/placeholder.png","printImage":true,
             "prepTime":"PT10M","cookTime":"PT5M","totalTime":"PT15M","recipeCategory":"Bread",
             "keywords":"quick,yeast-free","recipeYield":4,"tool":["Skillet"],"recipeIngredient":["200 g flour"],
             "recipeInstructions":["Knead.","Fry."],"nutrition":{"@type":"NutritionInformation","calories":"180 kcal"},
             "dateCreated":"2024-01-01T10:00:00+0000","dateModified":"2024-01-02T10:00:00+0000"}
            """
        try FileManager.default.createDirectory(atPath: dir.path("Flatbread"), withIntermediateDirectories: true)
        _ = try dir.write("Flatbread/recipe.json", json)
        let sink = ImportCollector()
        try NextcloudImporter().importItems(at: dir.path("."), context: sink.context)
        let imported = try #require(sink.recipes.first?.0)
        let recipe = imported.makeRecipe(id: "f", imageRef: nil, importedAt: Self.date)
        #expect(recipe.tools == ["Skillet"])
        #expect(recipe.nutrition?.calories == "180 kcal")
        #expect(recipe.description == "Quick.")
        #expect(recipe.sourceURL == "https://larder.example/flatbread")
        #expect(imported.images == [.url("https://larder.example/flatbread.jpg")])
        #expect(recipe.prepTime == 10 && recipe.cookTime == 5)
        #expect(recipe.categories == ["Bread"])
        #expect(recipe.tags == ["Bread", "quick", "yeast-free"])
        #expect(recipe.servings == 4)
        #expect(recipe.ingredients.map(\.original) == ["200 g flour"])
        #expect(recipe.instructions.map(\.text) == ["Knead.", "Fry."])
        #expect(recipe.updatedAt > recipe.createdAt)
        #expect(imported.nativeID == "1234")
        let kept = Self.extras(imported, .nextcloud)
        #expect(kept["imageUrl"] == .string("/apps/cookbook/webapp/recipes/1234/image?size=full"))
        #expect(kept["printImage"] == .bool(true))
        // The app's short id cannot be the Larder id: it is kept, so that an export gives it back.
        #expect(imported.fieldCensus.fate(of: "id") == .extras)
        #expect(kept["id"] == .int(1234) || kept["id"] == .string("1234"))
        #expect(imported.fieldCensus.fate(of: "@type") == .dropped("the node's type, Recipe, written on export"))
        #expect(imported.extras["schemaorg"] == nil, "a Nextcloud recipe's extras are under nextcloud")
        Self.expectNoSilentDrops(imported, source: try Self.parse(json).objectValue ?? Fields(), format: .nextcloud)
    }

    // MARK: schema.org

    @Test("schema.org: publisher, language, video, reviews, tools, rating count, author url, step images")
    func schemaOrgFields() throws {
        let source = try Self.parse(
            """
            {"@context":"https://schema.org","@type":"Recipe","name":"Tarte Tatin","description":"Upside down.",
             "author":{"@type":"Person","name":"Claire","url":"https://larder.example/claire"},
             "publisher":{"@type":"Organization","name":"Larder Kitchen"},"inLanguage":"fr",
             "video":{"@type":"VideoObject","name":"How to","contentUrl":"https://larder.example/tatin.mp4"},
             "review":[{"@type":"Review","reviewBody":"Perfect.","author":{"@type":"Person","name":"Bo"}}],
             "tool":[{"@type":"HowToTool","name":"Cast-iron pan"}],
             "aggregateRating":{"@type":"AggregateRating","ratingValue":"4.8","ratingCount":"120"},
             "recipeCuisine":["French","Normandy"],"cookingMethod":"Baking","estimatedCost":{"@type":"MonetaryAmount","value":"8"},
             "recipeIngredient":["6 apples","100 g sugar"],
             "recipeInstructions":[{"@type":"HowToStep","text":"Caramelise the sugar.","image":"https://larder.example/s1.jpg"}],
             "totalTime":"PT1H","recipeYield":"8"}
            """)
        let imported = try SchemaOrgRecipeParser().parse(source)
        let recipe = imported.makeRecipe(id: "t", imageRef: nil, importedAt: Self.date)
        #expect(recipe.sourceName == "Larder Kitchen")
        #expect(recipe.language == "fr")
        #expect(recipe.videoURL == "https://larder.example/tatin.mp4")
        #expect(recipe.reviews == ["Bo: Perfect."])
        #expect(recipe.tools == ["Cast-iron pan"])
        #expect(recipe.rating == RecipeRating(score: 4.8, scale: 5, count: 120))
        #expect(recipe.author == RecipeAuthor(name: "Claire", url: "https://larder.example/claire"))
        #expect(recipe.cuisines == ["French", "Normandy"])
        #expect(recipe.instructions.first?.images.map(\.url) == ["https://larder.example/s1.jpg"])
        let kept = Self.extras(imported, .schemaorg)
        #expect(kept["cookingMethod"] == .string("Baking"))
        #expect(kept["estimatedCost"] == source["estimatedCost"])
        #expect(imported.fieldCensus.fate(of: "@context") != nil)
        if case .dropped(let reason)? = imported.fieldCensus.fate(of: "@context") { #expect(!reason.isEmpty) }
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .schemaorg)
    }

    @Test("schema.org: a time written as text no duration reading understands is kept as written, not made up")
    func schemaOrgTextTimes() throws {
        let source = try Self.parse(
            """
            {"@context":"https://schema.org","@type":"Recipe","name":"Overnight Oats",
             "prepTime":"PT10M","cookTime":"a little while","totalTime":"overnight",
             "recipeIngredient":["1 cup oats"],"recipeInstructions":"Soak the oats."}
            """)
        let imported = try SchemaOrgRecipeParser().parse(source)
        #expect(imported.prepMinutes == 10)
        #expect(imported.cookMinutes == nil)
        // Not 10 (prep + cook): the source says overnight.
        #expect(imported.totalMinutes == nil)
        #expect(imported.fieldCensus.fate(of: "totalTime") == .extras)
        #expect(imported.fieldCensus.fate(of: "cookTime") == .extras)
        #expect(imported.fieldCensus.fate(of: "prepTime") == .carried("prepTime"))
        let kept = Self.extras(imported, .schemaorg)
        #expect(kept["totalTime"] == .string("overnight"))
        #expect(kept["cookTime"] == .string("a little while"))
        Self.expectNoSilentDrops(imported, source: source.objectValue ?? Fields(), format: .schemaorg)
        // The export writes them back as they were.
        let recipe = imported.makeRecipe(id: "oats", imageRef: nil, importedAt: Self.date)
        #expect(recipe.totalTime == nil)
        let exported = SchemaOrgExporter.node(recipe)
        #expect(exported["totalTime"] == .string("overnight"))
        #expect(exported["cookTime"] == .string("a little while"))
        #expect(exported["prepTime"] == .string("PT10M"))
    }

    @Test(
        "schema.org corpus: every non-empty top-level Recipe property is carried, kept in extras, or dropped with a reason",
        .enabled(if: Corpus.has("schemaorg"), "needs ../shared/corpus/schemaorg (or LARDER_CORPUS)"))
    func corpusHasNoSilentDrops() throws {
        let (files, pages) = try SchemaOrgCorpusPages.load()
        #expect(files > 400)
        var tally = CensusTally()
        var silent: [String] = []
        var parsed = 0
        for page in pages {
            let (file, recipeNode, imported) = (page.file, page.source, page.imported)
            parsed += 1
            tally.add(imported.fieldCensus, format: .schemaorg)
            let kept = Self.extras(imported, .schemaorg)
            for field in recipeNode.objectValue ?? Fields() where !FieldCensus.isEmpty(field.value) {
                switch imported.fieldCensus.fate(of: field.key) {
                case nil: silent.append("\(file): \(field.key) has no census entry")
                case .extras?:
                    if kept[field.key] != field.value { silent.append("\(file): extras.\(field.key) is not verbatim") }
                case .dropped(let reason)?:
                    if reason.isEmpty { silent.append("\(file): \(field.key) dropped without a reason") }
                case .carried?: break
                }
            }
        }
        #expect(parsed > 400)
        #expect(silent.isEmpty, "\(silent.prefix(20))")
        // Only @context and @type are ever dropped (of the recipe or of a node in it), and a step's name
        // that only numbers it ("Step 1"), each with its reason.
        let dropped = tally.dropped(in: .schemaorg).filter { line in
            if case .dropped(let reason) = line.fate, line.field.hasSuffix("[].name"),
                reason.hasPrefix("only numbers the step")
            {
                return false
            }
            return !["@context", "@type"].contains(line.field) && !line.field.hasSuffix(".@type")
                && !line.field.hasSuffix(".@context")
        }.map(\.field)
        #expect(dropped.isEmpty, "\(dropped)")
    }

    // MARK: Cooklang, ORF, RecipeML, plain

    @Test("Cooklang: author, locale, source name and diet metadata carried; unknown metadata in extras")
    func cooklangMetadata() throws {
        let text = """
            >> title: Miso Soup
            >> author: Aiko
            >> source.name: Home
            >> locale: ja
            >> diet: vegan
            >> wine: sake
            >> servings: 2

            Warm @dashi{500%ml} and whisk in @miso{2%tbsp}.
            """
        let imported = try CooklangImporter.recipe(from: CooklangParser.parse(text), fallbackTitle: "x")
        let recipe = imported.makeRecipe(id: "m", imageRef: nil, importedAt: Self.date)
        #expect(recipe.author?.name == "Aiko")
        #expect(recipe.sourceName == "Home")
        #expect(recipe.language == "ja")
        #expect(recipe.dietaryNotes == ["vegan"])
        #expect(Self.extras(imported, .cooklang)["wine"] == .string("sake"))
        #expect(imported.fieldCensus.fate(of: "wine") == .extras)
        #expect(imported.fieldCensus.fate(of: "servings") == .carried("yield"))
    }

    @Test("Open Recipe Format: source_book becomes the source name; oven settings kept in extras")
    func orfFields() throws {
        let yaml = """
            recipe_name: Bread
            source_book: Flour Water Salt Yeast
            oven_temp: {amount: 230, unit: C}
            prep_time: 20 min
            ingredients:
              - flour: {amounts: [{amount: 500, unit: g}]}
            steps:
              - step: Bake.
            """
        let dir = try TemporaryDirectory()
        let sink = ImportCollector()
        try ORFImporter().importItems(at: try dir.write("bread.yaml", yaml), context: sink.context)
        let imported = try #require(sink.recipes.first?.0)
        #expect(imported.sourceName == "Flour Water Salt Yeast")
        #expect(Self.extras(imported, .orf)["oven_temp"] == ["amount": 230, "unit": "C"])
        #expect(imported.fieldCensus.fate(of: "source_book") == .carried("sourceName"))
    }

    @Test("RecipeML: a source name and nutrition carried; unknown elements in extras.recipeml")
    func recipeMLFields() throws {
        let xml = """
            <recipeml><recipe><head><title>Scones</title><source><srcitem>Cafe book</srcitem></source>
            <hint>Cold butter</hint></head>
            <ingredients><ing><amt><qty>2</qty><unit>cups</unit></amt><item>flour</item></ing></ingredients>
            <directions><step>Bake.</step></directions><nutrition>300 kcal</nutrition></recipe></recipeml>
            """
        let dir = try TemporaryDirectory()
        let sink = ImportCollector()
        try RecipeMLImporter().importItems(at: try dir.write("scones.xml", xml), context: sink.context)
        let imported = try #require(sink.recipes.first?.0)
        #expect(imported.sourceName == "Cafe book")
        #expect(imported.nutrition["text"] == "300 kcal")
        #expect(Self.extras(imported, .recipeml)["head/hint"] == .string("Cold butter"))
        #expect(imported.fieldCensus.fate(of: "head/source") == .carried("sourceName"))
        #expect(imported.fieldCensus.fate(of: "nutrition") == .carried("nutrition"))
    }

    @Test("plain: fields with no Larder field go to extras.plain verbatim, and are still named in a warning")
    func plainExtras() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "r.json",
            #"{"title":"Tea","ingredients":["tea"],"steps":["Brew."],"wine":{"name":"Riesling"},"source":"Aunt May"}"#)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        let imported = try #require(sink.recipes.first?.0)
        #expect(Self.extras(imported, .plain)["wine"] == ["name": "Riesling"])
        #expect(imported.sourceName == "Aunt May")
        #expect(imported.fieldCensus.fate(of: "wine") == .extras)
        #expect(imported.fieldCensus.fate(of: "source") == .carried("sourceName"))
        #expect(sink.warnings.contains { $0.contains("wine") && $0.contains("extras.plain") }, "\(sink.warnings)")
    }

    // MARK: Beanconqueror

    @Test("Beanconqueror: bean, grinder, water, bloom, TDS and photos carried; the rest in extras.beanconqueror")
    func beanconquerorFields() throws {
        let json = """
            {"BEANS":[{"name":"Gichathaini","roaster":"Square Mile","roast":"LIGHT","roastingDate":"2024-04-01",
                       "bean_information":[{"country":"Kenya","region":"Nyeri","variety":"SL28","processing":"Washed"}],
                       "config":{"uuid":"b1"}}],
             "MILL":[{"name":"Comandante","config":{"uuid":"m1"}}],
             "WATER":[{"name":"Third Wave","general_hardness":68,"config":{"uuid":"w1"}}],
             "PREPARATION":[{"name":"V60","type":"V60","config":{"uuid":"p1"}}],
             "SETTINGS":[{"brew_rating":5}],
             "BREWS":[{"grind_size":"24 clicks medium-fine","grind_weight":15,"method_of_preparation":"p1","mill":"m1",
                       "mill_speed":0,"bean":"b1","brew_temperature":94,"brew_time":180,"brew_quantity":250,"brew_beverage_quantity":230,
                       "note":"Bright.","rating":4,"coffee_blooming_time":40,"tds":1.35,"water":"w1",
                       "attachments":["file:///photo.jpg"],"pressure_profile":"flat","coffee_type":"",
                       "config":{"uuid":"x1","unix_timestamp":1714000000}}]}
            """
        let dir = try TemporaryDirectory()
        let sink = ImportCollector()
        try BeanconquerorImporter().importItems(at: try dir.write("Beanconqueror.json", json), context: sink.context)
        let log = try #require(sink.brewLogs.first)
        #expect(
            log.bean
                == CoffeeBean(
                    name: "Gichathaini", roaster: "Square Mile", origin: "Kenya, Nyeri",
                    variety: "SL28", process: "Washed", roastLevel: "LIGHT", roastDate: "2024-04-01"))
        #expect(log.grinder == Grinder(name: "Comandante", setting: "24 clicks medium-fine"))
        #expect(log.water?.name == "Third Wave")
        #expect(log.bloom?.seconds == 40)
        #expect(log.tds == 1.35)
        #expect(log.extractionYield == 20.7, "1.35 % TDS × 230 g ÷ 15 g")
        #expect(log.photos == ["file:///photo.jpg"])
        let kept = log.extras["beanconqueror"]?.objectValue ?? Fields()
        #expect(kept["pressure_profile"] == .string("flat"))
        #expect(kept["mill_speed"] == .int(0))
        #expect(kept["coffee_type"] == nil, "an empty string loses nothing")
        let brew = try Self.parse(json)["BREWS"]?.arrayValue?.first ?? .null
        let census = BeanconquerorImporter.census(of: brew, log: log)
        #expect(census.fate(of: "bean") == .carried("bean"))
        #expect(census.fate(of: "pressure_profile") == .extras)
    }

    // MARK: The report

    @Test("the import session counts each source field's fate, per format, for the records it wrote")
    func sessionTalliesCensus() throws {
        let dir = try TemporaryDirectory()
        let one =
            #"{"uid":"11111111-2222-3333-4444-555555555501","name":"A","ingredients":"1 egg","directions":"Boil.","hash":"h1","source":"Book"}"#
        let two =
            #"{"uid":"11111111-2222-3333-4444-555555555502","name":"B","ingredients":"1 leek","directions":"Cook.","hash":"h2"}"#
        try ImportFixtures.zip(
            [("A.paprikarecipe", try ImportFixtures.gzip(one)), ("B.paprikarecipe", try ImportFixtures.gzip(two))],
            at: dir.path("in.paprikarecipes"))
        let (report, records) = try ImportFixtures.session([dir.path("in.paprikarecipes")], in: dir)
        #expect(records.count == 2)
        #expect(records[0]["extras"]?["paprika"]?["hash"] == .string("h1"))
        #expect(report.census.records[.paprika] == 2)
        let lines = report.census.lines
        #expect(lines.contains { $0.field == "hash" && $0.fate == .extras && $0.count == 2 })
        #expect(lines.contains { $0.field == "source" && $0.fate == .carried("sourceName") && $0.count == 1 })
        #expect(lines.contains { $0.field == "name" && $0.fate == .carried("title") && $0.count == 2 })
        #expect(report.census.summaryLines.contains("    hash: 2 kept in extras"), "\(report.census.summaryLines)")
    }
}
