// No Foundation here, on purpose: with MemberImportVisibility, `contains(_:)` in this file is the
// standard library's search by `Character` (`_StringProcessing`), the one the importers call (their files
// import no Foundation either); a file importing Foundation would get Foundation's `NSString` search.

/// The search by `Character` that ``Swift/String/containsText(_:)`` must answer as.
enum CharacterSearch {
    /// Whether `text` contains `target`, by `Character`.
    static func contains(_ text: String, _ target: String) -> Bool { text.contains(target) }
}
