/// What brewLog v3 and brewRecipe v2 add to BrewGuide's records, read and written the same way
/// by both: bean, grinder, bloom, water, TDS, extraction yield, photos and `extras`.
///
/// The models keep these as their own properties; this type only shares the decoding, encoding,
/// shape and rules between them.
struct BrewDetails {
    var bean: CoffeeBean?
    var grinder: Grinder?
    var bloom: Bloom?
    var water: BrewWater?
    var tds: Double?
    var extractionYield: Double?
    var photos: [String]
    var extras: Fields

    /// The members' shapes.
    static let shapeMembers: [String: Shape] = [
        "bean": CoffeeBean.shape, "grinder": Grinder.shape, "bloom": Bloom.shape, "water": BrewWater.shape,
        "tds": .number, "extractionYield": .number, "photos": .list(.string), "extras": .object([:]),
    ]

    init(
        bean: CoffeeBean?, grinder: Grinder?, bloom: Bloom?, water: BrewWater?, tds: Double?, extractionYield: Double?,
        photos: [String], extras: Fields
    ) {
        self.bean = bean
        self.grinder = grinder
        self.bloom = bloom
        self.water = water
        self.tds = tds
        self.extractionYield = extractionYield
        self.photos = photos
        self.extras = extras
    }

    /// Reads the members from a record.
    init(reading r: ValueReader) throws {
        self.init(
            bean: try r.optionalObject("bean") { try CoffeeBean(value: $0, at: $1) },
            grinder: try r.optionalObject("grinder") { try Grinder(value: $0, at: $1) },
            bloom: try r.optionalObject("bloom") { try Bloom(value: $0, at: $1) },
            water: try r.optionalObject("water") { try BrewWater(value: $0, at: $1) },
            tds: try r.optionalDouble("tds"), extractionYield: try r.optionalDouble("extractionYield"),
            photos: try r.stringList("photos"),
            extras: try r.optionalObject("extras") { value, _ in value.objectValue ?? Fields() } ?? Fields())
    }

    /// Appends the members to a record being built (absent ones left out, `photos` always).
    func write(to b: inout ValueBuilder) {
        if let bean { b.set("bean", value: bean.value) }
        if let grinder { b.set("grinder", value: grinder.value) }
        if let bloom { b.set("bloom", value: bloom.value) }
        if let water { b.set("water", value: water.value) }
        b.set("tds", tds)
        b.set("extractionYield", extractionYield)
        b.set("photos", photos)
        if !extras.isEmpty { b.set("extras", value: .object(extras)) }
    }

    /// TDS and extraction yield are percentages (0–100); bloom water and time not negative;
    /// each extras entry an object.
    func check(_ check: inout RuleChecker) {
        if let tds { check.require((0...100).contains(tds), "tds", "TDS must be a percentage (0-100), found \(tds)") }
        if let extractionYield {
            check.require(
                (0...100).contains(extractionYield), "extractionYield",
                "extraction yield must be a percentage (0-100), found \(extractionYield)")
        }
        if let water = bloom?.waterGrams {
            check.require(water >= 0, "bloom.waterGrams", "bloom water must not be negative, found \(water)")
        }
        if let seconds = bloom?.seconds {
            check.require(seconds >= 0, "bloom.seconds", "bloom time must not be negative, found \(seconds)")
        }
        for entry in extras where entry.value.objectValue == nil {
            check.require(
                false, FieldPath.root.appending("extras").appending(entry.key),
                "extras.\(entry.key) must be an object of the source's fields, found \(entry.value.kindDescription)")
        }
    }
}

/// A record that holds the brew details as its own properties (``BrewLog``, ``BrewRecipe``): the
/// one mapping between those properties and ``BrewDetails``.
protocol CarriesBrewDetails {
    var bean: CoffeeBean? { get set }
    var grinder: Grinder? { get set }
    var bloom: Bloom? { get set }
    var water: BrewWater? { get set }
    var tds: Double? { get set }
    var extractionYield: Double? { get set }
    var photos: [String] { get set }
    var extras: Fields { get set }
}

extension CarriesBrewDetails {
    /// The record's brew details, read from and written to its properties.
    var brewDetails: BrewDetails {
        get {
            BrewDetails(
                bean: bean, grinder: grinder, bloom: bloom, water: water, tds: tds, extractionYield: extractionYield,
                photos: photos, extras: extras)
        }
        set {
            bean = newValue.bean
            grinder = newValue.grinder
            bloom = newValue.bloom
            water = newValue.water
            tds = newValue.tds
            extractionYield = newValue.extractionYield
            photos = newValue.photos
            extras = newValue.extras
        }
    }
}
