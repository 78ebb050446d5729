import GRDB
import LarderCloudKit
import LarderCore

/// One `filterBy` entry checked against the schema and compiled to SQL or to a Swift predicate.
struct CompiledFilter {
    let fieldName: String
    let comparator: Comparator
    let fieldType: FieldType
    /// The SQL condition when SQLite can evaluate it; nil means Swift checks it.
    private(set) var sql: (text: String, arguments: [any DatabaseValueConvertible])?
    private var operand: FieldValue
    private var distance: Double = 0

    private static let scalarComparators: [Comparator] = [
        .equals, .notEquals, .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals, .in, .notIn,
    ]

    init(_ filter: QueryFilter, index: Int, recordType: String, schema: SchemaResolver, call: DatabaseOperationContext)
        throws
    {
        fieldName = filter.fieldName
        comparator = filter.comparator
        let system = SystemField(filter.fieldName)
        guard let type = system?.type ?? schema.fieldType(recordType, filter.fieldName) else {
            throw call.error(
                .badRequest, "filterBy[\(index)]: field '\(filter.fieldName)' is not in the schema of '\(recordType)'")
        }
        fieldType = type
        let element = type.elementType
        func fail(_ reason: String) -> CloudKitServerError { call.error(.badRequest, "filterBy[\(index)]: \(reason)") }
        let allowed: [Comparator]
        let operandType: FieldType
        if type.isList {
            switch comparator {
            case .listContains, .notListContains: operandType = element
            case .listContainsAll, .notListContainsAll, .notListContainsAny, .in, .notIn: operandType = type
            case .listMemberBeginsWith, .notListMemberBeginsWith:
                guard element == .string else { throw fail("\(comparator) needs a STRING_LIST field") }
                operandType = .string
            default: operandType = type
            }
            allowed = [
                .listContains, .notListContains, .listContainsAll, .notListContainsAll, .notListContainsAny,
                .listMemberBeginsWith, .notListMemberBeginsWith, .in, .notIn,
            ]
        } else {
            switch type {
            case .string:
                allowed =
                    CompiledFilter.scalarComparators + [
                        .beginsWith, .notBeginsWith, .containsAllTokens, .containsAnyTokens,
                    ]
            case .int64, .double, .timestamp: allowed = CompiledFilter.scalarComparators
            case .reference, .bytes: allowed = [.equals, .notEquals, .in, .notIn]
            case .location: allowed = [.near]
            default: allowed = []
            }
            operandType = comparator == .in || comparator == .notIn ? type.listType : type
        }
        guard allowed.contains(comparator) else {
            throw fail(
                "comparator \(comparator.rawValue) does not apply to the \(type.rawValue) field '\(filter.fieldName)'")
        }
        var value = filter.fieldValue.value
        if type.isList, operandType.isList, value.arrayValue == nil { value = .array([value]) }
        if system?.column == "r.name", case .object = value, let name = value["recordName"] { value = name }
        do {
            operand = try FieldValue(value: value, type: operandType)
        } catch {
            throw fail("fieldValue for '\(filter.fieldName)': \(error.message)")
        }
        if comparator == .near {
            guard let meters = filter.distance, meters >= 0 else { throw fail("NEAR needs a distance in metres") }
            distance = meters
        }
        sql = CompiledFilter.makeSQL(
            comparator: comparator, operand: operand, type: type, field: filter.fieldName, system: system)
    }

    private static func bind(_ value: FieldValue) -> (any DatabaseValueConvertible)? {
        switch value {
        case .string(let string): string
        case .int64(let int): int
        case .double(let double), .timestamp(let double): double
        default: nil
        }
    }

    private static func makeSQL(
        comparator: Comparator, operand: FieldValue, type: FieldType, field: String, system: SystemField?
    ) -> (text: String, arguments: [any DatabaseValueConvertible])? {
        guard !type.isList, [.string, .int64, .double, .timestamp].contains(type) else { return nil }
        let expression = system?.column ?? JSONPath.extract(field)
        let pathArguments: [any DatabaseValueConvertible] = []
        func binary(_ op: String) -> (String, [any DatabaseValueConvertible])? {
            guard let value = bind(operand) else { return nil }
            return ("\(expression) \(op) ?", pathArguments + [value])
        }
        switch comparator {
        case .equals: return binary("=")
        case .notEquals: return binary("IS NOT")
        case .lessThan: return binary("<")
        case .lessThanOrEquals: return binary("<=")
        case .greaterThan: return binary(">")
        case .greaterThanOrEquals: return binary(">=")
        case .in, .notIn:
            guard case .list(_, let elements) = operand else { return nil }
            let values = elements.compactMap(bind)
            guard values.count == elements.count else { return nil }
            if values.isEmpty { return (comparator == .in ? "0" : "1", []) }
            let list = values.map { _ in "?" }.joined(separator: ", ")
            if comparator == .in { return ("\(expression) IN (\(list))", pathArguments + values) }
            return ("(\(expression) IS NULL OR \(expression) NOT IN (\(list)))", pathArguments + pathArguments + values)
        case .beginsWith, .notBeginsWith:
            guard case .string(let prefix) = operand else { return nil }
            let length = prefix.unicodeScalars.count
            if comparator == .beginsWith {
                // A range, so an index on the field applies; the upper bound is the prefix + U+10FFFF.
                return (
                    "(\(expression) >= ? AND \(expression) < ? AND substr(\(expression), 1, ?) = ?)",
                    [prefix, prefix + "\u{10FFFF}", length, prefix]
                )
            }
            return (
                "(\(expression) IS NULL OR substr(\(expression), 1, ?) != ?)",
                pathArguments + pathArguments + [length, prefix]
            )
        default:
            return nil
        }
    }

