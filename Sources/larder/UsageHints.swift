import ArgumentParser

/// What a mistyped command line most likely meant, said before argument-parser's own message.
///
/// `larder conver f.json --to yaml` is read by argument-parser as the root command with unknown
/// options ("Unknown option '--to'"), which hides the typo; `convert --format yaml` and `-t yaml`
/// end in "Missing expected argument '--to <to>'". Like cargo and ripgrep, Larder names the fix.
enum UsageHints {
    /// Spellings of other tools (and of Larder's other commands) for a command's own options.
    static let synonyms: [String: String] = [
        "--format": "--to", "-t": "--to", "--output-format": "--to", "--out-format": "--to", "-f": "--from",
        "--input-format": "--from", "--in-format": "--from",
    ]

    /// The hint for `arguments` (without the program name), if they start with an unknown command.
    static func unknownCommand(_ arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first), first != "help" else {
            return nil
        }
        let near = commands.map { ($0, distance(first.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
        let list = commands.joined(separator: ", ")
        if let near {
            return "larder: error: unknown command '\(first)'; did you mean '\(near.0)'? (commands: \(list))"
        }
        return "larder: error: unknown command '\(first)' (commands: \(list)); `larder --help` describes each"
    }

    /// The hint for an option `command` does not take, when another spelling or a near one is.
    static func unknownOption(_ arguments: [String], known: [String]) -> String? {
        for argument in arguments where argument.hasPrefix("-") && argument != "--" {
            let name = String(argument.prefix { $0 != "=" })
            guard !known.contains(name), name != "-h", name != "--help" else { continue }
            if let synonym = synonyms[name], known.contains(synonym) {
                return "larder: error: unknown option '\(name)'; this command names it \(synonym) (use \(synonym) …)"
            }
            let near = known.filter { $0.hasPrefix("--") }.map { ($0, distance(name, $0)) }.filter { $0.1 <= 2 }
                .min { $0.1 < $1.1 }
            if let near { return "larder: error: unknown option '\(name)'; did you mean '\(near.0)'?" }
        }
        return nil
    }

    /// Levenshtein distance (short strings: command and option names).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
