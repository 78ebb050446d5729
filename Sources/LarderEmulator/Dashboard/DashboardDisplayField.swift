import LarderCloudKit

/// The field a records list shows as each record's title.
///
/// A field named `title` or `name` (either case), else the first `STRING` field by name, else none.
enum DashboardDisplayField {
    /// The names a title field is looked for by, in order.
    static let preferred = ["title", "name"]

    /// The display field among `fields` (names and types of a record type, or of one record).
    static func choose(_ fields: [String: FieldType]) -> String? {
        let names = fields.keys.sorted()
        for wanted in preferred {
            if let match = names.first(where: { $0.lowercased() == wanted }) { return match }
        }
        return names.first { fields[$0] == .string }
    }

    /// The display field of one record, from the types its own fields carry.
    static func choose(in record: Record) -> String? {
        choose((record.fields ?? [:]).compactMapValues(\.type))
    }
}
