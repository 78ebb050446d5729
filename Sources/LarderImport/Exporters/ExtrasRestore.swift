import LarderCore

/// Puts back the source fields an import kept in `recipe.extras[<format>]`, so that an export to
/// the format a recipe came from restores what Larder has no field for.
///
/// The rule, member by member of `extras[<format>]` (an object keyed by the source's field names):
/// - a key the exporter does not fill from a Larder field (Paprika's `hash`, Mealie's `settings`,
///   Tandoor's `internal`) takes the extras value, verbatim, replacing whatever the exporter wrote
///   there by default;
/// - a key the exporter fills from a Larder field (`owned`) keeps the exporter's value when that
///   value is not empty: the Larder field wins, because the extras value would contradict it;
/// - an owned key the exporter left empty (`null`, `""`, `[]`, `{}`) takes the extras value.
///
/// Keys keep the order the exporter wrote them in; restored keys the exporter did not write
/// follow, in the order of the extras object. Extras under another format's name are never used.
///
/// A member of a structured field kept by the member census (``MemberCensus``) has a path for a
/// key: `author.sameAs`, `recipeInstructions[2/7].url`. It goes back in place when the record has
/// that place and the exporter wrote nothing there (`null`, `""`, `[]`, `{}` are nothing; a list index counts only in a list of the same
/// length, so a member never lands on another element; a single value is a list of one; a node's
/// `@type` is replaced); else, unless the export holds the same value there already, it is written
/// as it was kept, under its path, so it is still not lost.
enum ExtrasRestore {
    /// Merges `recipe.extras[format.rawValue]` into `record` by the rule above.
    /// - Parameters:
    ///   - recipe: the recipe being exported.
    ///   - format: the format whose extras apply.
    ///   - record: the object the exporter built.
    ///   - owned: the keys of `record` that carry a Larder field.
    ///   - replaceable: member names whose exported value is a default the exporter made up (a
    ///     generated id): a kept member of that name goes back in place over it.
    static func merge(
        _ recipe: Recipe, format: ImportFormat, into record: inout Fields, owned: Set<String>,
        replaceable: Set<String> = []
    ) {
        guard let extras = recipe.extras[format.rawValue]?.objectValue else { return }
        var members: [(path: MemberPath, member: Field)] = []
        for member in extras {
            if let path = MemberPath(member.key), record[path.root] != nil {
                members.append((path, member))
                continue
            }
            if owned.contains(member.key), let written = record[member.key], !isEmpty(written) { continue }
            record[member.key] = member.value
        }
        for (path, member) in members {
            var whole = Value.object(record)
            // The export already says the same there: nothing to restore.
            if path.value(in: whole) == member.value { continue }
            if path.place(member.value, in: &whole, replaceable: replaceable), let placed = whole.objectValue {
                record = placed
            } else {
                record[member.key] = member.value
            }
        }
    }

    /// Whether a value says nothing: null, an empty string, list or object.
    static func isEmpty(_ value: Value) -> Bool { value.saysNothing }
}
