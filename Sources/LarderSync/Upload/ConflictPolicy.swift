public import LarderCloudKit
import LarderCore

/// What to do when the server holds another version of a record the upload writes (`EXISTS`
/// on create, `CONFLICT` on a stale change tag) and its content differs from ours.
public enum ConflictPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// The record goes to the dead letters with the conflict as its reason.
    case fail
    /// The server's version stays; ours is dropped (counted as a conflict).
    case serverWins = "server-wins"
    /// Ours replaces the server's version (with the server's change tag).
    case clientWins = "client-wins"
    /// Field by field: fields only one side has are kept; where both differ, the version with
    /// the later `updatedAt` wins (ours on a tie or when either has none); then written with
    /// the server's change tag.
    case merge
}

/// How a conflict was settled, as the delegate and the report see it.
public enum ConflictResolution: Sendable {
    /// Keep the server's version.
    case keepServer
    /// Write these fields over the server's version (replace, with its change tag).
    case write([String: FieldValue])
    /// Give the record up with this reason.
    case reject(String)
}

extension ConflictPolicy {
    /// Settles a conflict between `ours` and the server's record.
    public func resolve(ours: [String: FieldValue], server: Record) -> ConflictResolution {
        switch self {
        case .fail:
            return .reject(
                "conflict: the server holds a different version (change tag \(server.recordChangeTag ?? "?")); use --conflict server-wins, client-wins or merge"
            )
        case .serverWins: return .keepServer
        case .clientWins: return .write(ours)
        case .merge: return .write(FieldMerge.merge(ours: ours, server: FieldMerge.typedFields(of: server)))
        }
    }
}

/// The per-field merge of ``ConflictPolicy/merge``.
public enum FieldMerge {
    /// The server record's fields, typed.
    public static func typedFields(of record: Record) -> [String: FieldValue] {
        var typed: [String: FieldValue] = [:]
        for (key, field) in record.fields ?? [:] {
            guard let type = field.type ?? FieldValue.inferredType(of: field.value),
                let value = try? FieldValue(value: field.value, type: type)
            else { continue }
            typed[key] = value
        }
        return typed
    }

    /// Merges two versions of a record's fields.
    ///
    /// Fields only one side has are kept. Where both have a field and the values differ, the
    /// side whose `updatedAt` is later wins; ours wins a tie or when either lacks `updatedAt`.
    /// The type hints (``RecordMapping/hintsField``) follow each field to the side it came from.
    public static func merge(ours: [String: FieldValue], server: [String: FieldValue]) -> [String: FieldValue] {
        let serverIsNewer: Bool
        if case .timestamp(let mine)? = ours["updatedAt"], case .timestamp(let theirs)? = server["updatedAt"] {
            serverIsNewer = theirs > mine
        } else {
            serverIsNewer = false
        }
        let hintsKey = RecordMapping.hintsField
        let ourHints = hints(ours[hintsKey])
        let serverHints = hints(server[hintsKey])
        var merged: [String: FieldValue] = [:]
        var mergedHints: [(String, String)] = []
        let keys = Set(ours.keys).union(server.keys).union(ourHints.keys).union(serverHints.keys).subtracting([hintsKey]
        )
        for key in keys.sorted() {
            let mine = ours[key]
            let theirs = server[key]
            let takeServer: Bool
            switch (ours[key] != nil || ourHints[key] != nil, theirs != nil || serverHints[key] != nil) {
            case (true, true): takeServer = serverIsNewer && mine != theirs
            case (false, true): takeServer = true
            default: takeServer = false
            }
            let value = takeServer ? theirs : mine
            let hint = takeServer ? serverHints[key] : ourHints[key]
            if let value { merged[key] = value }
            if let hint { mergedHints.append((key, hint)) }
        }
        if !mergedHints.isEmpty {
            var object = Fields()
            for (key, hint) in mergedHints { object.append(key: key, value: .string(hint)) }
            merged[hintsKey] = .string(RecordMapping.compactJSON(.object(object)))
        }
        return merged
    }

    private static func hints(_ field: FieldValue?) -> [String: String] {
        guard case .string(let text)? = field, case .object(let object)? = try? RecordMapping.parseJSON(text) else {
            return [:]
        }
        var hints: [String: String] = [:]
        for member in object { if let hint = member.value.stringValue { hints[member.key] = hint } }
        return hints
    }
}
