import Foundation
import LarderTestSupport
import Testing

/// `larder validate` as a user runs it.
@Suite struct ValidateCommandTests {
    @Test("validate refuses an XML DOCTYPE with the same diagnostic as convert")
    func refusesDoctypeLikeConvert() throws {
        let path = "samples/bad/billion-laughs.xml"
        let expected = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent(path + ".expected"), encoding: .utf8
        )
        .trimmingCharacters(in: .newlines)
        let convert = try CLI.run(["convert", path, "--to", "json", "-o", "/dev/null"])
        #expect(convert.stderr.contains(expected), "convert: \(convert.stderr)")
        let validate = try CLI.run(["validate", path])
        #expect(validate.status == 1)
        #expect(validate.stderr.contains(expected), "validate: \(validate.stderr)")
        #expect(!validate.stderr.contains("lol"), "no entity is expanded or echoed")

        let directory = try TemporaryDirectory()
        let evil = try directory.write(
            "evil.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE records [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                + "<records schema=\"recipe\" version=\"3\"><recipe><title>&x;</title></recipe></records>\n")
        let xxe = try CLI.run(["validate", evil])
        #expect(xxe.status == 1)
        #expect(
            xxe.stderr.contains("evil.xml:2:") && xxe.stderr.contains("<!DOCTYPE records> refused"), "\(xxe.stderr)")
        #expect(!xxe.stderr.contains("root:x"))
    }

    @Test("validate of XML prints no libxml2 internals (xmlschemas.c) on stderr")
    func noLibxml2Noise() throws {
        let directory = try TemporaryDirectory()
        // An entity reference reached libxml2's streaming XSD validator, which printed
        // "Unimplemented block at xmlschemas.c" straight to stderr.
        let entity = try directory.write(
            "entity.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE records [<!ENTITY x \"hello\">]>\n"
                + "<records schema=\"recipe\" version=\"3\"><recipe><title>&x;</title></recipe></records>\n")
        // An absolute path: libxml2 resolves the external entity against it and reaches the validator.
        let xxe = CLI.packageRoot.appendingPathComponent("samples/bad/xxe.xml").path
        for path in [entity, xxe, "samples/recipes.xml", "samples/brew-logs.xml", "samples/brew-recipes.xml"] {
            for extra in [[], ["--type", "recipe"]] where extra.isEmpty || path.hasSuffix("xxe.xml") {
                let result = try CLI.run(["validate", path] + extra)
                #expect(
                    !result.stderr.contains("xmlschemas.c") && !result.stderr.contains("Unimplemented"),
                    "\(path): \(result.stderr)")
                #expect(!result.stdout.contains("xmlschemas.c"), "\(path): \(result.stdout)")
            }
        }
    }
}
