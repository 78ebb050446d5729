import Foundation
public import LarderCore
import LarderFormats

/// The foreign formats `larder import` reads.
public enum ImportFormat: String, Sendable, Hashable, CaseIterable {
    case schemaorg, paprika, mela, nextcloud, mealie, tandoor, cooklang, orf, recipeml, beanconqueror
    /// Recipe JSON, YAML or XML as people write it by hand or export it from scripts.
    case plain
    /// MealMaster text files (`MMMMM----- Recipe via Meal-Master`).
    case mealmaster
    /// Spreadsheet rows: CSV or TSV with a header line.
    case csv
    /// Chowdown (Jekyll) recipe pages: Markdown with YAML front matter, in a site folder or zip.
    case chowdown
    /// RecipeSage's JSON-LD export (schema.org Recipes with `creditText`, `isBasedOn`, `comment`).
    case recipesage
    /// Plan to Eat's CSV export.
    case plantoeat
    /// MyRecipeBox's CSV export.
    case myrecipebox
    /// Recipe Keeper's HTML export (a zip of `recipes.html` and `images/`).
    case recipekeeper
    /// Crouton's `.crumb` JSON files.
    case crouton
    /// CopyMeThat's HTML export (a zip of `recipes.html` and `images/`).
    case copymethat
    /// An OpenEats database dump (Django `dumpdata` JSON).
    case openeats
    /// Cookmate's (My CookBook's) export: an `.mcb` zip of a `<cookbook>` XML file and `images/`.
    case cookmate
    /// RecetteTek's (My Recipe Box's) backup: an `.rtk` zip of `recipes.json` and the photos.
    case recettetek
    /// Rezeptsuite.de's CookML export (`<cookml>` XML, `.xml` or `.cml`, alone or zipped).
    case rezeptsuite
    /// Domestica's JSON export (an array of recipes with `timePrep`/`timeCook`).
    case domestica
    /// A Cook'n cookbook export: a zip of `temp_*.dsv` tables and photos.
    case cookn
    /// Pepperplate's export: a zip of labelled `.txt` recipes (`Title:`, `Ingredients:`, …).
    case pepperplate
    /// ChefTap's text export: a zip of `cheftap_export/*.txt`, one recipe each, without labels.
    case cheftap
    /// Saffron's text export: a zip of labelled `.txt` recipes (`Title:`, `Cookbook:`, `Section:`, …).
    case saffron
    /// Gourmet Recipe Manager's HTML export: a folder (zipped) of `.htm` pages with `div.recipe`.
    case gourmet
    /// The Cookbook app's (CookBook recipe manager's) export: a zip of one `.html` page per recipe
    /// (schema.org markup), or in older versions of one `.yml` file per recipe.
    case cookbookapp
    /// BigOven recipes: its API's recipe JSON (one, a list, or a `{"Results": […]}` envelope), or a
    /// CSV whose header uses the API's field names.
    case bigoven

    /// A human name for messages.
    public var displayName: String {
        switch self {
        case .schemaorg: "schema.org JSON-LD"
        case .paprika: "Paprika"
        case .mela: "Mela"
        case .nextcloud: "Nextcloud Cookbook"
        case .mealie: "Mealie"
        case .tandoor: "Tandoor"
        case .cooklang: "Cooklang"
        case .orf: "Open Recipe Format"
        case .recipeml: "RecipeML"
        case .beanconqueror: "Beanconqueror"
        case .plain: "plain recipe file"
        case .mealmaster: "MealMaster"
        case .csv: "CSV"
        case .chowdown: "Chowdown"
        case .recipesage: "RecipeSage"
        case .plantoeat: "Plan to Eat"
        case .myrecipebox: "MyRecipeBox"
        case .recipekeeper: "Recipe Keeper"
        case .crouton: "Crouton"
        case .copymethat: "CopyMeThat"
        case .openeats: "OpenEats"
        case .cookmate: "Cookmate"
        case .recettetek: "RecetteTek"
        case .rezeptsuite: "Rezeptsuite.de"
        case .domestica: "Domestica"
        case .cookn: "Cook'n"
        case .pepperplate: "Pepperplate"
        case .cheftap: "ChefTap"
        case .saffron: "Saffron"
        case .gourmet: "Gourmet"
        case .cookbookapp: "Cookbook app"
        case .bigoven: "BigOven"
        }
    }

