public import LarderCore
import LarderFormats

extension ImportReport {
    /// The report as `larder import --report` writes it: `{"counts", "outputs", "imported",
    /// "rejected", "duplicates", "rejects": {"file", "count", "byInput"}, "warnings", "census"}`.
    public func jsonValue(rejectsPath: String?) -> Value {
        func lines(_ list: [Line]) -> Value {
            .array(
                list.map { line in
                    var b = ValueBuilder()
                    b.set("name", line.name)
                    b.set("id", line.id)
                    b.set("origin", line.origin)
                    b.set("reason", line.reason)
                    return b.value
                })
        }
        var counts = ValueBuilder()
        counts.set("imported", imported.count)
        counts.set("rejected", rejected.count)
        counts.set("duplicates", duplicates.count)
        counts.set("keptFromOutput", carriedOver)
        counts.set("images", images)
        counts.set("warnings", warnings.count)
        var rejectsSummary = ValueBuilder()
        rejectsSummary.set("file", rejected.isEmpty ? nil : rejectsPath)
        rejectsSummary.set("count", rejected.count)
        rejectsSummary.set(
            "byInput",
            value: .object(
                Fields(
                    Dictionary(grouping: rejected) { Self.input(ofOrigin: $0.origin) }
                        .sorted { $0.key < $1.key }.map { Field(key: $0.key, value: .int(Int64($0.value.count))) })))
        return [
            "counts": counts.value, "outputs": .array(outputs.map(Value.string)),
            "imported": lines(imported), "rejected": lines(rejected),
            "duplicates": lines(duplicates), "rejects": rejectsSummary.value,
            "warnings": .array(warnings.map(Value.string)), "census": census.value,
        ]
    }

    /// Writes ``jsonValue(rejectsPath:)`` to `path`, atomically (a temporary file, then renamed).
    /// - Throws: ``LarderError`` `io-error` when it cannot be written.
    public func write(to path: String, rejectsPath: String?) throws {
        let sink = try FileByteSink(path: path)
        try sink.write(try JSONWriter.string(jsonValue(rejectsPath: rejectsPath), pretty: true) + "\n")
        try sink.close()
    }
}
