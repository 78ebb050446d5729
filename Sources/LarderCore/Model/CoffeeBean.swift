/// The coffee a brew used, as Beanconqueror and coffee people record it; every member as written.
public struct CoffeeBean: Sendable, Hashable {
    public var name: String?
    public var roaster: String?
    /// Country or region (`Ethiopia, Yirgacheffe`).
    public var origin: String?
    /// The variety or varieties (`Heirloom`, `SL28, SL34`).
    public var variety: String?
    /// How it was processed (`washed`, `natural`).
    public var process: String?
    /// `light`, `medium`, a roaster's own words.
    public var roastLevel: String?
    /// The roast date as written (ISO 8601 preferred).
    public var roastDate: String?

    /// The member names in order.
    static let keys = ["name", "roaster", "origin", "variety", "process", "roastLevel", "roastDate"]

    /// Creates a bean.
    public init(
        name: String? = nil, roaster: String? = nil, origin: String? = nil, variety: String? = nil,
        process: String? = nil, roastLevel: String? = nil, roastDate: String? = nil
    ) {
        self.name = name
        self.roaster = roaster
        self.origin = origin
        self.variety = variety
        self.process = process
        self.roastLevel = roastLevel
        self.roastDate = roastDate
    }

    /// The shape: every member is text.
    public static let shape: Shape = .object(Dictionary(uniqueKeysWithValues: keys.map { ($0, Shape.string) }))

    /// Decodes a bean at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the member that is not text.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(
            name: try r.optionalString("name"), roaster: try r.optionalString("roaster"),
            origin: try r.optionalString("origin"), variety: try r.optionalString("variety"),
            process: try r.optionalString("process"), roastLevel: try r.optionalString("roastLevel"),
            roastDate: try r.optionalString("roastDate"))
    }

    /// The bean as a value, absent members left out.
    public var value: Value {
        var b = ValueBuilder()
        b.set("name", name)
        b.set("roaster", roaster)
        b.set("origin", origin)
        b.set("variety", variety)
        b.set("process", process)
        b.set("roastLevel", roastLevel)
        b.set("roastDate", roastDate)
        return b.value
    }
}
