internal import CLibZ
public import Foundation
import LarderCore

/// Writes a zip archive to a sink, entry by entry.
///
/// Each entry is compressed in memory, so the largest entry bounds memory, not the archive.
/// Writes zip64 end records when the archive holds more than 65,535 entries.
///
/// ```swift
/// let zip = ZipWriter(sink: try FileByteSink(path: "out.zip"))
/// try zip.add(path: "a.txt", bytes: Array("hello".utf8))
/// try zip.finish()
/// ```
public final class ZipWriter {
    private let sink: any ByteSink
    private var offset: UInt64 = 0
    private var directory: [UInt8] = []
    private var count: UInt64 = 0
    private var paths = Set<String>()

    /// Creates a writer over `sink` (closed by ``finish()``).
    public init(sink: any ByteSink) {
        self.sink = sink
    }

    /// Adds one file.
    /// - Parameters:
    ///   - path: the entry's path inside the archive; each path may be added once.
    ///   - bytes: the file's contents, uncompressed.
    ///   - deflate: compress (default); pass `false` for data that is already compressed.
    ///   - modified: the timestamp recorded for the entry.
    /// - Throws: ``LarderError`` `unrepresentable` for a duplicate path or an archive past 4 GiB,
    ///   `io-error` when writing fails.
    public func add(
        path: String, bytes: [UInt8], deflate: Bool = true, modified: Date = Date(timeIntervalSince1970: 1_704_067_200)
    ) throws {
        guard paths.insert(path).inserted else {
            throw LarderError(.unrepresentable, "duplicate archive entry \"\(path)\"")
        }
        let crc = UInt32(
            truncatingIfNeeded: bytes.withUnsafeBufferPointer { CLibZ.crc32(0, $0.baseAddress, uInt($0.count)) })
        let data = deflate ? try Self.deflateRaw(bytes) : bytes
        let method: UInt16 = deflate ? 8 : 0
        let name = Array(path.utf8)
        guard offset < 0xFFFF_FFFF, data.count < 0xFFFF_FFFF, bytes.count < 0xFFFF_FFFF else {
            throw LarderError(.unrepresentable, "archive entries past 4 GiB are not supported when writing")
        }
        let (time, day) = Self.dosTime(modified)
        var local: [UInt8] = []
        Self.put32(&local, 0x0403_4B50)
        Self.put16(&local, 20)
        Self.put16(&local, 0x800)  // UTF-8 names
        Self.put16(&local, method)
        Self.put16(&local, time)
        Self.put16(&local, day)
        Self.put32(&local, crc)
        Self.put32(&local, UInt32(data.count))
        Self.put32(&local, UInt32(bytes.count))
        Self.put16(&local, UInt16(name.count))
        Self.put16(&local, 0)
        local.append(contentsOf: name)
        try sink.write(local)
        try sink.write(data)

        Self.put32(&directory, 0x0201_4B50)
        Self.put16(&directory, 0x031E)  // made by: Unix, spec 3.0
        Self.put16(&directory, 20)
        Self.put16(&directory, 0x800)
        Self.put16(&directory, method)
        Self.put16(&directory, time)
        Self.put16(&directory, day)
        Self.put32(&directory, crc)
        Self.put32(&directory, UInt32(data.count))
        Self.put32(&directory, UInt32(bytes.count))
        Self.put16(&directory, UInt16(name.count))
        Self.put16(&directory, 0)
        Self.put16(&directory, 0)
        Self.put16(&directory, 0)
        Self.put16(&directory, 0)
        Self.put32(&directory, 0o100644 << 16)  // regular file, rw-r--r--
        Self.put32(&directory, UInt32(offset))
        directory.append(contentsOf: name)
        offset += UInt64(local.count + data.count)
        count += 1
    }

    /// Writes the central directory and closes the sink.
    public func finish() throws {
        let directoryOffset = offset
        try sink.write(directory)
        var end: [UInt8] = []
        let needsZip64 = count >= 0xFFFF
        if needsZip64 {
            let recordOffset = directoryOffset + UInt64(directory.count)
            Self.put32(&end, 0x0606_4B50)
            Self.put64(&end, 44)
            Self.put16(&end, 45)
            Self.put16(&end, 45)
            Self.put32(&end, 0)
            Self.put32(&end, 0)
            Self.put64(&end, count)
            Self.put64(&end, count)
            Self.put64(&end, UInt64(directory.count))
            Self.put64(&end, directoryOffset)
            Self.put32(&end, 0x0706_4B50)
            Self.put32(&end, 0)
            Self.put64(&end, recordOffset)
            Self.put32(&end, 1)
        }
        Self.put32(&end, 0x0605_4B50)
        Self.put16(&end, 0)
        Self.put16(&end, 0)
        Self.put16(&end, needsZip64 ? 0xFFFF : UInt16(count))
        Self.put16(&end, needsZip64 ? 0xFFFF : UInt16(count))
        Self.put32(&end, UInt32(directory.count))
        Self.put32(&end, UInt32(directoryOffset))
        Self.put16(&end, 0)
        try sink.write(end)
        try sink.close()
    }

    static func deflateRaw(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard larder_deflateInit2(&stream, 6, -15) == Z_OK else { throw LarderError(.io, "zlib could not start") }
        defer { deflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            var status: Int32 = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return deflate(&stream, Z_FINISH)
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw LarderError(.io, "zlib deflate failed (\(status))")
                }
                out.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
            } while status != Z_STREAM_END
        }
        return out
    }

    private static func dosTime(_ date: Date) -> (UInt16, UInt16) {
        let iso = Timestamp.format(date)
        let parts = iso.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
        guard parts.count >= 6, parts[0] >= 1980 else { return (0, 0x21) }
        let time = UInt16(parts[3] << 11 | parts[4] << 5 | parts[5] / 2)
        let day = UInt16((parts[0] - 1980) << 9 | parts[1] << 5 | parts[2])
        return (time, day)
    }

    private static func put16(_ b: inout [UInt8], _ v: UInt16) {
        b.append(UInt8(v & 0xFF))
        b.append(UInt8(v >> 8))
    }
    private static func put32(_ b: inout [UInt8], _ v: UInt32) {
        put16(&b, UInt16(v & 0xFFFF))
        put16(&b, UInt16(v >> 16))
    }
    private static func put64(_ b: inout [UInt8], _ v: UInt64) {
        put32(&b, UInt32(v & 0xFFFF_FFFF))
        put32(&b, UInt32(v >> 32))
    }
}
