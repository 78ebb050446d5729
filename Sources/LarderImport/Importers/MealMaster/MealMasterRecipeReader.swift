import Foundation
import LarderCore

/// Reads the lines of one MealMaster recipe, from the line after its header to the line before
/// its end line, into an ``ImportedRecipe``.
///
/// The layout, as MealMaster writes it: header lines (`Title:`, `Categories:`, `Yield:` or
/// `Servings:`), then ingredient lines in fixed columns (a 7-character quantity, a space, a
/// 2-character unit code, a space, the text; the two-column layout puts a second ingredient at
/// column 41, read left then right), continuation lines whose text starts with `-`, headings
/// (`MMMMM-----FOR THE SAUCE-----` or `-----FOR THE SAUCE-----`), and after the first line that is
/// no ingredient, the directions: paragraphs separated by blank lines. A heading among the
/// ingredients heads the ingredients after it; one among the directions (or followed by
/// directions) becomes a section step.
///
/// An ingredient line becomes `quantity unit text` with the quantity written as fractions
/// (`1.5` → `1 1/2`) and the unit code as a word (``MealMasterUnit``), so that ``IngredientLines``
/// reads it.
struct MealMasterRecipeReader {
    enum Framing {
        /// `MMMMM----- Recipe via Meal-Master` … `MMMMM`.
        case mmmmm
        /// `----- Recipe via Meal-Master` … `-----`.
        case dashes
        /// RezKonv, the German variant: `=====  REZKONV-Rezept - RezkonvSystem` … `=====`.
        case rezkonv
        /// MealMaster-like text with no framing, as some apps print it: a recipe starts at its
        /// `Title:` line and ends at the next one or at the end of the file.
        case unframed
    }

    private enum Phase { case header, ingredients, directions }

    let framing: Framing
    /// The 1-based line of the header.
    let headerLine: Int
    private var phase = Phase.header
    private var title: String?
    private var categories: [String] = []
    private var yieldText: String?
    private var ingredients: [String] = []
    private var headings: [Int: String] = [:]
    private var steps: [ImportedRecipe.Step] = []
    private var paragraph: [String] = []
    private var pendingHeading: String?
    /// The ingredient index each column's last line went to, for continuation lines.
    private var lastInColumn: [Int?] = [nil, nil]

    init(framing: Framing, headerLine: Int) {
        self.framing = framing
        self.headerLine = headerLine
    }

    /// The framing a header line opens (it starts with `MMMMM` or five dashes and names Meal-Master,
    /// or with five `=` and names RezKonv), else `nil`.
    static func framing(ofHeader line: String) -> Framing? {
        if line.hasPrefix("====="), line.range(of: "rezkonv", options: .caseInsensitive) != nil { return .rezkonv }
        // The prefix first: the case-insensitive search (through NSString) only on the lines it can open.
        guard line.hasPrefix("MMMMM") || line.hasPrefix("-----"),
            line.range(of: "meal-master", options: .caseInsensitive) != nil
        else { return nil }
        return line.hasPrefix("MMMMM") ? .mmmmm : .dashes
    }

    /// Whether `line` ends the recipe: `MMMMM` alone, or a line of dashes only.
    func isEnd(_ line: String) -> Bool {
        let trimmed = line.trimmingBlanks
        switch framing {
        case .mmmmm: return trimmed == "MMMMM"
        case .dashes: return trimmed.count >= 5 && trimmed.allSatisfy { $0 == "-" }
        case .rezkonv: return trimmed.count >= 5 && trimmed.allSatisfy { $0 == "=" }
        case .unframed: return false
        }
    }

    /// The heading text of a heading line (`MMMMM----SAUCE----`, RezKonv's `=====TEIG=====`), `""`
    /// for one with no text, else `nil`.
    static func heading(_ line: String) -> String? {
        var rest = line[...].trimmingScalars(where: \.isBlank)
        if rest.hasPrefix("=====") { return String(rest.trimmingScalars { $0 == "=" || $0 == " " }) }
        if rest.hasPrefix("MMMMM") { rest = rest.dropFirst(5) } else if !rest.hasPrefix("-----") { return nil }
        guard rest.hasPrefix("-----") else { return nil }
        let text = String(rest.trimmingScalars { $0 == "-" || $0 == " " })
        return text
    }

