import LarderCore
import LarderFormats

/// One recipe file of a labelled text export (Pepperplate, Saffron): `Label: value` lines, and
/// block labels (`Ingredients:`, `Instructions:`, `Notes:`) whose value is the lines below them.
///
/// A label starts a line (no indent) and is a word or words of letters (`Original URL`) before a
/// colon. A header label's value is the rest of its line, and an unlabelled line after it continues
/// it (joined with a newline). A block's lines are read trimmed, blank ones skipped, until the next
/// block label (inside a block any other `Word:` line is content: an instruction may start `Note:`
/// or `Cook:`). Labels the format does not know are kept as fields too, so the census sends them to
/// extras. Streams one line at a time; the fields are held for one recipe, within the record
/// size limit.
struct LabeledTextRecipe {
    /// What a format writes: the labels whose value is the lines below them.
    struct Layout {
        var blocks: Set<String>

        /// Pepperplate's and Saffron's blocks: `Ingredients`, `Instructions`, `Notes`.
        static let appExport = Layout(blocks: ["Ingredients", "Instructions", "Notes"])
    }

    /// The fields in file order: a header label's text, a block label's lines (`[String]`).
    private(set) var fields = Fields()
    /// The 1-based line each field starts on.
    private(set) var lines: [String: Int] = [:]

    /// Reads one file (see ``TextExportFiles/forEachLine(of:origin:context:_:)``).
    /// - Throws: ``LarderError`` `malformed-record` at the line of text before the first label or
    ///   of a NUL byte (not a text file); `refused-input` past the record size limit.
    static func read(
        _ source: any ByteSource, layout: Layout, origin: ImportOrigin, context: ImportContext
    ) throws -> LabeledTextRecipe {
        var recipe = LabeledTextRecipe()
        var current: (label: String, isBlock: Bool)?
        try TextExportFiles.forEachLine(of: source, origin: origin, context: context) { line, number in
            if let (label, rest) = label(of: line), current?.isBlock != true || layout.blocks.contains(label) {
                let isBlock = layout.blocks.contains(label)
                current = (label, isBlock)
                if recipe.lines[label] == nil { recipe.lines[label] = number }
                recipe.add(rest, to: label, isBlock: isBlock)
                return
            }
            let text = line.trimmingWhitespace
            guard !text.isEmpty else { return }
            guard let current else {
                throw LarderError(
                    .malformedRecord, "text before the first label: \"\(text.prefix(60))\" (expected `Title:`)",
                    location: SourceLocation(line: number))
            }
            recipe.add(text, to: current.label, isBlock: current.isBlock)
        }
        return recipe
    }

    /// `Label: value` → (`Label`, `value` trimmed), when the line starts with a label.
    static func label(of line: String) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let label = line[..<colon]
        guard let first = label.first, first.isLetter, label.count <= 30,
            label.allSatisfy({ $0.isLetter || $0 == " " }), label.last != " "
        else { return nil }
        return (String(label), String(line[line.index(after: colon)...]).trimmingWhitespace)
    }

    private mutating func add(_ text: String, to label: String, isBlock: Bool) {
        let old = fields[label]
        if isBlock {
            var items = old?.arrayValue ?? []
            if !text.isEmpty { items.append(.string(text)) }
            fields[label] = .array(items)
        } else if let previous = old?.stringValue, !previous.isEmpty {
            fields[label] = .string(text.isEmpty ? previous : previous + "\n" + text)
        } else {
            fields[label] = .string(text)
        }
    }

    /// A header field's text, `nil` when absent or blank.
    func text(_ label: String) -> String? {
        guard let text = fields[label]?.stringValue?.trimmingWhitespace, !text.isEmpty else { return nil }
        return text
    }

    /// A block's lines (a header field's text as one line).
    func lines(_ label: String) -> [String] {
        if let items = fields[label]?.arrayValue { return items.compactMap(\.stringValue) }
        return text(label).map { [$0] } ?? []
    }

    /// The title, or the error rejecting a recipe without one.
    /// - Throws: ``LarderError`` `malformed-record` at field `label`.
    func title(_ label: String = "Title") throws -> String {
        guard let title = text(label) else {
            throw LarderError(
                .malformedRecord, "the recipe has no title (\(label):)",
                location: SourceLocation(line: lines[label], fieldPath: FieldPath.root.appending(label)))
        }
        return title
    }
}

extension LabeledTextRecipe {
    /// The recipe of the labels Pepperplate and Saffron both write.
    ///
    /// `Title`, `Description`, `Source` (a name), `Original URL`, `Yield`, `Image` (a URL), and the
    /// blocks `Ingredients`, `Instructions` (a step a line) and `Notes` (lines joined). The census is
    /// the caller's to take.
    /// - Throws: ``LarderError`` `malformed-record` at `Title` when the file has no title.
    func commonRecipe() throws -> ImportedRecipe {
        var recipe = ImportedRecipe(title: try title())
        recipe.description = text("Description")
        recipe.sourceName = text("Source")
        recipe.sourceURL = text("Original URL")
        if let yield = text("Yield") { recipe.readYield(yield) }
        recipe.images = text("Image").map { [.url($0)] } ?? []
        recipe.ingredients = lines("Ingredients")
        recipe.steps = lines("Instructions").map { ImportedRecipe.Step(text: $0) }
        let notes = lines("Notes").joined(separator: "\n")
        recipe.notes = notes.isEmpty ? nil : notes
        return recipe
    }

    /// The fates of the labels ``commonRecipe()`` reads.
    static let commonFates: [String: FieldFate] = [
        "Title": .carried("title"), "Description": .carried("description"), "Source": .carried("sourceName"),
        "Original URL": .carried("sourceURL"), "Yield": .carried("yield"), "Image": .carried("images"),
        "Ingredients": .carried("ingredients"), "Instructions": .carried("instructions"), "Notes": .carried("notes"),
    ]
}

extension ImportedRecipe {
    /// Sets the yield from its text as written: normalized text, and servings when it counts them.
    mutating func readYield(_ text: String) {
        yieldText = RecipeYield.normalized(text) ?? text
        yieldAsWritten = text
        servings = RecipeYield.servings(text)
    }
}

extension LabeledTextRecipe {
    /// Whether a text file's first bytes are a labelled recipe of one app: `Title` the first label,
    /// `Ingredients` and `Instructions` among them, and one of the app's own `distinctive` labels.
    static func claims(_ head: String, distinctive: Set<String>) -> Bool {
        guard let labels = labels(in: head), labels.first == "Title" else { return false }
        return labels.contains("Ingredients") && labels.contains("Instructions")
            && labels.contains(where: distinctive.contains)
    }

    /// The labels starting the lines of a text file's first bytes (a byte order mark skipped), in
    /// order; `nil` when the text has a NUL byte (not text).
    static func labels(in head: String) -> [String]? {
        guard !head.contains("\0") else { return nil }
        let text = head.hasPrefix("\u{FEFF}") ? head.dropFirst() : Substring(head)
        return text.nonEmptyLines.compactMap { label(of: String($0))?.0 }
    }
}
