/// A CloudKit field type tag as it appears in `{"value": …, "type": "…"}`.
///
/// Scalar tags are `STRING`, `INT64`, `DOUBLE`, `TIMESTAMP`, `BYTES`, `REFERENCE`, `ASSETID`
/// (also `ASSET`), `LOCATION`; each has a `_LIST` form.
public struct FieldType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire tag.
    public let rawValue: String

    /// Wraps a wire tag (not validated; see ``isKnown``).
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let string = FieldType(rawValue: "STRING")
    public static let int64 = FieldType(rawValue: "INT64")
    public static let double = FieldType(rawValue: "DOUBLE")
    public static let timestamp = FieldType(rawValue: "TIMESTAMP")
    public static let bytes = FieldType(rawValue: "BYTES")
    public static let reference = FieldType(rawValue: "REFERENCE")
    public static let assetID = FieldType(rawValue: "ASSETID")
    public static let asset = FieldType(rawValue: "ASSET")
    public static let location = FieldType(rawValue: "LOCATION")

    /// The scalar tags.
    public static let scalars: [FieldType] = [
        .string, .int64, .double, .timestamp, .bytes, .reference, .assetID, .asset, .location,
    ]

    /// Whether this is a `_LIST` tag.
    public var isList: Bool { rawValue.hasSuffix("_LIST") }

    /// The element type of a list tag; a scalar tag is its own element type.
    public var elementType: FieldType {
        isList ? FieldType(rawValue: String(rawValue.dropLast(5))) : self
    }

    /// The `_LIST` form of a scalar tag.
    public var listType: FieldType { isList ? self : FieldType(rawValue: rawValue + "_LIST") }

    /// The tag with `ASSET` normalised to `ASSETID`, as stored.
    ///
    /// Compared as whole tags (no element type built): the emulator asks this of every field.
    public var canonical: FieldType {
        switch rawValue {
        case FieldType.asset.rawValue: .assetID
        case FieldType.asset.listType.rawValue: FieldType.assetID.listType
        default: self
        }
    }

    /// Whether the tag is one CloudKit defines: a scalar or its `_LIST` (one set lookup per field).
    public var isKnown: Bool { FieldType.known.contains(self) }

    private static let known = Set(scalars + scalars.map(\.listType))
}
