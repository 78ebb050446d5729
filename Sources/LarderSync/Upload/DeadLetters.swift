import Foundation
public import LarderCore
import LarderFormats
import Synchronization

/// The dead-letter file: NDJSON, one line per record that could not be uploaded, with why.
///
/// `{"recordName":…,"recordType":…,"stage":"migrate|dedupe|map|upload","code":…,"reason":…,
/// "origin":"file:record index","record":{…}}`. Written atomically when closed: it lists this
/// run's dead letters only (a re-run tries them again), and an empty run leaves no file.
///
/// Each stage's rejects come through a ``DiagnosticSink`` (`stage(_:recordType:origin:)`); the
/// warnings given there (data kept, but left out of a record) are kept for the report.
public final class DeadLetters: Sendable {
    /// The file's path.
    public let path: String
    private let state: Mutex<State>

    private struct State {
        var writer: (any RecordWriter)?
        var sink: FileByteSink?
        var count = 0
        var byStage: [String: Int] = [:]
        var warnings: [Diagnostic] = []
    }

    /// Prepares the file (nothing is written until the first dead letter).
    public init(path: String) {
        self.path = path
        state = Mutex(State())
    }

    /// Dead letters so far.
    public var count: Int { state.withLock { $0.count } }

    /// Dead letters so far, by stage.
    public var byStage: [String: Int] { state.withLock { $0.byStage } }

    /// The warnings given so far, in order.
    public var warnings: [Diagnostic] { state.withLock { $0.warnings } }

    /// Keeps a warning for the report.
    func warn(_ diagnostic: Diagnostic) {
        state.withLock { $0.warnings.append(diagnostic) }
    }

    /// Adds one dead letter.
    /// - Throws: ``LarderError`` `io-error` when the file cannot be written.
    public func add(
        record: Value?, recordName: String?, recordType: String?, stage: String, code: String?, reason: String,
        origin: String?
    ) throws {
        var entry = Fields()
        if let recordName { entry.append(key: "recordName", value: .string(recordName)) }
        if let recordType { entry.append(key: "recordType", value: .string(recordType)) }
        entry.append(key: "stage", value: .string(stage))
        if let code { entry.append(key: "code", value: .string(code)) }
        entry.append(key: "reason", value: .string(reason))
        if let origin { entry.append(key: "origin", value: .string(origin)) }
        entry.append(key: "record", value: record ?? .null)
        let path = self.path
        try state.withLock { state in
            if state.writer == nil {
                let sink = try FileByteSink(path: path)
                state.sink = sink
                state.writer = JSONWriter(sink: sink, lineMode: true)
            }
            try state.writer?.write(.object(entry))
            state.count += 1
            state.byStage[stage, default: 0] += 1
        }
    }

    /// Writes the file (atomically), or removes a stale one when this run had none.
    public func close() throws {
        let path = self.path
        try state.withLock { state in
            if let writer = state.writer {
                try writer.finish()
                state.writer = nil
            } else if FileManagerShim.fileExists(path) {
                FileManagerShim.remove(path)
            }
        }
    }
}

/// Tiny file helpers kept out of the public surface.
enum FileManagerShim {
    static func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
}
