import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// The members of structured properties (an author's profile links, a step's anchor, a review's
/// date): counted one by one, kept in extras under their path, and put back in place on export.
@Suite struct MemberCensusTests {
    static let node: Value = [
        "@type": "Recipe", "name": "Members",
        "author": [
            "@type": "Person", "name": "Ada", "url": "https://ada.example",
            "sameAs": ["https://social.example/ada", "https://other.example/ada"], "jobTitle": "Cook",
        ],
        "recipeInstructions": [
            ["@type": "HowToStep", "text": "Mix.", "url": "https://page.example/#step-1", "position": 1],
            ["@type": "HowToStep", "text": "Bake.", "url": "https://page.example/#step-2", "position": 2],
        ],
        "review": [
            [
                "@type": "Review", "reviewBody": "Good.", "datePublished": "2024-01-02",
                "author": ["@type": "Person", "name": "Bo", "url": "https://bo.example"],
            ],
            ["@type": "Review", "reviewBody": "Fine.", "reviewRating": ["@type": "Rating", "ratingValue": 4]],
        ],
        "aggregateRating": ["@type": "AggregateRating", "ratingValue": 4.5, "bestRating": 10, "worstRating": 1],
        "video": [
            "@type": "VideoObject", "name": "How to", "embedUrl": "https://video.example/embed/1",
            "@context": "https://schema.org",
        ],
    ]

