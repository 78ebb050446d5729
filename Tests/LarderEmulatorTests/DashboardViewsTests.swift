import Foundation
import GRDB
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderEmulator

/// Issue 30 part 3: the views an app developer leaves open (display column, readable times, JSON
/// folds, user names, asset previews, the hub, editing and deleting through records/modify).
@Suite struct DashboardViewsTests {
    /// A timestamp of the issue's example: 2021-01-06T16:52:25Z.
    static let cookedAt = 1_609_951_945_000.0

    /// The row id of Alice's private zone `name` in development.
    static func zoneRow(_ server: TestServer, _ name: String) async throws -> Int64 {
        let id = try await server.emulator.store.writer.read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT id FROM zone WHERE database = 'private' AND owner = ? AND environment = 'development'
                    AND name = ?
                    """, arguments: [TestServer.alice.userRecordName, name])
        }
        return try #require(id)
    }

    /// A recipe as the issue describes it: empty leading fields, a title, JSON in a STRING, a timestamp.
    static func recipe(_ name: String, title: String, ingredients: String = #"[{"name":"flour","grams":500}]"#)
        -> LarderCloudKit.Record
    {
        .make(
            name,
            fields: [
                "author": .string(""), "categories": .list(elementType: .string, []), "title": .string(title),
                "ingredients": .string(ingredients), "cookedAt": .timestamp(cookedAt), "servings": .int64(4),
            ], zone: RecordZoneID(zoneName: "Kitchen"))
    }

    @Test("display field: title, else name, else the first STRING field, else none")
    func displayFieldChoice() {
        #expect(DashboardDisplayField.choose(["author": .string, "Title": .string, "name": .string]) == "Title")
        #expect(DashboardDisplayField.choose(["author": .string, "name": .string]) == "name")
        #expect(
            DashboardDisplayField.choose(["rank": .int64, "description": .string, "zeal": .string]) == "description")
        #expect(DashboardDisplayField.choose(["rank": .int64]) == nil)
    }

    @Test("records list: the title column, filled columns first, ISO-8601 times with epoch ms on hover")
    func recordListShowsTitlesAndTimes() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = server.client()
            try await client.createZone("Kitchen")
            _ = try await client.modify(
                [RecordOperation(.create, Self.recipe("r1", title: "Sourdough <bread>"))],
                zone: RecordZoneID(zoneName: "Kitchen"))
            let zone = try await Self.zoneRow(server, "Kitchen")
            for target in ["/_emulator/ui/zone?zone=\(zone)&type=Recipe", "/_emulator/ui/zone?zone=\(zone)"] {
                let page = try await DashboardTests.get(server, target)
                #expect(page.status == 200)
                #expect(page.body.contains("<span class=\"display\">Sourdough &lt;bread&gt;</span>"), "\(target)")
                #expect(!page.body.contains("<bread>"))
            }
            let typed = try await DashboardTests.get(server, "/_emulator/ui/zone?zone=\(zone)&type=Recipe").body
            #expect(typed.contains("<th>title (title)</th>"), "the display column is named after its field")
            // Empty `author` and `categories` are not default columns; filled fields are.
            #expect(!typed.contains("<th>author</th>") && !typed.contains("<th>categories</th>"))
            #expect(typed.contains("<th>cookedAt</th>") && typed.contains("<th>ingredients</th>"))
            #expect(typed.contains(#"<time datetime="2021-01-06T16:52:25Z" title="1609951945000 ms since 1970">"#))
            #expect(!typed.contains(">1609951945000<"))
        }
    }

    @Test("record page: JSON in a STRING folded and pretty, times readable, users by name, markup as text")
    func recordPageIsReadable() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = server.client()
            try await client.createZone("Kitchen")
            let json = #"{"steps":["mix","</pre><script>alert(1)</script>"],"minutes":30}"#
            _ = try await client.modify(
                [RecordOperation(.create, Self.recipe("r1", title: "Bread", ingredients: json))],
                zone: RecordZoneID(zoneName: "Kitchen"))
            let zone = try await Self.zoneRow(server, "Kitchen")
            let page = try await DashboardTests.get(server, "/_emulator/ui/record?zone=\(zone)&name=r1").body
            #expect(page.contains(#"<details class="json" open><summary>JSON, "#), "\(page)")
            #expect(page.contains("\n  &quot;steps&quot; : [\n"), "pretty-printed, keys in their order")
            #expect(
                page.contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;") && !page.contains("<script>alert"))
            #expect(page.contains(#"<time datetime="2021-01-06T16:52:25Z""#))
            #expect(page.contains(#"<span class="user">Alice Example</span> <code class="muted">_a11ce</code>"#))
            // A reference to a record of the same zone is a link; one naming another zone is text.
            let reference = RecordField(
                value: .object(Fields([Field(key: "recordName", value: .string("<r2>"))])), type: .reference)
            let link = DashboardValueHTML.full(reference) { name, _ in HTML.link(name, "/x", [("name", name)]) }
            #expect(link == #"→ <a href="/x?name=%3Cr2%3E">&lt;r2&gt;</a>"#, "\(link)")
            let other = DashboardValueHTML.full(reference) { _, _ in nil }
            #expect(other == "→ &lt;r2&gt;")
            // A JSON-looking string that is not JSON stays text.
            #expect(DashboardValueHTML.full(RecordField(value: .string("[not json"), type: .string)) == "[not json")
        }
    }

    @Test("an uploaded photo is previewed through the emulator's own download URL; an SVG upload never draws")
    func assetPreviewUsesTheEmulatorsURL() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = server.client()
            _ = try await client.createWithAsset("photo", bytes: pngBytes)
            _ = try await client.createWithAsset("vector", bytes: Data(#"<svg onload="alert(1)"></svg>"#.utf8))
            let zone = try await DashboardTests.aliceZone(server)
            for (name, type) in [("photo", "image/png"), ("vector", "application/octet-stream")] {
                let page = try await DashboardTests.get(server, "/_emulator/ui/record?zone=\(zone)&name=\(name)").body
                let marker = #"<img class="asset" alt="asset, "#
                let image = try #require(page.range(of: marker), "\(page)")
                let source = try #require(page[image.upperBound...].range(of: #"src=""#))
                let url = String(page[source.upperBound...].prefix { $0 != "\"" })
                    .replacingOccurrences(of: "&amp;", with: "&")
                #expect(url.hasPrefix("/_assets/download/"), "same origin, the emulator's own URL: \(url)")
                let download = try await DashboardTests.get(server, url)
                #expect(download.status == 200 && download.text.contains("Content-Type: \(type)"), "\(download.text)")
                #expect(download.text.contains("X-Content-Type-Options: nosniff"))
                if name == "vector" { #expect(download.text.contains("Content-Disposition: attachment")) }
            }
        }
    }

    @Test("edit and delete from the record page go through records/modify: tokens, feed, CSRF, stale tags")
    func editAndDeleteThroughModify() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = server.client()
            let kitchen = RecordZoneID(zoneName: "Kitchen")
            try await client.createZone("Kitchen")
            let saved = try await client.modify(
                [RecordOperation(.create, Self.recipe("r1", title: "Bread"))], zone: kitchen)
            let tag = try #require(saved.records.first?.recordChangeTag)
            let token = try #require(try await client.zoneChanges(kitchen).changes).syncToken
            let zone = try await Self.zoneRow(server, "Kitchen")
            let csrf = try await DashboardTests.csrf(server)
            let edit = "zone=\(zone)&name=r1&changeTag=\(tag)&field=title&value=Rye+bread"
            let refused = try await DashboardTests.postForm(server, "/_emulator/ui/record/edit", body: edit)
            #expect(refused.status == 403, "no CSRF token")
            let edited = try await DashboardTests.postForm(
                server, "/_emulator/ui/record/edit", body: edit + "&csrf=\(csrf)")
            #expect(edited.status == 303 && edited.text.contains("done=edited"), "\(edited.text)")
            let changes = try #require(try await client.zoneChanges(kitchen, token: token).changes)
            let changed = try #require(changes.records.first?.value)
            #expect(changed.field("title") == .string("Rye bread") && changed.field("servings") == .int(4))
            #expect(changed.modified?.deviceID == "larder-dashboard")
            // The page's change tag is stale now: the edit is a CONFLICT and changes nothing.
            let stale = try await DashboardTests.postForm(
                server, "/_emulator/ui/record/edit",
                body: edit.replacingOccurrences(of: "Rye", with: "Spelt") + "&csrf=\(csrf)")
            #expect(stale.status == 409 && stale.body.contains("CONFLICT"), "\(stale.body)")
            let wrongType = try await DashboardTests.postForm(
                server, "/_emulator/ui/record/edit",
                body:
                    "zone=\(zone)&name=r1&changeTag=\(changed.recordChangeTag ?? "")&field=servings&value=many&csrf=\(csrf)"
            )
            #expect(wrongType.status == 400 && wrongType.body.contains("is not an integer"))
            let timed = try await DashboardTests.postForm(
                server, "/_emulator/ui/record/edit",
                body: "zone=\(zone)&name=r1&changeTag=\(changed.recordChangeTag ?? "")&field=cookedAt"
                    + "&value=2021-01-07T10%3A00%3A00.5Z&csrf=\(csrf)")
            #expect(timed.status == 303, "\(timed.text)")
            let current = try #require(try await client.zoneChanges(kitchen, token: changes.syncToken).changes)
            let retimed = try #require(current.records.first?.value)
            #expect(retimed.field("cookedAt") == .int(1_610_013_600_500))
            // Delete: the box must be ticked; then the feed reports the tombstone.
            let deleteBody = "zone=\(zone)&name=r1&changeTag=\(retimed.recordChangeTag ?? "")&csrf=\(csrf)"
            let unconfirmed = try await DashboardTests.postForm(server, "/_emulator/ui/record/delete", body: deleteBody)
            #expect(unconfirmed.status == 400)
            let deleted = try await DashboardTests.postForm(
                server, "/_emulator/ui/record/delete", body: deleteBody + "&confirm=delete")
            #expect(deleted.status == 303, "\(deleted.text)")
            let gone = try #require(try await client.zoneChanges(kitchen, token: current.syncToken).changes)
            #expect(gone.records.first?.value?.deleted == true, "\(gone.records)")
            let feed = try await DashboardTests.get(server, "/_emulator/ui/changes?zone=\(zone)").body
            #expect(feed.contains("<td>delete</td>"))
        }
    }

    @Test("the record page's edit and delete forms carry the CSRF token and the change tag")
    func recordFormsCarryTheToken() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            _ = try await server.client().modify([
                RecordOperation(.create, .make("f1", fields: ["title": .string("x")]))
            ])
            let zone = try await DashboardTests.aliceZone(server)
            let page = try await DashboardTests.get(server, "/_emulator/ui/record?zone=\(zone)&name=f1").body
            let csrf = try await DashboardTests.csrf(server)
            for form in ["id=\"edit-title\"", "id=\"delete-form\""] {
                let start = try #require(page.range(of: form), "\(form) in \(page)")
                let end = try #require(page[start.upperBound...].range(of: "</form>"))
                let text = page[start.lowerBound..<end.lowerBound]
                #expect(text.contains(#"name="csrf" value="\#(csrf)""#) && text.contains(#"name="changeTag""#))
            }
        }
    }

    @Test("hub: records by type per zone, latest changes, the request rate and the latest errors")
    func hubShowsActivity() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = server.client()
            _ = try await client.modify(
                (0..<3).map { RecordOperation(.create, .make("r\($0)")) }
                    + [RecordOperation(.create, .make("b0", type: "Batch", fields: ["title": .string("<b>x</b>")]))])
            let failed = try await client.post("records/lookup", json: "{not json")
            #expect(failed.status == 400)
            let zone = try await DashboardTests.aliceZone(server)
            let hub = try await DashboardTests.get(server, "/_emulator/ui/")
            #expect(hub.status == 200)
            let body = hub.body
            #expect(
                body.contains(#"type=Recipe">Recipe 3</a>"#) && body.contains(#"type=Batch">Batch 1</a>"#), "\(body)")
            #expect(body.contains(#"<table id="latest-changes">"#) && body.contains(#"name=b0">b0</a>"#))
            #expect(body.contains(#"<p id="request-rate" class="rate">2 requests in the last minute"#), "\(body)")
            #expect(body.contains("1 errors"))
            let errors = try #require(body.range(of: #"<table id="recent-errors">"#))
            #expect(body[errors.upperBound...].prefix(600).contains("records/lookup"))
            #expect(body.contains(#"<span class="user">Alice Example</span>"#))
            #expect(body.contains("zone=\(zone)"))
        }
    }
}
