import Foundation
public import LarderCore

/// One record of a cluster, as survivorship sees it.
package struct MergeMember: Sendable {
    /// The record as read (after any schema upgrade).
    package var value: Value
    /// How the merge log names it: `created[4]` (input role and record index).
    package var ref: String
    /// `updatedAt` in milliseconds since 1970.
    package var updatedAt: Int64
    /// The record came from the saved set (by input), whatever its flags say.
    package var inSavedSet: Bool
    /// The record came from the created set (by input), whatever its flags say.
    package var inCreatedSet: Bool
}

/// Where one field of a merged record came from.
public struct FieldChoice: Sendable, Hashable {
    /// How the value was chosen.
    public enum Rule: String, Sendable, Hashable, Codable {
        /// The survivor's (id, owner, sync state, ingredient lines, steps).
        case survivor
        /// The value of the member with the newest `updatedAt` that has the field.
        case newest
        /// The earliest (`createdAt`).
        case earliest
        /// True when any member's is (saved / created / favorited flags).
        case any
        /// The union of all members' lists (tags, dietary notes, categories, notes, …).
        case union
        /// The longest (the description).
        case longest
        /// The members' objects merged key by key, the newest member's value winning (extras).
        case merged
    }

    /// The field name.
    public var field: String
    /// How it was chosen.
    public var rule: Rule
    /// The members whose value it is (for `union` and `any`, every contributing member).
    public var from: [String]
}

/// A loser's differing version of a list field that the survivor's version replaced.
public struct Alternative: Sendable, Hashable {
    /// The member it came from.
    public var from: String
    /// The field (`ingredients` or `instructions`).
    public var field: String
    /// The loser's whole value of that field.
    public var value: Value
}

/// The merged record of a cluster, and how each field was chosen.
package struct MergeResult: Sendable {
    package var value: Value
    package var fields: [FieldChoice]
    package var alternatives: [Alternative]
}

