import LarderCore
package import LarderFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte sink backed by an anonymous scratch file, whose bytes can be copied on later:
/// each input's rejects collect here while inputs are read in parallel, then go to the
/// real rejects file in input order.
// @unchecked Sendable: filled by one task during the first pass, then handed to the caller,
// which alone copies it out.
package final class ScratchSink: ByteSink, @unchecked Sendable {
    private let file: SpillFile
    private var buffer: [UInt8] = []
    private var size: UInt64 = 0
    /// Lines (records) written, counted by the caller.
    package var lines = 0

    package init(directory: String? = nil) throws {
        file = try SpillFile(directory: directory)
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try drainBuffer() }
    }

    private func drainBuffer() throws {
        guard !buffer.isEmpty else { return }
        try file.appendRaw(buffer)
        size += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Nothing to finish: the bytes stay until copied.
    package func close() throws {}

    /// Copies everything written into `sink`, in order.
    package func copy(into sink: any ByteSink) throws {
        try drainBuffer()
        var offset: UInt64 = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while offset < size {
            let n = Int(min(UInt64(chunk.count), size - offset))
            try file.readRaw(offset: offset, count: n, into: &chunk)
            try chunk.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += UInt64(n)
        }
    }
}

/// Passes writes through and ignores `close()`, so a shared sink outlives a writer that closes.
package final class NonClosingSink: ByteSink {
    private let base: any ByteSink

    package init(_ base: any ByteSink) {
        self.base = base
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws { try base.write(bytes) }
    package func close() throws {}
}
