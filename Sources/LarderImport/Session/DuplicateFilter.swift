import LarderCore
import LarderFormats

/// Tells which items of an import are already there: by id (per record type, including the ids of
/// an existing output kept with `--merge`), and for recipes by their content's fingerprint.
struct DuplicateFilter {
    private var seenIDs: [RecordType: [String: String]] = [:]
    private var fingerprints: [String: String] = [:]
    /// Ids that were already in an existing output file.
    private var carriedIDs = Set<String>()

    /// Records an id found in the existing output, under its name.
    mutating func carry(id: String, name: String, type: RecordType) {
        carriedIDs.insert(id)
        seenIDs[type, default: [:]][id] = name
    }

    /// Why an item with this id is a duplicate, or nil when the id is new; `sameWhat` says what
    /// two items with one id share (`source and title`, `id`).
    func duplicate(id: String, type: RecordType, sameWhat: String) -> String? {
        guard let earlier = seenIDs[type]?[id] else { return nil }
        return carriedIDs.contains(id)
            ? "already in the output (imported earlier)" : "same \(sameWhat) as \"\(earlier)\""
    }

    /// Why a recipe is a duplicate of an earlier one by its content, or nil.
    func duplicate(fingerprint: String) -> String? {
        fingerprints[fingerprint].map { "same title, ingredients and steps as \($0)" }
    }

    /// Records an item written.
    mutating func record(id: String, name: String, type: RecordType, fingerprint: String? = nil, origin: String = "") {
        seenIDs[type, default: [:]][id] = name
        if let fingerprint { fingerprints[fingerprint] = "\"\(name)\" (\(origin))" }
    }

    /// What makes two imports the same recipe: title, ingredient lines and steps, compared
    /// case- and space-insensitively.
    static func fingerprint(_ recipe: ImportedRecipe) -> String {
        func norm(_ s: String) -> String { HTMLText.collapseWhitespace(s).lowercased() }
        var parts = [norm(recipe.title)]
        parts.append(contentsOf: recipe.ingredients.map(norm))
        parts.append("--")
        parts.append(contentsOf: recipe.steps.map { norm($0.text) })
        return SHA256.hash(Array(parts.joined(separator: "\n").utf8)).hexString
    }
}
