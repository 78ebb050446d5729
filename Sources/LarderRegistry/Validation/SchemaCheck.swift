import LarderCore
public import LarderFormats
import Synchronization

/// Record checks against the registry's JSON Schemas, for `larder validate` and conversions.
public final class SchemaCheck: Sendable {
    /// The registry.
    public let registry: SchemaRegistry
    /// Also apply the model's domain rules to records of the current version.
    public let domainRules: Bool
    private let detections = Mutex<[String: Int]>([:])

    /// Creates a check.
    public init(registry: SchemaRegistry, domainRules: Bool = true) {
        self.registry = registry
        self.domainRules = domainRules
    }

    /// How many records without a declared version validated as each version: `recipe v3: 20`.
    public var detected: [String: Int] { detections.withLock { $0 } }

    /// The check: the record against the version its file declares, or the newest version that
    /// accepts it (counted in ``detected``); then the domain rules when the model reads that version.
    public var recordCheck: RecordCheck {
        RecordCheck { [self] record, type, declared in
            let name = type.rawValue
            // A record that reads as the current model and breaks a domain rule hears about the
            // rule ("rating must be 1-5"), which says more than the schema's bound.
            var rulesChecked = false
            if domainRules, type.modelReads(version: declared), let model = try? type.decode(record) {
                if let first = model.validate().first {
                    throw LarderError(.invalidRecord, first.message, location: first.location)
                }
                rulesChecked = true
            }
            let version: Int
            if let declared {
                version = declared
                let schema = try registry.jsonSchema(type: name, version: declared)
                if !schema.isValid(record) {
                    throw SchemaCheckFailure.error(schema: schema, violations: schema.validate(record, limit: 10))
                }
            } else if let newest = registry.newestValidVersion(type: name, of: record) {
                version = newest
                detections.withLock { $0["\(name) v\(newest)", default: 0] += 1 }
            } else {
                let latest = try registry.type(name).latest
                let schema = try registry.jsonSchema(type: name, version: latest)
                let failure = SchemaCheckFailure.error(schema: schema, violations: schema.validate(record, limit: 10))
                throw LarderError(
                    failure.code,
                    "no version of \(name) accepts this record; against the newest, v\(latest): \(failure.message)",
                    location: failure.location)
            }
            if domainRules, !rulesChecked, type.modelReads(version: version) {
                let model = try type.decode(record)
                if let first = model.validate().first {
                    throw LarderError(.invalidRecord, first.message, location: first.location)
                }
            }
        }
    }
}
