internal import CLibZ
import LarderCore
import LarderSystem

/// Limits that keep a hostile archive from exhausting memory or disk.
public struct ZipLimits: Sendable, Hashable {
    /// The most bytes one entry may inflate to.
    public var maxEntrySize: UInt64
    /// The most an entry may expand relative to its compressed size, once it is past `ratioGrace`.
    public var maxExpansionRatio: UInt64
    /// Output below this size is never refused for its ratio (small, very repetitive files are fine).
    public var ratioGrace: UInt64

    /// 1 GiB per entry, 250:1 past the first 4 MiB.
    public static let `default` = ZipLimits(maxEntrySize: 1 << 30, maxExpansionRatio: 250, ratioGrace: 4 << 20)

    /// Creates limits.
    public init(maxEntrySize: UInt64, maxExpansionRatio: UInt64, ratioGrace: UInt64) {
        self.maxEntrySize = maxEntrySize
        self.maxExpansionRatio = maxExpansionRatio
        self.ratioGrace = ratioGrace
    }
}

/// One member of a zip archive, as its central directory describes it.
public struct ZipEntry: Sendable, Hashable {
    /// The path inside the archive, as stored (`/`-separated).
    public var path: String
    /// 0 stored, 8 deflated.
    public var method: UInt16
    public var flags: UInt16
    public var crc32: UInt32
    public var compressedSize: UInt64
    public var uncompressedSize: UInt64
    /// Where the entry's local header starts.
    public var localHeaderOffset: UInt64
    /// 0-based position in the central directory.
    public var index: Int

    /// Whether the entry is a directory (its path ends in `/`).
    public var isDirectory: Bool { path.hasSuffix("/") }

    /// Whether the entry is encrypted.
    public var isEncrypted: Bool { flags & 1 != 0 }

    /// Whether importers skip the entry: directories, macOS resource forks (`__MACOSX/`) and
    /// hidden files (any path component starting with `.`, such as `.DS_Store`).
    public var isIgnorable: Bool {
        if isDirectory { return true }
        return path.split(separator: "/").contains {
            $0 == "__MACOSX" || ($0.hasPrefix(".") && $0 != "." && $0 != "..")
        }
    }

    /// The path normalised for use on disk, refusing paths that would escape the folder an
    /// archive is extracted into (zip slip): absolute paths, drive letters and `..` components.
    /// - Throws: ``LarderError`` `refused-input` naming the entry.
    public func safeRelativePath(archive: String) throws -> String {
        let unified = path.replacingAll("\\", with: "/")
        let components = unified.split(separator: "/", omittingEmptySubsequences: true)
        let hasDrive = unified.count >= 2 && unified.dropFirst().first == ":"
        if unified.hasPrefix("/") || hasDrive || components.contains("..") {
            throw LarderError(
                .refusedInput,
                "archive entry \"\(path)\" points outside the archive (zip slip); it was not imported",
                location: SourceLocation(file: "\(archive)!\(path)"))
        }
        return components.filter { $0 != "." }.joined(separator: "/")
    }

    /// The file name: the last path component.
    public var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }
}

/// Reads a zip archive entry by entry without extracting it: the central directory is walked
/// lazily and each entry's data is inflated while it is read, through ``open(_:)``.
///
/// Supports stored and deflated entries, zip64 sizes, offsets and entry counts, and data
/// descriptors; no limit on the number or total size of entries. Each entry's expansion is
/// capped by ``ZipLimits`` (zip bombs are refused with `refused-input`), and CRC-32 is checked.
///
/// ```swift
/// let archive = try ZipArchive(path: "export.paprikarecipes")
/// while let entry = try archive.nextEntry() where !entry.isIgnorable {
///     let bytes = try archive.open(entry)   // a ByteSource
/// }
/// ```
public final class ZipArchive {
    /// The archive's path, for diagnostics.
    public let name: String
    private let fd: Int32
    private let limits: ZipLimits
    /// The number of entries the central directory lists.
    public let entryCount: UInt64
    private var directoryOffset: UInt64
    private let directoryEnd: UInt64
    private var nextIndex = 0

