import Foundation
public import LarderCloudKit
import LarderCore

/// Everything `larder serve` can be told: where to listen and store, who may call, and the limits.
///
/// Resolved in one place, ``resolve(flags:environment:file:)``: a command-line flag wins over a
/// `LARDER_*` environment variable, which wins over the config file, which wins over the default.
/// The file is JSON; an unknown key anywhere in it is an error.
public struct EmulatorConfiguration: Sendable, Hashable, Codable {
    /// The address to bind (default `127.0.0.1`).
    public var host: String = "127.0.0.1"
    /// The port (default 8787; 0 picks a free one).
    public var port: Int = 8787
    /// The SQLite store's folder; nil with ``inMemory``.
    public var dataDirectory: String?
    /// Keep everything in memory (tests, demos).
    public var inMemory: Bool = false
    /// Container identifiers served (`iCloud.…`).
    public var containers: [String] = ["iCloud.com.example.larder"]
    /// API tokens accepted (64 hex characters each).
    public var apiTokens: [String] = []
    /// Users who can sign in with a web-auth token.
    public var users: [EmulatorUser] = []
    /// Server-to-server keys (public database only).
    public var serverKeys: [ServerKey] = []
    /// Size and count limits.
    public var limits: Limits = Limits()
    /// A declared schema: record type → field → type.
    ///
    /// It is the production schema from the start and seeds development, where fields are otherwise added just in time.
    public var schema: [String: [String: FieldType]] = [:]
    /// Make every web-auth token single-use (Apple's behaviour) instead of accepting a user's
    /// configured token again; each response carries a fresh one in `X-Apple-CloudKit-Web-Auth-Token`.
    public var singleUseWebAuthTokens: Bool = false
    /// How long a minted web-auth token stays valid, in seconds (Apple: 30 minutes).
    public var webAuthTokenLifetimeSeconds: Int = 1800
    /// The largest clock difference accepted on a signed request, in seconds (±; default 300).
    ///
    /// Apple's scheme has no nonce: a captured signed request can be replayed inside this window.
    public var signatureSkewSeconds: Int = 300
    /// Refuse a second request with the same key ID, date and signature (remembered for the skew window).
    public var refuseReplays: Bool = false
    /// How many requests the request log keeps.
    public var requestLogCapacity: Int = 1000
    /// The control plane's admin token (`Authorization: Bearer …` or `X-Larder-Admin-Token`); a random
    /// one is made at start when nil.
    ///
    /// Needed off loopback; see docs/emulator.md.
    public var adminToken: String?

    /// How long the webcourier long poll holds before it answers `null`.
    ///
    /// `GET /_emulator/webcourier/…` is the `webcourierURL` of `tokens/create`; `null` means "no
    /// notification". CloudKit JS polls it again at once; without the hold it would ask a hundred times
    /// a second. Short, because stopping the server waits for a held poll (SIGTERM with a poll held
    /// 25 s took 24 s). Not a config file key: tests set 0.
    package var webcourierHoldSeconds: Double = 2

    /// CloudKit's limits, all configurable.
    public struct Limits: Sendable, Hashable, Codable {
        /// Operations per records/modify or zones/modify request (CloudKit: 200).
        public var maxOperationsPerRequest: Int = 200
        /// Records per page of query, lookup and change results (CloudKit: 200).
        public var maxRecordsPerPage: Int = 200
        /// Bytes of one record's fields, assets excluded (CloudKit: 1 MB).
        public var maxRecordBytes: Int = 1_048_576
        /// Bytes of one request body.
        public var maxRequestBodyBytes: Int = 16 << 20
        /// Bytes of one asset (CloudKit Web Services "Data Size Limits": 50 MB per Asset field; taken as 50 MiB).
        public var maxAssetBytes: Int = 50 << 20

