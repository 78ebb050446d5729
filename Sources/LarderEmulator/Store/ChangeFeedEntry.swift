/// One record's latest change in its zone's change feed, as the dashboard's timeline shows it (no fields).
struct ChangeFeedEntry: Sendable, Hashable {
    var name: String
    var type: String
    /// The zone change sequence of the change.
    var changeSeq: Int64
    var changeTag: String
    var isDeleted: Bool
    var createdAt: Int64
    var modifiedAt: Int64
    var modifiedBy: String

    /// `create`, `update` or `delete`.
    var kind: String { isDeleted ? "delete" : createdAt == modifiedAt ? "create" : "update" }
}
