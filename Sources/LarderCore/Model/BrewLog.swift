public import Foundation

/// A brew log entry (BrewGuide `BrewLog`): a snapshot of the brew parameters at brew time,
/// with an optional reference to the recipe for navigation only.
public struct BrewLog: LarderRecord {
    public static let recordType = RecordType.brewLog

    public var id: String
    public var method: BrewMethod
    public var recipeNameAtBrew: String
    public var doseGrams: Double
    public var targetYieldGrams: Double
    public var waterTemperatureCelsius: Double?
    public var grindLabel: GrindLabel?
    public var rating: Int
    /// Taste feedback (v1 had a single `tasteTag`).
    public var tasteTags: [TasteTag]
    /// How long the brew took, in seconds (new in v2).
    public var brewTimeSeconds: Int?
    public var note: String?
    public var createdAt: Date
    /// The recipe brewed, if it still exists.
    public var recipeID: String?
    public var sync: SyncMetadata

    /// Creates a brew log.
    public init(
        id: String, method: BrewMethod = .v60, recipeNameAtBrew: String, doseGrams: Double, targetYieldGrams: Double,
        waterTemperatureCelsius: Double? = nil, grindLabel: GrindLabel? = nil, rating: Int, tasteTags: [TasteTag] = [],
        brewTimeSeconds: Int? = nil, note: String? = nil, createdAt: Date, recipeID: String? = nil,
        sync: SyncMetadata = SyncMetadata()
    ) {
        self.id = id
        self.method = method
        self.recipeNameAtBrew = recipeNameAtBrew
        self.doseGrams = doseGrams
        self.targetYieldGrams = targetYieldGrams
        self.waterTemperatureCelsius = waterTemperatureCelsius
        self.grindLabel = grindLabel
        self.rating = rating
        self.tasteTags = tasteTags
        self.brewTimeSeconds = brewTimeSeconds
        self.note = note
        self.createdAt = createdAt
        self.recipeID = recipeID
        self.sync = sync
    }

    public static let shape: Shape = .object(
        [
            "id": .string, "method": .string, "recipeNameAtBrew": .string, "doseGrams": .number,
            "targetYieldGrams": .number, "waterTemperatureCelsius": .number, "grindLabel": .string, "rating": .integer,
            "tasteTags": .list(.string), "brewTimeSeconds": .integer, "note": .string, "createdAt": .string,
            "recipeID": .string,
        ].merging(SyncMetadata.shapeMembers) { a, _ in a })

    public init(value: Value) throws {
        let r = try ValueReader(value)
        let sync = try SyncMetadata(reading: r)
        let tombstone = sync.isDeleted
        self.init(
            id: try r.string("id"),
            method: try r.optionalEnum("method", BrewMethod.self) ?? .v60,
            recipeNameAtBrew: tombstone
                ? (try r.optionalString("recipeNameAtBrew") ?? "") : try r.string("recipeNameAtBrew"),
            doseGrams: tombstone ? (try r.optionalDouble("doseGrams") ?? 0) : try r.double("doseGrams"),
            targetYieldGrams: tombstone
                ? (try r.optionalDouble("targetYieldGrams") ?? 0) : try r.double("targetYieldGrams"),
            waterTemperatureCelsius: try r.optionalDouble("waterTemperatureCelsius"),
            grindLabel: try r.optionalEnum("grindLabel", GrindLabel.self),
            rating: tombstone ? (try r.optionalInt("rating") ?? 0) : try r.int("rating"),
            tasteTags: try r.list("tasteTags") { value, path in
                guard case .string(let raw) = value, let tag = TasteTag(rawValue: raw) else {
                    let allowed = TasteTag.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw LarderError(
                        .malformedRecord, "expected one of \(allowed), found \(value.snippet)",
                        location: SourceLocation(fieldPath: path))
                }
                return tag
            },
            brewTimeSeconds: try r.optionalInt("brewTimeSeconds"),
            note: try r.optionalString("note"),
            createdAt: tombstone ? (try r.optionalDate("createdAt") ?? .distantPast) : try r.date("createdAt"),
            recipeID: try r.optionalString("recipeID"),
            sync: sync
        )
    }

    public var value: Value {
        var b = ValueBuilder()
        b.set("id", id)
        b.set("method", method.rawValue)
        b.set("recipeNameAtBrew", recipeNameAtBrew)
        b.set("doseGrams", doseGrams)
        b.set("targetYieldGrams", targetYieldGrams)
        b.set("waterTemperatureCelsius", waterTemperatureCelsius)
        b.set("grindLabel", grindLabel?.rawValue)
        b.set("rating", rating)
        b.set("tasteTags", tasteTags.map(\.rawValue))
        b.set("brewTimeSeconds", brewTimeSeconds)
        b.set("note", note)
        b.set("createdAt", createdAt)
        b.set("recipeID", recipeID)
        sync.write(to: &b)
        return b.value
    }

    /// Seed 002's rules exactly: rating 1–5, name snapshot not empty, dose > 0, target
    /// yield > 0, note at most 280 characters.
    public func validate() -> [Diagnostic] {
        guard !sync.isDeleted else { return [] }
        var check = RuleChecker()
        check.require((1...5).contains(rating), "rating", "rating must be 1-5, found \(rating)")
        check.require(
            !recipeNameAtBrew.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "recipeNameAtBrew",
            "recipe name snapshot must not be empty")
        check.require(doseGrams > 0, "doseGrams", "dose must be greater than 0, found \(doseGrams)")
        check.require(
            targetYieldGrams > 0, "targetYieldGrams", "target yield must be greater than 0, found \(targetYieldGrams)")
        if let brewTimeSeconds {
            check.require(
                brewTimeSeconds >= 0, "brewTimeSeconds", "brew time must not be negative, found \(brewTimeSeconds)")
        }
        if let note {
            check.require(note.count <= 280, "note", "note must be at most 280 characters, found \(note.count)")
        }
        return check.diagnostics
    }
}
