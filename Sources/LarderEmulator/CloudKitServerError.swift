public import HTTPTypes
public import Hummingbird
public import LarderCloudKit
public import Foundation
import LarderFormats

/// A whole-request CloudKit error; renders itself as `{uuid, serverErrorCode, reason, retryAfter?, redirectURL?}`
/// with the code's documented HTTP status.
public struct CloudKitServerError: Error, Sendable, HTTPResponseError, CustomStringConvertible {
    public var code: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?
    public var redirectURL: String?
    public var uuid: String

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
        ErrorResponse(uuid: uuid, serverErrorCode: code, reason: reason, retryAfter: retryAfter, redirectURL: redirectURL)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = (try? JSONResponse.encoder.encode(body)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = JSONResponse.contentType
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let name = HTTPField.Name("X-Larder-Error-Code") { headers[name] = code.rawValue }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// This error as a per-record error.
    func recordError(recordName: String?) -> RecordError {
        var error = RecordError(recordName: recordName, serverErrorCode: code, reason: reason, uuid: uuid, retryAfter: retryAfter)
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

    /// Encodes an answer: `Encodable` → `Value` → JSON bytes (LarderFormats' writer), which is several
    /// times cheaper than `JSONEncoder` for record-heavy answers.
    static func encode<T: Encodable>(_ answer: T) throws -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        switch answer {
        case let response as RecordsResponse:
            try RecordJSON.append(records: response.records, continuationMarker: nil, to: &bytes)
        case let response as QueryResponse:
            try RecordJSON.append(records: response.records, continuationMarker: response.continuationMarker, to: &bytes)
        default:
            try JSONWriter.append(try ValueEncoder().encode(answer), to: &bytes)
        }
        return Data(bytes)
    }

    static func make(_ data: Data, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
