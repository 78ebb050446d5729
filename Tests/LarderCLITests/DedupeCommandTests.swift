import Foundation
import LarderTestSupport
import Testing

@Suite struct DedupeCommandTests {
    /// The sample sets' records, as JSON objects.
    static func sampleRecords(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("samples/\(name)"))
        let envelope = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return envelope?["records"] as? [[String: Any]] ?? []
    }

    static func ndjson(_ records: [[String: Any]]) throws -> String {
        try records.map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }
        .joined(separator: "\n") + "\n"
    }

    @Test("the sample sets merge to one record per recipe, in the input's format, with a merge log")
    func samples() throws {
        let dir = try TemporaryDirectory()
        let result = try CLI.run([
            "dedupe", "--saved", "samples/saved.json", "--created", "samples/created.json", "-o",
            dir.path("merged.json"),
            "--log", dir.path("log.json"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("46 records read (samples/saved.json 24, samples/created.json 22), 0 rejected"))
        #expect(result.stderr.contains("35 records written: 22 duplicates merged into 11 records, 11 removed"))
        let merged = try dir.read("merged.json")
        #expect(
            merged.hasPrefix("{\"schema\":\"recipe\",\"version\":4,\"records\":["), "an envelope in, an envelope out")
        let log = try JSONSerialization.jsonObject(with: Data(try dir.read("log.json").utf8)) as? [String: Any]
        let clusters = log?["clusters"] as? [[String: Any]] ?? []
        #expect(clusters.count == 11)
        let rules = Set(
            clusters.flatMap { ($0["matches"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String } })
        #expect(rules == ["same-id", "same-source-url", "same-fingerprint", "fuzzy"])
        #expect(try CLI.run(["validate", dir.path("merged.json")]).status == 0, "the merged set is valid")
    }

    @Test("shuffled NDJSON input gives byte-identical NDJSON output")
    func orderIndependent() throws {
        let dir = try TemporaryDirectory()
        let saved = try Self.sampleRecords("saved.json")
        let created = try Self.sampleRecords("created.json")
        try dir.write("s1.ndjson", try Self.ndjson(saved))
        try dir.write("c1.ndjson", try Self.ndjson(created))
        try dir.write("s2.ndjson", try Self.ndjson(saved.reversed()))
        try dir.write("c2.ndjson", try Self.ndjson(Array(created[11...] + created[..<11])))
        let first = try CLI.run([
            "dedupe", "--saved", dir.path("s1.ndjson"), "--created", dir.path("c1.ndjson"), "-o", dir.path("o1.ndjson"),
        ])
        let second = try CLI.run([
            "dedupe", "--saved", dir.path("s2.ndjson"), "--created", dir.path("c2.ndjson"), "-o", dir.path("o2.ndjson"),
        ])
        #expect(first.status == 0 && second.status == 0)
        let output = try dir.read("o1.ndjson")
        #expect(output == (try dir.read("o2.ndjson")))
        #expect(output.split(separator: "\n").count == 35, "NDJSON in, NDJSON out")
    }

    @Test("records go to standard output by default, and .gz output is compressed")
    func stdoutAndGzip() throws {
        let dir = try TemporaryDirectory()
        let plain = try CLI.run([
            "dedupe", "--saved", "samples/saved.json", "--created", "samples/created.json", "--to", "ndjson",
        ])
        #expect(plain.stdout.split(separator: "\n").count == 35)
        let zipped = try CLI.run([
            "dedupe", "--saved", "samples/saved.json", "--created", "samples/created.json", "--to", "ndjson", "-o",
            dir.path("m.ndjson.gz"),
        ])
        #expect(zipped.status == 0)
        let back = try CLI.run(["convert", dir.path("m.ndjson.gz"), "--to", "ndjson"])
        #expect(back.stdout == plain.stdout)
    }

    @Test("--explain says why a record merged and writes no records without -o")
    func explain() throws {
        let carbonara = try #require(
            try Self.sampleRecords("created.json").first { $0["title"] as? String == "Spaghetti Carbonara" })
        let id = try #require(carbonara["id"] as? String)
        let result = try CLI.run([
            "dedupe", "--saved", "samples/saved.json", "--created", "samples/created.json", "--explain", id,
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("merged with 1 other record"))
        #expect(result.stdout.contains("same-id"))
        #expect(!result.stdout.contains("\"ingredients\""), "no records on stdout")
        let unknown = try CLI.run([
            "dedupe", "--saved", "samples/saved.json", "--created", "samples/created.json", "--explain", "nope",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no record has the id or record name \"nope\""))
    }

    @Test("a malformed record stops the run with its location; --keep-going rejects it and writes the rest")
    func malformedRecord() throws {
        let dir = try TemporaryDirectory()
        let good =
            "{\"id\":\"a\",\"title\":\"Toast\",\"createdAt\":\"2024-01-01T00:00:00Z\",\"ingredients\":[{\"item\":\"bread\"}]}"
        let bad = "{\"id\":\"b\",\"title\":\"Soup\",\"createdAt\":\"2024-01-01T00:00:00Z\",\"servings\":\"four\"}"
        let saved = try dir.write("saved.ndjson", good + "\n" + bad + "\n")
        let created = try dir.write("created.ndjson", good.replacingOccurrences(of: "\"a\"", with: "\"c\"") + "\n")
        let stopped = try CLI.run(["dedupe", "--saved", saved, "--created", created, "-o", dir.path("out.ndjson")])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("saved.ndjson:2:"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("record 1: servings: expected an integer, found \"four\""))
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.ndjson")), "no partial output")
        let kept = try CLI.run([
            "dedupe", "--saved", saved, "--created", created, "-o", dir.path("out.ndjson"), "--keep-going", "--rejects",
            dir.path("rejects.ndjson"),
        ])
        #expect(kept.status == 1, "rejects still make the exit status 1")
        #expect(kept.stderr.contains("3 records read"))
        #expect(kept.stderr.contains(", 1 rejected"))
        #expect((try dir.read("rejects.ndjson")).split(separator: "\n").count == 1)
        #expect(
            (try dir.read("out.ndjson")).split(separator: "\n").count == 1, "the two toasts merge (same fingerprint)")
    }

    @Test("usage errors exit 2, unreadable inputs 3")
    func exitCodes() throws {
        #expect(try CLI.run(["dedupe"]).status == 2)
        #expect(try CLI.run(["dedupe", "--saved", "samples/saved.json", "--threshold", "1.5"]).status == 2)
        #expect(try CLI.run(["dedupe", "--saved", "samples/saved.json", "--store", "larder.db"]).status == 2)
        #expect(try CLI.run(["dedupe", "--saved", "no/such.json", "--created", "samples/created.json"]).status == 3)
        #expect(
            try CLI.run(["dedupe", "--saved", "samples/brew-logs.json", "-o", "/dev/null"]).status == 2, "not recipes")
        #expect(try CLI.run(["dedupe", "--help"]).stdout.contains("--threshold"))
    }
}