        public init() {}

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case maxOperationsPerRequest, maxRecordsPerPage, maxRecordBytes, maxRequestBodyBytes, maxAssetBytes
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: StrictKey.self)
            try StrictKey.rejectUnknown(in: container, known: CodingKeys.allCases.map(\.rawValue))
            let keyed = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Limits()
            maxOperationsPerRequest =
                try keyed.decodeIfPresent(Int.self, forKey: .maxOperationsPerRequest)
                ?? defaults.maxOperationsPerRequest
            maxRecordsPerPage =
                try keyed.decodeIfPresent(Int.self, forKey: .maxRecordsPerPage) ?? defaults.maxRecordsPerPage
            maxRecordBytes = try keyed.decodeIfPresent(Int.self, forKey: .maxRecordBytes) ?? defaults.maxRecordBytes
            maxRequestBodyBytes =
                try keyed.decodeIfPresent(Int.self, forKey: .maxRequestBodyBytes) ?? defaults.maxRequestBodyBytes
            maxAssetBytes = try keyed.decodeIfPresent(Int.self, forKey: .maxAssetBytes) ?? defaults.maxAssetBytes
        }
    }

    public init() {}

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, dataDirectory, inMemory, containers, apiTokens, users, serverKeys, limits, schema
        case singleUseWebAuthTokens, webAuthTokenLifetimeSeconds, signatureSkewSeconds, requestLogCapacity
        case adminToken, refuseReplays
    }

    public init(from decoder: any Decoder) throws {
        let strict = try decoder.container(keyedBy: StrictKey.self)
        try StrictKey.rejectUnknown(in: strict, known: CodingKeys.allCases.map(\.rawValue))
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = EmulatorConfiguration()
        host = try keyed.decodeIfPresent(String.self, forKey: .host) ?? defaults.host
        port = try keyed.decodeIfPresent(Int.self, forKey: .port) ?? defaults.port
        dataDirectory = try keyed.decodeIfPresent(String.self, forKey: .dataDirectory)
        inMemory = try keyed.decodeIfPresent(Bool.self, forKey: .inMemory) ?? defaults.inMemory
        containers = try keyed.decodeIfPresent([String].self, forKey: .containers) ?? defaults.containers
        apiTokens = try keyed.decodeIfPresent([String].self, forKey: .apiTokens) ?? []
        users = try keyed.decodeIfPresent([EmulatorUser].self, forKey: .users) ?? []
        serverKeys = try keyed.decodeIfPresent([ServerKey].self, forKey: .serverKeys) ?? []
        limits = try keyed.decodeIfPresent(Limits.self, forKey: .limits) ?? Limits()
        schema = try keyed.decodeIfPresent([String: [String: FieldType]].self, forKey: .schema) ?? [:]
        singleUseWebAuthTokens =
            try keyed.decodeIfPresent(Bool.self, forKey: .singleUseWebAuthTokens) ?? defaults.singleUseWebAuthTokens
        webAuthTokenLifetimeSeconds =
            try keyed.decodeIfPresent(Int.self, forKey: .webAuthTokenLifetimeSeconds)
            ?? defaults.webAuthTokenLifetimeSeconds
        signatureSkewSeconds =
            try keyed.decodeIfPresent(Int.self, forKey: .signatureSkewSeconds) ?? defaults.signatureSkewSeconds
        requestLogCapacity =
            try keyed.decodeIfPresent(Int.self, forKey: .requestLogCapacity) ?? defaults.requestLogCapacity
        adminToken = try keyed.decodeIfPresent(String.self, forKey: .adminToken)
        refuseReplays = try keyed.decodeIfPresent(Bool.self, forKey: .refuseReplays) ?? defaults.refuseReplays
    }

    /// Checks the values that the types cannot.
    /// - Throws: ``LarderError`` (`usage-error`) naming the bad setting.
    public func validate() throws {
        func fail(_ message: String) -> LarderError { LarderError(.usage, "emulator configuration: " + message) }
        guard (0...65535).contains(port) else { throw fail("port \(port) is not in 0...65535") }
        guard !containers.isEmpty else { throw fail("containers is empty") }
        for token in apiTokens where !EmulatorConfiguration.isAPIToken(token) {
            throw fail("API token \"\(token.prefix(12))…\" is not 64 hex characters")
        }
        var names = Set<String>()
        var tokens = Set<String>()
        for user in users {
            guard user.userRecordName.hasPrefix("_"), user.userRecordName.count > 1 else {
                throw fail("userRecordName \"\(user.userRecordName)\" must start with \"_\"")
            }
            guard names.insert(user.userRecordName).inserted else {
                throw fail("user \(user.userRecordName) is listed twice")
            }
            guard !user.webAuthToken.isEmpty, tokens.insert(user.webAuthToken).inserted else {
                throw fail("user \(user.userRecordName) needs a web-auth token of its own")
            }
        }
        for key in serverKeys {
            guard RequestSigner.isPublicKey(key.publicKeyPEM) else {
                throw fail("server key \(key.keyID.prefix(12))…: publicKeyPEM is not a P-256 public key")
            }
        }
        let limitsList = [
            ("maxOperationsPerRequest", limits.maxOperationsPerRequest),
            ("maxRecordsPerPage", limits.maxRecordsPerPage),
            ("maxRecordBytes", limits.maxRecordBytes), ("maxRequestBodyBytes", limits.maxRequestBodyBytes),
        ]
        for (name, value) in limitsList where value < 1 { throw fail("limits.\(name) must be at least 1") }
        guard signatureSkewSeconds >= 1 else { throw fail("signatureSkewSeconds must be at least 1") }
        if let adminToken, adminToken.utf8.count < 16 { throw fail("adminToken must be at least 16 characters") }
        for (type, fields) in schema {
            for (field, fieldType) in fields where !fieldType.isKnown {
                throw fail("schema.\(type).\(field): unknown type \(fieldType.rawValue)")
            }
        }
    }

    /// Whether `token` has the shape of a CloudKit API token (64 hex characters).
    public static func isAPIToken(_ token: String) -> Bool {
        token.utf8.count == 64
            && token.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) }
    }
}

