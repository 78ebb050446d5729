import HTTPTypes
import LarderCloudKit

/// The header names the emulator reads and writes, made once from constants.
extension HTTPField.Name {
    /// Who the caller was (the request log reads it from the answer).
    static let larderUser = constant("X-Larder-User")
    /// The fault rule that fired for a request (the request log reads it).
    static let larderFault = constant("X-Larder-Fault")
    /// How the caller authenticated: `api-token`, `web-auth` or `server-key` (the request log reads it).
    static let larderAuth = constant("X-Larder-Auth")
    /// The client's device, for `created`/`modified` stamps.
    static let larderDeviceID = constant("X-Larder-Device-ID")
    /// The CloudKit error code of a failed answer (the request log reads it).
    static let larderErrorCode = constant("X-Larder-Error-Code")
    /// A signed request's key ID.
    static let cloudKitKeyID = constant(RequestSigner.keyIDHeader)
    /// A signed request's date.
    static let cloudKitRequestDate = constant(RequestSigner.dateHeader)
    /// A signed request's signature.
    static let cloudKitSignature = constant(RequestSigner.signatureHeader)
    /// `nosniff`: the answer's type is what it says.
    static let contentTypeOptions = constant("X-Content-Type-Options")
    /// The rotated web-auth token of every answer to a signed-in user.
    static let webAuthToken = constant(Authenticator.webAuthTokenHeader)

    /// The name `text` spells: only called with constants, so an invalid one is a programming error.
    static func constant(_ text: String) -> HTTPField.Name {
        guard let name = HTTPField.Name(text) else { preconditionFailure("not a valid header name: \(text)") }
        return name
    }
}
