import Foundation
import LarderCloudKit
public import LarderCore
public import LarderFormats

/// `larder download`: a zone's records into a file, the first time all of them, later only
/// the changes since the saved sync token (seed 000: no refetch on every launch).
///
/// The changes (`changes/zone`, paged while `moreComing`) are spilled to a scratch NDJSON
/// file as they arrive; then the output is rewritten: the previous output's records stream
/// through (those changed or deleted since are dropped), followed by the new versions. Only
/// the record names of changed records are held in memory. The output and the state file
/// are replaced atomically, output first; a state whose recorded output size does not match
/// the output on disk is not trusted, and the next run fetches everything again, as it does
/// after `CHANGE_TOKEN_EXPIRED`.
///
/// The state file is text: a JSON header line (target, sync token, output size, record
/// count), then the record name of each output record, in output order.
public struct ZoneDownloader: Sendable {
    /// The client (target zone, transport, credentials).
    public let client: CloudKitClient
    /// The output file.
    public var outputPath: String
    /// Its format (default from the name, else JSON) and compression.
    public var format: DataFormat?
    public var gzip = false
    /// The state file; nil fetches everything every time.
    public var statePath: String?
    /// Only records of this type (and an envelope naming it in JSON, YAML and XML).
    public var recordType: RecordType?
    /// Keep minimal tombstones (`isDeleted: true`) in the output instead of dropping them.
    public var keepsTombstones = false
    /// Indent JSON.
    public var pretty = false
    /// Retries.
    public var retry = RetryPolicy()
    /// Clock and sleeper.
    public var clock: LarderClock = .system
    /// Names the work folder.
    public var random: RandomSource = .system
    /// Page size (at most 200).
    public var pageSize = 200

    /// Creates a downloader.
    public init(client: CloudKitClient, outputPath: String) {
        self.client = client
        self.outputPath = outputPath
    }

    /// What a download did.
    public struct Report: Sendable, Hashable, Codable {
        public var target: String
        /// Whether everything was fetched (first run, no state, an untrusted state, or an expired token).
        public var fullFetch = false
        public var tokenExpired = false
        /// Pages and requests.
        public var pages = 0
        public var requests = 0
        /// Changes received: records (new or changed) and deletions.
        public var changedRecords = 0
        public var deletions = 0
        /// Records in the output now, and kept from the previous output.
        public var records = 0
        public var kept = 0
        /// Records that could not be read back (skipped, with the first reasons).
        public var unreadable = 0
        public var problems: [String] = []
        /// Image files written next to the output (asset fields; unchanged files are not counted).
        public var imagesWritten = 0
        /// Records of types that are no Larder record (a `cloudkit.share`, an app's own types), by type.
        public var otherTypes: [String: Int] = [:]
        public var seconds = 0.0

        public func text() -> String {
            var lines = ["larder download: \(target)"]
            lines.append(
                fullFetch
                    ? "  full fetch\(tokenExpired ? " (the sync token had expired)" : ""): \(changedRecords) records in \(pages) page\(pages == 1 ? "" : "s")"
                    : "  changes since the last run: \(changedRecords) changed, \(deletions) deleted, in \(pages) page\(pages == 1 ? "" : "s")"
            )
            lines.append("  output      \(records) records (\(kept) kept from the previous output)")
            if imagesWritten > 0 { lines.append("  images      \(imagesWritten) written next to the output") }
            if unreadable > 0 { lines.append("  unreadable  \(unreadable): " + problems.joined(separator: "; ")) }
            if !otherTypes.isEmpty {
                let counts = otherTypes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
                lines.append("  left out    " + counts.joined(separator: ", ") + " (not Larder record types)")
            }
            lines.append(String(format: "  requests    %d in %.2f s", requests, seconds))
            return lines.joined(separator: "\n")
        }
    }

    /// The state file's header line.
    struct StateHeader: Codable {
        var format = "larder-download-state"
        var version = 1
        var target: String
        var recordType: String?
        var syncToken: String
        var outputBytes: Int
        var records: Int
    }

