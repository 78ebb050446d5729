import GRDB
import LarderCloudKit
import LarderCore
import LarderSQLite

/// Types a record's fields against the schema of its container and environment.
///
/// An untyped value takes its field's schema type; a field the schema lacks takes the type its
/// value implies. In development new record types and fields join the schema just in time (written
/// in the request's transaction); in production they are refused, as CloudKit does.
struct SchemaResolver {
    private(set) var types: [String: [String: FieldType]] = [:]
    private var knownTypes: Set<String> = []
    let container: String
    let environment: String
    let isProduction: Bool

    init(call: DatabaseOperationContext, db: Database) throws {
        try self.init(
            container: call.container, environment: call.environment, isProduction: call.isProduction, db: db)
    }

    /// Reads the schema of `container` in `environment`.
    /// - Throws: `INTERNAL_ERROR` for a damaged row; the store's error.
    init(container: String, environment: String, isProduction: Bool, db: Database) throws {
        self.container = container
        self.environment = environment
        self.isProduction = isProduction
        for row in try Row.fetchAll(
            db, sql: "SELECT recordType FROM schemaRecordType WHERE container = ? AND environment = ?",
            arguments: [container, environment])
        {
            knownTypes.insert(try row.decode(atIndex: 0, in: .schemaRecordType))
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT recordType, fieldName, type FROM schemaField WHERE container = ? AND environment = ?",
            arguments: [container, environment])
        {
            let recordType: String = try row.decode(atIndex: 0, in: .schemaField)
            let fieldName: String = try row.decode(atIndex: 1, in: .schemaField)
            types[recordType, default: [:]][fieldName] = FieldType(
                rawValue: try row.decode(atIndex: 2, in: .schemaField))
        }
    }

    func hasRecordType(_ recordType: String) -> Bool { knownTypes.contains(recordType) }

    /// Every record type with its fields and their types (a type without fields maps to an empty dictionary).
    var recordTypes: [String: [String: FieldType]] {
        var schema = types
        for type in knownTypes where schema[type] == nil { schema[type] = [:] }
        return schema
    }

    func fieldType(_ recordType: String, _ field: String) -> FieldType? { types[recordType]?[field] }

    /// Types `fields` of a `recordType` record; a nil value means "remove the field".
    /// - Throws: `BAD_REQUEST` naming the field and the problem.
    mutating func resolve(
        recordType: String, fields: [String: RecordField], db: Database, call: DatabaseOperationContext
    ) throws(CloudKitServerError) -> [String: FieldValue?] {
        if !knownTypes.contains(recordType) {
            guard !isProduction else {
                throw call.error(.badRequest, "record type '\(recordType)' does not exist in the production schema")
            }
            do {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO schemaRecordType (container, environment, recordType) VALUES (?, ?, ?)",
                    arguments: [container, environment, recordType])
            } catch {
                throw call.error(.internalError, "schema update failed: \(error)")
            }
            knownTypes.insert(recordType)
        }
        var result: [String: FieldValue?] = [:]
        result.reserveCapacity(fields.count)
        // The type's fields, looked up once per record (a field added below is not asked for again:
        // a record names each field once).
        let schemaFields = types[recordType]
        for (name, field) in fields {
            guard CloudKitNameRules.isValidFieldName(name) else {
                throw call.error(.badRequest, "field name '\(name)' is not valid (a letter, then letters, digits or _)")
            }
            if field.value.isNull {
                result[name] = .some(nil)
                continue
            }
            let schemaType = schemaFields?[name]
            var type: FieldType
            if let given = field.type {
                guard given.isKnown else {
                    throw call.error(.badRequest, "field '\(name)': unknown type \(given.rawValue)")
                }
                type = given.canonical
                if let schemaType, schemaType != type {
                    throw call.error(
                        .badRequest,
                        "field '\(name)' of record type '\(recordType)' is \(schemaType.rawValue) in the schema; got \(type.rawValue)"
                    )
                }
            } else if let schemaType {
                type = schemaType
            } else if let inferred = FieldValue.inferredType(of: field.value) {
                type = inferred.canonical
            } else {
                throw call.error(
                    .badRequest,
                    "field '\(name)': cannot tell the type of \(field.value.snippet); send {\"value\": …, \"type\": …}")
            }
            var value: FieldValue
            do {
                value = try FieldValue(value: field.value, type: type)
            } catch {
                var reason = "field '\(name)': \(error.message)"
                if field.type == nil, schemaType != nil {
                    reason +=
                        " (the schema has '\(name)' as \(type.rawValue); send an explicit type or declare the field)"
                }
                throw call.error(.badRequest, reason)
            }
            value = value.inWholeMilliseconds
            if schemaType == nil {
                guard !isProduction else {
                    throw call.error(
                        .badRequest,
                        "field '\(name)' does not exist on record type '\(recordType)' in the production schema")
                }
                do {
                    // Prepared once per connection: a record of 100,000 new fields parsed the SQL as often.
                    try db.cachedStatement(
                        sql: """
                            INSERT OR IGNORE INTO schemaField (container, environment, recordType, fieldName, type)
                            VALUES (?, ?, ?, ?, ?)
                            """
                    ).execute(arguments: [container, environment, recordType, name, type.rawValue])
                } catch {
                    throw call.error(.internalError, "schema update failed: \(error)")
                }
                types[recordType, default: [:]][name] = type
            }
            result[name] = value
        }
        return result
    }
}

extension FieldValue {
    /// This value with every TIMESTAMP (and TIMESTAMP_LIST element) cut to the millisecond it falls in.
    ///
    /// CloudKit documents TIMESTAMP as a number of milliseconds since 1970 (WSREF "Types") and its
    /// answers carry whole milliseconds (CloudKit keeps dates to the millisecond), yet clients send
    /// fractions: MistKit sends a `Date` as fractional milliseconds (request #2 of
    /// ../shared/cloudkit-client-requests.txt), tagged `TIMESTAMP` since MistKit #377 so CloudKit takes
    /// it. Apple does not document how it rounds; the emulator accepts the fraction and keeps the
    /// millisecond the instant falls in (floor), so a stored date never moves later.
    var inWholeMilliseconds: FieldValue {
        switch self {
        case .timestamp(let milliseconds): .timestamp(milliseconds.rounded(.down))
        case .list(let elementType, let elements) where elementType == .timestamp:
            .list(elementType: elementType, elements.map(\.inWholeMilliseconds))
        default: self
        }
    }
}