    /// The importer for this format.
    public func makeImporter() -> any RecipeImporter {
        switch self {
        case .schemaorg: SchemaOrgImporter()
        case .paprika: PaprikaImporter()
        case .mela: MelaImporter()
        case .nextcloud: NextcloudImporter()
        case .mealie: MealieImporter()
        case .tandoor: TandoorImporter()
        case .cooklang: CooklangImporter()
        case .orf: ORFImporter()
        case .recipeml: RecipeMLImporter()
        case .beanconqueror: BeanconquerorImporter()
        case .plain: PlainRecipeImporter()
        case .mealmaster: MealMasterImporter()
        case .csv: CSVImporter(columns: CSVImporter.columnOverrides)
        case .chowdown: ChowdownImporter()
        case .recipesage: RecipeSageImporter()
        case .plantoeat: CSVImporter(profile: .planToEat)
        case .myrecipebox: CSVImporter(profile: .myRecipeBox)
        case .recipekeeper: RecipeKeeperImporter()
        case .crouton: CroutonImporter()
        case .copymethat: CopyMeThatImporter()
        case .openeats: OpenEatsImporter()
        case .cookmate: CookmateImporter()
        case .recettetek: RecetteTekImporter()
        case .rezeptsuite: RezeptsuiteImporter()
        case .domestica: DomesticaImporter()
        case .cookn: CooknImporter()
        case .pepperplate: PepperplateImporter()
        case .cheftap: ChefTapImporter()
        case .saffron: SaffronImporter()
        case .gourmet: GourmetImporter()
        case .cookbookapp: CookbookAppImporter()
        case .bigoven: BigOvenImporter()
        }
    }

