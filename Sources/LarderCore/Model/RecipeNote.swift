/// A note on a recipe (Paprika's notes, Mealie's notes, a cook's tip), with an optional title.
public struct RecipeNote: Sendable, Hashable {
    /// The note's heading, when it has one.
    public var title: String?
    /// The note itself.
    public var text: String

    /// Creates a note.
    public init(title: String? = nil, text: String) {
        self.title = title
        self.text = text
    }

    /// The shape of a note.
    public static let shape: Shape = .object(["title": .string, "text": .string])

    /// Decodes a note at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the field when `text` is missing or not text.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(title: try r.optionalString("title"), text: try r.string("text"))
    }

    /// The note as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("title", title)
        b.set("text", text)
        return b.value
    }
}
