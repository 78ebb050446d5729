public import Foundation
public import LarderCloudKit
import LarderCore
import LarderFormats

/// Encodes `records/modify` bodies without Foundation's encoder: each operation is serialized
/// once with the project's JSON writer, and a request body is the operations joined. Retried
/// and split batches reuse the bytes.
public enum ModifyBody {
    /// One operation as JSON: `{"operationType":…,"record":{"recordName":…,"recordType":…,
    /// "recordChangeTag"?:…,"fields":{…}}}` (fields sorted by name).
    public static func operation(
        _ type: OperationType, recordName: String, recordType: String?, changeTag: String?, fields: [String: FieldValue]?
    ) -> [UInt8] {
        var record = Fields()
        record.append(key: "recordName", value: .string(recordName))
        if let recordType { record.append(key: "recordType", value: .string(recordType)) }
        if let changeTag { record.append(key: "recordChangeTag", value: .string(changeTag)) }
        if let fields {
            var wire = Fields()
            for key in fields.keys.sorted() {
                guard let value = fields[key] else { continue }
                var field = Fields()
                field.append(key: "value", value: value.jsonValue)
                field.append(key: "type", value: .string(value.type.rawValue))
                wire.append(key: key, value: .object(field))
            }
            record.append(key: "fields", value: .object(wire))
        }
        var operation = Fields()
        operation.append(key: "operationType", value: .string(type.rawValue))
        operation.append(key: "record", value: .object(record))
        var bytes: [UInt8] = []
        // Every value here is finite (the mapping refuses NaN), so serializing cannot fail.
        try? JSONWriter.append(.object(operation), to: &bytes)
        return bytes
    }

    /// A request body: `{"operations":[…],"zoneID":{…},"atomic":false,"desiredKeys":[]}`.
    ///
    /// `desiredKeys: []` asks the server to answer without fields (only names and change tags).
    public static func request(operations: [[UInt8]], zoneID: RecordZoneID, atomic: Bool = false) -> Data {
        var body: [UInt8] = Array(#"{"operations":["#.utf8)
        body.reserveCapacity(operations.reduce(64) { $0 + $1.count + 1 })
        for (index, operation) in operations.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: operation)
        }
        body.append(contentsOf: #"],"zoneID":"#.utf8)
        try? JSONWriter.append(zoneID.jsonValue, to: &body)
        body.append(contentsOf: #","atomic":\#(atomic),"desiredKeys":[]}"#.utf8)
        return Data(body)
    }
}