    /// Recognises the format of the file or folder at `path` from its extension, its magic
    /// bytes and its content (for zip archives, the names of their entries; for JSON, YAML and XML,
    /// the keys and elements of its first 64 KiB).
    ///
    /// A format claims a file by its content only when the keys it requires are there
    /// (``ContentKeys``): a YAML file is Open Recipe Format only with `recipe_name`, and a JSON,
    /// YAML or XML file of recipes with a title and ingredients or steps that no app's format
    /// claims is ``plain``. `.html` and `.htm` pages go to ``schemaorg``, whose importer reads
    /// their JSON-LD and, when that holds no Recipe, their microdata, RDFa, recipe-plugin cards
    /// (WP Recipe Maker, Tasty Recipes, Mediavine Create, …) or headed ingredient lists.
    /// - Throws: ``LarderError`` `usage-error` when the format cannot be recognised (pass
    ///   `--from`), `io-error` when the path cannot be read.
    public static func detect(path: String) throws -> ImportFormat {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LarderError(.io, "no such file or folder", location: SourceLocation(file: path))
        }
        if isDirectory.boolValue {
            if let format = try detectFolder(path: path) { return format }
            throw LarderError(
                .usage,
                "a folder with no recipe.json, .cook, .crumb, _recipes/*.md, cheftap_export/*.txt, Pepperplate or Saffron "
                    + ".txt files, Gourmet .htm pages or OpenEats dump; `larder import` reads each file in it instead",
                location: SourceLocation(file: path)
            )
        }
        return try detectFile(path: path)
    }

    /// The formats whose importer reads a whole folder as one export (the others read files, and a
    /// folder given to them is read file by file).
    public static let readsFolders: Set<ImportFormat> = [
        .nextcloud, .cooklang, .chowdown, .crouton, .cheftap, .gourmet, .pepperplate, .saffron, .openeats,
    ]

    /// The format that reads the folder at `path` as one export (an app's export spread over its
    /// files), or nil when none does and each file is to be read alone.
    /// - Throws: ``LarderError`` `io-error` when a file detection opens cannot be read.
    public static func detectFolder(path: String) throws -> ImportFormat? {
        // A Nextcloud Cookbook folder holds recipe.json files; a Cooklang folder, .cook files.
        let files = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
        if files.contains(where: { $0.lowercased().hasSuffix("recipe.json") }) { return .nextcloud }
        if files.contains(where: { $0.lowercased().hasSuffix(".cook") }) { return .cooklang }
        if files.contains(where: ChowdownImporter.isSiteRecipe) { return .chowdown }
        if files.contains(where: { $0.lowercased().hasSuffix(".crumb") }) { return .crouton }
        if path.split(separator: "/").last.map({ ChefTapImporter.isInExportFolder(String($0)) }) == true
            || files.contains(where: ChefTapImporter.isInExportFolder)
        {
            return .cheftap
        }
        let pageName = { (file: String) in (file.split(separator: "/").last.map(String.init) ?? file).lowercased() }
        if let page = files.sorted().first(where: { GourmetImporter.isRecipePage(pageName($0)) }),
            detectHTMLExport(try FileByteSource(path: path + "/" + page).readPrefix(sniffLength)) == .gourmet
        {
            return .gourmet
        }
        if let text = files.sorted().first(where: TextExportFiles.isText),
            let format = detectTextExport(try FileByteSource(path: path + "/" + text).readPrefix(sniffLength))
        {
            return format
        }
        // An OpenEats dump split into recipe, ingredient, course and cuisine files (Django's
        // dumpdata per app): the files are read together, as one dump.
        if OpenEatsImporter.dumpFiles(in: path).contains(where: { OpenEatsImporter.holdsRecipes($0) }) {
            return .openeats
        }
        return nil
    }

    /// The format of one file, from its name, magic bytes and content.
    /// - Throws: as ``detect(path:)``.
    static func detectFile(path: String) throws -> ImportFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".html") || lower.hasSuffix(".htm"),
            let format = detectHTMLExport(try FileByteSource(path: path).readPrefix(sniffLength))
        {
            return format
        }
        // RecipeSage's export is JSON-LD, and may be saved as `.jsonld`.
        if lower.hasSuffix(".jsonld"),
            detectJSON(
                ContentKeys(
                    json: String(decoding: try FileByteSource(path: path).readPrefix(sniffLength), as: UTF8.self)))
                == .recipesage
        {
            return .recipesage
        }
        let byExtension: [(String, ImportFormat)] = [
            (".paprikarecipes", .paprika), (".paprikarecipe", .paprika), (".melarecipes", .mela),
            (".melarecipe", .mela),
            (".cook", .cooklang), (".crumb", .crouton), (".jsonld", .schemaorg), (".html", .schemaorg),
            (".htm", .schemaorg),
        ]
        for (suffix, format) in byExtension where lower.hasSuffix(suffix) { return format }
        var head = try FileByteSource(path: path).readPrefix(sniffLength)
        var name = lower
        if GzipReader.isGzip(head) {
            // Paprika's gzip JSON, unless the name says it is a compressed data file (`recipes.yaml.gz`).
            name.removeLast(name.hasSuffix(".gz") ? 3 : 0)
            guard DataFormat.guess(fromPath: name) != nil else { return .paprika }
            head = try GzipReader(FileByteSource(path: path)).readPrefix(sniffLength)
        }
        if ZipArchive.isZip(head) { return try detectArchive(path: path) }
        // Gourmet's own XML (`.grmt`) would read as a plain recipe file and fail on its ingredient
        // elements: say what it is and what Larder reads of Gourmet instead.
        if String(decoding: head.prefix(4096), as: UTF8.self).lowercased().contains("<gourmetdoc") {
            throw LarderError(
                .usage,
                "this is Gourmet Recipe Manager's XML export (.grmt), which Larder does not read; export from "
                    + "Gourmet as web pages (File → Export → HTML) and import that folder or zip",
                location: SourceLocation(file: path))
        }
        if let format = detectContent(head, name: name) { return format }
        throw LarderError(
            .usage,
            "cannot tell which recipe format this is: its content matches none of "
                + "\(names(contentChecked)); pass --from (\(allCases.map(\.rawValue).joined(separator: "|")))",
            location: SourceLocation(file: path))
    }

    /// The formats detection recognises in a text file by its content, in the order it checks them.
    public static let contentChecked: [ImportFormat] = [
        .mealmaster, .pepperplate, .saffron, .plantoeat, .myrecipebox, .bigoven, .csv, .recipekeeper, .copymethat,
        .gourmet, .schemaorg, .cookmate, .rezeptsuite, .recipeml, .beanconqueror, .openeats, .recettetek, .domestica,
        .recipesage, .paprika, .mealie, .tandoor, .crouton, .mela, .orf, .plain,
    ]

    /// The formats detection recognises in a zip archive by its entries, in the order it checks them.
    public static let archiveChecked: [ImportFormat] = [
        .recipekeeper, .copymethat, .cookmate, .rezeptsuite, .recettetek, .cookn, .beanconqueror, .paprika, .mela,
        .mealie, .cooklang, .crouton, .tandoor, .nextcloud, .pepperplate, .saffron, .cheftap, .gourmet, .cookbookapp,
    ]

    /// `A, B and C` of the formats' display names.
    private static func names(_ formats: [ImportFormat]) -> String {
        let names = formats.map(\.displayName)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " and " : "") + (names.last ?? "")
    }

    /// How much of a file's (decompressed) content detection reads.
    static let sniffLength = 64 * 1024

    /// The format the first bytes of a text file claim, from their keys or elements; `name` is the
    /// lowercased file name (its extension decides YAML, and `.xml` XML).
    static func detectContent(_ head: [UInt8], name: String) -> ImportFormat? {
        let text = String(decoding: head, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if !trimmed.hasPrefix("{"), !trimmed.hasPrefix("["), !trimmed.hasPrefix("<") {
            if ChowdownImporter.claims(text, name: name) { return .chowdown }
            if MealMasterImporter.claims(text) { return .mealmaster }
            // Pepperplate's and Saffron's labels are more specific than an unframed MealMaster `Title:`.
            if let format = detectTextExport(head) { return format }
            if MealMasterImporter.claimsUnframed(text) { return .mealmaster }
            if let profile = CSVImporter.profile(claiming: text) { return profile.format }
            if CSVImporter.claims(text, name: name) { return .csv }
        }
        let isYAMLName = name.hasSuffix(".yaml") || name.hasSuffix(".yml")
        if trimmed.hasPrefix("<"), !isYAMLName {
            let lowered = trimmed.lowercased()
            if lowered.contains("<html") || lowered.contains("<!doctype html")
                || lowered.contains("application/ld+json")
            {
                return .schemaorg
            }
            let keys = ContentKeys(xml: lowered)
            if CookmateImporter.claims(keys) { return .cookmate }
            if RezeptsuiteImporter.claims(keys) { return .rezeptsuite }
            if keys.has("recipeml") || (keys.has("recipe") && keys.has("head")) { return .recipeml }
            return keys.has("recipe") && keys.claimsPlainRecipes ? .plain : nil
        }
        if !isYAMLName, trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            let keys = ContentKeys(json: text)
            return detectJSON(keys) ?? (keys.claimsPlainRecipes ? .plain : nil)
        }
        let isYAML = isYAMLName || (DataFormat.guess(fromPath: name) == nil && DataFormat.sniff(head) == .yaml)
        guard isYAML else { return nil }
        let keys = ContentKeys(yaml: text)
        if keys.has("recipe_name") { return .orf }
        return keys.claimsPlainRecipes ? .plain : nil
    }

    /// The app format a JSON document's keys claim: each needs its distinctive keys and the keys its
    /// importer requires (a name or title).
    static func detectJSON(_ keys: ContentKeys) -> ImportFormat? {
        func has(_ key: String) -> Bool { keys.has(key) }
        if has("BREWS") || has("BEANS") || has("MILL") { return .beanconqueror }
        if BigOvenImporter.claims(keys) { return .bigoven }
        if has("model") && has("pk") && has("fields") && has("directions") { return .openeats }
        if RecetteTekImporter.claims(keys) { return .recettetek }
        if DomesticaImporter.claims(keys) { return .domestica }
        // RecipeSage writes `creditText` and `isBasedOn` on every recipe, even when they are empty.
        if has("@type") && has("creditText") && has("isBasedOn") && has("name") { return .recipesage }
        if has("@context") || has("@type") { return .schemaorg }
        if has("directions") && (has("uid") || has("photo_data")) && has("name") { return .paprika }
        if (has("recipe_ingredient") || has("recipeIngredient") && has("slug")) && has("name") { return .mealie }
        if has("steps") && (has("working_time") || has("waiting_time")) && has("name") { return .tandoor }
        if has("neutritionalInfo") || (has("cookingDuration") && has("ingredients") && has("name")) { return .crouton }
        if (has("wantToCook") || (has("instructions") && has("link") && has("yield"))) && has("title") {
            return .mela
        }
        return nil
    }

    /// The app whose HTML export a page's first bytes are, if any (Recipe Keeper's
    /// `recipe-details` cards with its own item properties, CopyMeThat's `recipe` cards with ids,
    /// Gourmet's `recipe` div with its `header` div).
    static func detectHTMLExport(_ head: [UInt8]) -> ImportFormat? {
        // Attributes as HTML allows them: space around `=` (a real CopyMeThat export writes
        // `class = "recipe"`) and single quotes read as the compact double-quoted form.
        let text = String(decoding: head, as: UTF8.self)
            .replacingOccurrences(of: #"\s*=\s*(["'])"#, with: "=$1", options: .regularExpression)
        func attribute(_ name: String, _ value: String) -> Bool {
            text.contains("\(name)=\"\(value)\"") || text.contains("\(name)='\(value)'")
        }
        if text.contains("recipe-details") && attribute("itemprop", "recipeIngredients") { return .recipekeeper }
        if attribute("id", "recipeIngredients") && attribute("class", "recipe") { return .copymethat }
        if text.contains("<div class=\"recipe\"") && text.contains("<div class='header'>") { return .gourmet }
        return nil
    }

    /// The app whose labelled text export a file's first bytes are, if any (a `Title:` first label
    /// with Pepperplate's `Active:` or `Total:`, or Saffron's `Cookbook:` or `Section:`).
    static func detectTextExport(_ head: [UInt8]) -> ImportFormat? {
        let text = String(decoding: head, as: UTF8.self)
        if PepperplateImporter.claims(text) { return .pepperplate }
        if SaffronImporter.claims(text) { return .saffron }
        return nil
    }

    /// The format of a zip archive, from its entry names (and for `recipes.html`, the first page,
    /// the first `.yml` and the first `.txt` entry, their first bytes).
    static func detectArchive(path: String) throws -> ImportFormat {
        let archive = try ZipArchive(path: path)
        var sawRecipeJSON = 0
        var firstZip: ZipEntry?
        var sniffedText = false
        var sniffedPage = false
        var sniffedYAML = false
        // The Cookbook app's pages are web pages and its YAML files plain-looking recipes: it is
        // claimed only after the loop, when no format with a stronger sign has.
        var cookbookApp = false
        // A zip holding CSV files and nothing else a format claims (Plan to Eat's export: one
        // `plantoeat.csv`): the first CSV's content decides.
        var firstCSV: ZipEntry?
        // Only the central directory is read here (and the start of one page or text file): cheap,
        // whatever the number of entries.
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            let name = entry.fileName.lowercased()
            if name == HTMLExportArchive.pageName,
                let format = detectHTMLExport(try archive.open(entry).readPrefix(sniffLength))
            {
                return format
            }
            if RezeptsuiteImporter.isCookML(entry.fileName) {
                let head = try archive.open(entry).readPrefix(sniffLength)
                let keys = ContentKeys(xml: String(decoding: head, as: UTF8.self).lowercased())
                if CookmateImporter.claims(keys) { return .cookmate }
                if RezeptsuiteImporter.claims(keys) { return .rezeptsuite }
            }
            if RecetteTekImporter.isRecipeList(entry.fileName),
                detectJSON(
                    ContentKeys(json: String(decoding: try archive.open(entry).readPrefix(sniffLength), as: UTF8.self)))
                    == .recettetek
            {
                return .recettetek
            }
            if name == CooknImporter.recipeTable { return .cookn }
            if name.hasPrefix("beanconqueror") && name.hasSuffix(".json") { return .beanconqueror }
            if name.hasSuffix(".paprikarecipe") { return .paprika }
            if name.hasSuffix(".melarecipe") { return .mela }
            if name == "database.json"
                || entry.path.lowercased().contains("recipes/") && name.hasSuffix(".json") && !name.hasPrefix("recipe")
            {
                return .mealie
            }
            if name.hasSuffix(".zip"), firstZip == nil { firstZip = entry }
            if name.hasSuffix(".csv"), firstCSV == nil { firstCSV = entry }
            if name == "recipe.json" { sawRecipeJSON += 1 }
            if name.hasSuffix(".cook") { return .cooklang }
            if ChowdownImporter.isSiteRecipe(entry.path) { return .chowdown }
            if name.hasSuffix(".crumb") { return .crouton }
            if ChefTapImporter.isInExportFolder(entry.path) { return .cheftap }
            if !sniffedPage, GourmetImporter.isRecipePage(name) {
                sniffedPage = true
                let head = try archive.open(entry).readPrefix(sniffLength)
                if detectHTMLExport(head) == .gourmet { return .gourmet }
                cookbookApp = cookbookApp || CookbookAppImporter.claimsPage(head)
            }
            if !sniffedYAML, CookbookAppImporter.isRecipeFile(name) {
                sniffedYAML = true
                let head = try archive.open(entry).readPrefix(sniffLength)
                cookbookApp =
                    cookbookApp || CookbookAppImporter.claims(ContentKeys(yaml: String(decoding: head, as: UTF8.self)))
            }
            if !sniffedText, TextExportFiles.isText(name) {
                sniffedText = true
                if let format = detectTextExport(try archive.open(entry).readPrefix(sniffLength)) { return format }
            }
        }
        if let firstZip {
            // Zips of zips: Tandoor's export (a zip per recipe), or several Cook'n cookbooks zipped
            // together. The first inner zip's entry names tell them apart.
            let holdsCookbook = try archive.withExtracted(firstZip, archive: path) { inner in
                let nested = try ZipArchive(path: inner)
                while let entry = try nested.nextEntry() {
                    if !entry.isIgnorable, entry.fileName.lowercased() == CooknImporter.recipeTable { return true }
                }
                return false
            }
            return holdsCookbook ? .cookn : .tandoor
        }
        if sawRecipeJSON > 0 { return .nextcloud }
        if cookbookApp { return .cookbookapp }
        if let firstCSV {
            let head = try archive.open(firstCSV).readPrefix(sniffLength)
            let text = String(decoding: head, as: UTF8.self)
            if let profile = CSVImporter.profile(claiming: text) { return profile.format }
            if CSVImporter.claims(text, name: firstCSV.fileName.lowercased()) { return .csv }
        }
        throw LarderError(
            .usage,
            "a zip archive of no recipe format Larder knows: its entries match none of \(names(archiveChecked)); pass --from",
            location: SourceLocation(file: path))
    }
}