    /// Whether `bytes` start like a zip archive (`PK\u{3}\u{4}`, or an empty archive's `PK\u{5}\u{6}`).
    public static func isZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B
            && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6))
    }

    /// Opens the archive at `path` and reads its end-of-central-directory record.
    /// - Throws: ``LarderError`` `io-error` when the file cannot be read, `syntax-error` when it
    ///   is not a zip archive or its directory is damaged.
    public init(path: String, limits: ZipLimits = .default) throws {
        name = path
        self.limits = limits
        let opened = LibC.open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw LarderError(
                .io, "cannot open for reading: \(String(cString: strerror(errno)))",
                location: SourceLocation(file: path))
        }
        fd = opened
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw LarderError(.io, "cannot read the file's size", location: SourceLocation(file: path))
        }
        let size = UInt64(info.st_size)
        do {
            let tailLength = Int(min(size, 65_557))
            let tail = try Self.read(fd: fd, at: size - UInt64(tailLength), count: tailLength, name: path)
            guard
                let eocd = (0...max(0, tail.count - 22)).reversed().first(where: {
                    tail.count >= $0 + 22 && Self.u32(tail, $0) == 0x0605_4B50
                })
            else {
                throw LarderError(
                    .syntax, "not a zip archive (no end-of-central-directory record)",
                    location: SourceLocation(file: path))
            }
            var count = UInt64(Self.u16(tail, eocd + 10))
            var cdSize = UInt64(Self.u32(tail, eocd + 12))
            var cdOffset = UInt64(Self.u32(tail, eocd + 16))
            // zip64: the locator sits right before the classic record.
            let locator = eocd - 20
            if locator >= 0, Self.u32(tail, locator) == 0x0706_4B50 {
                let recordOffset = Self.u64(tail, locator + 8)
                let record = try Self.read(fd: fd, at: recordOffset, count: 56, name: path)
                guard Self.u32(record, 0) == 0x0606_4B50 else {
                    throw LarderError(
                        .syntax, "damaged zip64 end-of-central-directory record", location: SourceLocation(file: path))
                }
                count = Self.u64(record, 32)
                cdSize = Self.u64(record, 40)
                cdOffset = Self.u64(record, 48)
            }
            guard cdOffset <= size, cdSize <= size - cdOffset else {
                throw LarderError(
                    .syntax, "the zip central directory lies past the end of the file (truncated archive?)",
                    location: SourceLocation(file: path))
            }
            entryCount = count
            directoryOffset = cdOffset
            directoryEnd = cdOffset + cdSize
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// The next entry of the central directory, or `nil` after the last.
    /// - Throws: ``LarderError`` `syntax-error` when the directory is damaged.
    public func nextEntry() throws -> ZipEntry? {
        guard UInt64(nextIndex) < entryCount, directoryOffset < directoryEnd else { return nil }
        let header = try Self.read(fd: fd, at: directoryOffset, count: 46, name: name)
        guard Self.u32(header, 0) == 0x0201_4B50 else {
            throw LarderError(
                .syntax, "damaged zip central directory at entry \(nextIndex)", location: SourceLocation(file: name))
        }
        let flags = Self.u16(header, 8)
        let nameLength = Int(Self.u16(header, 28))
        let extraLength = Int(Self.u16(header, 30))
        let commentLength = Int(Self.u16(header, 32))
        let variable = try Self.read(fd: fd, at: directoryOffset + 46, count: nameLength + extraLength, name: name)
        let nameBytes = Array(variable[0..<nameLength])
        let path = flags & 0x800 != 0 ? String(decoding: nameBytes, as: UTF8.self) : TextEncoding.decode(nameBytes).text
        var entry = ZipEntry(
            path: path, method: Self.u16(header, 10), flags: flags, crc32: Self.u32(header, 16),
            compressedSize: UInt64(Self.u32(header, 20)), uncompressedSize: UInt64(Self.u32(header, 24)),
            localHeaderOffset: UInt64(Self.u32(header, 42)), index: nextIndex)
        // zip64 extended information: only the fields that are 0xFFFFFFFF in the header, in order.
        var e = nameLength
        while e + 4 <= variable.count {
            let id = Self.u16(variable, e)
            let length = Int(Self.u16(variable, e + 2))
            if id == 1 {
                var p = e + 4
                if entry.uncompressedSize == 0xFFFF_FFFF, p + 8 <= variable.count {
                    entry.uncompressedSize = Self.u64(variable, p)
                    p += 8
                }
                if entry.compressedSize == 0xFFFF_FFFF, p + 8 <= variable.count {
                    entry.compressedSize = Self.u64(variable, p)
                    p += 8
                }
                if entry.localHeaderOffset == 0xFFFF_FFFF, p + 8 <= variable.count {
                    entry.localHeaderOffset = Self.u64(variable, p)
                }
            }
            e += 4 + length
        }
        directoryOffset += UInt64(46 + nameLength + extraLength + commentLength)
        nextIndex += 1
        return entry
    }

    /// The entry's contents, inflated while they are read.
    /// - Throws: ``LarderError`` `refused-input` for encrypted entries and unsupported
    ///   compression methods, `syntax-error` for a damaged local header.
    public func open(_ entry: ZipEntry) throws -> any ByteSource {
        let location = SourceLocation(file: "\(name)!\(entry.path)")
        if entry.isEncrypted {
            throw LarderError(.refusedInput, "the entry is encrypted; Larder cannot read it", location: location)
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw LarderError(
                .refusedInput,
                "the entry uses compression method \(entry.method); only stored (0) and deflate (8) are supported",
                location: location)
        }
        let local = try Self.read(fd: fd, at: entry.localHeaderOffset, count: 30, name: name)
        guard Self.u32(local, 0) == 0x0403_4B50 else {
            throw LarderError(.syntax, "damaged zip local header", location: location)
        }
        let dataOffset = entry.localHeaderOffset + 30 + UInt64(Self.u16(local, 26)) + UInt64(Self.u16(local, 28))
        return try ZipEntrySource(
            fd: fd, archive: self, entry: entry, dataOffset: dataOffset, limits: limits, name: location.file ?? name)
    }

    // MARK: Bytes

    static func read(fd: Int32, at offset: UInt64, count: Int, name: String) throws -> [UInt8] {
        let start = try fileOffset(offset, count: count, name: name)
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(fd, base + done, count - done, start + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw LarderError(
                    .io, "read failed: \(String(cString: strerror(errno)))", location: SourceLocation(file: name))
            }
            if n == 0 {
                throw LarderError(.syntax, "the zip archive is truncated", location: SourceLocation(file: name))
            }
            done += n
        }
        return bytes
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    /// `offset` as a file offset, when `count` bytes from it can lie in a file: a zip64 offset or size
    /// is any 64-bit number, and one past `off_t` is past the end of any file.
    /// - Throws: ``LarderError`` `syntax-error` (the archive is truncated) otherwise.
    static func fileOffset(_ offset: UInt64, count: Int, name: String) throws -> off_t {
        guard offset <= UInt64(off_t.max) - UInt64(count) else {
            throw LarderError(.syntax, "the zip archive is truncated", location: SourceLocation(file: name))
        }
        return off_t(offset)
    }

    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}

