import Foundation
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Replays what Apple's CloudKit JS 2.6.4 sent when driven through its public API.
///
/// The capture is Fixtures/cloudkit-js-requests.txt, made by scripts/cloudkit-js-capture.js: the same
/// methods, paths, query strings, headers and body bytes. Only values the server hands out are carried over
/// as the library carries them: the web-auth token of the previous answer, continuation markers,
/// asset upload and download URLs and receipts (each captured value is replaced by the value this
/// server answered at the same place). Server-to-server requests are signed again with the test key
/// over the captured date:bodyHash:path?query message, as cloudkit.js signs, with today's date.
@Suite struct CloudKitJSReplayTests {
    struct Exchange {
        var browser = false
        var method = ""
        var target = ""
        var headers: [(name: String, value: String)] = []
        var body: Data?
        var status: Int?
        var answerToken: String?
        var answer: Value = .null
        var answerBytes = Data()
    }

    struct Call {
        var id: String
        var title: String
        var passed: Bool
        var exchanges: [Exchange] = []
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cloudkit-js-requests.txt")

    static func load() throws -> [Call] {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        var calls: [Call] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("=== ") {
                let heading = line.dropFirst(4)
                let id = String(heading.prefix { $0 != " " })
                calls.append(Call(id: id, title: String(heading), passed: heading.contains("| pass")))
                continue
            }
            guard !calls.isEmpty else { continue }
            let (word, rest) = split(line)
            switch word {
            case "REQUEST", "BROWSER":
                let (method, target) = split(rest)
                calls[calls.count - 1].exchanges.append(
                    Exchange(browser: word == "BROWSER", method: method, target: target))
            case "HEADER":
                let (name, value) = split(rest, on: ": ")
                calls[calls.count - 1].exchanges[calls[calls.count - 1].exchanges.count - 1].headers.append(
                    (name, value))
            case "BODY":
                calls[calls.count - 1].exchanges[calls[calls.count - 1].exchanges.count - 1].body = Data(rest.utf8)
            case "BODY-BASE64":
                calls[calls.count - 1].exchanges[calls[calls.count - 1].exchanges.count - 1].body = Data(
                    base64Encoded: rest)
            case "STATUS":
                calls[calls.count - 1].exchanges[calls[calls.count - 1].exchanges.count - 1].status = Int(rest)
            case "ANSWER-HEADER":
                calls[calls.count - 1].exchanges[calls[calls.count - 1].exchanges.count - 1].answerToken =
                    split(rest, on: ": ").1
            case "ANSWER":
                let last = calls[calls.count - 1].exchanges.count - 1
                calls[calls.count - 1].exchanges[last].answerBytes = Data(rest.utf8)
                calls[calls.count - 1].exchanges[last].answer =
                    (try? JSONDecoder().decode(Value.self, from: Data(rest.utf8))) ?? .null
            case "ANSWER-BASE64":
                calls[calls.count - 1].exchanges[calls[calls.count - 1].exchanges.count - 1].answerBytes =
                    Data(base64Encoded: rest) ?? Data()
            default: continue
            }
        }
        return calls
    }

    static func split(_ line: String, on separator: String = " ") -> (String, String) {
        guard let range = line.range(of: separator) else { return (line, "") }
        return (String(line[..<range.lowerBound]), String(line[range.upperBound...]))
    }

    /// Sends captured requests to one server, carrying over what the server handed out.
    final class Replayer: @unchecked Sendable {
        let base: URL
        let signer: RequestSigner
        /// Captured value → this server's value, for strings the server handed out.
        var carried: [String: String] = [:]

        init(base: URL) throws {
            self.base = base
            signer = try RequestSigner(keyID: TestServer.keyID, privateKeyPEM: TestServer.keyPair.privateKeyPEM)
        }

        func carry(_ text: String) -> String {
            var text = text
            for (captured, replayed) in carried.sorted(by: { $0.key.count > $1.key.count }) {
                text = text.replacingOccurrences(of: captured, with: replayed)
                text = text.replacingOccurrences(
                    of: TestClient.percentEncode(captured), with: TestClient.percentEncode(replayed))
            }
            return text
        }