    /// Reads one line.
    mutating func add(_ line: String) {
        let trimmed = line.trimmingBlanks
        if phase == .header {
            if trimmed.isEmpty { return }
            if readHeader(trimmed) { return }
            phase = .ingredients
        }
        if let heading = Self.heading(line) {
            endParagraph()
            guard !heading.isEmpty else { return }
            if phase == .directions {
                steps.append(.init(text: heading, isSection: true))
            } else {
                pendingHeading = heading
            }
            return
        }
        if phase == .ingredients {
            if trimmed.isEmpty || framing == .rezkonv && trimmed == "Zutaten:" { return }
            if framing == .rezkonv && trimmed == "Zubereitung:" {
                phase = .directions
                return
            }
            if addIngredients(line) { return }
            phase = .directions
        }
        if let heading = pendingHeading {
            steps.append(.init(text: heading, isSection: true))
            pendingHeading = nil
        }
        if trimmed.isEmpty { endParagraph() } else { paragraph.append(trimmed) }
    }

    /// Whether `line` is a `Title:` line, which starts a recipe in unframed text.
    static func isTitleLine(_ line: String) -> Bool {
        line.trimmingBlanks.lowercased().hasPrefix("title:")
    }

    /// Reads a `Title:`, `Categories:`, `Yield:` or `Servings:` line; `false` for any other.
    private mutating func readHeader(_ trimmed: String) -> Bool {
        func value(_ key: String) -> String? {
            guard trimmed.lowercased().hasPrefix(key.lowercased() + ":") else { return nil }
            return trimmed.dropFirst(key.count + 1).trimmingBlanks
        }
        if let text = value("Title") ?? value("Titel") {
            title = text
        } else if let text = value("Categories") ?? value("Kategorien") {
            categories = text.split(separator: ",").map { $0.trimmingBlanks }
                .filter { !$0.isEmpty && $0.lowercased() != "none" }
        } else if let text = value("Yield") ?? value("Servings") ?? value("Menge") {
            yieldText = text
        } else {
            return false
        }
        return true
    }

    /// Reads an ingredient line (one or two columns); `false` when the line is not one.
    private mutating func addIngredients(_ line: String) -> Bool {
        let chars = Array(line)
        if framing == .rezkonv {
            guard let ingredient = Self.rezkonvIngredient(chars) else { return false }
            add(ingredient, column: 0)
            return true
        }
        // A second column: at 40 as MealMaster writes it (a 39-character first one and a space), or a column either side.
        for start in [40, 41, 39, 42] where start < chars.count && chars[start - 1] == " " {
            if let left = Self.ingredient(chars[0..<start]), let right = Self.ingredient(chars[start...]) {
                add(left, column: 0)
                add(right, column: 1)
                return true
            }
        }
        guard let single = Self.ingredient(chars[...]) else { return false }
        add(single, column: 0)
        return true
    }

    private mutating func add(_ ingredient: Ingredient, column: Int) {
        if ingredient.isContinuation, let index = lastInColumn[column] {
            ingredients[index] += " " + ingredient.text.dropFirst().trimmingBlanks
            return
        }
        if pendingHeading != nil, let heading = pendingHeading {
            headings[ingredients.count] = heading
            pendingHeading = nil
        }
        let line = [ingredient.quantity, ingredient.unit.flatMap(MealMasterUnit.word), ingredient.text]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        guard !line.isEmpty else { return }
        lastInColumn[column] = ingredients.count
        ingredients.append(line)
    }

    /// One column of an ingredient line.
    struct Ingredient {
        var quantity: String?
        var unit: String?
        var text: String
        var isBlankAmount: Bool { quantity == nil && unit == nil }
        var isContinuation: Bool { isBlankAmount && text.hasPrefix("-") }
    }

    /// A RezKonv ingredient: the 7-character quantity and a space, then the unit (German units are
    /// words of any length: `EL`, `Prise`, `Msp.`) and the text, kept together for the ingredient parser.
    static func rezkonvIngredient(_ c: [Character]) -> Ingredient? {
        let quantityText = String(c.prefix(7)).trimmingBlanks
        guard c.prefix(7).allSatisfy({ $0.isNumber && $0.isASCII || " /.,-".contains($0) }) else { return nil }
        if c.count > 7, c[7] != " " { return nil }
        let text = (c.count > 8 ? String(c[8...]) : "").split(separator: " ").joined(separator: " ")
        if quantityText.isEmpty && (text.isEmpty || !c.prefix(8).allSatisfy { $0 == " " }) { return nil }
        let quantity = quantityText.isEmpty ? nil : (MealMasterQuantity.normalized(quantityText) ?? quantityText)
        return Ingredient(quantity: quantity, unit: nil, text: text)
    }

