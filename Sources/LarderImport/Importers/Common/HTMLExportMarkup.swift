import Foundation

/// The first bytes of an app's HTML export page, for detection: attributes as HTML allows them
/// (space around `=`, as a real CopyMeThat export writes `class = "recipe"`) read in the compact form.
package struct HTMLExportMarkup {
    /// The page's first bytes as text, with the space around `=` before a quoted value removed.
    let text: String

    /// Reads a page's first bytes.
    init(_ head: [UInt8]) {
        text = String(decoding: head, as: UTF8.self)
            .replacingOccurrences(of: #"\s*=\s*(["'])"#, with: "=$1", options: .regularExpression)
    }

    /// Whether an element has the attribute `name` with `value` (double or single quotes).
    func has(_ name: String, _ value: String) -> Bool {
        text.contains("\(name)=\"\(value)\"") || text.contains("\(name)='\(value)'")
    }

    /// Whether the markup contains `fragment` as written.
    func contains(_ fragment: String) -> Bool { text.contains(fragment) }

    /// The export page of an input: a `.html`/`.htm` file, or an archive's `recipes.html` entry;
    /// nil when there is none.
    /// - Throws: ``LarderError`` when the entry cannot be read.
    static func page(of probe: ImportProbe) throws -> HTMLExportMarkup? {
        switch probe.kind {
        case .file: return probe.nameEnds(with: ".html", ".htm") ? HTMLExportMarkup(probe.head) : nil
        case .archive:
            guard let entry = probe.firstEntry(where: { $0.name == HTMLExportArchive.pageName }) else { return nil }
            return HTMLExportMarkup(try probe.head(of: entry))
        case .folder: return nil
        }
    }
}
