public import Foundation

/// A structured coffee brew recipe (BrewGuide `Recipe` with its `RecipeStep` list).
///
/// v2 adds the bean, grinder, brew time, bloom, water, target TDS and extraction yield, photos
/// and `extras`.
public struct BrewRecipe: LarderRecord, CarriesBrewDetails {
    public static let recordType = RecordType.brewRecipe

    public var id: String
    public var name: String
    public var method: BrewMethod
    public var isStarter: Bool
    public var origin: RecipeOrigin
    public var doseGrams: Double
    public var targetYieldGrams: Double
    public var waterTemperatureCelsius: Double?
    public var grindLabel: GrindLabel?
    public var steps: [BrewStep]
    public var createdAt: Date
    public var updatedAt: Date
    /// How long the brew should take, in seconds.
    public var brewTimeSeconds: Int?
    /// The coffee used.
    public var bean: CoffeeBean?
    /// The grinder and its setting.
    public var grinder: Grinder?
    public var bloom: Bloom?
    public var water: BrewWater?
    /// Target total dissolved solids, in percent.
    public var tds: Double?
    /// Target extraction yield, in percent.
    public var extractionYield: Double?
    /// Photo references or URLs.
    public var photos: [String]
    /// Source fields Larder has no field for, verbatim, under the source format's name
    /// (`{"beanconqueror": {…}}`).
    public var extras: Fields
    public var sync: SyncMetadata

