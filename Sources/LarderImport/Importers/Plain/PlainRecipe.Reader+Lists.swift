import LarderCore
import LarderFormats

extension PlainRecipe.Reader {
    // MARK: Ingredients

    /// Names of an ingredient object's parts (normalized).
    private static let lineKeys: Set<String> = ["original", "text", "line", "raw", "originaltext", "display", "full"]
    private static let quantityKeys: Set<String> = ["quantity", "amount", "qty", "count", "number"]
    private static let quantityMaxKeys: Set<String> = ["quantitymax", "max", "maxquantity", "upto"]
    private static let unitKeys: Set<String> = ["unit", "units", "measure", "uom", "unitname", "measurement"]
    private static let itemKeys: Set<String> = ["item", "name", "food", "product", "ingredient", "foodname"]
    private static let noteKeys: Set<String> = [
        "note", "notes", "comment", "comments", "preparation", "prep", "remark", "remarks", "extra",
    ]
    private static let headingKeys: Set<String> = ["section", "group", "heading", "header", "title", "name"]
    private static let ingredientListKeys: Set<String> = ["ingredients", "items", "list", "lines", "ingredient"]
    /// Keys under which a format wraps a list in one element (`<ingredients><ingredient>…`).
    private static let wrapperKeys: Set<String> = [
        "ingredient", "ingredients", "item", "items", "li", "line", "lines", "step", "steps", "instruction",
        "instructions", "direction", "directions",
    ]

    /// Whether an object describes one ingredient (a line, or an amount, unit or item).
    private static func isIngredientObject(_ fields: Fields) -> Bool {
        fields.contains { field in
            let name = PlainRecipe.normalizedName(field.key)
            return lineKeys.contains(name) || quantityKeys.contains(name) || unitKeys.contains(name)
                || (itemKeys.contains(name) && !(field.value.arrayValue != nil))
        }
    }

    /// Reads ingredients: a list, a text with one line each, an object (one ingredient, a mapping of
    /// item to amount, or of heading to list), sections.
    mutating func readIngredients(_ value: Value, at path: FieldPath, heading: String?) throws {
        switch value {
        case .null:
            return
        case .string(let text):
            var pendingHeading = heading
            for line in text.nonEmptyLines {
                addIngredientLine(String(line), heading: &pendingHeading)
            }
        case .array(let items):
            var pendingHeading = heading
            for (index, item) in items.enumerated() {
                try readIngredient(item, at: path.appending(index: index), heading: &pendingHeading)
            }
        case .object(let fields):
            if Self.isIngredientObject(fields) {
                var pendingHeading = heading
                try readIngredient(value, at: path, heading: &pendingHeading)
                return
            }
            if fields.count == 1, let only = fields.first,
                Self.wrapperKeys.contains(PlainRecipe.normalizedName(only.key))
            {
                try readIngredients(only.value, at: path.appending(only.key), heading: heading)
                return
            }
            for field in fields {
                let fieldPath = path.appending(field.key)
                switch field.value {
                case .string(let text) where !text.contains(where: \.isNewline):
                    // `flour: 200 g` is an amount; `Salt: to taste` a line YAML read as a mapping.
                    var none: String? = nil
                    let amount = text.trimmingWhitespace
                    let startsWithNumber =
                        amount.first.map { $0.isNumber || RecipeTime.vulgarFractions[$0] != nil } ?? false
                    addIngredientLine(
                        startsWithNumber ? amount + " " + field.key : field.key + ": " + amount, heading: &none)
                case .int, .double:
                    var none: String? = nil
                    addIngredientLine(
                        (try PlainRecipe.text(field.value, at: fieldPath) ?? "") + " " + field.key, heading: &none)
                case .object(let inner) where Self.isIngredientObject(inner) || inner.isEmpty:
                    var none: String? = nil
                    try readIngredientObject(inner, at: fieldPath, item: field.key, heading: &none)
                default:
                    try readIngredients(field.value, at: fieldPath, heading: field.key)  // a section
                }
            }
        default:
            throw LarderError(
                .malformedRecord,
                "expected ingredient lines (a list, or a text with one per line), found \(value.kindDescription)",
                location: SourceLocation(fieldPath: path))
        }
    }