extension DedupeCommandTests {
    @Test("YAML in, YAML out, with the same records as the JSON route")
    func yaml() throws {
        let dir = try TemporaryDirectory()
        for name in ["saved", "created"] {
            #expect(
                try CLI.run(["convert", "samples/\(name).json", "--to", "yaml", "-o", dir.path("\(name).yaml")]).status
                    == 0)
        }
        let result = try CLI.run([
            "dedupe", "--saved", dir.path("saved.yaml"), "--created", dir.path("created.yaml"), "-o",
            dir.path("merged.yaml"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((try dir.read("merged.yaml")).hasPrefix("schema: recipe"))
        let viaYAML = try CLI.run(["convert", dir.path("merged.yaml"), "--to", "ndjson"])
        let viaJSON = try CLI.run([
            "dedupe", "--saved", "samples/saved.json", "--created", "samples/created.json", "--to", "ndjson",
        ])
        #expect(viaYAML.stdout == viaJSON.stdout)
    }
}

extension DedupeCommandTests {
    @Test("older recipe versions are migrated through the registry before matching")
    func olderVersions() throws {
        let dir = try TemporaryDirectory()
        let result = try CLI.run([
            "dedupe", "--saved", "samples/v1/recipes-v1.json", "--created", "samples/v2/recipes-v2.json", "-o",
            dir.path("merged.json"),
            "--log", dir.path("log.json"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("44 records read"))
        #expect(result.stderr.contains("0 rejected"))
        #expect(result.stderr.contains("18 removed"), "v1 and v2 copies of the same recipes merge")
        #expect((try dir.read("merged.json")).hasPrefix("{\"schema\":\"recipe\",\"version\":4,"))
        #expect(try CLI.run(["validate", dir.path("merged.json")]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path("images")), "v1 inline images moved next to the output")
    }

    @Test("--store merges in place: survivors rewritten, losers tombstoned, whole records in the log")
    func store() throws {
        let dir = try TemporaryDirectory()
        let db = dir.path("larder.db")
        #expect(
            try CLI.run(["store", "import", "samples/saved.json", "samples/created.json", "--store", db]).status == 0)
        let first = try CLI.run(["dedupe", "--store", db, "--log", dir.path("log.json")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("8 duplicate records in"))
        let log = try JSONSerialization.jsonObject(with: Data(try dir.read("log.json").utf8)) as? [String: Any]
        let clusters = log?["clusters"] as? [[String: Any]] ?? []
        #expect(clusters.count == 8, "the same-id copies already collapsed on import (the store keys by id)")
        let members = clusters.flatMap { $0["members"] as? [[String: Any]] ?? [] }
        #expect(members.allSatisfy { $0["record"] != nil }, "the log keeps every member's whole record")
        let exported = try CLI.run(["dedupe", "--store", db, "--explain", "no-such-id"])
        #expect(exported.status == 2)
        let second = try CLI.run(["dedupe", "--store", db, "--log", dir.path("log2.json")])
        #expect(second.stderr.contains("0 duplicates merged"), "a second run finds nothing left to merge")
        #expect(try CLI.run(["schema", "validate", "--store", db]).status == 0, "the store still checks out")
        #expect(try CLI.run(["dedupe", "--store", dir.path("missing.db")]).status == 3)
    }
}
