internal import CLibZ
import LarderCore
import LarderSystem

/// A destination for bytes: buffered, so writers can append small pieces cheaply.
public protocol ByteSink: AnyObject {
    /// Appends bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Writes everything buffered through to the destination and finishes it (gzip trailer,
    /// fsync, rename into place). Nothing may be written after.
    func close() throws
}

extension ByteSink {
    /// Appends the UTF-8 of `text`.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

/// Collects bytes in memory, for tests and for small outputs.
public final class MemoryByteSink: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    public func close() throws {}

    /// The bytes as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Writes to a file descriptor through a 256 KiB buffer.
///
/// For a path, output goes to a temporary file in the same directory that is fsync'd and
/// renamed over the destination by ``close()``: a run that fails or is killed leaves no
/// partial output. Call ``discard()`` to abandon it. The temporary file is named
/// `.NAME.tmp-PID-XXXXXX` and listed in `TemporaryFiles` while it exists, so a signal handler
/// can remove it, and a later run writing NAME removes one whose process is gone.
public final class FileByteSink: ByteSink {
    private let fd: Int32
    private let destination: String?
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private let capacity = 256 * 1024
    private var closed = false

    /// The display name (`<stdout>` or the destination path).
    public let name: String

    /// Standard output.
    public init(standardOutput: ()) {
        fd = 1
        destination = nil
        temporaryPath = nil
        name = "<stdout>"
        buffer.reserveCapacity(capacity)
    }

    /// A file written atomically at `path`, with permissions `mode` (`0o600` for secrets).
    /// - Throws: ``LarderError`` `io-error` naming the path when the temporary file cannot be created.
    public init(path: String, mode: UInt32 = 0o644) throws {
        // A device or pipe (/dev/null, a FIFO) cannot be replaced by rename: write to it directly.
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            let opened = open(path, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else {
                throw LarderError(
                    .io, "cannot open for writing: \(String(cString: strerror(errno)))",
                    location: SourceLocation(file: path))
            }
            fd = opened
            destination = nil
            temporaryPath = nil
            name = path
            buffer.reserveCapacity(capacity)
            return
        }
        let directory = PathParts.directory(of: path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        // A run killed by SIGKILL could not remove its temporary file: this run, writing the
        // same output, does.
        TemporaryFiles.removeStale(in: directory, forOutputsWhere: { $0 == base })
        var template = Array("\(directory)/.\(base).tmp-\(getpid())-XXXXXX".utf8CString)
        let (opened, temporary) = TemporaryFiles.create(&template)
        guard opened >= 0, let temporary else {
            throw LarderError(
                .io, "cannot create output: \(String(cString: strerror(errno)))", location: SourceLocation(file: path))
        }
        fchmod(opened, mode_t(mode))
        fd = opened
        destination = path
        temporaryPath = temporary
        name = path
        buffer.reserveCapacity(capacity)
    }

    deinit {
        if !closed { discard() }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        let failure = FileSystemCalls.writeAll(fd, bytes, path: name)
        guard failure == 0 else {
            throw LarderError(
                .io, "write failed: \(String(cString: strerror(failure)))", location: SourceLocation(file: name))
        }
    }

    public func close() throws {
        guard !closed else { return }
        try flush()
        closed = true
        guard let temporaryPath, let destination else {
            if fd > 2 { LibC.close(fd) }
            return
        }
        defer { TemporaryFiles.forget(temporaryPath) }
        // errno is read before the clean-up calls, which may change it; the descriptor is closed
        // whether or not fsync worked.
        var failure = FileSystemCalls.fsync(fd, path: destination) == 0 ? 0 : errno
        if LibC.close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 {
            unlink(temporaryPath)
            throw LarderError(
                .io, "cannot finish writing: \(String(cString: strerror(failure)))",
                location: SourceLocation(file: destination))
        }
        if FileSystemCalls.rename(temporaryPath, destination) != 0 {
            failure = errno
            unlink(temporaryPath)
            throw LarderError(
                .io, "cannot move output into place: \(String(cString: strerror(failure)))",
                location: SourceLocation(file: destination))
        }
    }

    /// Abandons the output: the temporary file is removed and the destination is untouched.
    public func discard() {
        guard !closed else { return }
        closed = true
        if let temporaryPath {
            LibC.close(fd)
            unlink(temporaryPath)
            TemporaryFiles.forget(temporaryPath)
        } else {
            try? flush()
        }
    }
}

/// Compresses everything written to it as gzip into another sink.
public final class GzipWriter: ByteSink {
    private let base: any ByteSink
    private var stream = z_stream()
    private let outputCapacity = 256 * 1024
    private let output: UnsafeMutablePointer<Bytef>
    private var closed = false

    /// Wraps `base`; `level` is zlib's 1 (fast) to 9 (small), 6 by default.
    public init(_ base: any ByteSink, level: Int32 = 6) throws {
        self.base = base
        output = .allocate(capacity: outputCapacity)
        let status = larder_deflateInit2(&stream, level, 15 + 16)  // +16: gzip header and trailer
        guard status == Z_OK else {
            output.deallocate()
            throw LarderError(.io, "zlib could not start (deflateInit2 returned \(status))")
        }
    }

    deinit {
        deflateEnd(&stream)
        output.deallocate()
    }

    private func pump(flush: Int32) throws {
        repeat {
            stream.next_out = output
            stream.avail_out = uInt(outputCapacity)
            let status = deflate(&stream, flush)
            guard status != Z_STREAM_ERROR else { throw LarderError(.io, "zlib deflate failed") }
            let produced = outputCapacity - Int(stream.avail_out)
            if produced > 0 { try base.write(UnsafeRawBufferPointer(start: output, count: produced)) }
            if flush == Z_FINISH && status == Z_STREAM_END { return }
        } while stream.avail_out == 0 || (flush == Z_FINISH)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(bytes.count)
        while stream.avail_in > 0 { try pump(flush: Z_NO_FLUSH) }
    }

    public func close() throws {
        guard !closed else { return }
        closed = true
        stream.next_in = nil
        stream.avail_in = 0
        try pump(flush: Z_FINISH)
        try base.close()
    }
}