    /// Reads one element of an ingredient list.
    private mutating func readIngredient(_ value: Value, at path: FieldPath, heading: inout String?) throws {
        switch value {
        case .null:
            return
        case .string(let text):
            for line in text.nonEmptyLines { addIngredientLine(String(line), heading: &heading) }
        case .array:
            try readIngredients(value, at: path, heading: heading)
            heading = nil
        case .object(let fields):
            if fields.count == 1, let only = fields.first, only.value.isNull {  // YAML `- For the topping:`
                heading = HTMLText.collapseWhitespace(only.key)
                return
            }
            // A section: `{section: "For the dough", ingredients: […]}`.
            if let list = fields.first(where: {
                Self.ingredientListKeys.contains(PlainRecipe.normalizedName($0.key)) && $0.value.arrayValue != nil
            }) {
                let title = try fields.first { Self.headingKeys.contains(PlainRecipe.normalizedName($0.key)) }
                    .flatMap { try PlainRecipe.text($0.value, at: path.appending($0.key)) }
                for field in fields
                where field.key != list.key && !Self.headingKeys.contains(PlainRecipe.normalizedName(field.key)) {
                    unmapped.append(PlainRecipe.UnmappedField(path: path.appending(field.key), value: field.value))
                }
                try readIngredients(list.value, at: path.appending(list.key), heading: title ?? heading)
                heading = nil
                return
            }
            // `- flour: 200 g`, `- For the dough: […]`, `- flour: {amount: 200, unit: g}`.
            if fields.count == 1, !Self.isIngredientObject(fields) {
                try readIngredients(.object(fields), at: path, heading: heading)
                heading = nil
                return
            }
            try readIngredientObject(fields, at: path, item: nil, heading: &heading)
        default:
            throw LarderError(
                .malformedRecord, "expected an ingredient line or object, found \(value.kindDescription)",
                location: SourceLocation(fieldPath: path))
        }
    }

    /// Reads an ingredient object into one line.
    ///
    /// The line as written (`original`, `text`), else the line made of its amount, unit, item and
    /// note. `item` names the item when the object is keyed by it.
    private mutating func readIngredientObject(
        _ fields: Fields, at path: FieldPath, item keyedItem: String?, heading: inout String?
    ) throws {
        var line: String?
        var quantity: String?
        var quantityMax: String?
        var unit: String?
        var item = keyedItem
        var notes: [String] = []
        var ingredientHeading: String?
        let hasAmount = fields.contains {
            let name = PlainRecipe.normalizedName($0.key)
            return Self.quantityKeys.contains(name) || Self.unitKeys.contains(name)
        }
        for field in fields where !PlainRecipe.isEmpty(field.value) {
            let fieldPath = path.appending(field.key)
            let name = PlainRecipe.normalizedName(field.key)
            // An object (`unit: {name: g}`, `food: {name: flour}`) is read by its name.
            var value = field.value
            if case .object(let inner) = value, let named = inner["name"] ?? inner["abbreviation"] ?? inner["text"] {
                value = named
            }
            if Self.lineKeys.contains(name), line == nil {
                line = try PlainRecipe.text(value, at: fieldPath, expected: "an ingredient line")
            } else if name == "ingredient", !hasAmount, line == nil {
                line = try PlainRecipe.text(value, at: fieldPath, expected: "an ingredient line")
            } else if Self.quantityKeys.contains(name), quantity == nil {
                quantity = try PlainRecipe.text(value, at: fieldPath, expected: "an amount")
            } else if Self.quantityMaxKeys.contains(name), quantityMax == nil {
                quantityMax = try PlainRecipe.text(value, at: fieldPath, expected: "an amount")
            } else if Self.unitKeys.contains(name), unit == nil {
                unit = try PlainRecipe.text(value, at: fieldPath, expected: "a unit")
            } else if Self.itemKeys.contains(name), item == nil {
                item = try PlainRecipe.text(value, at: fieldPath, expected: "an ingredient name")
            } else if Self.noteKeys.contains(name), let note = try PlainRecipe.text(value, at: fieldPath) {
                notes.append(note)
            } else if name == "optional", case .bool(let isOptional) = value {
                if isOptional { notes.append("optional") }
            } else if ["section", "group", "heading", "header"].contains(name) {
                ingredientHeading = try PlainRecipe.text(value, at: fieldPath, expected: "a heading")
            } else {
                unmapped.append(PlainRecipe.UnmappedField(path: fieldPath, value: field.value))
            }
        }
        if line == nil {
            var amount = quantity
            if let low = quantity, let high = quantityMax { amount = "\(low)-\(high)" }
            let words = [amount, unit, item].compactMap { $0 }
            if !words.isEmpty {
                line = words.joined(separator: " ") + (notes.isEmpty ? "" : ", " + notes.joined(separator: ", "))
            }
        }
        guard let line else {
            throw LarderError(
                .malformedRecord, "an ingredient with no text: give its line (original, text) or its item (name)",
                location: SourceLocation(fieldPath: path))
        }
        if let ingredientHeading, ingredientHeading != lastIngredientHeading { heading = ingredientHeading }
        addIngredientLine(line, heading: &heading, isHeadingAllowed: false)
        if let ingredientHeading { lastIngredientHeading = ingredientHeading }
    }

