import Foundation
import LarderCloudKit
import LarderCore
import Testing

@Suite struct WireTypesTests {
    @Test("parses every scalar field type and its list form")
    func parsesEveryFieldType() throws {
        let cases: [(Value, FieldType, FieldValue)] = [
            ("text", .string, .string("text")),
            (42, .int64, .int64(42)),
            ("42", .int64, .int64(42)),
            (2.5, .double, .double(2.5)),
            (3, .double, .double(3)),
            (1_700_010_800_123.3997, .timestamp, .timestamp(1_700_010_800_123.3997)),
            (1_700_000_000_000, .timestamp, .timestamp(1_700_000_000_000)),
            ("aGVsbG8=", .bytes, .bytes("aGVsbG8=")),
            (
                ["recordName": "r1", "action": "DELETE_SELF"], .reference,
                .reference(Reference(recordName: "r1", action: "DELETE_SELF"))
            ),
            (["latitude": 52.5, "longitude": 13.4], .location, .location(Location(latitude: 52.5, longitude: 13.4))),
            (["fileChecksum": "abc", "size": 3], .asset, .asset(["fileChecksum": "abc", "size": 3])),
            (["a", "b"], .string.listType, .list(elementType: .string, [.string("a"), .string("b")])),
            ([1, 2], FieldType(rawValue: "INT64_LIST"), .list(elementType: .int64, [.int64(1), .int64(2)])),
            ([], FieldType(rawValue: "TIMESTAMP_LIST"), .list(elementType: .timestamp, [])),
        ]
        for (json, type, expected) in cases {
            let parsed = try FieldValue(value: json, type: type)
            #expect(parsed == expected, "\(type.rawValue)")
            #expect(try FieldValue(value: parsed.jsonValue, type: parsed.type) == parsed)
        }
        #expect(FieldType.asset.canonical == .assetID)
    }

    @Test("canonical and isKnown agree with their definitions through the element type, for every tag")
    func tagNormalisation() {
        let tags =
            FieldType.scalars.flatMap { [$0, $0.listType, $0.listType.listType] } + [
                FieldType(rawValue: "BOOLEAN"), FieldType(rawValue: "BOOLEAN_LIST"), FieldType(rawValue: ""),
                FieldType(rawValue: "_LIST"), FieldType(rawValue: "asset"),
            ]
        for tag in tags {
            let element = tag.elementType
            #expect(tag.isKnown == FieldType.scalars.contains(element), "\(tag.rawValue)")
            let expected = element == .asset ? (tag.isList ? FieldType.assetID.listType : .assetID) : tag
            #expect(tag.canonical == expected, "\(tag.rawValue)")
        }
    }

