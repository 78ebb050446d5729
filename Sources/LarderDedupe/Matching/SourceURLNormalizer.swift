import Foundation

/// Normalizes a recipe's source URL so that the same page matches however it was saved.
///
/// Ignored: the scheme, a leading `www.`, the default port, letter case in the host, the
/// fragment, trailing slashes, and tracking parameters (`utm_*`, `fbclid`, `gclid`, …); the
/// remaining query parameters are sorted. `https://www.Example.com/pasta/?utm_source=x` and
/// `http://example.com/pasta` both become `example.com/pasta`.
package enum SourceURLNormalizer {
    /// Query parameters that only track where a visitor came from.
    private static let trackingParameters: Set<String> = [
        "fbclid", "gclid", "dclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "ref", "ref_src", "ref_url",
        "_ga", "_gl", "si", "spm", "share", "from", "src", "source", "cmpid", "campaign", "s_cid",
    ]

    /// The normalized form, or `nil` for an empty or hostless URL.
    package static func normalize(_ raw: String) -> String? {
        var text = Substring(raw.trimmingCharacters(in: [" ", "\t", "\n", "\r"]))
        guard !text.isEmpty else { return nil }
        if let schemeEnd = text.range(of: "://") {
            text = text[schemeEnd.upperBound...]
        } else if text.hasPrefix("//") {
            text = text.dropFirst(2)
        }
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        let hostEnd = text.firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
        var host = text[..<hostEnd].lowercased()
        if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) }
        if host.hasSuffix(":80") || host.hasSuffix(":443") { host = String(host[..<host.lastIndex(of: ":")!]) }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty, host.contains(".") || host == "localhost" else { return nil }
        let rest = text[hostEnd...]
        let queryStart = rest.firstIndex(of: "?")
        var path = queryStart.map { rest[..<$0] } ?? rest
        while path.hasSuffix("/") { path = path.dropLast() }
        var result = host + path
        if let queryStart {
            let query = rest[rest.index(after: queryStart)...]
            let kept = query.split(separator: "&").filter { pair in
                let key = (pair.split(separator: "=", maxSplits: 1).first ?? pair).lowercased()
                return !key.isEmpty && !key.hasPrefix("utm_") && !trackingParameters.contains(key)
            }
            if !kept.isEmpty { result += "?" + kept.sorted().joined(separator: "&") }
        }
        return result
    }

    /// Whether a normalized URL names a whole site rather than a page (`example.com`): such a
    /// URL says nothing about which recipe it is, so it never matches on its own.
    package static func isSiteRoot(_ normalized: String) -> Bool {
        !normalized.contains("/") && !normalized.contains("?")
    }
}
