import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry

@Suite struct XSDValidatorTests {
    static let validLog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <records schema="brewLog" version="2">
          <brewLog>
            <id>log-1</id><method>v60</method><recipeNameAtBrew>V60 Starter</recipeNameAtBrew>
            <doseGrams>15</doseGrams><targetYieldGrams>250</targetYieldGrams><rating>4</rating>
            <tasteTags>balanced</tasteTags><tasteTags>sweet</tasteTags>
            <createdAt>2024-03-01T08:00:00Z</createdAt>
          </brewLog>
          <brewLog>
            <id>log-2</id><recipeNameAtBrew>Chemex</recipeNameAtBrew><doseGrams>30</doseGrams><targetYieldGrams>500</targetYieldGrams>
            <rating>5</rating><createdAt>2024-03-02T08:00:00+01:00</createdAt>
          </brewLog>
        </records>

        """

    @Test("every XSD in the registry compiles")
    func xsdsCompile() throws {
        let registry = RegistryFixture.registry
        let directory = try TemporaryDirectory()
        let empty = try directory.write("empty.xml", "<records/>")
        for type in registry.manifest.types {
            for version in type.versions {
                let result = try XSDValidator.validate(
                    path: empty, xsd: try registry.xsdText(type: type.name, version: version.version), xsdName: "x")
                #expect(result.isValid, "\(type.name) v\(version.version): \(result.errors)")
            }
        }
    }

    @Test("a valid file passes, streaming, with its declared schema and version read")
    func validFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("logs.xml", Self.validLog)
        let result = try XSDValidator.validate(
            path: path, xsd: try RegistryFixture.registry.xsdText(type: "brewLog", version: 2), xsdName: "brewLog v2")
        #expect(result.isValid, "\(result.errors)")
        #expect(result.records == 2 && result.declaredSchema == "brewLog" && result.declaredVersion == 2)
        // The same file is not a v1 brew log (tasteTags did not exist), and says where.
        let v1 = try XSDValidator.validate(
            path: path, xsd: try RegistryFixture.registry.xsdText(type: "brewLog", version: 1), xsdName: "brewLog v1")
        #expect(!v1.isValid)
    }

    @Test("errors name file, line, column and record index")
    func errorLocations() throws {
        let directory = try TemporaryDirectory()
        let bad = Self.validLog.replacingOccurrences(of: "<rating>5</rating>", with: "<rating>six</rating>")
        let path = try directory.write("bad.xml", bad)
        let result = try XSDValidator.validate(
            path: path, xsd: try RegistryFixture.registry.xsdText(type: "brewLog", version: 2), xsdName: "brewLog v2")
        let error = try #require(result.errors.first)
        #expect(error.location?.file == path && error.location?.line == 11 && error.location?.recordIndex == 1)
        #expect(
            error.description.hasPrefix("\(path):11:") && error.description.contains("record 1: ")
                && error.description.contains("rating"))
    }

    @Test("malformed XML and external entities are errors, not crashes")
    func hostileInput() throws {
        let directory = try TemporaryDirectory()
        let truncated = try directory.write("cut.xml", String(Self.validLog.prefix(200)))
        let xsd = try RegistryFixture.registry.xsdText(type: "brewLog", version: 2)
        #expect(!(try XSDValidator.validate(path: truncated, xsd: xsd, xsdName: "x").isValid))
        let xxe = try directory.write(
            "xxe.xml",
            #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><records><brewLog><id>&x;</id></brewLog></records>"#
        )
        let result = try XSDValidator.validate(path: xxe, xsd: xsd, xsdName: "x")
        #expect(!result.isValid)
    }
}
