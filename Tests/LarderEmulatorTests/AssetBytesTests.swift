import Foundation
import Testing

@testable import LarderEmulator

@Suite struct AssetBytesTests {
    @Test(
        "content types are sniffed from magic bytes",
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], "image/png"),
            ([0xFF, 0xD8, 0xFF, 0xE0], "image/jpeg"),
            (Array("GIF89a..".utf8), "image/gif"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "image/webp"),
            ([0, 0, 0, 24] + Array("ftypheic".utf8), "image/heic"),
            ([0, 0, 0, 24] + Array("ftypmif1".utf8), "image/heif"),
            (Array("plain text".utf8), "application/octet-stream"),
            ([], "application/octet-stream"),
        ] as [([UInt8], String)])
    func sniffsContentType(bytes: [UInt8], expected: String) {
        #expect(ContentSniffer.contentType(of: Data(bytes)) == expected)
    }

    @Test(
        "Range headers parse as RFC 9110 says",
        arguments: [
            ("bytes=0-3", 10, ByteRange.partial(0...3)),
            ("bytes=4-", 10, .partial(4...9)),
            ("bytes=-3", 10, .partial(7...9)),
            ("bytes=8-100", 10, .partial(8...9)),
            ("bytes=-30", 10, .partial(0...9)),
            ("bytes=10-", 10, .unsatisfiable),
            ("bytes=5-2", 10, .whole),
            ("bytes=0-1,4-5", 10, .whole),
            ("items=0-1", 10, .whole),
            ("bytes=x-", 10, .whole),
        ] as [(String, Int, ByteRange)])
    func parsesRange(header: String, size: Int, expected: ByteRange) {
        #expect(ByteRange(header: header, size: size) == expected)
    }

    @Test("a multipart upload body yields its first part")
    func multipartFirstPart() throws {
        let body = Data(
            "--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nBYTES\r\nmore\r\n--XyZ--\r\n".utf8)
        let boundary = try #require(try MultipartBody.boundary(of: "multipart/form-data; boundary=\"XyZ\""))
        #expect(MultipartBody.firstPart(of: body, boundary: boundary) == Data("BYTES\r\nmore".utf8))
        #expect(try MultipartBody.boundary(of: "application/octet-stream") == nil)
        #expect(MultipartBody.firstPart(of: Data("--XyZ\r\n\r\nno end".utf8), boundary: "XyZ") == nil)
        #expect(MultipartBody.firstPart(of: Data(), boundary: "XyZ") == nil)
    }

    @Test("multipart boundary attack: a boundary past RFC 2046's 70 characters is refused before any search")
    func longBoundaryIsRefused() throws {
        let seventy = String(repeating: "a", count: 70)
        #expect(try MultipartBody.boundary(of: "multipart/form-data; boundary=\(seventy)") == seventy)
        for bad in [String(repeating: "a", count: 71), String(repeating: "-", count: 4000), "\"\""] {
            #expect(throws: CloudKitServerError.self) {
                try MultipartBody.boundary(of: "multipart/form-data; boundary=\(bad)")
            }
        }
        #expect(throws: CloudKitServerError.self) { try MultipartBody.boundary(of: "multipart/form-data") }
    }

    @Test("multipart boundary attack: a body of near-matches is searched in one pass")
    func nearMatchesAreLinear() throws {
        // 8 MB of the boundary less its last byte, over and over: a naive search compares ~70 bytes at
        // every offset (560 M compares); Knuth-Morris-Pratt reads each byte a bounded number of times.
        let boundary = String(repeating: "x", count: 69) + "y"
        var body = Data("--\(boundary)\r\n\r\n".utf8)
        let nearly = Data(("\r\n--" + String(repeating: "x", count: 69) + "z").utf8)
        while body.count < 8 << 20 { body.append(nearly) }
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        let part = try #require(MultipartBody.firstPart(of: body, boundary: boundary))
        #expect(part.count == body.count - boundary.utf8.count * 2 - 14)
        #expect(part.suffix(nearly.count) == nearly)
    }

    @Test("a download ticket verifies only with its own key and unaltered")
    func ticketSignature() throws {
        let tickets = AssetTickets()
        let ticket = AssetTickets.Ticket(
            container: "c", environment: "development", database: "private", user: "_a", checksum: "00", expiresAt: 5)
        let text = tickets.sign(ticket)
        #expect(tickets.verify(text) == ticket)
        #expect(AssetTickets().verify(text) == nil)
        #expect(tickets.verify(text.replacingOccurrences(of: ".", with: ".x")) == nil)
    }
}