/// A user who can sign in: the web-auth token stands for a finished Apple ID sign-in.
public struct EmulatorUser: Sendable, Hashable, Codable {
    /// `_` followed by hex, as CloudKit's user record names are.
    public var userRecordName: String
    /// The user's long-lived web-auth token ("keep me signed in").
    public var webAuthToken: String
    public var emailAddress: String?
    public var firstName: String?
    public var lastName: String?
    /// A phone number others can find the user by (`users/discover`).
    public var phoneNumber: String?
    /// Whether other users can find this one with `users/discover` and `users/lookup/*` (default
    /// false: on CloudKit a user must grant discoverability first).
    public var discoverable: Bool = false

    public init(
        userRecordName: String, webAuthToken: String, emailAddress: String? = nil, firstName: String? = nil,
        lastName: String? = nil, discoverable: Bool = false
    ) {
        self.userRecordName = userRecordName
        self.webAuthToken = webAuthToken
        self.emailAddress = emailAddress
        self.firstName = firstName
        self.lastName = lastName
        self.discoverable = discoverable
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case userRecordName, webAuthToken, emailAddress, firstName, lastName, phoneNumber, discoverable
    }

    public init(from decoder: any Decoder) throws {
        try StrictKey.rejectUnknown(
            in: decoder.container(keyedBy: StrictKey.self), known: CodingKeys.allCases.map(\.rawValue))
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        userRecordName = try keyed.decode(String.self, forKey: .userRecordName)
        webAuthToken = try keyed.decode(String.self, forKey: .webAuthToken)
        emailAddress = try keyed.decodeIfPresent(String.self, forKey: .emailAddress)
        firstName = try keyed.decodeIfPresent(String.self, forKey: .firstName)
        lastName = try keyed.decodeIfPresent(String.self, forKey: .lastName)
        phoneNumber = try keyed.decodeIfPresent(String.self, forKey: .phoneNumber)
        discoverable = try keyed.decodeIfPresent(Bool.self, forKey: .discoverable) ?? false
    }
}

/// A registered server-to-server public key.
public struct ServerKey: Sendable, Hashable, Codable {
    /// The key ID clients send in `X-Apple-CloudKit-Request-KeyID`.
    public var keyID: String
    /// The P-256 public key, PEM.
    public var publicKeyPEM: String
    /// The user the key acts as (its creator); the first user when nil.
    public var userRecordName: String?

    public init(keyID: String, publicKeyPEM: String, userRecordName: String? = nil) {
        self.keyID = keyID
        self.publicKeyPEM = publicKeyPEM
        self.userRecordName = userRecordName
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case keyID, publicKeyPEM, userRecordName }

    public init(from decoder: any Decoder) throws {
        try StrictKey.rejectUnknown(
            in: decoder.container(keyedBy: StrictKey.self), known: CodingKeys.allCases.map(\.rawValue))
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        keyID = try keyed.decode(String.self, forKey: .keyID)
        publicKeyPEM = try keyed.decode(String.self, forKey: .publicKeyPEM)
        userRecordName = try keyed.decodeIfPresent(String.self, forKey: .userRecordName)
    }
}

/// A coding key that accepts any name, to find unknown keys.
struct StrictKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    static func rejectUnknown(in container: KeyedDecodingContainer<StrictKey>, known: [String]) throws {
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath + [key],
                    debugDescription: "unknown key \"\(key.stringValue)\" (known: \(known.joined(separator: ", ")))"))
        }
    }
}
