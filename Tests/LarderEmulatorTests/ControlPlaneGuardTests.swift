import Foundation
import LarderCloudKit
import LarderCore
import Testing

@testable import LarderEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// Issue #12: web pages (cross-origin requests, DNS rebinding) cannot reach the control plane or the API.
@Suite struct ControlPlaneGuardTests {
    static func port(_ server: TestServer) throws -> Int { try #require(server.baseURL.port) }

    /// A raw request: `headers` after the request line, `Content-Length` added for the body.
    static func raw(
        _ server: TestServer, _ method: String, _ target: String, headers: [String], body: String = ""
    ) async throws -> RawHTTPClient.Reply {
        var head = ["\(method) \(target) HTTP/1.1"] + headers + ["Connection: close"]
        if !body.isEmpty || method == "POST" { head.append("Content-Length: \(body.utf8.count)") }
        return try await RawHTTPClient.send(port: try port(server), head: head, body: Array(body.utf8))
    }

    /// Alice's record `keep` is still there.
    static func dataIsThere(_ server: TestServer) async throws -> Bool {
        let answer = try await server.client().post(
            "records/lookup", LookupRecordsRequest(records: [.init(recordName: "keep")]))
        return try answer.decode(RecordsResponse.self).records.first?.record?.field("title") == "me"
    }

    static func seeded() async throws -> TestServer {
        let server = try await TestServer.start()
        _ = try await server.client().modify([RecordOperation(.create, .make("keep", fields: ["title": .string("me")]))]
        )
        return server
    }

    @Test("control plane CSRF: a text/plain reset is refused with 415 and the data stays")
    func textPlainResetIsRefused() async throws {
        let server = try await Self.seeded()
        try await stopping(server) { _ in
            let host = "Host: 127.0.0.1:\(try Self.port(server))"
            let reply = try await Self.raw(
                server, "POST", "/_emulator/reset", headers: [host, "Content-Type: text/plain"], body: "{}")
            #expect(reply.status == 415, "\(reply.text)")
            #expect(!reply.body.contains("reset"))
            let empty = try await Self.raw(
                server, "POST", "/_emulator/reset", headers: [host, "Content-Type: text/plain"])
            #expect(empty.status == 415)
            let form = try await Self.raw(
                server, "POST", "/_emulator/import",
                headers: [host, "Content-Type: application/x-www-form-urlencoded"],
                body: "a=b")
            #expect(form.status == 415)
            #expect(try await Self.dataIsThere(server))
        }
    }

    @Test("DNS rebinding: a foreign Host is refused on the control plane and on the CloudKit API")
    func foreignHostIsRefused() async throws {
        let server = try await Self.seeded()
        try await stopping(server) { _ in
            let port = try Self.port(server)
            let json = "Content-Type: application/json"
            for host in [
                "evil.example:\(port)", "evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example",
            ] {
                let reset = try await Self.raw(
                    server, "POST", "/_emulator/reset", headers: ["Host: \(host)", json], body: "{}")
                #expect(reset.status == 403, "\(host): \(reset.text)")
                let export = try await Self.raw(server, "GET", "/_emulator/export", headers: ["Host: \(host)"])
                #expect(export.status == 403 && !export.body.contains("keep"), "\(host)")
            }
            let client = server.client()
            let path = client.url("records/lookup").absoluteString.replacingOccurrences(
                of: server.baseURL.absoluteString, with: "")
            let api = try await Self.raw(
                server, "POST", path, headers: ["Host: evil.example:\(port)", json],
                body: #"{"records":[{"recordName":"keep"}]}"#)
            #expect(api.status == 403 && !api.body.contains("\"me\""), "\(api.text)")
            let loopbackAPI = try await Self.raw(
                server, "POST", path, headers: ["Host: localhost:\(port)", json],
                body: #"{"records":[{"recordName":"keep"}]}"#)
            #expect(loopbackAPI.status == 200 && loopbackAPI.body.contains("\"me\""))
            #expect(try await Self.dataIsThere(server))
        }
    }

    @Test("control plane CSRF: a foreign Origin is refused even with a loopback Host")
    func foreignOriginIsRefused() async throws {
        let server = try await Self.seeded()
        try await stopping(server) { _ in
            let host = "Host: 127.0.0.1:\(try Self.port(server))"
            for origin in ["http://evil.example", "null", "http://127.0.0.1.evil.example:8787", "file://"] {
                let reply = try await Self.raw(
                    server, "POST", "/_emulator/reset",
                    headers: [host, "Origin: \(origin)", "Content-Type: application/json"], body: "{}")
                #expect(reply.status == 403, "\(origin): \(reply.text)")
            }
            let local = try await Self.raw(
                server, "GET", "/_emulator/health", headers: [host, "Origin: http://localhost:3000"])
            #expect(local.status == 200)
            #expect(try await Self.dataIsThere(server))
        }
    }

    @Test("a JSON reset from loopback still works without the token")
    func loopbackJSONResetWorks() async throws {
        let server = try await Self.seeded()
        try await stopping(server) { _ in
            let reply = try await Self.raw(
                server, "POST", "/_emulator/reset",
                headers: ["Host: localhost:\(try Self.port(server))", "Content-Type: application/json"], body: "{}")
            #expect(reply.status == 200 && reply.body.contains(#""reset":true"#))
            #expect(try await !Self.dataIsThere(server))
        }
    }

    @Test("bound off loopback, the control plane refuses a request without the admin token; the token works")
    func nonLoopbackNeedsTheToken() async throws {
        let server = try await TestServer.start { $0.host = "0.0.0.0" }
        try await stopping(server) { _ in
            _ = try await server.client().modify([
                RecordOperation(.create, .make("keep", fields: ["title": .string("me")]))
            ]
            )
            let token = server.emulator.adminToken
            #expect(token.count == 64)
            let host = "Host: 127.0.0.1:\(try Self.port(server))"
            let json = "Content-Type: application/json"
            let missing = try await Self.raw(server, "POST", "/_emulator/reset", headers: [host, json], body: "{}")
            #expect(missing.status == 401, "\(missing.text)")
            let wrong = try await Self.raw(
                server, "POST", "/_emulator/reset",
                headers: [host, json, "Authorization: Bearer \(String(repeating: "0", count: 64))"], body: "{}")
            #expect(wrong.status == 401)
            let export = try await Self.raw(server, "GET", "/_emulator/export", headers: [host])
            #expect(export.status == 401 && !export.body.contains("keep"))
            #expect(try await Self.dataIsThere(server))
            let header = try await Self.raw(
                server, "GET", "/_emulator/export", headers: [host, "X-Larder-Admin-Token: \(token)"])
            #expect(header.status == 200 && header.body.contains("keep"))
            let bearer = try await Self.raw(
                server, "POST", "/_emulator/reset", headers: [host, json, "Authorization: Bearer \(token)"], body: "{}")
            #expect(bearer.status == 200 && bearer.body.contains(#""reset":true"#))
            #expect(try await !Self.dataIsThere(server))
        }
    }

    /// Spellings of a control-plane path that the router resolves to its handler, or might.
    static let controlPlaneSpellings = [
        "//_emulator/", "///_emulator/", "/./_emulator/", "/_emulator//", "/_emulator/./", "/x/../_emulator/",
        "/%2F_emulator/", "/%2f_emulator/", "/%5Femulator/", "/%255Femulator/", "/_EMULATOR/", "/\\_emulator/",
    ]

    @Test("path spelling: '//_emulator/reset' and every other spelling meet the control plane's rules")
    func controlPlaneSpellingsAreGuarded() async throws {
        let server = try await Self.seeded()
        try await stopping(server) { _ in
            let host = "Host: 127.0.0.1:\(try Self.port(server))"
            for prefix in Self.controlPlaneSpellings {
                // The attack: a page on another site posts text/plain (no preflight) with its Origin.
                let reply = try await Self.raw(
                    server, "POST", prefix + "reset",
                    headers: [host, "Content-Type: text/plain", "Origin: https://evil.example"], body: "{}")
                #expect(!(200..<300).contains(reply.status ?? 0), "\(prefix)reset: \(reply.text)")
                #expect(try await Self.dataIsThere(server), "\(prefix)reset wiped the data")
            }
        }
    }

    @Test("path spelling: bound off loopback, no spelling of the control plane answers without the admin token")
    func controlPlaneSpellingsNeedTheToken() async throws {
        let server = try await TestServer.start { $0.host = "0.0.0.0" }
        try await stopping(server) { _ in
            _ = try await server.client().modify([
                RecordOperation(.create, .make("keep", fields: ["title": .string("me")]))
            ])
            let host = "Host: 127.0.0.1:\(try Self.port(server))"
            for prefix in Self.controlPlaneSpellings {
                for target in ["export", "signin?user=alice", "ui/admin"] {
                    let reply = try await Self.raw(server, "GET", prefix + target, headers: [host])
                    #expect(reply.status != 200, "\(prefix)\(target): \(reply.status)")
                    #expect(
                        !reply.body.contains("keep") && !reply.body.contains(server.emulator.adminToken),
                        "\(prefix)\(target)")
                }
                for target in ["reset", "import"] {
                    let reply = try await Self.raw(
                        server, "POST", prefix + target, headers: [host, "Content-Type: application/json"], body: "{}")
                    #expect(reply.status != 200, "\(prefix)\(target): \(reply.status)")
                }
            }
            #expect(try await Self.dataIsThere(server))
        }
    }

    @Test("no-cors reset: a page on another loopback port cannot change the emulator, with or without a body")
    func otherLoopbackOriginCannotReset() async throws {
        let server = try await Self.seeded()
        try await stopping(server) { _ in
            let port = try Self.port(server)
            let host = "Host: 127.0.0.1:\(port)"
            // What `fetch('http://127.0.0.1:PORT/_emulator/reset', {method: 'POST', mode: 'no-cors'})` sends.
            for origin in ["http://127.0.0.1:\(port + 1)", "http://localhost:3000", "https://127.0.0.1:\(port)"] {
                let bodiless = try await Self.raw(
                    server, "POST", "/_emulator/reset", headers: [host, "Origin: \(origin)"])
                #expect(bodiless.status == 403, "\(origin): \(bodiless.text)")
                let json = try await Self.raw(
                    server, "POST", "/_emulator/reset",
                    headers: [host, "Origin: \(origin)", "Content-Type: application/json"], body: "{}")
                #expect(json.status == 403, "\(origin): \(json.text)")
            }
            // Without an Origin, a bodiless POST with no type is what a no-cors request of an old
            // browser looks like: it needs the JSON type (a preflight) or the admin token.
            let plain = try await Self.raw(server, "POST", "/_emulator/reset", headers: [host])
            #expect(plain.status == 415, "\(plain.text)")
            #expect(try await Self.dataIsThere(server))
            let token = try await Self.raw(
                server, "POST", "/_emulator/reset",
                headers: [
                    host, "Origin: http://127.0.0.1:\(port)", "X-Larder-Admin-Token: \(server.emulator.adminToken)",
                ])
            #expect(token.status == 200, "\(token.text)")
            #expect(try await !Self.dataIsThere(server))
        }
    }

    @Test("the guard decides on one spelling of the path")
    func canonicalPath() {
        for prefix in Self.controlPlaneSpellings {
            #expect(RequestGuard.Policy.canonicalPath(prefix + "reset") == "/_emulator/reset", "\(prefix)")
        }
        #expect(
            RequestGuard.Policy.canonicalPath("/database/1/c/development/private/records/query")
                == "/database/1/c/development/private/records/query")
        #expect(RequestGuard.Policy.canonicalPath("/../../_emulator") == "/_emulator")
        #expect(RequestGuard.Policy.canonicalPath("/%zz/_emulator/x") == "/%zz/_emulator/x")
        #expect(RequestGuard.Policy.canonicalPath("") == "/")
    }

    @Test("a peer off loopback needs the admin token even with a loopback Host")
    func remotePeerNeedsTheToken() {
        let policy = RequestGuard.Policy(host: "127.0.0.1", adminToken: String(repeating: "ab", count: 32))
        func refusal(peer: Bool, token: String? = nil) -> Int? {
            policy.refusal(
                path: "/_emulator/reset", authority: "127.0.0.1:8787", origin: nil, contentType: "application/json",
                hasBody: true, authorization: token.map { "Bearer \($0)" }, adminTokenHeader: nil, isLoopbackPeer: peer)?
                .status
        }
        #expect(refusal(peer: false) == 401)
        #expect(refusal(peer: false, token: String(repeating: "ab", count: 32)) == nil)
        #expect(refusal(peer: true) == nil)
        #expect(
            RequestGuard.Policy.isLoopback(hostName: "127.12.0.1") && RequestGuard.Policy.isLoopback(hostName: "[::1]"))
        #expect(RequestGuard.Policy.hostName(ofAuthority: "[::1]:8787") == "::1")
        #expect(!RequestGuard.Policy.isLoopback(hostName: "127.0.0.1.nip.io"))
    }