    static func recipe(_ imported: ImportedRecipe) -> Recipe {
        imported.makeRecipe(id: "members", imageRef: nil, importedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test("each member gets its own census line: read into Larder, kept in extras by path, or a type dropped with why")
    func censusLines() throws {
        let imported = try SchemaOrgRecipeParser().parse(Self.node)
        let census = imported.fieldCensus
        #expect(census.fate(of: "author.name") == .carried("author"))
        #expect(census.fate(of: "author.url") == .carried("author.url"))
        #expect(census.fate(of: "author.sameAs") == .extras)
        #expect(census.fate(of: "author.jobTitle") == .extras)
        #expect(census.fate(of: "recipeInstructions[].text") == .carried("instructions"))
        #expect(census.fate(of: "recipeInstructions[].url") == .extras)
        #expect(census.fate(of: "review[].reviewBody") == .carried("reviews"))
        #expect(census.fate(of: "review[].author.name") == .carried("reviews"))
        #expect(census.fate(of: "review[].author.url") == .extras)
        #expect(census.fate(of: "aggregateRating.bestRating") == .extras, "Larder's scale for 4.5 is 5, not 10")
        #expect(census.fate(of: "aggregateRating.worstRating") == .extras)
        #expect(census.fate(of: "video.embedUrl") == .extras, "read into videoURL, written back as contentUrl")
        if case .dropped(let reason)? = census.fate(of: "video.@context") {
            #expect(!reason.isEmpty)
        } else {
            Issue.record("video.@context: \(String(describing: census.fate(of: "video.@context")))")
        }
        if case .dropped(let reason)? = census.fate(of: "author.@type") {
            #expect(reason.contains("export"))
        } else {
            Issue.record("author.@type: \(String(describing: census.fate(of: "author.@type")))")
        }
        let kept = imported.extras["schemaorg"]?.objectValue ?? Fields()
        #expect(kept["author.sameAs"] == ["https://social.example/ada", "https://other.example/ada"])
        #expect(kept["recipeInstructions[1/2].url"] == "https://page.example/#step-2")
        #expect(kept["review[0/2].datePublished"] == "2024-01-02")
        #expect(kept["review[1/2].reviewRating"] == ["@type": "Rating", "ratingValue": 4])
        #expect(kept["author.name"] == nil, "a member read into Larder is not kept twice")
    }

    @Test(
        "the export puts kept members back in place; what has no place (or a Larder value there) stays under its path")
    func exportRestores() throws {
        let recipe = Self.recipe(try SchemaOrgRecipeParser().parse(Self.node))
        let exported = SchemaOrgExporter.node(recipe)
        #expect(exported["author"]?["sameAs"] == ["https://social.example/ada", "https://other.example/ada"])
        #expect(exported["author"]?["jobTitle"] == "Cook")
        #expect(
            exported["recipeInstructions"]?.arrayValue?.map { $0["url"] } == [
                "https://page.example/#step-1", "https://page.example/#step-2",
            ])
        #expect(exported["review"]?.arrayValue?.first?["datePublished"] == "2024-01-02")
        #expect(exported["video"]?["embedUrl"] == "https://video.example/embed/1")
        #expect(exported["aggregateRating"]?["worstRating"] == 1)
        // Larder's own scale is written; the page's is not lost, it stays under its path.
        #expect(exported["aggregateRating"]?["bestRating"] == 5.0)
        #expect(exported["aggregateRating.bestRating"] == 10)
        // A review the export writes without an author object: the author's link has no place.
        #expect(exported["review[0/2].author.url"] == "https://bo.example")
        // And the re-import reads the same recipe, with the same extras.
        let again = Self.recipe(try SchemaOrgRecipeParser().parse(exported))
        #expect(again.reviews == recipe.reviews)
        let sorted = SchemaOrgCorpusRoundTripTests.sortingKeys
        #expect(sorted(.object(again.extras)) == sorted(.object(recipe.extras)))
    }

    @Test("a member of a list element goes back only into a list of the same length, never onto another element")
    func listLengthGuard() throws {
        // A step whose name says more than its text becomes two Larder steps: three exported steps for two.
        var node = try #require(Self.node.objectValue)
        node["recipeInstructions"] = [
            ["@type": "HowToStep", "name": "Dough", "text": "Mix.", "url": "https://page.example/#step-1"],
            ["@type": "HowToStep", "text": "Bake.", "url": "https://page.example/#step-2"],
        ]
        let recipe = Self.recipe(try SchemaOrgRecipeParser().parse(.object(node)))
        let exported = SchemaOrgExporter.node(recipe)
        #expect(exported["recipeInstructions"]?.arrayValue?.count == 3)
        #expect(exported["recipeInstructions"]?.arrayValue?.allSatisfy { $0["url"] == nil } == true)
        #expect(exported["recipeInstructions[0/2].url"] == "https://page.example/#step-1")
        #expect(exported["recipeInstructions[1/2].url"] == "https://page.example/#step-2")
    }

    @Test("member paths: parsed, read and placed; a list of one is its single value; a malformed key is no path")
    func memberPaths() throws {
        #expect(MemberPath("author") == nil)
        #expect(MemberPath("author.") == nil)
        #expect(MemberPath("steps[3/2].url") == nil)
        #expect(MemberPath("steps[1/2]") == nil)
        #expect(MemberPath("steps[x/2].url") == nil)
        #expect(MemberPath("og:title.x")?.root == "og:title")
        let path = try #require(MemberPath("steps[1/2].itemListElement.url"))
        #expect(path.steps == [.element(1, of: 2), .member("itemListElement"), .member("url")])
        var record: Value = ["steps": [["text": "a"], ["text": "b", "itemListElement": [["text": "c"]]]]]
        #expect(path.place("u", in: &record))
        #expect(path.value(in: record) == "u")
        #expect(record["steps"]?.arrayValue?[1]["itemListElement"]?.arrayValue?[0]["url"] == "u")
        #expect(!path.place("v", in: &record), "a value already there is not replaced")
        var single: Value = ["author": ["name": "Ada"]]
        #expect(MemberPath("author[0/1].url")?.place("https://ada.example", in: &single) == true)
        #expect(single["author"]?["url"] == "https://ada.example")
        var other: Value = ["steps": [["text": "a"]]]
        #expect(MemberPath("steps[0/2].url")?.place("u", in: &other) == false)
        #expect(other == ["steps": [["text": "a"]]])
    }

    @Test(
        "schema.org corpus: every member of a carried structured property has a census line, and what is kept comes back in the export",
        .enabled(if: Corpus.has("schemaorg"), "needs ../shared/corpus/schemaorg (or LARDER_CORPUS)"))
    func corpusMembers() throws {
        var uncounted: [String] = []
        var lost: [String] = []
        var members = 0
        for page in try SchemaOrgCorpusPages.load().pages {
            let census = Set(page.imported.fieldCensus.entries.map(\.field))
            for field in page.source.objectValue ?? Fields()
            where SchemaOrgRecipeParser.structuredFields.contains(field.key) {
                guard case .carried? = page.imported.fieldCensus.fate(of: field.key) else { continue }
                for shown in Self.memberNames(field.value, shown: field.key, finder: page.finder) {
                    members += 1
                    let counted = census.contains {
                        $0 == shown || $0.hasPrefix(shown + ".") || $0.hasPrefix(shown + "[]")
                    }
                    if !counted { uncounted.append("\(page.file): \(shown)") }
                }
            }
            let exported = SchemaOrgExporter.node(Self.recipe(page.imported))
            for kept in page.imported.extras["schemaorg"]?.objectValue ?? Fields() {
                guard let path = MemberPath(kept.key) else { continue }
                if path.value(in: exported) != kept.value && exported[kept.key] != kept.value {
                    lost.append("\(page.file): \(kept.key)")
                }
            }
        }
        #expect(members > 10_000)
        #expect(uncounted.isEmpty, "\(uncounted.count): \(uncounted.prefix(10))")
        #expect(lost.isEmpty, "\(lost.count): \(lost.prefix(10))")
    }

    /// The census names of the non-empty members of a property's nodes, written independently of
    /// the importer: `author.name`, `recipeInstructions[].url`, a section's steps under `itemListElement[]`.
    static func memberNames(_ value: Value, shown: String, finder: SchemaOrgNodeFinder, depth: Int = 0) -> [String] {
        guard depth < 8 else { return [] }
        switch finder.resolve(value) {
        case .array(let elements):
            return elements.flatMap { memberNames($0, shown: shown + "[]", finder: finder, depth: depth + 1) }
        case .object(let fields):
            return fields.filter { !FieldCensus.isEmpty($0.value) }.flatMap { member -> [String] in
                let name = shown + "." + member.key
                guard member.key == "itemListElement" else { return [name] }
                return memberNames(member.value, shown: name, finder: finder, depth: depth + 1)
            }
        default:
            return []
        }
    }
}

/// Mealie's nested members: an ingredient's reference id, unit and food objects, a tag's id, a
/// step's id, a comment's author: counted, kept by path, and back in place in a Mealie export.
@Suite struct MealieMemberCensusTests {
    static let source: Value = [
        "id": "6a8c1a52-4f0a-4d35-9d7e-0c1a5c2b8e11", "name": "Focaccia",
        "recipeIngredient": [
            [
                "quantity": 500, "unit": ["id": "u-gram", "name": "g", "abbreviation": "g"],
                "food": ["id": "f-flour", "name": "strong flour", "labelId": "l-baking"], "note": "",
                "originalText": "500 g strong flour", "referenceId": "ref-1", "title": "Dough",
            ],
            ["quantity": 1, "note": "olive oil, to drizzle", "referenceId": "ref-2", "disableAmount": true],
        ],
        "recipeInstructions": [
            ["id": "step-a", "title": "", "text": "Mix and rest.", "ingredientReferences": [["referenceId": "ref-1"]]],
            ["id": "step-b", "text": "Bake."],
        ],
        "tags": [["id": "t-bread", "name": "Bread", "slug": "bread"]],
        "comments": [["id": "c1", "text": "Great crust.", "user": ["id": "u1", "username": "bo"]]],
    ]