extension ImportFormat {
    /// What an importer of this format looks for in its input, for the error when it finds nothing.
    public var lookedFor: String {
        switch self {
        case .schemaorg:
            "a schema.org Recipe (JSON-LD; in an HTML page also microdata, RDFa, a recipe-plugin card or headed ingredient lists)"
        case .paprika: "Paprika recipes (*.paprikarecipe gzip JSON entries, or a Paprika JSON object)"
        case .mela: "Mela recipes (*.melarecipe JSON entries)"
        case .nextcloud: "recipe.json files in per-recipe folders"
        case .mealie: "recipes/<slug>/<slug>.json entries or a database.json"
        case .tandoor:
            "recipe.json in the archive or in zips nested in it (up to \(TandoorImporter.maxNesting) levels deep)"
        case .cooklang: "*.cook files"
        case .orf: "Open Recipe Format YAML documents"
        case .recipeml: "<recipe> elements"
        case .beanconqueror: "brews in Beanconqueror.json and its Beanconqueror_Brews_N.json chunks"
        case .mealmaster:
            "recipes framed by a `MMMMM----- Recipe via Meal-Master` (or `-----`, or RezKonv's `=====`) line and an end line, or unframed recipes each starting at a `Title:` line"
        case .csv: "a header line with a title column, then one recipe per row"
        case .chowdown: "Markdown files with YAML front matter (_recipes/*.md in a Chowdown site)"
        case .recipesage: "schema.org Recipe objects in a JSON array or a {\"recipes\": [...]} document"
        case .plantoeat:
            "Plan to Eat's header line (Title, …, Main Ingredient, …, Url Host, …), then one recipe per row"
        case .myrecipebox: "MyRecipeBox's header line (title, preparationTime, cookingTime, …), then one recipe per row"
        case .recipekeeper: "div.recipe-details cards in recipes.html (in the zip or alone)"
        case .crouton: ".crumb JSON objects (a file, a zip or a folder of them)"
        case .copymethat: "div.recipe cards in recipes.html (in the zip or alone)"
        case .openeats: "recipe.recipe rows in a JSON list of {model, pk, fields}"
        case .cookn: "temp_recipe.dsv and the other temp_*.dsv tables of a Cook'n export zip"
        case .domestica: "a JSON array of recipes with name, timePrep or timeCook, and directions or ingredients"
        case .rezeptsuite: "CookML <recipe> elements (<head title=…>, <part>, <preparation>) in .xml or .cml files"
        case .recettetek:
            "a JSON array of recipes with title, preparationTime, cookingTime and instructions (recipes.json in an .rtk zip, or alone)"
        case .cookmate:
            "<recipe> elements of a <cookbook> (an .mcb zip of the cookbook .xml and images/, or the .xml alone)"
        case .pepperplate: "labelled .txt recipes (Title:, Ingredients:, Instructions:) in a zip, a folder or alone"
        case .saffron:
            "labelled .txt recipes (Title:, Cookbook:, Ingredients:, Instructions:) in a zip, a folder or alone"
        case .gourmet: "div.recipe pages (.htm) of Gourmet's HTML export (in the zip or alone)"
        case .cheftap: ".txt recipes (a title line, ingredients, directions) in cheftap_export/, a folder or alone"
        case .cookbookapp:
            "a zip of .html pages with a schema.org Recipe (JSON-LD or microdata), or of .yml recipe files (name, ingredients, directions)"
        case .bigoven:
            "BigOven recipe objects (Title, Ingredients, Instructions: one, a list, or a {\"Results\": [...]} envelope), or a CSV with BigOven's field names as headers"
        case .plain:
            "recipes with a title: a JSON object, array, envelope or NDJSON lines, YAML documents, or <recipe> elements"
        }
    }
}

extension ByteSource {
    /// Reads up to `count` bytes from the start (consuming them).
    func readPrefix(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try bytes.withUnsafeMutableBytes {
                try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if n == 0 { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }

    /// Reads everything that is left.
    ///
    /// Only for entries known to be small (an image, one recipe).
    func readAll(limit: Int = 256 << 20) throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit {
                throw LarderError(
                    .refusedInput, "larger than \(limit >> 20) MiB; refused", location: SourceLocation(file: name))
            }
        }
        return out
    }
}
