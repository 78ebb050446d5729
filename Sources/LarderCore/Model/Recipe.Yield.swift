extension Recipe {
    /// What a recipe makes, beside its servings: `"24 cookies"` is 24, cookies, and the text as written.
    public struct Yield: Sendable, Hashable {
        /// The amount, when the text has one.
        public var quantity: Double?
        /// What is counted (`cookies`, `loaves`).
        public var unit: String?
        /// The yield exactly as the source wrote it.
        public var text: String

        /// Creates a yield.
        public init(quantity: Double? = nil, unit: String? = nil, text: String) {
            self.quantity = quantity
            self.unit = unit
            self.text = text
        }

        /// The shape of a yield.
        public static let shape: Shape = .object(["quantity": .number, "unit": .string, "text": .string])

        /// Decodes a yield at `path`.
        /// - Throws: ``LarderError`` `malformed-record` naming the field.
        public init(value: Value, at path: FieldPath) throws {
            let r = try ValueReader(value, at: path)
            self.init(
                quantity: try r.optionalDouble("quantity"), unit: try r.optionalString("unit"),
                text: try r.string("text"))
        }

        /// The yield as a value.
        public var value: Value {
            var b = ValueBuilder()
            b.set("quantity", quantity)
            b.set("unit", unit)
            b.set("text", text)
            return b.value
        }
    }
}
