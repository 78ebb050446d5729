import Foundation
import LarderCloudKit
import LarderCore

/// Feeds the uploader from a ``UploadItemSource``, a window of items at a time.
///
/// The images the window's records name are uploaded first (once per SHA-256, reusing the asset
/// journal's valid receipts), then each item gets its images' receipts in ``ImageFiles/field``.
/// An item whose image failed becomes a dead letter (stage `asset`) and is not written.
///
/// Records are read once, and an image's receipt is used within a window of being given (or
/// checked in the journal), well inside its lifetime, however long the whole upload takes. A
/// window without images costs nothing but the buffering.
final class ImageResolvingSource {
    private let source: UploadItemSource
    private let upload: ImageUpload
    private let deadLetters: DeadLetters
    /// Items read ahead per window.
    private let window: Int
    private var ready: [UploadItem] = []
    private var position = 0
    private var exhausted = false
    /// Images uploaded so far (not counting those the asset journal already held).
    private(set) var uploaded = 0

    init(source: UploadItemSource, upload: ImageUpload, deadLetters: DeadLetters, window: Int = 400) {
        self.source = source
        self.upload = upload
        self.deadLetters = deadLetters
        self.window = max(1, window)
    }

    /// The next item to write, with its image receipts; nil at the end.
    func next() async throws -> UploadItem? {
        // A window whose records all became dead letters is empty: read the next one.
        while position == ready.count {
            guard !exhausted else { return nil }
            try await fill()
        }
        defer { position += 1 }
        return ready[position]
    }

    private func fill() async throws {
        ready.removeAll(keepingCapacity: true)
        position = 0
        var read: [(item: UploadItem, images: [ImageTable.File])] = []
        var needed: [String: URL] = [:]
        while read.count < window {
            guard let next = try await source.next() else {
                exhausted = true
                break
            }
            for file in next.images { needed[file.sha256] = file.url }
            read.append(next)
        }
        guard !needed.isEmpty else {
            ready = read.map(\.item)
            return
        }
        let table = source.images
        // The journal's receipts are asked for per window, so none is used after it expires.
        let (receipts, count) = try await upload.run(
            needed.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, table: table)
        uploaded += count
        for (item, images) in read {
            guard !images.isEmpty else {
                ready.append(item)
                continue
            }
            if let missing = images.first(where: { receipts[$0.sha256] == nil }) {
                let failure = table.failures[missing.sha256]
                try deadLetters.add(
                    record: item.record, recordName: item.recordName, recordType: item.recordType, stage: "asset",
                    code: failure?.code?.rawValue,
                    reason: "image \(missing.path) was not uploaded: \(failure?.reason ?? "no receipt")",
                    origin: item.origin)
                continue
            }
            var item = item
            item.fields[ImageFiles.field] = .list(
                elementType: .assetID, images.compactMap { receipts[$0.sha256].map { .asset($0.jsonValue) } })
            ready.append(item)
        }
    }
}