        func send(_ exchange: Exchange) async throws -> TestClient.Answer {
            let target = carry(exchange.target)
            let body = exchange.body.map { Data(carry(String(decoding: $0, as: UTF8.self)).utf8) }
            var request = URLRequest(url: try #require(URL(string: base.absoluteString + target)))
            request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
            request.httpMethod = exchange.method
            request.httpBody = body
            var signed = false
            for (name, value) in exchange.headers {
                if name == RequestSigner.keyIDHeader { signed = true }
                if name.hasPrefix("X-Apple-CloudKit-Request-") { continue }
                request.setValue(value, forHTTPHeaderField: name)
            }
            if signed {
                // cloudkit.js: date:base64(sha256(body)):getPathWithParams(), the path with its query string.
                for (name, value) in try signer.headers(body: body ?? Data(), path: target) {
                    request.setValue(value, forHTTPHeaderField: name)
                }
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            return TestClient.Answer(data: data, response: response)
        }

        /// Remembers the strings this server answered where the capture had others.
        func learn(captured: Exchange, replayed: TestClient.Answer) {
            if let token = captured.answerToken, let fresh = replayed.headers["x-apple-cloudkit-web-auth-token"] {
                carried[token] = fresh
            }
            walk(captured.answer, replayed.json)
        }

        private func walk(_ captured: Value, _ replayed: Value) {
            switch (captured, replayed) {
            case (.string(let old), .string(let new)) where old != new && old.count >= 8:
                carried[old] = new
                if let oldURL = URL(string: old), let newURL = URL(string: new), oldURL.host != nil {
                    let oldPath = oldURL.path + (oldURL.query.map { "?\($0)" } ?? "")
                    let newPath = newURL.path + (newURL.query.map { "?\($0)" } ?? "")
                    if oldPath != newPath { carried[oldPath] = newPath }
                }
            case (.array(let old), .array(let new)):
                for (a, b) in zip(old, new) { walk(a, b) }
            case (.object(let old), .object(let new)):
                for field in old { if let other = new[field.key] { walk(field.value, other) } }
            default: break
            }
        }
    }

    /// Replays the calls whose ids start with one of `groups`, in order, checking every answer.
    static func replay(_ groups: [String]) async throws -> [String: [TestClient.Answer]] {
        let calls = try load().filter { call in groups.contains { call.id.hasPrefix($0) } }
        #expect(!calls.isEmpty, "no calls \(groups) in \(fixture.path)")
        let server = try await TestServer.start { $0.webcourierHoldSeconds = 0 }
        var answers: [String: [TestClient.Answer]] = [:]
        try await stopping(server) { _ in
            let replayer = try Replayer(base: server.baseURL)
            for call in calls {
                #expect(call.passed, "\(call.id) failed when captured: \(call.title)")
                for exchange in call.exchanges {
                    let answer = try await replayer.send(exchange)
                    answers[call.id, default: []].append(answer)
                    let expected = exchange.status ?? 200  // a long poll left open: it answers now (no hold)
                    #expect(
                        answer.status == expected, "\(call.id) \(exchange.method) \(exchange.target): \(answer.text)")
                    if !exchange.answerBytes.isEmpty,
                        !String(decoding: exchange.answerBytes, as: UTF8.self)
                            .contains("serverErrorCode")
                    {
                        #expect(!answer.text.contains("serverErrorCode"), "\(call.id): \(answer.text)")
                    }
                    replayer.learn(captured: exchange, replayed: answer)
                }
            }
        }
        return answers
    }

    static func identityChecks(_ answer: TestClient.Answer?, _ id: String) {
        // fetchCurrentUserIdentity() and setUpAuth() resolve to the body itself: its top level.
        #expect(answer?.json["userRecordName"] == "_a11ce", "\(id): \(answer?.text ?? "")")
        #expect(answer?.json["nameComponents"]?["givenName"] == "Alice")
        #expect(answer?.json["lookupInfo"]?["emailAddress"] == "alice@example.com")
        // MistKit reads {users: [identity]}.
        #expect(answer?.json["users"]?.arrayValue?.first?["userRecordName"] == "_a11ce")
    }