    @Test("rejects values that do not fit their type, naming both")
    func rejectsMismatchedValues() {
        #expect(throws: FieldValueError.self) { try FieldValue(value: "x", type: .int64) }
        #expect(throws: FieldValueError.self) { try FieldValue(value: 1.5, type: .int64) }
        #expect(throws: FieldValueError.self) { try FieldValue(value: "not base64!", type: .bytes) }
        #expect(throws: FieldValueError.self) {
            try FieldValue(value: ["latitude": 200, "longitude": 0], type: .location)
        }
        #expect(throws: FieldValueError.self) { try FieldValue(value: ["a", 1], type: .string.listType) }
        do {
            _ = try FieldValue(value: "5 min", type: .int64)
        } catch {
            #expect(error.message.contains("INT64") && error.message.contains("5 min"))
        }
    }

    @Test("infers the type of untyped values")
    func infersTypes() {
        #expect(FieldValue.inferredType(of: "a") == .string)
        #expect(FieldValue.inferredType(of: 1) == .int64)
        #expect(FieldValue.inferredType(of: 1.5) == .double)
        #expect(FieldValue.inferredType(of: ["x", "y"]) == FieldType(rawValue: "STRING_LIST"))
        #expect(FieldValue.inferredType(of: ["recordName": "r"]) == .reference)
        #expect(FieldValue.inferredType(of: []) == nil)
    }

    @Test("zone IDs accept ownerRecordName or ownerName and write ownerRecordName")
    func zoneIDAcceptsBothOwnerKeys() throws {
        let a = try JSONDecoder().decode(RecordZoneID.self, from: Data(#"{"zoneName":"z","ownerName":"_u"}"#.utf8))
        let b = try JSONDecoder().decode(
            RecordZoneID.self, from: Data(#"{"zoneName":"z","ownerRecordName":"_u"}"#.utf8))
        #expect(a == b && a.ownerRecordName == "_u")
        let text = String(decoding: try JSONEncoder().encode(a), as: UTF8.self)
        #expect(text.contains("ownerRecordName") && !text.contains("ownerName\""))
    }

    @Test("server error codes carry their documented HTTP status")
    func errorCodeStatuses() {
        let expected: [(ServerErrorCode, Int)] = [
            (.accessDenied, 403), (.atomicError, 400), (.authenticationFailed, 401), (.authenticationRequired, 421),
            (.badRequest, 400), (.conflict, 409), (.exists, 409), (.internalError, 500), (.notFound, 404),
            (.quotaExceeded, 413), (.throttled, 429), (.tryAgainLater, 503), (.validatingReferenceError, 412),
            (.zoneNotFound, 404),
        ]
        for (code, status) in expected { #expect(code.httpStatus == status, "\(code)") }
        #expect(ServerErrorCode(rawValue: "SOMETHING_NEW").rawValue == "SOMETHING_NEW")
    }

    @Test("change tokens round-trip and garbled ones are refused")
    func changeTokensRoundTrip() {
        let token = ChangeToken(kind: .zone, scope: 7, epoch: 3, sequence: 42)
        #expect(ChangeToken.decode(token.encoded) == token)
        var garbled = token.encoded
        garbled.removeLast()
        #expect(ChangeToken.decode(garbled) == nil || ChangeToken.decode(garbled) != token)
        #expect(ChangeToken.decode("ZT-7") == nil)
        #expect(ChangeToken.decode("") == nil)
    }

    @Test("signs date:base64(sha256(body)):path and verifies it")
    func signsAndVerifies() throws {
        let pair = RequestSigner.makeKeyPair()
        let signer = try RequestSigner(keyID: "k", privateKeyPEM: pair.privateKeyPEM)
        let body = Data(#"{"query":{"recordType":"Recipe"}}"#.utf8)
        let path = "/database/1/iCloud.x/development/public/records/query"
        let headers = try signer.headers(body: body, path: path, date: Date(timeIntervalSince1970: 1_453_760_143))
        let date = try #require(headers[RequestSigner.dateHeader])
        #expect(date == "2016-01-25T22:15:43Z")
        let signature = try #require(headers[RequestSigner.signatureHeader])
        #expect(
            RequestSigner.isValidSignature(
                signature, publicKeyPEM: pair.publicKeyPEM, date: date, body: body, path: path))
        #expect(
            !RequestSigner.isValidSignature(
                signature, publicKeyPEM: pair.publicKeyPEM, date: date, body: Data("x".utf8), path: path))
        #expect(
            !RequestSigner.isValidSignature(
                signature, publicKeyPEM: RequestSigner.makeKeyPair().publicKeyPEM, date: date, body: body, path: path))
        #expect(
            RequestSigner.message(date: "D", body: Data(), path: "/p")
                == "D:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:/p")
        #expect(RequestSigner.parseISO8601("2016-01-25T22:15:43Z") == Date(timeIntervalSince1970: 1_453_760_143))
        #expect(RequestSigner.parseISO8601("2016-01-25T23:15:43+01:00") == Date(timeIntervalSince1970: 1_453_760_143))
        #expect(RequestSigner.parseISO8601("yesterday") == nil)
    }
}
