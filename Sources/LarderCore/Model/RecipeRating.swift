/// A rating on the source's own scale: Paprika's 4 of 5, a site's 4.6 of 5 from 1,203 votes.
public struct RecipeRating: Sendable, Hashable {
    /// The rating (the schema's `value` member; `value` is the record encoding here).
    public var score: Double
    /// The best rating on the scale (5 for five stars).
    public var scale: Double
    /// How many ratings the value sums up, when the source says.
    public var count: Int?

    /// Creates a rating.
    public init(score: Double, scale: Double = 5, count: Int? = nil) {
        self.score = score
        self.scale = scale
        self.count = count
    }

    /// The shape of a rating.
    public static let shape: Shape = .object(["value": .number, "scale": .number, "count": .integer])

    /// Decodes a rating at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the field.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(score: try r.double("value"), scale: try r.double("scale"), count: try r.optionalInt("count"))
    }

    /// The rating as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("value", score as Double?)
        b.set("scale", scale as Double?)
        b.set("count", count)
        return b.value
    }
}
