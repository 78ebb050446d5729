package import LarderCore
import LarderFormats

/// Imports Gourmet Recipe Manager's HTML export: the folder its web-page exporter writes (one
/// `.htm` page per recipe, `index.htm`, `style.css`, photos in `pics/`), zipped, or one page.
///
/// A page holds a `div.recipe`, as Gourmet's html_exporter.py (github.com/thinkle/gourmet,
/// gourmet/plugins/import_export/html_plugin) writes it: an `img` (`pics/1.jpg`, read from the zip),
/// a `div.header` of `p` elements whose class names the attribute (`title`, `the_yield`, `cooktime`,
/// `preptime`, `category`, `cuisine`, `stars`, `source`; the value after the `span.label`) and an
/// `a` to the original page, then `ul.ing` (`li.ing` lines, `li.inggroup` headings with their own
/// `ul.ing`), then `div.instructions` and `div.modifications` (paragraphs, `br` line breaks). Any
/// other attribute or text block is kept in `extras.gourmet`. Each recipe is isolated: one without a
/// title is rejected with its page, index and field path, and the others import.
package struct GourmetImporter: RecipeImporter {
    package var format: ImportFormat { .gourmet }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        try HTMLExportArchive.importCards(
            at: path, context: context, isPage: Self.isRecipePage,
            isCard: { $0.name == "div" && $0.hasClass("recipe") },
            read: { HTMLExportArchive.withPhoto(Self.fields(of: $0)) },
            recipe: { try Self.recipe(from: $0, photos: $1) })
    }

    /// Whether a zip entry's file name (lower-cased) is a recipe page: `.htm`/`.html`, not the index.
    static func isRecipePage(_ fileName: String) -> Bool {
        (fileName.hasSuffix(".htm") || fileName.hasSuffix(".html")) && !fileName.hasPrefix("index.")
    }

    /// A card's fields: each header `p`'s value under its class, `link` (the header's first `a`),
    /// `image` (the first `img`'s `src`), `ingredients` (lines, and `{group, items}` for a group)
    /// and each other `div`'s lines under its class.
    static func fields(of card: HTMLElement) -> Fields {
        var fields = Fields()
        card.walk { element in
            switch element.name {
            case "img":
                if fields["image"] == nil, let source = element[attribute: "src"] { fields["image"] = .string(source) }
                return false
            case "a" where fields["link"] == nil:
                if let link = element[attribute: "href"] { fields["link"] = .string(link) }
                return false
            case "p":
                if let key = element.classes.first.map(String.init), fields[key] == nil {
                    fields[key] = .string(value(of: element))
                }
                return false
            case "ul" where element.hasClass("ing"):
                fields["ingredients"] = .array(ingredients(element))
                return false
            case "div" where element.hasClass("ing") || element.hasClass("header") || element.hasClass("recipe"):
                return true
            case "div":
                guard let key = element.classes.first.map(String.init), fields[key] == nil else { return false }
                let lines = element.elements.filter { $0.name != "h3" }.flatMap {
                    $0.lineText.split(separator: "\n").map { Value.string(String($0)) }
                }
                fields[key] = .array(lines)
                return false
            default:
                return true
            }
        }
        return fields
    }

    /// A header value: the text after the `span.label` (`Title:`).
    private static func value(of paragraph: HTMLElement) -> String {
        let text = paragraph.flatText
        guard let label = paragraph.elements.first(where: { $0.hasClass("label") })?.flatText, text.hasPrefix(label)
        else { return text }
        return String(text.dropFirst(label.count)).trimmingWhitespace
    }

    /// The lines of a `ul.ing`; a group is `{group, items}`.
    private static func ingredients(_ list: HTMLElement) -> [Value] {
        list.elements.filter { $0.name == "li" }.compactMap { item in
            guard item.hasClass("inggroup"), let nested = item.elements.first(where: { $0.name == "ul" }) else {
                let line = item.flatText
                return line.isEmpty ? nil : .string(line)
            }
            let name = item.children.compactMap { if case .text(let t) = $0 { t } else { nil } }.joined()
            let heading = HTMLText.collapseWhitespace(name).trimmingWhitespace
            return .object(
                Fields([
                    Field(key: "group", value: .string(heading.hasSuffix(":") ? String(heading.dropLast()) : heading)),
                    Field(key: "items", value: .array(ingredients(nested))),
                ]))
        }
    }

    /// The recipe a card's fields describe, with `photos` as its images.
    /// - Throws: ``LarderError`` `malformed-record` at `title` when the recipe has no title.
    package static func recipe(from fields: Fields, photos: [ImportedRecipe.Image] = []) throws -> ImportedRecipe {
        func strings(_ key: String) -> [String] { HTMLExportArchive.texts(fields, key) }
        guard let title = strings("title").first else {
            throw LarderError(
                .malformedRecord, "the recipe has no title (p.title)", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.description = strings("description").first
        if let yield = (strings("the_yield") + strings("yields") + strings("servings")).first {
            recipe.readYield(yield)
        }
        recipe.prepMinutes = strings("preptime").first.flatMap(RecipeTime.minutes(from:))
        recipe.cookMinutes = strings("cooktime").first.flatMap(RecipeTime.minutes(from:))
        recipe.categories = strings("category").flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace }
            .filter { !$0.isEmpty }
        recipe.cuisine = strings("cuisine").first
        recipe.rating = (strings("stars") + strings("rating")).first.flatMap(stars)
        recipe.sourceName = strings("source").first
        recipe.sourceURL = strings("link").first
        for element in fields["ingredients"]?.arrayValue ?? [] {
            if let line = element.stringValue {
                recipe.ingredients.append(line)
            } else if let group = element["group"]?.stringValue {
                recipe.ingredientHeadings[recipe.ingredients.count] = group
                recipe.ingredients += HTMLExportArchive.texts(element.objectValue ?? Fields(), "items")
            }
        }
        recipe.steps = strings("instructions").map { ImportedRecipe.Step(text: $0) }
        let notes = strings("modifications").joined(separator: "\n")
        recipe.notes = notes.isEmpty ? nil : notes
        recipe.images = photos
        recipe.takeCensus(of: fields, table: fieldTable)
        return recipe
    }

    /// `4/5 stars`, `8/10`, `4` → a rating out of 5.
    static func stars(_ text: String) -> Double? {
        let parts = text.split(separator: " ").first?.split(separator: "/") ?? []
        guard let first = parts.first, let value = Double(first), value > 0 else { return nil }
        let scale = parts.count > 1 ? Double(parts[1]) ?? 5 : 5
        return scale > 0 ? value * 5 / scale : nil
    }

    /// What the importer does with each field of a card; any other is kept in `extras.gourmet`.
    package static let fieldTable = FieldTable(
        .gourmet,
        [
            "title": .carried("title"), "description": .carried("description"), "the_yield": .carried("yield"),
            "yields": .carried("yield"), "servings": .carried("yield"), "preptime": .carried("prepTime"),
            "cooktime": .carried("cookTime"), "category": .carried("categories"), "cuisine": .carried("cuisines"),
            "stars": .carried("rating"), "rating": .carried("rating"), "source": .carried("sourceName"),
            "link": .carried("sourceURL"), "image": .carried("images"), "ingredients": .carried("ingredients"),
            "instructions": .carried("instructions"), "modifications": .carried("notes"),
        ])
}
