import Foundation
import LarderCore
import LarderFormats

extension ChowdownImporter {
    /// A scalar as text (numbers and Booleans as written); `nil` for a missing, null or blank value.
    static func scalar(_ value: Value, at path: FieldPath) throws -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text.trimmingWhitespace.isEmpty ? nil : text.trimmingWhitespace
        case .int(let number): return String(number)
        case .double(let number): return Int64(exactly: number).map { String($0) } ?? String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array, .object:
            throw LarderError(
                .malformedRecord, "expected text, found a list or mapping", location: SourceLocation(fieldPath: path))
        }
    }

    /// The text of `key`.
    static func string(_ fields: Fields, _ key: String) throws -> String? {
        guard let value = fields[key] else { return nil }
        return try scalar(value, at: FieldPath(stringLiteral: key))
    }

    /// The items of a list (a single text is a list of one), blanks left out.
    static func list(_ fields: Fields, _ key: String) throws -> [String] {
        guard let value = fields[key] else { return [] }
        guard let items = value.arrayValue else {
            return try scalar(value, at: FieldPath(stringLiteral: key)).map { [$0] } ?? []
        }
        return try items.enumerated().compactMap { index, item in
            // `- Topping:` unquoted is YAML for a mapping {Topping: null}: the heading as written.
            if let fields = item.objectValue, fields.count == 1, let only = fields.first, only.value == .null {
                return only.key + ":"
            }
            return try scalar(item, at: FieldPath(stringLiteral: key).appending(index: index))
        }
    }

    /// Terms: a list, or one text of comma-separated terms (`tags: sides, soups`).
    static func terms(_ fields: Fields, _ key: String) throws -> [String] {
        guard fields[key]?.arrayValue == nil else { return try list(fields, key) }
        return (try string(fields, key) ?? "").split(separator: ",").map(\.trimmingWhitespace).filter { !$0.isEmpty }
    }

    /// The image names: `image` is one name or a list of them (Chowdown loops over it).
    static func images(_ fields: Fields) throws -> [String] {
        try list(fields, "image")
    }

    /// Minutes from an ISO 8601 duration, a number of minutes, text, or Tandoor's `h:mm:ss`.
    static func minutes(_ fields: Fields, _ key: String) throws -> Int? {
        guard let text = try string(fields, key) else { return nil }
        let parts = text.split(separator: ":")
        if parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]) {
            let total = hours * 60 + minutes + (seconds > 0 ? 1 : 0)
            return total > 0 ? total : nil
        }
        return RecipeTime.minutes(from: text)
    }

    /// Chowdown's unit for each nutrition fact (`_data/nutrients.yml`), which its page adds after a bare number.
    static let nutritionUnits: [String: String] = MarkdownExporter.nutritionUnits

    /// The nutrition facts under their schema.org names; a bare number takes Chowdown's unit.
    static func nutrition(_ fields: Fields) throws -> [String: String] {
        guard let value = fields["nutrition"], value != .null else { return [:] }
        guard let facts = value.objectValue else {
            throw LarderError(
                .malformedRecord, "expected a mapping of nutrition facts",
                location: SourceLocation(fieldPath: "nutrition"))
        }
        var out: [String: String] = [:]
        for fact in facts {
            guard let text = try scalar(fact.value, at: FieldPath(stringLiteral: "nutrition").appending(fact.key))
            else {
                continue
            }
            let unit = nutritionUnits[fact.key]
            out[fact.key] = unit != nil && Double(text) != nil ? "\(text) \(unit ?? "")" : text
        }
        return out
    }
}
