import LarderCloudKit
import LarderCore
import LarderFormats

/// The mapping stage: each prepared record becomes an ``UploadItem``; records the journal has
/// acknowledged with the same content are skipped, records the app's rules refuse or that do
/// not map become dead letters (stages `rules`, `map`).
final class UploadItemSource {
    private let upstream: any RecordSource
    private let journal: [String: UploadJournal.Entry]
    private let deadLetters: DeadLetters
    private let mapping = RecordMapping()
    /// Records the journal already had with the same content (for the progress callback too).
    let skippedCounter = SendableCounter()
    /// Records skipped because the journal had them.
    var skipped: Int { skippedCounter.count }
    /// Records pulled from the previous stage.
    private(set) var pulled = 0
    /// The images of the records this source returns.
    let images: ImageTable
    /// Called once, when the previous stage has handed on its last record, with how many it handed on.
    var onExhausted: ((Int) -> Void)?
    /// An app's rules: a record breaking them goes to the dead letters instead of the server.
    var rules: RecordRules?

    /// Maps the records `upstream` hands on, skipping what `journal` holds.
    init(
        upstream: any RecordSource, journal: [String: UploadJournal.Entry], deadLetters: DeadLetters,
        images: ImageTable = ImageTable(folders: [])
    ) {
        self.upstream = upstream
        self.journal = journal
        self.deadLetters = deadLetters
        self.images = images
    }

    /// What the app would refuse in a record: its rules' refusal, or the reason the record could
    /// not be read as the model to check it (it was validated on the way in, so this is rare).
    private static func refusal(of record: Value, type: RecordType, by rules: RecordRules) throws -> LarderError? {
        do {
            return rules.refusal(of: try type.decode(record))
        } catch let error as LarderError {
            return error
        }
    }

    /// The next item to write, with the local image files it names (its image field holds
    /// their checksums only, until ``ImageResolvingSource`` gives it their receipts).
    func next() async throws -> (item: UploadItem, images: [ImageTable.File])? {
        while true {
            guard let entry = try await upstream.next() else {
                onExhausted?(pulled)
                onExhausted = nil
                return nil
            }
            pulled += 1
            let type = entry.type
            let origin =
                entry.value["id"]?.stringValue.map { "\(type.rawValue) \($0)" } ?? "\(type.rawValue) #\(entry.index)"
            if let rules, rules.applies(to: type),
                let refusal = try Self.refusal(of: entry.value, type: type, by: rules)
            {
                try deadLetters.add(
                    record: entry.value, recordName: nil, recordType: type.rawValue, stage: "rules",
                    code: refusal.code.rawValue, reason: refusal.description, origin: origin)
                continue
            }
            // The digest sees each image by its own SHA-256, so it is the same on every run.
            let local = images.files(of: entry.value)
            let extra: [(name: String, value: FieldValue)] =
                local.isEmpty
                ? []
                : [
                    (
                        ImageFiles.field,
                        .list(elementType: .assetID, local.map { .asset(Asset(fileChecksum: $0.checksum).jsonValue) })
                    )
                ]
            let name: String
            let encoded: [UInt8]
            do throws(MappingError) {
                name = try RecordMapping.recordName(for: entry.value, type: type.rawValue)
                encoded = try mapping.encodedFields(of: entry.value, type: type, extra: extra)
            } catch {
                try deadLetters.add(
                    record: entry.value, recordName: nil, recordType: type.rawValue, stage: "map",
                    code: "unrepresentable",
                    reason: error.description, origin: origin)
                continue
            }
            var item = UploadItem(
                recordName: name, recordType: type.rawValue, encodedFields: encoded, record: entry.value, origin: origin
            )
            if let known = journal[name] {
                if known.matches(item) {
                    skippedCounter.add(1)
                    continue
                }
                item.baseTag = known.changeTag
            } else if let tag = entry.value["changeTag"]?.stringValue {
                item.baseTag = tag
            }
            return (item, local)
        }
    }
}
