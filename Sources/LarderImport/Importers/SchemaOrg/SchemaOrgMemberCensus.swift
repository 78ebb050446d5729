import LarderCore
import LarderFormats

/// The member census of a Recipe node's structured properties (see ``MemberCensus``): which
/// member of an author, a step, a rating… the parser read, and which it keeps in extras.
extension SchemaOrgRecipeParser {
    /// The properties whose members are counted one by one.
    static let structuredFields: Set<String> = [
        "author", "Author", "creator", "publisher", "nutrition", "aggregateRating", "review", "video", "image",
        "recipeInstructions", "RecipeInstructions",
    ]

    /// The type the exporter writes for a node under each property (a node of another type keeps it in extras).
    private static let exportedTypes: [String: Set<String>] = [
        "author": ["Person"], "Author": ["Person"], "creator": ["Person"], "publisher": ["Organization"],
        "nutrition": ["NutritionInformation"], "aggregateRating": ["AggregateRating"], "review": ["Review"],
        "video": ["VideoObject"], "recipeInstructions": ["HowToStep", "HowToSection"],
        "RecipeInstructions": ["HowToStep", "HowToSection"],
    ]

    /// The member census of `recipe`, parsed from this node.
    func memberCensus(of recipe: ImportedRecipe) -> MemberCensus {
        MemberCensus(resolve: finder.resolve) { root, keys, value, node in
            memberFate(root: root, keys: keys, value: value, node: node, recipe: recipe)
        }
    }

    private func memberFate(root: String, keys: [String], value: Value, node: Fields, recipe: ImportedRecipe)
        -> MemberFate
    {
        guard let key = keys.last else { return .fate(.extras) }
        if key == "@context", let vocabulary = value.stringValue, vocabulary.hasSuffix("://schema.org") {
            return .fate(.dropped("JSON-LD vocabulary declaration; every export writes its own"))
        }
        if root == "review", keys.first == "author", keys.count > 1 { return reviewAuthorMember(key, value: value) }
        if key == "@type" {
            let written = value.stringValue.map { Self.exportedTypes[root]?.contains($0) ?? false } ?? false
            return .fate(written ? .dropped("the node's type, written on export") : .extras)
        }
        let carried: String?
        switch root {
        case "author", "Author", "creator": carried = authorMember(key, value: value, node: node, recipe: recipe)
        case "publisher": carried = key == "name" && text(value) == recipe.sourceName ? "sourceName" : nil
        case "nutrition": carried = !key.hasPrefix("@") && text(value) != nil ? "nutrition" : nil
        case "aggregateRating": carried = ratingMember(key, value: value, recipe: recipe)
        case "review":
            // A review's author node is walked (its name heads the review's text); a plain name is a member.
            if key == "author", case .object = finder.resolve(value) { return .walk }
            if key == "author", case .array = finder.resolve(value) { return .walk }
            carried = reviewMember(key, value: value, node: node)
        case "video": carried = key == "contentUrl" && value.stringValue == recipe.videoURL ? "videoURL" : nil
        case "image": carried = imageMember(key, value: value, node: node, recipe: recipe)
        default:
            if key == "itemListElement" || (key == "ItemListElement" && node["itemListElement"] == nil) {
                return .walk
            }
            if key == "name", let name = text(value), StepLabel.onlyNumbers(name),
                !SchemaOrgNodeFinder.hasType(.object(node), "HowToSection"), text(node["text"]) != nil
            {
                return .fate(.dropped("only numbers the step (\"\(name)\"): the steps keep their order"))
            }
            carried = stepMember(key, value: value, node: node)
        }
        return .fate(carried.map { .carried($0) } ?? .extras)
    }

    /// `name`, and the one of `url`, `sameAs`, `@id` the author's web page was read from.
    private func authorMember(_ key: String, value: Value, node: Fields, recipe: ImportedRecipe) -> String? {
        switch key {
        case "name": return recipe.author == nil ? nil : "author"
        case "identifier": return text(value) == recipe.ownerID ? "ownerID" : nil
        case "url", "sameAs", "@id":
            let chosen = ["url", "sameAs", "@id"].first { candidate in
                let address = node[candidate]?.stringValue ?? node[candidate]?.arrayValue?.first?.stringValue
                return address?.hasPrefix("http") ?? false
            }
            guard chosen == key, value.stringValue ?? value.arrayValue?.first?.stringValue == recipe.authorURL,
                value.arrayValue.map({ $0.count == 1 }) ?? true
            else { return nil }
            return "author.url"
        default: return nil
        }
    }

    /// `ratingValue`, and `bestRating` / `ratingCount` when Larder's scale and count say the same.
    private func ratingMember(_ key: String, value: Value, recipe: ImportedRecipe) -> String? {
        let number = text(value).flatMap { Double($0.replacingAll(",", with: ".")) }
        switch key {
        case "ratingValue": return recipe.rating == nil ? nil : "rating"
        case "bestRating": return number != nil && number == recipe.ratingScale ? "rating.scale" : nil
        case "ratingCount": return number != nil && number == recipe.ratingCount.map(Double.init) ? "rating.count" : nil
        default: return nil
        }
    }

    /// The text (`reviewBody`, else `description`) and an author given by name only, which heads the text.
    private func reviewMember(_ key: String, value: Value, node: Fields) -> String? {
        switch key {
        case "reviewBody": return text(value) == nil ? nil : "reviews"
        case "description": return text(node["reviewBody"]) == nil && text(value) != nil ? "reviews" : nil
        case "author": return text(finder.resolve(value)) == nil ? nil : "reviews"
        default: return nil
        }
    }

    /// A review's author heads the review's text by name; its other members are kept.
    private func reviewAuthorMember(_ key: String, value: Value) -> MemberFate {
        switch key {
        case "name": return .fate(text(value) == nil ? .extras : .carried("reviews"))
        case "@type" where value == "Person":
            return .fate(.dropped("a review's author is a Person; the name heads the review's text"))
        default: return .fate(.extras)
        }
    }

    /// The one of `url`, `contentUrl`, `@id` an image's address was read from.
    private func imageMember(_ key: String, value: Value, node: Fields, recipe: ImportedRecipe) -> String? {
        let chosen = ["url", "contentUrl", "@id"].first { node[$0]?.stringValue != nil }
        guard key == chosen, let address = value.stringValue else { return nil }
        let decoded = HTMLText.decodeEntities(address).trimmingWhitespace
        return recipe.images.contains(.url(decoded)) ? "images" : nil
    }

    /// A step's or section's text and name, its images and the timer read from it.
    private func stepMember(_ key: String, value: Value, node: Fields) -> String? {
        switch key {
        case "text", "name", "Name": return text(value) == nil ? nil : "instructions"
        case "image": return images(value).isEmpty ? nil : "instructions"
        case "timeRequired", "performTime", "totalTime":
            let chosen = ["timeRequired", "performTime", "totalTime"].first { node[$0] != nil }
            return key == chosen && stepSeconds(value) != nil ? "instructions" : nil
        default: return nil
        }
    }
}
