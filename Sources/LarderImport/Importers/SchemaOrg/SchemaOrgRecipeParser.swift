import Foundation
package import LarderCore
import LarderFormats

/// Reads one schema.org `Recipe` node into an ``ImportedRecipe``.
///
/// Tolerates every shape real pages publish: instructions as a string, a list of strings,
/// `HowToStep`s, `HowToSection`s (nested, or a bare section object), lists of lists; yields
/// as a number, string, list or `QuantitativeValue`; authors and images as strings, objects,
/// lists or `@id` references; ISO 8601 durations including broken ones. Text is decoded
/// (HTML entities, tags, whitespace).
package struct SchemaOrgRecipeParser: Sendable {
    /// The `@id` prefix of recipes Larder exports.
    package static let larderURNPrefix = "urn:larder:recipe:"
    /// The `propertyID` of the `identifier` a Larder export gives the Larder id in, when the node keeps a page's `@id`.
    package static let larderPropertyID = "larder"

    /// Resolves `@id` references within the page.
    package var finder: SchemaOrgNodeFinder

    /// Creates a parser resolving references with `finder`.
    package init(finder: SchemaOrgNodeFinder = SchemaOrgNodeFinder(blocks: [])) {
        self.finder = finder
    }

    /// The recipe `node` describes, with its field census taken against ``fieldTable`` (its
    /// properties Larder has no field for kept in `extras.schemaorg`).
    /// - Throws: ``LarderError`` `malformed-record` at `name` when the recipe has no name.
    package func parse(_ node: Value) throws -> ImportedRecipe {
        try parse(node, table: Self.fieldTable)
    }

    /// The recipe `node` describes, with its field census taken against `table` (a format built on
    /// schema.org, such as Nextcloud Cookbook, passes its own).
    ///
    /// - Parameters:
    ///   - node: the Recipe node.
    ///   - table: the field table the census is taken against.
    ///   - fates: fates the format decides for this node, over the ones schema.org's reading decides.
    ///   - prepare: fills in what the format adds to schema.org before the census is taken.
    /// - Returns: the recipe, with its census and extras.
    /// - Throws: ``LarderError`` `malformed-record` at `name` when the recipe has no name.
    package func parse(
        _ node: Value, table: FieldTable, overriding fates: [String: FieldFate] = [:],
        prepare: (inout ImportedRecipe) -> Void = { _ in }
    ) throws -> ImportedRecipe {
        var recipe = try parseFields(node)
        prepare(&recipe)
        let fields = node.objectValue ?? Fields()
        let decided = overrides(node, recipe).merging(fates) { _, format in format }
        recipe.takeCensus(of: fields, table: table, overrides: decided)
        recipe.takeMemberCensus(
            of: fields, roots: Self.structuredFields, format: table.format, census: memberCensus(of: recipe))
        return recipe
    }

    /// What the parser does with each property of a schema.org Recipe node; any other property
    /// (`cookingMethod`, `estimatedCost`, `interactionStatistic`, …) is kept in `extras.schemaorg`.
    package static let fieldTable = FieldTable(
        .schemaorg,
        [
            "@context": .dropped("JSON-LD vocabulary declaration; every export writes its own"),
            "name": .carried("title"), "headline": .carried("title"), "description": .carried("description"),
            "author": .carried("author"), "Author": .carried("author"), "creator": .carried("author"),
            "recipeIngredient": .carried("ingredients"), "ingredients": .carried("ingredients"),
            "supply": .carried("ingredients"), "recipeInstructions": .carried("instructions"),
            "RecipeInstructions": .carried("instructions"), "recipeYield": .carried("yield"),
            "yield": .carried("yield"), "prepTime": .carried("prepTime"), "cookTime": .carried("cookTime"),
            "totalTime": .carried("totalTime"), "performTime": .carried("cookTime"), "image": .carried("images"),
            "recipeCategory": .carried("categories"), "keywords": .carried("tags"),
            "recipeCuisine": .carried("cuisines"), "suitableForDiet": .carried("dietaryNotes"),
            "nutrition": .carried("nutrition"), "aggregateRating": .carried("rating"), "url": .carried("sourceURL"),
            "dateCreated": .carried("createdAt"), "datePublished": .carried("createdAt"),
            "dateModified": .carried("updatedAt"), "identifier": .carried("id"), "publisher": .carried("sourceName"),
            "inLanguage": .carried("language"), "video": .carried("videoURL"), "review": .carried("reviews"),
            "tool": .carried("tools"),
        ])

    /// Fates that depend on the node: a property read only when another is missing is kept in
    /// extras when that other one was there; `@type` Recipe is dropped (every export writes it).
    private func overrides(_ node: Value, _ recipe: ImportedRecipe) -> [String: FieldFate] {
        var fates: [String: FieldFate] = [:]
        if text(node["name"]) != nil { fates["headline"] = .extras }
        if node["author"] != nil {
            fates["Author"] = .extras
            fates["creator"] = .extras
        } else if node["Author"] != nil {
            fates["creator"] = .extras
        }
        if usesIngredientsOverRecipeIngredient(node) {
            fates["recipeIngredient"] = .extras
        } else if node["recipeIngredient"] != nil {
            fates["ingredients"] = .extras
        }
        if node["recipeIngredient"] != nil || node["ingredients"] != nil { fates["supply"] = .extras }
        if node["recipeInstructions"] != nil { fates["RecipeInstructions"] = .extras }
        if node["recipeYield"] != nil { fates["yield"] = .extras }
        if minutes(node["cookTime"]) != nil { fates["performTime"] = .extras }
        // A time given as text no duration reading understands ("overnight", "2-3 days") is kept
        // as written in extras, not counted as carried.
        for key in ["prepTime", "cookTime", "totalTime", "performTime"] where Self.unreadableTime(node[key]) {
            fates[key] = .extras
        }
        if date(node["dateCreated"]) != nil { fates["datePublished"] = .extras }
        if let type = node["@type"] {
            fates["@type"] =
                type.stringValue == "Recipe" ? .dropped("the node's type, Recipe, written on export") : .extras
        }
        if node["dateCreated"] != nil, date(node["dateCreated"]) == nil { fates["dateCreated"] = .extras }
        if let id = node["@id"]?.stringValue, id.hasPrefix(Self.larderURNPrefix) { fates["@id"] = .carried("id") }
        // `identifier` is the Larder id only as a Larder export writes it; a page's own is kept.
        fates["identifier"] =
            node["identifier"]?["propertyID"]?.stringValue == Self.larderPropertyID ? .carried("id") : .extras
        // An author with no name but an identifier (a Larder export's owner) is the owner.
        if recipe.author == nil, recipe.ownerID != nil, node["author"] != nil { fates["author"] = .carried("ownerID") }
        // `mainEntityOfPage` gives the source URL only when `url` does not (else it stays in extras).
        let urlGiven = node["url"]?.stringValue?.hasPrefix("http") ?? false
        if !urlGiven {
            fates["url"] = .extras
            if let page = node["mainEntityOfPage"], recipe.sourceURL != nil,
                url(.object(Fields([Field(key: "mainEntityOfPage", value: page)]))) != nil
            {
                fates["mainEntityOfPage"] = .carried("sourceURL")
            }
        }
        return fates
    }

    private func parseFields(_ node: Value) throws -> ImportedRecipe {
        let title = text(node["name"]) ?? text(node["headline"]) ?? ""
        guard !title.isEmpty else {
            throw LarderError(
                .malformedRecord, "the Recipe has no name (nor headline)", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: TextRepair.title(title))
        recipe.description = text(node["description"])
        recipe.author = author(node["author"] ?? node["Author"] ?? node["creator"])
        recipe.authorURL = authorURL(node["author"] ?? node["Author"] ?? node["creator"])
        recipe.sourceName = publisherName(node["publisher"])
        recipe.language = text(node["inLanguage"])
        recipe.videoURL = videoURL(node["video"])
        recipe.reviews = reviews(node["review"])
        recipe.tools = list(node["tool"], splittingCommas: false)
        var lines = ingredients(node["recipeIngredient"] ?? node["ingredients"])
        if usesIngredientsOverRecipeIngredient(node) { lines = ingredients(node["ingredients"]) }
        if lines.isEmpty { lines = ingredients(node["supply"]) }
        // A line such as `For the glaze:` heads a group; it is not an ingredient.
        for line in lines {
            if line.hasSuffix(":"), !line.contains(where: \.isNumber), line.count < 80 {
                recipe.ingredientHeadings[recipe.ingredients.count] = String(line.dropLast()).trimmingWhitespace
            } else {
                recipe.ingredients.append(TextRepair.ingredientLine(line))
            }
        }
        recipe.steps = instructions(node["recipeInstructions"] ?? node["RecipeInstructions"])
        if let yield = node["recipeYield"] ?? node["yield"], let yieldText = yieldText(yield) {
            // WP Recipe Maker publishes `["8", "8 slices"]`: the bare count and its words.
            let count = yield.arrayValue?.lazy.compactMap { self.text($0) }.first { Double($0) != nil }
            recipe.yieldText =
                count.map { RecipeYield.normalized(yieldText, count: $0) } ?? RecipeYield.normalized(yieldText)
            // A count past Int's range (`1e300`) is no servings; the yield keeps it as written.
            recipe.servings =
                count.flatMap { Double($0) }.flatMap { Int(rounding: $0) } ?? RecipeYield.servings(yieldText)
            recipe.yieldAsWritten = yieldText
        }
        recipe.prepMinutes = minutes(node["prepTime"])
        // `performTime` (the time the instructions take) is the cooking time when `cookTime` is missing.
        recipe.cookMinutes = minutes(node["cookTime"]) ?? minutes(node["performTime"])
        recipe.totalMinutes = minutes(node["totalTime"])
        // A total given as text ("overnight") is not prep + cook: it stays in extras as written.
        if recipe.totalMinutes == nil, !Self.unreadableTime(node["totalTime"]),
            recipe.prepMinutes != nil || recipe.cookMinutes != nil
        {
            recipe.totalMinutes = (recipe.prepMinutes ?? 0) + (recipe.cookMinutes ?? 0)
        }
        recipe.images = images(node["image"]).map { .url($0) }
        recipe.categories = list(node["recipeCategory"], splittingCommas: true)
        recipe.keywords = list(node["keywords"], splittingCommas: true)
        let cuisines = list(node["recipeCuisine"], splittingCommas: true)
        recipe.cuisine = cuisines.isEmpty ? nil : cuisines.joined(separator: ", ")
        recipe.cuisines = cuisines
        recipe.diets = list(node["suitableForDiet"], splittingCommas: true).map(Self.dietName)
        recipe.nutrition = nutrition(node["nutrition"])
        recipe.rating = rating(node["aggregateRating"])
        if recipe.rating != nil, let rating = node["aggregateRating"].map(finder.resolve) {
            recipe.ratingCount = (rating["ratingCount"] ?? rating["reviewCount"]).flatMap(text).flatMap { Int($0) }
        }
        recipe.sourceURL = url(node)
        recipe.createdAt = date(node["dateCreated"]) ?? date(node["datePublished"])
        recipe.updatedAt = date(node["dateModified"])
        recipe.nativeID = text(node["identifier"])
        // A Larder export of a page's recipe keeps the page's @id and gives the Larder id here.
        if let value = node["identifier"], value["propertyID"]?.stringValue == Self.larderPropertyID,
            let id = value["value"]?.stringValue.flatMap(ImportedRecipe.usableID)
        {
            recipe.larderID = id
            recipe.nativeID = id
        }
        // A Larder export names its records `urn:larder:recipe:<id>`.
        if let nodeID = node["@id"]?.stringValue, nodeID.hasPrefix(Self.larderURNPrefix) {
            recipe.larderID = String(nodeID.dropFirst(Self.larderURNPrefix.count))
            recipe.nativeID = recipe.larderID
        }
        if let author = node["author"].map(finder.resolve), let id = author["identifier"].flatMap(text) {
            recipe.ownerID = id
        }
        return recipe
    }

    // MARK: Text

    /// Normalised text of a string, number or `{"@value": …}` / `{"name": …}` value; the first
    /// non-empty element of a list.
    func text(_ value: Value?) -> String? {
        guard let value else { return nil }
        switch value {
        case .string(let s):
            let t = HTMLText.normalize(TextRepair.mojibake(s))
            return t.isEmpty ? nil : t
        case .int(let i): return String(i)
        case .double(let d): return d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .array(let elements):
            for element in elements { if let t = text(element) { return t } }
            return nil
        case .object(let fields):
            return text(fields["@value"] ?? fields["name"] ?? fields["text"])
        default: return nil
        }
    }

    /// The first author's web page (`url`, else an `http` `@id` or `sameAs`).
    private func authorURL(_ value: Value?) -> String? {
        guard let value else { return nil }
        for element in SchemaOrgNodeFinder.elements(value) {
            let resolved = finder.resolve(element)
            guard resolved.objectValue != nil else { continue }
            for key in ["url", "sameAs", "@id"] {
                let candidate = resolved[key]?.stringValue ?? resolved[key]?.arrayValue?.first?.stringValue
                if let candidate, candidate.hasPrefix("http") { return candidate }
            }
            return nil
        }
        return nil
    }

    /// The video's address: `contentUrl`, else `embedUrl`, else `url` (or the value itself as text).
    private func videoURL(_ value: Value?) -> String? {
        guard let value else { return nil }
        for element in SchemaOrgNodeFinder.elements(value) {
            let resolved = finder.resolve(element)
            if let address = resolved.stringValue, address.hasPrefix("http") { return address }
            for key in ["contentUrl", "embedUrl", "url"] {
                if let address = resolved[key]?.stringValue, !address.trimmingWhitespace.isEmpty { return address }
            }
        }
        return nil
    }

    /// Review texts: `reviewBody` (else `description`, else the text itself), with the author's name when given.
    private func reviews(_ value: Value?) -> [String] {
        guard let value else { return [] }
        return SchemaOrgNodeFinder.elements(value).compactMap { element -> String? in
            let resolved = finder.resolve(element)
            if resolved.objectValue == nil { return text(resolved) }
            guard let body = text(resolved["reviewBody"]) ?? text(resolved["description"]) else { return nil }
            if let by = author(resolved["author"]) { return "\(by): \(body)" }
            return body
        }
    }

    /// The publisher's name (a reference that does not resolve names nothing).
    private func publisherName(_ value: Value?) -> String? {
        guard let value else { return nil }
        return SchemaOrgNodeFinder.elements(value).lazy.compactMap { element -> String? in
            let resolved = self.finder.resolve(element)
            return resolved.objectValue != nil ? self.text(resolved["name"]) : self.text(resolved)
        }.first
    }

    private func author(_ value: Value?) -> String? {
        guard let value else { return nil }
        let names = SchemaOrgNodeFinder.elements(value).compactMap { element -> String? in
            let resolved = finder.resolve(element)
            if case .object = resolved { return text(resolved["name"]) }
            return text(resolved)
        }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// Strings from a string (split on commas when asked), a list, or objects with names.
    func list(_ value: Value?, splittingCommas: Bool) -> [String] {
        guard let value else { return [] }
        var out: [String] = []
        var seen = Set<String>()
        for element in SchemaOrgNodeFinder.elements(value) {
            let resolved = finder.resolve(element)
            guard let t = resolved.objectValue != nil ? text(resolved["name"] ?? resolved["@id"]) : text(resolved)
            else { continue }
            // Only a plain string is a comma-separated list; list elements are taken whole.
            let parts =
                splittingCommas && value.arrayValue == nil
                ? t.split(separator: ",").map { String($0).trimmingWhitespace } : [t]
            for part in parts where !part.isEmpty && seen.insert(part.lowercased()).inserted { out.append(part) }
        }
        return out
    }

    static func dietName(_ raw: String) -> String {
        var name = raw
        if let slash = name.lastIndex(of: "/") { name = String(name[name.index(after: slash)...]) }
        guard name.hasSuffix("Diet"), !name.contains(" ") else { return name }
        // `GlutenFreeDiet` → `Gluten Free Diet`
        var out = ""
        for c in name {
            if c.isUppercase, !out.isEmpty { out.append(" ") }
            out.append(c)
        }
        return out
    }

    // MARK: Ingredients

    /// Whether the node's `ingredients` list is read instead of its `recipeIngredient`: pages
    /// marking each line `ingredients` and adding one `recipeIngredient` holding them all run
    /// together (no line breaks left to part them) publish the list twice; the one in lines is the list.
    private func usesIngredientsOverRecipeIngredient(_ node: Value) -> Bool {
        guard node["recipeIngredient"] != nil, node["ingredients"] != nil else { return false }
        return ingredients(node["recipeIngredient"]).count <= 1 && ingredients(node["ingredients"]).count > 1
    }

    private func ingredients(_ value: Value?) -> [String] {
        guard let value else { return [] }
        var lines: [String] = []
        func add(_ element: Value, depth: Int) {
            switch element {
            case .array(let inner) where depth < 4:
                for item in inner { add(item, depth: depth + 1) }
            case .string(let s):
                // One string holding the whole list, a line each: parted by line breaks, or by the
                // tags that break lines (`<br>`, `</li>`, `</p>`, also written as `&lt;br&gt;`).
                let repaired = TextRepair.mojibake(s)
                var parts =
                    HTMLText.hasLineBreak(repaired) || repaired.contains("<") || repaired.contains("&")
                    ? HTMLText.normalizeKeepingLines(repaired).split(separator: "\n").map(String.init)
                    : [HTMLText.normalize(repaired)]
                // In a list of lines, a line break before lower-case text (`"2 \r\nbay leaf"`) wraps one line.
                if value.arrayValue.map({ $0.count > 1 }) ?? false {
                    parts = Self.joiningWrappedLines(parts)
                }
                lines.append(contentsOf: parts.filter { !$0.isEmpty })
            case .object(let fields):
                if SchemaOrgNodeFinder.hasType(element, "PropertyValue") {
                    let parts = [fields["value"], fields["unitText"] ?? fields["unitCode"], fields["name"]].compactMap {
                        text($0)
                    }
                    let line = parts.joined(separator: " ")
                    if !line.isEmpty { lines.append(line) }
                } else if let t = text(fields["text"] ?? fields["name"]) {
                    lines.append(t)
                }
            default:
                if let t = text(element) { lines.append(t) }
            }
        }
        if case .array(let elements) = value, let rejoined = Self.rejoinCommaSplit(elements) { return rejoined }
        add(value, depth: 0)
        return lines
    }

    /// `parts` with each part that starts with a lower-case letter joined to the one before it.
    static func joiningWrappedLines(_ parts: [String]) -> [String] {
        var joined: [String] = []
        for part in parts {
            if let last = joined.last, part.first?.isLowercase ?? false {
                joined[joined.count - 1] = last + " " + part
            } else {
                joined.append(part)
            }
        }
        return joined
    }

    /// Rejoins ingredient text that a CMS split on every comma; `nil` when the list shows no such split.
    ///
    /// Some CMSs split the ingredient text on every comma, publishing `["250 g pork", " in
    /// pieces", " 1", "5 tsp mustard"]`: an element that starts with a space and a lower-case
    /// letter continues the line before it, and a digit after a digit was a decimal comma.
    /// When this returns `nil`, the list is read element by element.
    static func rejoinCommaSplit(_ elements: [Value]) -> [String]? {
        let raw = elements.compactMap(\.stringValue)
        guard raw.count == elements.count, raw.count > 2 else { return nil }
        func isContinuation(_ s: String) -> Bool {
            guard let first = s.unicodeScalars.first, first == " " else { return false }
            return s.dropFirst().first.map { $0.isLowercase } ?? false
        }
        // The signature of one text split at ", ": every element but the first starts with a space.
        // (or, after a number, a digit: a decimal comma).
        guard raw[0].first != " " else { return nil }
        for (previous, element) in zip(raw, raw.dropFirst()) where element.first != " " {
            guard previous.last?.isNumber == true, element.first?.isNumber == true else { return nil }
        }
        let continuations = raw.dropFirst().filter(isContinuation).count
        guard continuations >= 2 else { return nil }
        var joined: [String] = []
        for element in raw {
            if let last = joined.last {
                let unclosed = last.filter { $0 == "(" }.count > last.filter { $0 == ")" }.count
                let hasQuantity = last.trimmingWhitespace.first?.isNumber == true
                if unclosed || (isContinuation(element) && hasQuantity) {
                    joined[joined.count - 1] = last + "," + element
                    continue
                }
                if last.last?.isNumber == true, element.first?.isNumber == true {
                    joined[joined.count - 1] = last + "," + element
                    continue
                }
            }
            joined.append(element)
        }
        return joined.map { TextRepair.mojibake($0) }.map(HTMLText.normalize).filter { !$0.isEmpty }
    }

    // MARK: Instructions

    private func instructions(_ value: Value?) -> [ImportedRecipe.Step] {
        guard let value else { return [] }
        var steps: [ImportedRecipe.Step] = []
        collect(value, into: &steps, depth: 0)
        // The whole method as one text: its inline numbers, else its glued sentences, part it.
        if let whole = singleText(value), let numbered = StepText.numberedSteps(HTMLText.normalize(whole)),
            numbered.count > steps.count
        {
            return numbered.map { .init(text: $0) }
        }
        if steps.count == 1, !steps[0].isSection {
            let sentences = StepText.gluedSentences(steps[0].text)
            if sentences.count > 1 {
                var parts = sentences.map { ImportedRecipe.Step(text: $0) }
                parts[0].timerSeconds = steps[0].timerSeconds
                parts[0].images = steps[0].images
                return parts
            }
        }
        return steps
    }

    /// The text of instructions given as one string (or a list, or a step, holding only one).
    private func singleText(_ value: Value) -> String? {
        switch finder.resolve(value) {
        case .string(let s): return TextRepair.mojibake(s)
        case .array(let elements) where elements.count == 1: return singleText(elements[0])
        case .object(let fields)
        where fields["itemListElement"] == nil && fields["ItemListElement"] == nil && fields["name"] == nil:
            return fields["text"]?.stringValue.map(TextRepair.mojibake)
        default: return nil
        }
    }

    /// Adds the steps `raw` holds.
    ///
    /// A text is split at its line breaks when it is the whole method (`inList` false); a text
    /// among others in a list is one step, as the oracle reads it.
    private func collect(_ raw: Value, into steps: inout [ImportedRecipe.Step], depth: Int, inList: Bool = false) {
        guard depth < 16 else { return }
        let value = finder.resolve(raw)
        switch value {
        case .string(let s):
            guard !inList else {
                if let t = text(value) { steps.append(.init(text: t)) }
                return
            }
            for line in HTMLText.normalizeKeepingLines(TextRepair.mojibake(s)).split(separator: "\n") {
                let t = String(line).trimmingWhitespace
                if !t.isEmpty { steps.append(.init(text: t)) }
            }
        case .array(let elements):
            for element in elements {
                collect(element, into: &steps, depth: depth + 1, inList: elements.count > 1)
            }
        case .object(let fields):
            // Some pages capitalise the key (`ItemListElement`), as they do `Name`.
            let elements = fields["itemListElement"] ?? fields["ItemListElement"]
            if SchemaOrgNodeFinder.hasType(value, "HowToSection")
                || (elements != nil && !SchemaOrgNodeFinder.hasType(value, "HowToStep"))
            {
                if SchemaOrgNodeFinder.hasType(value, "HowToSection"), let name = text(fields["name"] ?? fields["Name"])
                {
                    steps.append(.init(text: name, isSection: true))
                }
                if let elements { collect(elements, into: &steps, depth: depth + 1) }
                return
            }
            let body = text(fields["text"]) ?? elements.flatMap(stepBody)
            let name = text(fields["name"])
            let timer = (fields["timeRequired"] ?? fields["performTime"] ?? fields["totalTime"]).flatMap(stepSeconds)
            let stepImages = images(fields["image"])
            switch (name, body) {
            case (let name?, let body?):
                // Many sites repeat the text (or a truncated copy) as the name, or only number the
                // step ("Step 1", "stap 1", "Schritt 1", "1."): keep the name only when it says
                // something the text and the order do not ("Marinate"), as the line before the
                // step, as the oracle (recipe-scrapers) most often does.
                let stem = String(name.reversed().drop { $0 == "." || $0 == "…" }.reversed())
                if !body.hasPrefix(stem) && !body.lowercased().hasPrefix(stem.lowercased())
                    && !StepLabel.onlyNumbers(name)
                {
                    steps.append(.init(text: name, isSection: false))
                }
                steps.append(.init(text: body, timerSeconds: timer, images: stepImages))
            case (nil, let body?):
                steps.append(.init(text: body, timerSeconds: timer, images: stepImages))
            case (let name?, nil):
                steps.append(.init(text: name, timerSeconds: timer, images: stepImages))
            case (nil, nil):
                break
            }
        default:
            if let t = text(value) { steps.append(.init(text: t)) }
        }
    }

    /// The text of a step given in parts (`HowToDirection`s and `HowToTip`s in its `itemListElement`):
    /// every part, in order, in one text; `nil` when no part has text.
    private func stepBody(_ parts: Value) -> String? {
        let texts = SchemaOrgNodeFinder.elements(parts).compactMap { element -> String? in
            let part = finder.resolve(element)
            return text(part["text"]) ?? text(part)
        }
        return texts.isEmpty ? nil : texts.joined(separator: " ")
    }

    func stepSeconds(_ value: Value) -> Int? {
        guard let s = value.stringValue, let seconds = RecipeTime.iso8601Seconds(s) else { return nil }
        return Int(rounding: seconds)
    }

    // MARK: Yields, times, images

    private func yieldText(_ value: Value) -> String? {
        switch value {
        case .array(let elements):
            // A list often pairs a bare number with a description ("4", "4 servings"): the
            // description says more.
            let texts = elements.compactMap { yieldText($0) }
            return texts.first { $0.contains(where: \.isLetter) } ?? texts.first
        case .object(let fields):
            let parts = [fields["value"] ?? fields["maxValue"], fields["unitText"]].compactMap { text($0) }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        default:
            return text(value)
        }
    }

    /// Whether `value` is a time written as text that no duration reading understands.
    static func unreadableTime(_ value: Value?) -> Bool {
        guard let text = value?.stringValue, !text.trimmingWhitespace.isEmpty else { return false }
        return RecipeTime.minutes(from: text) == nil
    }

    private func minutes(_ value: Value?) -> Int? {
        guard let value else { return nil }
        switch value {
        case .string(let s): return RecipeTime.minutes(from: s)
        case .int(let i): return i > 0 ? Int(i) : nil
        case .double(let d): return d > 0 ? Int(rounding: d) : nil
        case .object(let fields): return minutes(fields["maxValue"] ?? fields["value"] ?? fields["@value"])
        case .array(let elements): return elements.lazy.compactMap { self.minutes($0) }.first
        default: return nil
        }
    }

    func images(_ value: Value?) -> [String] {
        guard let value else { return [] }
        var urls: [String] = []
        for element in SchemaOrgNodeFinder.elements(value) {
            let resolved = finder.resolve(element)
            let candidate: String?
            if let fields = resolved.objectValue {
                candidate = (fields["url"] ?? fields["contentUrl"] ?? fields["@id"])?.stringValue
            } else {
                candidate = resolved.stringValue
            }
            if let url = candidate.map({ HTMLText.decodeEntities($0).trimmingWhitespace }), !url.isEmpty,
                !urls.contains(url)
            {
                urls.append(url)
            }
        }
        return urls
    }

    private func nutrition(_ value: Value?) -> [String: String] {
        guard let fields = value.map(finder.resolve)?.objectValue else { return [:] }
        var out: [String: String] = [:]
        for field in fields where !field.key.hasPrefix("@") && field.key != "type" {
            if let t = text(field.value) { out[field.key] = t }
        }
        return out
    }

    private func rating(_ value: Value?) -> Double? {
        guard let node = value.map(finder.resolve) else { return nil }
        switch node["ratingValue"] ?? node {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string(let s): return Double(s.trimmingWhitespace.replacingAll(",", with: "."))
        default: return nil
        }
    }

    private func url(_ node: Value) -> String? {
        if let url = node["url"]?.stringValue, url.hasPrefix("http") { return url }
        if let page = node["mainEntityOfPage"] {
            // A reference to the page node: its `url`, else the reference without its fragment.
            let reference = page.stringValue ?? page["@id"]?.stringValue
            if let reference, let url = finder.nodesByID[reference]?["url"]?.stringValue, url.hasPrefix("http") {
                return url
            }
            if let reference, reference.hasPrefix("http") { return String(reference.prefix { $0 != "#" }) }
        }
        if let id = node["@id"]?.stringValue, id.hasPrefix("http") {
            return String(id.prefix { $0 != "#" })
        }
        return nil
    }

    private func date(_ value: Value?) -> Date? {
        guard let s = value.flatMap(text) else { return nil }
        return RecipeDate.parse(s)
    }
}
