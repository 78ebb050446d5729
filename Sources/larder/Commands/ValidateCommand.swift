import ArgumentParser
import LarderCore
import LarderFormats
import LarderRegistry

/// `larder validate`: schema, structure and domain rules, every problem reported.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check records against their schema version and the apps' domain rules.",
        discussion: """
            Each record is checked against the JSON Schema (JSON, NDJSON, YAML) or the XSD (XML) of \
            the version its file declares (envelope "version", XML version attribute). When a file \
            declares none, each record is checked against the newest version that accepts it, and \
            the summary says which. Records at the current version are also checked against the \
            domain rules: brew recipes (name, dose > 0, yield > 0, at least one step, timers >= 0, \
            water additions = target yield ±1 g), brew logs (a rating, when given, 1-5; name snapshot; \
            dose and yield, when given, > 0), recipes (title, servings > 0, times >= 0).

            --rules brewguide adds BrewGuide's own, stricter rules (seed 002: every log rated 1-5, dose \
            and yield > 0, note <= 280 characters) and names each record BrewGuide would refuse, and \
            why: brewLog v4 holds unrated, unweighed and long-noted brews that the app does not. \
            `larder upload` runs the same check before an upload to BrewGuide's container.

            Reports every invalid record on stderr as file:line:col: error: record N: path: message \
            (the message ends with the schema version and JSON pointer) and exits 1 if any was invalid.
            """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .long, help: "Also write the invalid records to this NDJSON file.")
    var rejects: String?

    @Option(
        name: .long,
        help:
            "Also check an app's own rules: brewguide (what BrewGuide would refuse: unrated logs, notes over 280 characters, …)."
    )
    var rules: RecordRules?

    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var recordLimits: RecordLimitOptions
    @OptionGroup var progress: ProgressOptions

    func run() throws {
        let registry = try schemaOptions.registry()
        let rejectsWriter = try rejects.map { try RejectsWriter(path: $0) }
        var invalid = 0
        var xmlInputs: [String] = []
        var otherInputs: [String] = []
        for path in input.resolvedInputs {
            let format =
                try input.inputFormat ?? (path == "-" ? nil : DataFormat.guess(fromPath: path))
                ?? (path == "-" ? .json : RecordIO.sniff(FileByteSource(path: path)).1)
            if format == .xml && path != "-" { xmlInputs.append(path) } else { otherInputs.append(path) }
        }
        for path in xmlInputs { invalid += try validateXML(path, registry: registry) }
        // The XSD knows no app's rules: the XML records are read once more for them.
        if let rules, !xmlInputs.isEmpty {
            let summary = try ConversionPipeline(
                inputs: xmlInputs, inputFormat: .xml, recordType: input.type,
                check: RecordCheck.none.followed(by: rules),
                keepGoing: true, limits: recordLimits.limits
            ).run(
                makeWriter: { _, _ in NullRecordWriter() },
                onReject: { record, error in
                    Stderr.print(error.description)
                    try rejectsWriter?.reject(record, error)
                })
            Stderr.print(
                "larder: \(summary.read) XML records: \(summary.rejected) that \(rules.appName) would refuse")
            invalid += summary.rejected
        }
        guard !otherInputs.isEmpty else {
            try rejectsWriter?.finish()
            if invalid > 0 { throw DataErrorsExit() }
            return
        }
        let check = SchemaCheck(registry: registry)
        let meter = progress.start("validate", inputs: otherInputs)
        defer { meter.finish() }
        let pipeline = ConversionPipeline(
            inputs: otherInputs, inputFormat: input.inputFormat, recordType: input.type,
            check: rules.map { check.recordCheck.followed(by: $0) } ?? check.recordCheck,
            keepGoing: true,
            limits: recordLimits.limits, progress: { meter.update(records: $0.read) })
        let summary = try pipeline.run(
            makeWriter: { _, _ in NullRecordWriter() },
            onReject: { record, error in
                meter.finish()
                Stderr.print(error.description)
                try rejectsWriter?.reject(record, error)
            })
        meter.finish()
        try rejectsWriter?.finish()
        for (version, count) in check.detected.sorted(by: { $0.key < $1.key }) {
            Stderr.print(
                "larder: no version declared: \(count) record\(count == 1 ? "" : "s") validate as \(version) (the newest version that fits)"
            )
        }
        let verdict = rules.map { " (with \($0.appName)'s rules)" } ?? ""
        Stderr.print(
            "larder: \(summary.read) records: \(summary.written) valid, \(summary.rejected) invalid\(verdict)")
        if summary.rejected + invalid > 0 { throw DataErrorsExit() }
    }

    /// XSD validation, streaming; returns the number of problems.
    private func validateXML(_ path: String, registry: SchemaRegistry) throws -> Int {
        if let refusal = refusal(path) {
            Stderr.print(refusal.description)
            Stderr.print("larder: \(path): refused, not validated")
            return 1
        }
        let header = try XSDValidator.declaredHeader(path: path)
        guard let typeName = input.type?.rawValue ?? header.schema else {
            throw ValidationError("\(path): the root element has no schema attribute; pass --type")
        }
        let entry = try registry.type(typeName)
        if let version = header.version {
            let result = try XSDValidator.validate(
                path: path, xsd: try registry.xsdText(type: typeName, version: version),
                xsdName: "\(typeName) v\(version) XSD")
            for error in result.errors { Stderr.print(error.description) }
            Stderr.print(
                "larder: \(path): \(result.records) records against \(typeName) v\(version) (XSD): \(result.errors.isEmpty ? "valid" : "\(result.errors.count) problem(s)")"
            )
            return result.errors.count
        }
        var newestErrors: [LarderError] = []
        for version in entry.versions.reversed() {
            let result = try XSDValidator.validate(
                path: path, xsd: try registry.xsdText(type: typeName, version: version.version),
                xsdName: "\(typeName) v\(version.version) XSD")
            if result.isValid {
                Stderr.print(
                    "larder: \(path): no version declared; \(result.records) records validate as \(typeName) v\(version.version) (the newest version that fits)"
                )
                return 0
            }
            if version.version == entry.latest { newestErrors = result.errors }
        }
        for error in newestErrors { Stderr.print(error.description) }
        Stderr.print(
            "larder: \(path): no version declared, and no version of \(typeName) accepts it (problems against the newest, v\(entry.latest), above)"
        )
        return max(newestErrors.count, 1)
    }

    /// What `convert` refuses in the file's prolog or first record; `nil` when nothing is refused.
    ///
    /// A DOCTYPE, entity declarations or nesting too deep is refused with the same diagnostic as
    /// `convert` gives. Reads as far as the first record: libxml2's XSD validation never sees a
    /// refused DTD.
    private func refusal(_ path: String) -> LarderError? {
        do {
            let reader = try RecordIO.openReader(path: path, format: .xml, recordType: input.type)
            _ = try reader.next()
        } catch let error as LarderError where error.code == .refusedInput {
            return error
        } catch {
            // Anything else is reported by the XSD validation that follows.
        }
        return nil
    }
}
