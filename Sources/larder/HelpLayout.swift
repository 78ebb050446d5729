internal import Foundation
internal import LarderSystem

/// The help text as a pipe shows it: argument-parser wraps every section to the width but the
/// USAGE line, which lists every option of a command on one line (172 columns for `store import`),
/// so `larder export --help | less` showed one line running far past the screen.
enum HelpLayout {
    /// The width help is laid out for: `COLUMNS` when set (as argument-parser reads it), 80 when
    /// standard output is no terminal; `nil` on a terminal, which wraps a long line itself.
    static var columns: Int? {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return columns
        }
        return isatty(1) == 1 ? nil : 80
    }

    /// `message` with its USAGE line wrapped to `columns` between options (an option and its value
    /// stay together), continuation lines indented under the command's first argument.
    static func wrappingUsage(_ message: String, columns: Int? = columns) -> String {
        guard let columns else { return message }
        var lines = message.components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.hasPrefix("USAGE: ") }), lines[index].count > columns else {
            return message
        }
        lines[index] = wrap(lines[index], columns: columns)
        return lines.joined(separator: "\n")
    }

    /// One usage line wrapped: words are split at spaces outside `[…]` and `<…>`.
    static func wrap(_ line: String, columns: Int) -> String {
        var words: [String] = []
        var word = ""
        var depth = 0
        for character in line {
            if character == "[" || character == "<" { depth += 1 }
            if character == "]" || character == ">" { depth = max(0, depth - 1) }
            if character == " ", depth == 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        // `USAGE: larder store import`: the command's words, up to its first argument or option.
        let commandWords = words.prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") && !$0.hasPrefix("-") }
        let indent = String(repeating: " ", count: min(commandWords.joined(separator: " ").count + 1, columns / 2))
        var out: [String] = []
        var current = commandWords.joined(separator: " ")
        for word in words.dropFirst(commandWords.count) {
            if current.count + 1 + word.count > columns, current.count > indent.count {
                out.append(current)
                current = indent + word
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        out.append(current)
        return out.joined(separator: "\n")
    }
}
