import Foundation
public import LarderCore
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
/// in `extras["csv"]`, keyed by header name.
///
/// Streams: one row is held at a time. Each row is isolated: one that breaks RFC 4180 (an
/// unclosed quote, a stray quote), has more cells than the header, or has no title is rejected
/// with its line, and the rest import.
public struct CSVImporter: RecipeImporter {
    /// The `--map` overrides for the imports this task runs (field → header name).
    ///
    /// A task-local, so that `larder import` can hand them to the importer without another
    /// parameter through ``ImportSession``.
    @TaskLocal public static var columnOverrides: [CSVColumn: String] = [:]

    /// The field → header name overrides.
    public var columns: [CSVColumn: String]

    public var format: ImportFormat { .csv }

    /// Creates the importer with `columns` overriding the automatic mapping.
    public init(columns: [CSVColumn: String] = [:]) {
        self.columns = columns
    }

    public func importItems(at path: String, into sink: any ImportSink) throws {
        let head = try FileByteSource(path: path).readPrefix(64 * 1024)
        let delimiter = CSVRowReader.sniffDelimiter(head)
        let decoded = TranscodingByteSource(try FileByteSource(path: path), encoding: nil)
        let rows = CSVRowReader(decoded, delimiter: delimiter, maxRowBytes: sink.readerLimits.maxRecordSize)
        let fileOrigin = ImportOrigin(file: path)
        guard var header = try rows.next() else { return }
        if let first = header.cells.first, first.hasPrefix("\u{FEFF}") { header.cells[0] = String(first.dropFirst()) }
        if let problem = header.problem {
            throw LarderError(.syntax, "the header line: \(problem)", location: SourceLocation(file: path, line: 1))
        }
        let mapping = try mapping(header.cells, path: path)
        var index = 0
        while let row = try rows.next() {
            // A row of empty cells (`;;;;`, as spreadsheets leave below the data) is no recipe.
            if row.problem == nil, row.cells.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                continue
            }
            let origin = fileOrigin.item(index)
            index += 1
            try sink.isolating(origin) {
                if let problem = row.problem {
                    throw LarderError(.syntax, problem, location: SourceLocation(line: row.line))
                }
                if row.cells.count > header.cells.count {
                    throw LarderError(
                        .malformedRecord,
                        "the row has \(row.cells.count) cells, the header \(header.cells.count)",
                        location: SourceLocation(line: row.line))
                }
                try sink.recipe(try recipe(row, header: header.cells, mapping: mapping), origin: origin)
            }
        }
        if decoded.usedFallback { sink.warnEncodingFallback(fileOrigin) }
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

    /// The recipe in one row.
    /// - Throws: ``LarderError`` `malformed-record` at field `title` when the title cell is empty.
    func recipe(_ row: CSVRowReader.Row, header: [String], mapping: [Int: CSVColumn]) throws -> ImportedRecipe {
        var cells: [CSVColumn: String] = [:]
        var extras = Fields()
        func keep(_ position: Int, _ value: String) {
            if !value.isEmpty { extras.append(key: header[position], value: .string(value)) }
        }
        for (position, value) in row.cells.enumerated() {
            if let column = mapping[position] { cells[column] = value } else { keep(position, value) }
        }
        func text(_ column: CSVColumn) -> String? {
            cells[column].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func headerName(_ column: CSVColumn) -> String {
            mapping.first { $0.value == column }.map { header[$0.key] } ?? column.rawValue
        }
        guard let title = text(.title) else {
            throw LarderError(
                .malformedRecord, "the row has no title (column \"\(headerName(.title))\")",
                location: SourceLocation(line: row.line, fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.description = text(.description)
        recipe.notes = text(.notes)
        recipe.ingredients = Self.lines(text(.ingredients))
        recipe.steps = Self.lines(text(.instructions)).map { ImportedRecipe.Step(text: $0) }
        if let servings = text(.servings) {
            recipe.servings = RecipeYield.servings(servings)
            recipe.yieldText = RecipeYield.normalized(servings)
        }
        if let yield = text(.yield) {
            recipe.yieldText = RecipeYield.normalized(yield) ?? yield
            if recipe.servings == nil { recipe.servings = RecipeYield.servingsAlone(yield) }
        }
        for (column, path) in [
            (CSVColumn.prepTime, \ImportedRecipe.prepMinutes), (.cookTime, \.cookMinutes), (.totalTime, \.totalMinutes),
        ] {
            guard let value = text(column) else { continue }
            if let minutes = Int(value) ?? RecipeTime.minutes(from: value) {
                recipe[keyPath: path] = minutes
            } else {
                extras.append(key: headerName(column), value: .string(value))
            }
        }
        recipe.categories = Self.list(text(.categories))
        recipe.keywords = Self.list(text(.tags))
        if let source = text(.source) {
            if source.hasPrefix("http://") || source.hasPrefix("https://") {
                recipe.sourceURL = source
            } else {
                extras.append(key: headerName(.source), value: .string(source))
            }
        }
        if let image = text(.image) {
            if image.hasPrefix("http://") || image.hasPrefix("https://") {
                recipe.images = [.url(image)]
            } else {
                extras.append(key: headerName(.image), value: .string(image))
            }
        }
        if !extras.isEmpty { recipe.extras.append(key: ImportFormat.csv.rawValue, value: .object(extras)) }
        return recipe
    }

    /// The non-empty lines of a cell, trimmed.
    static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The items of a list cell, separated by commas (or semicolons when it has no comma).
    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        let separator: Character = text.contains(",") ? "," : ";"
        return text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension CSVImporter {
    /// Whether a file is CSV: by its name (`.csv`, `.tsv`) and a header line with a title column;
    /// with `--map` given, by its name alone.
    static func claims(_ head: String, name: String) -> Bool {
        guard name.hasSuffix(".csv") || name.hasSuffix(".tsv") else { return false }
        let bytes = Array(head.utf8)
        let delimiter = CSVRowReader.sniffDelimiter(bytes)
        let firstLine = head.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let cells = firstLine.split(separator: Character(UnicodeScalar(delimiter)), omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\u{FEFF} ")) }
        // `--map` says the file is a spreadsheet of recipes: a .csv with it is CSV, and a missing
        // column is then the importer's error (naming the file's columns), not a detection failure.
        if !columnOverrides.isEmpty { return true }
        return cells.contains { CSVColumn.automatic($0) == .title }
    }
}
