extension PlainRecipe {
    /// What a field of a plain recipe is read as, and the names it goes by.
    ///
    /// Names are compared by their letters and digits only, lowercased, so `prep_time`, `prepTime`,
    /// `Prep Time` and `prep-time` are one name.
    package enum Role: String, Sendable, Hashable, CaseIterable {
        case title, description, author, ingredients, steps, prepTime, cookTime, totalTime, yield, servings, tags
        case categories, cuisine, diets, source, sourceURL, image, createdAt, updatedAt, notes, nutrition, rating
        case difficulty, id, favorite, ownerID
        /// Larder's membership flags (`isSaved`, `isCreated`, `isPublic`).
        case larderFlag
        /// Larder's sync state (`recordName`, `changeTag`, `isDeleted`, …).
        case syncState

        /// The role of a field named `key`, or `nil` when Larder has no field for it.
        package init?(key: String) {
            guard let role = Self.byName[PlainRecipe.normalizedName(key)] else { return nil }
            self = role
        }

        /// The names this role goes by, normalized (see ``PlainRecipe/normalizedName(_:)``).
        package var names: [String] {
            switch self {
            case .title: ["title", "name", "recipename", "recipetitle"]
            case .description: ["description", "summary", "intro", "introduction", "about"]
            case .author: ["author", "authors", "by", "chef", "creator", "sourceauthors"]
            case .ingredients:
                [
                    "ingredients", "ingredient", "ingredientlist", "ingredientlines", "recipeingredient",
                    "recipeingredients",
                ]
            case .steps:
                [
                    "steps", "step", "instructions", "instruction", "directions", "direction", "method", "methods",
                    "recipeinstructions", "procedure", "preparation",
                ]
            case .prepTime:
                [
                    "preptime", "prep", "preparationtime", "prepminutes", "preptimeminutes", "activetime",
                    "workingtime", "handsontime",
                ]
            case .cookTime:
                [
                    "cooktime", "cook", "cookingtime", "cookminutes", "cooktimeminutes", "performtime", "baketime",
                    "bakingtime", "oventime",
                ]
            case .totalTime: ["totaltime", "total", "totalminutes", "totaltimeminutes", "time", "duration", "readyin"]
            case .yield: ["yield", "yields", "recipeyield", "makes"]
            case .servings: ["servings", "serves", "serving", "portions", "persons", "people"]
            case .tags: ["tags", "tag", "keywords", "keyword", "labels", "label"]
            case .categories: ["categories", "category", "recipecategory", "course", "courses", "mealtype"]
            case .cuisine: ["cuisine", "cuisines", "recipecuisine"]
            case .diets: ["diet", "diets", "dietarynotes", "dietary", "suitablefordiet", "dietaryrestrictions"]
            case .source: ["source"]
            case .sourceURL: ["url", "sourceurl", "link", "originalurl", "orgurl", "website", "recipeurl", "href"]
            case .image:
                [
                    "image", "images", "imageurl", "imageurls", "photo", "photos", "photourl", "picture", "pictures",
                    "img", "thumbnail", "imageref",
                ]
            case .createdAt:
                [
                    "created", "createdat", "datecreated", "creationdate", "date", "dateadded", "added", "addedat",
                    "published", "datepublished", "publishedat",
                ]
            case .updatedAt:
                ["updated", "updatedat", "modified", "modifiedat", "datemodified", "lastmodified", "lastupdated"]
            case .notes: ["notes", "note", "comments", "comment", "tips", "tip", "remarks", "hints"]
            case .nutrition: ["nutrition", "nutritionalinfo", "nutritioninfo", "nutritionfacts", "nutrients"]
            case .rating: ["rating", "stars", "score"]
            case .difficulty: ["difficulty", "level", "skilllevel"]
            case .id: ["id", "uuid", "uid", "recipeid", "recipeuuid", "identifier"]
            case .favorite:
                ["favorite", "favourite", "isfavorite", "isfavourite", "isfavorited", "favorited", "onfavorites"]
            case .ownerID: ["ownerid"]
            case .larderFlag: ["issaved", "iscreated", "ispublic"]
            case .syncState: ["recordname", "iscloudenabled", "isdeleted", "deletedat", "changetag"]
            }
        }

        /// The Larder recipe field the role fills (its JSON key), for the field census.
        ///
        /// `nil` for Larder's own sync state and set flags, which are not imported.
        package var larderField: String? {
            switch self {
            case .title: "title"
            case .description: "description"
            case .author: "author"
            case .ingredients: "ingredients"
            case .steps: "instructions"
            case .prepTime: "prepTime"
            case .cookTime: "cookTime"
            case .totalTime: "totalTime"
            case .yield: "yield"
            case .servings: "servings"
            case .tags: "tags"
            case .categories: "categories"
            case .cuisine: "cuisines"
            case .diets: "dietaryNotes"
            case .source: "sourceName"
            case .sourceURL: "sourceURL"
            case .image: "images"
            case .createdAt: "createdAt"
            case .updatedAt: "updatedAt"
            case .notes: "notes"
            case .nutrition: "nutrition"
            case .rating: "rating"
            case .difficulty: "difficulty"
            case .id: "id"
            case .favorite: "isFavorited"
            case .ownerID: "ownerID"
            case .larderFlag, .syncState: nil
            }
        }

        /// Normalized name → role, built once.
        static let byName: [String: Role] = {
            var map: [String: Role] = [:]
            for role in allCases {
                for name in role.names { map[name] = role }
            }
            return map
        }()
    }

    /// A field name reduced to its lowercased letters and digits (`Prep_Time` → `preptime`).
    ///
    /// ASCII names (nearly all) are reduced byte by byte; any other goes through
    /// ``normalizedNameByScalars(_:)``, which a seeded test holds this to.
    package static func normalizedName(_ key: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count)
        for byte in key.utf8 {
            switch byte {
            case 0x61...0x7A, 0x30...0x39: bytes.append(byte)
            case 0x41...0x5A: bytes.append(byte + 0x20)
            case 0x80...: return normalizedNameByScalars(key)
            default: continue
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``normalizedName(_:)`` by Unicode scalar properties (letters of any script, ASCII digits).
    package static func normalizedNameByScalars(_ key: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in key.lowercased().unicodeScalars
        where scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
            out.append(scalar)
        }
        return String(out)
    }
}
