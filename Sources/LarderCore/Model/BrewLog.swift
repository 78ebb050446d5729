public import Foundation

/// A brew log entry (BrewGuide `BrewLog`): a snapshot of the brew parameters at brew time,
/// with an optional reference to the recipe for navigation only.
///
/// v3 adds what Beanconqueror and coffee people record: bean, grinder, bloom, water, TDS,
/// extraction yield, photos, `extras`. v4 holds what real logs hold: most brews are never rated,
/// some never weighed, and notes run long, so `rating`, `doseGrams` and `targetYieldGrams` are
/// optional and `note` has no limit. BrewGuide's own, stricter rules are ``RecordRules/brewGuide``.
public struct BrewLog: LarderRecord, CarriesBrewDetails {
    public static let recordType = RecordType.brewLog

    public var id: String
    public var method: BrewMethod
    public var recipeNameAtBrew: String
    /// The coffee's weight; `nil` when the brew was not weighed.
    public var doseGrams: Double?
    /// The water's (or beverage's) weight; `nil` when the brew was not weighed.
    public var targetYieldGrams: Double?
    public var waterTemperatureCelsius: Double?
    public var grindLabel: GrindLabel?
    /// 1–5; `nil` for an unrated brew.
    public var rating: Int?
    /// Taste feedback (v1 had a single `tasteTag`).
    public var tasteTags: [TasteTag]
    /// How long the brew took, in seconds (new in v2).
    public var brewTimeSeconds: Int?
    public var note: String?
    public var createdAt: Date
    /// The recipe brewed, if it still exists.
    public var recipeID: String?
    /// The coffee used.
    public var bean: CoffeeBean?
    /// The grinder and its setting.
    public var grinder: Grinder?
    public var bloom: Bloom?
    public var water: BrewWater?
    /// Total dissolved solids, in percent.
    public var tds: Double?
    /// Extraction yield, in percent.
    public var extractionYield: Double?
    /// Photo references or URLs.
    public var photos: [String]
    /// Source fields Larder has no field for, verbatim, under the source format's name
    /// (`{"beanconqueror": {…}}`).
    public var extras: Fields
    public var sync: SyncMetadata

    /// Creates a brew log.
    public init(
        id: String, method: BrewMethod = .v60, recipeNameAtBrew: String, doseGrams: Double?, targetYieldGrams: Double?,
        waterTemperatureCelsius: Double? = nil, grindLabel: GrindLabel? = nil, rating: Int?, tasteTags: [TasteTag] = [],
        brewTimeSeconds: Int? = nil, note: String? = nil, createdAt: Date, recipeID: String? = nil,
        bean: CoffeeBean? = nil, grinder: Grinder? = nil, bloom: Bloom? = nil, water: BrewWater? = nil,
        tds: Double? = nil, extractionYield: Double? = nil, photos: [String] = [], extras: Fields = Fields(),
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
        self.bean = bean
        self.grinder = grinder
        self.bloom = bloom
        self.water = water
        self.tds = tds
        self.extractionYield = extractionYield
        self.photos = photos
        self.extras = extras
        self.sync = sync
    }

    public static let shape: Shape = .object(
        [
            "id": .string, "method": .string, "recipeNameAtBrew": .string, "doseGrams": .number,
            "targetYieldGrams": .number, "waterTemperatureCelsius": .number, "grindLabel": .string, "rating": .integer,
            "tasteTags": .list(.string), "brewTimeSeconds": .integer, "note": .string, "createdAt": .string,
            "recipeID": .string,
        ].merging(BrewDetails.shapeMembers) { a, _ in a }.merging(SyncMetadata.shapeMembers) { a, _ in a })

    public init(value: Value) throws {
        let r = try ValueReader(value)
        let sync = try SyncMetadata(reading: r)
        let tombstone = sync.isDeleted
        self.init(
            id: try r.string("id"),
            method: try r.optionalEnum("method", BrewMethod.self) ?? .v60,
            recipeNameAtBrew: tombstone
                ? (try r.optionalString("recipeNameAtBrew") ?? "") : try r.string("recipeNameAtBrew"),
            doseGrams: try r.optionalDouble("doseGrams"),
            targetYieldGrams: try r.optionalDouble("targetYieldGrams"),
            waterTemperatureCelsius: try r.optionalDouble("waterTemperatureCelsius"),
            grindLabel: try r.optionalEnum("grindLabel", GrindLabel.self),
            rating: try r.optionalInt("rating"),
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
        brewDetails = try BrewDetails(reading: r)
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
        brewDetails.write(to: &b)
        sync.write(to: &b)
        return b.value
    }

    /// The rules of brewLog v4.
    ///
    /// A rating, when given, 1–5; name snapshot not empty; dose and target yield,
    /// when given, greater than 0; brew time not negative; and for v3's fields, TDS and extraction
    /// yield percentages (0–100), bloom water and time not negative, extras entries objects.
    /// Seed 002's stricter rules (a rating on every log, a note of at most 280 characters) are
    /// ``RecordRules/brewGuide``: `larder validate --rules brewguide`.
    public func validate() -> [Diagnostic] {
        guard !sync.isDeleted else { return [] }
        var check = RuleChecker()
        if let rating { check.require((1...5).contains(rating), "rating", "rating must be 1-5, found \(rating)") }
        check.require(
            !recipeNameAtBrew.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "recipeNameAtBrew",
            "recipe name snapshot must not be empty")
        if let doseGrams {
            check.require(doseGrams > 0, "doseGrams", "dose must be greater than 0, found \(doseGrams)")
        }
        if let targetYieldGrams {
            check.require(
                targetYieldGrams > 0, "targetYieldGrams",
                "target yield must be greater than 0, found \(targetYieldGrams)")
        }
        if let brewTimeSeconds {
            check.require(
                brewTimeSeconds >= 0, "brewTimeSeconds", "brew time must not be negative, found \(brewTimeSeconds)")
        }
        brewDetails.check(&check)
        return check.diagnostics
    }
}