/// The bytes of one zip entry, inflated on demand, with the expansion caps and CRC check.
final class ZipEntrySource: ByteSource {
    let name: String
    private let fd: Int32
    // Keeps the archive (and so its descriptor) open while the entry is read.
    private let archive: ZipArchive
    private let entry: ZipEntry
    private let limits: ZipLimits
    private var inputOffset: UInt64
    private var inputRemaining: UInt64
    private var stream = z_stream()
    private let inputCapacity = 64 * 1024
    private let input: UnsafeMutablePointer<UInt8>
    private var produced: UInt64 = 0
    private var crc: UInt = 0
    private var finished = false
    private var streamReady = false

    init(fd: Int32, archive: ZipArchive, entry: ZipEntry, dataOffset: UInt64, limits: ZipLimits, name: String) throws {
        self.fd = fd
        self.archive = archive
        self.entry = entry
        self.limits = limits
        self.name = name
        inputOffset = dataOffset
        inputRemaining = entry.compressedSize
        input = .allocate(capacity: inputCapacity)
        crc = CLibZ.crc32(0, nil, 0)
        if entry.method == 8 {
            guard larder_inflateInit2(&stream, -15) == Z_OK else {
                input.deallocate()
                throw LarderError(.io, "zlib could not start", location: SourceLocation(file: name))
            }
            streamReady = true
        }
    }

