import Foundation
import HTTPTypes
import Hummingbird
import LarderCloudKit
import LarderCore
import NIOCore

/// The byte endpoints behind asset URLs: `POST /_assets/upload/<token>` takes the file (the raw
/// body, or the first part of a `multipart/form-data` body) and answers `{singleFile: {…}}`;
/// `GET /_assets/download/<ticket>` serves it, with its sniffed content type and `Range` support.
///
/// Upload and download URLs are capabilities, as Apple's are: whoever has one may use it, for the
/// user it was made for, until it expires. A download URL is signed for one asset of one user's
/// record (a tampered one is NOT_FOUND, an expired one ACCESS_DENIED); sent with credentials, they
/// must be that user's (ACCESS_DENIED for anyone else).
struct AssetTransferController: Sendable {
    let services: EmulatorServices

    func register(on router: Router<EmulatorRequestContext>) {
        let services = services
        router.post("/_assets/upload/:token") { request, context in
            try await AssetTransferController.upload(request, context: context, services: services)
        }
        router.get("/_assets/download/:ticket") { request, context in
            try await AssetTransferController.download(request, context: context, services: services)
        }
    }

    static func upload(_ request: Request, context: EmulatorRequestContext, services: EmulatorServices) async throws
        -> Response
    {
        guard let token = context.parameters.get("token") else { throw CloudKitServerError.badRequest("no token") }
        let limit = services.configuration.limits.maxAssetBytes
        let buffer = try await RequestBodyReader.collect(request, upTo: limit + 64 * 1024)
        var data = Data(buffer.readableBytesView)
        if let type = request.headers[.contentType], let boundary = try MultipartBody.boundary(of: type) {
            guard let part = MultipartBody.firstPart(of: data, boundary: boundary) else {
                throw CloudKitServerError.badRequest("multipart/form-data body has no part")
            }
            data = part
        }
        guard data.count <= limit else {
            throw CloudKitServerError.badRequest(
                "asset is \(data.count) bytes; the limit is \(limit) bytes per asset (CloudKit: 50 MB)")
        }
        let now = services.clock.milliseconds
        let wrappingKey = Data(services.random.bytes(32)).base64EncodedString()
        let asset = try await services.store.receiveAsset(data, token: token, wrappingKey: wrappingKey, now: now)
        return JSONResponse.make(try JSONResponse.encode(AssetUploadReceipt(singleFile: asset)))
    }

    static func download(_ request: Request, context: EmulatorRequestContext, services: EmulatorServices) async throws
        -> Response
    {
        guard let text = context.parameters.get("ticket"), let ticket = services.assetTickets.verify(text) else {
            throw CloudKitServerError(.notFound, "unknown download URL")
        }
        let now = services.clock.milliseconds
        guard ticket.expiresAt > now else {
            throw CloudKitServerError(.accessDenied, "download URL has expired; fetch the record again for a new one")
        }
        var headers = HTTPFields()
        // The URL is the credential, as Apple's are: signed, for one asset of one user's record,
        // expiring. An `<img src>` in a web app sends nothing else. A caller who does send
        // credentials must be that user (another user's are refused).
        if ticket.database != DatabaseEndpoint.Scope.public.rawValue, Self.sendsCredentials(request) {
            let user = try authenticate(request, ticket: ticket, services: services, now: now)
            headers[.webAuthToken] = services.authenticator.mint(for: user, nowMilliseconds: now)
        }
        guard let found = try await services.store.assetFile(checksum: ticket.checksum), let data = found.data else {
            throw CloudKitServerError(.notFound, "the asset is no longer stored")
        }
        headers[.contentType] = found.contentType
        headers[.acceptRanges] = "bytes"
        // An uploaded file is data, never a page of the emulator's origin: no sniffing into HTML, a
        // sandbox with nothing allowed if a browser renders it anyway, and anything but an image
        // saved rather than shown.
        headers[.contentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = "default-src 'none'; img-src 'self'; sandbox"
        headers[.contentDisposition] = found.contentType.hasPrefix("image/") ? "inline" : "attachment"
        switch ByteRange(header: request.headers[.range], size: data.count) {
        case .whole:
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        case .partial(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(data.count)"
            let slice = data[data.startIndex + range.lowerBound...data.startIndex + range.upperBound]
            return Response(
                status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: slice)))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(data.count)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    /// Whether a download request carries credentials of its own (tokens or a signature).
    private static func sendsCredentials(_ request: Request) -> Bool {
        let query = QueryString.parse(request.uri.query)
        return query["ckAPIToken"] != nil || query["ckWebAuthToken"] != nil || request.headers[.cloudKitKeyID] != nil
            || request.headers[.cloudKitSignature] != nil
    }

    /// The caller of a private or shared download, who must be the ticket's user.
    private static func authenticate(
        _ request: Request, ticket: AssetTickets.Ticket, services: EmulatorServices, now: Int64
    ) throws -> String {
        let query = QueryString.parse(request.uri.query)
        let credentials = Authenticator.Credentials(
            apiToken: query["ckAPIToken"], webAuthToken: query["ckWebAuthToken"],
            keyID: request.headers[.cloudKitKeyID], signatureDate: request.headers[.cloudKitRequestDate],
            signature: request.headers[.cloudKitSignature])
        let caller = try services.authenticator.authenticate(
            credentials, scope: .private, path: request.uri.path, body: Data(), baseURL: services.baseURL(for: request),
            nowMilliseconds: now)
        guard let user = caller.userRecordName, user == ticket.user else {
            throw CloudKitServerError(.accessDenied, "this download URL belongs to another user's record")
        }
        return user
    }
}
