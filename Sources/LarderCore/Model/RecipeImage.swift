/// One image of a recipe or step: a local reference (stored beside the record), the URL the
/// source had it at, or both; one image of a recipe may be marked primary.
public struct RecipeImage: Sendable, Hashable {
    /// A reference to the image stored beside the record (as ``Recipe/imageRef``).
    public var ref: String?
    /// Where the source had it.
    public var url: String?
    /// Whether this is the recipe's main image.
    public var isPrimary: Bool

    /// Creates an image.
    public init(ref: String? = nil, url: String? = nil, isPrimary: Bool = false) {
        self.ref = ref
        self.url = url
        self.isPrimary = isPrimary
    }

    /// The shape of an image.
    public static let shape: Shape = .object(["ref": .string, "url": .string, "isPrimary": .boolean])

    /// Decodes an image at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the field; an image needs a ref or a URL.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        let ref = try r.optionalString("ref")
        let url = try r.optionalString("url")
        guard ref != nil || url != nil else { throw r.missing("ref") }
        self.init(ref: ref, url: url, isPrimary: try r.bool("isPrimary", default: false))
    }

    /// The image as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("ref", ref)
        b.set("url", url)
        b.set("isPrimary", isPrimary)
        return b.value
    }
}
