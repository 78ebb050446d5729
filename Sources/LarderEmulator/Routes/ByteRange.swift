import Foundation

/// One `Range: bytes=…` request against a body of `size` bytes (RFC 9110 §14.1.2).
///
/// `bytes=a-b`, `bytes=a-` and `bytes=-n` are served as 206; several ranges, other units or a
/// malformed header are ignored (the whole body, 200), as the RFC allows; a range starting past the
/// end is unsatisfiable (416).
enum ByteRange: Equatable {
    case whole
    case partial(ClosedRange<Int>)
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .whole
            return
        }
        let first = parts[0].isEmpty ? nil : Int(parts[0])
        let last = parts[1].isEmpty ? nil : Int(parts[1])
        switch (parts[0].isEmpty, parts[1].isEmpty) {
        case (true, false):
            guard let suffix = last, suffix >= 0 else {
                self = .whole
                return
            }
            self = suffix == 0 || size == 0 ? .unsatisfiable : .partial(max(0, size - suffix)...(size - 1))
        case (false, _):
            guard let start = first, parts[1].isEmpty || last != nil, last.map({ $0 >= start }) ?? true else {
                self = .whole
                return
            }
            guard start < size else {
                self = .unsatisfiable
                return
            }
            self = .partial(start...min(last ?? (size - 1), size - 1))
        default:
            self = .whole
        }
    }
}
