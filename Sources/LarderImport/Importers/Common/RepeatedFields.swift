import LarderCore

/// Source fields collected in document order where a name may come more than once (XML elements):
/// a name given once is its value, one given more often the list of its values.
struct RepeatedFields {
    private var keys: [String] = []
    private var values: [String: [Value]] = [:]

    /// Adds a value under `key`, after any it already has.
    mutating func add(_ key: String, _ value: Value) {
        if values[key] == nil { keys.append(key) }
        values[key, default: []].append(value)
    }

    /// The fields, in the order their names first came.
    var fields: Fields {
        var fields = Fields()
        for key in keys {
            let list = values[key] ?? []
            fields.append(key: key, value: list.count == 1 ? list[0] : .array(list))
        }
        return fields
    }
}
