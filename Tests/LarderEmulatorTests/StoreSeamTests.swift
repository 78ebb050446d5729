import Foundation
import Testing

/// Issue 28: one type owns the emulator's database.
///
/// Only `Sources/LarderEmulator/Store/` imports
/// GRDB; routes, the dashboard and the control plane call the store's methods.
@Suite struct StoreSeamTests {
    /// `Sources/LarderEmulator`, found from this file's path (`Tests/LarderEmulatorTests/…`).
    static let emulatorSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/LarderEmulator")

    /// Every Swift file under `folder`, as paths relative to it.
    static func swiftFiles(in folder: URL) throws -> [String] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        return paths.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// Whether `text` has an import of GRDB (any access level or kind: `import GRDB`,
    /// `package import GRDB`, `@preconcurrency import GRDB`, `import struct GRDB.Row`).
    static func importsGRDB(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.firstIndex(of: "import"), keyword + 1 < words.count else { return false }
            let module = words[words.index(before: words.endIndex)]
            return words[..<keyword].allSatisfy { !$0.hasPrefix("//") }
                && (module == "GRDB" || module.hasPrefix("GRDB."))
        }
    }

    @Test("the seam: no emulator file outside Store/ imports GRDB")
    func onlyTheStoreImportsGRDB() throws {
        let files = try Self.swiftFiles(in: Self.emulatorSources)
        #expect(files.count > 20, "found \(files.count) files under \(Self.emulatorSources.path)")
        #expect(files.contains { $0.hasPrefix("Store/") }, "no Store/ folder under \(Self.emulatorSources.path)")
        let offenders = try files.filter { path in
            guard !path.hasPrefix("Store/") else { return false }
            let text = try String(contentsOf: Self.emulatorSources.appendingPathComponent(path), encoding: .utf8)
            return Self.importsGRDB(text)
        }
        #expect(offenders.isEmpty, "import GRDB outside Store/ (call an EmulatorStore method instead): \(offenders)")
    }

    @Test("the seam's check sees every spelling of a GRDB import, and nothing else")
    func importCheck() {
        #expect(Self.importsGRDB("import Foundation\nimport GRDB\n"))
        #expect(Self.importsGRDB("package import GRDB"))
        #expect(Self.importsGRDB("@preconcurrency internal import GRDB"))
        #expect(Self.importsGRDB("import struct GRDB.Row"))
        #expect(!Self.importsGRDB("import GRDBX\nimport LarderSQLite"))
        #expect(!Self.importsGRDB("// import GRDB"))
        #expect(!Self.importsGRDB("/// Only the store may `import GRDB`."))
    }
}
