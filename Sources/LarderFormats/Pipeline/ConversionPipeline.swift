public import LarderCore

/// How a record is checked on its way through a conversion.
public struct RecordCheck: Sendable {
    /// Checks one record of `type` declared at `version` (nil: undeclared); throws a
    /// ``LarderError`` whose location carries the field path.
    public var check: @Sendable (_ record: Value, _ type: RecordType, _ version: Int?) throws -> Void

    /// Creates a check from a closure.
    public init(_ check: @escaping @Sendable (_ record: Value, _ type: RecordType, _ version: Int?) throws -> Void) {
        self.check = check
    }

    /// No check: records pass as they are.
    public static let none = RecordCheck { _, _, _ in }

    /// This check, then an app's own rules (``RecordRules``) on the records of the types they
    /// cover whose version the model reads: a record the app would refuse is refused, with every reason.
    public func followed(by rules: RecordRules) -> RecordCheck {
        RecordCheck { [check] record, type, version in
            try check(record, type, version)
            guard rules.applies(to: type), type.modelReads(version: version) else { return }
            if let refusal = rules.refusal(of: try type.decode(record)) { throw refusal }
        }
    }

    /// The structure of the current model version: every field of the right type, required fields present.
    ///
    /// Applies to records the model reads as they are (the current version, and earlier ones that
    /// later versions only added to, ``RecordType/modelReads(version:)``); records that declare
    /// another version pass (the schema registry checks those).
    public static let structure = RecordCheck { record, type, version in
        guard type.modelReads(version: version) else { return }
        // A recipe the one-scan digest accepts is one the model accepts (RecipeDigestTests hold the
        // two together): building the whole model only to drop it was a quarter of a conversion.
        if type == .recipe, RecipeDigest.fast(record) != nil { return }
        _ = try type.decode(record)
    }

    /// Structure plus the app's domain rules (seed 002 for brew records).
    public static let domain = RecordCheck { record, type, version in
        guard type.modelReads(version: version) else { return }
        let model = try type.decode(record)
        if let first = model.validate().first {
            throw LarderError(.invalidRecord, first.message, location: first.location)
        }
    }
}

/// Reads every input, checks each record, writes the good ones and rejects the bad.
///
/// Streams record by record. Without `keepGoing` the first bad record throws and the output
/// (written to a temporary file) is discarded; with it, every bad record goes to `rejects`
/// with its diagnostic (through `onReject`) and the counts always add up: `read == written + rejected`.
public struct ConversionPipeline {
    /// What went where.
    public struct Summary: Sendable, Hashable {
        /// Records read (well-formed or not).
        public var read = 0
        /// Records written to the output.
        public var written = 0
        /// Records sent to the rejects file.
        public var rejected = 0
        /// Inputs whose reading stopped at an unrecoverable syntax error.
        public var abandonedInputs: [String] = []

        /// `12 records: 10 written, 2 rejected`.
        public var text: String {
            "\(read) record\(read == 1 ? "" : "s"): \(written) written, \(rejected) rejected"
        }
    }

    /// One input.
    public var inputs: [String]
    /// Input format; `nil` sniffs each input.
    public var inputFormat: DataFormat?
    /// The record type; `nil` takes it from the envelope, the XML elements, or the fields.
    public var recordType: RecordType?
    /// The check applied to each record.
    public var check: RecordCheck
    /// Send bad records to the rejects file and go on.
    public var keepGoing: Bool
    /// Called every so often with the running summary (progress display).
    public var progress: ((Summary) -> Void)?
    /// Limits for hostile input.
    public var limits: ReaderLimits
    /// Turns each checked record into the record written (a migration, say).
    ///
    /// Throwing a ``LarderError`` rejects the record like a failed check. `nil` writes records as read.
    public var transform: ((_ record: Value, _ type: RecordType, _ version: Int?) throws -> Value)?
    /// Told of every record that fails its check or transform, with the located error, before it is
    /// rejected (or, without ``keepGoing``, thrown): lets a caller explain what kind of input failed.
    public var onRecordFailure: ((_ record: Value, _ error: LarderError) -> Void)?

    /// Creates a pipeline.
    public init(
        inputs: [String], inputFormat: DataFormat? = nil, recordType: RecordType? = nil,
        check: RecordCheck = .structure,
        keepGoing: Bool = false, limits: ReaderLimits = .default, progress: ((Summary) -> Void)? = nil
    ) {
        self.inputs = inputs
        self.inputFormat = inputFormat
        self.recordType = recordType
        self.check = check
        self.keepGoing = keepGoing
        self.limits = limits
        self.progress = progress
    }

