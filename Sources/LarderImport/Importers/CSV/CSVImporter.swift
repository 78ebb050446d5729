import Foundation
import LarderCore
import LarderFormats

/// Imports a CSV (or TSV) file of recipes: a header line, then one recipe per row.
///
/// The dialect is sniffed from the header line (`;`, tab or `,`), a UTF-8 byte order mark is
/// dropped, and input that is not UTF-8 is read as windows-1252 with a warning. Columns map to
/// recipe fields by their header names in English, German or French (``CSVColumn``), or as
/// `columns` says (`--map`, which wins). Ingredient and instruction cells hold one line per
/// ingredient or step; categories and tags are separated by commas; times are minutes or text
/// such as `1 h 30`; a source or image that is a URL becomes the source URL or image. Columns no
/// field takes, and a source or time that cannot be read, are kept verbatim (non-empty cells only)
/// in `extras["csv"]`, keyed by header name, and every non-empty cell is counted in the field census.
///
/// App exports (``CSVProfile``: Plan to Eat, MyRecipeBox) are read with their own columns instead,
/// reported as their own format and kept in `extras[<format>]`.
///
/// Streams: one row is held at a time. Each row is isolated: one that breaks RFC 4180 (an
/// unclosed quote, a stray quote), has more cells than the header, or has no title is rejected
/// with its line, and the rest import.
package struct CSVImporter: RecipeImporter {
    /// The field → header name overrides.
    package var columns: [CSVColumn: String]
    /// The app export the file is (its columns by exact header name); `nil`: a generic spreadsheet.
    let profile: CSVProfile?

    package var format: ImportFormat { profile?.format ?? .csv }

    /// Creates the importer with `columns` overriding the automatic mapping.
    package init(columns: [CSVColumn: String] = [:]) {
        self.columns = columns
        profile = nil
    }

    /// Creates the importer for an app's export.
    init(profile: CSVProfile) {
        columns = [:]
        self.profile = profile
    }

    package func importItems(at path: String, context: ImportContext) throws {
        guard ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) else {
            return try importCSV(at: path, named: path, context: context)
        }
        // An export zipped (Plan to Eat's is one `plantoeat.csv` inside a zip): each `.csv` entry.
        let archive = try ZipArchive(path: path)
        var found = false
        while let entry = try archive.nextEntry() {
            guard !entry.isIgnorable, entry.fileName.lowercased().hasSuffix(".csv") else { continue }
            found = true
            try archive.withExtracted(entry, archive: path) { extracted in
                try importCSV(at: extracted, named: "\(path):\(entry.path)", context: context)
            }
        }
        guard found else {
            throw LarderError(
                .malformedRecord, "the zip archive holds no .csv file", location: SourceLocation(file: path))
        }
    }

    /// Imports the CSV file at `path`, naming it `name` in origins and errors.
    private func importCSV(at file: String, named path: String, context: ImportContext) throws {
        let head = try FileByteSource(path: file).readPrefix(64 * 1024)
        let delimiter = CSVRowReader.sniffDelimiter(head)
        let decoded = TranscodingByteSource(try FileByteSource(path: file), encoding: nil)
        let rows = CSVRowReader(decoded, delimiter: delimiter, maxRowBytes: context.readerLimits.maxRecordSize)
        let fileOrigin = ImportOrigin(file: path)
        guard var header = try rows.next() else { return }
        if let first = header.cells.first, first.hasPrefix("\u{FEFF}") { header.cells[0] = String(first.dropFirst()) }
        if let problem = header.problem {
            throw LarderError(.syntax, "the header line: \(problem)", location: SourceLocation(file: path, line: 1))
        }
        let roles = try roles(header.cells, path: path)
        // The census table is the file's, not the row's (building it for every row was 2 % of the time).
        let table = fieldTable(header: header.cells, roles: roles)
        // Each column's role by position, looked up once per file rather than hashed once per cell.
        let roleAt = header.cells.indices.map { roles[$0] }
        var index = 0
        while let row = try rows.next() {
            // A row of empty cells (`;;;;`, as spreadsheets leave below the data) is no recipe.
            if row.problem == nil, row.cells.allSatisfy({ $0.trimmingBlanks.isEmpty }) {
                continue
            }
            let origin = fileOrigin.item(index)
            index += 1
            try context.isolating(origin) {
                if let problem = row.problem {
                    throw LarderError(.syntax, problem, location: SourceLocation(line: row.line))
                }
                if row.cells.count > header.cells.count {
                    throw LarderError(
                        .malformedRecord,
                        "the row has \(row.cells.count) cells, the header \(header.cells.count)",
                        location: SourceLocation(line: row.line))
                }
                try context.records.recipe(
                    try recipe(row, header: header.cells, roleAt: roleAt, table: table), origin: origin)
            }
        }
        if decoded.usedFallback { context.warnEncodingFallback(fileOrigin) }
    }

    /// The field of each column (by position), from the overrides then the header names.
    /// - Throws: ``LarderError`` `usage-error` when an override names no column, or no column is the title.
    func mapping(_ headers: [String], path: String) throws -> [Int: CSVColumn] {
        var result: [Int: CSVColumn] = [:]
        var taken = Set<CSVColumn>()
        let listed = headers.map { "\"\($0)\"" }.joined(separator: ", ")
        for (column, name) in columns.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard
                let position = headers.firstIndex(where: { $0 == name })
                    ?? headers.firstIndex(where: { CSVColumn.fold($0) == CSVColumn.fold(name) })
            else {
                throw LarderError(
                    .usage, "--map \(column.rawValue)=\(name): the header has no column \"\(name)\" (it has \(listed))",
                    location: SourceLocation(file: path, line: 1))
            }
            result[position] = column
            taken.insert(column)
        }
        for (position, name) in headers.enumerated() where result[position] == nil {
            if let column = CSVColumn.automatic(name), !taken.contains(column) {
                result[position] = column
                taken.insert(column)
            }
        }
        guard taken.contains(.title) else {
            throw LarderError(
                .usage, "no column is the recipe's title (the header has \(listed)); name it with --map title=COLUMN",
                location: SourceLocation(file: path, line: 1))
        }
        return result
    }

    /// The role of each column (by position): the profile's, else the field of ``mapping(_:path:)``.
    /// - Throws: ``LarderError`` `usage-error` when no column is the title.
    func roles(_ headers: [String], path: String) throws -> [Int: CSVProfile.Role] {
        guard let profile else { return try mapping(headers, path: path).mapValues { .field($0) } }
        var result: [Int: CSVProfile.Role] = [:]
        for (position, name) in headers.enumerated() {
            if let role = profile.roles[name.trimmingBlanks], !result.values.contains(role) {
                result[position] = role
            }
        }
        guard result.values.contains(.field(.title)) else {
            let listed = headers.map { "\"\($0)\"" }.joined(separator: ", ")
            throw LarderError(
                .usage,
                "no \(profile.format.displayName) title column (the header has \(listed)); pass --from csv --map",
                location: SourceLocation(file: path, line: 1))
        }
        return result
    }

    /// The field census table of a file: each mapped column's header name carried into its role's field.
    func fieldTable(header: [String], roles: [Int: CSVProfile.Role]) -> FieldTable {
        var fates: [String: FieldFate] = [:]
        for (position, role) in roles { fates[header[position]] = .carried(role.larderField) }
        return FieldTable(format, fates)
    }

    /// The recipe in one row, with its field census against `table` (``fieldTable(header:roles:)``) and
    /// each column's role by position in `roleAt`:
    /// each mapped column is carried into its field (or kept in extras when its value could not be read,
    /// such as a time that is no duration or a source that is no URL), and every other non-empty cell is
    /// kept verbatim in `extras[format]`, keyed by header name.
    /// - Throws: ``LarderError`` `malformed-record` at field `title` when the title cell is empty.
    func recipe(_ row: CSVRowReader.Row, header: [String], roleAt: [CSVProfile.Role?], table: FieldTable) throws
        -> ImportedRecipe
    {
        var cells: [CSVProfile.Role: String] = [:]
        var fields = Fields()
        for (position, value) in row.cells.enumerated() where position < header.count {
            fields.append(key: header[position], value: .string(value))
            let trimmed = Self.unneutralised(value.trimmingBlanksAndNewlines)
            if let role = roleAt[position], !trimmed.isEmpty { cells[role] = trimmed }
        }
        guard let title = cells[.field(.title)] else {
            let name = roleAt.firstIndex { $0 == .field(.title) }.map { header[$0] } ?? "title"
            throw LarderError(
                .malformedRecord, "the row has no title (column \"\(name)\")",
                location: SourceLocation(line: row.line, fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        fill(&recipe, from: cells)
        // A generic spreadsheet's columns are all `.field` roles: the app fields would only look up nothing.
        if profile != nil { fillAppFields(&recipe, from: cells) }
        recipe.takeCensus(of: fields, table: table)
        return recipe
    }

    /// A cell as written before a spreadsheet-safe export (``CSVExporter``, OWASP "CSV Injection")
    /// put a `'` before its leading `=`, `+`, `-`, `@`, tab or carriage return.
    static func unneutralised(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let second = cell.dropFirst().first, "=+-@\t\r".contains(second) else { return cell }
        return String(cell.dropFirst())
    }

    /// The generic fields: text, ingredients, steps, yield, times, categories, tags, source and image.
    private func fill(_ recipe: inout ImportedRecipe, from cells: [CSVProfile.Role: String]) {
        func text(_ column: CSVColumn) -> String? { cells[.field(column)] }
        recipe.description = text(.description)
        recipe.notes = text(.notes)
        (recipe.ingredients, recipe.ingredientHeadings) = ingredients(text(.ingredients))
        recipe.steps = Self.lines(text(.instructions)).map { ImportedRecipe.Step(text: $0) }
        if let servings = text(.servings) {
            recipe.servings = RecipeYield.servings(servings)
            recipe.yieldText = RecipeYield.normalized(servings)
        }
        if let yield = text(.yield) {
            recipe.yieldText = RecipeYield.normalized(yield) ?? yield
            recipe.yieldAsWritten = yield
            if recipe.servings == nil { recipe.servings = RecipeYield.servingsAlone(yield) }
        }
        for (column, path) in [
            (CSVColumn.prepTime, \ImportedRecipe.prepMinutes), (.cookTime, \.cookMinutes), (.totalTime, \.totalMinutes),
        ] {
            recipe[keyPath: path] = text(column).flatMap { Int($0) ?? RecipeTime.minutes(from: $0) }
        }
        recipe.categories = list(text(.categories))
        recipe.keywords = list(text(.tags)) + (cells[.extraTag].map { [$0] } ?? [])
        if let source = text(.source), source.hasPrefix("http://") || source.hasPrefix("https://") {
            recipe.sourceURL = source
        }
        if let image = text(.image), image.hasPrefix("http://") || image.hasPrefix("https://") {
            recipe.images = [.url(image)]
        }
    }

    /// The fields only app exports have: source name, cuisine, rating, dates, favourite, video, nutrition,
    /// further categories, the app's id and a yield in two columns.
    private func fillAppFields(_ recipe: inout ImportedRecipe, from cells: [CSVProfile.Role: String]) {
        recipe.sourceName = cells[.sourceName]
        recipe.nativeID = cells[.nativeID]
        if let number = cells[.yieldNumber] {
            recipe.readYield([number, cells[.yieldUnit]].compactMap { $0 }.joined(separator: " "))
        }
        let extraCategories = cells.compactMap { role, value -> (Int, String)? in
            if case .extraCategory(let rank) = role { (rank, value) } else { nil }
        }
        recipe.categories += extraCategories.sorted { $0.0 < $1.0 }.map(\.1)
        if let cuisine = cells[.cuisine] {
            recipe.cuisine = cuisine
            recipe.cuisines = [cuisine]
        }
        // `0` is how apps write "not rated"; the cell is then kept in extras.
        recipe.rating = cells[.rating].flatMap { Double($0.replacingOccurrences(of: ",", with: ".")) }
            .flatMap { $0 > 0 ? $0 : nil }
        recipe.createdAt = cells[.createdAt].flatMap(RecipeDate.parse)
        recipe.updatedAt = cells[.updatedAt].flatMap(RecipeDate.parse)
        recipe.isFavorite = cells[.favorite].map { ["true", "yes", "1"].contains($0.lowercased()) } ?? false
        if let video = cells[.video], video.contains("://") { recipe.videoURL = video }
        for (role, value) in cells {
            if case .nutrient(let key) = role { recipe.nutrition[key] = value }
        }
        recipe.nutrition.merge(Self.nutrition(lines: cells[.nutritionLines])) { _, line in line }
    }

    /// Nutrition from `name : value` lines (MyRecipeBox and RecetteTek), under Larder's key for
    /// each name when it has one.
    static func nutrition(lines text: String?) -> [String: String] {
        var nutrition: [String: String] = [:]
        for line in lines(text) {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingBlanks }
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
                nutrition[CSVProfile.nutritionKey(parts[0])] = parts[1]
            }
        }
        return nutrition
    }

    /// The ingredient lines of a cell and the group headings among them (lines starting with the
    /// profile's heading prefix, or ending with its heading suffix).
    private func ingredients(_ cell: String?) -> ([String], [Int: String]) {
        var lines: [String] = []
        var headings: [Int: String] = [:]
        for raw in (cell ?? "").nonEmptyLines {
            if let prefix = profile?.headingPrefix, raw.hasPrefix(prefix) {
                let heading = raw.dropFirst(prefix.count).trimmingBlanks
                if !heading.isEmpty { headings[lines.count] = heading }
                continue
            }
            let line = raw.trimmingBlanks
            if let suffix = profile?.headingSuffix, line.hasSuffix(suffix), !line.contains(where: \.isNumber) {
                let heading = line.dropLast(suffix.count).trimmingBlanks
                if !heading.isEmpty { headings[lines.count] = heading }
                continue
            }
            if !line.isEmpty { lines.append(line) }
        }
        return (lines, headings)
    }

    /// The items of a list cell: split on the profile's separator, else on commas (or semicolons
    /// when the cell has no comma).
    func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        let separator: Character = profile?.listSeparator ?? (text.contains(",") ? "," : ";")
        return text.split(separator: separator).map { $0.trimmingBlanks }.filter { !$0.isEmpty }
    }

    /// The non-empty lines of a cell, trimmed.
    static func lines(_ text: String?) -> [String] {
        (text ?? "").nonEmptyLines.map { $0.trimmingBlanks }
            .filter { !$0.isEmpty }
    }
}