/// Merges the members of one cluster into a single record.
///
/// Rules, applied per top-level field:
/// - The survivor is the first member (callers order members created-first, newest
///   `updatedAt` next, then by content key). Its `id`, `ownerID` (else the first member's
///   that has one) and sync state (`recordName`, `changeTag`, `isCloudEnabled`,
///   `isDeleted`, `deletedAt`) win: a created recipe's identity beats a saved copy's.
/// - `ingredients` and `instructions` are the survivor's; every member whose version
///   differs is kept as an ``Alternative`` in the merge log, so nothing is lost.
/// - `isSaved`, `isCreated`, `isFavorited` are OR-ed (membership of the input set counts).
/// - `tags`, `dietaryNotes`, `categories`, `courses`, `cuisines`, `tools` and `reviews` are
///   unioned (survivor's first, then new ones in member order; case- and space-insensitive);
///   `notes` too, a note counting as present when one with the same text is.
/// - `description` is the longest (ties go to the member earlier in order).
/// - `extras` are merged: each source format's fields from every member, the value of the
///   member with the newest `updatedAt` winning where two differ.
/// - `createdAt` is the earliest, `updatedAt` the newest.
/// - Every other field, including fields Larder's model does not know, comes from the member
///   with the newest `updatedAt` that has it; ties go to the member earlier in order.
///
/// The result depends only on the members and their order, which callers derive from content.
package enum Survivorship {
    private static let survivorFields: Set<String> = [
        "id", "recordName", "changeTag", "isCloudEnabled", "isDeleted", "deletedAt", "ingredients", "instructions",
    ]
    private static let flagFields = ["isSaved", "isCreated", "isFavorited"]
    private static let unionFields: Set<String> = [
        "tags", "dietaryNotes", "categories", "courses", "cuisines", "tools", "reviews", "notes",
    ]

    /// Merges `members` (survivor first): each field by its rule (survivor's, any flag set,
    /// union of lists, longest description, merged extras, earliest creation and newest update,
    /// newest value otherwise), with the choice recorded for the merge log.
    package static func merge(_ members: [MergeMember]) -> MergeResult {
        precondition(!members.isEmpty, "a cluster has at least one member")
        var merger = FieldMerger(members: members)
        var keys: [String] = []
        var seen = Set<String>()
        for object in merger.objects {
            for field in object where seen.insert(field.key).inserted { keys.append(field.key) }
        }
        for flag in flagFields where seen.insert(flag).inserted { keys.append(flag) }
        for key in keys {
            if survivorFields.contains(key) {
                merger.takeSurvivors(key)
            } else if key == "ownerID" {
                merger.takeFirstPresent(key)
            } else if flagFields.contains(key) {
                merger.takeAnyFlag(key)
            } else if unionFields.contains(key) {
                merger.takeUnion(key)
            } else if key == "description" {
                merger.takeLongest(key)
            } else if key == "extras" {
                merger.mergeExtras(key)
            } else if key == "createdAt" || key == "updatedAt" {
                merger.takeDate(key, earliest: key == "createdAt")
            } else {
                merger.takeNewest(key)
            }
        }
        return MergeResult(value: .object(merger.out), fields: merger.choices, alternatives: merger.alternatives)
    }

    /// Whether ``withMembership(_:inSavedSet:inCreatedSet:)`` would change the record.
    package static func lacksMembership(_ value: Value, inSavedSet: Bool, inCreatedSet: Bool) -> Bool {
        (inSavedSet && value["isSaved"] != .bool(true)) || (inCreatedSet && value["isCreated"] != .bool(true))
    }

    /// A record with its input set's membership flag set (`isSaved` for the saved set,
    /// `isCreated` for the created set): what a record that merges with nothing becomes.
    package static func withMembership(_ value: Value, inSavedSet: Bool, inCreatedSet: Bool) -> Value {
        guard var fields = value.objectValue else { return value }
        if inSavedSet && fields["isSaved"] != .bool(true) { fields["isSaved"] = .bool(true) }
        if inCreatedSet && fields["isCreated"] != .bool(true) { fields["isCreated"] = .bool(true) }
        return .object(fields)
    }
}

/// One cluster's merge in progress: the members' fields, the merged record and the choices made.
private struct FieldMerger {
    let members: [MergeMember]
    let objects: [Fields]
    /// Member indexes, most recently updated first (ties in precedence order).
    let byRecency: [Int]
    var out = Fields()
    var choices: [FieldChoice] = []
    var alternatives: [Alternative] = []

    init(members: [MergeMember]) {
        self.members = members
        objects = members.map { $0.value.objectValue ?? Fields() }
        byRecency = members.indices.sorted {
            members[$0].updatedAt != members[$1].updatedAt ? members[$0].updatedAt > members[$1].updatedAt : $0 < $1
        }
    }

    /// Member `m`'s value of `key`, unless absent or null.
    func present(_ m: Int, _ key: String) -> Value? {
        guard let v = objects[m][key], !v.isNull else { return nil }
        return v
    }

    /// Writes member `m`'s value of `key` under `rule`, or else the survivor's value (null included) unlogged.
    mutating func take(_ key: String, from m: Int?, rule: FieldChoice.Rule) {
        if let m, let v = present(m, key) {
            out.append(key: key, value: v)
            choices.append(FieldChoice(field: key, rule: rule, from: [members[m].ref]))
        } else if let v = objects[0][key] {
            out.append(key: key, value: v)
        }
    }

    /// The survivor's value; for ingredients and instructions, the other members' differing
    /// versions are kept as alternatives.
    mutating func takeSurvivors(_ key: String) {
        if let v = objects[0][key] {
            out.append(key: key, value: v)
            choices.append(FieldChoice(field: key, rule: .survivor, from: [members[0].ref]))
        }
        guard key == "ingredients" || key == "instructions" else { return }
        let mine = objects[0][key] ?? .array([])
        for m in 1..<members.count {
            let theirs = objects[m][key] ?? .array([])
            if theirs != mine && !alternatives.contains(where: { $0.field == key && $0.value == theirs }) {
                alternatives.append(Alternative(from: members[m].ref, field: key, value: theirs))
            }
        }
    }

