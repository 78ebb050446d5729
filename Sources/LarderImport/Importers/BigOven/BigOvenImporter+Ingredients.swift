import LarderCore
import LarderFormats

/// BigOven's ingredient list (`BigOvenModelAPIIngredient`s) and the member census of a recipe's
/// structured fields (see ``MemberCensus``): which member of an ingredient, of `Poster` and of
/// `NutritionInfo` the importer read, and which it keeps in `extras.bigoven` under its path
/// (`Ingredients[2/9].IngredientInfo`, `Poster.UserID`, `NutritionInfo.SodiumPct`).
extension BigOvenImporter {
    /// The fields whose members are counted one by one.
    static let structuredFields: Set<String> = ["Ingredients", "Poster", "NutritionInfo"]

    /// The members of an ingredient that make its line (or its heading).
    static let lineMembers: Set<String> = [
        "Name", "DisplayQuantity", "Unit", "PreparationNotes", "IsHeading", "DisplayIndex",
    ]

    /// Reads `Ingredients` in `DisplayIndex` order: a heading names the section of the lines after
    /// it, any other ingredient (or a text) is a line; an ingredient with nothing in it is passed over.
    /// - Throws: ``LarderError`` `malformed-record` at `Ingredients` when it is not a list, at
    ///   `Ingredients[i]` for an element that is neither an ingredient object nor a line.
    static func readIngredients(_ value: Value, into recipe: inout ImportedRecipe) throws {
        guard let elements = value.arrayValue else {
            throw LarderError(
                .malformedRecord, "expected a list of ingredients, found \(value.kindDescription)",
                location: SourceLocation(fieldPath: "Ingredients"))
        }
        let ordered = elements.enumerated().sorted {
            (ImportText.number($0.element["DisplayIndex"]) ?? .infinity, $0.offset)
                < (ImportText.number($1.element["DisplayIndex"]) ?? .infinity, $1.offset)
        }
        for (index, element) in ordered {
            if case .string(let line) = element {
                readIngredientLines(ImportText.lines(line), into: &recipe)
                continue
            }
            guard let ingredient = element.objectValue else {
                if element.isNull { continue }
                throw LarderError(
                    .malformedRecord, "expected an ingredient object, found \(element.kindDescription)",
                    location: SourceLocation(fieldPath: FieldPath.root.appending("Ingredients").appending(index: index))
                )
            }
            if ingredient["IsHeading"] == .bool(true) {
                if let heading = ingredient["Name"]?.scalarText {
                    recipe.ingredientHeadings[recipe.ingredients.count] = heading
                }
            } else if let line = line(of: ingredient) {
                recipe.structuredIngredients[recipe.ingredients.count] = structured(ingredient, line: line)
                recipe.ingredients.append(line)
            }
        }
    }

    /// Ingredient lines; a line ending in `:` with no digit heads the lines after it.
    static func readIngredientLines(_ lines: [String], into recipe: inout ImportedRecipe) {
        for line in lines {
            if line.hasSuffix(":"), !line.contains(where: \.isNumber) {
                recipe.ingredientHeadings[recipe.ingredients.count] = String(line.dropLast()).trimmingWhitespace
            } else {
                recipe.ingredients.append(line)
            }
        }
    }

    /// An ingredient's line as BigOven shows it: `DisplayQuantity` (else `Quantity`), `Unit`,
    /// `Name`, then `, PreparationNotes`; `nil` when it has none of them.
    static func line(of ingredient: Fields) -> String? {
        let quantity =
            ingredient["DisplayQuantity"]?.scalarText
            ?? ImportText.number(ingredient["Quantity"]).flatMap { $0 > 0 ? text($0) : nil }
        var line = [quantity, ingredient["Unit"]?.scalarText, ingredient["Name"]?.scalarText].compactMap { $0 }
            .joined(separator: " ")
        if let notes = ingredient["PreparationNotes"]?.scalarText { line += line.isEmpty ? notes : ", " + notes }
        return line.isEmpty ? nil : line
    }

    /// An ingredient as BigOven structures it.
    ///
    /// `Quantity` (else the line's), `Unit` (as the ingredient parser names it, else as written),
    /// `Name` and `PreparationNotes`; the line is the original. A range the line shows (`2-3`)
    /// keeps its upper end.
    static func structured(_ ingredient: Fields, line: String) -> Ingredient {
        let parsed = IngredientLines.make(line)
        let unit = ingredient["Unit"]?.scalarText
        return Ingredient(
            quantity: ImportText.number(ingredient["Quantity"]).flatMap { $0 > 0 ? $0 : nil } ?? parsed.quantity,
            quantityMax: parsed.quantityMax, unit: unit.map { parsed.unit ?? $0 },
            item: ingredient["Name"]?.scalarText ?? parsed.item, note: ingredient["PreparationNotes"]?.scalarText,
            original: line)
    }

    /// A number as BigOven's text shows it: `2`, `0.5`.
    static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The member census of a recipe this importer read.
    static func memberCensus(_ recipe: ImportedRecipe) -> MemberCensus {
        MemberCensus { root, keys, _, node in
            guard keys.count == 1, let key = keys.first else { return .fate(.extras) }
            return .fate(memberFate(root: root, key: key, node: node, recipe: recipe))
        }
    }

    private static func memberFate(root: String, key: String, node: Fields, recipe: ImportedRecipe) -> FieldFate {
        switch root {
        case "Ingredients":
            if lineMembers.contains(key) { return .carried("ingredients") }
            // A quantity of 0 is BigOven's "none" (a heading's, or `salt to taste`): kept as it is.
            let isQuantity = key == "Quantity" && node["IsHeading"] != .bool(true)
            return isQuantity && (ImportText.number(node["Quantity"]) ?? 0) > 0 ? .carried("ingredients") : .extras
        case "Poster":
            let named = node["FirstName"]?.scalarText != nil || node["LastName"]?.scalarText != nil
            switch key {
            case "FirstName", "LastName": return .carried("author")
            case "UserName": return named ? .extras : .carried("author")
            case "WebUrl": return recipe.authorURL == nil ? .extras : .carried("author.url")
            default: return .extras
            }
        case "NutritionInfo":
            return nutrients[key] != nil && ImportText.number(node[key]) != nil ? .carried("nutrition") : .extras
        default:
            return .extras
        }
    }
}
