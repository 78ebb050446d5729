import LarderCore

/// A line and column (1-based; column 0 when unknown) and byte offset (-1 when unknown) in an
/// XML input.
struct XMLPosition: Sendable, Hashable {
    var line: Int32
    var column: Int32
    var offset: Int
}

/// One record's elements as the parser met them, before typing.
///
/// A small arena reused record after record, so memory stays proportional to the largest
/// record. Nodes are plain values and leaf text is a byte range in one buffer, so building the
/// arena allocates nothing.
///
/// XML text carries no types, so ``makeValue(shape:shapes:names:positions:)`` types it with a
/// ``Shape``: repeated elements and `.list` fields become arrays, elements with children
/// objects, and leaf text integers, numbers, booleans or strings as the shape says. Text that
/// does not fit its shape stays a string, so the record check reports it with its field path.
struct XMLRecordTree {
    struct Node {
        /// Index into the reader's name table.
        var name: Int32
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var nextSibling: Int32 = -1
        /// The next sibling with the same name (filled while grouping).
        var nextSame: Int32 = -1
        var position: XMLPosition
        /// The leaf text: a range of ``XMLRecordTree/text``.
        var textStart: Int = 0
        var textCount: Int = 0
        /// What an `xsi:nil` or `larder:empty` attribute said the element stands for.
        var mark: Mark = .none
    }

    /// Values XML text cannot spell, marked by attributes: `xsi:nil="true"` is null,
    /// `larder:empty="true"` an empty list.
    enum Mark: UInt8 {
        case none, null, emptyList
    }

    /// The children of one object with the same name, while the object is converted.
    struct Group {
        var name: Int32
        var first: Int32
        var last: Int32
        var count: Int32
    }

    private(set) var nodes: [Node] = []
    /// The text of every leaf, back to back.
    private(set) var text: [UInt8] = []
    /// The groups of the objects being converted, innermost last.
    private var groups: [Group] = []

    init() {
        nodes.reserveCapacity(256)
        text.reserveCapacity(16 * 1024)
        groups.reserveCapacity(64)
    }

    /// Empties the arena, keeping its storage.
    mutating func reset() {
        nodes.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    /// Adds an element named `name` under `parent` (-1 for the record element) and returns its index.
    @discardableResult
    mutating func add(name: Int32, parent: Int32, position: XMLPosition) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(Node(name: name, position: position))
        if parent >= 0 {
            let p = Int(parent)
            let last = nodes[p].lastChild
            if last >= 0 {
                nodes[Int(last)].nextSibling = index
            } else {
                nodes[p].firstChild = index
            }
            nodes[p].lastChild = index
        }
        return index
    }

    /// Marks `node` as standing for null or an empty list.
    mutating func setMark(_ mark: Mark, of node: Int32) {
        nodes[Int(node)].mark = mark
    }

    /// Whether `node` has child elements (or attributes read as fields).
    @inline(__always) func hasChildren(_ node: Int32) -> Bool { nodes[Int(node)].firstChild >= 0 }

    /// The name id of `node`.
    @inline(__always) func name(of node: Int32) -> Int32 { nodes[Int(node)].name }

    /// Where `node` starts.
    @inline(__always) func position(of node: Int32) -> XMLPosition { nodes[Int(node)].position }

    /// The number of text bytes so far: where the next leaf's text starts.
    var textEnd: Int { text.count }

