public import LarderCore

extension DedupeAnalysis {
    /// The analysis's output pulled a record at a time, for a caller that consumes records as they
    /// come (the upload maps and sends each) instead of a file written and read back.
    ///
    /// The order and the records are those ``DedupeAnalysis/write(to:log:rejects:)`` writes: one per
    /// cluster, merged by the survivorship rules, by id then content key. Records are fetched back
    /// from the scratch files 1,024 at a time, so memory holds one batch; no merge log is kept.
    ///
    /// ```swift
    /// let records = try await pass.analyze().records()
    /// while let record = try records.next() { upload(record) }
    /// ```
    public final class Records {
        private let analysis: DedupeAnalysis
        private let order: [Int32]
        private var batch: [Value] = []
        private var position = 0
        private var nextStart = 0

        init(_ analysis: DedupeAnalysis) {
            self.analysis = analysis
            order = analysis.context.outputOrder()
        }

        /// Records the output holds in all (one per cluster).
        public var count: Int { order.count }

        /// The next output record, or nil at the end.
        /// - Throws: ``LarderError`` `io-error` when a scratch file cannot be read or is damaged.
        public func next() throws -> Value? {
            if position == batch.count {
                guard nextStart < order.count else { return nil }
                let range = nextStart..<min(order.count, nextStart + DedupeAnalysis.batchSize)
                let prepared = try OutputBatch.prepare(
                    analysis.context, order: order, range: range, encodeAs: nil, withLog: false, firstNumber: 1)
                for (field, n) in prepared.fieldsFromOthers {
                    analysis.summary.fieldsFromOthers[field, default: 0] += n
                }
                for (field, n) in prepared.alternatives { analysis.summary.alternatives[field, default: 0] += n }
                batch = prepared.records.compactMap {
                    if case .value(let value) = $0 { return value }
                    return nil
                }
                nextStart = range.upperBound
                position = 0
                if batch.isEmpty { return nil }
            }
            defer { position += 1 }
            analysis.summary.written += 1
            return batch[position]
        }
    }

    /// The output records, pulled one at a time (see ``Records``).
    public func records() -> Records { Records(self) }
}