    @Test("every nested member has a census line; ids and unit/food details are kept by path")
    func census() throws {
        let imported = try MealieImporter.recipe(from: Self.source)
        let census = imported.fieldCensus
        #expect(census.fate(of: "recipeIngredient[].referenceId") == .extras)
        #expect(census.fate(of: "recipeIngredient[].unit") == .extras)
        #expect(census.fate(of: "recipeIngredient[].food") == .extras)
        #expect(census.fate(of: "recipeIngredient[].originalText") == .carried("ingredients"))
        #expect(census.fate(of: "recipeIngredient[].title") == .carried("ingredients.group"))
        #expect(census.fate(of: "recipeInstructions[].id") == .extras)
        #expect(census.fate(of: "recipeInstructions[].ingredientReferences") == .extras)
        #expect(census.fate(of: "recipeInstructions[].text") == .carried("instructions"))
        #expect(census.fate(of: "tags[].id") == .extras)
        #expect(census.fate(of: "tags[].name") == .carried("tags"))
        #expect(census.fate(of: "comments[].user.username") == .carried("reviews"))
        #expect(census.fate(of: "comments[].user.id") == .extras)
        #expect(census.fate(of: "comments[].id") == .extras)
        let kept = imported.extras["mealie"]?.objectValue ?? Fields()
        #expect(kept["recipeIngredient[0/2].referenceId"] == "ref-1")
        #expect(kept["recipeIngredient[0/2].unit"] == ["id": "u-gram", "name": "g", "abbreviation": "g"])
        #expect(kept["recipeInstructions[0/2].ingredientReferences"] == [["referenceId": "ref-1"]])
        #expect(kept["tags.id"] == "t-bread")
    }

