import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import LarderImport
import LarderRegistry
import LarderSystem

/// The fuzz targets of files and wire formats: each feeds arbitrary bytes to one parser the way the
/// product does, and swallows the errors the parser is allowed to throw (a ``LarderError`` or a
/// decoding error).
///
/// A crash, a trap, a hang or a sanitizer report is a finding. The same functions run in
/// `make test` over the regression corpus (`Fuzz/regressions/<target>/`) and over seeds made from
/// `samples/`, where each returns how many items it read, so a target that silently reads
/// nothing shows up as a failing test. `make fuzz` runs them under libFuzzer (`Fuzz/Entry`, the
/// `larder-fuzz` binary, which links no emulator); the emulator's request bodies are
/// `EmulatorFuzzTargets` (LarderEmulatorFuzzing, `larder-fuzz-emulator`).
package enum FuzzTargets {
    /// One target: its name (the corpus folder and `LARDER_FUZZ_TARGET`) and its entry.
    package struct Target: Sendable {
        package var name: String
        /// Seeds from `samples/`: file name suffixes this target reads.
        package var seedSuffixes: [String]
        package var run: @Sendable ([UInt8]) -> Int

        /// A target called `name` that reads files ending in `seedSuffixes` and runs `run` on each input.
        package init(name: String, seedSuffixes: [String], run: @escaping @Sendable ([UInt8]) -> Int) {
            self.name = name
            self.seedSuffixes = seedSuffixes
            self.run = run
        }
    }

    /// Every target of this module, by name.
    package static let all: [Target] = [
        Target(name: "json", seedSuffixes: [".json"]) { records($0, .json) },
        Target(name: "ndjson", seedSuffixes: [".ndjson", ".json"]) { records($0, .ndjson) },
        Target(name: "yaml", seedSuffixes: [".yaml", ".yml"]) { records($0, .yaml) },
        Target(name: "xml", seedSuffixes: [".xml"]) { records($0, .xml) },
        Target(name: "sniff", seedSuffixes: [".json", ".yaml", ".xml", ".gz"]) { sniffed($0) },
        Target(name: "gzip", seedSuffixes: [".gz"]) { gunzip($0) },
        Target(name: "zip", seedSuffixes: [".zip", ".paprikarecipes", ".melarecipes"]) { zipEntries($0) },
        Target(name: "html-jsonld", seedSuffixes: [".html", ".htm"]) { jsonLDBlocks($0) },
        Target(name: "schemaorg", seedSuffixes: [".html"]) { imported($0, .schemaorg, ext: "html") },
        Target(name: "recipeml", seedSuffixes: [".xml"]) { imported($0, .recipeml, ext: "xml") },
        Target(name: "cooklang", seedSuffixes: [".cook"]) { cooklang($0) },
        Target(name: "orf", seedSuffixes: [".yaml", ".yml"]) { imported($0, .orf, ext: "yaml") },
        Target(name: "plain", seedSuffixes: [".json", ".yaml", ".xml"]) { plainRecipes($0) },
        Target(name: "paprika-entry", seedSuffixes: [".paprikarecipe"]) { paprikaEntry($0) },
        Target(name: "paprika", seedSuffixes: [".paprikarecipes"]) { imported($0, .paprika, ext: "paprikarecipes") },
        Target(name: "mela", seedSuffixes: [".melarecipe"]) { imported($0, .mela, ext: "melarecipe") },
        Target(name: "ingredient-line", seedSuffixes: [".txt"]) { ingredientLines($0) },
        Target(name: "manifest", seedSuffixes: ["registry.yaml"]) { manifest($0) },
        Target(name: "ck-request", seedSuffixes: [".ckrequest.json"]) { cloudKitRequest($0) },
        Target(name: "change-token", seedSuffixes: [".token"]) { changeToken($0) },
        Target(name: "html-text", seedSuffixes: [".html"]) { htmlText($0) },
        Target(name: "ingredient-repair", seedSuffixes: [".txt"]) { repairedIngredientLine($0) },
        Target(name: "mealmaster", seedSuffixes: [".mmf", ".mm"]) { imported($0, .mealmaster, ext: "mmf") },
        Target(name: "csv", seedSuffixes: [".csv"]) { imported($0, .csv, ext: "csv") },
        Target(name: "cookmate", seedSuffixes: [".mcb"]) { imported($0, .cookmate, ext: "mcb") },
        Target(name: "recettetek", seedSuffixes: [".rtk"]) { imported($0, .recettetek, ext: "rtk") },
        Target(name: "rezeptsuite", seedSuffixes: [".xml"]) { imported($0, .rezeptsuite, ext: "xml") },
        Target(name: "domestica", seedSuffixes: [".json"]) { imported($0, .domestica, ext: "json") },
        Target(name: "cookn", seedSuffixes: [".zip"]) { imported($0, .cookn, ext: "zip") },
        Target(name: "pepperplate", seedSuffixes: ["pepperplate-export.zip"]) {
            imported($0, .pepperplate, ext: "zip")
        },
        Target(name: "cheftap", seedSuffixes: ["cheftap-export.zip"]) { imported($0, .cheftap, ext: "zip") },
        Target(name: "saffron", seedSuffixes: ["saffron-export.zip"]) { imported($0, .saffron, ext: "zip") },
        Target(name: "gourmet", seedSuffixes: ["gourmet-export.zip"]) { imported($0, .gourmet, ext: "zip") },
        Target(name: "cookbookapp", seedSuffixes: ["cookbookapp-export.zip", "cookbookapp-yaml.zip"]) {
            imported($0, .cookbookapp, ext: "zip")
        },
        Target(name: "bigoven", seedSuffixes: ["bigoven-recipes.json", "bigoven-recipes.csv"]) {
            imported($0, .bigoven, ext: "json")
        },
    ]

    /// The target called `name`.
    package static func named(_ name: String) -> Target? { all.first { $0.name == name } }

    /// Reads records until the end, going on after a bad record as the CLI's `--keep-going` does
    /// (bounded, so a reader that never advances is a hang the fuzzer reports).
    static func records(_ bytes: [UInt8], _ format: DataFormat) -> Int {
        guard let reader = try? RecordIO.openReader(source: MemoryByteSource(bytes, name: "fuzz"), format: format)
        else { return 0 }
        return drain(reader)
    }

    /// Reads like ``ConversionPipeline`` with `--keep-going`: after an error, on only when the
    /// reader says it can recover (NDJSON lines); a reader that errs without moving on is a hang.
    static func drain(_ reader: any RecordReader) -> Int {
        var count = 0
        var errors = 0
        while count + errors < 100_000 {
            do {
                guard try reader.next() != nil else { break }
                count += 1
            } catch {
                errors += 1
                if !reader.canRecover { break }
            }
        }
        return count
    }

    static func sniffed(_ bytes: [UInt8]) -> Int {
        guard let (source, format) = try? RecordIO.sniff(MemoryByteSource(bytes, name: "fuzz")),
            let reader = try? RecordIO.openReader(source: source, format: format)
        else { return 0 }
        return drain(reader)
    }

    static func gunzip(_ bytes: [UInt8]) -> Int {
        guard let reader = try? GzipReader(MemoryByteSource(bytes, name: "fuzz")) else { return 0 }
        return (try? readAll(reader, limit: 64 << 20).count) ?? 0
    }

    static func readAll(_ source: any ByteSource, limit: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while out.count < limit {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    static func zipEntries(_ bytes: [UInt8]) -> Int {
        withTemporaryFile(bytes, ext: "zip") { path in
            guard let archive = try? ZipArchive(path: path) else { return 0 }
            var count = 0
            while count < 10_000, let entry = (try? archive.nextEntry()).flatMap({ $0 }) {
                _ = try? entry.safeRelativePath(archive: path)
                if let source = try? archive.open(entry) { _ = try? readAll(source, limit: 64 << 20) }
                count += 1
            }
            return count
        }
    }

    static func jsonLDBlocks(_ bytes: [UInt8]) -> Int {
        let scanner = HTMLJSONLDScanner(source: MemoryByteSource(bytes, name: "fuzz"))
        var count = 0
        while count < 10_000, (try? scanner.nextBlock()).flatMap({ $0 }) != nil { count += 1 }
        return count
    }

    static func cooklang(_ bytes: [UInt8]) -> Int {
        let recipe = CooklangParser.parse(String(decoding: bytes, as: UTF8.self))
        return recipe.steps.count + recipe.metadata.count
    }

    static func paprikaEntry(_ bytes: [UInt8]) -> Int {
        var json = bytes
        if GzipReader.isGzip(bytes) {
            guard let reader = try? GzipReader(MemoryByteSource(bytes, name: "fuzz")),
                let inflated = try? readAll(reader, limit: 16 << 20)
            else { return 0 }
            json = inflated
        }
        guard let value = try? JSONReader(source: MemoryByteSource(json, name: "fuzz"), lenient: true).next()?.value,
            (try? PaprikaImporter.recipe(from: value)) != nil
        else { return 0 }
        return 1
    }

    static func ingredientLines(_ bytes: [UInt8]) -> Int {
        let parser = IngredientLineParser()
        var count = 0
        // The lines `split(whereSeparator: \.isNewline)` gives, split by scalar: every newline scalar
        // is a Character of its own (or CR LF, whose empty line between is omitted either way), and
        // splitting by Character was a sixth of this target's time.
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.unicodeScalars.split {
            switch $0.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: false
            }
        }
        for line in lines.prefix(10_000) {
            _ = parser.parse(String(line))
            count += 1
        }
        return count
    }

    /// The HTML text helpers as the schema.org importer calls them on a page's strings (tags, entities,
    /// mojibake): a title, an ingredient or a step.
    static func htmlText(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        let stripped = HTMLText.stripTags(text)
        let normalized = HTMLText.normalize(TextRepair.mojibake(text))
        let lines = HTMLText.normalizeKeepingLines(text)
        return stripped.isEmpty && normalized.isEmpty && lines.isEmpty ? 0 : 1
    }

    /// The whole input as one ingredient line of a page (JSON-LD strings may hold line breaks).
    static func repairedIngredientLine(_ bytes: [UInt8]) -> Int {
        TextRepair.ingredientLine(String(decoding: bytes, as: UTF8.self)).isEmpty ? 0 : 1
    }

    static func manifest(_ bytes: [UInt8]) -> Int {
        guard
            let reader = try? RecordIO.openReader(
                source: MemoryByteSource(bytes, name: "registry.yaml"), format: .yaml),
            let document = try? reader.next()?.value,
            let manifest = try? SchemaManifest(document: document, file: "registry.yaml")
        else { return 0 }
        return manifest.types.count
    }

    static func cloudKitRequest(_ bytes: [UInt8]) -> Int {
        guard let json = try? bytes.withUnsafeBytes({ try JSONScanner.parseDocument($0) }) else { return 0 }
        var count = 0
        if let modify = try? ValueDecoder().decode(ModifyRecordsRequest.self, from: json) {
            count += modify.operations.count
        }
        if let query = try? ValueDecoder().decode(QueryRecordsRequest.self, from: json) {
            count += 1 + (query.query.filterBy?.count ?? 0)
        }
        if let lookup = try? ValueDecoder().decode(LookupRecordsRequest.self, from: json) {
            count += lookup.records.count
        }
        if let changes = try? ValueDecoder().decode(RecordChangesRequest.self, from: json) {
            count += changes.syncToken == nil ? 0 : 1
        }
        return count
    }

    static func changeToken(_ bytes: [UInt8]) -> Int {
        ChangeToken.decode(String(decoding: bytes, as: UTF8.self)) == nil ? 0 : 1
    }

    /// Runs an importer over the bytes written to a file with extension `ext` (importers read paths).
    static func imported(_ bytes: [UInt8], _ format: ImportFormat, ext: String) -> Int {
        withTemporaryFile(bytes, ext: ext) { path in
            let sink = CountingSink()
            try? format.makeImporter().importItems(
                at: path, context: ImportContext(records: sink, diagnostics: sink))
            return sink.count
        }
    }

    /// Runs the plain recipe importer over the bytes, in a file named for what they look like.
    static func plainRecipes(_ bytes: [UInt8]) -> Int {
        let ext =
            switch DataFormat.sniff(bytes) {
            case .xml: "xml"
            case .yaml: "yaml"
            case .json, .ndjson: "json"
            }
        return imported(bytes, .plain, ext: ext)
    }

    /// One scratch folder per process (libFuzzer runs inputs one after another), in memory where the
    /// machine has one (`/dev/shm`).
    nonisolated(unsafe) static var scratch: String?

    /// Writes the bytes to `input.<ext>` in the scratch folder and runs `body` on its path.
    ///
    /// The file is written with `open`/`write` and rewritten by the next input, never synced or
    /// removed: `FileManager.createFile` writes atomically with an `fsync`, which cost the file targets
    /// most of their time (zip: 22 % of its samples in `fsync`, the rest waiting on the disk).
    static func withTemporaryFile(_ bytes: [UInt8], ext: String, _ body: (String) -> Int) -> Int {
        let folder: String
        if let scratch {
            folder = scratch
        } else {
            let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
            folder = base + "larder-fuzz-\(ProcessInfo.processInfo.processIdentifier)"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            scratch = folder
        }
        // One file per thread: the tests run targets in parallel in one process, and two targets
        // reading the same extension (orf and plain YAML) wrote over each other's input.
        let path = "\(folder)/input-\(CurrentThread.identifier).\(ext)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return 0 }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            guard let start = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, start + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        close(fd)
        return written ? body(path) : 0
    }
}

/// Counts what an importer reads and drops it.
final class CountingSink: ImportRecordSink, ImportDiagnostics {
    var count = 0
    func recipe(_ recipe: ImportedRecipe, origin: ImportOrigin) throws { count += 1 }
    func brewRecipe(_ recipe: BrewRecipe, census: FieldCensus?, origin: ImportOrigin) throws { count += 1 }
    func brewLog(_ log: BrewLog, census: FieldCensus?, origin: ImportOrigin) throws { count += 1 }
    func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws {}
    func warn(_ message: String, origin: ImportOrigin) {}
}