    /// Appends text bytes for the leaf being read.
    @inline(__always) mutating func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        text.append(contentsOf: bytes)
    }

    /// Drops text appended since `start` (layout whitespace before a child element).
    mutating func truncateText(to start: Int) {
        if text.count > start { text.removeLast(text.count - start) }
    }

    /// Makes `node` a leaf whose text is `text[start...]`.
    mutating func setText(of node: Int32, from start: Int) {
        nodes[Int(node)].textStart = start
        nodes[Int(node)].textCount = text.count - start
    }

    /// The record (node 0) typed by shape `shape` of `shapes`; appends each value node's source
    /// position in pre-order (see `Value.preorderIndex(of:)`) to `positions`.
    mutating func makeValue(
        shape: Int32, shapes: inout XMLShapeTable, names: [String], positions: inout [XMLPosition]
    ) -> Value {
        guard !nodes.isEmpty else { return .object(Fields()) }
        return convert(0, shape, &shapes, names, &positions)
    }

    private mutating func convert(
        _ index: Int32, _ shape: Int32, _ shapes: inout XMLShapeTable, _ names: [String],
        _ positions: inout [XMLPosition]
    ) -> Value {
        let node = nodes[Int(index)]
        positions.append(node.position)
        switch node.mark {
        case .null: return .null
        case .emptyList: return .array([])
        case .none: break
        }
        let hasChildren = node.firstChild >= 0
        switch shapes.kind(shape) {
        case .object:
            if hasChildren { return object(index, shape, &shapes, names, &positions) }
            return withText(node) { XMLRecordTree.isBlank($0) } ? .object(Fields()) : .string(string(node))
        case .list:
            // Only reached for a list nested directly in a list: its items are the child elements.
            guard hasChildren else {
                return withText(node) { XMLRecordTree.isBlank($0) } ? .array([]) : .string(string(node))
            }
            let element = shapes.element(shape)
            var elements: [Value] = []
            var child = node.firstChild
            while child >= 0 {
                elements.append(convert(child, element, &shapes, names, &positions))
                child = nodes[Int(child)].nextSibling
            }
            return .array(elements)
        case .any, .string:
            if hasChildren { return object(index, shapes.intern(.any), &shapes, names, &positions) }
            return .string(string(node))
        case .integer, .number, .boolean:
            if hasChildren { return object(index, shapes.intern(.any), &shapes, names, &positions) }
            let kind = shapes.kind(shape)
            return withText(node) { XMLRecordTree.typedScalar($0, kind) } ?? .string(string(node))
        }
    }

    /// The children of `index` as an object: grouped by name in order of first appearance,
    /// a group of several (or a `.list` member) as an array.
    private mutating func object(
        _ index: Int32, _ shape: Int32, _ shapes: inout XMLShapeTable, _ names: [String],
        _ positions: inout [XMLPosition]
    ) -> Value {
        // Pass 1: group the children by name on the shared group stack, linking each group's
        // members through `nextSame`. A linear scan finds a group until there are many.
        let base = groups.count
        var lookup: [Int32: Int] = [:]
        var child = nodes[Int(index)].firstChild
        while child >= 0 {
            let name = nodes[Int(child)].name
            nodes[Int(child)].nextSame = -1
            var found = -1
            if groups.count > base, groups[groups.count - 1].name == name {
                found = groups.count - 1
            } else {
                if groups.count - base >= 64 && lookup.isEmpty {
                    for g in base..<groups.count { lookup[groups[g].name] = g }
                }
                if !lookup.isEmpty {
                    found = lookup[name] ?? -1
                } else {
                    for g in base..<groups.count where groups[g].name == name {
                        found = g
                        break
                    }
                }
            }
            if found >= 0 {
                nodes[Int(groups[found].last)].nextSame = child
                groups[found].last = child
                groups[found].count += 1
            } else {
                if !lookup.isEmpty { lookup[name] = groups.count }
                groups.append(Group(name: name, first: child, last: child, count: 1))
            }
            child = nodes[Int(child)].nextSibling
        }
        // Pass 2: convert each group (deeper objects push their groups above this one's).
        let end = groups.count
        var fields: [Field] = []
        fields.reserveCapacity(end - base)
        for g in base..<end {
            let group = groups[g]
            let member = shapes.member(shape, name: group.name, names: names)
            let value: Value
            if group.count == 1 && nodes[Int(group.first)].mark != .none {
                value = convert(group.first, member, &shapes, names, &positions)  // null, or an empty list
            } else if shapes.kind(member) == .list {
                value = array(group, shapes.element(member), &shapes, names, &positions)
            } else if group.count == 1 {
                value = convert(group.first, member, &shapes, names, &positions)
            } else {
                value = array(group, member, &shapes, names, &positions)
            }
            fields.append(Field(key: names[Int(group.name)], value: value))
        }
        groups.removeSubrange(base...)
        return .object(Fields(uncheckedUniqueElements: fields))
    }

    /// The elements of one group as an array; the array node takes its first element's position.
    private mutating func array(
        _ group: Group, _ element: Int32, _ shapes: inout XMLShapeTable, _ names: [String],
        _ positions: inout [XMLPosition]
    ) -> Value {
        positions.append(nodes[Int(group.first)].position)
        var elements: [Value] = []
        elements.reserveCapacity(Int(group.count))
        var member = group.first
        while member >= 0 {
            elements.append(convert(member, element, &shapes, names, &positions))
            member = nodes[Int(member)].nextSame
        }
        return .array(elements)
    }

    // MARK: Text

    private func withText<R>(_ node: Node, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        text.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[node.textStart..<(node.textStart + node.textCount)]))
        }
    }

    private func string(_ node: Node) -> String {
        withText(node) { String(decoding: $0, as: UTF8.self) }
    }

    /// Leaf text typed as an integer, number or boolean; `nil` when it does not fit.
    static func typedScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ kind: XMLShapeTable.Kind) -> Value? {
        let trimmed = trimmed(bytes)
        switch kind {
        case .integer:
            if let integer = integer(trimmed) { return .int(integer) }
            return number(trimmed)
        case .number:
            return number(trimmed)
        case .boolean:
            if spellsTrue(trimmed: trimmed) { return .bool(true) }
            if equals(trimmed, "false") || equals(trimmed, "0") { return .bool(false) }
            return nil
        case .string, .list, .object, .any:
            return nil
        }
    }

    /// Whether the text, without its surrounding whitespace, is `true` or `1` (a `.boolean` true).
    static func spellsTrue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { spellsTrue(trimmed: trimmed(bytes)) }

    private static func spellsTrue(trimmed: UnsafeBufferPointer<UInt8>) -> Bool {
        equals(trimmed, "true") || equals(trimmed, "1")
    }

    /// A decimal integer (optional sign, digits) that fits 64 bits.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        guard i < bytes.count, bytes.count - i <= 19 else {
            return bytes.count - i > 19 ? Int64(String(decoding: bytes, as: UTF8.self)) : nil
        }
        var magnitude: UInt64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            i += 1
        }
        // 19 digits may exceed Int64: check the range exactly.
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The number the text spells, or `nil` when the text is not a number.
    ///
    /// With '.', 'e' or 'E' (or inf / nan) a double, else an integer (a double when it overflows 64 bits).
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        guard !bytes.isEmpty else { return nil }
        var isNumeric = true
        var isFractional = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): isFractional = true
            default: isNumeric = false
            }
            if !isNumeric { break }
        }
        if isNumeric && !isFractional, let integer = integer(bytes) { return .int(integer) }
        let text = String(decoding: bytes, as: UTF8.self)
        if isNumeric { return Double(text).map(Value.double) }
        switch text.lowercased() {
        case "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "nan":
            return Double(text.lowercased()).map(Value.double)
        default:
            return nil
        }
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { expected in
            for i in 0..<bytes.count where bytes[i] != expected[i] { return false }
            return true
        }
    }

    /// `bytes` without leading and trailing XML whitespace.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Whether `bytes` is empty or only XML whitespace.
    @inline(__always) static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !isWhitespace(byte) { return false }
        return true
    }

    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}
