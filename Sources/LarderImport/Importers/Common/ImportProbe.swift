import Foundation
import LarderCore
package import LarderFormats

/// What detection shows a plugin of one input: a file's name and first bytes (decompressed), an
/// archive's entry names, a folder's file names, and the first bytes of any of those on demand.
///
/// The parsed heads (JSON keys, YAML keys, XML element names) are computed once, when the first
/// plugin asks, and shared by all of them.
package final class ImportProbe {
    /// What the input is.
    package enum Kind: Sendable {
        /// One file (not a zip archive).
        case file
        /// A zip archive.
        case archive
        /// A folder.
        case folder
    }

    /// How a file's first bytes are written.
    package enum Syntax: Sendable {
        /// Markup: `<` first (XML, HTML).
        case markup
        /// JSON: `{` or `[` first, and not a YAML name.
        case json
        /// YAML, by its name or its content.
        case yaml
        /// Anything else (text, CSV, labelled exports).
        case text
    }

    /// One file of an archive or a folder.
    package struct Entry: Sendable {
        /// Its path relative to the archive or folder, as written.
        package var path: String
        /// Its path lowercased.
        package var lowercasedPath: String
        /// Its file name lowercased.
        package var name: String
        /// The zip entry, for an archive.
        package var zipEntry: ZipEntry?
    }

    /// What the input is.
    package let kind: Kind
    /// The input's path.
    package let path: String
    /// The file's name lowercased (`.gz` removed from a gzip file whose inner name says its
    /// format); for an archive or a folder, its name lowercased.
    package let name: String
    /// The run's options.
    package let options: ImportOptions
    /// A file's first ``ImportDetector/sniffLength`` bytes, decompressed (empty for an archive or a folder).
    package let head: [UInt8]
    /// Whether a file is gzip-compressed.
    package let isGzip: Bool
    /// An archive's or a folder's files (hidden ones and archive folders left out), in their order.
    package let entries: [Entry]

    private let archive: ZipArchive?
    private var heads: [String: [UInt8]] = [:]

    /// A probe of one file whose first bytes are known.
    package init(file path: String, name: String, head: [UInt8], isGzip: Bool = false, options: ImportOptions) {
        kind = .file
        self.path = path
        self.name = name
        self.head = head
        self.isGzip = isGzip
        self.options = options
        entries = []
        archive = nil
    }

    /// A probe of a zip archive: its entry names (only its central directory is read).
    /// - Throws: ``LarderError`` when the archive cannot be read.
    package init(archive path: String, options: ImportOptions) throws {
        kind = .archive
        self.path = path
        name = Self.fileName(path)
        self.options = options
        head = []
        isGzip = false
        let archive = try ZipArchive(path: path)
        var entries: [Entry] = []
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            entries.append(
                Entry(
                    path: entry.path, lowercasedPath: entry.path.lowercased(), name: entry.fileName.lowercased(),
                    zipEntry: entry))
        }
        self.entries = entries
        self.archive = archive
    }

    /// A probe of a folder: the paths of the files below it (hidden ones included, as an app's
    /// export may hold them), sorted.
    package init(folder path: String, options: ImportOptions) {
        kind = .folder
        self.path = path
        name = Self.fileName(path)
        self.options = options
        head = []
        isGzip = false
        let files = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
        entries = files.map {
            Entry(path: $0, lowercasedPath: $0.lowercased(), name: Self.fileName($0), zipEntry: nil)
        }
        archive = nil
    }

    /// The last path component, lowercased.
    static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path)).lowercased()
    }

    // MARK: A file's head

    /// The head as text (invalid UTF-8 replaced).
    package private(set) lazy var text: String = String(decoding: head, as: UTF8.self)

    /// The text from its first character that is not white space or a byte order mark.
    package private(set) lazy var trimmed: Substring = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }

    /// How the head is written.
    package private(set) lazy var syntax: Syntax = {
        let isYAMLName = name.hasSuffix(".yaml") || name.hasSuffix(".yml")
        if trimmed.hasPrefix("<"), !isYAMLName { return .markup }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("["), !isYAMLName { return .json }
        if isYAMLName || (DataFormat.guess(fromPath: name) == nil && DataFormat.sniff(head) == .yaml) {
            return .yaml
        }
        return .text
    }()

    /// Whether the head does not start with `{`, `[` or `<` (text formats: labelled exports, CSV, MealMaster).
    package var isPlainText: Bool {
        !trimmed.hasPrefix("{") && !trimmed.hasPrefix("[") && !trimmed.hasPrefix("<")
    }

    /// The head's JSON keys, when it is JSON.
    package private(set) lazy var jsonKeys: ContentKeys? = syntax == .json ? ContentKeys(json: text) : nil

    /// The head's YAML keys, when it is YAML.
    package private(set) lazy var yamlKeys: ContentKeys? = syntax == .yaml ? ContentKeys(yaml: text) : nil

    /// The head lowercased, when it is markup.
    package private(set) lazy var lowercasedMarkup: String? = syntax == .markup ? trimmed.lowercased() : nil

    /// The head's XML element names, when it is markup.
    package private(set) lazy var xmlKeys: ContentKeys? = lowercasedMarkup.map { ContentKeys(xml: $0) }

    /// Whether the markup is a web page (HTML, or holding JSON-LD).
    package var isWebPage: Bool {
        guard let lowered = lowercasedMarkup else { return false }
        return lowered.contains("<html") || lowered.contains("<!doctype html")
            || lowered.contains("application/ld+json")
    }

    /// Whether the name ends with one of `suffixes`.
    package func nameEnds(with suffixes: String...) -> Bool { suffixes.contains { name.hasSuffix($0) } }

    // MARK: Entries

    /// The first entry (in order) that `test` keeps.
    package func firstEntry(where test: (Entry) -> Bool) -> Entry? { entries.first(where: test) }

    /// Whether some entry passes `test`.
    package func hasEntry(where test: (Entry) -> Bool) -> Bool { entries.contains(where: test) }

    /// The first ``ImportDetector/sniffLength`` bytes of an entry (decompressed), read once.
    /// - Throws: ``LarderError`` when it cannot be read.
    package func head(of entry: Entry) throws -> [UInt8] {
        if let known = heads[entry.path] { return known }
        let bytes: [UInt8]
        if let archive, let zipEntry = entry.zipEntry {
            bytes = try archive.open(zipEntry).readPrefix(ImportDetector.sniffLength)
        } else {
            bytes = try FileByteSource(path: path + "/" + entry.path).readPrefix(ImportDetector.sniffLength)
        }
        heads[entry.path] = bytes
        return bytes
    }

    /// An entry's head as text.
    /// - Throws: as ``head(of:)``.
    package func text(of entry: Entry) throws -> String { String(decoding: try head(of: entry), as: UTF8.self) }

    /// Calls `body` with the path of a temporary copy of an archive's entry (a zip inside the zip,
    /// or an entry read alone by an importer of files; `keepingName`: the copy has the entry's file
    /// name, which some importers read); a folder's file is its own path.
    /// - Throws: ``LarderError`` when it cannot be extracted, or what `body` throws.
    package func withExtracted<T>(_ entry: Entry, keepingName: Bool = false, _ body: (String) throws -> T) throws -> T {
        guard let archive, let zipEntry = entry.zipEntry else { return try body(path + "/" + entry.path) }
        return try archive.withExtracted(zipEntry, archive: path, keepingName: keepingName, body)
    }
}
