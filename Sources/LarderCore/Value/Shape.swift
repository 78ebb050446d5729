/// The expected shape of a value: what a field's type is, for formats that do not carry
/// types themselves (XML text is only text) and for structural checks.
public indirect enum Shape: Sendable, Hashable {
    /// Text.
    case string
    /// A whole number.
    case integer
    /// Any number.
    case number
    /// `true` or `false`.
    case boolean
    /// Zero or more elements of one shape.
    case list(Shape)
    /// Named members; members not listed take `any`.
    case object([String: Shape])
    /// Anything; formats infer what they can.
    case any

    /// The shape of member `key` when this is an object, else `any`.
    public func member(_ key: String) -> Shape {
        if case .object(let members) = self { return members[key] ?? .any }
        return .any
    }

    /// Whether values of this shape are lists.
    public var isList: Bool {
        if case .list = self { return true }
        return false
    }
}
