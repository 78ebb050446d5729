import Foundation
import LarderCloudKit

/// Finds configured users for `users/discover`, `users/lookup/email`, `users/lookup/id` and
/// `users/caller`.
///
/// Only users with `discoverable: true` are ever found by others (CloudKit finds only users who
/// granted discoverability); the address-book condition of CloudKit does not apply. An email
/// matches case-insensitively, a phone number by its digits, a user record name exactly. Lookups
/// that find nobody are left out of the answer, as CloudKit does.
struct UserDirectory {
    let users: [EmulatorUser]

    /// The identities of the discoverable users the lookup infos name, one per matching info, in order.
    /// - Throws: `BAD_REQUEST` naming the first lookup info with no key to search by.
    func discover(_ infos: [LookupInfo], field: String) throws(CloudKitServerError) -> [UserIdentity] {
        var found: [UserIdentity] = []
        for (index, info) in infos.enumerated() {
            guard info.emailAddress != nil || info.phoneNumber != nil || info.userRecordName != nil else {
                throw CloudKitServerError.badRequest(
                    "\(field)[\(index)] needs emailAddress, phoneNumber or userRecordName")
            }
            if let user = users.first(where: { $0.discoverable && Self.matches($0, info) }) {
                found.append(identity(of: user, lookupInfo: info))
            }
        }
        return found
    }

    /// Every discoverable user (`GET users/discover`).
    func everyone() -> [UserIdentity] {
        users.filter(\.discoverable).map {
            identity(of: $0, lookupInfo: LookupInfo(emailAddress: $0.emailAddress, userRecordName: $0.userRecordName))
        }
    }

    /// User dictionaries for `users/lookup/email` (`byEmail`) or `users/lookup/id`, which leaves out `emailAddress`.
    /// - Throws: `BAD_REQUEST` naming the first entry without the key the endpoint searches by.
    func lookUp(_ infos: [LookupInfo], byEmail: Bool) throws(CloudKitServerError) -> [CurrentUserResponse] {
        var found: [CurrentUserResponse] = []
        for (index, info) in infos.enumerated() {
            let key = byEmail ? info.emailAddress : info.userRecordName
            guard key != nil else {
                throw CloudKitServerError.badRequest(
                    "users[\(index)] needs \(byEmail ? "emailAddress" : "userRecordName")")
            }
            let query = byEmail ? LookupInfo(emailAddress: key) : LookupInfo(userRecordName: key)
            guard let user = users.first(where: { $0.discoverable && Self.matches($0, query) }) else { continue }
            found.append(
                CurrentUserResponse(
                    userRecordName: user.userRecordName, firstName: user.firstName, lastName: user.lastName,
                    emailAddress: byEmail ? user.emailAddress : nil))
        }
        return found
    }

    /// The caller's own identity (`users/caller`), discoverable or not.
    func caller(_ userRecordName: String) -> UserIdentity {
        guard let user = users.first(where: { $0.userRecordName == userRecordName }) else {
            return UserIdentity(userRecordName: userRecordName, lookupInfo: LookupInfo(userRecordName: userRecordName))
        }
        return identity(
            of: user,
            lookupInfo: LookupInfo(
                emailAddress: user.emailAddress, phoneNumber: user.phoneNumber, userRecordName: user.userRecordName))
    }

    private func identity(of user: EmulatorUser, lookupInfo: LookupInfo) -> UserIdentity {
        let names =
            user.firstName == nil && user.lastName == nil
            ? nil : NameComponents(givenName: user.firstName, familyName: user.lastName)
        return UserIdentity(userRecordName: user.userRecordName, lookupInfo: lookupInfo, nameComponents: names)
    }

    static func matches(_ user: EmulatorUser, _ info: LookupInfo) -> Bool {
        if let email = info.emailAddress {
            return user.emailAddress?.lowercased() == email.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if let phone = info.phoneNumber {
            let digits = phone.filter(\.isNumber)
            return !digits.isEmpty && user.phoneNumber?.filter(\.isNumber) == digits
        }
        return info.userRecordName == user.userRecordName
    }
}
