package import Foundation

/// Just enough `multipart/form-data` (RFC 7578) to take the file out of a browser-style upload.
///
/// The boundary is what RFC 2046 (§5.1.1) allows: 1 to 70 characters, so a body is searched in time
/// linear in its length (Knuth-Morris-Pratt), whatever the caller sends.
package enum MultipartBody {
    /// The longest boundary RFC 2046 allows.
    ///
    /// RFC 2046 §5.1.1: "Boundary delimiters must not appear within the encapsulated material, and
    /// must be no longer than 70 characters, not counting the two leading hyphens."
    static let maxBoundaryLength = 70

    /// The `boundary` parameter of a `multipart/form-data` type, or nil for another type.
    /// - Throws: ``CloudKitServerError`` `BAD_REQUEST` for a boundary that is empty or longer than 70.
    package static func boundary(of contentType: String) throws -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" {
                let boundary = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\""))
                guard (1...maxBoundaryLength).contains(boundary.utf8.count) else {
                    throw CloudKitServerError.badRequest(
                        "multipart boundary is \(boundary.utf8.count) bytes; RFC 2046 allows 1 to \(maxBoundaryLength)")
                }
                return boundary
            }
        }
        throw CloudKitServerError.badRequest("multipart/form-data without a boundary parameter")
    }

    /// The content of the first part, or nil when the body has no complete part.
    package static func firstPart(of body: Data, boundary: String) -> Data? {
        body.withUnsafeBytes { bytes -> Data? in
            guard let start = find("--\(boundary)", in: bytes, from: 0),
                let headersEnd = find("\r\n\r\n", in: bytes, from: start.upperBound),
                let end = find("\r\n--\(boundary)", in: bytes, from: headersEnd.upperBound)
            else { return nil }
            return Data(bytes[headersEnd.upperBound..<end.lowerBound])
        }
    }

    /// Where `needle` first occurs in `bytes` at or after `from`: Knuth-Morris-Pratt, so each byte of
    /// the body is read a bounded number of times whatever the body and the needle hold.
    static func find(_ needle: String, in bytes: UnsafeRawBufferPointer, from: Int) -> Range<Int>? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, from >= 0, from <= bytes.count else { return nil }
        // failure[i]: the length of the longest proper prefix of pattern[...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: pattern.count)
        var k = 0
        for i in 1..<pattern.count {
            while k > 0 && pattern[i] != pattern[k] { k = failure[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            failure[i] = k
        }
        var matched = 0
        var i = from
        while i < bytes.count {
            let byte = bytes[i]
            while matched > 0 && byte != pattern[matched] { matched = failure[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            if matched == pattern.count { return (i + 1 - pattern.count)..<(i + 1) }
            i += 1
        }
        return nil
    }
}
