import Foundation
import LarderTestSupport
import Testing

@Suite struct ServeCommandTests {
    @Test("serve --help documents the flags")
    func serveHelpListsFlags() throws {
        let result = try CLI.run(["serve", "--help"])
        #expect(result.status == 0)
        for flag in ["--host", "--port", "--data", "--in-memory", "--import", "--export-on-exit", "--config"] {
            #expect(result.stdout.contains(flag), "missing \(flag)")
        }
    }
}
