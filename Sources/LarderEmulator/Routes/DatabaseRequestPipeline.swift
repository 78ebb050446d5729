import Foundation
import HTTPTypes
import Hummingbird
import LarderCloudKit
import LarderCore
import Logging
import NIOCore
import Synchronization

/// The shared services every route uses.
struct EmulatorServices: Sendable {
    let configuration: EmulatorConfiguration
    let store: EmulatorStore
    let authenticator: Authenticator
    let faults: FaultRuleSet
    let requestLog: RequestLog
    let clock: LarderClock
    let random: RandomSource
    /// Signs download URLs (a key made at start).
    let assetTickets = AssetTickets()

    /// `http://host:port` for the URLs an answer to `request` hands out: its `Host` when that
    /// names this emulator, else the configured address (``RequestGuard/Policy/advertisedAuthority(requestAuthority:port:)``).
    func baseURL(for request: Request) -> String {
        let policy = RequestGuard.Policy(host: configuration.host, adminToken: "")
        let port = configuration.port != 0 ? configuration.port : listeningPort.value.load(ordering: .relaxed)
        return "http://" + policy.advertisedAuthority(requestAuthority: request.head.authority, port: port)
    }

    /// The port the server listens on (set once listening; the configured port may be 0, any free port).
    let listeningPort = ListeningPort()
}

/// The port a server listens on, known once it is.
final class ListeningPort: Sendable {
    let value = Atomic<Int>(0)
}

/// A request body with no content (GET endpoints).
struct EmptyBody: Decodable, Sendable {}

/// The plumbing of every `/database/1/{container}/{environment}/{database}/…` route: endpoint
/// parsing, the body limit, authentication, fault rules, JSON decoding with located errors, the
/// JSON answer and the rotated web-auth token.
struct DatabaseRequestPipeline: Sendable {
    let services: EmulatorServices

