import LarderCloudKit
import Testing

@Suite struct WebAuthTokenTests {
    @Test(
        "a percent-encoded token decodes to its plain form; a plain one is kept",
        arguments: [
            ("1_abc%2Bdef%2Fghi%3D", "1_abc+def/ghi="),
            ("1_abc%2bdef%2fghi%3d", "1_abc+def/ghi="),
            ("1_abc+def/ghi=", "1_abc+def/ghi="),
            ("plain-token_123", "plain-token_123"),
            // A plain token holding a % that is not an escape, or an escape our encoder would not make.
            ("50%off", "50%off"),
            ("a%41b", "a%41b"),
        ])
    func plainForm(given: String, plain: String) {
        #expect(WebAuthToken.plain(given) == plain)
    }

    @Test("percent-encoding escapes +, / and = and round-trips through plain")
    func encodedFormRoundTrips() {
        let token = "1_AbC+/=xyz~-._"
        let encoded = WebAuthToken.percentEncoded(token)
        #expect(encoded == "1_AbC%2B%2F%3Dxyz~-._")
        #expect(WebAuthToken.plain(encoded) == token)
    }
}
