import Foundation
import LarderEmulator

/// The emulator's multipart reading for the `multipart` fuzz target: an asset upload's
/// `Content-Type` and body, split as `AssetTransferController.upload` splits them, minus HTTP.
enum MultipartFuzzing {
    /// Runs one upload.
    /// - Parameter bytes: The `Content-Type` header value, a line feed, then the body.
    /// - Returns: 2 when the body gave a part, 1 when the body had no part or the type was not
    ///   multipart (the body is then the asset as sent), 0 when the type was refused.
    static func run(_ bytes: [UInt8]) -> Int {
        let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
        let boundary: String?
        do {
            boundary = try MultipartBody.boundary(of: contentType)
        } catch {
            return 0  // a missing, empty or too long boundary: the route answers BAD_REQUEST
        }
        guard let boundary else { return 1 }
        let body = Data(bytes[min(newline + 1, bytes.endIndex)...])
        return MultipartBody.firstPart(of: body, boundary: boundary) == nil ? 1 : 2
    }
}
