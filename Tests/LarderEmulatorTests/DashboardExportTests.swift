import Foundation
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 30 part 3: a zone exported from the dashboard as the Larder JSON `larder` reads.
@Suite struct DashboardExportTests {
    /// The records of a sample envelope (samples/FILE), as JSON values.
    static func sampleRecords(_ file: String) throws -> [Value] {
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("samples/\(file)"))
        return try #require(try JSONDecoder().decode(Value.self, from: data)["records"]?.arrayValue)
    }

    /// Uploads `records` of `type` the way `larder upload` maps them (``RecordMapping``), in batches.
    static func upload(_ records: [Value], type: RecordType, as client: TestClient) async throws {
        let mapping = RecordMapping()
        var operations: [RecordOperation] = []
        for record in records {
            let name = try RecordMapping.recordName(for: record, type: type.rawValue)
            let fields = try mapping.fields(of: record, type: type)
            operations.append(RecordOperation(.create, .make(name, type: type.rawValue, fields: fields)))
        }
        for start in stride(from: 0, to: operations.count, by: 100) {
            let results = try await client.modify(Array(operations[start..<min(start + 100, operations.count)]))
            #expect(results.allSatisfy { $0.record != nil }, "\(results)")
        }
    }

    static func download(_ server: TestServer, _ target: String) async throws -> (Int, String, [String: String]) {
        var request = URLRequest(url: try #require(URL(string: server.baseURL.absoluteString + target)))
        request.timeoutInterval = 300
        let (data, response) = try await URLSession.shared.data(for: request)
        let answer = TestClient.Answer(data: data, response: response)
        return (answer.status, answer.text, answer.headers)
    }

    /// The members of a record as a dictionary, objects inside with their keys sorted: values are
    /// compared, not member order (Foundation's JSONDecoder, which reads both sides here, keeps none).
    static func members(_ record: Value) -> [String: Value] {
        Dictionary((record.objectValue ?? Fields()).map { ($0.key, sorted($0.value)) }, uniquingKeysWith: { a, _ in a })
            .filter { !RecordMapping.excludedMembers.contains($0.key) }
    }

    static func sorted(_ value: Value) -> Value {
        switch value {
        case .object(let fields):
            .object(Fields(fields.sorted { $0.key < $1.key }.map { Field(key: $0.key, value: sorted($0.value)) }))
        case .array(let items): .array(items.map(sorted))
        default: value
        }
    }

    @Test(
        "a zone of uploaded sample recipes exports as Larder JSON that larder validate accepts, equal to what was uploaded"
    )
    func exportRoundTrip() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let recipes = try Self.sampleRecords("recipes.json")
            try await Self.upload(recipes, type: .recipe, as: server.client())
            let zone = try await DashboardTests.aliceZone(server)

            // The zones and records pages link the export, per zone and per type.
            let zones = try await DashboardTests.get(server, "/_emulator/ui").body
            #expect(zones.contains("/_emulator/ui/export?zone=\(zone)\""), "\(zones)")
            #expect(zones.contains("/_emulator/ui/export?zone=\(zone)&amp;type=recipe"))
            let page = try await DashboardTests.get(server, "/_emulator/ui/zone?zone=\(zone)&type=recipe").body
            #expect(page.contains("id=\"export-\(zone)-recipe\""))

            for target in ["/_emulator/ui/export?zone=\(zone)", "/_emulator/ui/export?zone=\(zone)&type=recipe"] {
                let (status, text, headers) = try await Self.download(server, target)
                #expect(status == 200, "\(text)")
                #expect(headers["content-disposition"] == "attachment; filename=\"_defaultZone-recipe.json\"")
                let exported = try JSONDecoder().decode(Value.self, from: Data(text.utf8))
                #expect(exported["schema"] == "recipe" && exported["version"] == .int(4))
                let records = try #require(exported["records"]?.arrayValue)
                #expect(records.count == recipes.count)
                let byID = Dictionary(records.map { ($0["id"]?.stringValue ?? "", Self.members($0)) }) { a, _ in a }
                for recipe in recipes {
                    #expect(byID[recipe["id"]?.stringValue ?? ""] == Self.members(recipe), "\(recipe["id"] ?? .null)")
                }

                let folder = try TemporaryDirectory()
                let file = folder.path("export.json")
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))
                let validated = try CLI.run(["validate", file])
                #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
            }
        }
    }

    @Test("the control plane exports a zone named by owner, database and zone name, as the dashboard does")
    func controlPlaneExport() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let logs = Array(try Self.sampleRecords("brew-logs.json").prefix(4))
            try await Self.upload(logs, type: .brewLog, as: server.client())
            let owner = TestServer.alice.userRecordName
            let (status, text, headers) = try await Self.download(
                server, "/_emulator/export/larder?owner=\(owner)&type=brewLog")
            #expect(status == 200, "\(text)")
            #expect(headers["content-disposition"] == "attachment; filename=\"_defaultZone-brewLog.json\"")
            let zone = try await DashboardTests.aliceZone(server)
            let (_, fromDashboard, _) = try await Self.download(
                server, "/_emulator/ui/export?zone=\(zone)&type=brewLog")
            #expect(text == fromDashboard)
            let exported = try JSONDecoder().decode(Value.self, from: Data(text.utf8))
            #expect(exported["schema"] == "brewLog" && exported["records"]?.arrayValue?.count == 4)
            #expect(try await Self.download(server, "/_emulator/export/larder?owner=\(owner)").0 == 400)
            #expect(try await Self.download(server, "/_emulator/export/larder?type=recipe").0 == 400)
            #expect(try await Self.download(server, "/_emulator/export/larder?owner=_nobody&type=recipe").0 == 404)
        }
    }

    @Test("export: a zone of several Larder types asks for one; other types and unknown zones are refused")
    func exportChoicesAndRefusals() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await Self.upload(Array(try Self.sampleRecords("brew-logs.json").prefix(3)), type: .brewLog, as: alice)
            try await Self.upload(Array(try Self.sampleRecords("recipes.json").prefix(2)), type: .recipe, as: alice)
            _ = try await alice.modify([RecordOperation(.create, .make("n1", type: "Note", fields: ["n": .int64(1)]))])
            let zone = try await DashboardTests.aliceZone(server)

            let (status, choice, _) = try await Self.download(server, "/_emulator/ui/export?zone=\(zone)")
            #expect(status == 200 && choice.contains("id=\"export-types\""))
            #expect(choice.contains("type=brewLog") && choice.contains("type=recipe"))
            let (logStatus, logs, _) = try await Self.download(server, "/_emulator/ui/export?zone=\(zone)&type=brewLog")
            #expect(logStatus == 200)
            #expect(try JSONDecoder().decode(Value.self, from: Data(logs.utf8))["records"]?.arrayValue?.count == 3)

            let note = try await Self.download(server, "/_emulator/ui/export?zone=\(zone)&type=Note")
            #expect(note.0 == 400 && note.1.contains("not a Larder record type"))
            #expect(try await Self.download(server, "/_emulator/ui/export?zone=999999").0 == 404)
            // The same guard as every dashboard page: a page from another origin is refused.
            let foreign = try await DashboardTests.get(
                server, "/_emulator/ui/export?zone=\(zone)&type=recipe", headers: ["Origin: http://evil.example"])
            #expect(foreign.status == 403)
        }
    }
}
