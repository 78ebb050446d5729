/// Who wrote a recipe, as the source names them (not the Larder owner, which is `ownerID`).
public struct RecipeAuthor: Sendable, Hashable {
    /// The author's name.
    public var name: String
    /// Their page, when the source links one.
    public var url: String?

    /// Creates an author.
    public init(name: String, url: String? = nil) {
        self.name = name
        self.url = url
    }

    /// The shape of an author.
    public static let shape: Shape = .object(["name": .string, "url": .string])

    /// Decodes an author at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the field.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(name: try r.string("name"), url: try r.optionalString("url"))
    }

    /// The author as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("name", name)
        b.set("url", url)
        return b.value
    }
}
