import Foundation
import LarderCore
import LarderSystem

/// Holds a report's lines in an anonymous temporary file while a transaction runs.
///
/// The lines are printed only after the transaction committed: a run that fails or is killed
/// reports nothing it did not do, and a million lines cost no memory. The file is unlinked at
/// once, so a kill leaves nothing.
final class ReportSpool {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init() throws {
        var template = Array("\(NSTemporaryDirectory())/larder-report-XXXXXX".utf8CString)
        let opened = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard opened >= 0 else {
            throw LarderError(.io, "cannot create a temporary report file: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        fd = opened
        buffer.reserveCapacity(1 << 16)
    }

    deinit { close(fd) }

    /// Adds a line.
    func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws {
        try write(buffer, to: fd)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Copies every line to standard output.
    func print() throws {
        try flush()
        lseek(fd, 0, SEEK_SET)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            try write(Array(chunk[0..<n]), to: 1)
        }
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }  // no bytes: nothing to write
            var offset = 0
            while offset < buffer.count {
                let n = LibC.write(descriptor, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw LarderError(.io, "cannot write the report: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }
}

/// Renders numbers and times for the maintenance reports.
enum ReportFormat {
    /// `1,234,567`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// `4.2 MB`, `812 B`.
    static func bytes(_ value: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var amount = Double(value)
        var unit = 0
        while abs(amount) >= 1024 && unit < units.count - 1 {
            amount /= 1024
            unit += 1
        }
        return unit == 0 ? "\(value) B" : String(format: "%.1f %@", amount, units[unit])
    }

    /// `90d`, `30m`, `1h30m`.
    static func duration(_ seconds: TimeInterval) -> String {
        var rest = Int(saturating: seconds)
        var parts: [String] = []
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        return parts.isEmpty ? "0s" : parts.joined()
    }

    static func time(_ milliseconds: Int64?) -> String {
        milliseconds.map { Timestamp.format(Date(timeIntervalSince1970: Double($0) / 1000)) } ?? "never"
    }
}
