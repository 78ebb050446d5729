import Foundation
import LarderCloudKit
import LarderCore

/// Seeded random CloudKit wire values for the codec agreement tests: records with fields of every
/// type (and their lists), the request bodies and the answers, errors included.
///
/// The same seed always gives the same values, so a failure names the seed that reproduces it.
struct WireSamples {
    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    // MARK: Scalars

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

    /// Text that exercises the writer: plain words, quotes, backslashes, slashes, control
    /// characters, accents, emoji and CJK.
    mutating func text() -> String {
        let pieces = [
            "pancakes", "Crème brûlée", "say \"hi\"", "back\\slash", "a/b", "line\nbreak", "tab\there",
            "\u{01}bell\u{1F}",
            "😀", "日本語", "", " ", "x", "100%", "<b>&amp;</b>", "\u{7F}", "\u{2028}",
        ]
        var text = ""
        for _ in 0..<Int.random(in: 1...3, using: &random) { text += pick(pieces) }
        return text
    }

    private mutating func name(_ prefix: String) -> String {
        "\(prefix)-\(UInt32.random(in: 0...UInt32.max, using: &random))"
    }

    private mutating func optional<T>(_ make: (inout WireSamples) -> T) -> T? { chance(50) ? make(&self) : nil }

    /// A finite double: fractions, tiny and huge magnitudes, negatives.
    mutating func double() -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: pick([0.1, -2.5, 1e-7, 123_456.789, 1.7976931348623157e308, 5e-324, -0.000_001])
        case 1: Double.random(in: -1e300...1e300, using: &random)
        case 2: Double.random(in: -1...1, using: &random)
        default: Double(Int.random(in: -1_000_000...1_000_000, using: &random)) + 0.25
        }
    }

    mutating func int64() -> Int64 {
        chance(20) ? pick([0, 1, -1, Int64.max, Int64.min]) : Int64.random(in: Int64.min...Int64.max, using: &random)
    }

    // MARK: Field values

    mutating func zoneID() -> RecordZoneID {
        RecordZoneID(
            zoneName: chance(20) ? RecordZoneID.defaultZoneName : name("zone"),
            ownerRecordName: optional { $0.name("_user") })
    }

    mutating func reference() -> Reference {
        Reference(
            recordName: name("rec"), zoneID: optional { $0.zoneID() },
            action: pick(["NONE", "DELETE_SELF", "VALIDATE"]))
    }

    mutating func location() -> Location {
        var location = Location(
            latitude: Double.random(in: -90...90, using: &random),
            longitude: Double.random(in: -180...180, using: &random))
        location.horizontalAccuracy = optional { $0.double() }
        location.verticalAccuracy = optional { $0.double() }
        location.altitude = optional { $0.double() }
        location.speed = optional { $0.double() }
        location.course = optional { $0.double() }
        location.timestamp = optional { Double($0.int64() / 1000) + 0.5 }
        return location
    }

    mutating func asset() -> Value {
        var fields = Fields()
        fields.append(key: "fileChecksum", value: .string(name("sum")))
        fields.append(key: "size", value: .int(Int64.random(in: 0...1 << 40, using: &random)))
        if chance(50) { fields.append(key: "receipt", value: .string(name("receipt"))) }
        if chance(50) {
            fields.append(key: "downloadURL", value: .string("https://example.com/\(name("a"))?x=1&y=\(text())"))
        }
        if chance(30) { fields.append(key: "wrappingKey", value: .null) }
        return .object(fields)
    }

    mutating func bytes() -> String {
        let raw = (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        return Data(raw).base64EncodedString()
    }

    /// A value of the scalar type `type`.
    mutating func scalar(_ type: FieldType) -> FieldValue {
        switch type {
        case .string: .string(text())
        case .int64: .int64(int64())
        case .double: .double(double())
        case .timestamp:
            .timestamp(chance(50) ? Double(Int64.random(in: 0...4_000_000_000_000, using: &random)) : double())
        case .bytes: .bytes(bytes())
        case .reference: .reference(reference())
        case .location: .location(location())
        default: .asset(asset())
        }
    }

    /// Every field type CloudKit defines, scalar and list.
    static let everyFieldType: [FieldType] = [
        .string, .int64, .double, .timestamp, .bytes, .reference, .assetID, .location,
    ]
    .flatMap { [$0, $0.listType] }

    mutating func fieldValue(_ type: FieldType) -> FieldValue {
        guard type.isList else { return scalar(type) }
        let elements = (0..<Int.random(in: 0...4, using: &random)).map { _ in scalar(type.elementType) }
        return .list(elementType: type.elementType, elements)
    }

    /// Fields of every type, plus untyped, `ASSET`-tagged and null ones as requests send them.
    mutating func fields() -> [String: RecordField] {
        var fields: [String: RecordField] = [:]
        for type in WireSamples.everyFieldType where chance(70) {
            fields["f_\(type.rawValue.lowercased())"] = RecordField(fieldValue(type))
        }
        if chance(20) { fields["untyped"] = RecordField(value: .string(text())) }
        if chance(20) { fields["removed"] = RecordField(value: .null, type: .string) }
        if chance(20) { fields["legacyAsset"] = RecordField(value: asset(), type: .asset) }
        if chance(10) { fields[text()] = RecordField(.int64(int64())) }
        return fields
    }

    // MARK: Records

    mutating func stamp() -> RecordStamp {
        RecordStamp(
            timestamp: Int64.random(in: 0...4_000_000_000_000, using: &random), userRecordName: name("_user"),
            deviceID: text())
    }

    mutating func participant() -> ShareParticipant {
        ShareParticipant(
            userIdentity: optional {
                UserIdentity(
                    userRecordName: $0.optional { $0.name("_user") },
                    lookupInfo: $0.optional {
                        LookupInfo(
                            emailAddress: $0.optional { $0.name("mail") + "@example.com" },
                            phoneNumber: $0.optional { _ in "+15550100" })
                    },
                    nameComponents: $0.optional {
                        NameComponents(givenName: $0.optional { $0.text() }, familyName: $0.optional { $0.text() })
                    })
            },
            type: optional { $0.pick(["OWNER", "USER", "PUBLIC_USER", "UNKNOWN"]) },
            permission: optional { $0.pick([SharePermission.none, .readOnly, .readWrite, .unknown]) },
            acceptanceStatus: optional { $0.pick(["INVITED", "PENDING", "ACCEPTED", "REMOVED"]) })
    }

    /// A record as answers carry it: a plain one, a tombstone, or a share.
    mutating func record() -> Record {
        if chance(10) { return .tombstone(recordName: name("rec"), zoneID: zoneID()) }
        var record = Record(
            recordName: name("rec"), recordType: pick(["Recipe", "BrewLog", "cloudkit.share"]),
            recordChangeTag: optional { $0.name("tag") },
            fields: optional { $0.fields() }, zoneID: optional { $0.zoneID() })
        record.created = optional { $0.stamp() }
        record.modified = optional { $0.stamp() }
        record.parent = optional { RecordParent(recordName: $0.name("parent")) }
        record.share = optional { RecordParent(recordName: $0.name("share"), zoneID: $0.zoneID()) }
        record.shortGUID = optional { $0.name("guid") }
        record.createShortGUID = optional { $0.chance(50) }
        record.pluginFields = optional { _ in [:] }
        if record.isShare {
            record.forRecord = optional {
                ForRecord(recordName: $0.name("root"), recordChangeTag: $0.optional { $0.name("tag") })
            }
            record.publicPermission = optional { $0.pick([SharePermission.none, .readOnly, .readWrite]) }
            record.participants = optional { samples in (0..<3).map { _ in samples.participant() } }
            record.owner = optional { $0.participant() }
            record.currentUserParticipant = optional { $0.participant() }
        }
        return record
    }

    mutating func recordError() -> RecordError {
        var error = RecordError(
            recordName: optional { $0.name("rec") },
            serverErrorCode: pick([
                .conflict, .notFound, .badRequest, .throttled, ServerErrorCode(rawValue: "NEW_CODE"),
            ]),
            reason: text(), uuid: name("uuid"), retryAfter: optional { Int.random(in: 0...600, using: &$0.random) })
        error.redirectURL = optional { _ in "https://example.com/auth" }
        return error
    }

    mutating func recordResults() -> [RecordResult] {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in chance(25) ? .error(recordError()) : .record(record()) }
    }

    mutating func zoneError() -> ZoneError {
        var error = ZoneError(
            zoneID: optional { $0.zoneID() },
            serverErrorCode: pick([.zoneNotFound, .changeTokenExpired, .accessDenied]), reason: text(),
            uuid: name("uuid"))
        error.retryAfter = optional { Int.random(in: 0...60, using: &$0.random) }
        return error
    }

    mutating func zone() -> Zone {
        Zone(
            zoneID: zoneID(), syncToken: optional { $0.name("token") }, atomic: optional { $0.chance(50) },
            deleted: optional { $0.chance(50) })
    }

    // MARK: Requests

    mutating func modifyRequest() -> ModifyRecordsRequest {
        let operations = (0..<Int.random(in: 0...5, using: &random)).map { _ in
            RecordOperation(pick(OperationType.all), record(), desiredKeys: optional { [$0.name("key")] })
        }
        var request = ModifyRecordsRequest(
            operations: operations, zoneID: optional { $0.zoneID() }, atomic: optional { $0.chance(50) },
            desiredKeys: optional { _ in [] })
        request.numbersAsStrings = optional { $0.chance(50) }
        return request
    }

    mutating func queryRequest() -> QueryRecordsRequest {
        let comparators: [LarderCloudKit.Comparator] = [
            .equals, .lessThan, .near, .in, .listContains, .beginsWith, .containsAllTokens,
        ]
        let filters = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            QueryFilter(
                pick(comparators), name("field"), RecordField(fieldValue(pick(WireSamples.everyFieldType))),
                distance: optional { $0.double() })
        }
        var sort = QuerySort(fieldName: name("field"), ascending: optional { $0.chance(50) })
        sort.relativeLocation = optional { RecordField(.location($0.location())) }
        var request = QueryRecordsRequest(
            query: Query(
                recordType: pick(["Recipe", "BrewLog"]), filterBy: optional { _ in filters },
                sortBy: optional { _ in [sort] }),
            zoneID: optional { $0.zoneID() }, resultsLimit: optional { Int.random(in: 1...200, using: &$0.random) },
            continuationMarker: optional { $0.name("marker") }, desiredKeys: optional { [$0.name("key")] },
            zoneWide: optional { $0.chance(50) })
        request.numbersAsStrings = optional { $0.chance(50) }
        return request
    }

    mutating func lookupRequest() -> LookupRecordsRequest {
        let entries = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            LookupRecordsRequest.Entry(recordName: name("rec"), desiredKeys: optional { [$0.name("key")] })
        }
        var request = LookupRecordsRequest(
            records: entries, zoneID: optional { $0.zoneID() }, desiredKeys: optional { _ in [] })
        request.numbersAsStrings = optional { $0.chance(50) }
        return request
    }

    mutating func recordChangesRequest() -> RecordChangesRequest {
        var request = RecordChangesRequest(
            zoneID: optional { $0.zoneID() }, syncToken: optional { $0.name("token") },
            resultsLimit: optional { _ in 200 })
        request.desiredKeys = optional { [$0.name("key")] }
        request.desiredRecordTypes = optional { _ in ["Recipe"] }
        request.numbersAsStrings = optional { $0.chance(50) }
        return request
    }

    mutating func zoneChangesRequest() -> ZoneChangesRequest {
        let zones = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            var options = ZoneChangesRequest.Options(
                zoneID: zoneID(), syncToken: optional { $0.name("token") }, resultsLimit: optional { _ in 50 })
            options.desiredKeys = optional { [$0.name("key")] }
            options.desiredRecordTypes = optional { _ in ["Recipe", "BrewLog"] }
            options.reverse = optional { $0.chance(50) }
            options.numbersAsStrings = optional { $0.chance(50) }
            return options
        }
        var request = ZoneChangesRequest(zones: zones)
        request.resultsLimit = optional { _ in 100 }
        request.desiredKeys = optional { _ in [] }
        request.desiredRecordTypes = optional { _ in ["Recipe"] }
        request.reverse = optional { $0.chance(50) }
        request.numbersAsStrings = optional { $0.chance(50) }
        return request
    }

    // MARK: Answers

    mutating func zoneChangesResponse() -> ZoneChangesResponse {
        ZoneChangesResponse(
            zones: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                chance(30)
                    ? .error(zoneError())
                    : .changes(
                        ZoneChanges(
                            zoneID: zoneID(), syncToken: name("token"), moreComing: chance(50), records: recordResults()
                        ))
            })
    }

    mutating func shareMetadataResponse() -> ShareMetadataResponse {
        ShareMetadataResponse(
            results: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                if chance(30) { return .error(recordError()) }
                var metadata = ShareMetadata(
                    shortGUID: name("guid"), containerIdentifier: "iCloud.example", environment: "development",
                    zoneID: zoneID(), share: record())
                metadata.rootRecordName = optional { $0.name("root") }
                metadata.rootRecord = optional { $0.record() }
                metadata.participantStatus = optional { _ in "ACCEPTED" }
                metadata.participantPermission = optional { _ in .readWrite }
                metadata.participantType = optional { _ in "USER" }
                metadata.ownerIdentity = optional { UserIdentity(userRecordName: $0.name("_owner")) }
                return .metadata(metadata)
            })
    }
}
