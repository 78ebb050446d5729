import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Each reader of whole pages on a small page of its own.
@Suite struct HTMLPageReaderTests {
    /// Imports `page` (written as `name`) and returns what the collector got.
    private func importing(_ page: [UInt8], name: String = "page.html", limits: ReaderLimits = .default) throws
        -> (ImportCollector, String)
    {
        let dir = try TemporaryDirectory()
        try Data(page).write(to: URL(fileURLWithPath: dir.path(name)))
        let sink = ImportCollector()
        sink.readerLimits = limits
        try SchemaOrgImporter().importItems(at: dir.path(name), context: sink.context)
        return (sink, dir.path(name))
    }

    private func importing(_ page: String, limits: ReaderLimits = .default) throws -> ImportCollector {
        try importing(Array(page.utf8), limits: limits).0
    }

    @Test("reads microdata with nested sections, meta content, time datetime and link href")
    func readsMicrodata() throws {
        let sink = try importing(
            """
            <html><body><div itemscope itemtype="https://schema.org/Recipe">
            <h1 itemprop="name">Lemon &amp; Thyme Chicken</h1>
            <meta itemprop="recipeYield" content="4 servings">
            <time itemprop="prepTime" datetime="PT15M">15 minutes</time>
            <meta itemprop="cookTime" content="PT45M">
            <link itemprop="image" href="https://example.com/chicken.jpg">
            <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ann Cook</span></span>
            <ul><li itemprop="recipeIngredient">1 chicken</li><li itemprop="recipeIngredient">2 lemons</li>
            <li itemprop="recipeIngredient">- 4 sprigs thyme</li></ul>
            <div itemprop="recipeInstructions" itemscope itemtype="https://schema.org/HowToSection">
              <h3 itemprop="name">Prepare</h3>
              <div itemprop="itemListElement" itemscope itemtype="https://schema.org/HowToStep">
                <p itemprop="text">Heat the oven.</p></div>
              <div itemprop="itemListElement" itemscope itemtype="https://schema.org/HowToStep">
                <p itemprop="text">Stuff the chicken.</p></div>
            </div>
            <div itemprop="recipeInstructions" itemscope itemtype="https://schema.org/HowToSection">
              <h3 itemprop="name">Roast</h3>
              <div itemprop="itemListElement" itemscope itemtype="https://schema.org/HowToStep">
                <p itemprop="text">Roast for 45 minutes.</p></div>
            </div>
            </div></body></html>
            """)
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "microdata")
        #expect(recipe.title == "Lemon & Thyme Chicken")
        #expect(recipe.author == "Ann Cook")
        #expect(recipe.ingredients == ["1 chicken", "2 lemons", "4 sprigs thyme"])
        #expect(recipe.steps.filter(\.isSection).map(\.text) == ["Prepare", "Roast"])
        #expect(
            recipe.steps.filter { !$0.isSection }.map(\.text) == [
                "Heat the oven.", "Stuff the chicken.", "Roast for 45 minutes.",
            ])
        #expect(recipe.prepMinutes == 15)
        #expect(recipe.cookMinutes == 45)
        #expect(recipe.yieldText == "4 servings")
        #expect(recipe.images == [.url("https://example.com/chicken.jpg")])
    }

    @Test("reads RDFa with a vocab, prefixed properties and content attributes")
    func readsRDFa() throws {
        let sink = try importing(
            """
            <html><body vocab="https://schema.org/"><article typeof="Recipe">
            <h1 property="name">Pea Soup</h1><meta property="totalTime" content="PT30M">
            <ul><li property="recipeIngredient">500 g peas</li><li property="schema:recipeIngredient">1 onion</li></ul>
            <ol property="recipeInstructions"><li>Soften the onion.</li><li>Add the peas and simmer.</li></ol>
            </article></body></html>
            """)
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "RDFa")
        #expect(recipe.title == "Pea Soup")
        #expect(recipe.ingredients == ["500 g peas", "1 onion"])
        #expect(recipe.steps.map(\.text) == ["Soften the onion.", "Add the peas and simmer."])
        #expect(recipe.totalMinutes == 30)
    }

    @Test("reads a JSON-LD Recipe kept in a meta element's content")
    func readsJSONLDInMeta() throws {
        let json =
            #"{"@context":"https://schema.org","@type":"Recipe","name":"Toast","recipeIngredient":["1 slice bread"]}"#
        let escaped = json.replacingOccurrences(of: "\"", with: "&quot;")
        let sink = try importing(#"<html><head><meta name="application/ld+json" content="\#(escaped)"></head></html>"#)
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "JSON-LD (meta content)")
        #expect(recipe.title == "Toast")
        #expect(recipe.ingredients == ["1 slice bread"])
    }

    @Test("reads a WP Recipe Maker card by its class names, with ingredient groups")
    func readsRecipeCard() throws {
        let sink = try importing(
            """
            <html><body><div class="wprm-recipe-container"><div class="wprm-recipe">
            <h2 class="wprm-recipe-name">Banana Bread</h2>
            <span class="wprm-recipe-servings-with-unit">1 loaf</span>
            <div class="wprm-recipe-ingredients-container">
              <div class="wprm-recipe-ingredient-group"><h4 class="wprm-recipe-group-name">Batter</h4>
              <ul><li class="wprm-recipe-ingredient">3 bananas</li><li class="wprm-recipe-ingredient">200 g flour</li></ul></div>
              <div class="wprm-recipe-ingredient-group"><h4 class="wprm-recipe-group-name">Topping</h4>
              <ul><li class="wprm-recipe-ingredient">2 tbsp sugar</li></ul></div>
            </div>
            <div class="wprm-recipe-instructions-container"><ul>
              <li class="wprm-recipe-instruction"><div class="wprm-recipe-instruction-text">Mash the bananas.</div></li>
              <li class="wprm-recipe-instruction"><div class="wprm-recipe-instruction-text">Fold in the flour and bake.</div></li>
            </ul></div></div></div></body></html>
            """)
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "recipe card (WP Recipe Maker)")
        #expect(recipe.title == "Banana Bread")
        #expect(recipe.ingredients == ["3 bananas", "200 g flour", "2 tbsp sugar"])
        #expect(recipe.ingredientHeadings == [0: "Batter", 2: "Topping"])
        #expect(recipe.steps.map(\.text) == ["Mash the bananas.", "Fold in the flour and bake."])
        #expect(recipe.yieldText == "1 loaf")
    }

    @Test("reads a plain page by its Zutaten and Zubereitung headings, in windows-1252")
    func readsPlainPageInWindows1252() throws {
        let page = """
            <html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">
            <title>Kartoffelsalat | Omas Küche</title></head><body>
            <nav><h2>Zutaten der Woche</h2><ul><li>nothing</li></ul></nav>
            <h1>Kartoffelsalat</h1><p>Ein Klassiker.</p>
            <h2>Zutaten:</h2><ul><li>1 kg Kartoffeln</li><li>1 Zwiebel</li><li>Öl und Essig</li></ul>
            <h2>Zubereitung</h2><p>Kartoffeln kochen und schälen.</p><p>Mit Zwiebel, Öl und Essig mischen.</p>
            <h2>Kommentare</h2><p>Lecker!</p></body></html>
            """
        // windows-1252 bytes: Ü, ö, Ö are one byte each.
        let bytes = page.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        let sink = try importing(bytes).0
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "page text")
        #expect(recipe.title == "Kartoffelsalat")
        #expect(recipe.ingredients == ["1 kg Kartoffeln", "1 Zwiebel", "Öl und Essig"])
        #expect(recipe.steps.map(\.text) == ["Kartoffeln kochen und schälen.", "Mit Zwiebel, Öl und Essig mischen."])
    }

    @Test("reads a headless list of quantities and the steps after it")
    func readsHeadlessQuantityList() throws {
        let sink = try importing(
            """
            <html><head><meta property="og:title" content="Flapjacks - My Site"></head><body>
            <ul><li>Home</li><li>About</li></ul>
            <ul><li>250 g oats</li><li>125 g butter</li><li>100 g syrup</li><li>a pinch of salt</li></ul>
            <ol><li>Melt the butter with the syrup.</li><li>Stir in the oats and bake.</li></ol>
            </body></html>
            """)
        let (recipe, _) = try #require(sink.recipes.first)
        #expect(recipe.title == "Flapjacks")
        #expect(recipe.ingredients == ["250 g oats", "125 g butter", "100 g syrup", "a pinch of salt"])
        #expect(recipe.steps.count == 2)
    }

    @Test("does not take a list of dates with no steps after it for ingredients")
    func rejectsHeadlessListWithoutSteps() throws {
        let sink = try importing(
            "<html><body><h1>Archive</h1><ul><li>2021 posts</li><li>2022 posts</li><li>2023 posts</li></ul></body></html>"
        )
        #expect(sink.recipes.isEmpty)
        #expect(sink.rejects.count == 1)
    }

    @Test("rejects a page with nothing recipe-like, naming the file")
    func rejectsPageWithoutRecipe() throws {
        let (sink, path) = try importing(
            Array(
                "<html><head><title>About us</title></head><body><h1>About us</h1><p>We sell pans.</p></body></html>"
                    .utf8))
        #expect(sink.recipes.isEmpty)
        let (error, origin) = try #require(sink.rejects.first)
        #expect(origin.file == path)
        #expect(error.message.contains("no schema.org Recipe found"))
        #expect(error.message.contains("microdata"))
    }

    @Test("refuses a page larger than the record size limit, naming the file")
    func refusesOversizedPage() throws {
        let page = "<html><body>" + String(repeating: "<p>filler text</p>", count: 200) + "</body></html>"
        let limits = ReaderLimits(maxDepth: 256, maxAliasExpansion: 1000, maxRecordSize: 1024)
        let error = try #require(throws: LarderError.self) { try importing(Array(page.utf8), limits: limits) }
        #expect(error.code == .refusedInput)
        #expect(error.location?.file?.hasSuffix("page.html") == true)
    }

    @Test("quadratic markup attack: properties nested 200 deep are refused at the record size limit")
    func refusesDeeplyNestedProperties() throws {
        // Each property's text holds the text of every property inside it: 200 nested over 200 KB
        // made 61 MB of recipe text and took 12 s in a release build before the budget.
        let filler = String(repeating: "word ", count: 200)
        let page =
            "<html><body><div itemscope itemtype=\"https://schema.org/Recipe\"><h1 itemprop=\"name\">Tower</h1>"
            + (0..<200).map { "<div itemprop=\"recipeIngredient description note\($0)\">\(filler)" }.joined()
            + String(repeating: "</div>", count: 201) + "</body></html>"
        let limits = ReaderLimits(maxDepth: 256, maxAliasExpansion: 1000, maxRecordSize: 1 << 20)
        let started = ContinuousClock.now
        let error = try #require(throws: LarderError.self) { try importing(Array(page.utf8), limits: limits) }
        #expect(error.code == .refusedInput)
        #expect(error.message.contains("nested so deep"))
        #expect(error.message.contains("1 MiB"))
        #expect(ContinuousClock.now - started < .seconds(60))
        // Nested a few deep, as real pages nest them, the same page is read.
        let shallow =
            "<html><body><div itemscope itemtype=\"https://schema.org/Recipe\"><h1 itemprop=\"name\">Tower</h1>"
            + (0..<3).map { "<div itemprop=\"recipeIngredient\">\($0 + 1) cup \(filler)" }.joined()
            + String(repeating: "</div>", count: 4) + "</body></html>"
        let sink = try importing(shallow, limits: limits)
        #expect(sink.recipes.count == 1)
    }

    @Test("still reads the JSON-LD of a page that also has microdata")
    func prefersJSONLD() throws {
        let sink = try importing(
            """
            <html><head><script type="application/ld+json">{"@type":"Recipe","name":"From JSON-LD"}</script></head>
            <body><div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">From microdata</h1></div>
            </body></html>
            """)
        #expect(sink.titles == ["From JSON-LD"])
    }

    @Test("detection sends an HTML page with microdata only to the schema.org importer")
    func detectsMicrodataPage() throws {
        let dir = try TemporaryDirectory()
        let page =
            #"<html><body><div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Soup</h1></div>"#
        try Data(page.utf8).write(to: URL(fileURLWithPath: dir.path("soup.html")))
        #expect(try ImportFormat.detect(path: dir.path("soup.html")) == .schemaorg)
    }

    @Test("reads a Tasty Recipes card")
    func readsTastyRecipesCard() throws {
        let sink = try importing(
            """
            <html><body><div class="tasty-recipes"><h2 class="tasty-recipes-title">Green Salad</h2>
            <span class="tasty-recipes-yield">2 bowls</span>
            <div class="tasty-recipes-ingredients"><h3>Ingredients</h3><ul><li>1 lettuce</li><li>2 tbsp dressing</li></ul></div>
            <div class="tasty-recipes-instructions"><h3>Instructions</h3><ol><li>Wash the lettuce.</li><li>Toss.</li></ol></div>
            </div></body></html>
            """)
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "recipe card (Tasty Recipes)")
        #expect(recipe.title == "Green Salad")
        #expect(recipe.ingredients == ["1 lettuce", "2 tbsp dressing"])
        #expect(recipe.steps.map(\.text) == ["Wash the lettuce.", "Toss."])
    }

    @Test("reads paragraph headings and lines split at br, with ingredient groups")
    func readsParagraphHeadings() throws {
        let sink = try importing(
            """
            <html><body><h1>Scones</h1>
            <p><strong>Ingredients:</strong></p>
            <p>For the dough:<br>225 g flour<br>55 g butter<br>150 ml milk</p>
            <p><strong>Method</strong></p>
            <p>Rub the butter into the flour.</p><p>Add the milk and bake for 12 minutes.</p>
            <h2>Notes</h2><p>Best warm.</p></body></html>
            """)
        let (recipe, _) = try #require(sink.recipes.first)
        #expect(recipe.ingredients == ["225 g flour", "55 g butter", "150 ml milk"])
        #expect(recipe.ingredientHeadings == [0: "For the dough"])
        #expect(
            recipe.steps.map(\.text) == ["Rub the butter into the flour.", "Add the milk and bake for 12 minutes."])
    }

    @Test("a bold line or a group-head element in an ingredient container names a group, not an ingredient")
    func boldGroupNamesInMicrodata() throws {
        let sink = try importing(
            """
            <html><body><div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Meatballs</h1>
            <div itemprop="recipeIngredient"><p><strong>Meatballs&nbsp;</strong><br> 400 grams lamb mince<br>
            <b>2 eggs</b><br><strong>Sauce</strong><br> 1 onion</p></div>
            <div itemprop="recipeIngredient"><div class="ingredient">1 tsp oil</div><div class="group-head">Side</div>
            <div class="ingredient">30g watercress</div></div>
            <span itemprop="recipeIngredient"><b>Salt</b></span></div></body></html>
            """)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.ingredients.contains("400 grams lamb mince"))
        #expect(recipe.ingredients.contains("2 eggs"))
        #expect(!recipe.ingredients.contains("Meatballs"))
        #expect(!recipe.ingredients.contains("Sauce"))
        #expect(!recipe.ingredients.contains("Side"))
        // A lone bold ingredient is an ingredient.
        #expect(recipe.ingredients.contains("Salt"))
    }

    @Test("page text: a bold line among the ingredient lines heads a group; typed bullets end where the bullets do")
    func boldGroupNamesAndBulletRunsInPageText() throws {
        let sink = try importing(
            """
            <html><body><h1>Tart</h1><h3>Ingredients</h3><p>- 250g pastry</p><p>- 3 egg yolks</p>
            <p><strong>The topping</strong></p><p>- 50g sugar</p>
            <div><p>Sign up to our newsletter!</p></div>
            <h3>Method</h3><ol><li>Line the tin.</li><li>Bake.</li></ol></body></html>
            """)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.ingredients == ["250g pastry", "3 egg yolks", "50g sugar"])
        #expect(recipe.ingredientHeadings[2] == "The topping")
        #expect(recipe.steps.map(\.text) == ["Line the tin.", "Bake."])
    }

    @Test("an ingredient list given as markup in a meta's content keeps its bold group names as groups")
    func markupInMetaContent() throws {
        let sink = try importing(
            """
            <html><body><div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Rice Salad</h1>
            <meta itemprop="ingredients" content="<p><b>DRESSING (whisk together; chill)</b><br> 1/2 cup mayonnaise</p>
            <p><b>Salad</b><br> <b>2 (1 pound) chicken breasts</b><br> 4 cups wild rice</p>"></div></body></html>
            """)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.ingredients == ["1/2 cup mayonnaise", "2 (1 pound) chicken breasts", "4 cups wild rice"])
        #expect(recipe.ingredientHeadings == [0: "DRESSING (whisk together; chill)", 1: "Salad"])
    }

    @Test(
        "reads Zip Recipes cards, current (zrdn classes) and older (zlrecipe ids), with group labels",
        arguments: [
            """
            <div class="zrdn-recipe-container"><h2 class="zrdn-recipe-title">Candy Bark</h2>
            <h3 class="zrdn-recipe-label zrdn-ingredients-label">Ingredients</h3>
            <ul class="zrdn-list zrdn-ingredients-list"><li>3 c. candy corn</li></ul>
            <h4 class="zrdn-subtitle">Topping</h4><ul class="zrdn-list zrdn-ingredients-list"><li>2 c. chocolate chips</li></ul>
            <ul class="zrdn-list zrdn-instructions-list"><li>Melt.</li><li>Spread and cool.</li></ul></div>
            """,
            """
            <div id="zlrecipe-container"><h2 id="zlrecipe-title">Candy Bark</h2>
            <ul id="zlrecipe-ingredients-list"><li class="ingredient">3 c. candy corn</li>
            <li class="ingredient-label">Topping</li><li class="ingredient">2 c. chocolate chips</li></ul>
            <ol id="zlrecipe-instructions-list"><li class="instruction">Melt.</li>
            <li class="instruction">Spread and cool.</li></ol></div>
            """,
        ])
    func readsZipRecipesCard(card: String) throws {
        let sink = try importing("<html><body>\(card)</body></html>")
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "recipe card (Zip Recipes)")
        #expect(recipe.title == "Candy Bark")
        #expect(recipe.ingredients == ["3 c. candy corn", "2 c. chocolate chips"])
        #expect(recipe.ingredientHeadings == [1: "Topping"])
        #expect(recipe.steps.map(\.text) == ["Melt.", "Spread and cool."])
    }

    @Test("a JSON-LD Recipe without ingredients or steps takes them from the page's recipe card, with a warning")
    func fillsMissingPartsFromMarkup() throws {
        let page = """
            <html><head><script type="application/ld+json">
            {"@context": "https://schema.org", "@type": "Recipe", "name": "Leek Soup", "recipeIngredient": [],
             "recipeYield": "4"}
            </script></head><body><div class="wprm-recipe-container"><h2 class="wprm-recipe-name">Leek Soup</h2>
            <div class="wprm-recipe-ingredients-container"><ul><li class="wprm-recipe-ingredient">2 leeks</li>
            <li class="wprm-recipe-ingredient">1 l stock</li></ul></div>
            <div class="wprm-recipe-instructions-container"><ul><li><div class="wprm-recipe-instruction-text">Simmer.</div>
            </li></ul></div></div></body></html>
            """
        let sink = try importing(page)
        let (recipe, origin) = try #require(sink.recipes.first)
        #expect(sink.recipes.count == 1)
        #expect(origin.entry?.hasPrefix("ld+json") == true)
        #expect(recipe.ingredients == ["2 leeks", "1 l stock"])
        #expect(recipe.steps.map(\.text) == ["Simmer."])
        #expect(recipe.servings == 4)
        #expect(
            sink.warnings.contains {
                $0.contains("has no recipeIngredient and recipeInstructions")
                    && $0.contains("recipe card (WP Recipe Maker)")
            }, "\(sink.warnings)")
        // A Recipe that has its parts is not touched, and the page is not read again for them.
        let whole = try importing(
            page.replacingOccurrences(
                of: "\"recipeIngredient\": []",
                with: "\"recipeIngredient\": [\"leeks\"], \"recipeInstructions\": \"Cook.\""))
        #expect(whole.recipes.first?.0.ingredients == ["leeks"])
        #expect(whole.warnings.isEmpty, "\(whole.warnings)")
    }

    @Test("page text: a Directions heading wins over a Recipe one; a Recipe heading over the list is no method heading")
    func strongInstructionHeadings() throws {
        let printable = try importing(
            """
            <html><body><h1>Fruit Kabobs</h1><h3>Ingredients</h3><ul><li>1 C strawberries</li><li>1 C pineapple</li></ul>
            <h3>Recipe downloads</h3><ul><li>4" x 6" card</li><li>8.5" x 11" page</li></ul>
            <h3>Directions</h3><ol><li>Thread the fruit on skewers.</li><li>Serve.</li></ol></body></html>
            """)
        #expect(printable.recipes.first?.0.steps.map(\.text) == ["Thread the fruit on skewers.", "Serve."])
        let headed = try importing(
            """
            <html><body><h1>Bento</h1><h3>Recipe: Orange Juice Carrots</h3>
            <ul><li>3 large carrots</li><li>1/4 tsp. salt</li><li>1 Tbs. soy sauce</li></ul>
            <p>Cut the carrots.</p><p>Boil them in the juice.</p><h3>Variation</h3><p>Omit the salt.</p></body></html>
            """)
        let recipe = try #require(headed.recipes.first?.0)
        #expect(recipe.ingredients == ["3 large carrots", "1/4 tsp. salt", "1 Tbs. soy sauce"])
        #expect(recipe.steps.map(\.text) == ["Cut the carrots.", "Boil them in the juice."])
    }

    @Test(
        "page text: a line opening with a yield word and holding a number gives the yield",
        arguments: [
            ("Serves 4", "4 servings"), ("Serves: 4 to 6", "6 servings"), ("🍽 Makes 12 muffins", "12 muffins"),
            ("Serves 2-4 | Prep 10 min", "4 servings"),
        ])
    func pageTextYield(line: String, yield: String) throws {
        let sink = try importing(
            """
            <html><body><h1>Soup</h1><p>\(line)</p><h3>Ingredients</h3><ul><li>1 leek</li><li>1 l stock</li></ul>
            <h3>Method</h3><ol><li>Simmer.</li><li>Serve.</li></ol></body></html>
            """)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.yieldText == yield)
    }

    @Test(
        "page text: prep, cook and total times from lines such as `Prep time: 10 min` or `Serves 2 | Prep 10 min | Cook 25 min`"
    )
    func pageTextTimes() throws {
        let sink = try importing(
            """
            <html><body><h1>Meatballs</h1><p>Serves 2-4 | Prep 10 min | Cook 25 min |</p><p>Total time: 1 hour</p>
            <h3>Ingredients</h3><ul><li>500 g beef</li><li>1 egg</li></ul>
            <h3>Method</h3><ol><li>Roll.</li><li>Bake.</li></ol></body></html>
            """)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.prepMinutes == 10)
        #expect(recipe.cookMinutes == 25)
        #expect(recipe.totalMinutes == 60)
    }
}
