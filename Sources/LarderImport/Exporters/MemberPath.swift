import LarderCore

/// The path of a member kept by the member census: `author.sameAs`, `review[0/3].datePublished`,
/// `recipeInstructions[1/2].itemListElement[4/5].url` (element 4 of a list of 5).
struct MemberPath: Equatable {
    enum Step: Equatable {
        case member(String)
        case element(Int, of: Int)
    }

    /// The top-level field the path starts at.
    let root: String
    /// The steps below it; the last is a member.
    let steps: [Step]

    /// Reads a path; `nil` for a key that is not one (no step below the root, or malformed).
    init?(_ key: String) {
        var steps: [Step] = []
        var rest = Substring(key)
        let rootEnd = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
        let root = String(rest[..<rootEnd])
        rest = rest[rootEnd...]
        while let first = rest.first {
            rest = rest.dropFirst()
            if first == "." {
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                guard end > rest.startIndex else { return nil }
                steps.append(.member(String(rest[..<end])))
                rest = rest[end...]
            } else {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                let numbers = rest[..<close].split(separator: "/", omittingEmptySubsequences: false)
                guard numbers.count == 2, let index = Int(numbers[0]), let count = Int(numbers[1]), index >= 0,
                    index < count
                else { return nil }
                steps.append(.element(index, of: count))
                rest = rest[rest.index(after: close)...]
            }
        }
        guard !root.isEmpty, case .member = steps.last else { return nil }
        self.root = root
        self.steps = steps
    }

    /// Puts `value` at this path inside `record`; `false` (and `record` unchanged) when `record`
    /// has no such place or already has a value there (but for a node's `@type`, which is replaced).
    ///
    /// An empty value the exporter wrote (`null`, `""`, `[]`, `{}`) is no value; a member named
    /// in `replaceable` (a default the exporter makes up, such as a generated id) is replaced too.
    func place(_ value: Value, in record: inout Value, replaceable: Set<String> = []) -> Bool {
        Self.place(value, along: [.member(root)] + steps[...], in: &record, replaceable: replaceable)
    }

    /// The value at this path inside `record` (`nil` when it has no such place); the reading ``place(_:in:)`` writes.
    func value(in record: Value) -> Value? {
        var current = record
        for step in [.member(root)] + steps {
            switch step {
            case .member(let key):
                if let elements = current.arrayValue, elements.count == 1 { current = elements[0] }
                guard let next = current.objectValue?[key] else { return nil }
                current = next
            case .element(let index, let count):
                if let elements = current.arrayValue {
                    guard elements.count == count else { return nil }
                    current = elements[index]
                } else if count != 1 {
                    return nil
                }
            }
        }
        return current
    }

    private static func place(
        _ value: Value, along steps: ArraySlice<Step>, in target: inout Value, replaceable: Set<String>
    ) -> Bool {
        guard let step = steps.first else { return false }
        let rest = steps.dropFirst()
        switch step {
        case .member(let key):
            if var elements = target.arrayValue {
                // A list of one is the single value.
                guard elements.count == 1, place(value, along: steps, in: &elements[0], replaceable: replaceable)
                else { return false }
                target = .array(elements)
                return true
            }
            guard var fields = target.objectValue else { return false }
            if rest.isEmpty {
                // What the exporter wrote there comes from a Larder field and wins; only a node's type is replaced.
                guard fields[key].map(ExtrasRestore.isEmpty) ?? true || key == "@type" || replaceable.contains(key)
                else { return false }
                fields[key] = value
            } else {
                guard var child = fields[key], place(value, along: rest, in: &child, replaceable: replaceable)
                else { return false }
                fields[key] = child
            }
            target = .object(fields)
            return true
        case .element(let index, let count):
            if var elements = target.arrayValue {
                guard elements.count == count,
                    place(value, along: rest, in: &elements[index], replaceable: replaceable)
                else { return false }
                target = .array(elements)
                return true
            }
            // A single value is a list of one.
            return count == 1 && place(value, along: rest, in: &target, replaceable: replaceable)
        }
    }
}
