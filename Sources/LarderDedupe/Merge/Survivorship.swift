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

    /// Merges `members` (survivor first).
    package static func merge(_ members: [MergeMember]) -> MergeResult {
        precondition(!members.isEmpty, "a cluster has at least one member")
        let objects = members.map { $0.value.objectValue ?? Fields() }
        let byRecency = members.indices.sorted {
            members[$0].updatedAt != members[$1].updatedAt ? members[$0].updatedAt > members[$1].updatedAt : $0 < $1
        }
        var keys: [String] = []
        var seen = Set<String>()
        for object in objects {
            for field in object where seen.insert(field.key).inserted { keys.append(field.key) }
        }
        for flag in flagFields where seen.insert(flag).inserted { keys.append(flag) }

        var out = Fields()
        var choices: [FieldChoice] = []
        var alternatives: [Alternative] = []
        func present(_ m: Int, _ key: String) -> Value? {
            guard let v = objects[m][key], !v.isNull else { return nil }
            return v
        }
        for key in keys {
            if survivorFields.contains(key) {
                if let v = objects[0][key] {
                    out.append(key: key, value: v)
                    choices.append(FieldChoice(field: key, rule: .survivor, from: [members[0].ref]))
                }
                if key == "ingredients" || key == "instructions" {
                    let mine = objects[0][key] ?? .array([])
                    for m in 1..<members.count {
                        let theirs = objects[m][key] ?? .array([])
                        if theirs != mine && !alternatives.contains(where: { $0.field == key && $0.value == theirs }) {
                            alternatives.append(Alternative(from: members[m].ref, field: key, value: theirs))
                        }
                    }
                }
            } else if key == "ownerID" {
                if let m = members.indices.first(where: { present($0, key) != nil }), let v = present(m, key) {
                    out.append(key: key, value: v)
                    choices.append(FieldChoice(field: key, rule: .survivor, from: [members[m].ref]))
                } else if let v = objects[0][key] {
                    out.append(key: key, value: v)
                }
            } else if flagFields.contains(key) {
                var from: [String] = []
                for m in members.indices {
                    let implied =
                        (key == "isSaved" && members[m].inSavedSet) || (key == "isCreated" && members[m].inCreatedSet)
                    if implied || present(m, key) == .bool(true) { from.append(members[m].ref) }
                }
                out.append(key: key, value: .bool(!from.isEmpty))
                choices.append(FieldChoice(field: key, rule: .any, from: from))
            } else if unionFields.contains(key) {
                var items: [Value] = []
                var normalized = Set<String>()
                var from: [String] = []
                for m in members.indices {
                    guard let list = present(m, key)?.arrayValue else { continue }
                    var contributed = false
                    for item in list {
                        // A note ({title, text}) is the same note when its text is.
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
            } else if key == "description" {
                var best: (m: Int, length: Int)?
                for m in members.indices {
                    guard let text = present(m, key)?.stringValue else { continue }
                    let length = text.trimmingCharacters(in: .whitespacesAndNewlines).count
                    if best == nil || length > (best?.length ?? 0) { best = (m, length) }
                }
                if let best, let v = present(best.m, key) {
                    out.append(key: key, value: v)
                    choices.append(FieldChoice(field: key, rule: .longest, from: [members[best.m].ref]))
                } else if let v = objects[0][key] {
                    out.append(key: key, value: v)
                }
            } else if key == "extras" {
                var merged = Fields()
                var from: [String] = []
                // Oldest first, so that the newest member's value is written last and wins.
                for m in byRecency.reversed() {
                    guard let extras = present(m, key)?.objectValue, !extras.isEmpty else { continue }
                    from.append(members[m].ref)
                    for source in extras {
                        if case .object(let fieldsOfSource) = source.value,
                            case .object(var existing)? = merged[source.key]
                        {
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
            } else if key == "createdAt" || key == "updatedAt" {
                var best: (Int, Double)?
                for m in members.indices {
                    guard let text = present(m, key)?.stringValue, let date = Timestamp.parse(text) else { continue }
                    let t = date.timeIntervalSince1970
                    if let current = best, key == "createdAt" ? t >= current.1 : t <= current.1 { continue }
                    best = (m, t)
                }
                if let (m, _) = best, let v = present(m, key) {
                    out.append(key: key, value: v)
                    choices.append(
                        FieldChoice(field: key, rule: key == "createdAt" ? .earliest : .newest, from: [members[m].ref]))
                } else if let v = objects[0][key] {
                    out.append(key: key, value: v)
                }
            } else {
                if let m = byRecency.first(where: { present($0, key) != nil }), let v = present(m, key) {
                    out.append(key: key, value: v)
                    choices.append(FieldChoice(field: key, rule: .newest, from: [members[m].ref]))
                } else if let v = objects[0][key] {
                    out.append(key: key, value: v)
                }
            }
        }
        return MergeResult(value: .object(out), fields: choices, alternatives: alternatives)
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
