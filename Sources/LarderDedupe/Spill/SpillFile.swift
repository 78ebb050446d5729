import Foundation
package import LarderCore
import LarderFormats
import LarderSystem

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
    /// The input file opened for reading, when records can be fetched from it directly (a
    /// plain, uncompressed JSON or NDJSON file): such records are never copied to scratch.
    private var inputFD: Int32 = -1
    private var inputName = ""

    /// Offsets with this bit set are in the input file, not the scratch file.
    private static let inInput: UInt64 = 1 << 63

    /// Creates an anonymous spill file in `directory` (the system temporary directory by default).
    /// - Throws: ``LarderError`` `io-error` when it cannot be created.
    package init(directory: String? = nil, encoding: SpillEncoding = .binary) throws {
        self.encoding = encoding
        let base = directory ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/larder-dedupe-XXXXXX".utf8CString)
        let opened = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard opened >= 0 else {
            throw LarderError(
                .io, "cannot create the dedupe scratch file: \(String(cString: strerror(errno)))",
                location: SourceLocation(file: base))
        }
        let path = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? "" }
        unlink(path)
        fd = opened
        name = path
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        close(fd)
        if inputFD >= 0 { close(inputFD) }
    }

    /// Lets records be fetched from `path` itself when it is a regular, uncompressed file.
    ///
    /// Returns whether it can.
    @discardableResult
    package func useInputFile(_ path: String) -> Bool {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return false }
        var info = stat()
        var magic: (UInt8, UInt8) = (0, 0)
        let n = withUnsafeMutableBytes(of: &magic) { pread(opened, $0.baseAddress, 2, 0) }
        guard fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, n == 2,
            !(magic.0 == 0x1F && magic.1 == 0x8B)
        else {
            close(opened)
            return false
        }
        inputFD = opened
        inputName = path
        return true
    }

    /// Whether records can be fetched from the input file.
    package var readsInputFile: Bool { inputFD >= 0 }

    /// Records a record that stays in the input file at `offset` (its JSON text, one line).
    package func reference(inputOffset offset: Int, text: UnsafeRawBufferPointer) -> (
        offset: UInt64, length: UInt32, key: StableKey
    ) {
        (UInt64(offset) | Self.inInput, UInt32(text.count), Self.key(text))
    }

    private static func key(_ bytes: UnsafeRawBufferPointer) -> StableKey {
        var high = StableHasher(seed: 0x5EED_0001)
        var low = StableHasher(seed: 0x5EED_0002)
        StableHasher.combine(bytes: bytes, into: &high, &low)
        return StableKey(high: high.finalize(), low: low.finalize())
    }

    /// Appends one record; returns where it went and its content key (a hash of its encoding).
    /// - Throws: ``LarderError`` `unrepresentable` when JSON cannot hold a value (NaN), `io-error`.
    package func append(_ value: Value) throws -> (offset: UInt64, length: UInt32, key: StableKey) {
        encoded.removeAll(keepingCapacity: true)
        switch encoding {
        case .binary: ValueBinaryCoding.encode(value, into: &encoded)
        case .json(let pretty): try JSONWriter.append(value, to: &encoded, pretty: pretty)
        }
        return try appendEncoded()
    }

    private func appendEncoded() throws -> (offset: UInt64, length: UInt32, key: StableKey) {
        let key = encoded.withUnsafeBytes { Self.key($0) }
        let offset = flushed + UInt64(buffer.count)
        buffer.append(contentsOf: encoded)
        if buffer.count >= 1 << 20 { try flush() }
        return (offset, UInt32(encoded.count), key)
    }

    /// Writes the buffer through to the file; call before reading.
    package func flush() throws {
        var written = 0
        try buffer.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }  // an empty buffer: nothing to write
            while written < bytes.count {
                let n = pwrite(fd, base + written, bytes.count - written, off_t(flushed) + off_t(written))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw LarderError(
                        .io, "cannot write the dedupe scratch file: \(String(cString: strerror(errno)))",
                        location: SourceLocation(file: name))
                }
                written += n
            }
        }
        flushed += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Appends one record given as its JSON text (for a ``SpillEncoding/json(pretty:)`` file
    /// with compact layout): line breaks outside strings are removed, so the text fits one line.
    package func append(jsonText text: UnsafeRawBufferPointer) throws -> (
        offset: UInt64, length: UInt32, key: StableKey
    ) {
        encoded.removeAll(keepingCapacity: true)
        if Self.hasLineBreak(text) {
            Self.removeLineBreaks(text, into: &encoded)
        } else {
            encoded.append(contentsOf: text)
        }
        return try appendEncoded()
    }

    /// Whether JSON text spans more than one line.
    package static func hasLineBreak(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress, !text.isEmpty else { return false }
        return memchr(base, 0x0A, text.count) != nil || memchr(base, 0x0D, text.count) != nil
    }

    /// Copies JSON text, dropping whitespace outside strings.
    static func removeLineBreaks(_ text: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                out.append(byte)
            } else if byte == 0x22 {
                inString = true
                out.append(byte)
            } else if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                out.append(byte)
            }
        }
    }

    /// Appends raw bytes (for ``ScratchSink``).
    package func appendRaw(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        try flush()
    }

    /// Reads `count` raw bytes at `offset` into the start of `scratch`.
    package func readRaw(offset: UInt64, count: Int, into scratch: inout [UInt8]) throws {
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
        let (fd, name, offset) =
            offset & Self.inInput != 0 ? (inputFD, inputName, offset & ~Self.inInput) : (self.fd, self.name, offset)
        try scratch.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }  // empty, so `count` is 0: nothing to read
            var done = 0
            while done < count {
                let n = pread(fd, base + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw LarderError(
                        .io,
                        "cannot read the dedupe scratch file: \(n == 0 ? "unexpected end" : String(cString: strerror(errno)))",
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
            return try scratch.withUnsafeBytes {
                try ValueBinaryCoding.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
            }
        case .json:
            // Parsed in place: a reader per record would copy the bytes and allocate its 1 MiB buffer.
            return try scratch.withUnsafeBytes {
                try JSONScanner.parseDocument(UnsafeRawBufferPointer(rebasing: $0[0..<count]), name: name)
            }
        }
    }
}