    func handle<Body: Decodable & Sendable, Answer: WireEncodable & Sendable>(
        _ operation: String, _ request: Request, _ context: EmulatorRequestContext, body: Body.Type,
        perform: @escaping @Sendable (DatabaseOperationContext, Body, FaultDecision) async throws -> Answer
    ) async throws -> Response {
        let configuration = services.configuration
        // `tokens/*` paths have no database segment: they authenticate like the public database.
        let databaseText = context.parameters.get("database") ?? DatabaseEndpoint.Scope.public.rawValue
        guard let container = context.parameters.get("container"),
            let environmentText = context.parameters.get("environment")
        else { throw CloudKitServerError.badRequest("malformed database path") }
        guard let environment = DatabaseEndpoint.Environment(rawValue: environmentText) else {
            throw CloudKitServerError.badRequest("environment '\(environmentText)' is not development or production")
        }
        guard let database = DatabaseEndpoint.Scope(rawValue: databaseText) else {
            throw CloudKitServerError.badRequest("database '\(databaseText)' is not public, private or shared")
        }
        guard configuration.containers.contains(container) else {
            throw CloudKitServerError(.notFound, "container '\(container)' is not served by this emulator")
        }
        let endpoint = DatabaseEndpoint(container: container, environment: environment, database: database)
        let limit = configuration.limits.maxRequestBodyBytes
        let buffer = try await RequestBodyReader.collect(request, upTo: limit)
        let data = Data(buffer.readableBytesView)
        RequestCapture.current?.record(request: buffer.readableBytesView)
        let now = services.clock.milliseconds
        let query = QueryString.parse(request.uri.query)
        let credentials = Authenticator.Credentials(
            apiToken: query["ckAPIToken"], webAuthToken: query["ckWebAuthToken"],
            keyID: request.headers[.cloudKitKeyID],
            signatureDate: request.headers[.cloudKitRequestDate],
            signature: request.headers[.cloudKitSignature])
        let baseURL = services.baseURL(for: request)
        // A server-to-server signature covers the path with its query string, as Apple's servers
        // check it: CloudKit JS 2.6.4 sends `?ckjsBuildVersion=…&ckjsVersion=…&clientId=…` and signs
        // `date:bodyHash:path?query`; MistKit and Larder send no query, so for them it is the path.
        let signedPath = request.uri.path + (request.uri.query.map { $0.isEmpty ? "" : "?" + $0 } ?? "")
        let caller = try services.authenticator.authenticate(
            credentials, scope: database, path: signedPath, body: data, baseURL: baseURL, nowMilliseconds: now)
        let signInURL = Authenticator.signInURL(baseURL: baseURL)
        let faults = services.faults.decide(operation: operation, database: database.rawValue)
        if faults.latencyMs > 0 { try await Task.sleep(for: .milliseconds(faults.latencyMs)) }
        if var error = faults.error {
            if error.code == .authenticationRequired, error.redirectURL == nil { error.redirectURL = signInURL }
            throw error
        }
        let decoded: Body
        do {
            decoded = try buffer.withUnsafeReadableBytes { bytes in
                let isBlank = bytes.allSatisfy { $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }
                if isBlank { return try ValueDecoder().decode(Body.self, from: .object(Fields())) }
                return try WireDecoder(name: "request body").decode(Body.self, from: bytes)
            }
        } catch let error as LarderError {
            let position = error.location.flatMap { location in
                location.line.map { "line \($0), column \(location.column ?? 1)" }
            }
            throw CloudKitServerError.badRequest(
                "malformed JSON body: \(error.message)\(position.map { " at \($0)" } ?? "")")
        } catch let error as DecodingError {
            throw CloudKitServerError.badRequest("invalid \(operation) request: \(DecodingErrorText.describe(error))")
        }
        var call = DatabaseOperationContext(
            endpoint: endpoint, caller: caller, configuration: configuration, nowMilliseconds: now,
            deviceID: request.headers[.larderDeviceID] ?? "larder-emulator",
            random: services.random, signInURL: signInURL)
        call.assetLinks = AssetLinks(baseURL: baseURL, tickets: services.assetTickets)
        call.numbersAsStrings = (decoded as? any NumbersAsStringsCarrying)?.wantsNumbersAsStrings ?? false
        let answer = try await perform(call, decoded, faults)
        var headers = HTTPFields()
        if let user = caller.userRecordName { headers[.larderUser] = user }
        headers[.larderAuth] =
            caller.isServerKey ? "server-key" : caller.userRecordName == nil ? "api-token" : "web-auth"
        if let rule = faults.firedRule { headers[.larderFault] = rule }
        if let user = caller.userRecordName, !caller.isServerKey {
            headers[.webAuthToken] = services.authenticator.mint(
                for: user, nowMilliseconds: now)
        }
        let encoded = try JSONResponse.encode(answer)
        RequestCapture.current?.record(answer: encoded.readableBytesView)
        return JSONResponse.make(encoded, headers: headers)
    }
}

/// Requests that may ask for integers as strings.
protocol NumbersAsStringsCarrying {
    var wantsNumbersAsStrings: Bool { get }
}

extension ModifyRecordsRequest: NumbersAsStringsCarrying {
    var wantsNumbersAsStrings: Bool { numbersAsStrings ?? false }
}

extension QueryRecordsRequest: NumbersAsStringsCarrying {
    var wantsNumbersAsStrings: Bool { numbersAsStrings ?? false }
}

extension LookupRecordsRequest: NumbersAsStringsCarrying {
    var wantsNumbersAsStrings: Bool { numbersAsStrings ?? false }
}

extension RecordChangesRequest: NumbersAsStringsCarrying {
    var wantsNumbersAsStrings: Bool { numbersAsStrings ?? false }
}

extension ZoneChangesRequest: NumbersAsStringsCarrying {
    var wantsNumbersAsStrings: Bool { numbersAsStrings ?? false }
}
