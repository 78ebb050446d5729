import Foundation
import LarderTestSupport
import Testing

/// `larder export --to pdf`: the book printed by headless Chromium, read back with poppler's
/// `pdftotext`/`pdfinfo`: its pages, its contents' page numbers, no blank page.
@Suite struct CookbookPDFTests {
    static let pdftotext = "/usr/bin/pdftotext"
    static let pdfinfo = "/usr/bin/pdfinfo"
    static let isAvailable =
        [CookbookBrowser.chromium, pdftotext, pdfinfo].allSatisfy(FileManager.default.isExecutableFile(atPath:))

    /// Imports several samples (MealMaster, Paprika, RecipeML, Cooklang, YAML) into one records file.
    private func records(in dir: TemporaryDirectory) throws -> String {
        let samples = [
            "mealmaster-classics.mmf", "sample.paprikarecipes", "cafe-scones.xml", "shakshuka.cook",
            "plain-recipes.yaml",
        ].map { CLI.packageRoot.appendingPathComponent("samples/import/\($0)").path }
        let imported = try CLI.run(
            ["import"] + samples + [
                "-o", dir.path("recipes.json"), "--keep-going", "--rejects", dir.path("rejects.ndjson"),
            ])
        #expect(imported.status == 0, "\(imported.stderr)")
        return dir.path("recipes.json")
    }

    /// The text of page `page` (1-based), its blank lines dropped.
    private func text(of pdf: String, page: Int) throws -> [String] {
        let out = try CLI.runProgram(
            Self.pdftotext, ["-f", "\(page)", "-l", "\(page)", "-layout", pdf, "-"], timeout: 60)
        return out.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test(
        "the PDF book: a cover, contents whose page numbers name the page each recipe starts on, no blank page, the paper asked for",
        .enabled(
            if: CookbookPDFTests.isAvailable, "chromium or poppler-utils (pdftotext) not installed (make browser-deps)"),
        .timeLimit(.minutes(5)))
    func printsABook() throws {
        let dir = try TemporaryDirectory()
        let records = try records(in: dir)
        let pdf = dir.path("book.pdf")
        let exported = try CLI.run(["export", records, "--to", "pdf", "--paper", "letter", "-o", pdf])
        #expect(exported.status == 0, "\(exported.stderr)")
        let bytes = try #require(FileManager.default.contents(atPath: pdf))
        #expect(bytes.starts(with: Array("%PDF".utf8)))
        let info = try CLI.runProgram(Self.pdfinfo, [pdf], timeout: 60).stdout
        #expect(info.contains("612 x 792 pts"), "\(info)")
        let pages = try #require(
            info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap {
                Int($0.split(separator: " ").last ?? "")
            })

        #expect(try text(of: pdf, page: 1).first == "Cookbook")
        // Contents lines: a title, then its page number at the end of the line.
        var contents: [(title: String, page: Int)] = []
        var page = 2
        while page <= pages {
            let lines = try text(of: pdf, page: page)
            guard lines.contains("Contents") || !contents.isEmpty,
                !lines.contains(where: { $0.contains("INGREDIENTS") })
            else {
                break
            }
            for line in lines {
                guard let match = line.wholeMatch(of: /(.*\S)\s{2,}(\d+)/), let number = Int(match.2) else { continue }
                if number > 1, number <= pages { contents.append((String(match.1), number)) }
            }
            page += 1
        }
        #expect(contents.count >= 8, "\(contents)")
        // Each recipe starts a page of its own, and that page shows its title.
        #expect(Set(contents.map(\.page)).count == contents.count, "\(contents)")
        for entry in contents {
            let shown = try text(of: pdf, page: entry.page).joined(separator: " ")
            #expect(
                shown.contains(String(entry.title.prefix(24))),
                "page \(entry.page) is not \(entry.title): \(shown.prefix(200))")
        }
        // No blank page, and no page holding only its margins (a spilled footer would be one line).
        for number in 1...pages {
            let lines = try text(of: pdf, page: number)
            #expect(lines.count >= 2, "page \(number) holds \(lines)")
        }
    }

    @Test(
        "--fetch-images downloads a linked photo into the book's images; a 404 and a non-image are warnings, the recipes still exported",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 not installed"),
        .timeLimit(.minutes(2)))
    func fetchesLinkedPhotos() throws {
        let dir = try TemporaryDirectory()
        let site = dir.path("www")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)
        try Data(png).write(to: URL(fileURLWithPath: site + "/photo.png"))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: site + "/text.png"))
        // A loopback web server on a free port, which it writes to a file once it listens; it stops
        // when its standard input closes, so it never outlives the test process.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [
            "-c",
            """
            import functools, http.server, sys, threading
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            httpd = http.server.HTTPServer(("127.0.0.1", 0), handler)
            open(sys.argv[2], "w").write(str(httpd.server_address[1]))
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            sys.stdin.read()
            """, site, dir.path("port"),
        ]
        let lifeline = Pipe()
        server.standardInput = lifeline
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        var port: String?
        for _ in 0..<100 where port == nil {
            port = (try? String(contentsOfFile: dir.path("port"), encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
            if port == nil { usleep(50_000) }
        }
        let base = "http://127.0.0.1:\(try #require(port))"
        let records = zip(["Tart", "Pie", "Flan"], ["photo.png", "missing.png", "text.png"]).enumerated().map {
            """
            {"id":"r\($0.offset)","title":"\($0.element.0)","createdAt":"2024-01-01T00:00:00Z","imageRef":"\(base)/\($0.element.1)",\
            "ingredients":[{"original":"1 egg"}],"instructions":[{"text":"Bake."}]}
            """
        }
        try dir.write("recipes.json", "[" + records.joined(separator: ",\n") + "]")
        let without = try CLI.run(["export", dir.path("recipes.json"), "--to", "html", "-o", dir.path("Plain")])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("Plain/images")))
        let result = try CLI.run(
            ["export", dir.path("recipes.json"), "--to", "html", "--fetch-images", "-o", dir.path("Book")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: dir.path("Book/images/Tart.png")).map([UInt8].init) == png)
        let book = try String(contentsOfFile: dir.path("Book/print.html"), encoding: .utf8)
        #expect(book.contains("src=\"images/Tart.png\""))
        #expect(result.stderr.contains("missing.png could not be fetched: the server answered 404"), "\(result.stderr)")
        #expect(result.stderr.contains("text.png is not an image"), "\(result.stderr)")
        #expect(result.stderr.contains("3 exported, 0 rejected"))
    }

    @Test("--to pdf without Chromium says how to get it, exits with a usage error and writes nothing")
    func withoutChromium() throws {
        let dir = try TemporaryDirectory()
        try dir.write(
            "recipes.json",
            #"[{"id":"r1","title":"Tea","createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z","ingredients":[],"instructions":[]}]"#
        )
        let result = try CLI.run(
            ["export", dir.path("recipes.json"), "--to", "pdf", "-o", dir.path("book.pdf")],
            environment: ["LARDER_CHROMIUM": dir.path("no-such-chromium")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("headless Chromium, which is not installed"), "\(result.stderr)")
        #expect(result.stderr.contains("--to html"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("book.pdf")))
    }

    @Test("--group-by, --paper and --title belong to the cookbook: with --to csv they are a usage error")
    func layoutOptionsNeedTheBook() throws {
        let dir = try TemporaryDirectory()
        let result = try CLI.run(["export", dir.path("x.json"), "--to", "csv", "--group-by", "course"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("use them with --to html or --to pdf"), "\(result.stderr)")
    }
}
