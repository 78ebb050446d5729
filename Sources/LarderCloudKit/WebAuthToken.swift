import Foundation

/// The two spellings of a CloudKit web-auth token: plain (what `--web-auth-token` and config files
/// hold) and percent-encoded (what goes after `ckWebAuthToken=` in a URL).
///
/// Apple's tokens contain `+`, `/` and `=`, which a URL must carry as `%2B`, `%2F` and `%3D`
/// (WSREF "Accessing CloudKit Using an API Token"); people paste either form.
public enum WebAuthToken {
    /// `token` as it goes into a query string: everything but letters, digits and `-._~` escaped.
    public static func percentEncoded(_ token: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return token.addingPercentEncoding(withAllowedCharacters: allowed) ?? token
    }

    /// The plain form of a token given in either form.
    ///
    /// A token is taken as percent-encoded, and decoded, when it contains a `%XX` escape and
    /// encoding its decoded form gives it back (hex digits in either case); anything else is
    /// returned unchanged, so a plain token that happens to hold a `%` is left alone.
    public static func plain(_ token: String) -> String {
        guard containsEscape(token), let decoded = token.removingPercentEncoding, decoded != token else { return token }
        return percentEncoded(decoded).uppercased() == token.uppercased() ? decoded : token
    }

    private static func containsEscape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3 else { return false }
        for index in 0..<(bytes.count - 2) where bytes[index] == UInt8(ascii: "%") {
            if isHex(bytes[index + 1]) && isHex(bytes[index + 2]) { return true }
        }
        return false
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }
}
