/// What an import did: what went where, and what each source field became.
public struct ImportReport: Sendable {
    /// One item of the report.
    public struct Line: Sendable, Hashable {
        /// The recipe's (or brew record's) name.
        public var name: String
        /// Its id, when it got one.
        public var id: String?
        /// Where it came from.
        public var origin: String
        /// Why it was rejected (with where, as printed), or what it duplicates.
        public var reason: String?
        /// Why it was rejected, without where: rejections of one cause group under it.
        public var cause: String?
    }

    /// Items written.
    public var imported: [Line] = []
    /// Items rejected, with their reason.
    public var rejected: [Line] = []
    /// Items not written because an earlier one (or the existing output) is the same.
    public var duplicates: [Line] = []
    /// Warnings, each naming its origin.
    public var warnings: [String] = []
    /// Records kept from an output file that already existed (with ``ImportSession/Options/merge``).
    public var carriedOver = 0
    /// Output files that existed and were replaced (without ``ImportSession/Options/merge``).
    public var replaced: [String] = []
    /// The files written.
    public var outputs: [String] = []
    /// Image files written.
    public var images = 0
    /// What happened to each source field of the records written (see ``FieldCensus``).
    package var census = CensusTally()

    /// How many items were read (imported, rejected or duplicate).
    var itemCount: Int { imported.count + rejected.count + duplicates.count }

    /// The input file of an origin (`file!entry#index`, `file#index` or `file`).
    public static func input(ofOrigin origin: String) -> String {
        if let bang = origin.firstIndex(of: "!") { return String(origin[..<bang]) }
        if let hash = origin.lastIndex(of: "#"), origin[origin.index(after: hash)...].allSatisfy(\.isNumber),
            origin.index(after: hash) < origin.endIndex
        {
            return String(origin[..<hash])
        }
        return origin
    }
}
