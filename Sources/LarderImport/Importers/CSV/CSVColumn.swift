import Foundation
import LarderCore

/// The recipe fields a CSV column can fill, and the header names (English, German, French) that
/// map to each one automatically.
public enum CSVColumn: String, Sendable, Hashable, CaseIterable {
    case title, description, ingredients, instructions, servings, yield
    case prepTime, cookTime, totalTime, categories, tags, source, notes, image

    /// Header names, folded (lowercase, accents and everything but letters and digits removed), that
    /// map to this field.
    var headerNames: Set<String> {
        switch self {
        case .title:
            [
                "title", "name", "recipe", "recipename", "recipetitle", "titel", "rezept", "rezeptname", "titre", "nom",
                "recette", "nomdelarecette",
            ]
        case .description: ["description", "summary", "beschreibung", "intro", "introduction", "resume"]
        case .ingredients: ["ingredients", "ingredient", "zutaten", "ingredientlist", "ingredientstextblock"]
        case .instructions:
            [
                "instructions", "directions", "method", "steps", "preparation", "zubereitung", "anleitung", "etapes",
                "instruction",
            ]
        case .servings: ["servings", "serves", "portions", "portionen", "personen", "personnes", "nombredepersonnes"]
        case .yield: ["yield", "recipeyield", "ergibt", "menge", "rendement"]
        case .prepTime:
            [
                "preptime", "prep", "preparationtime", "vorbereitungszeit", "vorbereitung", "arbeitszeit",
                "tempsdepreparation", "activeminutes",
            ]
        case .cookTime:
            ["cooktime", "cook", "cookingtime", "kochzeit", "backzeit", "garzeit", "tempsdecuisson", "cuisson"]
        case .totalTime: ["totaltime", "total", "time", "gesamtzeit", "zeit", "tempstotal", "duree", "totalminutes"]
        case .categories: ["categories", "category", "kategorie", "kategorien", "categorie", "course"]
        case .tags: ["tags", "tag", "keywords", "schlagworte", "stichworte", "schlagworter", "motscles", "etiquettes"]
        case .source: ["source", "url", "link", "sourceurl", "quelle", "lien", "website", "weburl"]
        case .notes: ["notes", "note", "notizen", "anmerkungen", "hinweise", "remarques", "comments"]
        case .image: ["image", "imageurl", "photo", "picture", "bild", "foto", "photourl"]
        }
    }

    /// A header name folded for matching: lowercase, without accents, letters and digits only.
    ///
    /// An ASCII name is folded byte by byte (Foundation's folding through `NSString` was 3 to 6 % of
    /// the CSV importer's time on files of many columns): it has no accents, folding changes only its
    /// case, and its letters and digits are `A`-`Z`, `a`-`z` and `0`-`9`.
    static func fold(_ header: String) -> String {
        guard header.utf8.allSatisfy({ $0 < 0x80 }) else { return foldWithFoundation(header) }
        var folded: [UInt8] = []
        folded.reserveCapacity(header.utf8.count)
        for byte in header.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded.append(byte + 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): folded.append(byte)
            default: break
            }
        }
        return String(decoding: folded, as: UTF8.self)
    }

    /// ``fold(_:)`` by Foundation's folding, for any text.
    static func foldWithFoundation(_ header: String) -> String {
        header.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .filter { $0.isLetter || $0.isNumber }
    }

    /// The field a header name maps to automatically, if any.
    static func automatic(_ header: String) -> CSVColumn? {
        byHeaderName[fold(header)]
    }

    /// Every folded header name and its field (the first field in `allCases` order that lists it),
    /// made once: building each field's set for every column made a file of many columns slow.
    private static let byHeaderName: [String: CSVColumn] = {
        var table: [String: CSVColumn] = [:]
        for column in allCases {
            for name in column.headerNames where table[name] == nil { table[name] = column }
        }
        return table
    }()

    /// Reads `--map` text: `field=Header` pairs separated by commas (`title=Name,ingredients=Zutaten`).
    ///
    /// Field names match case-insensitively.
    /// - Throws: ``LarderError`` `usage-error` for a pair without `=` or an unknown field, listing the valid ones.
    public static func parseMap(_ text: String) throws -> [CSVColumn: String] {
        var map: [CSVColumn: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingBlanks }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw LarderError(.usage, "--map: \"\(pair)\" is not field=Header")
            }
            guard let column = allCases.first(where: { $0.rawValue.lowercased() == parts[0].lowercased() }) else {
                throw LarderError(
                    .usage,
                    "--map: unknown field \"\(parts[0])\"; the fields are \(allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            map[column] = parts[1]
        }
        return map
    }
}
