import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats

/// Writes record-heavy answers straight to JSON bytes, without building a `Value` tree first
/// (the answers of records/modify, lookup and query are most of the emulator's output).
enum RecordJSON {
    /// Appends `{"records":[…]}` (and `continuationMarker` when given).
    static func append(records: [RecordResult], continuationMarker: String?, to out: inout [UInt8]) throws {
        out.append(contentsOf: #"{"records":["#.utf8)
        for (index, result) in records.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if case .success(let record) = result, try append(record, to: &out) { continue }
            try JSONWriter.append(try ValueEncoder().encode(result), to: &out)
        }
        out.append(UInt8(ascii: "]"))
        if let continuationMarker {
            out.append(contentsOf: #","continuationMarker":"#.utf8)
            JSONWriter.appendString(continuationMarker, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends a plain record; returns false (writing nothing) for records with share keys.
    static func append(_ record: Record, to out: inout [UInt8]) throws -> Bool {
        guard record.participants == nil, record.owner == nil, record.publicPermission == nil,
            record.currentUserParticipant == nil, record.forRecord == nil, record.createShortGUID == nil
        else { return false }
        var first = true
        func key(_ name: String) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            JSONWriter.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
        }
        func string(_ name: String, _ value: String?) {
            guard let value else { return }
            key(name)
            JSONWriter.appendString(value, to: &out)
        }
        func stamp(_ name: String, _ value: RecordStamp?) {
            guard let value else { return }
            key(name)
            out.append(contentsOf: #"{"timestamp":"#.utf8)
            out.append(contentsOf: String(value.timestamp).utf8)
            out.append(contentsOf: #","userRecordName":"#.utf8)
            JSONWriter.appendString(value.userRecordName, to: &out)
            out.append(contentsOf: #","deviceID":"#.utf8)
            JSONWriter.appendString(value.deviceID, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        string("recordName", record.recordName)
        string("recordType", record.recordType)
        string("recordChangeTag", record.recordChangeTag)
        if let fields = record.fields {
            key("fields")
            out.append(UInt8(ascii: "{"))
            for (index, (name, field)) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(name, to: &out)
                out.append(contentsOf: #":{"value":"#.utf8)
                try JSONWriter.append(field.value, to: &out)
                if let type = field.type {
                    out.append(contentsOf: #","type":"#.utf8)
                    JSONWriter.appendString(type.rawValue, to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
        }
        stamp("created", record.created)
        stamp("modified", record.modified)
        if let zoneID = record.zoneID {
            key("zoneID")
            try JSONWriter.append(zoneID.jsonValue, to: &out)
        }
        if record.pluginFields != nil {
            key("pluginFields")
            out.append(contentsOf: "{}".utf8)
        }
        if let parent = record.parent {
            key("parent")
            try JSONWriter.append(try ValueEncoder().encode(parent), to: &out)
        }
        if let share = record.share {
            key("share")
            try JSONWriter.append(try ValueEncoder().encode(share), to: &out)
        }
        string("shortGUID", record.shortGUID)
        if let deleted = record.deleted {
            key("deleted")
            out.append(contentsOf: (deleted ? "true" : "false").utf8)
        }
        if first { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
        return true
    }
}
