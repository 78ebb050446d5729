internal import CLibZ
import LarderCore

/// Decompresses a gzip stream (several concatenated members included) while it is read.
///
/// Streams: holds one 256 KiB compressed chunk and zlib's window, never the whole file.
public final class GzipReader: ByteSource {
    private let base: any ByteSource
    private var stream = z_stream()
    private let inputCapacity = 256 * 1024
    private let input: UnsafeMutablePointer<Bytef>
    private var inputEnded = false
    private var memberEnded = false
    private var finished = false

    /// Wraps a compressed source.
    /// - Throws: ``LarderError`` `io-error` when zlib cannot start.
    public init(_ base: any ByteSource) throws {
        self.base = base
        input = .allocate(capacity: inputCapacity)
        let status = larder_inflateInit2(&stream, 15 + 32)  // +32: accept gzip or zlib headers
        guard status == Z_OK else {
            input.deallocate()
            throw LarderError(
                .io, "zlib could not start (inflateInit2 returned \(status))", location: SourceLocation(file: base.name)
            )
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    public var name: String { base.name }

    /// Whether `bytes` start with the gzip magic number 1f 8b.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b
    }

    private func refill() throws {
        let n = try base.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputCapacity))
        stream.next_in = input
        stream.avail_in = uInt(n)
        if n == 0 { inputEnded = true }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0, let out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self) else {
            return 0
        }
        stream.next_out = out
        stream.avail_out = uInt(buffer.count)
        while stream.avail_out > 0 {
            if stream.avail_in == 0 && !inputEnded { try refill() }
            if stream.avail_in == 0 && inputEnded {
                guard memberEnded else {
                    throw LarderError(.syntax, "gzip data is truncated", location: SourceLocation(file: base.name))
                }
                finished = true
                break
            }
            if memberEnded {
                // Another gzip member follows the one that ended: start it afresh.
                inflateReset(&stream)
                memberEnded = false
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                memberEnded = true
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw LarderError(.syntax, "gzip data is corrupt: \(reason)", location: SourceLocation(file: base.name))
            }
        }
        return buffer.count - Int(stream.avail_out)
    }
}
