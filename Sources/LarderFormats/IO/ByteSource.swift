import LarderCore
import LarderSystem

/// A source of bytes read in chunks: a file, standard input, or a decompressor over either.
///
/// Readers pull from a source; nothing here holds more than one chunk.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes; returns 0 at the end of the input.
    /// - Throws: ``LarderError`` with code `io-error` (or `syntax-error` for corrupt compressed data).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// The name to use in diagnostics (`recipes.json`, `<stdin>`).
    var name: String { get }
    /// How many bytes are left to read when the source knows (bytes in memory, a regular file), or
    /// about how many (a transcoder over either); `nil` when unknown (a pipe, a decompressor).
    ///
    /// A reader sizes its first buffer to it (a small document gets a small buffer) and grows it
    /// as it must when more come.
    var remainingByteCount: Int? { get }
}

extension ByteSource {
    /// Unknown: a file, a pipe or a decompressor.
    public var remainingByteCount: Int? { nil }

    /// The size of a reader's chunk over this source: 64 KiB, or what is left when that is smaller
    /// (at least 4 KiB).
    ///
    /// A small file gets a small chunk: zeroing 64 KiB per file read cost every small input under
    /// ASan (page faults and `memset` for each fuzz input).
    public var chunkSize: Int { remainingByteCount.map { min(64 * 1024, max(4096, $0)) } ?? 64 * 1024 }
}

/// Reads a file descriptor (a file or standard input).
public final class FileByteSource: ByteSource {
    public let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// A regular file's size when opened, and the bytes read since.
    private var size: Int?
    private var consumed = 0

    /// Opens `path` for reading; `-` is standard input.
    /// - Throws: ``LarderError`` `io-error` naming the file when it cannot be opened.
    public init(path: String) throws {
        if path == "-" {
            fd = 0
            name = "<stdin>"
            ownsDescriptor = false
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw LarderError(
                .io, "cannot open for reading: \(String(cString: strerror(errno)))",
                location: SourceLocation(file: path))
        }
        var info = stat()
        if fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(opened)
            throw LarderError(.io, "is a directory, not a file", location: SourceLocation(file: path))
        }
        fd = opened
        name = path
        ownsDescriptor = true
        if (info.st_mode & S_IFMT) == S_IFREG { size = Int(info.st_size) }
    }

    public var remainingByteCount: Int? { size.map { max(0, $0 - consumed) } }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = LibC.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 {
                consumed += n
                return n
            }
            if errno == EINTR { continue }
            throw LarderError(
                .io, "read failed: \(String(cString: strerror(errno)))", location: SourceLocation(file: name))
        }
    }
}

/// Bytes held in memory, for tests and for small inputs already read.
public final class MemoryByteSource: ByteSource {
    public let name: String
    private let bytes: [UInt8]
    private var offset = 0

    /// Creates a source over `bytes`.
    public init(_ bytes: [UInt8], name: String = "<memory>") {
        self.bytes = bytes
        self.name = name
    }

    /// Creates a source over the UTF-8 of `text`.
    public convenience init(_ text: String, name: String = "<memory>") {
        self.init(Array(text.utf8), name: name)
    }

    public var remainingByteCount: Int? { bytes.count - offset }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            buffer.baseAddress?.copyMemory(from: base + offset, byteCount: n)
        }
        offset += n
        return n
    }
}

/// A source that can look at its first bytes before anyone reads them: for sniffing gzip
/// magic and the data format.
public final class PeekableByteSource: ByteSource {
    private let base: any ByteSource
    private var pending: [UInt8] = []
    private var pendingOffset = 0

    /// Wraps `base`.
    public init(_ base: any ByteSource) {
        self.base = base
    }

    public var name: String { base.name }

    /// Returns up to `count` bytes from the start without consuming them.
    public func peek(_ count: Int) throws -> [UInt8] {
        while pending.count - pendingOffset < count {
            var chunk = [UInt8](repeating: 0, count: max(count, 4096))
            let n = try chunk.withUnsafeMutableBytes { try base.read(into: $0) }
            if n == 0 { break }
            pending.append(contentsOf: chunk[0..<n])
        }
        return Array(pending[pendingOffset..<min(pending.count, pendingOffset + count)])
    }

    /// The bytes peeked and not yet read, plus what `base` has left, when `base` knows.
    public var remainingByteCount: Int? { base.remainingByteCount.map { pending.count - pendingOffset + $0 } }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if pendingOffset < pending.count {
            let n = min(buffer.count, pending.count - pendingOffset)
            pending.withUnsafeBytes { source in
                guard let base = source.baseAddress else { return }
                buffer.baseAddress?.copyMemory(from: base + pendingOffset, byteCount: n)
            }
            pendingOffset += n
            if pendingOffset == pending.count {
                pending = []
                pendingOffset = 0
            }
            return n
        }
        return try base.read(into: buffer)
    }
}
