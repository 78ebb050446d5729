import Foundation
import LarderTestSupport
import Testing

/// The platform's C library is imported in one module, `LarderSystem` (issue 31, part 5).
///
/// Every other module imports LarderSystem, whose wrappers carry the Darwin branch of each call that differs from
/// glibc's, so a direct `import Glibc`, a `Glibc.`-qualified call or a `canImport(Glibc)` branch anywhere else
/// would be a call with no Darwin counterpart checked: the build on macOS would break where no Linux build shows it.
@Suite struct SystemModuleTests {
    /// The Swift files of the package's targets, relative to the package root: `Sources/` and the fuzz
    /// entry points under `Fuzz/`.
    static func packageSwiftFiles() throws -> [String] {
        var files: [String] = []
        for folder in ["Sources", "Fuzz/Entry", "Fuzz/EmulatorEntry"] {
            let root = CLI.packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let path = walker.nextObject() as? String {
                if path.hasSuffix(".swift") { files.append("\(folder)/\(path)") }
            }
        }
        return files.sorted()
    }

    /// The lines of `text` that import a C library module, qualify a call with one, or branch on one; comments
    /// aside.
    static func platformLines(in text: String) -> [String] {
        let pattern =
            /(^|[^A-Za-z0-9_.])(import\s+(Glibc|Darwin|Musl)\b|(Glibc|Darwin|Musl)\.[a-z_]|canImport\((Glibc|Darwin|Musl)\))/
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), code.contains(pattern) else { return nil }
            return code
        }
    }

    @Test("no file outside LarderSystem imports Glibc, Darwin or Musl, or calls through them")
    func platformCallsStayInTheSystemModule() throws {
        let files = try Self.packageSwiftFiles()
        #expect(files.count > 100, "found only \(files.count) Swift files: is the package root right?")
        var offenders: [String] = []
        for file in files where !file.hasPrefix("Sources/LarderSystem/") {
            let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent(file), encoding: .utf8)
            offenders += Self.platformLines(in: text).map { "\(file): \($0)" }
        }
        #expect(offenders.isEmpty, "import LarderSystem instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the scan finds each kind of platform line, and passes over comments and look-alikes")
    func scanRecognisesPlatformLines() {
        let text = """
            import Glibc
            @preconcurrency import Darwin
            #if canImport(Musl)
                let n = Glibc.write(2, base, count)
            // import Glibc in a comment
            import LarderSystem
            let name = "GlibcX.y"
            """
        #expect(
            Self.platformLines(in: text) == [
                "import Glibc", "@preconcurrency import Darwin", "#if canImport(Musl)",
                "let n = Glibc.write(2, base, count)",
            ])
    }
}
