import Foundation
import LarderCore
import LarderFormats

/// The output files of an import, one writer per record type, opened when the first record of
/// the type arrives.
///
/// With `merge`, an output file that already exists is read first and its records written again
/// (their ids handed to ``DuplicateFilter``); else it is replaced. When the run writes several
/// record types to a file, each goes to its own (`out.json` → `out.brewLog.json`).
final class ImportOutputs {
    private let options: ImportSession.Options
    private var writers: [RecordType: any RecordWriter] = [:]
    /// Whether each record type goes to its own file.
    var splitByType = false
    /// Records kept from existing outputs.
    private(set) var carriedOver = 0
    /// Existing outputs replaced.
    private(set) var replaced: [String] = []
    /// The files written.
    private(set) var paths: [String] = []

    /// Outputs as `options` say.
    init(options: ImportSession.Options) {
        self.options = options
    }

    /// Whether the outputs are files (not standard output).
    var areFiles: Bool { options.outputPath != nil && options.outputPath != "-" }

    /// The writer for `type`, opened (and an existing output's records carried into `duplicates`
    /// with `merge`) on first use.
    /// - Throws: ``LarderError`` when the output cannot be opened or an existing one read.
    func writer(for type: RecordType, duplicates: inout DuplicateFilter) throws -> any RecordWriter {
        if let writer = writers[type] { return writer }
        let path = outputPath(for: type)
        var existing: [Value] = []
        if let path, !options.merge, FileManager.default.fileExists(atPath: path) { replaced.append(path) }
        if let path, options.merge, FileManager.default.fileExists(atPath: path),
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap({ $0 }) ?? 0 > 0
        {
            // Keep what an earlier run imported; those ids count as already there.
            let reader = try RecordIO.openReader(path: path, recordType: type, limits: options.limits)
            while let item = try reader.next() {
                existing.append(item.value)
                if let id = item.value["id"]?.stringValue {
                    let name =
                        item.value["title"]?.stringValue ?? item.value["name"]?.stringValue ?? item.value[
                            "recipeNameAtBrew"]?.stringValue ?? id
                    duplicates.carry(id: id, name: name, type: type)
                }
            }
        }
        let useEnvelope = path != nil && options.outputFormat != .ndjson
        let writerOptions = WriterOptions(
            envelope: useEnvelope ? EnvelopeHeader(schema: type.rawValue, version: type.currentVersion) : nil,
            recordType: type,
            pretty: options.outputFormat == .json && path != nil)
        let writer = try RecordIO.openWriter(path: path, format: options.outputFormat, options: writerOptions)
        for value in existing { try writer.write(value) }
        carriedOver += existing.count
        writers[type] = writer
        if let path { paths.append(path) }
        return writer
    }

    /// Finishes every writer (moving the files into place); with nothing written to a file output,
    /// still leaves a valid empty one.
    /// - Throws: ``LarderError`` when a file cannot be written.
    func finish() throws {
        for (_, writer) in writers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { try writer.finish() }
        if writers.isEmpty, areFiles, let path = options.outputPath, !splitByType {
            var none = DuplicateFilter()
            try writer(for: .recipe, duplicates: &none).finish()
            paths = [path]
        }
    }

    /// `out.json` → `out.brewLog.json` when the run writes several record types.
    private func outputPath(for type: RecordType) -> String? {
        guard areFiles, let path = options.outputPath else { return nil }
        guard splitByType else { return path }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let file = String(path.dropFirst(directory.count))
        guard let dot = file.firstIndex(of: ".") else { return path + "." + type.rawValue }
        let stem: String = directory + file[..<dot]
        return stem + "." + type.rawValue + String(file[dot...])
    }
}
