import Foundation
import GRDB
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderEmulator

/// Issue #16: the dashboard at `/_emulator/ui/` over raw HTTP (the real-browser tests are in
/// LarderCLITests/DashboardBrowserTests).
@Suite struct DashboardTests {
    static func get(_ server: TestServer, _ target: String, headers: [String] = []) async throws
        -> RawHTTPClient.Reply
    {
        let host = "Host: 127.0.0.1:\(try ControlPlaneGuardTests.port(server))"
        return try await ControlPlaneGuardTests.raw(server, "GET", target, headers: [host] + headers)
    }

    static func postForm(_ server: TestServer, _ target: String, body: String, headers: [String] = []) async throws
        -> RawHTTPClient.Reply
    {
        let host = "Host: 127.0.0.1:\(try ControlPlaneGuardTests.port(server))"
        return try await ControlPlaneGuardTests.raw(
            server, "POST", target, headers: [host, "Content-Type: application/x-www-form-urlencoded"] + headers,
            body: body)
    }

    /// The row id of Alice's private default zone.
    static func aliceZone(_ server: TestServer) async throws -> Int64 {
        let id = try await server.emulator.store.writer.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT id FROM zone WHERE database = 'private' AND owner = ? AND environment = 'development'",
                arguments: [TestServer.alice.userRecordName])
        }
        return try #require(id)
    }

    /// This run's CSRF token, read from the faults page the way a browser gets it.
    static func csrf(_ server: TestServer) async throws -> String {
        let page = try await get(server, "/_emulator/ui/faults").body
        let marker = #"name="csrf" value=""#
        let start = try #require(page.range(of: marker))
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The next-page link of a records page, unescaped.
    static func nextPage(_ page: String) -> String? {
        guard let end = page.range(of: #"" id="next-page""#) else { return nil }
        let head = page[..<end.lowerBound]
        return head.range(of: #"href=""#, options: .backwards).map {
            String(head[$0.upperBound...]).replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    @Test("a stored <script> field value is shown as text on the records and record pages")
    func storedMarkupIsEscaped() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let payload = #"<script>alert("x")</script><img src=x onerror=alert(1)>"#
            _ = try await server.client().modify([
                RecordOperation(.create, .make("evil", fields: ["title": .string(payload)]))
            ])
            let zone = try await Self.aliceZone(server)
            let list = try await Self.get(server, "/_emulator/ui/zone?zone=\(zone)&type=Recipe")
            let record = try await Self.get(server, "/_emulator/ui/record?zone=\(zone)&name=evil")
            for page in [list, record] {
                #expect(page.status == 200, "\(page.text)")
                #expect(page.body.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
                #expect(!page.body.contains("<script>alert") && !page.body.contains("<img src=x"))
                #expect(page.text.contains("Content-Security-Policy: default-src 'self'"))
            }
        }
    }

    @Test("filters use records/query's comparators; a bad one is an error on the page, not a crash")
    func filtersUseTheQueryComparators() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            _ = try await server.client().modify(
                (0..<30).map { index in
                    RecordOperation(
                        .create,
                        .make("r\(index)", fields: ["title": .string("t\(index)"), "rank": .int64(Int64(index))]))
                })
            let zone = try await Self.aliceZone(server)
            let base = "/_emulator/ui/zone?zone=\(zone)&type=Recipe"
            let ranked = try await Self.get(
                server, base + "&field=rank&cmp=GREATER_THAN_OR_EQUALS&value=27&sort=rank&desc=1")
            #expect(ranked.status == 200)
            let names = ["r29", "r28", "r27"].compactMap { ranked.body.range(of: ">\($0)</a>")?.lowerBound }
            #expect(names.count == 3 && names == names.sorted(), "sorted descending by rank")
            #expect(!ranked.body.contains(">r26</a>"))
            let prefix = try await Self.get(server, base + "&field=title&cmp=BEGINS_WITH&value=t1")
            #expect(
                prefix.body.contains(">r1</a>") && prefix.body.contains(">r19</a>") && !prefix.body.contains(">r2</a>"))
            let wrong = try await Self.get(server, base + "&field=rank&cmp=BEGINS_WITH&value=1")
            #expect(wrong.status == 400 && wrong.body.contains("does not apply to the INT64 field"), "\(wrong.body)")
        }
    }

    @Test("sorting by a system field (___modTime) makes an index on its column, as field sorts do")
    func systemFieldSortIsIndexed() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            _ = try await server.client().modify((0..<3).map { RecordOperation(.create, .make("m\($0)")) })
            let zone = try await Self.aliceZone(server)
            let page = try await Self.get(server, "/_emulator/ui/zone?zone=\(zone)&type=Recipe&sort=___modTime&desc=1")
            #expect(page.status == 200 && page.body.contains(">m2</a>"))
            // The page builds the index off its own path; wait for it.
            try await Self.waitForIndex(server, "system_modifiedAt")
            let plan = try await server.emulator.store.writer.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        EXPLAIN QUERY PLAN SELECT id FROM record r WHERE r.zoneId = 1 AND r.type = 'Recipe'
                        AND r.isDeleted = 0 ORDER BY r.modifiedAt DESC LIMIT 5
                        """
                ).map { row -> String in row["detail"] }.joined(separator: " | ")
            }
            let indexes = try await server.emulator.store.writer.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
            }
            #expect(indexes.contains("system_modifiedAt"), "\(indexes)")
            #expect(plan.contains("system_modifiedAt"), "\(plan)")
        }
    }

    /// The names of the store's indexes, polled until `name` is among them (10 s at most).
    static func waitForIndex(_ server: TestServer, _ name: String) async throws {
        for _ in 0..<200 {
            let indexes = try await server.emulator.store.writer.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
            }
            if indexes.contains(name) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no index \(name) after 10 s")
    }

    @Test("a page whose index is still being built says so and reloads itself, then shows the records")
    func pageWaitsForItsIndexWithoutBlocking() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            _ = try await server.client().modify(
                (0..<3).map { RecordOperation(.create, .make("i\($0)", fields: ["title": .string("t\($0)")])) })
            let zone = try await Self.aliceZone(server)
            let controller = DashboardController(services: server.emulator.services, csrfToken: "t")
            let parameters = ["zone": "\(zone)", "type": "Recipe", "sort": "title", "desc": "1"]
            // A zero deadline stands for an index that takes longer than the page may wait.
            guard
                case .page(_, let notice, let refresh) = try await controller.recordsContent(
                    parameters, deadline: .zero)
            else {
                Issue.record("expected the indexing notice")
                return
            }
            #expect(notice.contains(#"id="indexing""#) && notice.contains("<code>title</code>"), "\(notice)")
            #expect(refresh == 1)
            // What the reloads see: the notice until the index is ready, then the records.
            var body = notice
            for _ in 0..<200 where body.contains(#"id="indexing""#) {
                try await Task.sleep(for: .milliseconds(50))
                let content = try await controller.recordsContent(parameters, deadline: .zero)
                guard case .page(_, let page, _) = content else {
                    Issue.record("expected a page, got \(content)")
                    return
                }
                body = page
            }
            #expect(!body.contains(#"id="indexing""#))
            #expect(body.contains(">i0</a>") && body.contains(">i2</a>"), "\(body)")
            // The real deadline lets a small store's query through while its index is built.
            let quick = ["zone": "\(zone)", "type": "Recipe", "sort": "___createTime"]
            guard case .page(_, let listed, nil) = try await controller.recordsContent(quick) else {
                Issue.record("expected the records page without a reload")
                return
            }
            #expect(listed.contains(">i1</a>"))
        }
    }

    @Test("an asset with an http(s) downloadURL is previewed as an image; any other URL stays text")
    func assetPreview() {
        func asset(_ url: String) -> RecordField {
            RecordField(
                value: .object(
                    Fields([
                        Field(key: "fileChecksum", value: .string("abc")), Field(key: "size", value: .int(42)),
                        Field(key: "downloadURL", value: .string(url)),
                    ])), type: .assetID)
        }
        let image = DashboardRecordPage.valueHTML(asset("http://127.0.0.1:8787/assets/a?x=1&y=\"2\""))
        #expect(image.hasPrefix("<img class=\"asset\" alt=\"asset, 42 bytes\""), "\(image)")
        #expect(image.contains(#"src="http://127.0.0.1:8787/assets/a?x=1&amp;y=&quot;2&quot;""#), "\(image)")
        let script = DashboardRecordPage.valueHTML(asset("javascript:alert(1)"))
        #expect(!script.contains("<img") && script.contains("javascript:alert(1)"), "\(script)")
        #expect(DashboardRecordPage.valueHTML(RecordField(value: .string("<b>"), type: .string)) == "&lt;b&gt;")
    }

    @Test("pages hold one page of records; the next-page link walks every record exactly once")
    func pagingWalksEveryRecordOnce() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let count = DashboardRecordsPage.pageSize * 2 + 7
            for start in stride(from: 0, to: count, by: 100) {
                _ = try await server.client().modify(
                    (start..<min(count, start + 100)).map { RecordOperation(.create, .make("p\($0)")) })
            }
            let zone = try await Self.aliceZone(server)
            for typed in [false, true] {
                var target: String? = "/_emulator/ui/zone?zone=\(zone)" + (typed ? "&type=Recipe" : "")
                var seen: [String] = []
                while let next = target {
                    let page = try await Self.get(server, next).body
                    let links = page.components(separatedBy: "/_emulator/ui/record?zone=\(zone)&amp;name=").dropFirst()
                    #expect(links.count <= DashboardRecordsPage.pageSize)
                    seen += links.map { String($0.prefix { $0 != "\"" }) }
                    target = Self.nextPage(page)
                }
                #expect(seen.count == count && Set(seen).count == count, "typed: \(typed)")
            }
        }
    }

    @Test("CSRF: a dashboard POST without the token, with a wrong one, or from a foreign Origin is refused")
    func postsNeedTheCSRFToken() async throws {
        let server = try await ControlPlaneGuardTests.seeded()
        try await stopping(server) { _ in
            let missing = try await Self.postForm(server, "/_emulator/ui/reset", body: "confirm=reset")
            #expect(missing.status == 403, "\(missing.text)")
            let wrong = try await Self.postForm(
                server, "/_emulator/ui/reset", body: "confirm=reset&csrf=\(String(repeating: "0", count: 32))")
            #expect(wrong.status == 403)
            let token = try await Self.csrf(server)
            let foreign = try await Self.postForm(
                server, "/_emulator/ui/reset", body: "confirm=reset&csrf=\(token)",
                headers: ["Origin: http://evil.example"])
            #expect(foreign.status == 403)
            let unconfirmed = try await Self.postForm(server, "/_emulator/ui/reset", body: "confirm=no&csrf=\(token)")
            #expect(unconfirmed.status == 400)
            #expect(try await ControlPlaneGuardTests.dataIsThere(server))
            let confirmed = try await Self.postForm(server, "/_emulator/ui/reset", body: "confirm=reset&csrf=\(token)")
            #expect(confirmed.status == 303)
            #expect(try await !ControlPlaneGuardTests.dataIsThere(server))
        }
    }

    @Test("a fault rule added from the dashboard fails the next request, and the request log names it")
    func faultRuleFromTheDashboard() async throws {
        let server = try await ControlPlaneGuardTests.seeded()
        try await stopping(server) { _ in
            let token = try await Self.csrf(server)
            let added = try await Self.postForm(
                server, "/_emulator/ui/faults/add",
                body: "csrf=\(token)&operation=records%2Flookup&error=THROTTLED&remaining=1&retryAfter=2")
            #expect(added.status == 303, "\(added.text)")
            let answer = try await server.client().post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "keep")]))
            #expect(answer.status == 429 && answer.errorCode == "THROTTLED")
            let log = try await Self.get(server, "/_emulator/requests?limit=1").body
            #expect(log.contains(#""faultRule":"fault-1""#), "\(log)")
            #expect(try await ControlPlaneGuardTests.dataIsThere(server), "the rule fired once")
            let after = try await Self.get(server, "/_emulator/requests?limit=1").body
            #expect(after.contains(#""auth":"web-auth""#) && !after.contains("faultRule"), "\(after)")
            let bad = try await Self.postForm(server, "/_emulator/ui/faults/add", body: "csrf=\(token)&latencyMs=soon")
            #expect(bad.status == 400 && bad.body.contains("latencyMs: &#39;soon&#39; is not a number"))
        }
    }

    @Test("admin page attack: on loopback too, the page of every token needs the admin token or the sign-in")
    func adminPageNeedsSignIn() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let token = server.emulator.adminToken
            let anonymous = try await Self.get(server, "/_emulator/ui/admin")
            #expect(anonymous.status == 303 && anonymous.text.contains("/_emulator/ui/login"))
            #expect(!anonymous.text.contains(token) && !anonymous.text.contains(TestServer.apiToken))
            let spelled = try await Self.get(server, "//_emulator/ui/./admin")
            #expect(spelled.status != 200 && !spelled.text.contains(token))
            let signedIn = try await Self.get(server, "/_emulator/ui/admin", headers: ["Cookie: larder_admin=\(token)"])
            #expect(signedIn.status == 200 && signedIn.body.contains("reset-form"))
            let byHeader = try await Self.get(
                server, "/_emulator/ui/admin", headers: ["X-Larder-Admin-Token: \(token)"])
            #expect(byHeader.status == 200)
            // The rest of the dashboard stays open on loopback.
            #expect(try await Self.get(server, "/_emulator/ui/").status == 200)
        }
    }

    @Test("off loopback the dashboard needs the admin token; the sign-in form turns it into a cookie")
    func offLoopbackSignIn() async throws {
        let token = String(repeating: "cd", count: 32)
        let policy = RequestGuard.Policy(host: "0.0.0.0", adminToken: token)
        func refusal(_ path: String, method: String = "GET", cookie: String? = nil) -> Int? {
            policy.refusal(
                path: path, authority: "192.0.2.7:8787", origin: nil,
                contentType: method == "POST" ? "application/x-www-form-urlencoded" : nil, hasBody: method == "POST",
                authorization: nil, adminTokenHeader: nil, isLoopbackPeer: false, cookieToken: cookie)?.status
        }
        #expect(refusal("/_emulator/ui/") == 401)
        #expect(refusal("/_emulator/ui/zone") == 401)
        #expect(refusal("/_emulator/ui/reset", method: "POST") == 401)
        #expect(refusal("/_emulator/ui/zone", cookie: "wrong") == 401)
        #expect(refusal("/_emulator/ui/zone", cookie: token) == nil)
        #expect(refusal("/_emulator/ui/login", method: "POST") == nil)
        #expect(refusal("/_emulator/reset", method: "POST", cookie: token) == 415, "form posts only on the dashboard")
        #expect(DashboardLogin.token(inCookie: "a=b; larder_admin=\(token); c=d") == token)

        let server = try await TestServer.start { $0.host = "0.0.0.0" }
        try await stopping(server) { _ in
            let page = try await Self.get(server, "/_emulator/ui/")
            #expect(page.status == 303 && page.text.contains("/_emulator/ui/login"), "\(page.text)")
            let rejected = try await Self.postForm(server, "/_emulator/ui/login", body: "token=nope")
            #expect(rejected.status == 401)
            let signedIn = try await Self.postForm(
                server, "/_emulator/ui/login", body: "token=\(server.emulator.adminToken)")
            #expect(signedIn.status == 303 && signedIn.text.contains("HttpOnly; SameSite=Strict"))
            let withCookie = try await Self.get(
                server, "/_emulator/ui/", headers: ["Cookie: larder_admin=\(server.emulator.adminToken)"])
            #expect(withCookie.status == 200 && withCookie.body.contains("Zones"))
        }
    }
}