    /// The ingredient in the fixed columns of `chars`, `nil` when they hold none.
    static func ingredient(_ chars: ArraySlice<Character>) -> Ingredient? {
        let c = Array(chars)
        guard !c.isEmpty else { return nil }
        func field(_ range: Range<Int>) -> String {
            range.lowerBound >= c.count ? "" : String(c[range.lowerBound..<min(range.upperBound, c.count)])
        }
        let quantityField = field(0..<7)
        guard quantityField.allSatisfy({ $0.isNumber && $0.isASCII || " /.,-".contains($0) }) else { return nil }
        if c.count > 7, c[7] != " " { return nil }
        let unitField = field(8..<10).trimmingBlanks
        guard unitField.isEmpty || MealMasterUnit.isCode(unitField) else { return nil }
        if c.count > 10, c[10] != " " { return nil }
        let text = (c.count > 11 ? String(c[11...]) : "").trimmingBlanks.split(separator: " ")
            .joined(separator: " ")
        let quantityText = quantityField.trimmingBlanks
        if quantityText.isEmpty, unitField.isEmpty, text.isEmpty { return nil }
        // A line of text only must start in the text column (11 spaces first).
        if quantityText.isEmpty, unitField.isEmpty, !c.prefix(11).allSatisfy({ $0 == " " }) { return nil }
        let quantity = quantityText.isEmpty ? nil : (MealMasterQuantity.normalized(quantityText) ?? quantityText)
        return Ingredient(quantity: quantity, unit: unitField.isEmpty ? nil : unitField, text: text)
    }

    private mutating func endParagraph() {
        guard !paragraph.isEmpty else { return }
        steps.append(.init(text: paragraph.joined(separator: " ")))
        paragraph = []
    }

    /// The recipe read.
    /// - Throws: ``LarderError`` `malformed-record` with the field: no title, or neither ingredients nor directions.
    mutating func finish() throws -> ImportedRecipe {
        endParagraph()
        if let heading = pendingHeading { steps.append(.init(text: heading, isSection: true)) }
        guard let title, !title.isEmpty else {
            throw LarderError(
                .malformedRecord, "the recipe has no Title: line",
                location: SourceLocation(line: headerLine, fieldPath: "title"))
        }
        guard !ingredients.isEmpty || !steps.isEmpty else {
            throw LarderError(
                .malformedRecord, "the recipe \"\(title)\" has neither ingredients nor directions",
                location: SourceLocation(line: headerLine, fieldPath: "ingredients"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.categories = categories
        if let yieldText {
            let words = yieldText.split(separator: " ").joined(separator: " ")
            recipe.servings = RecipeYield.servingsAlone(words)
            recipe.yieldText = recipe.servings.map { "\($0) serving\($0 == 1 ? "" : "s")" } ?? words
        }
        recipe.ingredients = ingredients
        recipe.ingredientHeadings = headings
        recipe.steps = steps
        takeCensus(of: &recipe, title: title)
        return recipe
    }

    /// The census of the recipe's parts: every part MealMaster has is carried (a line the reader
    /// cannot place is a direction, so nothing is dropped).
    private func takeCensus(of recipe: inout ImportedRecipe, title: String) {
        var parts = Fields()
        parts.append(key: "Title", value: .string(title))
        if !categories.isEmpty { parts.append(key: "Categories", value: .array(categories.map(Value.string))) }
        if let yieldText { parts.append(key: "Yield", value: .string(yieldText)) }
        // The lines themselves, so the leaf census finds each in the recipe.
        if !ingredients.isEmpty { parts.append(key: "ingredients", value: .array(ingredients.map(Value.string))) }
        if !headings.isEmpty {
            parts.append(
                key: "ingredient headings", value: .array(headings.sorted { $0.key < $1.key }.map { .string($0.value) })
            )
        }
        if !steps.isEmpty { parts.append(key: "directions", value: .array(steps.map { .string($0.text) })) }
        recipe.takeCensus(
            of: parts,
            table: FieldTable(
                .mealmaster,
                [
                    "Title": .carried("title"), "Categories": .carried("categories"), "Yield": .carried("yield"),
                    "ingredients": .carried("ingredients"), "ingredient headings": .carried("ingredients.group"),
                    "directions": .carried("instructions"),
                ]))
    }
}
