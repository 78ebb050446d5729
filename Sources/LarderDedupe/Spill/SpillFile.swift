#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
package import LarderCore
import LarderFormats

/// How records are encoded in a spill file.
package enum SpillEncoding: Sendable, Hashable {
    /// ``ValueBinaryCoding``: compact and fast both ways; used when the output is YAML or XML.
    case binary
    /// Compact (or indented) JSON exactly as the JSON writer writes it: records that merge with
    /// nothing are copied to JSON or NDJSON output without being parsed again.
    case json(pretty: Bool)
}

/// A scratch file holding every record of one input (in ``SpillEncoding``), so the second
/// pass can fetch any record by offset without keeping records in memory.
///
/// The file is unlinked as soon as it is created: it lives only as long as its descriptor,
/// so a crash or kill leaves nothing behind. Writes go through a 1 MiB buffer; reads are
/// `pread`s, so several readers may share it.
// @unchecked Sendable: the file is written by one task during the first pass; afterwards it
// is only read with pread, which is safe from any thread.
package final class SpillFile: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var flushed: UInt64 = 0
    private var encoded: [UInt8] = []
    /// The display name, for errors.
    package let name: String
    /// How records are encoded.
    package let encoding: SpillEncoding

    /// Creates an anonymous spill file in `directory` (the system temporary directory by default).
    /// - Throws: ``LarderError`` `io-error` when it cannot be created.
    package init(directory: String? = nil, encoding: SpillEncoding = .binary) throws {
        self.encoding = encoding
        let base = directory ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/larder-dedupe-XXXXXX".utf8CString)
        let opened = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard opened >= 0 else {
            throw LarderError(
                .io, "cannot create the dedupe scratch file: \(String(cString: strerror(errno)))",
                location: SourceLocation(file: base))
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        unlink(path)
        fd = opened
        name = path
        buffer.reserveCapacity(1 << 20)
    }

    deinit { close(fd) }

    /// Appends one record; returns where it went and its content key (a hash of its encoding).
    /// - Throws: ``LarderError`` `unrepresentable` when JSON cannot hold a value (NaN), `io-error`.
    package func append(_ value: Value) throws -> (offset: UInt64, length: UInt32, key: StableKey) {
        encoded.removeAll(keepingCapacity: true)
        switch encoding {
        case .binary: ValueBinaryCoding.encode(value, into: &encoded)
        case .json(let pretty): try JSONWriter.append(value, to: &encoded, pretty: pretty)
        }
        let key = encoded.withUnsafeBytes { bytes -> StableKey in
            var high = StableHasher(seed: 0x5EED_0001)
            var low = StableHasher(seed: 0x5EED_0002)
            high.combine(bytes: bytes)
            low.combine(bytes: bytes)
            return StableKey(high: high.finalize(), low: low.finalize())
        }
        let offset = flushed + UInt64(buffer.count)
        buffer.append(contentsOf: encoded)
        if buffer.count >= 1 << 20 { try flush() }
        return (offset, UInt32(encoded.count), key)
    }

    /// Writes the buffer through to the file; call before reading.
    package func flush() throws {
        var written = 0
        try buffer.withUnsafeBytes { bytes in
            while written < bytes.count {
                let n = pwrite(fd, bytes.baseAddress! + written, bytes.count - written, off_t(flushed) + off_t(written))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw LarderError(.io, "cannot write the dedupe scratch file: \(String(cString: strerror(errno)))", location: SourceLocation(file: name))
                }
                written += n
            }
        }
        flushed += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends raw bytes (for ``ScratchSink``).
    package func appendRaw(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        try flush()
    }

    /// Reads `count` raw bytes at `offset` into the start of `scratch`.
    package func readRaw(offset: UInt64, count: Int, into scratch: inout [UInt8]) throws {
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
        try scratch.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < count {
                let n = pread(fd, bytes.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw LarderError(
                        .io, "cannot read the dedupe scratch file: \(n == 0 ? "unexpected end" : String(cString: strerror(errno)))",
                        location: SourceLocation(file: name))
                }
                done += n
            }
        }
    }

    /// Reads back the record at `offset`.
    package func read(offset: UInt64, length: UInt32, scratch: inout [UInt8]) throws -> Value {
        let count = Int(length)
        try readRaw(offset: offset, count: count, into: &scratch)
        switch encoding {
        case .binary:
            return try scratch.withUnsafeBytes { try ValueBinaryCoding.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        case .json:
            let reader = JSONReader(source: MemoryByteSource(Array(scratch[0..<count]), name: name))
            guard let item = try reader.next() else { throw LarderError(.io, "the dedupe spill file is damaged", location: SourceLocation(file: name)) }
            return item.value
        }
    }
}