    deinit {
        if streamReady { inflateEnd(&stream) }
        input.deallocate()
    }

    /// Reads up to `count` compressed bytes into `input`.
    private func fillInput(_ count: Int) throws {
        let start = try ZipArchive.fileOffset(inputOffset, count: count, name: name)
        var done = 0
        while done < count {
            let n = pread(fd, input + done, count - done, start + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw LarderError(
                    .io, "read failed: \(String(cString: strerror(errno)))", location: SourceLocation(file: name))
            }
            if n == 0 {
                throw LarderError(.syntax, "the zip archive is truncated", location: SourceLocation(file: name))
            }
            done += n
        }
        inputOffset += UInt64(count)
        inputRemaining -= UInt64(count)
    }

    private func refused(_ message: String) -> LarderError {
        LarderError(.refusedInput, message, location: SourceLocation(file: name))
    }

    private func checkExpansion() throws {
        if produced > limits.maxEntrySize {
            throw refused("the entry inflates past \(limits.maxEntrySize) bytes; refused as a zip bomb")
        }
        let (allowed, overflow) = max(entry.compressedSize, 1).multipliedReportingOverflow(by: limits.maxExpansionRatio)
        if produced > limits.ratioGrace, !overflow, produced > allowed {
            throw refused(
                "the entry expands more than \(limits.maxExpansionRatio):1 (\(entry.compressedSize) compressed bytes); refused as a zip bomb"
            )
        }
        if entry.flags & 8 == 0, entry.uncompressedSize != 0xFFFF_FFFF, produced > entry.uncompressedSize {
            throw refused("the entry inflates past its declared size of \(entry.uncompressedSize) bytes; refused")
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0, let out = buffer.baseAddress else { return 0 }
        var n = 0
        if entry.method == 0 {
            let want = Int(min(UInt64(min(buffer.count, inputCapacity)), inputRemaining))
            if want > 0 {
                try fillInput(want)
                out.copyMemory(from: input, byteCount: want)
                n = want
            }
            if inputRemaining == 0 { finished = true }
        } else {
            stream.next_out = out.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(buffer.count)
            while stream.avail_out > 0 {
                if stream.avail_in == 0 {
                    guard inputRemaining > 0 else {
                        throw LarderError(
                            .syntax, "the entry's compressed data ends early (damaged archive)",
                            location: SourceLocation(file: name))
                    }
                    let want = Int(min(UInt64(inputCapacity), inputRemaining))
                    try fillInput(want)
                    stream.next_in = input
                    stream.avail_in = uInt(want)
                }
                let status = inflate(&stream, Z_NO_FLUSH)
                if status == Z_STREAM_END {
                    finished = true
                    break
                }
                guard status == Z_OK || status == Z_BUF_ERROR else {
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    throw LarderError(
                        .syntax, "the entry's compressed data is corrupt: \(reason)",
                        location: SourceLocation(file: name))
                }
            }
            n = buffer.count - Int(stream.avail_out)
        }
        produced += UInt64(n)
        try checkExpansion()
        if n > 0 { crc = CLibZ.crc32(crc, out.assumingMemoryBound(to: Bytef.self), uInt(n)) }
        if finished, UInt32(truncatingIfNeeded: crc) != entry.crc32 {
            throw LarderError(
                .syntax, "the entry's CRC-32 does not match (damaged archive)", location: SourceLocation(file: name))
        }
        return n
    }
}
