/// Normalizes a recipe's source URL so that the same page matches however it was saved.
///
/// Ignored: the scheme, user info, a leading `www.`, the default port, letter case in the
/// host, the fragment, trailing slashes, and tracking parameters (`utm_*`, `fbclid`, `gclid`,
/// …); the remaining query parameters are sorted. `https://www.Example.com/pasta/?utm_source=x`
/// and `http://example.com/pasta` both become `example.com/pasta`. Works on UTF-8 bytes.
package enum SourceURLNormalizer {
    /// Query parameters that only track where a visitor came from.
    private static let trackingParameters: Set<String> = [
        "fbclid", "gclid", "dclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "ref", "ref_src", "ref_url",
        "_ga", "_gl", "si", "spm", "share", "from", "src", "source", "cmpid", "campaign", "s_cid",
    ]

    /// The normalized form, or `nil` for an empty or hostless URL.
    package static func normalize(_ raw: String) -> String? {
        normalizedBytes(raw).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The normalized form as UTF-8 bytes.
    package static func normalizedBytes(_ raw: String) -> [UInt8]? {
        var raw = raw
        return raw.withUTF8 { normalize(bytes: $0) }
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func normalize(bytes all: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var start = 0
        var end = all.count
        while start < end && isSpace(all[start]) { start += 1 }
        while end > start && isSpace(all[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        // Scheme.
        var hasScheme = false
        var i = start
        while !hasScheme && i + 2 < end && all[i] != UInt8(ascii: "/") && all[i] != UInt8(ascii: "?") {
            if all[i] == UInt8(ascii: ":") && all[i + 1] == UInt8(ascii: "/") && all[i + 2] == UInt8(ascii: "/") {
                start = i + 3
                hasScheme = true
            }
            i += 1
        }
        if !hasScheme && end - start >= 2 && all[start] == UInt8(ascii: "/") && all[start + 1] == UInt8(ascii: "/") {
            start += 2
        }
        // Fragment.
        if let hash = all[start..<end].firstIndex(of: UInt8(ascii: "#")) { end = hash }
        // Host.
        var hostEnd = start
        while hostEnd < end && all[hostEnd] != UInt8(ascii: "/") && all[hostEnd] != UInt8(ascii: "?") { hostEnd += 1 }
        var hostStart = start
        if let at = all[start..<hostEnd].lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
        var host: [UInt8] = []
        host.reserveCapacity(hostEnd - hostStart)
        for b in all[hostStart..<hostEnd] { host.append(b >= 0x41 && b <= 0x5A ? b + 32 : b) }
        for port in [":80", ":443"]
        where host.count > port.utf8.count && host.suffix(port.utf8.count).elementsEqual(port.utf8) {
            host.removeLast(port.utf8.count)
        }
        if host.count > 4 && host.prefix(4).elementsEqual("www.".utf8) { host.removeFirst(4) }
        if host.last == UInt8(ascii: ".") { host.removeLast() }
        guard !host.isEmpty, host.contains(UInt8(ascii: ".")) || host.elementsEqual("localhost".utf8) else {
            return nil
        }
        // Path.
        var pathEnd = hostEnd
        while pathEnd < end && all[pathEnd] != UInt8(ascii: "?") { pathEnd += 1 }
        var trimmedPathEnd = pathEnd
        while trimmedPathEnd > hostEnd && all[trimmedPathEnd - 1] == UInt8(ascii: "/") { trimmedPathEnd -= 1 }
        var result = host
        result.append(contentsOf: all[hostEnd..<trimmedPathEnd])
        // Query: tracking parameters dropped, the rest sorted.
        if pathEnd < end {
            let query = String(decoding: all[(pathEnd + 1)..<end], as: UTF8.self)
            let kept = query.split(separator: "&").filter { pair in
                let key = (pair.split(separator: "=", maxSplits: 1).first ?? pair).lowercased()
                return !key.isEmpty && !key.hasPrefix("utm_") && !trackingParameters.contains(key)
            }
            if !kept.isEmpty {
                result.append(UInt8(ascii: "?"))
                result.append(contentsOf: kept.sorted().joined(separator: "&").utf8)
            }
        }
        return result
    }

    /// Whether a normalized URL names a whole site rather than a page (`example.com`): such a
    /// URL says nothing about which recipe it is, so it never matches on its own.
    package static func isSiteRoot(_ normalized: some Collection<UInt8>) -> Bool {
        !normalized.contains(UInt8(ascii: "/")) && !normalized.contains(UInt8(ascii: "?"))
    }
}
