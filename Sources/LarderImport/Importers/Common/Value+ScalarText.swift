import LarderCore

extension Value {
    /// A text, integer or decimal as trimmed text (apps write times and servings either way);
    /// `nil` for blank text and anything else.
    var scalarText: String? {
        switch self {
        case .string(let s): ImportText.nonEmpty(s)
        case .int(let i): String(i)
        case .double(let d): String(d)
        default: nil
        }
    }
}
