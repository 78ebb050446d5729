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
    public var canonical: FieldType {
        elementType == .asset ? (isList ? FieldType.assetID.listType : .assetID) : self
    }

    /// Whether the tag is one CloudKit defines.
    public var isKnown: Bool { FieldType.scalars.contains(elementType) }
}
