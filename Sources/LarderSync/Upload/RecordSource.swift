/// A stage of upload preparation: hands on one record at a time, pulled by the next stage.
///
/// The stages chain as migrate → dedupe → map (``UploadItemSource``) → images
/// (``ImageResolvingSource``) → batches (``Uploader``); none writes a file another reads back.
protocol RecordSource: AnyObject {
    /// The next record, or nil when the stage has handed on all of them.
    /// - Throws: ``LarderError`` for unreadable inputs, plan problems, I/O.
    func next() async throws -> PreparedRecord?
}
