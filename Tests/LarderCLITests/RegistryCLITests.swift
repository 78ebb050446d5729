import Foundation
import LarderTestSupport
import Testing

@Suite struct RegistryCLITests {
    @Test("schema list names every type and version")
    func schemaList() throws {
        let result = try CLI.run(["schema", "list"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("recipe"))
    }
}
