/// A brew's bloom: the first small pour and the wait after it.
public struct Bloom: Sendable, Hashable {
    /// Water poured for the bloom, in grams.
    public var waterGrams: Double?
    /// How long the bloom lasted, in seconds.
    public var seconds: Int?

    /// Creates a bloom.
    public init(waterGrams: Double? = nil, seconds: Int? = nil) {
        self.waterGrams = waterGrams
        self.seconds = seconds
    }

    /// The shape of a bloom.
    public static let shape: Shape = .object(["waterGrams": .number, "seconds": .integer])

    /// Decodes a bloom at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the member.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(waterGrams: try r.optionalDouble("waterGrams"), seconds: try r.optionalInt("seconds"))
    }

    /// The bloom as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("waterGrams", waterGrams)
        b.set("seconds", seconds)
        return b.value
    }
}
