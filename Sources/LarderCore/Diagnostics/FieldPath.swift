import Foundation

/// A path to a field inside a record, rendered as `steps[2].timerSeconds`.
public struct FieldPath: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// The steps from the record root.
    public var components: [Component]

    /// The record root.
    public static let root = FieldPath(components: [])

    /// Creates a path from components.
    public init(components: [Component]) {
        self.components = components
    }

    /// Parses a rendered path such as `steps[2].timerSeconds`.
    public init(stringLiteral value: String) {
        self.init(parsing: value)
    }

    /// Parses a rendered path such as `steps[2].timerSeconds` or a JSON pointer `/steps/2/timerSeconds`.
    public init(parsing text: String) {
        var components: [Component] = []
        if text.hasPrefix("/") {
            for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                if let index = Int(key), key.allSatisfy(\.isNumber) {
                    components.append(.index(index))
                } else {
                    components.append(.key(key))
                }
            }
            self.init(components: components)
            return
        }
        var current = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            switch character {
            case ".":
                if !current.isEmpty { components.append(.key(current)) }
                current = ""
            case "[":
                if !current.isEmpty { components.append(.key(current)) }
                current = ""
                var digits = ""
                while let next = iterator.next(), next != "]" { digits.append(next) }
                components.append(Int(digits).map(Component.index) ?? .key(digits))
            default:
                current.append(character)
            }
        }
        if !current.isEmpty { components.append(.key(current)) }
        self.init(components: components)
    }

    /// The path one member deeper.
    public func appending(_ key: String) -> FieldPath {
        appending(component: .key(key))
    }

    /// The path one element deeper.
    public func appending(index: Int) -> FieldPath {
        appending(component: .index(index))
    }

    /// One allocation, sized exactly (`components + [c]` made two, and every record's check
    /// appends a path per member and per list element: ~10% of `larder convert`'s instructions).
    private func appending(component: Component) -> FieldPath {
        var longer: [Component] = []
        longer.reserveCapacity(components.count + 1)
        longer.append(contentsOf: components)
        longer.append(component)
        return FieldPath(components: longer)
    }

    /// Whether this is the record root.
    public var isRoot: Bool { components.isEmpty }

    /// The path as `steps[2].timerSeconds`; the root renders as `$`.
    public var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The path as an RFC 6901 JSON pointer: `/steps/2/timerSeconds`.
    public var jsonPointer: String {
        components.map { component -> String in
            switch component {
            case .key(let key):
                "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            case .index(let index): "/\(index)"
            }
        }.joined()
    }

    public init(from decoder: any Decoder) throws {
        self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
