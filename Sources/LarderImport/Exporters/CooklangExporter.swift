import Foundation
package import LarderCore
import LarderFormats

/// Writes Cooklang: one `.cook` file per recipe into a folder.
///
/// For `-o x.zip` the files go into a zip; for a single recipe, `-o x.cook` is the file.
/// Metadata goes in YAML front matter (title, description, author, servings, yield, source and
/// its name, tags, course, cuisine, diet, difficulty, prep/cook/total time, locale, image, video,
/// using Cooklang's canonical keys, then `extras["cooklang"]`'s members); the ingredients open
/// the recipe as a step of `@` items, so no line is lost, and each step's timer follows its text
/// as `~{n%minutes}`.
package final class CooklangExporter: RecipeExporter {
    private let output: ExportOutput
    private var names = Set<String>()

    /// Opens the output: a folder (created), a `.zip`, a `.cook` file, or standard output.
    package init(path: String?) throws {
        output = try ExportOutput(path: path, zipSuffixes: [".zip"], singleSuffixes: [".cook"], stdoutIsZip: false)
    }

    package func write(_ item: ExportItem) throws {
        let text = Array(Self.text(item.recipe).utf8)
        if try output.addSingle(text, holding: "a .cook file") { return }
        let name = ExportText.unique(PaprikaExporter.fileName(item.recipe.title), in: &names)
        try output.add(name + ".cook", text)
    }

    package func finish() throws {
        try output.finish()
    }

    /// The Cooklang text of a recipe.
    package static func text(_ recipe: Recipe) -> String {
        var out = "---\n"
        var written = Set<String>()
        func meta(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            written.insert(key.lowercased())
            out += "\(key): \(value.replacingAll("\n", with: " "))\n"
        }
        func list(_ values: [String]) -> String? { values.isEmpty ? nil : values.joined(separator: ", ") }
        meta("title", recipe.title)
        meta("description", recipe.description)
        meta("author", recipe.author?.name)
        meta("servings", recipe.servings.map(String.init))
        meta("yield", recipe.yield?.text)
        meta("source", recipe.sourceURL ?? recipe.sourceName)
        meta("source.name", recipe.sourceURL == nil ? nil : recipe.sourceName)
        meta("tags", list(recipe.tags))
        meta("course", list(recipe.categories + recipe.courses))
        meta("cuisine", list(recipe.cuisines))
        meta("diet", list(recipe.dietaryNotes))
        meta("difficulty", recipe.difficulty?.rawValue)
        meta("prep time", recipe.prepTime.map { "\($0) minutes" })
        meta("cook time", recipe.cookTime.map { "\($0) minutes" })
        meta("time required", recipe.totalTime.map { "\($0) minutes" })
        meta("locale", recipe.language)
        meta("image", ExportText.remoteImageURL(recipe))
        meta("video", recipe.videoURL)
        // extras["cooklang"]: metadata Larder has no field for, back as it was (Larder's keys win).
        for member in recipe.extras[ImportFormat.cooklang.rawValue]?.objectValue ?? Fields()
        where !written.contains(member.key.lowercased()) {
            meta(member.key, member.value.stringValue ?? (try? JSONWriter.string(member.value)))
        }
        out += "---\n\n"
        if !recipe.ingredients.isEmpty {
            out +=
                recipe.ingredients.map { "@" + safe($0.original.isEmpty ? $0.item : $0.original) + "{}" }.joined(
                    separator: "\n") + "\n\n"
        }
        for step in recipe.instructions {
            var line = safe(step.text).replacingAll("@", with: "at ").replacingAll("#", with: "no. ").replacingAll(
                "~", with: "about ")
            if let timer = step.timerSeconds {
                line += timer % 60 == 0 ? " ~{\(timer / 60)%minutes}" : " ~{\(timer)%seconds}"
            }
            out += line + "\n\n"
        }
        return out
    }

    private static func safe(_ text: String) -> String {
        text.replacingAll("{", with: "(").replacingAll("}", with: ")").replacingAll("\n", with: " ").replacingAll(
            "--", with: "–")
    }
}
