import LarderCore

/// One record on its way to the server: migrated (and deduped when asked), not yet mapped.
struct PreparedRecord {
    /// The record.
    var value: Value
    /// Its type.
    var type: RecordType
    /// Its index in the stage that handed it on (its input, or the dedupe pass's output).
    var index: Int
}
