/// A share's permission: `NONE`, `READ_ONLY`, `READ_WRITE` (or `UNKNOWN`).
public struct SharePermission: RawRepresentable, Hashable, Sendable, Codable, Comparable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unknown = SharePermission(rawValue: "UNKNOWN")
    public static let none = SharePermission(rawValue: "NONE")
    public static let readOnly = SharePermission(rawValue: "READ_ONLY")
    public static let readWrite = SharePermission(rawValue: "READ_WRITE")

    /// Whether the tag is one CloudKit defines.
    public var isKnown: Bool { [.unknown, .none, .readOnly, .readWrite].contains(self) }

    private var rank: Int { self == .readWrite ? 2 : self == .readOnly ? 1 : 0 }
    public static func < (lhs: SharePermission, rhs: SharePermission) -> Bool { lhs.rank < rhs.rank }
}

/// A participant of a `cloudkit.share` record.
public struct ShareParticipant: Sendable, Hashable, Codable {
    public var userIdentity: UserIdentity?
    /// `OWNER`, `USER`, `PUBLIC_USER` or `UNKNOWN`.
    public var type: String?
    public var permission: SharePermission?
    /// `INVITED`, `PENDING`, `ACCEPTED`, `REMOVED` or `UNKNOWN`.
    public var acceptanceStatus: String?

    public init(
        userIdentity: UserIdentity? = nil, type: String? = nil, permission: SharePermission? = nil,
        acceptanceStatus: String? = nil
    ) {
        self.userIdentity = userIdentity
        self.type = type
        self.permission = permission
        self.acceptanceStatus = acceptanceStatus
    }
}

/// Who a participant is: a user record name and/or lookup info (email, phone).
public struct UserIdentity: Sendable, Hashable, Codable {
    public var userRecordName: String?
    public var lookupInfo: LookupInfo?
    public var nameComponents: NameComponents?

    public init(userRecordName: String? = nil, lookupInfo: LookupInfo? = nil, nameComponents: NameComponents? = nil) {
        self.userRecordName = userRecordName
        self.lookupInfo = lookupInfo
        self.nameComponents = nameComponents
    }
}

/// How to find a user: `{emailAddress}`, `{phoneNumber}` or `{userRecordName}`.
public struct LookupInfo: Sendable, Hashable, Codable {
    public var emailAddress: String?
    public var phoneNumber: String?
    public var userRecordName: String?

    public init(emailAddress: String? = nil, phoneNumber: String? = nil, userRecordName: String? = nil) {
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
        self.userRecordName = userRecordName
    }
}

/// `{givenName, familyName}`.
public struct NameComponents: Sendable, Hashable, Codable {
    public var givenName: String?
    public var familyName: String?

    public init(givenName: String? = nil, familyName: String? = nil) {
        self.givenName = givenName
        self.familyName = familyName
    }
}