    /// Fetches and writes.
    /// - Returns: What was fetched, kept and written, and how long it took.
    /// - Throws: ``UploadStopped`` when the server cannot be reached or refuses; ``LarderError``
    ///   for files.
    public func run() async throws -> Report {
        let started = clock.monotonicSeconds()
        let requestsBefore = client.requestCount
        guard client.target.endpoint.database != .public else {
            throw LarderError(
                .usage,
                "download reads a zone's change feed, which only the private database has; upload to --database private"
            )
        }
        var report = Report(target: client.target.identity)
        let format =
            self.format ?? DataFormat.guess(
                fromPath: outputPath.hasSuffix(".gz") ? String(outputPath.dropLast(3)) : outputPath) ?? .json
        var state = outputPath == "-" ? nil : try loadState()
        report.fullFetch = state == nil

        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("larder-download-\(random.hex(bytes: 16))").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let spillPath = (work as NSString).appendingPathComponent("changes.ndjson")
        let namesPath = (work as NSString).appendingPathComponent("names")

        let (latest, token) = try await fetchChanges(into: spillPath, state: &state, report: &report)
        report.records = try rewriteOutput(
            format: format, keepingFrom: state, changes: spillPath, latest: latest, names: namesPath, report: &report)
        // After the output: a crash in between leaves a state that does not match it, so the next
        // run fetches everything again.
        if let statePath, let token {
            try saveState(statePath, token: token, records: report.records, names: namesPath)
        }
        report.requests = client.requestCount - requestsBefore
        report.seconds = clock.monotonicSeconds() - started
        return report
    }

    /// Fetches the zone's changes since the saved token into an NDJSON spill file, one line per
    /// change (`n` name, `v` record or `d` deleted), starting over when the token has expired.
    /// - Returns: The line of each record's newest change in the spill, and the feed's last token.
    private func fetchChanges(into spillPath: String, state: inout StateHeader?, report: inout Report) async throws
        -> (latest: [String: Int], token: String?)
    {
        var latest: [String: Int] = [:]
        var token = state?.syncToken
        var spill = try RecordIO.openWriter(path: spillPath, format: .ndjson)
        var line = 0
        let mapping = RecordMapping()
        // Images go next to the output file (not with standard output).
        let images =
            outputPath == "-"
            ? nil
            : ImageDownload(client: client, folder: PathParts.directory(of: outputPath), retry: retry, clock: clock)
        fetching: while true {
            let page: ZoneChanges
            do {
                let current = token
                let types = recordType.map { [$0.rawValue] }
                page = try await retrying("changes/zone") { () async throws(CloudKitFailure) in
                    try await client.zoneChanges(syncToken: current, resultsLimit: pageSize, recordTypes: types)
                }
            } catch let stopped as UploadStopped where stopped.failure.code == .changeTokenExpired && token != nil {
                // The saved token is no good: start over with everything.
                token = nil
                state = nil
                report.fullFetch = true
                report.tokenExpired = true
                report.changedRecords = 0
                report.deletions = 0
                latest.removeAll()
                try spill.finish()
                spill = try RecordIO.openWriter(path: spillPath, format: .ndjson)
                line = 0
                continue fetching
            }
            report.pages += 1
            for result in page.records {
                guard let record = result.record, let name = record.recordName,
                    var entry = spillEntry(record, name: name, mapping: mapping, report: &report)
                else { continue }
                if let images, let value = entry["v"], let field = record.fields?[ImageFiles.field] {
                    let (saved, written) = try await images.save(value, recordName: name, assets: field)
                    entry["v"] = saved
                    report.imagesWritten += written
                }
                try spill.write(.object(entry))
                latest[name] = line
                line += 1
            }
            if page.moreComing, page.syncToken == token {
                throw Self.noProgress(token: token)
            }
            token = page.syncToken
            if !page.moreComing { break }
        }
        try spill.finish()
        return (latest, token)
    }

    /// A server answering `moreComing` with the token it was sent would be asked the same forever.
    static func noProgress(token: String?) -> LarderError {
        LarderError(
            .network,
            "changes/zone answered moreComing: true with the sync token it was sent (\(token ?? "none")): "
                + "the feed makes no progress, so Larder stops here; the server is at fault")
    }

    /// The spill line for one change; nil for a record this download does not keep (another
    /// type, a device record, or one that does not map, which the report counts).
    private func spillEntry(_ record: Record, name: String, mapping: RecordMapping, report: inout Report) -> Fields? {
        var entry = Fields()
        entry.append(key: "n", value: .string(name))
        if record.deleted == true {
            report.deletions += 1
            entry.append(key: "d", value: true)
            return entry
        }
        if record.recordType == StoreSync.deviceRecordType { return nil }
        if let recordType, record.recordType != recordType.rawValue { return nil }
        // A share (`cloudkit.share`) or another app's type maps to no Larder record: it is counted,
        // not written as `{}`.
        guard let type = record.recordType, RecordType(rawValue: type) != nil else {
            report.otherTypes[record.recordType ?? "(none)", default: 0] += 1
            return nil
        }
        do throws(MappingError) {
            let value = try mapping.value(of: record)
            report.changedRecords += 1
            if !keepsTombstones, value["isDeleted"] == .bool(true) {
                entry.append(key: "d", value: true)
            } else {
                entry.append(key: "v", value: value)
            }
            return entry
        } catch {
            report.unreadable += 1
            if report.problems.count < 5 { report.problems.append("\(name): \(error.description)") }
            return nil
        }
    }