    @Test("Host reflection: the URLs an answer hands out name this emulator, never a Host of the caller's choosing")
    func advertisedAuthority() {
        func advertised(_ bound: String, _ authority: String?) -> String {
            RequestGuard.Policy(host: bound, adminToken: "").advertisedAuthority(
                requestAuthority: authority, port: 8787)
        }
        // A loopback name, or the configured name, is kept as the caller wrote it (with its port).
        #expect(advertised("127.0.0.1", "localhost:8787") == "localhost:8787")
        #expect(advertised("192.168.1.20", "192.168.1.20:8787") == "192.168.1.20:8787")
        #expect(advertised("kitchen.local", "Kitchen.Local:8787") == "Kitchen.Local:8787")
        // Bound to one address, a foreign name falls back to the configured address.
        #expect(advertised("192.168.1.20", "evil.example") == "192.168.1.20:8787")
        #expect(advertised("fd00::20", "evil.example") == "[fd00::20]:8787")
        // Bound to every address, any well-formed name may be this machine's.
        #expect(advertised("0.0.0.0", "kitchen.local:8787") == "kitchen.local:8787")
        #expect(advertised("0.0.0.0", "[fd00::20]:8787") == "[fd00::20]:8787")
        // Text that is no authority never reaches a URL.
        for bad in [
            "evil.example/phish?x=", "a b", "user@evil.example", "evil.example:80x", "evil.example:", "[::1", ":8787",
            "evil\".example", String(repeating: "a", count: 300),
        ] {
            #expect(advertised("0.0.0.0", bad) == "0.0.0.0:8787", "\(bad)")
        }
        #expect(advertised("0.0.0.0", nil) == "0.0.0.0:8787")
    }

    @Test(
        "Host reflection: a redirectURL on a wildcard bind takes a malformed Host's place with the configured address")
    func redirectURLIgnoresAMalformedHost() async throws {
        let server = try await TestServer.start { $0.host = "0.0.0.0" }
        try await stopping(server) { _ in
            let port = try Self.port(server)
            let path = "/database/1/\(TestServer.container)/development/private/zones/list"
            func redirect(_ host: String) async throws -> String? {
                let reply = try await Self.raw(server, "GET", path, headers: ["Host: \(host)"])
                #expect(reply.status == 421, "\(reply.text)")
                let json = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
                return json?["redirectURL"] as? String
            }
            #expect(try await redirect("localhost:\(port)") == "http://localhost:\(port)/_emulator/signin")
            let malformed = try await redirect("evil.example/phish?x=")
            #expect(malformed == "http://0.0.0.0:\(port)/_emulator/signin", "\(malformed ?? "nil")")
        }
    }
}
