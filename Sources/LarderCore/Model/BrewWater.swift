/// The water a brew used: a name (`Third Wave Water`, `tap`) and its hardness as written (`68 ppm`).
public struct BrewWater: Sendable, Hashable {
    public var name: String?
    /// The hardness as written, with its unit.
    public var hardness: String?

    /// Creates a water description.
    public init(name: String? = nil, hardness: String? = nil) {
        self.name = name
        self.hardness = hardness
    }

    /// The shape of a water description.
    public static let shape: Shape = .object(["name": .string, "hardness": .string])

    /// Decodes a water description at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the member.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(name: try r.optionalString("name"), hardness: try r.optionalString("hardness"))
    }

    /// The water description as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("name", name)
        b.set("hardness", hardness)
        return b.value
    }
}
