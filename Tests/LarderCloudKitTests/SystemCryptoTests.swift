import Foundation
import LarderCloudKit
import LarderCore
import Testing

/// The signatures and digests go through the system's libcrypto; these pin them to what
/// swift-crypto (which Larder used before) wrote and read, so that keys, configs and journals
/// made by earlier builds keep working.
@Suite struct SystemCryptoTests {
    /// A key pair `larder emulator keys add` wrote with swift-crypto 3.12.3 (PKCS#8 and SPKI).
    static let swiftCryptoPrivateKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgzf9t/eIlcNsiwgu5
        +CXchnjpwsvCblieqvGLEgfe2OGhRANCAASxubUxdipEE9wUMvWXLtQITZr48Chq
        p7tPF3FMqnONE3S74XEylcWeWppb5vGditq9zzWPfS4eD7ggMWvAvHuc
        -----END PRIVATE KEY-----
        """
    static let swiftCryptoPublicKey = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEsbm1MXYqRBPcFDL1ly7UCE2a+PAo
        aqe7TxdxTKpzjRN0u+FxMpXFnlqaW+bxnYravc81j30uHg+4IDFrwLx7nA==
        -----END PUBLIC KEY-----
        """
    /// A request that build signed (swift-crypto, ECDSA P-256, DER; its s is the high one).
    static let signedPath = "/database/1/iCloud.test/development/private/changes/zone"
    static let signedBody = Data(#"{"zones":[{"zoneID":{"zoneName":"larder"},"resultsLimit":200}]}"#.utf8)
    static let signedDate = "2026-11-28T14:08:58Z"
    static let signature =
        "MEYCIQCFoPlycrnyIxUt0OGMpFTsAO37DyieQ36jo5VNDfRIdQIhAKl709XqicytTsL92N25TC8FR2Nq3EDD4isLHpc8a73B"

    @Test("a signature swift-crypto made verifies, and its canonical form is raw r with the low s")
    func verifiesSwiftCryptoSignature() throws {
        #expect(
            RequestSigner.isValidSignature(
                Self.signature, publicKeyPEM: Self.swiftCryptoPublicKey, date: Self.signedDate,
                body: Self.signedBody, path: Self.signedPath))
        #expect(
            !RequestSigner.isValidSignature(
                Self.signature, publicKeyPEM: Self.swiftCryptoPublicKey, date: Self.signedDate,
                body: Self.signedBody, path: Self.signedPath + "x"))
        let canonical = try #require(RequestSigner.canonicalSignature(Self.signature))
        #expect(
            canonical.base64EncodedString()
                == "haD5cnK58iMVLdDhjKRU7ADt+w8onkN+o6OVTQ30SHVWhCwpFXYzU7E9AiciRrPQt5+XQsrW2qLIrqwrv/dnkA==")
        // The raw r‖s form of the same signature verifies too, and canonicalizes the same.
        #expect(
            RequestSigner.isValidSignature(
                canonical.base64EncodedString(), publicKeyPEM: Self.swiftCryptoPublicKey, date: Self.signedDate,
                body: Self.signedBody, path: Self.signedPath))
        #expect(RequestSigner.canonicalSignature(canonical.base64EncodedString()) == canonical)
        #expect(RequestSigner.canonicalSignature("AAAA") == nil)
        #expect(RequestSigner.canonicalSignature("not base64") == nil)
    }

    @Test("reads swift-crypto's PKCS#8 key and a SEC1 key; refuses P-384, public keys and damaged PEM")
    func readsKeys() throws {
        let signer = try RequestSigner(keyID: "k", privateKeyPEM: Self.swiftCryptoPrivateKey)
        let body = Data("{}".utf8)
        let headers = try signer.headers(body: body, path: "/p", date: Date(timeIntervalSince1970: 0))
        let signature = try #require(headers[RequestSigner.signatureHeader])
        #expect(
            RequestSigner.isValidSignature(
                signature, publicKeyPEM: Self.swiftCryptoPublicKey, date: "1970-01-01T00:00:00Z", body: body,
                path: "/p"))
        let sec1 = """
            -----BEGIN EC PRIVATE KEY-----
            MHcCAQEEILkcARkU0mcYu4tXgkm22/JhrBYLLbDFQJCYxt1j2R0goAoGCCqGSM49
            AwEHoUQDQgAEhmzqfduOXeTESElMVSu9mZlTNSPz9jz+UM717OS0aKKLdScCr1Yw
            jcA/yYHCAZy7bPqL06Lw61L/DA0ZDXUpUQ==
            -----END EC PRIVATE KEY-----
            """
        #expect((try? RequestSigner(keyID: "k", privateKeyPEM: sec1)) != nil)
        let p384 = """
            -----BEGIN EC PRIVATE KEY-----
            MIGkAgEBBDA/JE+k71l/FSlEYJQwIhc3VvfqBAXBq3oM3pO5IgnCnEqa4FNGvuCu
            hQCdx1AwYpagBwYFK4EEACKhZANiAAQJ3dYc8YmJUmx5DYq+8DXE+F0207JolbEq
            EwM4VzqO86N9oicCOL7GVZf1VZ2O5kfuLhFekmz+OVquSKaGnQi8XSa/joAKtPAz
            svGaauwINZtApmMxBmSARwOhKfgb0yg=
            -----END EC PRIVATE KEY-----
            """
        #expect((try? RequestSigner(keyID: "k", privateKeyPEM: p384)) == nil)
        #expect((try? RequestSigner(keyID: "k", privateKeyPEM: Self.swiftCryptoPublicKey)) == nil)
        #expect((try? RequestSigner(keyID: "k", privateKeyPEM: "garbage")) == nil)
        #expect(RequestSigner.isPublicKey(Self.swiftCryptoPublicKey))
        #expect(!RequestSigner.isPublicKey(Self.swiftCryptoPrivateKey))
        #expect(!RequestSigner.isPublicKey(Self.swiftCryptoPublicKey.replacingOccurrences(of: "MFkw", with: "MFkx")))
        let pair = RequestSigner.makeKeyPair()
        #expect(pair.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pair.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(RequestSigner.isPublicKey(pair.publicKeyPEM))
    }

    @Test("SHA-256 and HMAC-SHA-256 give the standard vectors (FIPS 180-2, RFC 4231 case 2)")
    func digests() {
        #expect(
            AssetDigest.sha256Hex(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(AssetDigest.sha256Hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            AssetDigest.hex(AssetDigest.hmac(Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}

/// LarderCore's pure-Swift SHA-256 (stable ids, fingerprints) against the FIPS 180-4 examples and
/// the system's libcrypto, at every length around the block boundaries and fed in pieces.
@Suite struct PureSHA256Tests {
    @Test("the FIPS 180-4 examples")
    func fipsExamples() {
        #expect(
            LarderCore.SHA256.hash(Array("abc".utf8)).hexString
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            LarderCore.SHA256.hash([UInt8]()).hexString
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            LarderCore.SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            LarderCore.SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)).hexString
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("every length to 300 bytes, whole and in pieces, agrees with libcrypto")
    func agreesWithLibcrypto() {
        var generator = SeededGenerator(seed: 1804)
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = [UInt8](SystemCrypto.sha256(Data(bytes)))
            #expect(LarderCore.SHA256.hash(bytes) == expected, "length \(length)")
            var hasher = LarderCore.SHA256()
            var rest = bytes[...]
            while !rest.isEmpty {
                let piece = rest.prefix(Int.random(in: 1...70, using: &generator))
                hasher.update(piece)
                rest = rest.dropFirst(piece.count)
            }
            #expect(hasher.finalize() == expected, "length \(length) in pieces")
            // A sequence without contiguous storage takes the other path.
            #expect(LarderCore.SHA256.hash(AnySequence(bytes)) == expected, "length \(length) as a sequence")
        }
    }
}
