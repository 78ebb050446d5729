import Foundation
import LarderCore
import LarderFormats

/// A Markdown file with YAML front matter, as a Jekyll site (Chowdown) keeps a recipe: the
/// mapping between the opening `---` line and the next `---` (or `...`) line, and the body after it.
struct ChowdownDocument: Sendable, Hashable {
    /// The front matter's keys and values, in file order.
    var frontMatter: Fields
    /// The Markdown after the front matter, trimmed.
    var body: String

    /// Reads a document.
    /// - Throws: ``LarderError`` `malformed-record` when the text does not open with a `---`
    ///   line or the front matter is not closed or not a mapping; `syntax-error` with the file's
    ///   line and column when the front matter is not YAML.
    static func parse(_ text: String, limits: ReaderLimits = .default) throws -> ChowdownDocument {
        var lines = text.replacingAll("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard lines.first.map({ $0.trimmingWhitespace == "---" }) == true else {
            throw LarderError(
                .malformedRecord, "no front matter: a Chowdown recipe opens with a '---' line",
                location: SourceLocation(line: 1, column: 1))
        }
        guard let end = lines.dropFirst().firstIndex(where: { ["---", "..."].contains($0.trimmingWhitespace) }) else {
            throw LarderError(
                .malformedRecord, "the front matter is not closed by a '---' line",
                location: SourceLocation(line: 1, column: 1))
        }
        let yaml = lines[1..<end].joined(separator: "\n")
        // The body is Markdown, which is HTML: the references Larder's export writes for `<`, `>` and
        // `&` (and any site's own) read back as the characters.
        let body = lines[(end + 1)...].joined(separator: "\n").trimmingWhitespace
            .replacingAll("&lt;", with: "<").replacingAll("&gt;", with: ">").replacingAll("&amp;", with: "&")
        return ChowdownDocument(frontMatter: try mapping(yaml, limits: limits), body: body)
    }

    /// The front matter's mapping; empty front matter is an empty mapping.
    private static func mapping(_ yaml: String, limits: ReaderLimits) throws -> Fields {
        guard !yaml.trimmingWhitespace.isEmpty else { return Fields() }
        let value: Value?
        do {
            value = try YAMLReader(source: MemoryByteSource(Array(yaml.utf8)), limits: limits).next()?.value
        } catch var error as LarderError {
            // Lines count from the file's first line: the front matter starts on line 2.
            if var location = error.location, let line = location.line {
                location.line = line + 1
                location.file = nil
                error.location = location
            }
            throw error
        }
        guard let value else { return Fields() }
        guard let fields = value.objectValue else {
            throw LarderError(
                .malformedRecord, "the front matter is not a mapping of keys", location: SourceLocation(line: 2))
        }
        return fields
    }
}
