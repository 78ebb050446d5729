public import LarderCore

/// Brings a record read at some schema version up to the version the model implements.
///
/// Dedupe compares and merges records of the current ``Recipe`` version. Inputs written by
/// older app versions are upgraded first through this hook; the schema registry's migrations
/// plug in here (`RecordUpgrade { record, type, version in try registry.migrate(...) }`).
/// The default, ``identity``, passes records through unchanged, which is right for inputs
/// already at the current version (records that are not fail to decode and are rejected
/// with their field path).
///
/// The pass calls the hook only when it has to: for records whose input declares an older
/// version, and for records of undeclared version that do not decode as the current model
/// (with `declaredVersion` `nil`, so the hook detects the version). Current records cost nothing.
///
/// ```swift
/// var configuration = DedupeConfiguration()
/// configuration.upgrade = RecordUpgrade { record, type, version in
///     try migrator.migrate(record, type: type, from: version ?? 1, to: type.currentVersion)
/// }
/// ```
public struct RecordUpgrade: Sendable {
    /// Upgrades one record of `type` declared at `version` (`nil` when the input does not say).
    /// - Throws: ``LarderError`` (code `schema-error` or `malformed-record`, with a field path)
    ///   when the record cannot be upgraded; the record is then rejected.
    public var upgrade: @Sendable (_ record: Value, _ type: RecordType, _ declaredVersion: Int?) throws -> Value

    /// Creates a hook from a closure.
    public init(
        _ upgrade: @escaping @Sendable (_ record: Value, _ type: RecordType, _ declaredVersion: Int?) throws -> Value
    ) {
        self.upgrade = upgrade
    }

    /// Records pass through unchanged.
    public static let identity: RecordUpgrade = {
        var hook = RecordUpgrade { record, _, _ in record }
        hook.isIdentity = true
        return hook
    }()

    /// Whether this is the identity hook (no registry wired in).
    package var isIdentity = false
}
