import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// The short way of importing (the leaf census taken from the mapping, Larder's own records mapped
/// field by field) against the full path: the same output, rejects and report, byte for byte, over
/// generated records, seeded mutations of them, the samples and the real files.
@Suite struct ImportShortcutAgreementTests {
    /// What one session wrote and reported.
    struct Run: Equatable {
        var output: [UInt8]
        var rejects: [UInt8]
        var report: Value
        var census: CensusTally
        var rejected: [ImportReport.Line]
    }

    /// Imports `inputs` into `dir` (emptied first: both ways write to the same paths, which image
    /// references name), the short way or not.
    static func run(_ inputs: [String], in dir: TemporaryDirectory, takesShortcuts: Bool) throws -> Run {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path(""))) ?? [] {
            try FileManager.default.removeItem(atPath: dir.path(name))
        }
        var options = ImportSession.Options(
            outputPath: dir.path("out.json"), outputFormat: .json, keepGoing: true,
            rejectsPath: dir.path("rejects.ndjson"), imagesDirectory: dir.path("images"),
            importedAt: Date(timeIntervalSince1970: 1_700_000_000))
        options.takesShortcuts = takesShortcuts
        let report = try ImportSession(options: options).run(inputs.map { ($0, nil) })
        func bytes(_ name: String) -> [UInt8] {
            (try? Array(Data(contentsOf: URL(fileURLWithPath: dir.path(name))))) ?? []
        }
        // Every output (brew records go to files of their own), in name order.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("")).sorted()
        return Run(
            output: names.filter { $0 != "images" }.flatMap { Array($0.utf8) + bytes($0) },
            rejects: bytes("rejects.ndjson"),
            report: report.jsonValue(rejectsPath: dir.path("rejects.ndjson")), census: report.census,
            rejected: report.rejected)
    }

    /// Expects both ways to give the same; returns the short way's run.
    @discardableResult
    static func expectAgreement(_ inputs: [String], what: String) throws -> Run {
        let dir = try TemporaryDirectory()
        let short = try run(inputs, in: dir, takesShortcuts: true)
        let full = try run(inputs, in: dir, takesShortcuts: false)
        #expect(short.output == full.output, "\(what): outputs differ")
        #expect(short.rejects == full.rejects, "\(what): rejects differ")
        #expect(short.report == full.report, "\(what): reports differ")
        #expect(short.census == full.census, "\(what): census differs")
        #expect(short.rejected == full.rejected, "\(what): rejections differ")
        return short
    }

    @Test("generated records, in every format and with an envelope, import the same both ways")
    func generated() throws {
        let dir = try TemporaryDirectory()
        var inputs: [String] = []
        for (seed, format, envelope) in [
            (42, "json", false), (7, "json", true), (99, "ndjson", false), (3, "yaml", false), (5, "xml", false),
        ] {
            let path = dir.path("g\(seed).\(format)")
            let result = try CLI.run(
                ["generate", "-n", "400", "--seed", "\(seed)", "--to", format, "-o", path]
                    + (envelope ? ["--envelope"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            inputs.append(path)
            try Self.expectAgreement([path], what: "seed \(seed) \(format)")
        }
        let all = try Self.expectAgreement(inputs, what: "all generated")
        #expect(all.census.leaves.total(.plain).carried > 0)
    }

    @Test("seeded mutations of generated records import the same both ways")
    func mutations() throws {
        let dir = try TemporaryDirectory()
        let records = try Self.generated(300, seed: 11, in: dir)
        var rng = SeededGenerator(seed: 2026)
        for round in 0..<12 {
            var lines: [String] = []
            for record in records {
                var mutated = record
                for _ in 0..<Int.random(in: 1...3, using: &rng) { Self.mutate(&mutated, rng: &rng, depth: 0) }
                lines.append(try JSONWriter.string(mutated, pretty: false))
            }
            let path = dir.path("m\(round).ndjson")
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            try Self.expectAgreement([path], what: "mutation round \(round)")
        }
    }

    @Test("the samples import the same both ways")
    func samples() throws {
        let folder = CLI.packageRoot.appendingPathComponent("samples/import")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "README.md" }
            .sorted()
        for name in names {
            try Self.expectAgreement([folder.appendingPathComponent(name).path], what: name)
        }
    }

    @Test(
        "the real files import the same both ways",
        .enabled(if: Corpus.has("schemaorg") && Corpus.has("exports"), "needs ../shared/corpus"))
    func corpus() throws {
        for (folder, ext) in LeafCensusCorpusTests.corpusInputs where Corpus.has(folder) {
            let path = Corpus.path(folder)
            if ext.isEmpty {
                try Self.expectAgreement([path], what: folder)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix("." + ext) }
            try Self.expectAgreement(names.sorted().map { path + "/" + $0 }, what: folder)
        }
    }

    @Test("a Larder record mapped field by field is the recipe, census and warnings the full reading gives")
    func mappingMatchesReading() throws {
        let dir = try TemporaryDirectory()
        let records = try Self.generated(300, seed: 23, in: dir)
        var rng = SeededGenerator(seed: 31)
        var values = records
        for _ in 0..<8 {
            for record in records {
                var mutated = record
                Self.mutate(&mutated, rng: &rng, depth: 0)
                values.append(mutated)
            }
        }
        var mapped = 0
        for value in values {
            for isLarderRecord in [false, true] {
                let collector = ImportCollector()
                let context = ImportContext(records: collector, diagnostics: collector, takesShortcuts: false)
                let origin = ImportOrigin(file: "g.json", index: 0)
                let read: Bool
                do {
                    try PlainRecipeImporter.importRecord(
                        value, isLarderRecord: isLarderRecord, origin: origin, context: context)
                    read = true
                } catch {
                    read = false
                }
                guard let record = PlainRecipe.LarderRecord(value, isLarderRecord: isLarderRecord) else { continue }
                mapped += 1
                #expect(read, "mapped a record the full path rejects: \(value)")
                #expect(collector.recipes.first?.0 == record.recipe, "\(value)")
                #expect(collector.warnings == record.warnings, "\(value)")
            }
        }
        #expect(mapped >= 2 * records.count)
    }

    @Test("a step label the proof reads is an optional step word, a whole number, a mark and spaces")
    func labels() {
        #expect(LeafCensus.isLabeled("Step 1: Roast the rice.", rest: "Roast the rice."))
        #expect(LeafCensus.isLabeled("step 12. Roast", rest: "Roast"))
        #expect(LeafCensus.isLabeled("3) Roast", rest: "Roast"))
        #expect(LeafCensus.isLabeled("Step 1: Sauté the leeks.", rest: "Sauté the leeks."))
        #expect(LeafCensus.isLabeled("Step1 - x", rest: "- x"))
        #expect(LeafCensus.isLabeled("Step 1 - .", rest: "- .") == false)  // the rest has no word
        #expect(LeafCensus.isLabeled("Step 1: Éclair", rest: "Éclair") == false)
        #expect(LeafCensus.isLabeled("StEp 1: Roast", rest: "Roast") == false)
        #expect(LeafCensus.isLabeled("Step 1: Salt &amp; pepper", rest: "Salt &amp; pepper") == false)
        #expect(LeafCensus.isLabeled("Step 1.5 Roast", rest: "5 Roast") == false)
        #expect(LeafCensus.isLabeled("Step 1:Roast", rest: "Roast") == false)
        #expect(LeafCensus.isLabeled("Step: Roast", rest: "Roast") == false)
        #expect(LeafCensus.isLabeled("Roast", rest: "Roast") == false)
    }

    // MARK: Mutations

    /// `count` records `larder generate` writes with `seed`, read back.
    static func generated(_ count: Int, seed: Int, in dir: TemporaryDirectory) throws -> [Value] {
        let source = dir.path("g.json")
        let result = try CLI.run(["generate", "-n", "\(count)", "--seed", "\(seed)", "-o", source])
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try RecordIO.openReader(path: source)
        var records: [Value] = []
        while let item = try reader.next() { records.append(item.value) }
        return records
    }

    /// Texts a mutation puts in place of or before a text: labels, bullets, entities, tags,
    /// non-ASCII letters, blanks, headings, numbers.
    static let textPieces = [
        "Step 2: ", "step 3. ", "1) ", "- ", "* ", "12 ", "2.5 ", "Schritt 4: ", "&amp; ", "<b>bold</b> ", "é",
        "  ", "# ", "For the sauce:", "½ ", "PT1H30M", "15 min", "4 servings", "", " \n ", "Step 1:",
    ]

    /// Member names a mutation adds: Larder's own, other spellings of them, unknown ones.
    static let memberNames = [
        "brand", "extras", "notes", "yield", "totalTime", "description", "author", "nutrition", "rating", "images",
        "categories", "source", "url", "name", "group", "timer", "isDeleted", "recordName", "schema", "ingredients",
        "instructions", "steps", "text", "original", "quantity", "unit", "item", "note", "id", "title", "prep_time",
        "a.b", "x[]", "tags", "cuisines", "servings", "changeTag",
    ]

    /// A value a mutation puts somewhere.
    static func randomValue(rng: inout SeededGenerator, depth: Int) -> Value {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(Int64.random(in: -5...5000, using: &rng))
        case 3: return .double([0.5, 2.25, 1e300, -1, 3.0][Int.random(in: 0..<5, using: &rng)])
        case 4 where depth < 3:
            return .array(
                (0..<Int.random(in: 0...2, using: &rng)).map { _ in randomValue(rng: &rng, depth: depth + 1) })
        case 5 where depth < 3:
            var fields = Fields()
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let key = memberNames[Int.random(in: 0..<memberNames.count, using: &rng)]
                if !fields.contains(key: key) {
                    fields.append(key: key, value: randomValue(rng: &rng, depth: depth + 1))
                }
            }
            return .object(fields)
        default:
            return .string(textPieces[Int.random(in: 0..<textPieces.count, using: &rng)] + "flour")
        }
    }

    /// Changes one place of `value`: a text gets a label, a bullet or other letters, a number
    /// another number or a text, a member is added, removed or replaced, an element dropped.
    static func mutate(_ value: inout Value, rng: inout SeededGenerator, depth: Int) {
        switch value {
        case .object(var fields):
            let choice = Int.random(in: 0..<10, using: &rng)
            if choice < 6, !fields.isEmpty {
                let index = Int.random(in: 0..<fields.count, using: &rng)
                var member = fields[index].value
                mutate(&member, rng: &rng, depth: depth + 1)
                fields[fields[index].key] = member
            } else if choice < 8 {
                let key = memberNames[Int.random(in: 0..<memberNames.count, using: &rng)]
                fields[key] = randomValue(rng: &rng, depth: depth)
            } else if !fields.isEmpty {
                _ = fields.removeValue(forKey: fields[Int.random(in: 0..<fields.count, using: &rng)].key)
            }
            value = .object(fields)
        case .array(var elements):
            let choice = Int.random(in: 0..<10, using: &rng)
            if choice < 7, !elements.isEmpty {
                let index = Int.random(in: 0..<elements.count, using: &rng)
                mutate(&elements[index], rng: &rng, depth: depth + 1)
            } else if choice < 9 {
                elements.insert(
                    randomValue(rng: &rng, depth: depth), at: Int.random(in: 0...elements.count, using: &rng))
            } else if !elements.isEmpty {
                elements.remove(at: Int.random(in: 0..<elements.count, using: &rng))
            }
            value = .array(elements)
        case .string(let text):
            let piece = textPieces[Int.random(in: 0..<textPieces.count, using: &rng)]
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: value = .string(piece + text)
            case 1: value = .string(text + piece)
            case 2: value = .string(piece)
            default: value = randomValue(rng: &rng, depth: depth)
            }
        default:
            value = randomValue(rng: &rng, depth: depth)
        }
    }
}