extension CSVImporter {
    /// Whether a file is CSV: by its name (`.csv`, `.tsv`) and a header line with a title column;
    /// with `--map` given, by its name alone.
    static func claims(_ head: String, name: String, columns: [CSVColumn: String]) -> Bool {
        guard name.hasSuffix(".csv") || name.hasSuffix(".tsv") else { return false }
        // `--map` says the file is a spreadsheet of recipes: a .csv with it is CSV, and a missing
        // column is then the importer's error (naming the file's columns), not a detection failure.
        if !columns.isEmpty { return true }
        return headerCells(head).contains { CSVColumn.automatic($0) == .title }
    }

    /// The app export whose header row the text starts with (``CSVProfile/signature``), whatever
    /// the file's name; `nil` with `--map` given (the columns are then the user's to name).
    static func profile(claiming head: String, columns: [CSVColumn: String]) -> CSVProfile? {
        columns.isEmpty ? CSVProfile.matching(headerCells(head)) : nil
    }

    /// The app export a text file's header row claims (see ``profile(claiming:columns:)``).
    static func profile(of probe: ImportProbe) -> CSVProfile? {
        guard probe.kind == .file, probe.isPlainText else { return nil }
        return profile(claiming: probe.text, columns: probe.options.csvColumns)
    }

    /// The cells of the first line, unquoted (a header line has no line breaks in its cells).
    private static func headerCells(_ head: String) -> [String] {
        let delimiter = CSVRowReader.sniffDelimiter(Array(head.utf8))
        let firstLine = head.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return firstLine.split(separator: Character(UnicodeScalar(delimiter)), omittingEmptySubsequences: false)
            .map { String($0.trimmingScalars { $0 == "\"" || $0 == "\u{FEFF}" || $0 == " " }) }
    }
}
