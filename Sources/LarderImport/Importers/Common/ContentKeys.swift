import LarderFormats

/// The keys (JSON, YAML) or element names (XML) found in the first bytes of a file, for format
/// detection: a format claims a file only when the keys it requires are there.
///
/// The scans are shallow and forgiving (the text may be cut off anywhere): JSON keys are the
/// strings followed by `:`, YAML keys are what starts a line (after list dashes) up to `: `, and
/// XML names are the element names, lowercased and without a namespace prefix.
/// Complexity: O(n) in the length of the text.
package struct ContentKeys {
    /// The keys as written (XML element names lowercased).
    private(set) var keys: Set<String> = []

    /// Keys of a JSON text.
    package init(json text: String) {
        scanJSON(Array(text.utf8))
    }

    /// Keys of a YAML text: block mapping keys, and JSON-style quoted keys of flow mappings.
    package init(yaml text: String) {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("#") || rest.hasPrefix("---") || rest.hasPrefix("...") { continue }
            while rest.hasPrefix("- ") || rest == "-" { rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" } }
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: quote) else { continue }
                if body[body.index(after: close)...].hasPrefix(":") { keys.insert(String(body[..<close])) }
                continue
            }
            guard let colon = rest.firstIndex(of: ":") else { continue }
            let after = rest[rest.index(after: colon)...]
            guard after.isEmpty || after.first == " " || after.first == "\t" else { continue }
            let key = rest[..<colon].trimmingWhitespace
            if !key.isEmpty, !key.hasPrefix("{"), !key.hasPrefix("[") { keys.insert(key) }
        }
        scanJSON(Array(text.utf8))
    }

    /// Element names of an XML text that is already lowercased.
    package init(xml lowered: String) {
        let bytes = Array(lowered.utf8)
        var i = 0
        while i < bytes.count {
            defer { i += 1 }
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count, Self.isNameStart(bytes[i + 1]) else { continue }
            var end = i + 1
            while end < bytes.count, Self.isNameStart(bytes[end]) || Self.isNamePart(bytes[end]) { end += 1 }
            var name = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
            if let colon = name.lastIndex(of: ":") { name = String(name[name.index(after: colon)...]) }
            keys.insert(name)
            i = end - 1
        }
    }

    /// Whether `key` is there, exactly as written.
    package func has(_ key: String) -> Bool { keys.contains(key) }

    /// Whether the keys are those of plain recipes: a title and ingredients or steps, under any of
    /// the names ``PlainRecipe`` reads (`title`/`name`, `ingredients`, `steps`/`instructions`/…).
    package var claimsPlainRecipes: Bool {
        let roles = Set(keys.compactMap { PlainRecipe.Role(key: $0) })
        return roles.contains(.title) && (roles.contains(.ingredients) || roles.contains(.steps))
    }

    private mutating func scanJSON(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\"") else {
                i += 1
                continue
            }
            var end = i + 1
            var hasEscape = false
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") {
                    hasEscape = true
                    end += 1
                }
                end += 1
            }
            guard end < bytes.count else { return }  // cut off inside a string
            var next = end + 1
            while next < bytes.count,
                bytes[next] == 0x20 || bytes[next] == 0x0A || bytes[next] == 0x0D || bytes[next] == 0x09
            {
                next += 1
            }
            if next < bytes.count, bytes[next] == UInt8(ascii: ":"), !hasEscape {
                keys.insert(String(decoding: bytes[(i + 1)..<end], as: UTF8.self))
            }
            i = end + 1
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func isNamePart(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
    }
}
