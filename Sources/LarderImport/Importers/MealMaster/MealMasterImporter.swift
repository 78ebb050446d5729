import Foundation
import LarderCore
import LarderFormats

/// Imports MealMaster text files (`.mmf`, `.mm`, `.txt`): every recipe between a header line
/// (`MMMMM----- Recipe via Meal-Master` … `MMMMM`, or `----- Recipe via Meal-Master` … `-----`,
/// or RezKonv's `=====  REZKONV-Rezept - RezkonvSystem` … `=====`, read as the same layout with
/// German header keys `Titel:`, `Kategorien:`, `Menge:` and free-width unit words),
/// with text before, between and after recipes (mail headers, BBS banners) ignored.
///
/// A file with none of these header lines in its first 64 KiB is read as MealMaster-like text
/// without framing, as some apps print it (issue 14): each recipe starts at its `Title:` line,
/// with the same header keys, ingredient columns and directions, and ends at the next `Title:`
/// line or at the end of the file; text before the first `Title:` line is ignored.
///
/// Streams: one line and one recipe are held at a time. Files that are not UTF-8 (MealMaster
/// wrote CP437 or windows-1252) are read as windows-1252 with a warning. Each recipe is isolated:
/// one with no title, no ingredients and no directions, no end line, or larger than the record
/// size limit is rejected with its index and the line of its header, and the rest import. See
/// ``MealMasterRecipeReader`` for the layout it reads.
package struct MealMasterImporter: RecipeImporter {
    package var format: ImportFormat { .mealmaster }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let head = try FileByteSource(path: path).readPrefix(ImportDetector.sniffLength)
        let isUnframed = !Self.claims(String(decoding: head, as: UTF8.self))
        let decoded = TranscodingByteSource(try FileByteSource(path: path), encoding: nil)
        let lines = TextLineReader(decoded, maxLineBytes: context.readerLimits.maxRecordSize)
        let fileOrigin = ImportOrigin(file: path)
        var current: MealMasterRecipeReader?
        var index = 0
        var size = 0
        var oversized = false

        func close(_ reader: inout MealMasterRecipeReader, problem: String?) throws {
            let origin = fileOrigin.item(index)
            index += 1
            try context.isolating(origin) {
                if oversized {
                    throw LarderError(
                        .refusedInput,
                        "the recipe is larger than the record size limit (\(context.readerLimits.maxRecordSize) bytes); refused",
                        location: SourceLocation(line: reader.headerLine))
                }
                if let problem {
                    throw LarderError(.malformedRecord, problem, location: SourceLocation(line: reader.headerLine))
                }
                try context.records.recipe(try reader.finish(), origin: origin)
            }
        }

        while let line = try lines.next() {
            if let framing = MealMasterRecipeReader.framing(ofHeader: line) {
                if var open = current {
                    current = nil
                    try close(
                        &open, problem: "the recipe has no end line before the next recipe at line \(lines.lineNumber)")
                }
                current = MealMasterRecipeReader(framing: framing, headerLine: lines.lineNumber)
                size = 0
                oversized = false
                continue
            }
            if isUnframed, MealMasterRecipeReader.isTitleLine(line) {
                if var done = current {
                    current = nil
                    try close(&done, problem: nil)
                }
                current = MealMasterRecipeReader(framing: .unframed, headerLine: lines.lineNumber)
                size = 0
                oversized = false
            }
            guard current != nil else { continue }
            if current?.isEnd(line) == true, var done = current {
                current = nil
                try close(&done, problem: nil)
                continue
            }
            size += line.utf8.count + 1
            if size > context.readerLimits.maxRecordSize { oversized = true }
            // In place (no copy of what the recipe holds so far).
            if !oversized { current?.add(line) }
        }
        if var open = current {
            let end: String? =
                switch open.framing {
                case .mmmmm: "MMMMM"
                case .dashes: "-----"
                case .rezkonv: "====="
                case .unframed: nil
                }
            try close(&open, problem: end.map { "the file ends before the recipe's end line (\($0))" })
        }
        if decoded.usedFallback { context.warnEncodingFallback(fileOrigin) }
    }
}

extension MealMasterImporter {
    /// Whether the first bytes of a file (as text) are MealMaster-like text without framing: a
    /// `Title:` line and, after it, an ingredient line in MealMaster's columns with a quantity or a
    /// unit code (`  1 1/2 c  Flour`).
    static func claimsUnframed(_ head: String) -> Bool {
        var sawTitle = false
        var found = false
        forEachLine(of: head) { line in
            if MealMasterRecipeReader.isTitleLine(line) {
                sawTitle = true
            } else if sawTitle, let ingredient = MealMasterRecipeReader.ingredient(Array(line)[...]),
                !ingredient.isBlankAmount
            {
                found = true
            }
            return !found
        }
        return found
    }

    /// Whether the first bytes of a file (as text) hold a MealMaster header line.
    ///
    /// A header line starts with `MMMMM` or `-----` and names Meal-Master, or with `=====` and names
    /// RezKonv; nothing else claims a file.
    static func claims(_ head: String) -> Bool {
        var found = false
        forEachLine(of: head) { line in
            found = MealMasterRecipeReader.framing(ofHeader: line) != nil
            return !found
        }
        return found
    }

    /// Calls `body` with each line of `text` until it returns `false`: the lines Foundation's
    /// `enumerateLines` gives (split at LF, CR, CR LF, NEL, LS and PS), without its `NSString` copy
    /// of every line, which cost a tenth of the importer's time under the fuzzer.
    static func forEachLine(of text: String, _ body: (String) -> Bool) {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var i = start
        while i < scalars.endIndex {
            let scalar = scalars[i]
            switch scalar.value {
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: break
            default:
                i = scalars.index(after: i)
                continue
            }
            if !body(String(scalars[start..<i])) { return }
            i = scalars.index(after: i)
            if scalar == "\r", i < scalars.endIndex, scalars[i] == "\n" { i = scalars.index(after: i) }
            start = i
        }
        if start < scalars.endIndex { _ = body(String(scalars[start...])) }
    }
}