    @Test("a Mealie export puts the kept ids and details back in place, over the ids it would make up")
    func exportRestores() throws {
        let imported = try MealieImporter.recipe(from: Self.source)
        let recipe = imported.makeRecipe(
            id: "6a8c1a52-4f0a-4d35-9d7e-0c1a5c2b8e11", imageRef: nil,
            importedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let exported = MealieExporter.object(recipe, slug: "focaccia")
        let ingredients = exported["recipeIngredient"]?.arrayValue ?? []
        #expect(ingredients.count == 2)
        #expect(ingredients.first?["referenceId"] == "ref-1")
        #expect(ingredients.last?["referenceId"] == "ref-2")
        #expect(ingredients.first?["unit"]?["id"] == "u-gram")
        #expect(ingredients.first?["food"]?["labelId"] == "l-baking")
        let steps = exported["recipeInstructions"]?.arrayValue ?? []
        #expect(steps.map { $0["id"] } == ["step-a", "step-b"])
        #expect(steps.first?["ingredientReferences"] == [["referenceId": "ref-1"]])
        #expect(exported["tags"]?.arrayValue?.first?["id"] == "t-bread")
        #expect(exported["tags"]?.arrayValue?.first?["slug"] == "bread")
        // Every member found its place but the comments' (a Mealie export has no comments): those
        // are written under their paths, still not lost.
        let pathKeys = (exported.objectValue ?? Fields()).map(\.key).filter { $0.contains("[") || $0.contains(".") }
        #expect(pathKeys.sorted() == ["comments.id", "comments.user.id"], "\(pathKeys)")
    }
}

/// Tandoor's nested members: a step's id and files, an ingredient's food and unit details, a
/// keyword's id: counted, kept by path, and back in place in a Tandoor export.
@Suite struct TandoorMemberCensusTests {
    static let source: Value = [
        "name": "Shakshuka", "servings": 2,
        "keywords": [["id": 7, "name": "eggs", "description": "", "label": "Eggs"]],
        "steps": [
            [
                "id": 31, "name": "", "instruction": "Simmer the sauce, add the eggs.", "time": 20, "order": 0,
                "show_as_header": false, "file": ["id": 4, "name": "pan.jpg"],
                "ingredients": [
                    [
                        "id": 101,
                        "food": ["id": 5, "name": "eggs", "plural_name": "eggs", "supermarket_category": "Dairy"],
                        "unit": .null, "amount": 4, "note": "", "order": 0, "is_header": false, "no_amount": false,
                        "original_text": "4 eggs",
                    ],
                    [
                        "id": 102, "food": ["id": 6, "name": "tomatoes"],
                        "unit": ["id": 2, "name": "g", "plural_name": "g"],
                        "amount": 400, "note": "", "order": 1, "is_header": false, "no_amount": false,
                        "original_text": "400 g tomatoes",
                    ],
                ],
            ]
        ],
    ]

    @Test("every nested member has a census line; ids and food details are kept and put back in place")
    func censusAndRestore() throws {
        let imported = try TandoorImporter.recipe(from: Self.source)
        let census = imported.fieldCensus
        #expect(census.fate(of: "steps[].id") == .extras)
        #expect(census.fate(of: "steps[].file") == .extras)
        #expect(census.fate(of: "steps[].instruction") == .carried("instructions"))
        #expect(census.fate(of: "steps[].ingredients[].id") == .extras)
        #expect(census.fate(of: "steps[].ingredients[].food.name") == .carried("ingredients"))
        #expect(census.fate(of: "steps[].ingredients[].food.supermarket_category") == .extras)
        #expect(census.fate(of: "steps[].ingredients[].unit.plural_name") == .extras)
        #expect(census.fate(of: "keywords[].id") == .extras)
        #expect(census.fate(of: "keywords[].name") == .carried("tags"))
        let kept = imported.extras["tandoor"]?.objectValue ?? Fields()
        #expect(kept["steps.ingredients[0/2].food.supermarket_category"] == "Dairy")
        #expect(kept["keywords.label"] == "Eggs")

        let recipe = imported.makeRecipe(
            id: "shakshuka", imageRef: nil, importedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let exported = TandoorExporter.object(recipe)
        let step = exported["steps"]?.arrayValue?.first
        #expect(step?["id"] == 31)
        #expect(step?["file"] == ["id": 4, "name": "pan.jpg"])
        let ingredients = step?["ingredients"]?.arrayValue ?? []
        #expect(ingredients.first?["id"] == 101)
        #expect(ingredients.first?["food"]?["supermarket_category"] == "Dairy")
        #expect(exported["keywords"]?.arrayValue?.first?["label"] == "Eggs")
        let pathKeys = (exported.objectValue ?? Fields()).map(\.key).filter { $0.contains("[") || $0.contains(".") }
        #expect(pathKeys.isEmpty, "\(pathKeys)")
    }
}
