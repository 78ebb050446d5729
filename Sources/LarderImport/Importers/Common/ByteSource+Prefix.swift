import LarderCore
import LarderFormats

extension ByteSource {
    /// Reads up to `count` bytes from the start (consuming them).
    func readPrefix(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try bytes.withUnsafeMutableBytes {
                try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if n == 0 { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }

    /// Reads everything that is left.
    ///
    /// Only for entries known to be small (an image, one recipe).
    func readAll(limit: Int = 256 << 20) throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit {
                throw LarderError(
                    .refusedInput, "larger than \(limit >> 20) MiB; refused", location: SourceLocation(file: name))
            }
        }
        return out
    }
}
