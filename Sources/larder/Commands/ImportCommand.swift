public import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
public import LarderImport

/// `larder import`: recipes and brew logs from the formats people have, into Larder records.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import recipes and brew logs from \(ImportFormat.all.count) formats: \(formatNames).",
        discussion: """
            Detects each input's format from its extension, magic bytes and content (override with \
            --from); a format claims a file only when the keys it needs are there. Recipe JSON, YAML \
            or XML written by hand or by a script (a title, ingredient lines, steps as a list or one \
            text, times such as "1 h 30", yields such as "serves 4") is read as the plain format; \
            fields Larder has no place for are named in warnings. Archives are streamed entry by entry; entries that would escape the archive \
            (zip slip) or inflate too far (zip bombs) are refused, and so is any record or archive \
            entry larger than --max-record-size (16MB unless raised), as soon as it passes the limit. \
            Embedded photos are written beside the output (<output stem>-images/, or --images DIR) \
            and referenced from each recipe; an image file is named after the recipe's id made a \
            safe file name, and a file that already exists there is never replaced (the new image \
            gets a -2, -3, … suffix). A failed import removes the images it wrote.

            Ids derive from the source (its own id, else its URL or archive entry) and the title, so \
            re-running an import gives the same ids. An existing output file is replaced, as convert, \
            jq and yq replace theirs; with --merge its records are kept and items already in it are \
            reported as duplicates, not written twice. The summary says which happened. Beanconqueror \
            backups write one file per record type (out.brewLog.json, out.brewRecipe.json).

            Without --keep-going the first bad item stops the import (exit 1, no output written); \
            with it, bad items go to the rejects file with their archive entry and field path and the \
            rest import (a recipe whose image cannot be written is one bad item). An input that is \
            not empty but holds no records is a data error (exit 1). The report on stderr lists \
            imported, rejected and duplicate items by name, then the field census: for each source \
            field of each format, how many records carried it (into which Larder field), kept it \
            verbatim in the record's extras (under the format's name, e.g. extras.paprika.hash), or \
            dropped it, and why. Nothing is dropped without a reason; fields no importer knows go to \
            extras. A leaf census then checks every source value down to its scalars against the \
            record written: a leaf nothing carried is kept in extras under its path by itself \
            (per format: "leaves: N carried, N kept (N unmapped, kept by path), N dropped").

            --report FILE writes the whole report as JSON, atomically (a temporary file, then \
            renamed): {"counts": {"imported", "rejected", "duplicates", "keptFromOutput", "images", \
            "warnings"}, "outputs": [path], "imported"/"duplicates"/"rejected": [{"name", "id", \
            "origin", "reason"}], "rejects": {"file", "count", "byInput": {input: n}}, "warnings": \
            [text], "census": [{"format", "records", "leaves": {"carried", "kept", "unmapped", \
            "dropped", "lost"}, "unmapped": [{"path", "count"}], "fields": [{"field", "carried": \
            {larderField: n}, "extras": n, "dropped": [{"reason", "count"}], "leaves"}]}]}.

            Examples:
              larder import export.paprikarecipes -o recipes.json
              larder import page.html recipe.jsonld --keep-going -o recipes.ndjson
              larder import Beanconqueror.zip -o coffee.json
              larder import my-recipes.yaml --from plain -o recipes.json
              larder import recipes.mmf -o recipes.json
              larder import sheet.csv --map title=Name,ingredients=Zutaten -o recipes.json
            """
    )

    /// The formats' display names, alphabetically, for the abstract.
    static var formatNames: String {
        let names = ImportFormat.all.map(\.displayName).sorted { $0.lowercased() < $1.lowercased() }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }

    @Argument(help: "Files or folders to import.")
    var inputs: [String]

    @Option(
        name: .long, help: "Input format (auto: detect each file's, and each archive entry's, by its name and content)."
    )
    var from: ImportFormat = .auto

    @Option(name: .long, help: "Output format: json, ndjson, yaml or xml (default: from the output name, else json).")
    var to: DataFormat?

    @Option(name: [.customShort("o"), .long], help: "Output file ('-' or none: standard output).")
    var output: String?

    @Option(name: .long, help: "Folder for embedded photos (default: <output stem>-images beside the output).")
    var images: String?

    @Option(
        name: .long,
        help:
            "Also write the whole report (counts, imported, rejected, duplicates, rejects summary, field census) as JSON to this file (shape: see above)."
    )
    var report: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "CSV columns for recipe fields, overriding the mapping by header name: field=Header pairs separated by commas.",
            valueName: "title=Name,ingredients=Zutaten,..."))
    var map: String?

    @Flag(
        name: .long,
        help: "Keep the records of an existing output file and add only new items (default: replace the output).")
    var merge = false

    @OptionGroup var rejects: RejectsOptions
    @OptionGroup var recordLimits: RecordLimitOptions
    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one file or folder to import") }
        if let map { _ = try csvColumns(map) }
    }

    /// The `--map` pairs, or a usage error listing the fields.
    private func csvColumns(_ text: String) throws -> [CSVColumn: String] {
        do {
            return try CSVColumn.parseMap(text)
        } catch let error as LarderError {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let format = to ?? output.flatMap { DataFormat.guess(fromPath: $0) } ?? .json
        let meter = progress.start("import", inputs: inputs)
        defer { meter.finish() }
        var options = ImportSession.Options(
            outputPath: output, outputFormat: format, keepGoing: rejects.keepGoing,
            rejectsPath: rejects.resolvedRejectsPath,
            imagesDirectory: images, limits: recordLimits.limits, merge: merge,
            importOptions: ImportOptions(csvColumns: try map.map(csvColumns) ?? [:]))
        options.progress = { count, format in meter.update(records: count, stage: "import (\(format.displayName))") }
        let session = try ImportSession(options: options)
        let result: ImportReport
        do {
            defer { meter.finish() }
            result = try session.run(inputs.map { ($0, from) })
        } catch let error as LarderError where error.code != .io && error.code != .usage {
            for warning in session.report.warnings { Stderr.print(warning) }
            Stderr.print("larder: " + error.description)
            Stderr.print(
                "larder: import stopped; nothing was written (use --keep-going to import the rest and reject this item)"
            )
            throw DataErrorsExit()
        }
        Self.printReport(result, rejectsPath: rejects.resolvedRejectsPath)
        if let report { try result.write(to: report, rejectsPath: rejects.resolvedRejectsPath) }
        if !result.rejected.isEmpty { throw DataErrorsExit() }
    }

    /// Rejections, those of one reason grouped: the first in full, then a count and the first
    /// record numbers (2,000 brews refused for one reason printed 550 KB of the same line).
    static func printRejections(_ rejected: [ImportReport.Line], rejectsPath: String?) {
        var order: [String] = []
        var groups: [String: [ImportReport.Line]] = [:]
        for line in rejected {
            let key = line.cause ?? line.reason ?? ""
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(line)
        }
        for key in order {
            let lines = groups[key] ?? []
            guard lines.count > 3, let first = lines.first else {
                for line in lines { Stderr.print("  rejected: \(line.name)  [\(line.origin)]: \(line.reason ?? "")") }
                continue
            }
            Stderr.print("  rejected: \(first.name)  [\(first.origin)]: \(first.reason ?? "")")
            let numbers = lines.dropFirst().prefix(5).map { line in
                line.origin.split(separator: "#").last.map { "#\($0)" } ?? line.name
            }
            let more = lines.count - 1 > numbers.count ? ", …" : ""
            Stderr.print(
                "  rejected: \(lines.count - 1) more for the same reason (\(key)): \(numbers.joined(separator: ", "))\(more)"
                    + (rejectsPath.map { "; each one is in \($0)" } ?? "; --rejects FILE keeps each one"))
        }
    }

    static func printReport(_ report: ImportReport, rejectsPath: String?) {
        for warning in report.warnings { Stderr.print(warning) }
        let shown = 100
        for line in report.imported.prefix(shown) { Stderr.print("  imported: \(line.name)  [\(line.origin)]") }
        if report.imported.count > shown {
            Stderr.print("  … and \(report.imported.count - shown) more imported (the full list: --report FILE)")
        }
        for line in report.duplicates {
            Stderr.print("  duplicate: \(line.name)  [\(line.origin)]: \(line.reason ?? "")")
        }
        printRejections(report.rejected, rejectsPath: rejectsPath)
        var summary =
            "larder: \(report.imported.count) imported, \(report.rejected.count) rejected, \(report.duplicates.count) duplicate"
        if report.carriedOver > 0 { summary += ", \(report.carriedOver) kept from the existing output (--merge)" }
        if report.images > 0 { summary += ", \(report.images) image\(report.images == 1 ? "" : "s") written" }
        if !report.outputs.isEmpty { summary += " → \(report.outputs.joined(separator: ", "))" }
        if !report.replaced.isEmpty {
            summary +=
                " (replaced the existing \(report.replaced.count == 1 ? "file" : "files"); --merge adds to it instead)"
        }
        if let rejectsPath, !report.rejected.isEmpty { summary += " (rejects in \(rejectsPath))" }
        if !report.census.isEmpty {
            Stderr.print("larder: field census (what each source field became):")
            for line in report.census.summaryLines { Stderr.print(line) }
        }
        Stderr.print(summary)
    }

}

extension ImportFormat: ExpressibleByArgument {
    /// `auto` or a registered format's name.
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] { ["auto"] + ImportFormat.all.map(\.rawValue) }

    public var defaultValueDescription: String { rawValue }
}