    /// Rewrites the output: the previous records that did not change (when there is a saved
    /// state), then each changed record's newest version; the names, in output order, go to `names`.
    /// - Returns: The number of records written.
    private func rewriteOutput(
        format: DataFormat, keepingFrom state: StateHeader?, changes spillPath: String, latest: [String: Int],
        names namesPath: String, report: inout Report
    ) throws -> Int {
        let envelope = recordType.map { EnvelopeHeader(schema: $0.rawValue, version: $0.currentVersion) }
        let writer = try RecordIO.openWriter(
            path: outputPath, format: format, gzip: gzip,
            options: WriterOptions(envelope: envelope, recordType: recordType, pretty: pretty))
        let names = try FileByteSink(path: namesPath)
        var count = 0
        if state != nil, let statePath {
            let old = try RecordIO.openReader(path: outputPath, format: format, recordType: recordType)
            let oldNames = try LineReader(path: statePath)
            _ = try oldNames.next()  // the header
            while let item = try old.next() {
                guard let name = try oldNames.next() else {
                    throw LarderError(
                        .io,
                        "\(statePath) lists fewer records than \(outputPath) holds; delete it to fetch everything again"
                    )
                }
                if latest[name] != nil { continue }
                try writer.write(item.value)
                try names.write(name + "\n")
                count += 1
                report.kept += 1
            }
        }
        let changes = try RecordIO.openReader(path: spillPath, format: .ndjson)
        var index = 0
        while let item = try changes.next() {
            defer { index += 1 }
            guard let name = item.value["n"]?.stringValue, latest[name] == index, let value = item.value["v"] else {
                continue
            }
            try writer.write(value)
            try names.write(name + "\n")
            count += 1
        }
        try writer.finish()
        try names.close()
        return count
    }

    /// Writes the state file: a header (target, type, token, the output's size and record count),
    /// then the output's record names in order.
    private func saveState(_ statePath: String, token: String, records: Int, names namesPath: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: outputPath)[.size] as? Int) ?? -1
        let header = StateHeader(
            target: client.target.identity, recordType: recordType?.rawValue, syncToken: token,
            outputBytes: size, records: records)
        let sink = try FileByteSink(path: statePath)
        try sink.write(String(decoding: try JSONEncoder().encode(header), as: UTF8.self) + "\n")
        let reader = try LineReader(path: namesPath)
        while let name = try reader.next() { try sink.write(name + "\n") }
        try sink.close()
    }

    /// The saved state, when it exists, belongs to this target and type, and matches the output.
    func loadState() throws -> StateHeader? {
        guard let statePath, FileManager.default.fileExists(atPath: statePath),
            FileManager.default.fileExists(atPath: outputPath)
        else { return nil }
        let reader = try LineReader(path: statePath)
        guard let first = try reader.next(),
            let header = try? JSONDecoder().decode(StateHeader.self, from: Data(first.utf8))
        else {
            throw LarderError(
                .usage, "\(statePath) is not a larder download state; delete it to fetch everything again",
                location: SourceLocation(file: statePath, line: 1))
        }
        guard header.format == "larder-download-state", header.target == client.target.identity else {
            throw LarderError(
                .usage, "\(statePath) belongs to \(header.target), not \(client.target.identity); give another --state",
                location: SourceLocation(file: statePath, line: 1))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: outputPath)[.size] as? Int) ?? -1
        guard header.recordType == recordType?.rawValue, size == header.outputBytes else { return nil }
        return header
    }

    func retrying<T>(_ context: String, _ body: () async throws(CloudKitFailure) -> T) async throws -> T {
        try await retry.perform(context, clock: clock, body)
    }
}

/// Reads a text file line by line, streaming.
final class LineReader {
    private let source: any ByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    private var isAtEnd = false

    init(path: String) throws {
        source = try FileByteSource(path: path)
    }

    func next() throws -> String? {
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[position..<newline], as: UTF8.self)
                position = newline + 1
                return line
            }
            if isAtEnd {
                guard position < buffer.count else { return nil }
                let line = String(decoding: buffer[position...], as: UTF8.self)
                position = buffer.count
                return line
            }
            buffer.removeFirst(position)
            position = 0
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { isAtEnd = true } else { buffer.append(contentsOf: chunk[..<count]) }
        }
    }
}