    /// Adds a line: a group heading (`For the dough:`, `# Filling`) heads the next line; any other
    /// line, without a list bullet, is an ingredient.
    mutating func addIngredientLine(_ raw: String, heading: inout String?, isHeadingAllowed: Bool = true) {
        var text = HTMLText.collapseWhitespace(raw)
        for bullet in ["- ", "* ", "• ", "– "] where text.hasPrefix(bullet) {
            text = String(text.dropFirst(bullet.count)).trimmingWhitespace
        }
        guard !text.isEmpty else { return }
        if isHeadingAllowed {
            if text.hasPrefix("#") {
                heading = text.drop { $0 == "#" }.trimmingWhitespace
                return
            }
            if text.hasSuffix(":"), !text.contains(where: \.isNumber) {
                heading = String(text.dropLast()).trimmingWhitespace
                return
            }
        }
        if let current = heading, !current.isEmpty { recipe.ingredientHeadings[recipe.ingredients.count] = current }
        heading = nil
        recipe.ingredients.append(text)
    }

    // MARK: Steps

    private static let stepTextKeys: Set<String> = [
        "text", "step", "instruction", "description", "body", "content", "direction", "details", "value", "html",
    ]
    private static let stepListKeys: Set<String> = ["steps", "items", "instructions", "list", "directions", "substeps"]
    private static let timerKeys: Set<String> = ["timer", "time", "duration", "minutes", "waittime", "timerminutes"]

    /// Reads steps: a list, one text block (split at blank lines, numbered lines or lines), an object
    /// (one step, or a mapping of section heading to steps).
    mutating func readSteps(_ value: Value, at path: FieldPath) throws {
        switch value {
        case .null:
            return
        case .string(let text):
            for step in Self.splitSteps(text) { recipe.steps.append(.init(text: step)) }
        case .array(let items):
            for (index, item) in items.enumerated() { try readStep(item, at: path.appending(index: index)) }
        case .object(let fields):
            if Self.isStepObject(fields) {
                try readStep(value, at: path)
            } else if fields.count == 1, let only = fields.first,
                Self.wrapperKeys.contains(PlainRecipe.normalizedName(only.key))
            {
                try readSteps(only.value, at: path.appending(only.key))
            } else {
                for field in fields {
                    recipe.steps.append(.init(text: HTMLText.collapseWhitespace(field.key), isSection: true))
                    try readSteps(field.value, at: path.appending(field.key))
                }
            }
        default:
            throw LarderError(
                .malformedRecord, "expected steps (a list, or one text), found \(value.kindDescription)",
                location: SourceLocation(fieldPath: path))
        }
    }

    private static func isStepObject(_ fields: Fields) -> Bool {
        fields.contains {
            let name = PlainRecipe.normalizedName($0.key)
            return stepTextKeys.contains(name) || stepListKeys.contains(name) || name == "timerseconds"
        }
    }

    /// Reads one element of a step list: a text (one step), an object (a step with a timer, or a
    /// section with its steps), a nested list.
    private mutating func readStep(_ value: Value, at path: FieldPath) throws {
        switch value {
        case .null:
            return
        case .string(let text):
            let step = Self.cleanStep(text)
            if !step.isEmpty { recipe.steps.append(.init(text: step)) }
        case .array:
            try readSteps(value, at: path)
        case .object(let fields):
            if fields.count == 1, let only = fields.first, !Self.isStepObject(fields) {
                // YAML reads `- Make the sauce:` and `- Preheat the oven: 180 °C.` as mappings.
                if only.value.arrayValue != nil || only.value.objectValue != nil {  // `- For the sauce: [steps]`
                    recipe.steps.append(.init(text: HTMLText.collapseWhitespace(only.key), isSection: true))
                    try readSteps(only.value, at: path.appending(only.key))
                    return
                }
                let rest = try only.value.isNull ? nil : PlainRecipe.text(only.value, at: path.appending(only.key))
                let text = HTMLText.collapseWhitespace(only.key + (rest.map { ": " + $0 } ?? ""))
                recipe.steps.append(.init(text: Self.cleanStep(text), isSection: rest == nil))
                return
            }
            var text: String?
            var heading: String?
            var timer: Int?
            var list: Field?
            for field in fields where !PlainRecipe.isEmpty(field.value) {
                let fieldPath = path.appending(field.key)
                let name = PlainRecipe.normalizedName(field.key)
                if Self.stepListKeys.contains(name), field.value.arrayValue != nil, list == nil {
                    list = field
                } else if Self.stepTextKeys.contains(name), text == nil {
                    text = try textBlock(field.value, at: fieldPath).map(Self.cleanStep)
                } else if ["name", "title", "heading", "section", "header"].contains(name), heading == nil {
                    heading = try PlainRecipe.text(field.value, at: fieldPath, expected: "a step heading")
                } else if name == "timerseconds" {
                    timer = try PlainRecipe.text(field.value, at: fieldPath, expected: "seconds").flatMap { Int($0) }
                } else if Self.timerKeys.contains(name), timer == nil {
                    let count = try minutes(field.value, at: fieldPath)
                    // Minutes read as Int.max are more seconds than Int holds: kept as written, no timer.
                    if let (seconds, overflow) = count.map({ $0.multipliedReportingOverflow(by: 60) }) {
                        if overflow {
                            unmapped.append(
                                PlainRecipe.UnmappedField(path: fieldPath, value: field.value, reason: Self.tooLong))
                        } else {
                            timer = seconds
                        }
                    }
                } else {
                    unmapped.append(PlainRecipe.UnmappedField(path: fieldPath, value: field.value))
                }
            }
            if let heading { recipe.steps.append(.init(text: HTMLText.collapseWhitespace(heading), isSection: true)) }
            if let text, !text.isEmpty { recipe.steps.append(.init(text: text, timerSeconds: timer)) }
            if let list { try readSteps(list.value, at: path.appending(list.key)) }
            if heading == nil, text == nil, list == nil {
                throw LarderError(
                    .malformedRecord, "a step with no text: give its text (text, step, instruction)",
                    location: SourceLocation(fieldPath: path))
            }
        default:
            throw LarderError(
                .malformedRecord, "expected a step (text or an object), found \(value.kindDescription)",
                location: SourceLocation(fieldPath: path))
        }
    }

