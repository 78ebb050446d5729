import LarderCore
import LarderFormats

/// Tidies ingredient lines read from page markup: list bullets typed into the text are
/// dropped, and a group name ("MASHED POTATOES", "For the glaze") gets the colon that makes
/// ``SchemaOrgRecipeParser`` read it as a heading.
enum MarkupIngredientLines {
    static func tidy(_ lines: [String]) -> [String] {
        lines.compactMap { raw in
            var line = raw.trimmingWhitespace
            while let first = line.first, "-•–·▪".contains(first) {
                line = String(line.dropFirst()).trimmingWhitespace
            }
            guard !line.isEmpty else { return nil }
            return isGroupName(line) ? line + ":" : line
        }
    }

    /// Whether `line` names a group: no digits and no colon yet, and either in capitals
    /// (at least four letters) or a short "For the …".
    static func isGroupName(_ line: String) -> Bool {
        guard !line.hasSuffix(":"), !line.contains(where: \.isNumber), line.count < 60 else { return false }
        let letters = line.filter(\.isLetter)
        if letters.count >= 4, letters.allSatisfy(\.isUppercase) { return true }
        let words = line.split(separator: " ")
        return words.count <= 6 && words.count >= 2 && words[0].lowercased() == "for"
    }

    /// Whether an instruction line is only a step's label: "Step 2", "3.", "Step 1: Make the sauce".
    static func isStepLabel(_ line: String) -> Bool {
        var rest = Substring(line.lowercased())
        if rest.hasPrefix("step") {
            rest = rest.dropFirst(4)
        } else if rest.hasPrefix("étape") {
            rest = rest.dropFirst(5)
        }
        rest = rest.drop { $0 == " " }
        guard let first = rest.first, first.isNumber else { return false }
        rest = rest.drop(while: \.isNumber).drop { $0 == "." || $0 == ":" || $0 == ")" || $0 == " " }
        // What follows a step's number in a label is a short title, not a sentence.
        return rest.isEmpty || (line.lowercased().hasPrefix("step") && rest.count < 60 && !rest.contains("."))
    }

    /// `recipe` with its ingredient members (`recipeIngredient`, `ingredients`) as tidied lists
    /// of lines, and instruction text without step labels.
    static func tidying(_ recipe: Value) -> Value {
        guard case .object(var fields) = recipe else { return recipe }
        for key in ["recipeIngredient", "ingredients"] {
            guard let member = fields[key] else { continue }
            let elements = member.arrayValue ?? [member]
            guard elements.allSatisfy({ $0.stringValue != nil }) else { continue }
            let lines = elements.compactMap(\.stringValue).flatMap {
                HTMLText.normalizeKeepingLines($0).split(separator: "\n").map(String.init)
            }
            fields[key] = .array(tidy(lines).map { .string($0) })
        }
        if let member = fields["recipeInstructions"] {
            let elements = member.arrayValue ?? [member]
            if elements.allSatisfy({ $0.stringValue != nil }) {
                let lines = elements.compactMap(\.stringValue).flatMap {
                    HTMLText.normalizeKeepingLines($0).split(separator: "\n").map(String.init)
                }
                let steps = lines.filter {
                    !isStepLabel($0) && !PageTextReader.names($0, PageTextReader.instructionWords)
                }
                fields["recipeInstructions"] = .array(steps.map { .string($0) })
            } else {
                // A step named only by its number ("Step 1") is its text alone.
                fields["recipeInstructions"] = .array(elements.map(withoutLabelName))
            }
        }
        return .object(fields)
    }

    private static func withoutLabelName(_ step: Value) -> Value {
        guard case .object(var fields) = step, let name = fields["name"]?.stringValue, isStepLabel(name),
            fields["text"] != nil
        else { return step }
        fields.removeValue(forKey: "name")
        return .object(fields)
    }
}
