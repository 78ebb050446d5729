import Foundation
import LarderTestSupport
import Testing

/// README and docs say what the tool does (issue 31, part 5).
///
/// The schema versions they state are the registry's, and the commands they name exist. They drifted once (README said recipe 3,
/// brewRecipe 1, brewLog 2 while the registry was at 4, 2, 3).
@Suite struct DocsDriftTests {
    /// `type → newest version`, from `larder schema list`.
    static func registryVersions() throws -> [String: Int] {
        let list = try CLI.run(["schema", "list"])
        var versions: [String: Int] = [:]
        for line in list.stdout.split(separator: "\n") {
            guard let marker = line.range(of: "newest v") else { continue }
            let type = String(line.prefix { $0 != " " })
            versions[type] = Int(line[marker.upperBound...].prefix { $0.isNumber })
        }
        return versions
    }

    @Test("README's current schema versions are the registry's newest")
    func readmeVersions() throws {
        let versions = try Self.registryVersions()
        #expect(versions.count == 3, "\(versions)")
        let readme = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let sentence = try #require(
            readme.range(of: "The current schema versions are").map { String(readme[$0.lowerBound...].prefix(120)) })
        for (type, version) in versions {
            #expect(
                sentence.contains("`\(type)` \(version)"), "README says: \(sentence); the registry: \(type) v\(version)"
            )
        }
    }

    @Test("every `larder <command>` README and docs name is a command larder has")
    func namedCommandsExist() throws {
        // A command exists when `larder NAME --help` answers (hidden ones such as dedupe-generate too).
        var checked: [String: Bool] = [:]
        func exists(_ name: String) throws -> Bool {
            if let known = checked[name] { return known }
            let answer = try CLI.run([name, "--help"]).status == 0
            checked[name] = answer
            return answer
        }
        var files = [CLI.packageRoot.appendingPathComponent("README.md")]
        let docs = CLI.packageRoot.appendingPathComponent("docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            files.append(docs.appendingPathComponent(name))
        }
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /`larder ([a-z][a-z-]*)/) {
                let name = String(match.1)
                #expect(try exists(name), "\(file.lastPathComponent) names `larder \(name)`, which is no command")
            }
        }
    }
}
