/// The stage that matched two records, in the order the stages run.
public enum MatchRule: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The same id: the same record fetched twice. Always merged.
    case sameID = "same-id"
    /// The same CloudKit record name. Always merged.
    case sameRecordName = "same-record-name"
    /// The same normalized source URL, and titles or ingredients that do not contradict it.
    case sameSourceURL = "same-source-url"
    /// The same normalized title and the same multiset of normalized ingredient items.
    case sameFingerprint = "same-fingerprint"
    /// A fuzzy score at or above the threshold, with both gates passed.
    case fuzzy

    /// Stage order: earlier stages are stronger evidence.
    package var rank: Int {
        switch self {
        case .sameID: 0
        case .sameRecordName: 1
        case .sameSourceURL: 2
        case .sameFingerprint: 3
        case .fuzzy: 4
        }
    }

    public static func < (a: MatchRule, b: MatchRule) -> Bool { a.rank < b.rank }
}