    /// Runs the conversion, handing good records to `write` and bad ones to `rejects`.
    ///
    /// `makeWriter` is called once, before the first record is written, with the first
    /// input's envelope header (so an output envelope can carry the same schema and version).
    /// - Throws: the first ``LarderError`` when not keeping going; I/O errors always.
    public func run(
        makeWriter: (EnvelopeHeader?, RecordType?) throws -> any RecordWriter,
        onReject: (Value?, LarderError) throws -> Void
    ) throws -> Summary {
        try withoutActuallyEscaping(onReject) { onReject in
            let cursor = Cursor(self, onReject: onReject)
            var writer: (any RecordWriter)?
            // A record whose input text is already the compact JSON this writer would write is
            // copied as it is: serializing it again was a fifth of a conversion.
            var compactJSON: JSONWriter?
            while let record = try cursor.next() {
                if writer == nil {
                    writer = try makeWriter(record.header, recordType ?? record.header?.recordType ?? record.type)
                    compactJSON = (writer as? JSONWriter).flatMap { $0.isPretty ? nil : $0 }
                }
                do {
                    if let json = compactJSON, try cursor.withRecordAsWritten({ try json.write(encoded: $0) }) != nil {
                        continue
                    }
                    try writer?.write(record.value)
                } catch let error as LarderError where error.code == .unrepresentable {
                    try cursor.reject(record, error.locatedAt(record.location))
                }
            }
            if writer == nil { writer = try makeWriter(nil, recordType) }
            try writer?.finish()
            return cursor.summary
        }
    }

    /// The pipeline pulled a record at a time.
    ///
    /// Each good record, checked and transformed, is handed to the caller instead of a writer (``run(makeWriter:onReject:)`` is this loop
    /// with a writer). Bad records go to `onReject` as in `run`, and ``summary`` counts as it
    /// does: a record handed out counts as written until the caller ``reject(_:_:)``s it.
    public final class Cursor {
        /// A good record.
        public struct Record {
            /// The record to write (transformed).
            public var value: Value
            /// The record as read.
            public var input: Value
            /// Its type: the pipeline's, its envelope's, or guessed from its fields.
            public var type: RecordType
            /// Its input's envelope header.
            public var header: EnvelopeHeader?
            /// Its 0-based index in its input.
            public var index: Int
            /// Where it starts.
            public var location: SourceLocation
        }

        /// The counts so far.
        public private(set) var summary = Summary()
        private let pipeline: ConversionPipeline
        private let onReject: (Value?, LarderError) throws -> Void
        private var nextInput = 0
        private var reader: (any RecordReader)?

        /// Starts reading `pipeline`'s inputs (the first opens on the first ``next()``).
        public init(_ pipeline: ConversionPipeline, onReject: @escaping (Value?, LarderError) throws -> Void) {
            self.pipeline = pipeline
            self.onReject = onReject
        }

        /// The next good record; nil when every input is read.
        /// - Throws: the first ``LarderError`` when the pipeline does not keep going; I/O errors always.
        public func next() throws -> Record? {
            while true {
                guard let reader else {
                    guard nextInput < pipeline.inputs.count else { return nil }
                    reader = try RecordIO.openReader(
                        path: pipeline.inputs[nextInput], format: pipeline.inputFormat, recordType: pipeline.recordType,
                        limits: pipeline.limits)
                    nextInput += 1
                    continue
                }
                let item: RecordItem?
                do {
                    item = try reader.next()
                } catch let error as LarderError where error.code != .io {
                    summary.read += 1
                    try reject(nil, error.locatedAt(SourceLocation(file: reader.name)))
                    if reader.canRecover { continue }
                    summary.abandonedInputs.append(reader.name)
                    self.reader = nil
                    continue
                }
                guard let item else {
                    self.reader = nil
                    continue
                }
                summary.read += 1
                let header = reader.header
                let type = pipeline.recordType ?? header?.recordType ?? RecordType.guess(from: item.value)
                var output = item.value
                do {
                    try pipeline.check.check(item.value, type, header?.version)
                    if let transform = pipeline.transform { output = try transform(item.value, type, header?.version) }
                } catch let error as LarderError {
                    let path = error.location?.fieldPath ?? .root
                    var position = reader.location(of: path) ?? item.location
                    position.recordIndex = item.index
                    position.fieldPath = path
                    var located = error.locatedAt(position)
                    if located.snippet == nil { located.snippet = reader.snippet(of: path) }
                    pipeline.onRecordFailure?(item.value, located)
                    try reject(item.value, located)
                    continue
                }
                summary.written += 1
                if summary.read % 10_000 == 0 { pipeline.progress?(summary) }
                return Record(
                    value: output, input: item.value, type: type, header: header, index: item.index,
                    location: item.location)
            }
        }

        /// Calls `body` with the record ``next()`` last handed out as compact JSON, when its
        /// input text is exactly what ``JSONWriter`` writes for it and no transform changed it
        /// (``JSONReader/withLastRecordAsWritten(_:)``); `nil` otherwise.
        ///
        /// Valid until the following ``next()``.
        public func withRecordAsWritten<R>(_ body: (_ json: UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
            guard pipeline.transform == nil, let json = reader as? JSONReader else { return nil }
            return try json.withLastRecordAsWritten(body)
        }

        /// Rejects a record ``next()`` handed out that the caller could not write.
        /// - Throws: `error` when the pipeline does not keep going; what `onReject` throws.
        public func reject(_ record: Record, _ error: LarderError) throws {
            summary.written -= 1
            try reject(record.input, error)
        }

        private func reject(_ record: Value?, _ error: LarderError) throws {
            guard pipeline.keepGoing else { throw error }
            try onReject(record, error)
            summary.rejected += 1
        }
    }
}
