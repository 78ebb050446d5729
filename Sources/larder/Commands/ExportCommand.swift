import ArgumentParser
import LarderCore
import LarderFormats
import LarderImport

/// `larder export`: Larder recipes out to the formats other apps read.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export Larder recipes to schema.org, Paprika, Cooklang, RecipeML, Mealie, Tandoor, Nextcloud, Mela, MealMaster, CSV, Crouton, a printable HTML or PDF cookbook, or Markdown.",
        discussion: """
            Reads Larder recipe records (JSON, NDJSON, YAML or XML, gzip or not) and writes:
              schemaorg  one JSON-LD document with an @graph of Recipe nodes
              paprika    a .paprikarecipes archive laid out as Paprika's own (gzip JSON per recipe,
                         photos embedded from local image files)
              cooklang   one .cook file per recipe into a folder (-o DIR), a .zip, or one .cook file
              recipeml   one RecipeML 0.5 XML document
              mealie     a .zip laid out as Mealie's export (recipes/<slug>/<slug>.json and
                         images/original.*), or one recipe's JSON (-o x.json or standard output)
              tandoor    a .zip of per-recipe zips (recipe.json and image.*), as Tandoor exports,
                         or one recipe.json (-o x.json or standard output)
              nextcloud  Nextcloud Cookbook folders (<name>/recipe.json and full.*) into a folder
                         (-o DIR) or a .zip, or one recipe.json (-o x.json or standard output)
              mela       a .melarecipes archive (also to standard output) or one .melarecipe
              mealmaster one MealMaster text file (MMMMM framing, CRLF) of every recipe: title,
                         categories, yield, one-column ingredients with unit codes, directions
              rezkonv    one RezKonv text file (MealMaster's German variant: ===== framing,
                         Titel/Kategorien/Menge, unit words as written, CRLF), Windows-1252
                         when every character fits, else UTF-8
              csv        one RFC 4180 CSV file, a row per recipe under a fixed header (title,
                         description, ingredients, instructions, servings, yield, prep time,
                         cook time, total time, categories, tags, source, notes, image)
              html       a static, printable cookbook into a folder (-o DIR) or a .zip: index.html,
                         one page per recipe (photo, times, yield, ingredients and steps under
                         their section headings, nutrition, notes), print.html (the book: a
                         cover, the contents, chapters (--group-by) with their recipes A-Z, each
                         on a new sheet, page numbers and chapter names in the margins on paper
                         (--paper)) and cookbook.css for screen and print; photos copied to
                         images/ (the book prints local photos only, never linked ones)
              pdf        the same book as one PDF file, printed by headless Chromium (install
                         chromium, or name it in LARDER_CHROMIUM); its contents give each
                         recipe's page number
              markdown   one Markdown file per recipe with YAML front matter, laid out as a
                         Chowdown site (_recipes/<slug>.md, images/<slug>.*) into a folder or a
                         .zip, or one recipe's .md (-o x.md or standard output)

            Only image files inside the records file's folder are embedded (Paprika, Mealie, Tandoor, \
            Nextcloud, Mela, HTML, Markdown): an imageRef that is \
            absolute, has a '..' component or leads (through a symlink) outside that folder is \
            refused with a warning naming the record, and the record is exported without its image.

            Fields Larder has no place for, kept by an import in the record's extras under the
            format's name, are written back when exporting to that format. Output files are
            written to a temporary file and renamed into place.

            Examples:
              larder export recipes.json --to paprika -o recipes.paprikarecipes
              larder export recipes.json --to schemaorg -o recipes.jsonld
              larder export recipes.json --to html -o Cookbook
              larder export recipes.json --to pdf --group-by course --paper letter -o cookbook.pdf
            """
    )

    @Argument(help: "Larder recipe files; '-' reads standard input.")
    var inputs: [String] = []

    @Option(
        name: .long,
        help:
            "Format: schemaorg, paprika, cooklang, recipeml, mealie, tandoor, nextcloud, mela, mealmaster, rezkonv, csv, crouton, html, pdf or markdown."
    )
    var to: ExportFormat

    @Option(name: [.customShort("o"), .long], help: "Output file or folder ('-' or none: standard output).")
    var output: String?

    @Option(
        name: .customLong("group-by"),
        help: "html, pdf: the book's chapters, by a recipe's first category (default), course, cuisine, or none.")
    var groupBy: CookbookLayout.Grouping?

    @Option(help: "html, pdf: the paper the book is laid out for: a4 (default) or letter.")
    var paper: CookbookLayout.Paper?

    @Option(help: "html, pdf: the title on the book's cover and index (default: Cookbook).")
    var title: String?

    @Flag(
        help:
            "html, pdf: download each recipe's linked photo (http/https, at most 20 MB) when it has no local one, so the book prints it; without it, linked photos are left out of the book."
    )
    var fetchImages = false

    @OptionGroup var rejects: RejectsOptions
    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        if to != .html && to != .pdf, groupBy != nil || paper != nil || title != nil {
            throw ValidationError(
                "--group-by, --paper and --title lay out a cookbook: use them with --to html or --to pdf")
        }
    }

    /// The book's layout from the options.
    var layout: CookbookLayout {
        let defaults = CookbookLayout()
        return CookbookLayout(
            title: title ?? defaults.title, groupBy: groupBy ?? defaults.groupBy, paper: paper ?? defaults.paper)
    }

    func run() throws {
        let rejectsWriter = try rejects.resolvedRejectsPath.map { try RejectsWriter(path: $0) }
        var session = ExportSession(
            inputs: inputs.isEmpty ? ["-"] : inputs, format: to, outputPath: output, keepGoing: rejects.keepGoing)
        session.layout = layout
        if fetchImages {
            let fetcher = ImageFetcher()
            session.fetchImage = { fetcher.fetch($0) }
        }
        let meter = progress.start("export", inputs: session.inputs)
        session.progress = { meter.update(records: $0) }
        let summary = try session.run { record, error in
            meter.finish()
            Stderr.print(error.description)
            try rejectsWriter?.reject(record, error)
        }
        meter.finish()
        try rejectsWriter?.finish()
        for warning in summary.warnings { Stderr.print(warning) }
        var line = "larder: \(summary.exported.count) exported, \(summary.rejected.count) rejected"
        if summary.imagesLeftOut > 0 {
            line +=
                ", \(summary.imagesLeftOut) image\(summary.imagesLeftOut == 1 ? "" : "s") left out (outside the records file's folder)"
        }
        if let output { line += " → \(output)" }
        Stderr.print(line)
        if !summary.rejected.isEmpty { throw DataErrorsExit() }
    }
}

extension ExportFormat: ExpressibleByArgument {}
extension CookbookLayout.Grouping: ExpressibleByArgument {}
extension CookbookLayout.Paper: ExpressibleByArgument {}
