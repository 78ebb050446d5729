import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Runs the Cooklang spec's canonical parser tests (../shared/corpus/cooklang/canonical.yaml).
@Suite struct CooklangCanonicalTests {
    /// An item as the canonical tests write it, rendered for comparison.
    static func render(_ item: CooklangRecipe.Item) -> String {
        func quantity(_ text: String?, default fallback: String) -> String {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return fallback }
            let parts = text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
            // `01/2` stays text, as the spec says.
            if parts.count == 2, !parts[0].hasPrefix("0"), let n = Double(parts[0]), let d = Double(parts[1]), d != 0 {
                return number(n / d)
            }
            if let value = Double(text) { return number(value) }
            return text
        }
        switch item {
        case .text(let value): return "text|\(value)"
        case .ingredient(let name, let q, let units, _):
            return "ingredient|\(name)|\(quantity(q, default: "some"))|\(units ?? "")"
        case .cookware(let name, let q): return "cookware|\(name)|\(quantity(q, default: "1"))"
        case .timer(let name, let q, let units): return "timer|\(name ?? "")|\(quantity(q, default: ""))|\(units ?? "")"
        }
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func render(expected item: Value) -> String {
        func scalar(_ value: Value?) -> String {
            switch value {
            case .int(let i)?: String(i)
            case .double(let d)?: number(d)
            case .string(let s)?: s
            default: ""
            }
        }
        let type = scalar(item["type"])
        switch type {
        case "text": return "text|\(scalar(item["value"]))"
        case "ingredient":
            return "ingredient|\(scalar(item["name"]))|\(scalar(item["quantity"]))|\(scalar(item["units"]))"
        case "cookware": return "cookware|\(scalar(item["name"]))|\(scalar(item["quantity"]))"
        default: return "timer|\(scalar(item["name"]))|\(scalar(item["quantity"]))|\(scalar(item["units"]))"
        }
    }

    /// Compares every canonical test; returns the names of those that disagree.
    static func disagreements(_ suite: Value) -> (failed: [String], total: Int) {
        var failed: [String] = []
        let tests = suite["tests"]?.objectValue ?? Fields()
        for test in tests {
            let parsed = CooklangParser.parse(test.value["source"]?.stringValue ?? "")
            let ours = parsed.steps.filter { !$0.isSection }.map { $0.items.map { render($0) } }
            let expected = (test.value["result"]?["steps"]?.arrayValue ?? []).map {
                ($0.arrayValue ?? []).map { render(expected: $0) }
            }
            var metadataMatches = true
            for field in test.value["result"]?["metadata"]?.objectValue ?? Fields() {
                let value =
                    field.value.stringValue ?? field.value.arrayValue.map {
                        $0.compactMap(\.stringValue).joined(separator: ", ")
                    } ?? ""
                if parsed.metadata(field.key) != value { metadataMatches = false }
            }
            if ours != expected || !metadataMatches { failed.append(test.key) }
        }
        return (failed, tests.count)
    }

    @Test(
        "agrees with the Cooklang spec's canonical parser tests",
        .enabled(if: Corpus.has("cooklang/canonical.yaml"), "needs ../shared/corpus/cooklang (or LARDER_CORPUS)"))
    func passesCanonicalTests() throws {
        let path = Corpus.path("cooklang/canonical.yaml")
        let reader = try YAMLReader(source: try FileByteSource(path: path))
        let suite = try #require(try reader.next()).value
        let (failed, total) = Self.disagreements(suite)
        print("cooklang canonical: \(total - failed.count)/\(total) agree; differ: \(failed.joined(separator: ", "))")
        #expect(total >= 50)
        #expect(Double(total - failed.count) / Double(total) >= 0.95)
    }
}