    /// Splits a block of text into steps.
    ///
    /// At blank lines when it has them (a paragraph with numbered lines splits there too), else at
    /// numbered lines when some lines continue the one before, else at every line. HTML is read as
    /// text, its paragraphs and line breaks as lines.
    static func splitSteps(_ block: String) -> [String] {
        let isHTML = block.contains("<") && block.contains(">")
        let text = isHTML ? HTMLText.normalizeKeepingLines(block) : block
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
            $0.trimmingWhitespace
        }
        var paragraphs: [[String]] = [[]]
        for line in lines {
            if line.isEmpty {
                if !(paragraphs.last?.isEmpty ?? true) { paragraphs.append([]) }
            } else {
                paragraphs[paragraphs.count - 1].append(line)
            }
        }
        paragraphs.removeAll(where: \.isEmpty)
        var steps: [String] = []
        if paragraphs.count > 1 {
            for paragraph in paragraphs {
                steps +=
                    paragraph.filter(isNumbered).count >= 2
                    ? joinAtNumbers(paragraph) : [paragraph.joined(separator: " ")]
            }
        } else if let lines = paragraphs.first {
            let numbered = lines.filter(isNumbered).count
            steps = numbered >= 2 && numbered < lines.count && isNumbered(lines[0]) ? joinAtNumbers(lines) : lines
        }
        return steps.map(cleanStep).filter { !$0.isEmpty }
    }

    /// Lines grouped so that each numbered line starts a step and other lines continue it.
    private static func joinAtNumbers(_ lines: [String]) -> [String] {
        var steps: [String] = []
        for line in lines {
            if isNumbered(line) || steps.isEmpty {
                steps.append(line)
            } else {
                steps[steps.count - 1] += " " + line
            }
        }
        return steps
    }

    /// Whether a line starts with a step number (`1.`, `2)`, `3:`, `Step 4`) or a bullet.
    static func isNumbered(_ line: String) -> Bool {
        numberingLength(line) > 0
    }

    /// The length of the numbering or bullet at the start of a line, with the space after it.
    private static func numberingLength(_ line: String) -> Int {
        let chars = Array(line.prefix(12))
        var i = 0
        if line.lowercased().hasPrefix("step") {
            i = 4
            while i < chars.count, chars[i] == " " { i += 1 }
            let digits = i
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
            guard i > digits else { return 0 }
            if i < chars.count, [".", ")", ":", "-"].contains(chars[i]) { i += 1 }
            while i < chars.count, chars[i] == " " { i += 1 }
            return i
        }
        if let first = chars.first, ["-", "*", "•"].contains(first), chars.count > 1, chars[1] == " " { return 2 }
        while i < chars.count, i < 3, chars[i].isASCII, chars[i].isNumber { i += 1 }
        guard i > 0, i < chars.count, [".", ")", ":"].contains(chars[i]) else { return 0 }
        i += 1
        guard i < chars.count, chars[i] == " " else { return 0 }
        while i < chars.count, chars[i] == " " { i += 1 }
        return i
    }

    /// A step's text without its numbering, whitespace collapsed.
    static func cleanStep(_ text: String) -> String {
        let collapsed = HTMLText.collapseWhitespace(text)
        return String(collapsed.dropFirst(numberingLength(collapsed)))
    }
}