    /// Creates a brew recipe.
    public init(
        id: String, name: String, method: BrewMethod = .v60, isStarter: Bool = false, origin: RecipeOrigin = .custom,
        doseGrams: Double, targetYieldGrams: Double, waterTemperatureCelsius: Double? = nil,
        grindLabel: GrindLabel? = nil,
        steps: [BrewStep], createdAt: Date, updatedAt: Date? = nil, brewTimeSeconds: Int? = nil,
        bean: CoffeeBean? = nil, grinder: Grinder? = nil, bloom: Bloom? = nil, water: BrewWater? = nil,
        tds: Double? = nil, extractionYield: Double? = nil, photos: [String] = [], extras: Fields = Fields(),
        sync: SyncMetadata = SyncMetadata()
    ) {
        self.id = id
        self.name = name
        self.method = method
        self.isStarter = isStarter
        self.origin = origin
        self.doseGrams = doseGrams
        self.targetYieldGrams = targetYieldGrams
        self.waterTemperatureCelsius = waterTemperatureCelsius
        self.grindLabel = grindLabel
        self.steps = steps
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.brewTimeSeconds = brewTimeSeconds
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
            "id": .string, "name": .string, "method": .string, "isStarter": .boolean, "origin": .string,
            "doseGrams": .number, "targetYieldGrams": .number, "waterTemperatureCelsius": .number,
            "grindLabel": .string,
            "steps": .list(BrewStep.shape), "createdAt": .string, "updatedAt": .string, "brewTimeSeconds": .integer,
        ].merging(BrewDetails.shapeMembers) { a, _ in a }.merging(SyncMetadata.shapeMembers) { a, _ in a })

    public init(value: Value) throws {
        let r = try ValueReader(value)
        let sync = try SyncMetadata(reading: r)
        let tombstone = sync.isDeleted
        let created = tombstone ? (try r.optionalDate("createdAt") ?? .distantPast) : try r.date("createdAt")
        self.init(
            id: try r.string("id"),
            name: tombstone ? (try r.optionalString("name") ?? "") : try r.string("name"),
            method: try r.optionalEnum("method", BrewMethod.self) ?? .v60,
            isStarter: try r.bool("isStarter", default: false),
            origin: try r.optionalEnum("origin", RecipeOrigin.self) ?? .custom,
            doseGrams: tombstone ? (try r.optionalDouble("doseGrams") ?? 0) : try r.double("doseGrams"),
            targetYieldGrams: tombstone
                ? (try r.optionalDouble("targetYieldGrams") ?? 0) : try r.double("targetYieldGrams"),
            waterTemperatureCelsius: try r.optionalDouble("waterTemperatureCelsius"),
            grindLabel: try r.optionalEnum("grindLabel", GrindLabel.self),
            steps: try r.list("steps") { try BrewStep(value: $0, at: $1) },
            createdAt: created,
            updatedAt: try r.optionalDate("updatedAt") ?? created,
            brewTimeSeconds: try r.optionalInt("brewTimeSeconds"),
            sync: sync
        )
        brewDetails = try BrewDetails(reading: r)
    }

    public var value: Value {
        var b = ValueBuilder()
        b.set("id", id)
        b.set("name", name)
        b.set("method", method.rawValue)
        b.set("isStarter", isStarter)
        b.set("origin", origin.rawValue)
        b.set("doseGrams", doseGrams)
        b.set("targetYieldGrams", targetYieldGrams)
        b.set("waterTemperatureCelsius", waterTemperatureCelsius)
        b.set("grindLabel", grindLabel?.rawValue)
        b.set("steps", value: .array(steps.map(\.value)))
        b.set("createdAt", createdAt)
        b.set("updatedAt", updatedAt)
        b.set("brewTimeSeconds", brewTimeSeconds)
        brewDetails.write(to: &b)
        sync.write(to: &b)
        return b.value
    }

    /// Seed 002's rules exactly: name not empty, dose > 0, target yield > 0, at least one step,
    /// all timers ≥ 0, water additions summing to the target yield within 1 g; and for v2's
    /// fields, brew time not negative, TDS and extraction yield percentages (0–100), bloom water
    /// and time not negative, extras entries objects.
    public func validate() -> [Diagnostic] {
        guard !sync.isDeleted else { return [] }
        var check = RuleChecker()
        check.require(!name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "name", "name must not be empty")
        check.require(doseGrams > 0, "doseGrams", "dose must be greater than 0, found \(doseGrams)")
        check.require(
            targetYieldGrams > 0, "targetYieldGrams", "target yield must be greater than 0, found \(targetYieldGrams)")
        check.require(!steps.isEmpty, "steps", "a recipe needs at least one step")
        for (index, step) in steps.enumerated() {
            if let timer = step.timerSeconds {
                check.require(
                    timer >= 0, FieldPath.root.appending("steps").appending(index: index).appending("timerSeconds"),
                    "timer must not be negative, found \(timer)")
            }
        }
        let water = steps.compactMap(\.waterGrams).reduce(0, +)
        if !steps.isEmpty {
            check.require(
                abs(water - targetYieldGrams) <= 1.0, "steps",
                "water additions sum to \(Self.grams(water)) g, expected the target yield \(Self.grams(targetYieldGrams)) g (±1 g)"
            )
        }
        if let brewTimeSeconds {
            check.require(
                brewTimeSeconds >= 0, "brewTimeSeconds", "brew time must not be negative, found \(brewTimeSeconds)")
        }
        brewDetails.check(&check)
        return check.diagnostics
    }

    private static func grams(_ value: Double) -> String {
        Int(exactly: value).map { String($0) } ?? String(value)
    }

    /// BrewGuide's V60 starter recipe as seeded on first launch (PRD 3.5): 15 g, 250 g, 94 °C,
    /// medium grind, six steps.
    public static func v60Starter(createdAt: Date = Date(timeIntervalSince1970: 1_704_067_200)) -> BrewRecipe {
        BrewRecipe(
            id: "starter-v60", name: "V60 Starter", method: .v60, isStarter: true, origin: .starter,
            doseGrams: 15, targetYieldGrams: 250, waterTemperatureCelsius: 94, grindLabel: .medium,
            steps: [
                BrewStep(
                    order: 1, instruction: "Rinse the paper filter with hot water and discard the rinse water",
                    timerSeconds: 0),
                BrewStep(
                    order: 2, instruction: "Add 15 g of coffee, ground medium (sand; slightly finer than sea salt)",
                    timerSeconds: 0),
                BrewStep(order: 3, instruction: "Bloom: pour 45 g of water and wait", timerSeconds: 45, waterGrams: 45),
                BrewStep(order: 4, instruction: "Pour to 150 g by 1:30", timerSeconds: 45, waterGrams: 105),
                BrewStep(order: 5, instruction: "Pour to 250 g by 2:15", timerSeconds: 45, waterGrams: 100),
                BrewStep(order: 6, instruction: "Let it draw down; finish between 3:00 and 3:30", timerSeconds: 60),
            ],
            createdAt: createdAt)
    }
}

/// One step of a brew recipe (BrewGuide `RecipeStep`).
public struct BrewStep: Sendable, Hashable {
    public var order: Int
    public var instruction: String
    public var timerSeconds: Int?
    /// Water added in this step, in grams.
    public var waterGrams: Double?

    /// Creates a step.
    public init(order: Int, instruction: String, timerSeconds: Int? = nil, waterGrams: Double? = nil) {
        self.order = order
        self.instruction = instruction
        self.timerSeconds = timerSeconds
        self.waterGrams = waterGrams
    }

    public static let shape: Shape = .object([
        "order": .integer, "instruction": .string, "timerSeconds": .integer, "waterGrams": .number,
    ])

    /// Decodes a step at `path`.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(
            order: try r.int("order"), instruction: try r.string("instruction"),
            timerSeconds: try r.optionalInt("timerSeconds"), waterGrams: try r.optionalDouble("waterGrams"))
    }

    /// The step as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("order", order)
        b.set("instruction", instruction)
        b.set("timerSeconds", timerSeconds)
        b.set("waterGrams", waterGrams)
        return b.value
    }
}