    /// Whether a record's field (nil when absent) passes this filter.
    func matches(_ field: RecordField?) -> Bool {
        guard let field, let stored = field.type, let value = try? FieldValue(value: field.value, type: stored) else {
            return isNegative
        }
        switch comparator {
        case .equals: return CompiledFilter.key(value) == CompiledFilter.key(operand)
        case .notEquals: return CompiledFilter.key(value) != CompiledFilter.key(operand)
        case .in, .notIn:
            let candidates = CompiledFilter.elements(operand).map(CompiledFilter.key)
            if case .list = value {
                let present = CompiledFilter.elements(value).map(CompiledFilter.key)
                let any = present.contains { candidates.contains($0) }
                return comparator == .in ? any : !any
            }
            let found = candidates.contains(CompiledFilter.key(value))
            return comparator == .in ? found : !found
        case .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals:
            guard let order = CompiledFilter.compare(value, operand) else { return false }
            switch comparator {
            case .lessThan: return order < 0
            case .lessThanOrEquals: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .beginsWith, .notBeginsWith:
            guard case .string(let text) = value, case .string(let prefix) = operand else { return false }
            return text.hasPrefix(prefix) == (comparator == .beginsWith)
        case .containsAllTokens, .containsAnyTokens:
            guard case .string(let text) = value, case .string(let query) = operand else { return false }
            let have = Set(CompiledFilter.tokens(text))
            let want = CompiledFilter.tokens(query)
            return comparator == .containsAllTokens
                ? want.allSatisfy(have.contains) : want.contains(where: have.contains)
        case .listContains, .notListContains:
            let found = CompiledFilter.elements(value).map(CompiledFilter.key).contains(CompiledFilter.key(operand))
            return found == (comparator == .listContains)
        case .listContainsAll, .notListContainsAll:
            let have = Set(CompiledFilter.elements(value).map(CompiledFilter.key))
            let all = CompiledFilter.elements(operand).map(CompiledFilter.key).allSatisfy(have.contains)
            return all == (comparator == .listContainsAll)
        case .notListContainsAny:
            let have = Set(CompiledFilter.elements(value).map(CompiledFilter.key))
            return !CompiledFilter.elements(operand).map(CompiledFilter.key).contains(where: have.contains)
        case .listMemberBeginsWith, .notListMemberBeginsWith:
            guard case .string(let prefix) = operand else { return false }
            let any = CompiledFilter.elements(value).contains {
                if case .string(let text) = $0 { return text.hasPrefix(prefix) }
                return false
            }
            return any == (comparator == .listMemberBeginsWith)
        case .near:
            guard case .location(let here) = value, case .location(let center) = operand else { return false }
            return here.distance(to: center) <= distance
        default:
            return false
        }
    }

    private var isNegative: Bool {
        [
            .notEquals, .notIn, .notBeginsWith, .notListContains, .notListContainsAll, .notListContainsAny,
            .notListMemberBeginsWith,
        ].contains(comparator)
    }

    private static func elements(_ value: FieldValue) -> [FieldValue] {
        if case .list(_, let elements) = value { return elements }
        return [value]
    }

    /// A comparable identity: references compare by record name, numbers by value.
    private static func key(_ value: FieldValue) -> String {
        switch value {
        case .reference(let reference): "r:" + reference.recordName
        case .int64(let int): "n:" + String(Double(int))
        case .double(let double), .timestamp(let double): "n:" + String(double)
        case .string(let string): "s:" + string
        case .bytes(let bytes): "b:" + bytes
        default: "j:\(value.jsonValue)"
        }
    }

    private static func compare(_ lhs: FieldValue, _ rhs: FieldValue) -> Int? {
        func number(_ value: FieldValue) -> Double? {
            switch value {
            case .int64(let int): Double(int)
            case .double(let double), .timestamp(let double): double
            default: nil
            }
        }
        if let left = number(lhs), let right = number(rhs) { return left < right ? -1 : left > right ? 1 : 0 }
        if case .string(let left) = lhs, case .string(let right) = rhs {
            return left < right ? -1 : left > right ? 1 : 0
        }
        return nil
    }

    private static func tokens(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}
