/// The grinder a brew used and its setting, as written (`Comandante C40`, `24 clicks`).
public struct Grinder: Sendable, Hashable {
    public var name: String?
    /// The setting as written: a number, clicks, a dial position.
    public var setting: String?

    /// Creates a grinder.
    public init(name: String? = nil, setting: String? = nil) {
        self.name = name
        self.setting = setting
    }

    /// The shape of a grinder.
    public static let shape: Shape = .object(["name": .string, "setting": .string])

    /// Decodes a grinder at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the member.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(name: try r.optionalString("name"), setting: try r.optionalString("setting"))
    }

    /// The grinder as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("name", name)
        b.set("setting", setting)
        return b.value
    }
}
