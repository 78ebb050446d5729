/// `users/discover` (POST): `{lookupInfos: [{emailAddress | phoneNumber | userRecordName}]}`.
public struct DiscoverUsersRequest: Sendable, Hashable, Codable {
    public var lookupInfos: [LookupInfo]
    public init(lookupInfos: [LookupInfo]) { self.lookupInfos = lookupInfos }
}

/// `{users: [user identity]}` from users/discover and users/caller (WSREF "User Identity Dictionary":
/// `{userRecordName, lookupInfo, nameComponents}`).
public struct UserIdentitiesResponse: Sendable, Hashable, Codable {
    public var users: [UserIdentity]
    public init(users: [UserIdentity]) { self.users = users }
}

/// `users/caller`: the caller's identity in the shape both public clients read.
///
/// CloudKit JS 2.6.4's `fetchCurrentUserIdentity()` (and `setUpAuth()`) resolves to the answer's
/// top-level `userRecordName`, `lookupInfo` and `nameComponents`: a UserIdentity. MistKit reads
/// `{users: [identity]}` (../shared/cloudkit-client-requests.txt). The answer carries both.
public struct CallerIdentityResponse: Sendable, Hashable, Codable {
    public var userRecordName: String?
    public var lookupInfo: LookupInfo?
    public var nameComponents: NameComponents?
    public var users: [UserIdentity]

    public init(_ identity: UserIdentity) {
        userRecordName = identity.userRecordName
        lookupInfo = identity.lookupInfo
        nameComponents = identity.nameComponents
        users = [identity]
    }
}

extension CallerIdentityResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("userRecordName", userRecordName)
        try encoder.member("lookupInfo", lookupInfo)
        try encoder.member("nameComponents", nameComponents)
        try encoder.member("users", users)
        encoder.endObject()
    }
}

/// `users/lookup/email` and `users/lookup/id`: `{users: [{emailAddress}]}` or `{users: [{userRecordName}]}`.
public struct LookupUsersRequest: Sendable, Hashable, Codable {
    public var users: [LookupInfo]
    public init(users: [LookupInfo]) { self.users = users }
}

/// `{users: [user dictionary]}` from users/lookup/email and users/lookup/id (WSREF "User Dictionary":
/// `{userRecordName, firstName, lastName, emailAddress}`, the same shape as `users/current`).
public struct UsersResponse: Sendable, Hashable, Codable {
    public var users: [CurrentUserResponse]
    public init(users: [CurrentUserResponse]) { self.users = users }
}

/// `tokens/create`: `{apnsEnvironment}`; `tokens/register`: `{apnsEnvironment, apnsToken}`.
public struct APNsTokenRequest: Sendable, Hashable, Codable {
    /// `development` or `production`.
    public var apnsEnvironment: String?
    /// Required by `tokens/register`.
    public var apnsToken: String?
    public init(apnsEnvironment: String?, apnsToken: String? = nil) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
    }
}

/// `tokens/create`'s answer: `{apnsEnvironment, apnsToken, webcourierURL}`; `tokens/register` answers
/// `{apnsEnvironment, apnsToken}` (Apple documents no keys for it).
public struct APNsTokenResponse: Sendable, Hashable, Codable {
    public var apnsEnvironment: String
    public var apnsToken: String
    public var webcourierURL: String?
    public init(apnsEnvironment: String, apnsToken: String, webcourierURL: String? = nil) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
        self.webcourierURL = webcourierURL
    }
}

extension DiscoverUsersRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("lookupInfos", lookupInfos)
        encoder.endObject()
    }
}

extension UserIdentitiesResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("users", users)
        encoder.endObject()
    }
}

extension LookupUsersRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("users", users)
        encoder.endObject()
    }
}

extension UsersResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("users", users)
        encoder.endObject()
    }
}

extension APNsTokenRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("apnsEnvironment", apnsEnvironment)
        try encoder.member("apnsToken", apnsToken)
        encoder.endObject()
    }
}

extension APNsTokenResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("apnsEnvironment", apnsEnvironment)
        try encoder.member("apnsToken", apnsToken)
        try encoder.member("webcourierURL", webcourierURL)
        encoder.endObject()
    }
}
