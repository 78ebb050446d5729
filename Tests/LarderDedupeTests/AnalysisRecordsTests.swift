import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderDedupe

/// ``DedupeAnalysis/Records`` hands on what ``DedupeAnalysis/write(to:log:rejects:)`` writes, in the
/// same order (issue 28 part 3: the upload pulls it instead of reading a written file back).
@Suite struct AnalysisRecordsTests {
    @Test("records() yields the written records, merged, in the written order")
    func agreesWithWrite() async throws {
        let saved = (0..<30).map {
            DedupeHarness.recipe(id: "s\($0)", title: "Dish \($0)", ingredients: ["leek", "salt"])
        }
        let created =
            (0..<10).map { DedupeHarness.recipe(id: "s\($0)", title: "Dish \($0)", ingredients: ["leek", "salt"]) }
            + (0..<5).map { DedupeHarness.recipe(id: "c\($0)", title: "Other \($0)", ingredients: ["rice"]) }
        let written = try await DedupeHarness.run(saved: saved, created: created, format: .json)
        let pass = DedupePass(inputs: [
            try DedupeHarness.input(saved, role: .saved), try DedupeHarness.input(created, role: .created),
        ])
        let analysis = try await pass.analyze()
        let records = analysis.records()
        var pulled: [Value] = []
        while let record = try records.next() { pulled.append(record) }
        #expect(records.count == 35)
        #expect(pulled == written.records)
        #expect(analysis.summary.written == written.summary.written)
    }

    @Test("a pass's rejects reach the diagnostic sink in input order, naming the input and record")
    func rejectsReachTheSink() async throws {
        let good = DedupeHarness.recipe(id: "a", title: "Soup", ingredients: ["leek"])
        let bad: Value = ["id": "b", "title": 5]
        var configuration = DedupeConfiguration()
        configuration.keepGoing = true
        let pass = DedupePass(
            inputs: [
                try DedupeHarness.input([good, bad], role: .saved), try DedupeHarness.input([bad], role: .created),
            ],
            configuration: configuration)
        let log = DiagnosticLog()
        _ = try await pass.analyze(rejects: log)
        let files = log.rejected.map(\.location.file)
        #expect(files == ["saved.ndjson", "created.ndjson"])
        #expect(log.rejected.map(\.location.recordIndex) == [1, 0])
    }
}
