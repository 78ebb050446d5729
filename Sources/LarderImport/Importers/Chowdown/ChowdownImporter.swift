import Foundation
import LarderCore
import LarderFormats

/// Imports Chowdown recipes (clarklab/chowdown, a Jekyll recipe site): Markdown files with YAML
/// front matter, in a site folder or a zip of one (`_recipes/*.md`, photos in `images/`), or a
/// single `.md` file.
///
/// The front matter's `title`, `image` (a file name in the site's `images/` folder, or a URL),
/// `tags`, `categories`, `ingredients` (a line ending in `:` heads the lines after it),
/// `directions`, `preptime`/`cooktime`/`totaltime` (ISO 8601, or Tandoor's `prep_time` as
/// `h:mm:ss`), `yield`, `nutrition` (schema.org names; a bare number takes Chowdown's unit),
/// `url` and `author` are read; the body is the description, and what follows a `## Notes`
/// heading the notes. Other keys (`imagecredit`, `components`, …) are kept in
/// `extras["chowdown"]`. An image is read only from inside the site's `images/` folder.
package struct ChowdownImporter: RecipeImporter {
    package var format: ImportFormat { .chowdown }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            try importFolder(path, context: context)
        } else if ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) {
            try importArchive(path, context: context)
        } else {
            let origin = ImportOrigin(file: path)
            try context.isolating(origin) {
                let text = try Self.text(try FileByteSource(path: path), origin: origin, context: context)
                try context.records.recipe(
                    try Self.recipe(text, fallbackTitle: Self.stem(path), image: nil), origin: origin)
            }
        }
    }

    /// Whether a path inside a site or archive is a recipe page: a `.md` or `.markdown` file,
    /// not hidden, and not Jekyll's `README`.
    static func isRecipeFile(_ relative: String) -> Bool {
        let lower = relative.lowercased()
        let parts = lower.split(separator: "/")
        guard lower.hasSuffix(".md") || lower.hasSuffix(".markdown") else { return false }
        guard !parts.contains(where: { $0.hasPrefix(".") }), parts.last?.hasPrefix("readme") == false else {
            return false
        }
        // In a whole site, only the recipe collections; a bare folder of Markdown files is all recipes.
        return parts.count == 1 || parts.contains { collections.contains(String($0)) }
    }

    private func importFolder(_ root: String, context: ImportContext) throws {
        try FolderWalker(path: root).forEachFile(context: context, accept: Self.isRecipeFile) {
            file, resolved, origin in
            let text = try Self.text(try FileByteSource(path: resolved), origin: origin, context: context)
            let site = Self.siteRoot(of: file)
            let recipe = try Self.recipe(text, fallbackTitle: Self.stem(file)) { name in
                let folder = site.isEmpty ? "images" : "\(site)/images"
                guard
                    case .success(let image) = ContainedFile.resolveInside(
                        "\(folder)/\(name)", base: root, folder: folder)
                else { return nil }
                return try FileByteSource(path: image).readAll(limit: 64 << 20)
            }
            try context.records.recipe(recipe, origin: origin)
        }
    }

    private func importArchive(_ path: String, context: ImportContext) throws {
        let archive = try ZipArchive(path: path)
        var pages: [ZipEntry] = []
        var images: [String: ZipEntry] = [:]
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            if Self.isRecipeFile(entry.path) {
                pages.append(entry)
            } else if entry.path.split(separator: "/").contains("images") {
                images[entry.path] = entry
            }
        }
        for entry in pages {
            let origin = ImportOrigin(file: path).entry(entry.path)
            try context.isolating(origin) {
                _ = try entry.safeRelativePath(archive: path)
                let text = try Self.text(try archive.open(entry), origin: origin, context: context)
                let site = Self.siteRoot(of: entry.path)
                let recipe = try Self.recipe(text, fallbackTitle: Self.stem(entry.path)) { name in
                    guard !name.contains("/"), !name.contains("\\"), !name.hasPrefix(".") else { return nil }
                    let key = site.isEmpty ? "images/\(name)" : "\(site)/images/\(name)"
                    return try images[key].map { try archive.open($0).readAll(limit: 64 << 20) }
                }
                try context.records.recipe(recipe, origin: origin)
            }
        }
    }

    /// The folders of a site that hold recipe pages: Chowdown's recipes and components (recipes
    /// other recipes use), and `recipes/` as Tandoor's Chowdown reader also takes it.
    static let collections: Set<String> = ["_recipes", "_components", "recipes"]

    /// The site folder a recipe page belongs to: the folder above `_recipes/` (empty for the top).
    static func siteRoot(of relative: String) -> String {
        var parts = relative.split(separator: "/").dropLast()
        if let last = parts.last, collections.contains(last.lowercased()) { parts.removeLast() }
        return parts.joined(separator: "/")
    }

    /// A file's name without folder and extension.
    static func stem(_ path: String) -> String {
        let name = String(path.split(separator: "/").last ?? Substring(path))
        return name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    /// The page's text, decoded to UTF-8 (windows-1252 with a warning when it is not UTF-8).
    static func text(_ source: any ByteSource, origin: ImportOrigin, context: ImportContext) throws -> String {
        let decoded = TranscodingByteSource(source, encoding: nil)
        let bytes = try decoded.readAll(limit: context.readerLimits.maxRecordSize)
        if decoded.usedFallback { context.warnEncodingFallback(origin) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ChowdownImporter {
    /// Whether a path in a folder or archive is a Chowdown recipe page: `…/_recipes/<name>.md`.
    static func isSiteRecipe(_ path: String) -> Bool {
        let lower = "/" + path.lowercased()
        return lower.contains("/_recipes/") && isRecipeFile(path)
    }

    /// Whether a text file is a Chowdown page: a `.md`/`.markdown` name, a `---` first line and
    /// an `ingredients:` or `directions:` key.
    static func claims(_ text: String, name: String) -> Bool {
        guard name.hasSuffix(".md") || name.hasSuffix(".markdown") else { return false }
        let start = text.drop { $0 == "\u{FEFF}" }
        guard start.hasPrefix("---\n") || start.hasPrefix("---\r\n") else { return false }
        return text.contains("\ningredients:") || text.contains("\ndirections:")
    }
}
