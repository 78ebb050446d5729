/// An app's own rules, stricter than Larder's schema: what that app would refuse to save.
///
/// Larder's models hold what people's records really hold (an unrated brew, a long note); an app
/// that syncs them may not. `larder validate --rules brewguide` lists, record by record, what
/// BrewGuide would refuse and why, and `larder upload` runs the same check before an upload to
/// BrewGuide's container, so such a record goes to the dead letters with its reasons instead of
/// reaching the app.
public enum RecordRules: String, Sendable, Hashable, CaseIterable {
    /// BrewGuide's `BrewLogRepository.validate` and `RecipeRepository.validate` (seed 002).
    case brewGuide = "brewguide"

    /// The CloudKit container BrewGuide syncs through (seed 002's `PersistenceController`).
    public static let brewGuideContainer = "iCloud.com.brewguide.BrewGuide"

    /// The rules an app's container implies: BrewGuide's for its container, none otherwise.
    public static func implied(byContainer container: String) -> RecordRules? {
        container.lowercased() == brewGuideContainer.lowercased() ? .brewGuide : nil
    }

    /// The app's name, for messages.
    public var appName: String {
        switch self {
        case .brewGuide: "BrewGuide"
        }
    }

    /// Whether the rules say anything about records of `type`.
    public func applies(to type: RecordType) -> Bool {
        switch self {
        case .brewGuide: type == .brewLog || type == .brewRecipe
        }
    }

    /// What the app would refuse in `record` (empty: it would save it).
    ///
    /// Tombstones pass.
    public func check(_ record: any LarderRecord) -> [Diagnostic] {
        switch self {
        case .brewGuide:
            if let log = record as? BrewLog { return Self.brewGuide(log) }
            if let recipe = record as? BrewRecipe { return recipe.validate() }
            return []
        }
    }

    /// The app's refusal of `record`, every reason in one error (at the first reason's field),
    /// or `nil` when the app would save it.
    public func refusal(of record: any LarderRecord) -> LarderError? {
        let reasons = check(record)
        guard let first = reasons.first else { return nil }
        // The first reason's field is the error's own; the others name theirs.
        let others = reasons.dropFirst().map { "\($0.location.fieldPath.map { "\($0): " } ?? "")\($0.message)" }
        return LarderError(
            .invalidRecord,
            "\(appName) would refuse it: \(first.message)\(others.isEmpty ? "" : "; also \(others.joined(separator: "; "))")",
            location: SourceLocation(fieldPath: first.location.fieldPath))
    }

    /// Seed 002's brew-log rules exactly: rating 1–5, name snapshot not empty, dose > 0, target
    /// yield > 0, note at most 280 characters (with Larder's own checks of the other fields).
    private static func brewGuide(_ log: BrewLog) -> [Diagnostic] {
        guard !log.sync.isDeleted else { return [] }
        var check = RuleChecker()
        if let rating = log.rating {
            check.require((1...5).contains(rating), "rating", "rated \(rating), and it needs 1-5")
        } else {
            check.require(false, "rating", "unrated, and it needs a rating of 1-5")
        }
        check.require(
            log.doseGrams.map { $0 > 0 } ?? false, "doseGrams",
            log.doseGrams.map { "a dose of \($0) g, and it needs more than 0" } ?? "no dose, and it needs one over 0 g")
        check.require(
            log.targetYieldGrams.map { $0 > 0 } ?? false, "targetYieldGrams",
            log.targetYieldGrams.map { "a target yield of \($0) g, and it needs more than 0" }
                ?? "no target yield, and it needs one over 0 g")
        if let note = log.note {
            check.require(
                note.count <= 280, "note", "a note of \(note.count) characters, and it keeps at most 280")
        }
        // Larder's own checks of the other fields; these three were checked above, more strictly.
        let checked: [FieldPath] = ["rating", "doseGrams", "targetYieldGrams"]
        let own = log.validate().filter { diagnostic in !checked.contains { $0 == diagnostic.location.fieldPath } }
        return check.diagnostics + own
    }
}
