/// UTF-8 helpers for the hot parse loops.
enum UTF8Text {
    /// Whether `bytes` are well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c < 0x80 {
                i += 1
                continue
            }
            func cont(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
            if c >= 0xC2 && c <= 0xDF {
                guard cont(1) else { return false }
                i += 2
            } else if c >= 0xE0 && c <= 0xEF {
                guard cont(1), cont(2) else { return false }
                let c1 = bytes[i + 1]
                if c == 0xE0 && c1 < 0xA0 { return false }  // overlong
                if c == 0xED && c1 >= 0xA0 { return false }  // surrogate
                i += 3
            } else if c >= 0xF0 && c <= 0xF4 {
                guard cont(1), cont(2), cont(3) else { return false }
                let c1 = bytes[i + 1]
                if c == 0xF0 && c1 < 0x90 { return false }
                if c == 0xF4 && c1 >= 0x90 { return false }
                i += 4
            } else {
                return false
            }
        }
        return true
    }

    /// A string from bytes already known to be valid UTF-8 (or ASCII).
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
