import LarderFormats

/// HTML text as recipe sites publish it: character references to decode, tags to strip,
/// whitespace to collapse.
package enum HTMLText {
    /// Decodes character references: named (`&amp;`, `&nbsp;`, `&frac12;`), decimal (`&#39;`), hexadecimal (`&#x27;`).
    ///
    /// Unknown names stay as written; a missing `;` is tolerated for the common names, as browsers do.
    package static func decodeEntities(_ text: String) -> String {
        guard text.containsText("&") else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            guard c == "&", let (decoded, length) = reference(in: scalars, at: i) else {
                out.append(c)
                i += 1
                continue
            }
            out.append(contentsOf: decoded)
            i += length
        }
        return String(out)
    }

    /// The decoded scalars and the length of the reference starting at `start` (the `&`).
    private static func reference(in s: [Unicode.Scalar], at start: Int) -> ([Unicode.Scalar], Int)? {
        var i = start + 1
        guard i < s.count else { return nil }
        if s[i] == "#" {
            i += 1
            var hex = false
            if i < s.count, s[i] == "x" || s[i] == "X" {
                hex = true
                i += 1
            }
            let digitsStart = i
            var value: UInt32 = 0
            while i < s.count, i - digitsStart < 8 {
                let ch = s[i]
                let digit: UInt32
                if ch.value >= 48 && ch.value <= 57 {
                    digit = ch.value - 48
                } else if hex, let d = hexDigit(ch) {
                    digit = d
                } else {
                    break
                }
                value = value * (hex ? 16 : 10) + digit
                i += 1
            }
            guard i > digitsStart else { return nil }
            if i < s.count, s[i] == ";" { i += 1 }
            // Windows-1252 code points published as numeric references (&#146;) mean the
            // characters Windows shows for them, as browsers decode them.
            if (0x80...0x9F).contains(value), let mapped = TextEncoding.cp1252High[Int(value - 0x80)] {
                return ([mapped], i - start)
            }
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            return ([value == 0 ? "\u{FFFD}" : scalar], i - start)
        }
        var name = ""
        while i < s.count, i - start <= 32, s[i].properties.isAlphabetic || (s[i].value >= 48 && s[i].value <= 57) {
            name.unicodeScalars.append(s[i])
            i += 1
        }
        guard !name.isEmpty else { return nil }
        let terminated = i < s.count && s[i] == ";"
        if let value = named[name] {
            guard terminated || legacyWithoutSemicolon.contains(name) else { return nil }
            return ([value], i - start + (terminated ? 1 : 0))
        }
        return nil
    }

    private static func hexDigit(_ c: Unicode.Scalar) -> UInt32? {
        switch c.value {
        case 48...57: c.value - 48
        case 65...70: c.value - 55
        case 97...102: c.value - 87
        default: nil
        }
    }

    /// Removes tags (`<br>`, `<a href=…>`, `</p>`); a `<` not starting a tag stays.
    ///
    /// A tag that breaks the text (`<p>`, `<br>`, `<li>`, any tag not known to be inline) becomes a
    /// space, so that words do not run together; an inline tag (`<a>`, `<b>`, `<span>`, `<sup>`, …)
    /// goes without a trace, as a browser shows it: `with <a href=…>salsa</a>.` is `with salsa.`,
    /// not `with salsa .`.
    package static func stripTags(_ text: String) -> String {
        guard text.containsText("<") else { return text }
        var out = ""
        var index = text.startIndex
        // The first `>` at or after the last search's start, or none left: each `<` reuses it while it
        // lies ahead, so a title of 100,000 `<` and no `>` is one scan, not 100,000 (473 s before).
        var knownClose: String.Index?
        var noCloseLeft = false
        func close(after index: String.Index) -> String.Index? {
            if noCloseLeft { return nil }
            if let knownClose, knownClose > index { return knownClose }
            knownClose = text[index...].firstIndex(of: ">")
            noCloseLeft = knownClose == nil
            return knownClose
        }
        while index < text.endIndex {
            let c = text[index]
            if c == "<", let close = close(after: index) {
                let next = text.index(after: index)
                if next < text.endIndex, text[next].isLetter || text[next] == "/" || text[next] == "!" {
                    // Block-level breaks become spaces so that words do not run together.
                    if !isInlineTag(text[next..<close]) { out.append(" ") }
                    index = text.index(after: close)
                    continue
                }
            }
            out.append(c)
            index = text.index(after: index)
        }
        return out
    }

    /// Phrasing elements a browser renders inline, without a break around them.
    static let inlineTagNames: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "mark", "q", "s",
        "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    ]

    /// Whether `tag` opens or closes an inline element.
    ///
    /// `tag` is what lies between `<` and `>` (`a href="…"`, `/strong`); the name must end at a space,
    /// `/` or the tag's end. Reads at most a few characters.
    static func isInlineTag(_ tag: Substring) -> Bool {
        var name = ""
        var rest = tag.dropFirst(tag.first == "/" ? 1 : 0)
        while let c = rest.first, c.isASCII, c.isLetter, name.count < 8 {
            name.append(c)
            rest = rest.dropFirst()
        }
        if let c = rest.first, !(c.isWhitespace || c == "/") { return false }
        return inlineTagNames.contains(name.lowercased())
    }

    /// Collapses runs of whitespace (including no-break spaces) to one space, drops zero-width
    /// spaces and trims the ends.
    ///
    /// ASCII text is collapsed byte by byte (its whitespace is tab, line feed, vertical tab, form
    /// feed, carriage return and space); other text goes through ``collapseWhitespaceByScalars(_:)``,
    /// which a seeded test holds this to.
    package static func collapseWhitespace(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte >= 0x80 { return collapseWhitespaceByScalars(text) }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``collapseWhitespace(_:)`` by Unicode scalar properties.
    package static func collapseWhitespaceByScalars(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{200B}" || scalar == "\u{FEFF}" { continue }
            if scalar.properties.isWhitespace || scalar == "\u{A0}" {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(scalar)
        }
        return String(out)
    }

    /// Decodes character references, twice when the text was escaped twice (`&amp;amp;`,
    /// `lim&amp;atilde;o`, as some sites publish their JSON-LD): what the page meant to show.
    ///
    /// A text whose first decoding still holds a reference it made from `&amp;` is decoded once more.
    package static func decodeEntitiesFully(_ text: String) -> String {
        let once = decodeEntities(text)
        guard text.containsText("&amp;"), once.containsText("&") else { return once }
        return decodeEntities(once)
    }

    /// What a reader sees: entities decoded, tags stripped, whitespace collapsed.
    package static func normalize(_ text: String) -> String {
        collapseWhitespace(stripTags(decodeEntitiesFully(text)))
    }

    /// Whether `text` holds a line break: `\n`, `\r\n` (one character to Swift, so
    /// `contains("\n")` misses it) or `\r`.
    package static func hasLineBreak(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0A || $0 == 0x0D }
    }

    /// Like ``normalize(_:)`` but keeps paragraph breaks (`<br>`, `<p>`, newlines) as `\n`.
    ///
    /// A Windows (`\r\n`) or old Mac (`\r`) line break is a line break too: Swift reads `\r\n`
    /// as one character, which a split on `\n` does not see.
    package static func normalizeKeepingLines(_ text: String) -> String {
        var marked = decodeEntitiesFully(text).replacingAll("\r\n", with: "\n").replacingAll("\r", with: "\n")
        for tag in ["<br>", "<br/>", "<br />", "</p>", "</li>", "<BR>", "<BR/>", "<BR />"] {
            marked = marked.replacingAll(tag, with: "\n")
        }
        return stripTags(marked).split(separator: "\n", omittingEmptySubsequences: false)
            .map { collapseWhitespace(String($0)) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    private static let legacyWithoutSemicolon: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg", "deg"]

    /// HTML 4's named references plus the HTML5 names recipe sites use (`&apos;`, `&frac13;`).
    static let named: [String: Unicode.Scalar] = {
        var table: [String: Unicode.Scalar] = [:]
        let entries = """
            AElig:c6 Aacute:c1 Acirc:c2 Agrave:c0 Alpha:391 Aring:c5 Atilde:c3 Auml:c4 Beta:392 Ccedil:c7 Chi:3a7
            Dagger:2021 Delta:394 ETH:d0 Eacute:c9 Ecirc:ca Egrave:c8 Epsilon:395 Eta:397 Euml:cb Gamma:393 Iacute:cd
            Icirc:ce Igrave:cc Iota:399 Iuml:cf Kappa:39a Lambda:39b Mu:39c NewLine:a NonBreakingSpace:a0 Ntilde:d1 Nu:39d
            OElig:152 Oacute:d3 Ocirc:d4 Ograve:d2 Omega:3a9 Omicron:39f Oslash:d8 Otilde:d5 Ouml:d6 Phi:3a6 Pi:3a0
            Prime:2033 Psi:3a8 Rho:3a1 Scaron:160 Sigma:3a3 THORN:de Tab:9 Tau:3a4 Theta:398 Uacute:da Ucirc:db Ugrave:d9
            Upsilon:3a5 Uuml:dc Xi:39e Yacute:dd Yuml:178 ZeroWidthSpace:200b Zeta:396 aacute:e1 acirc:e2 acute:b4
            aelig:e6 agrave:e0 alefsym:2135 alpha:3b1 amp:26 and:2227 ang:2220 apos:27 aring:e5 ast:2a asymp:2248
            atilde:e3 auml:e4 bdquo:201e beta:3b2 brvbar:a6 bsol:5c bull:2022 cap:2229 ccedil:e7 cedil:b8 cent:a2 chi:3c7
            circ:2c6 clubs:2663 colon:3a comma:2c commat:40 cong:2245 copy:a9 crarr:21b5 cup:222a curren:a4 dArr:21d3
            dagger:2020 darr:2193 dash:2010 deg:b0 delta:3b4 diams:2666 divide:f7 dollar:24 eacute:e9 ecirc:ea egrave:e8
            empty:2205 emsp:2003 ensp:2002 epsilon:3b5 equals:3d equiv:2261 eta:3b7 eth:f0 euml:eb euro:20ac excl:21
            exist:2203 fnof:192 forall:2200 frac12:bd frac13:2153 frac14:bc frac15:2155 frac16:2159 frac18:215b
            frac23:2154 frac25:2156 frac34:be frac35:2157 frac38:215c frac45:2158 frac56:215a frac58:215d frac78:215e
            frasl:2044 gamma:3b3 ge:2265 grave:60 gt:3e hArr:21d4 half:bd harr:2194 hearts:2665 hellip:2026 hyphen:2010
            iacute:ed icirc:ee iexcl:a1 igrave:ec image:2111 infin:221e int:222b iota:3b9 iquest:bf isin:2208 iuml:ef
            kappa:3ba lArr:21d0 lambda:3bb lang:2329 laquo:ab larr:2190 lceil:2308 lcub:7b ldquo:201c le:2264 lfloor:230a
            lowast:2217 lowbar:5f loz:25ca lpar:28 lrm:200e lsaquo:2039 lsqb:5b lsquo:2018 lsquor:201a lt:3c macr:af
            mdash:2014 micro:b5 middot:b7 minus:2212 mu:3bc nabla:2207 nbsp:a0 ndash:2013 ne:2260 ni:220b not:ac
            notin:2209 nsub:2284 ntilde:f1 nu:3bd num:23 oacute:f3 ocirc:f4 oelig:153 ograve:f2 oline:203e omega:3c9
            omicron:3bf oplus:2295 or:2228 ordf:aa ordm:ba oslash:f8 otilde:f5 otimes:2297 ouml:f6 para:b6 part:2202
            percnt:25 period:2e permil:2030 perp:22a5 phi:3c6 pi:3c0 piv:3d6 plus:2b plusmn:b1 pound:a3 prime:2032
            prod:220f prop:221d psi:3c8 quest:3f quot:22 rArr:21d2 radic:221a rang:232a raquo:bb rarr:2192 rceil:2309
            rcub:7d rdquo:201d real:211c reg:ae rfloor:230b rho:3c1 rlm:200f rpar:29 rsaquo:203a rsqb:5d rsquo:2019
            rsquor:2019 sbquo:201a scaron:161 sdot:22c5 sect:a7 semi:3b shy:ad sigma:3c3 sigmaf:3c2 sim:223c sol:2f
            spades:2660 sub:2282 sube:2286 sum:2211 sup:2283 sup1:b9 sup2:b2 sup3:b3 supe:2287 szlig:df tau:3c4
            there4:2234 theta:3b8 thetasym:3d1 thinsp:2009 thorn:fe tilde:2dc times:d7 trade:2122 uArr:21d1 uacute:fa
            uarr:2191 ucirc:fb ugrave:f9 uml:a8 upsih:3d2 upsilon:3c5 uuml:fc verbar:7c weierp:2118 xi:3be yacute:fd
            yen:a5 yuml:ff zeta:3b6 zwj:200d zwnj:200c
            """
        for entry in entries.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = entry.split(separator: ":")
            guard parts.count == 2, let code = UInt32(parts[1], radix: 16), let scalar = Unicode.Scalar(code) else {
                continue
            }
            table[String(parts[0])] = scalar
        }
        return table
    }()
}
