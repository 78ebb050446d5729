package import LarderCore

/// The leaf census of a whole import (see ``LeafCensus``): for each format, leaf counts over all
/// records and by top-level source field, and the paths of the leaves the census itself kept.
package struct LeafTally: Sendable, Hashable {
    private var counts: [ImportFormat: [String: LeafCensus.Counts]] = [:]
    private var unmapped: [ImportFormat: [String: Int]] = [:]
    private var lost: [ImportFormat: [String: Int]] = [:]

    /// Creates an empty tally.
    package init() {}

    /// Counts one record's leaf census.
    package mutating func add(_ census: LeafCensus, format: ImportFormat) {
        var byField = counts[format] ?? [:]
        for (field, fieldCounts) in census.fields { byField[field, default: .init()].add(fieldCounts) }
        counts[format] = byField
        for path in census.unmapped { unmapped[format, default: [:]][path, default: 0] += 1 }
        for path in census.lost { lost[format, default: [:]][path, default: 0] += 1 }
    }

    /// The formats counted.
    package var formats: [ImportFormat] { counts.keys.sorted { $0.rawValue < $1.rawValue } }

    /// The counts of `format` over all its fields.
    package func total(_ format: ImportFormat) -> LeafCensus.Counts {
        var sum = LeafCensus.Counts()
        for fieldCounts in (counts[format] ?? [:]).values { sum.add(fieldCounts) }
        return sum
    }

    /// The counts of one top-level field of `format`, when it had leaves.
    package func counts(_ format: ImportFormat, field: String) -> LeafCensus.Counts? {
        counts[format]?[field]
    }

    /// The folded paths of `format`'s unmapped leaves, with how many, by path.
    package func unmapped(_ format: ImportFormat) -> [(path: String, count: Int)] {
        (unmapped[format] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The folded paths of `format`'s lost leaves, with how many, by path.
    package func lost(_ format: ImportFormat) -> [(path: String, count: Int)] {
        (lost[format] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `{carried, kept, unmapped, dropped, lost}`.
    package static func value(_ counts: LeafCensus.Counts) -> Value {
        .object(
            Fields([
                .init(key: "carried", value: .int(Int64(counts.carried))),
                .init(key: "kept", value: .int(Int64(counts.kept))),
                .init(key: "unmapped", value: .int(Int64(counts.unmapped))),
                .init(key: "dropped", value: .int(Int64(counts.dropped))),
                .init(key: "lost", value: .int(Int64(counts.lost))),
            ]))
    }

    /// `[{path, count}]`.
    static func value(_ paths: [(path: String, count: Int)]) -> Value {
        .array(
            paths.map {
                .object(
                    Fields([
                        .init(key: "path", value: .string($0.path)), .init(key: "count", value: .int(Int64($0.count))),
                    ]))
            })
    }

    /// The summary line of `format`: `leaves: 340 carried, 12 kept (3 unmapped), 2 dropped`.
    package func summaryLine(_ format: ImportFormat) -> String? {
        guard counts[format] != nil else { return nil }
        let t = total(format)
        var line = "leaves: \(t.carried) carried, \(t.kept) kept"
        if t.unmapped > 0 { line += " (\(t.unmapped) unmapped, kept by path)" }
        line += ", \(t.dropped) dropped"
        if t.lost > 0 { line += ", \(t.lost) LOST" }
        return line
    }
}
