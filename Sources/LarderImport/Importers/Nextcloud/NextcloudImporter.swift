import Foundation
import LarderCore
import LarderFormats

/// Imports Nextcloud Cookbook folders: one folder per recipe holding a schema.org
/// `recipe.json` and its photo (`full.jpg`), either as a folder on disk or as a zip of it.
package struct NextcloudImporter: RecipeImporter {
    package var format: ImportFormat { .nextcloud }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if isDirectory.boolValue {
            try importFolder(path, context: context)
        } else {
            try importArchive(path, context: context)
        }
    }

    private func importFolder(_ root: String, context: ImportContext) throws {
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw LarderError(.io, "cannot list the folder", location: SourceLocation(file: root))
        }
        var recipeFiles: [String] = []
        while let relative = walker.nextObject() as? String {
            let components = relative.split(separator: "/")
            if components.contains(where: { $0.hasPrefix(".") || $0 == "__MACOSX" }) { continue }
            if components.last?.lowercased() == "recipe.json" { recipeFiles.append(relative) }
        }
        if recipeFiles.isEmpty {
            throw LarderError(
                .usage, "no recipe.json in this folder: not a Nextcloud Cookbook folder",
                location: SourceLocation(file: root))
        }
        for relative in recipeFiles.sorted() {
            let origin = ImportOrigin(file: root, entry: relative)
            let folder = String(relative.dropLast("recipe.json".count))
            try context.isolating(origin) {
                // Symlinks are followed only while they stay inside the folder being imported.
                let recipePath: String
                switch ContainedFile.resolveInside(relative, base: root, folder: ".") {
                case .success(let path): recipePath = path
                case .failure(let reason): throw LarderError(.refusedInput, "\(relative): \(reason); not read")
                }
                var image: [UInt8]?
                for name in ["full.jpg", "full.png", "full.webp"]
                where FileManager.default.fileExists(atPath: root + "/" + folder + name) {
                    switch ContainedFile.resolveInside(folder + name, base: root, folder: ".") {
                    case .success(let path): image = try FileByteSource(path: path).readAll(limit: 64 << 20)
                    case .failure(let reason):
                        context.warn("\(folder + name): \(reason); image not read", origin: origin)
                    }
                    break
                }
                try read(FileByteSource(path: recipePath), image: image, origin: origin, context: context)
            }
        }
    }

    private func importArchive(_ path: String, context: ImportContext) throws {
        // Photos sit beside recipe.json; collect them per folder first (the central directory
        // order is not guaranteed), then read each recipe.
        let archive = try ZipArchive(path: path)
        var recipes: [ZipEntry] = []
        var images: [String: ZipEntry] = [:]
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            let name = entry.fileName.lowercased()
            let folder = String(entry.path.dropLast(entry.fileName.count))
            if name == "recipe.json" { recipes.append(entry) }
            if name == "full.jpg" || name == "full.png" || name == "full.webp" { images[folder] = entry }
        }
        for entry in recipes {
            let origin = ImportOrigin(file: path, entry: entry.path)
            try context.isolating(origin) {
                _ = try entry.safeRelativePath(archive: path)
                let folder = String(entry.path.dropLast(entry.fileName.count))
                let image = try images[folder].map { try archive.open($0).readAll(limit: 64 << 20) }
                try read(archive.open(entry), image: image, origin: origin, context: context)
            }
        }
    }

    /// What the importer does with each field of a Nextcloud Cookbook `recipe.json`: schema.org's
    /// table, plus Nextcloud's own `id`; its image routes (`imageUrl`, `imagePlaceholderUrl`,
    /// `printImage`) and any other field are kept in `extras.nextcloud`.
    package static let fieldTable = FieldTable(.nextcloud, SchemaOrgRecipeParser.fieldTable.fates).merging([
        "id": .carried("id")
    ])

    private func read(_ source: any ByteSource, image: [UInt8]?, origin: ImportOrigin, context: ImportContext) throws {
        let value = try context.readJSON(source, origin: origin)
        try context.isolating(origin, raw: value) {
            var recipe = try SchemaOrgRecipeParser().parse(value, table: Self.fieldTable) { recipe in
                if let id = value["id"].flatMap({
                    $0.stringValue ?? ($0.objectValue == nil ? SchemaOrgRecipeParser().text($0) : nil)
                }) {
                    recipe.nativeID = id
                }
            }
            if let image, !image.isEmpty {
                recipe.images.insert(
                    .data(image, fileExtension: ImageKind.fileExtension(for: Array(image.prefix(16)))), at: 0)
            }
            try context.records.recipe(recipe, origin: origin)
        }
    }
}
