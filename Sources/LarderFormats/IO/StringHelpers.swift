// Small Foundation-free string helpers shared by the readers and the importers.

import LarderCore

extension StringProtocol {
    /// The text without leading and trailing whitespace (Foundation-free).
    ///
    /// Whitespace is Unicode's `White_Space` (ASCII's without looking up the scalar's properties);
    /// the text between is copied as UTF-8, not scalar by scalar.
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(decoding: utf8[first..<scalars.index(after: last)], as: UTF8.self)
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (Foundation-free).
    package func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, containsText(target) else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        out += rest
        return out
    }

    /// Whether the text contains `target`, as `contains(_:)` answers (by `Character`), with a byte
    /// search first that answers most texts without the `Character` search.
    ///
    /// The `Character` search is generic (`_StringProcessing`) and slow: it was 3.3 % of the CSV
    /// importer's time in `RecipeYield.normalized` (18 item words looked for in each yield cell).
    /// O(n + m) for a text of n bytes when the byte search rules it out.
    package func containsText(_ target: String) -> Bool {
        !surelyLacks(target) && contains(target)
    }

    /// Whether the text cannot hold `target`: an ASCII target whose bytes are nowhere in the text.
    ///
    /// A byte search (the search by `Character` cost a sixth of the Cookbook app importer's time),
    /// only for a target without `K`, `;` and `` ` ``, the three ASCII characters another one (the
    /// Kelvin sign, the Greek question mark, the Greek varia) is canonically equal to, so that no
    /// match by `Character` lacks the bytes.
    private func surelyLacks(_ target: String) -> Bool {
        let pattern = Array(target.utf8)
        guard let first = pattern.first,
            pattern.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "K") && $0 != UInt8(ascii: ";") && $0 != 0x60 })
        else { return false }
        return utf8.withContiguousStorageIfAvailable { text in
            guard text.count >= pattern.count else { return true }
            for i in 0...(text.count - pattern.count) where text[i] == first {
                if pattern.indices.allSatisfy({ text[i + $0] == pattern[$0] }) { return false }
            }
            return true
        } ?? false
    }
}
