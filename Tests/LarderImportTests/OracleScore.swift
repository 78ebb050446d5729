import Foundation
import LarderCore
import LarderImport

/// Compares imported recipes with recipe-scrapers' expected output, field by field: the rules
/// the corpus oracle tests share.
struct OracleScore {
    struct Tally {
        var agree = 0
        var total = 0
        var share: Double { total == 0 ? 1 : Double(agree) / Double(total) }
        mutating func count(_ ok: Bool) {
            total += 1
            if ok { agree += 1 }
        }
    }

    /// The fields compared, in report order.
    static let fields = ["title", "ingredients", "instructions", "yields", "total_time", "prep_time", "cook_time"]

    var tallies: [String: Tally] = [:]
    /// Differences for the field `LARDER_ORACLE_DIFF` names (`all`: every field).
    var diffs: [String] = []
    let diffField = ProcessInfo.processInfo.environment["LARDER_ORACLE_DIFF"]

    func share(_ field: String) -> Double { tallies[field]?.share ?? 0 }

    private static func normalized(_ value: Value?) -> String? {
        guard let s = value?.stringValue else { return nil }
        return HTMLText.normalize(s)
    }

    private static func minutes(_ value: Value?) -> Int? {
        switch value {
        case .int(let i)?: Int(i)
        case .double(let d)?: Int(d)
        default: nil
        }
    }

    /// Counts a page with no recipe as a disagreement on every field the oracle has.
    mutating func countMissing(expected: Value) {
        for field in Self.fields where expected[Self.key(field)] != nil {
            tallies[field, default: Tally()].count(false)
        }
    }

    private static func key(_ field: String) -> String {
        field == "instructions" ? "instructions_list" : field
    }

    /// Compares `recipe` with `expected` (an `.expected.json`), noting differences under `label`.
    mutating func compare(_ recipe: ImportedRecipe, with expected: Value, label: String) {
        func note(_ field: String, _ ours: String, _ theirs: String) {
            if diffField == field || diffField == "all" {
                diffs.append("\(label) [\(field)]\n  ours:   \(ours)\n  oracle: \(theirs)")
            }
        }
        if let title = Self.normalized(expected["title"]) {
            let ok = HTMLText.normalize(recipe.title) == title
            tallies["title", default: Tally()].count(ok)
            if !ok { note("title", recipe.title, title) }
        }
        if let list = expected["ingredients"]?.arrayValue {
            let theirs = list.compactMap { Self.normalized($0) }
            let ours = recipe.ingredients.map { HTMLText.normalize($0) }
            tallies["ingredients", default: Tally()].count(ours == theirs)
            if ours != theirs {
                note("ingredients", ours.joined(separator: " | "), theirs.joined(separator: " | "))
            }
        }
        if let list = expected["instructions_list"]?.arrayValue {
            let ok = recipe.steps.count == list.count
            tallies["instructions", default: Tally()].count(ok)
            if !ok {
                note(
                    "instructions",
                    "\(recipe.steps.count): "
                        + recipe.steps.map { ($0.isSection ? "§" : "") + String($0.text.prefix(50)) }.joined(
                            separator: " | "),
                    "\(list.count): "
                        + list.compactMap { $0.stringValue.map { String($0.prefix(50)) } }.joined(separator: " | "))
            }
        }
        if let yields = expected["yields"] {
            let theirs = Self.normalized(yields)
            let ok = recipe.yieldText == theirs
            tallies["yields", default: Tally()].count(ok)
            if !ok { note("yields", recipe.yieldText ?? "nil", theirs ?? "nil") }
        }
        for (key, ours) in [
            ("total_time", recipe.totalMinutes), ("prep_time", recipe.prepMinutes), ("cook_time", recipe.cookMinutes),
        ] {
            guard let value = expected[key] else { continue }
            let theirs = Self.minutes(value)
            let ok = (ours ?? 0) == (theirs ?? 0)
            tallies[key, default: Tally()].count(ok)
            if !ok { note(key, ours.map(String.init) ?? "nil", theirs.map(String.init) ?? "nil") }
        }
    }

    /// Prints one line per field, prefixed with `name`, and writes the differences to `diffPath`.
    func report(_ name: String, diffPath: String) throws {
        for key in Self.fields {
            let t = tallies[key] ?? Tally()
            print("\(name): \(key): \(t.agree)/\(t.total) = \(String(format: "%.1f", t.share * 100))%")
        }
        if !diffs.isEmpty {
            try diffs.joined(separator: "\n").write(toFile: diffPath, atomically: true, encoding: .utf8)
        }
    }
}