    static func recordNames(_ answer: TestClient.Answer?) -> [String] {
        answer?.json["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } ?? []
    }

    @Test(
        "CloudKit JS's web-app session replays: identity, zones, records, query continuation, subscriptions, notifications, assets, sign-in"
    )
    func webSession() async throws {
        let answers = try await Self.replay(["W", "X", "A"])
        Self.identityChecks(answers["W1"]?.first, "W1 setUpAuth()")
        Self.identityChecks(answers["W2"]?.first, "W2 fetchCurrentUserIdentity()")
        #expect(Self.recordNames(answers["W6"]?.first) == ["note-1", "note-2", "note-3"])
        #expect(Self.recordNames(answers["W8"]?.first) == ["note-1"])
        #expect(answers["W8"]?.first?.json["continuationMarker"]?.stringValue != nil)
        // performQuery(previousResponse) adds numbersAsStrings and zoneWide false; same query.
        #expect(Self.recordNames(answers["W9"]?.first) == ["note-2"])
        #expect(Self.recordNames(answers["W10"]?.first) == ["note-3"])
        #expect(answers["W11"]?.first?.json["records"]?.arrayValue?.first?["deleted"] == .bool(true))
        #expect(answers["W13"]?.first?.json["subscriptions"]?.arrayValue?.first?["subscriptionType"] == "database")
        #expect(answers["W14"]?.first?.json["subscriptions"]?.arrayValue?.count == 2)
        // deleteSubscriptions(id) sends {subscriptionID} only.
        #expect(answers["W15"]?.first?.json["subscriptions"]?.arrayValue?.first?["subscriptionID"] == "ckjs-database")
        // registerForNotifications(): /device/1/…/tokens/create, then the webcourier long poll answers null.
        let notifications = answers["W17"] ?? []
        #expect(notifications.first?.json["webcourierURL"]?.stringValue?.contains("/_emulator/webcourier/") == true)
        #expect(notifications.count >= 2 && notifications[1].text == "null", "\(notifications.map(\.text))")
        // The asset: uploaded through assets/upload, then loaded by <img src=downloadURL> with no credentials.
        let upload = try Self.load().first { $0.id == "W18" }?.exchanges.dropFirst().first?.body
        #expect(answers["W20"]?.first?.status == 200)
        #expect(answers["W20"]?.first?.data == upload)
        // An unknown web-auth token, and no web-auth token: AUTHENTICATION_REQUIRED with a sign-in URL,
        // the only answer on which CloudKit JS shows its sign-in button.
        for id in ["X1", "A1"] {
            let answer = answers[id]?.first
            #expect(
                answer?.status == 421 && answer?.errorCode == "AUTHENTICATION_REQUIRED", "\(id): \(answer?.text ?? "")")
            #expect(answer?.json["redirectURL"]?.stringValue?.hasSuffix("/_emulator/signin") == true)
        }
    }

    @Test("CloudKit JS's server-to-server calls replay, signed over the path with its query string")
    func serverToServer() async throws {
        let answers = try await Self.replay(["S"])
        Self.identityChecks(answers["S1"]?.first, "S1 setUpAuth()")
        #expect(Self.recordNames(answers["S2"]?.first) == ["pub-1", "pub-2"])
        #expect(Self.recordNames(answers["S3"]?.first) == ["pub-1"])
        #expect(Self.recordNames(answers["S4"]?.first) == ["pub-1"])
        #expect(Self.recordNames(answers["S5"]?.first) == ["pub-2"])
        #expect(answers["S8"]?.first?.json["records"]?.arrayValue?.allSatisfy { $0["deleted"] == .bool(true) } == true)
        #expect(answers.count == 8)
    }

    @Test("the capture holds every call of issue 30 part 1 as CloudKit JS sent it")
    func fixtureCoversPartOne() throws {
        let calls = try Self.load()
        let requests = calls.flatMap { call in call.exchanges.map { (call.id, $0) } }
        func sent(_ id: String) -> [Exchange] { requests.filter { $0.0 == id }.map(\.1) }
        let query = "?ckjsBuildVersion=2310ProjectDev27&ckjsVersion=2.6.4&clientId="
        // 1. Every signed request carries the query string (signed over it).
        let signed = requests.filter { $0.1.headers.contains { $0.name == RequestSigner.keyIDHeader } }
        #expect(signed.count == 8 && signed.allSatisfy { $0.1.target.contains(query) })
        // 2. users/caller, answered at the top level.
        #expect(sent("W1").first?.target.contains("/public/users/caller\(query)") == true)
        // 3. The continuation request adds the two defaults.
        let continued = String(decoding: sent("W9").first?.body ?? Data(), as: UTF8.self)
        #expect(continued.contains(#""numbersAsStrings":false,"zoneWide":false"#))
        // 4. The asset's downloadURL loaded by the page, without credentials.
        #expect(sent("W20").first.map { $0.browser && !$0.target.contains("ckAPIToken") } == true)
        // 5. DATABASE subscriptions and the typeless delete.
        let databaseSubscription = String(decoding: sent("W13").first?.body ?? Data(), as: UTF8.self)
        #expect(databaseSubscription.contains(#""subscriptionType":"database""#))
        let typelessDelete = String(decoding: sent("W15").first?.body ?? Data(), as: UTF8.self)
        #expect(
            typelessDelete
                == #"{"operations":[{"operationType":"delete","subscription":{"subscriptionID":"ckjs-database"}}]}"#)
        // 6. tokens/create under /device/1/….
        #expect(
            sent("W17").first?.target.hasPrefix("/device/1/iCloud.com.example.tests/development/tokens/create?") == true
        )
        // 7. The unknown web-auth token, sent as encodeURIComponent writes it.
        #expect(sent("X1").first?.target.contains("ckWebAuthToken=expired%2Bweb%2Fauth%3Dtoken") == true)
        // CloudKit JS sends its JSON as text/plain.
        #expect(
            requests.filter { !$0.1.browser && $0.1.body != nil && $0.1.target.hasPrefix("/database/") }
                .allSatisfy { $0.1.headers.contains { $0.name == "content-type" && $0.value == "text/plain" } })
    }
}
