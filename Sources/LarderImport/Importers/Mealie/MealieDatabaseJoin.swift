import LarderCore

/// Joins Mealie 1.x `database.json` tables onto their recipe rows, so that a row reads like the
/// recipe JSON Mealie's API returns: ingredients, instructions, notes, nutrition, settings,
/// comments, assets, tags, categories, tools and API extras.
///
/// Builds an index of each joined table once (O(rows)); ``join(_:)`` is O(what it adds).
struct MealieDatabaseJoin {
    /// Child rows by recipe id, by the recipe field they become.
    private var children: [String: [String: [Value]]] = [:]
    /// Named rows (`{name, slug}`) by recipe id, by the recipe field they become.
    private var links: [String: [String: [Value]]] = [:]
    /// API extras (`key_name`, `value`) by recipe id.
    private var apiExtras: [String: Fields] = [:]
    /// Ingredient units and foods by id, to give ingredient rows their `unit` and `food`.
    private var units: [String: Value] = [:]
    private var foods: [String: Value] = [:]

    /// Child tables: the recipe field, the table names it has had, and whether it is one row.
    private static let childTables: [(field: String, tables: [String])] = [
        ("recipe_ingredient", ["recipes_ingredients"]), ("recipe_instructions", ["recipe_instructions"]),
        ("notes", ["notes", "recipe_notes"]), ("nutrition", ["recipe_nutrition"]),
        ("settings", ["recipe_settings"]), ("comments", ["recipe_comments"]), ("assets", ["recipe_assets"]),
    ]

    /// Link tables: the recipe field, the association tables it has had, the target table, the key.
    private static let linkTables: [(field: String, tables: [String], target: String, key: String)] = [
        ("tags", ["recipes_to_tags", "recipes2tags"], "tags", "tag_id"),
        ("recipe_category", ["recipes_to_categories", "recipes2categories"], "categories", "category_id"),
        ("tools", ["recipes_to_tools", "recipes2tools"], "tools", "tool_id"),
    ]

    /// Indexes the tables of `database`.
    init(_ database: Value) {
        func rows(_ names: [String]) -> [Value] {
            names.lazy.compactMap { database[$0]?.arrayValue }.first ?? []
        }
        func key(_ value: Value?) -> String? {
            switch value {
            case .string(let s)?: s
            case .int(let i)?: String(i)
            default: nil
            }
        }
        for row in database["ingredient_units"]?.arrayValue ?? [] {
            if let id = key(row["id"]) { units[id] = row }
        }
        for row in database["ingredient_foods"]?.arrayValue ?? [] {
            if let id = key(row["id"]) { foods[id] = row }
        }
        for (field, tables) in Self.childTables {
            for row in rows(tables) {
                guard let id = key(row["recipe_id"]) else { continue }
                children[field, default: [:]][id, default: []].append(row)
            }
        }
        for (field, tables, target, column) in Self.linkTables {
            var byID: [String: Value] = [:]
            for row in database[target]?.arrayValue ?? [] {
                if let id = key(row["id"]) { byID[id] = row }
            }
            for row in rows(tables) {
                guard let recipe = key(row["recipe_id"]), let targetID = key(row[column]),
                    let target = byID[targetID]
                else { continue }
                links[field, default: [:]][recipe, default: []].append(target)
            }
        }
        for row in database["api_extras"]?.arrayValue ?? database["recipes_extras"]?.arrayValue ?? [] {
            guard let id = key(row["recipe_id"] ?? row["recipee_id"] ?? row["parent_id"]),
                let name = row["key_name"]?.stringValue
            else { continue }
            apiExtras[id, default: Fields()].append(key: name, value: row["value"] ?? .null)
        }
    }

    /// The recipe row with the rows of other tables that belong to it, under the recipe JSON's
    /// names (a field the row already has is left as it is).
    func join(_ row: Fields) -> Fields {
        var fields = row
        let id: String
        switch row["id"] {
        case .string(let s)?: id = s
        case .int(let i)?: id = String(i)
        default: return fields
        }
        func add(_ name: String, _ value: Value) {
            if fields[name] == nil || fields[name]?.isNull == true { fields[name] = value }
        }
        for (field, byRecipe) in children {
            guard let rows = byRecipe[id] else { continue }
            switch field {
            case "nutrition", "settings":
                // One row: its columns, without the join's own.
                var columns = rows[0].objectValue ?? Fields()
                for name in ["id", "recipe_id"] { _ = columns.removeValue(forKey: name) }
                add(field, .object(columns))
            case "recipe_ingredient":
                fields[field] = .array(
                    rows.sorted { (Self.position($0) ?? 0) < (Self.position($1) ?? 0) }.map(withUnitAndFood))
            case "recipe_instructions":
                fields[field] = .array(
                    rows.sorted { (Self.position($0) ?? 0) < (Self.position($1) ?? 0) })
            default:
                add(field, .array(rows))
            }
        }
        for (field, byRecipe) in links {
            if let rows = byRecipe[id] { add(field, .array(rows)) }
        }
        if let extras = apiExtras[id] { add("extras", .object(extras)) }
        return fields
    }

    /// An ingredient row with its unit and food rows in place of their ids.
    private func withUnitAndFood(_ row: Value) -> Value {
        guard var fields = row.objectValue else { return row }
        if fields["unit"] == nil, let id = fields["unit_id"]?.stringValue, let unit = units[id] {
            fields["unit"] = unit
        }
        if fields["food"] == nil, let id = fields["food_id"]?.stringValue, let food = foods[id] {
            fields["food"] = food
        }
        return .object(fields)
    }

    private static func position(_ row: Value) -> Int? {
        switch row["position"] {
        case .int(let i)?: Int(i)
        // Without its fraction, as `Int(_:)` would, but nil (no position) past Int's range, where it traps.
        case .double(let d)?: Int(rounding: d, .towardZero)
        default: nil
        }
    }
}