    /// The first member (in precedence order) that has a value.
    mutating func takeFirstPresent(_ key: String) {
        take(key, from: members.indices.first { present($0, key) != nil }, rule: .survivor)
    }

    /// True when any member says so (or belongs to the set the flag stands for).
    mutating func takeAnyFlag(_ key: String) {
        var from: [String] = []
        for m in members.indices {
            let implied = (key == "isSaved" && members[m].inSavedSet) || (key == "isCreated" && members[m].inCreatedSet)
            if implied || present(m, key) == .bool(true) { from.append(members[m].ref) }
        }
        out.append(key: key, value: .bool(!from.isEmpty))
        choices.append(FieldChoice(field: key, rule: .any, from: from))
    }

    /// Every member's items, once each: texts compared case- and space-insensitively (a note
    /// `{title, text}` by its text), other items exactly.
    mutating func takeUnion(_ key: String) {
        var items: [Value] = []
        var normalized = Set<String>()
        var from: [String] = []
        for m in members.indices {
            guard let list = present(m, key)?.arrayValue else { continue }
            var contributed = false
            for item in list {
                let text = (item.stringValue ?? item["text"]?.stringValue).map {
                    $0.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
                }
                if let text, !normalized.insert(text).inserted { continue }
                if text == nil && items.contains(item) { continue }
                items.append(item)
                contributed = true
            }
            if contributed { from.append(members[m].ref) }
        }
        out.append(key: key, value: .array(items))
        choices.append(FieldChoice(field: key, rule: .union, from: from))
    }

    /// The longest text (trimmed), the first member's on a tie.
    mutating func takeLongest(_ key: String) {
        var best: (m: Int, length: Int)?
        for m in members.indices {
            guard let text = present(m, key)?.stringValue else { continue }
            let length = text.trimmingCharacters(in: .whitespacesAndNewlines).count
            if best == nil || length > (best?.length ?? 0) { best = (m, length) }
        }
        take(key, from: best?.m, rule: .longest)
    }

    /// The members' extras merged source by source and field by field, the newest member's value winning.
    mutating func mergeExtras(_ key: String) {
        var merged = Fields()
        var from: [String] = []
        // Oldest first, so that the newest member's value is written last and wins.
        for m in byRecency.reversed() {
            guard let extras = present(m, key)?.objectValue, !extras.isEmpty else { continue }
            from.append(members[m].ref)
            for source in extras {
                if case .object(let fieldsOfSource) = source.value, case .object(var existing)? = merged[source.key] {
                    for field in fieldsOfSource { existing[field.key] = field.value }
                    merged[source.key] = .object(existing)
                } else {
                    merged[source.key] = source.value
                }
            }
        }
        if !from.isEmpty {
            out.append(key: key, value: .object(merged))
            choices.append(FieldChoice(field: key, rule: .merged, from: from.reversed()))
        } else if let v = objects[0][key] {
            out.append(key: key, value: v)
        }
    }

    /// The earliest (or latest) readable timestamp.
    mutating func takeDate(_ key: String, earliest: Bool) {
        var best: (m: Int, time: Double)?
        for m in members.indices {
            guard let text = present(m, key)?.stringValue, let date = Timestamp.parse(text) else { continue }
            let t = date.timeIntervalSince1970
            if let current = best, earliest ? t >= current.time : t <= current.time { continue }
            best = (m, t)
        }
        take(key, from: best?.m, rule: earliest ? .earliest : .newest)
    }

    /// The most recently updated member's value.
    mutating func takeNewest(_ key: String) {
        take(key, from: byRecency.first { present($0, key) != nil }, rule: .newest)
    }
}
