public import Foundation
public import LarderCloudKit

/// Encodes `records/modify` bodies with the wire encoder the emulator shares: each operation is
/// encoded once, and a request body is the operations spliced into a ``ModifyRecordsRequest``.
///
/// Retried and split batches reuse the bytes.
public enum ModifyBody {
    /// One operation as JSON: `{"operationType":…,"record":{"recordName":…,"recordType":…,
    /// "recordChangeTag"?:…,"fields":{…}}}` (fields sorted by name).
    public static func operation(
        _ type: OperationType, recordName: String, recordType: String?, changeTag: String?,
        fields: [String: FieldValue]?
    ) -> [UInt8] {
        // The record's typed fields are written without building each one's `Value` tree.
        let operation = RecordOperation(
            type, Record(recordName: recordName, recordType: recordType, recordChangeTag: changeTag))
        var encoder = WireEncoder(capacity: 512)
        // Every value here is finite (the mapping refuses NaN), so encoding cannot fail.
        try? operation.encode(to: &encoder, fields: fields.map(TypedFields.init))
        return encoder.bytes
    }

    /// One save operation whose fields are already encoded as the wire `fields` object (spliced as they are).
    package static func operation(
        _ type: OperationType, recordName: String, recordType: String, changeTag: String?, encodedFields: [UInt8]
    ) -> [UInt8] {
        let operation = RecordOperation(
            type, Record(recordName: recordName, recordType: recordType, recordChangeTag: changeTag))
        var encoder = WireEncoder(capacity: encodedFields.count + 256)
        // The fields are spliced and the rest is strings, so encoding cannot fail.
        try? operation.encode(to: &encoder, fields: WireEncoder.Encoded(encodedFields))
        return encoder.bytes
    }

    /// A request body: `{"operations":[…],"zoneID":{…},"atomic":false,"desiredKeys":[]}`.
    ///
    /// `desiredKeys: []` asks the server to answer without fields (only names and change tags).
    public static func request(operations: [[UInt8]], zoneID: RecordZoneID, atomic: Bool = false) -> Data {
        var encoder = WireEncoder(capacity: operations.reduce(128) { $0 + $1.count + 1 })
        // Operations are spliced as they are and the rest is strings and flags, so this cannot fail.
        try? ModifyRecordsRequest.encode(
            operations: operations.map(WireEncoder.Encoded.init), zoneID: zoneID, atomic: atomic, desiredKeys: [],
            to: &encoder)
        return Data(encoder.bytes)
    }
}
