public import Foundation
public import HTTPTypes
public import Hummingbird
public import LarderCloudKit

/// A whole-request CloudKit error; renders itself as `{uuid, serverErrorCode, reason, retryAfter?, redirectURL?}`
/// with the code's documented HTTP status.
public struct CloudKitServerError: Error, Sendable, HTTPResponseError, CustomStringConvertible {
    public var code: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?
    public var redirectURL: String?
    public var uuid: String
    /// The emulator fault rule that forced this error, if one did (logged, not sent in the body).
    public var faultRule: String?

    public init(
        _ code: ServerErrorCode, _ reason: String, retryAfter: Int? = nil, redirectURL: String? = nil,
        uuid: String = UUID().uuidString
    ) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
        self.uuid = uuid
    }

    public var description: String { "\(code.rawValue): \(reason)" }

    /// The HTTP status of ``code``.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: code.httpStatus) }

    /// The wire body.
    public var body: ErrorResponse {
        ErrorResponse(
            uuid: uuid, serverErrorCode: code, reason: reason, retryAfter: retryAfter, redirectURL: redirectURL)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        // An error body holds only strings and integers, which always encode.
        let json = (try? WireEncoder.encode(body)) ?? Array("{}".utf8)
        var headers = HTTPFields()
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        headers[.larderErrorCode] = code.rawValue
        if let faultRule { headers[.larderFault] = faultRule }
        return JSONResponse.make(ByteBuffer(bytes: json), status: status, headers: headers)
    }

    /// This error as a per-record error.
    func recordError(recordName: String?) -> RecordError {
        var error = RecordError(
            recordName: recordName, serverErrorCode: code, reason: reason, uuid: uuid, retryAfter: retryAfter)
        error.redirectURL = redirectURL
        return error
    }

    /// This error as a per-zone error.
    func zoneError(zoneID: RecordZoneID?) -> ZoneError {
        var error = ZoneError(zoneID: zoneID, serverErrorCode: code, reason: reason, uuid: uuid)
        error.retryAfter = retryAfter
        return error
    }

    static func badRequest(_ reason: String) -> CloudKitServerError { CloudKitServerError(.badRequest, reason) }
}

/// JSON response helpers: CloudKit answers `application/json`.
enum JSONResponse {
    static let contentType = "application/json; charset=utf-8"

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// Encodes a CloudKit answer with the wire encoder the client shares, into the response's buffer.
    /// - Throws: ``LarderError`` `unrepresentable` for a NaN or infinite number.
    static func encode(_ answer: some WireEncodable) throws -> ByteBuffer {
        ByteBuffer(bytes: try WireEncoder.encode(answer, capacity: 4096))
    }

    static func make(_ data: Data, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        make(ByteBuffer(bytes: data), status: status, headers: extra)
    }

    static func make(_ body: ByteBuffer, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response
    {
        var headers = extra
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
