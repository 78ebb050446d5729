import Foundation
import LarderCore
import LarderFormats

/// The one detection path of `larder import`: for a file, an archive or a folder, it asks every
/// registered plugin (``ImportPlugins/all``) how sure it is, and picks the surest; ties go to the
/// plugin registered first.
///
/// - A file is read by the format that claims it.
/// - An archive is read whole by a format that claims it as an export (Paprika's zip, Recipe
///   Keeper's, …); else each entry is detected as a file of its own and read alone.
/// - A folder is read whole by a format that claims it as one export (a Nextcloud or Cooklang
///   folder, an OpenEats dump split over several files); else every file below it is detected
///   alone (an archive among them as above), and the files nothing claims are listed.
///
/// With a format forced (`--from`), everything below a folder and inside an archive is read as
/// that format: the folder or archive whole when the format reads those, else each file that the
/// format claims or whose name ends as its files do.
package enum ImportDetector {
    /// How much of a file's (decompressed) content detection reads.
    package static let sniffLength = 64 * 1024

    /// One piece of an import: an input read whole by one importer, or an archive's entry.
    package struct Unit {
        /// The file, archive or folder.
        package var path: String
        /// The archive's entry, when the unit is one (the archive is `path`, opened again to read it:
        /// a plan holds no open file, whatever the number of archives in a folder).
        package var entry: ImportProbe.Entry?
        /// The format that reads it.
        package var format: ImportFormat
    }

    /// What detection found for one input.
    package struct Plan {
        /// What to import, in order.
        package var units: [Unit] = []
        /// Files of a folder or entries of an archive that nothing claimed: their origin and why.
        package var unclaimed: [(origin: ImportOrigin, reason: String)] = []
    }

    /// What to import for `path`, and with which format.
    /// - Throws: ``LarderError`` `usage-error` when nothing in it is a format Larder reads (or a
    ///   single file's format cannot be told), `io-error` when it cannot be read.
    package static func plan(path: String, forced: ImportFormat?, options: ImportOptions) throws -> Plan {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LarderError(.io, "no such file or folder", location: SourceLocation(file: path))
        }
        let forcedPlugin = try forced.map(plugin)
        var plan = Plan()
        if isDirectory.boolValue {
            try planFolder(path, forced: forcedPlugin, options: options, into: &plan)
            if plan.units.isEmpty {
                throw LarderError(
                    .usage,
                    forcedPlugin.map {
                        "no file in this folder is \($0.displayName): looked for \($0.lookedFor)"
                    }
                        ?? "no file in this folder is a recipe export Larder reads: \(plan.unclaimed.count) file"
                        + "\(plan.unclaimed.count == 1 ? "" : "s") checked against \(checkedNames); pass --from to "
                        + "read them as one format",
                    location: SourceLocation(file: path))
            }
            return plan
        }
        let probe = try fileProbe(path, options: options)
        if let forcedPlugin {
            if probe.kind == .archive, !forcedPlugin.readsWhole(probe) {
                try planEntries(probe, forced: forcedPlugin, options: options, into: &plan)
                if plan.units.isEmpty {
                    throw LarderError(
                        .usage,
                        "no entry of this archive is \(forcedPlugin.displayName): looked for "
                            + forcedPlugin.lookedFor, location: SourceLocation(file: path))
                }
            } else {
                plan.units.append(Unit(path: path, format: forcedPlugin.format))
            }
            return plan
        }
        try planFile(probe, options: options, into: &plan, alone: true)
        return plan
    }

    /// The format of the file or folder at `path`: the one format detection picks for it.
    /// - Throws: as ``plan(path:forced:options:)``; `usage-error` for a folder no format reads
    ///   whole (`larder import` then reads each file in it).
    package static func detect(path: String, options: ImportOptions = ImportOptions()) throws -> ImportFormat {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let probe = ImportProbe(folder: path, options: options)
            if let plugin = try best(probe) { return plugin.format }
            throw LarderError(
                .usage,
                "a folder no format reads as one export (\(names(ImportPlugins.all.filter { $0.reads.contains(.folders) })));"
                    + " `larder import` reads each file in it instead", location: SourceLocation(file: path))
        }
        let plan = try plan(path: path, forced: nil, options: options)
        guard let first = plan.units.first else {
            throw LarderError(.usage, "no recipe format claims this file", location: SourceLocation(file: path))
        }
        return first.format
    }

    /// The plugin registered for `format`.
    /// - Throws: ``LarderError`` `usage-error` for a format no plugin reads.
    package static func plugin(_ format: ImportFormat) throws -> any ImportPlugin {
        guard let plugin = ImportPlugins.named[format.rawValue] else {
            throw LarderError(
                .usage,
                "no importer reads \"\(format.rawValue)\"; formats: "
                    + ImportPlugins.all.map(\.format.rawValue).joined(separator: ", "))
        }
        return plugin
    }

    /// The surest plugin that reads `probe` as it is, if any claims it.
    /// - Throws: ``LarderError`` `io-error` when a file a plugin looks into cannot be read.
    static func best(_ probe: ImportProbe) throws -> (any ImportPlugin)? {
        var best: (plugin: any ImportPlugin, confidence: ImportConfidence)?
        for plugin in ImportPlugins.all where plugin.readsWhole(probe) {
            let confidence = try plugin.claims(probe)
            if confidence > (best?.confidence ?? .none) { best = (plugin, confidence) }
        }
        return best?.plugin
    }

    /// A probe of the file at `path`: an archive probe for a zip; a gzip file's head decompressed.
    /// - Throws: ``LarderError`` `io-error` when it cannot be read.
    static func fileProbe(_ path: String, options: ImportOptions) throws -> ImportProbe {
        var head = try FileByteSource(path: path).readPrefix(sniffLength)
        var name = ImportProbe.fileName(path)
        let isGzip = GzipReader.isGzip(head)
        if isGzip {
            if name.hasSuffix(".gz") { name.removeLast(3) }
            head = try GzipReader(FileByteSource(path: path)).readPrefix(sniffLength)
        }
        if !isGzip, ZipArchive.isZip(head) { return try ImportProbe(archive: path, options: options) }
        return ImportProbe(file: path, name: name, head: head, isGzip: isGzip, options: options)
    }

    /// Plans one file (or archive) found by auto-detection; `alone`: given on the command line,
    /// where a file nothing claims is an error, not a listed file.
    private static func planFile(_ probe: ImportProbe, options: ImportOptions, into plan: inout Plan, alone: Bool)
        throws
    {
        // A file an app's plugin recognises but cannot read (another of its export formats) is
        // refused with that plugin's reason, before a generic reader takes it.
        let refusal = ImportPlugins.all.lazy.compactMap { $0.refusal(probe) }.first
        if refusal == nil, let plugin = try best(probe) {
            plan.units.append(Unit(path: probe.path, format: plugin.format))
            return
        }
        if probe.kind == .archive {
            let before = plan.units.count
            try planEntries(probe, forced: nil, options: options, into: &plan)
            if plan.units.count > before || !alone { return }
            throw LarderError(
                .usage,
                "a zip archive of no recipe format Larder knows: its entries match none of \(checkedNames); pass --from",
                location: SourceLocation(file: probe.path))
        }
        if alone {
            throw LarderError(
                .usage,
                refusal ?? "cannot tell which recipe format this is: its content matches none of \(checkedNames); "
                    + "pass --from (\(ImportPlugins.all.map(\.format.rawValue).joined(separator: "|")))",
                location: SourceLocation(file: probe.path))
        }
        plan.unclaimed.append(
            (
                ImportOrigin(file: probe.path),
                refusal ?? "no recipe format claims this file (checked against \(checkedNames))"
            ))
    }

    /// Plans the entries of an archive that no format reads whole: each entry detected alone, or
    /// read as `forced` when that format claims it or its name ends as that format's files do.
    private static func planEntries(
        _ probe: ImportProbe, forced: (any ImportPlugin)?, options: ImportOptions, into plan: inout Plan
    ) throws {
        for entry in probe.entries where !isImageFile(entry.name) {
            let entryProbe = ImportProbe(
                file: probe.path + "!" + entry.path, name: entry.name, head: try probe.head(of: entry), options: options
            )
            let origin = ImportOrigin(file: probe.path, entry: entry.path)
            if let forced {
                if try reads(forced, entryProbe) {
                    plan.units.append(Unit(path: probe.path, entry: entry, format: forced.format))
                } else {
                    plan.unclaimed.append((origin, notRead(as: forced)))
                }
            } else {
                let refusal = ImportPlugins.all.lazy.compactMap { $0.refusal(entryProbe) }.first
                if refusal == nil, let plugin = try best(entryProbe) {
                    plan.units.append(Unit(path: probe.path, entry: entry, format: plugin.format))
                } else {
                    plan.unclaimed.append(
                        (origin, refusal ?? "no recipe format claims this entry (checked against \(checkedNames))"))
                }
            }
        }
    }

    /// Plans a folder: whole when a format reads it as one export, else file by file.
    private static func planFolder(
        _ path: String, forced: (any ImportPlugin)?, options: ImportOptions, into plan: inout Plan
    ) throws {
        let probe = ImportProbe(folder: path, options: options)
        if let forced, forced.reads.contains(.folders) {
            plan.units.append(Unit(path: path, format: forced.format))
            return
        }
        if forced == nil, let plugin = try best(probe) {
            plan.units.append(Unit(path: path, format: plugin.format))
            return
        }
        for entry in probe.entries {
            if entry.path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) || isImageFile(entry.name) {
                continue
            }
            let file = path + "/" + entry.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            let fileProbe: ImportProbe
            do {
                fileProbe = try self.fileProbe(file, options: options)
            } catch let error as LarderError {
                plan.unclaimed.append((ImportOrigin(file: path, entry: entry.path), error.message))
                continue
            }
            let before = plan.unclaimed.count
            if let forced {
                if fileProbe.kind == .archive, !forced.readsWhole(fileProbe) {
                    try planEntries(fileProbe, forced: forced, options: options, into: &plan)
                } else if try reads(forced, fileProbe) {
                    plan.units.append(Unit(path: file, format: forced.format))
                } else {
                    plan.unclaimed.append((ImportOrigin(file: file), notRead(as: forced)))
                }
            } else {
                try planFile(fileProbe, options: options, into: &plan, alone: false)
            }
            // A file of the folder is named by its path inside the folder.
            for index in before..<plan.unclaimed.count where plan.unclaimed[index].origin.file == file {
                plan.unclaimed[index].origin = ImportOrigin(file: path, entry: entry.path)
            }
        }
    }

    /// Whether a forced format reads a file of a folder or an archive: its importer reads it whole,
    /// and it claims the file or the file's name ends as its files do.
    private static func reads(_ plugin: any ImportPlugin, _ probe: ImportProbe) throws -> Bool {
        guard plugin.readsWhole(probe) else { return false }
        if plugin.fileExtensions.contains(where: { probe.name.hasSuffix($0) }) { return true }
        return try plugin.claims(probe) > .none
    }

    /// Why a file was left out under `--from`.
    private static func notRead(as plugin: any ImportPlugin) -> String {
        let endings =
            plugin.fileExtensions.isEmpty
            ? ""
            : "its name does not end in "
                + plugin.fileExtensions.joined(separator: ", ") + " and "
        return
            "not read as \(plugin.displayName) (--from \(plugin.format.rawValue)): \(endings)its content is not \(plugin.displayName)'s"
    }

    /// The display names of every format, for "checked against" messages.
    static var checkedNames: String { names(ImportPlugins.all) }

    /// `A, B and C` of the plugins' display names.
    static func names(_ plugins: [any ImportPlugin]) -> String {
        let names = plugins.map(\.displayName)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " and " : "") + (names.last ?? "")
    }

    /// Whether a file in a folder or archive is a picture (the recipes' images, not a recipe).
    static func isImageFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic", ".avif", ".bmp", ".tif", ".tiff", ".svg"]
            .contains { lower.hasSuffix($0) }
    }
}
