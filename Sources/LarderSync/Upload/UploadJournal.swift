import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore
import LarderSystem

/// The upload's write-ahead journal: an append-only NDJSON file, fsync'd after every append,
/// of the operations planned and the ones the server acknowledged.
///
/// A re-run after a crash (kill -9 at any moment) reads it back: records acknowledged with the
/// same content digest are skipped; records planned but not acknowledged are sent again, and
/// the server's answer (`EXISTS` / `CONFLICT` with a record equal to ours) tells that they had
/// arrived, so nothing is written twice and nothing is lost. A torn last line (the process died
/// inside a write) is ignored; the journal is rewritten compactly when a run starts.
///
/// Lines:
/// ```
/// {"k":"run","v":2,"target":"http://…/database/1/iCloud.x/development/private/larder","at":1700000000000}
/// {"k":"plan","n":["recipe-1",…],"d":["3f2a…",…]}
/// {"k":"ack","n":[…],"d":[…],"t":["tag",…]}        acknowledged: the server holds this digest
/// {"k":"kept","n":[…],"d":[…],"t":[…]}             conflict resolved by keeping the server's version
/// {"k":"dead","n":"recipe-9","r":"reason"}
/// ```
///
/// `v` is the ``FieldsDigest`` definition of the digests that follow (1 when absent: journals of
/// earlier builds). An `ack` or `kept` line with `"dv":1` holds version 1 digests in a journal of a
/// later version (a rewritten old journal): such a record is compared by the version 1 digest,
/// so an old journal still skips what the server holds, and sends again only what it does not.
public actor UploadJournal {
    /// What the journal knows about one record.
    public struct Entry: Sendable, Hashable {
        /// The digest of the content the server holds (ours).
        public var digest: String
        /// The server's change tag for it.
        public var changeTag: String?
        /// Whether the server kept its own version in a conflict (then `digest` is ours, skipped).
        public var keptServer: Bool
        /// The ``FieldsDigest`` definition `digest` follows (1: ``FieldsDigest/legacy(recordType:fields:)``).
        public var digestVersion = FieldsDigest.version

        /// Whether `item` has the content this entry's digest records.
        func matches(_ item: UploadItem) -> Bool {
            if digestVersion == FieldsDigest.version { return digest == item.digest }
            return digest == FieldsDigest.legacy(recordType: item.recordType, fields: item.fields)
        }
    }

    /// The journal file.
    nonisolated public let path: String
    /// The target this journal belongs to.
    nonisolated public let target: String
    private let descriptor: Int32
    /// Entries as loaded when the journal was opened.
    nonisolated public let entries: [String: Entry]
    /// Records planned in an earlier run but never acknowledged (in doubt: sent again).
    nonisolated public let inDoubt: Set<String>

    /// Opens (or creates) the journal for `target`, loads what it knows, compacts it, and
    /// starts a new run.
    /// - Throws: ``LarderError`` `io-error` when the file cannot be read or written;
    ///   `usage-error` when it belongs to another target or is corrupt before its last line.
    public init(path: String, target: String, nowMilliseconds: Int64) throws {
        self.path = path
        self.target = target
        let directory = PathParts.directory(of: path)
        if directory != "." {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw LarderError(.io, "cannot create the journal folder \(directory): \(error.localizedDescription)")
            }
        }
        var loaded: [String: Entry] = [:]
        var planned = Set<String>()
        var runs = 0
        if FileManager.default.fileExists(atPath: path) {
            (loaded, planned, runs) = try Self.load(path: path, target: target)
        }
        let header = JournalLine(k: "run", v: FieldsDigest.version, target: target, at: nowMilliseconds)
        if runs > 0 || !loaded.isEmpty {
            try Self.rewrite(path: path, header: header, entries: loaded, inDoubt: planned)
        } else {
            try Self.writeAtomically(path: path, text: try Self.encode(header))
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else {
            throw LarderError(.io, "cannot open the journal \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        entries = loaded
        inDoubt = planned
    }

    deinit { close(descriptor) }

    // MARK: Appending

    /// Records that these operations are about to be sent.
    public func planned(_ items: [(name: String, digest: String)]) throws {
        guard !items.isEmpty else { return }
        try append(JournalLine(k: "plan", n: items.map(\.name), d: items.map(\.digest)))
    }

    /// Records that the server holds these versions.
    public func acknowledged(_ items: [(name: String, digest: String, tag: String?)]) throws {
        guard !items.isEmpty else { return }
        try append(JournalLine(k: "ack", n: items.map(\.name), d: items.map(\.digest), t: items.map { $0.tag ?? "" }))
    }

    /// Records that conflicts were resolved by keeping the server's versions.
    public func keptServer(_ items: [(name: String, digest: String, tag: String?)]) throws {
        guard !items.isEmpty else { return }
        try append(JournalLine(k: "kept", n: items.map(\.name), d: items.map(\.digest), t: items.map { $0.tag ?? "" }))
    }

    /// Records that a record went to the dead letters.
    public func deadLetter(name: String, reason: String) throws {
        try append(JournalLine(k: "dead", n: [name], r: reason))
    }

    /// Appends one line and syncs it.
    ///
    /// When that fails the journal is cut back to its length before (best effort), so a torn line never sits under
    /// later appends.
    private func append(_ line: JournalLine) throws {
        CrashSwitch.step()
        let text = try Self.encode(line)
        let before = lseek(descriptor, 0, SEEK_END)
        do {
            try Self.writeAll(descriptor, text, path: path)
            guard FileSystemCalls.fsync(descriptor, path: path) == 0 else {
                throw LarderError(.io, "cannot sync the journal \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            if before >= 0 { _ = ftruncate(descriptor, before) }
            throw error
        }
        CrashSwitch.step()
    }

    // MARK: Reading and rewriting

    static func load(path: String, target: String) throws -> ([String: Entry], Set<String>, Int) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LarderError(.io, "cannot read the journal \(path): \(error.localizedDescription)")
        }
        var entries: [String: Entry] = [:]
        var planned = Set<String>()
        var runs = 0
        // The digest definition of the lines read: the last run line's.
        var version = 1
        let decoder = JSONDecoder()
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        let lastNonEmpty = lines.lastIndex { !$0.isEmpty } ?? -1
        for (number, line) in lines.enumerated() where !line.isEmpty {
            guard let entry = try? decoder.decode(JournalLine.self, from: Data(line)) else {
                if number == lastNonEmpty { continue }  // torn by a crash inside the last write
                throw LarderError(
                    .usage,
                    "the journal is damaged at line \(number + 1); move it away to start over (records already uploaded are recognised by the server)",
                    location: SourceLocation(file: path, line: number + 1))
            }
            switch entry.k {
            case "run":
                runs += 1
                version = entry.v ?? 1
                if let other = entry.target, other != target {
                    throw LarderError(
                        .usage, "the journal belongs to \(other), not \(target); give another --journal",
                        location: SourceLocation(file: path, line: number + 1))
                }
            case "plan":
                planned.formUnion(entry.n ?? [])
            case "ack", "kept":
                let names = entry.n ?? []
                let digests = entry.d ?? []
                let tags = entry.t ?? []
                for (index, name) in names.enumerated() where index < digests.count {
                    let tag = index < tags.count && !tags[index].isEmpty ? tags[index] : nil
                    entries[name] = Entry(
                        digest: digests[index], changeTag: tag, keptServer: entry.k == "kept",
                        digestVersion: entry.dv ?? version)
                    planned.remove(name)
                }
            default:
                continue
            }
        }
        return (entries, planned, runs)
    }

    static func rewrite(path: String, header: JournalLine, entries: [String: Entry], inDoubt: Set<String>) throws {
        var text = try encode(header)
        let names = entries.keys.sorted()
        let versions = Set(entries.values.map(\.digestVersion)).sorted()
        var start = 0
        while start < names.count {
            let chunk = names[start..<min(start + 500, names.count)]
            for kept in [false, true] {
                for version in versions {
                    let selected = chunk.filter {
                        entries[$0]?.keptServer == kept && entries[$0]?.digestVersion == version
                    }
                    guard !selected.isEmpty else { continue }
                    text += try encode(
                        JournalLine(
                            k: kept ? "kept" : "ack", n: selected, d: selected.map { entries[$0]?.digest ?? "" },
                            t: selected.map { entries[$0]?.changeTag ?? "" }, dv: version == header.v ? nil : version))
                }
            }
            start += 500
        }
        if !inDoubt.isEmpty {
            let sorted = inDoubt.sorted()
            text += try encode(JournalLine(k: "plan", n: sorted, d: sorted.map { _ in "" }))
        }
        try writeAtomically(path: path, text: text)
    }

    /// Writes `text` to `path` through `path.tmp`, fsync and rename; on failure the temporary
    /// file is removed and `path` is left as it was.
    static func writeAtomically(path: String, text: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw LarderError(.io, "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var isOpen = true
        do {
            try writeAll(fd, text, path: path)
            guard FileSystemCalls.fsync(fd, path: path) == 0 else {
                throw LarderError(.io, "cannot sync the journal \(path): \(String(cString: strerror(errno)))")
            }
            close(fd)
            isOpen = false
            guard FileSystemCalls.rename(temporary, path) == 0 else {
                throw LarderError(.io, "cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
        let directory = PathParts.directory(of: path)
        let dirFD = open(directory, O_RDONLY | O_CLOEXEC)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    static func writeAll(_ fd: Int32, _ text: String, path: String) throws {
        var text = text
        let failure = text.withUTF8 { FileSystemCalls.writeAll(fd, UnsafeRawBufferPointer($0), path: path) }
        guard failure == 0 else {
            throw LarderError(.io, "cannot write the journal \(path): \(String(cString: strerror(failure)))")
        }
    }

    /// One line of JSON, ended by a newline: the members of `line` that are set, in declaration
    /// order (what `JSONEncoder` writes, but without its containers: a line per batch of 200).
    static func encode(_ line: JournalLine) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + (line.n?.count ?? 0) * 64)
        func key(_ name: String) {
            bytes.append(bytes.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            JSONWriter.appendString(name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
        }
        func strings(_ name: String, _ list: [String]?) {
            guard let list else { return }
            key(name)
            bytes.append(UInt8(ascii: "["))
            for (index, text) in list.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(text, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        func number(_ name: String, _ value: Int64?) {
            guard let value else { return }
            key(name)
            bytes.append(contentsOf: String(value).utf8)
        }
        func text(_ name: String, _ value: String?) {
            guard let value else { return }
            key(name)
            JSONWriter.appendString(value, to: &bytes)
        }
        text("k", line.k)
        number("v", line.v.map(Int64.init))
        text("target", line.target)
        number("at", line.at)
        strings("n", line.n)
        strings("d", line.d)
        strings("t", line.t)
        text("r", line.r)
        number("dv", line.dv.map(Int64.init))
        bytes.append(contentsOf: "}\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One journal line (short keys: the journal is written once per batch and read on resume).
struct JournalLine: Codable, Sendable {
    var k: String
    var v: Int?
    var target: String?
    var at: Int64?
    var n: [String]?
    var d: [String]?
    var t: [String]?
    var r: String?
    /// The digest definition of this line's digests, when not the run's.
    var dv: Int?

    init(
        k: String, v: Int? = nil, target: String? = nil, at: Int64? = nil, n: [String]? = nil, d: [String]? = nil,
        t: [String]? = nil, r: String? = nil, dv: Int? = nil
    ) {
        self.k = k
        self.v = v
        self.target = target
        self.at = at
        self.n = n
        self.d = d
        self.t = t
        self.r = r
        self.dv = dv
    }
}
