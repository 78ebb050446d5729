import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Runs imports and exports for the exporter tests, and reads what the exporters wrote.
enum ExportFixtures {
    /// Imports `path` as `format` into `directory/<name>.json` (images beside it) and returns the records file and recipes.
    static func importRecipes(
        _ path: String, format: ImportFormat?, into directory: TemporaryDirectory, name: String = "imported"
    ) throws -> (records: String, recipes: [Recipe]) {
        let output = directory.path("\(name).json")
        let session = try ImportSession(
            options: ImportSession.Options(outputPath: output, keepGoing: false, importedAt: fixtureDate))
        let report = try session.run([(path, format)])
        #expect(report.rejected.isEmpty, "\(report.rejected.map(\.origin))")
        var recipes: [Recipe] = []
        if FileManager.default.fileExists(atPath: output) {
            let reader = try RecordIO.openReader(path: output)
            while let item = try reader.next() { recipes.append(try Recipe(value: item.value)) }
        }
        return (output, recipes)
    }

    /// Writes `recipes` as a Larder records file at `path`.
    static func writeRecords(_ recipes: [Recipe], to path: String) throws {
        let writer = try RecordIO.openWriter(path: path, format: .json)
        for recipe in recipes { try writer.write(recipe.value) }
        try writer.finish()
    }

    /// Exports the records file `records` to `format` at `output`; fails on any rejected record.
    @discardableResult
    static func export(_ records: String, to format: ExportFormat, output: String) throws -> ExportSession.Summary {
        try ExportSession(inputs: [records], format: format, outputPath: output, keepGoing: false).run { _, error in
            throw error
        }
    }

    /// Every byte a source gives.
    static func bytes(_ source: any ByteSource) throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// The entries of a zip archive, path → bytes, in archive order.
    static func zipEntries(_ path: String) throws -> [(String, [UInt8])] {
        let archive = try ZipArchive(path: path)
        var out: [(String, [UInt8])] = []
        while let entry = try archive.nextEntry() { out.append((entry.path, try bytes(archive.open(entry)))) }
        return out
    }

    /// The entries of a zip archive held in memory (written to a temporary file first).
    static func zipEntries(bytes: [UInt8], in directory: TemporaryDirectory) throws -> [(String, [UInt8])] {
        let path = directory.path("inner-\(UUID().uuidString).zip")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try zipEntries(path)
    }

    /// A JSON object from bytes.
    static func object(_ bytes: [UInt8]) throws -> Fields {
        try #require(try JSONLDBlocks.parse(MemoryByteSource(bytes)).objectValue)
    }

    /// A JSON object from text.
    static func object(_ text: String) throws -> Fields {
        try object(Array(text.utf8))
    }

    /// Whether `unzip -t` is installed and accepts the archive (`nil` when `unzip` is not installed).
    static func unzipAccepts(_ path: String) -> Bool? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-tq", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// Compares an exported record with the source record it came from, field by field, after the
/// documented normalisation: text with its whitespace collapsed, numbers as numbers whatever
/// their JSON type (`4` and `4.0`), objects without regard to key order, a null member the same
/// as an absent one.
struct RecordComparison {
    /// Keys the import must carry into a Larder field or `extras`, with a test of whether the
    /// imported recipe holds each: checked before the key is compared like the others.
    var importCarries: [String: (Recipe) -> Bool] = [:]
    /// Per-key normalisation beyond the common one (lists of tag objects by name, times as minutes…).
    var normalise: [String: (Value) -> Value] = [:]

    /// The common normalisation.
    static func normalised(_ value: Value) -> Value {
        switch value {
        case .string(let s):
            return .string(s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " "))
        case .int(let i): return .double(Double(i))
        case .array(let a): return .array(a.map(normalised))
        case .object(let o):
            let sorted = o.sorted { $0.key < $1.key }.map { Field(key: $0.key, value: normalised($0.value)) }
            return .object(Fields(uncheckedUniqueElements: sorted))
        default: return value
        }
    }

    /// Expects every member of `source` (but the keys in `skipping`) to be in `exported` with an
    /// equal value, and the keys of ``importCarries`` to be held by `imported`.
    func expectEqual(
        source: Fields, exported: Fields, imported: Recipe?, skipping: Set<String> = [],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for member in source where !skipping.contains(member.key) {
            if let imported, let isCarried = importCarries[member.key], !FieldCensus.isEmpty(member.value) {
                let carried = isCarried(imported)
                #expect(carried, "the import carries \(member.key)", sourceLocation: sourceLocation)
            }
            let normalise = self.normalise[member.key] ?? { $0 }
            let expected = Self.normalised(normalise(member.value))
            // A null and an absent member say the same.
            let actual =
                exported[member.key].map { Self.normalised(normalise($0)) } ?? (expected == .null ? .null : nil)
            #expect(actual == expected, "field \(member.key)", sourceLocation: sourceLocation)
        }
    }

    /// A list of objects reduced to some of their members (Mealie's tags without ids).
    static func members(_ keys: [String]) -> (Value) -> Value {
        { value in
            .array(
                (value.arrayValue ?? []).map { element in
                    var kept = Fields()
                    for key in keys { kept[key] = element[key] ?? .null }
                    return .object(kept)
                })
        }
    }

    /// A duration text as whole minutes.
    static func minutes(_ value: Value) -> Value {
        guard let text = value.stringValue else { return value }
        return RecipeTime.minutes(from: text).map { .int(Int64($0)) } ?? .null
    }

    /// A date text as seconds since 1970.
    static func date(_ value: Value) -> Value {
        guard let text = value.stringValue, let date = RecipeDate.parse(text) else { return value }
        return .double(date.timeIntervalSince1970)
    }
}

extension Recipe {
    /// Whether `extras[format]` holds `key`.
    func keepsExtra(_ format: ImportFormat, _ key: String) -> Bool {
        extras[format.rawValue]?[key] != nil
    }

    /// The recipe with `keys` of `source` set in `extras[format]`, as an import that keeps them does.
    func withExtras(_ format: ImportFormat, from source: Fields, keys: [String]) -> Recipe {
        var copy = self
        var kept = extras[format.rawValue]?.objectValue ?? Fields()
        for key in keys { kept[key] = source[key] }
        copy.extras[format.rawValue] = .object(kept)
        return copy
    }
}
