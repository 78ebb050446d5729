public import LarderCore
import LarderSystem

/// A `LOCATION` value: latitude and longitude in degrees, with optional accuracy, altitude,
/// speed, course and a millisecond timestamp.
public struct Location: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var altitude: Double?
    public var speed: Double?
    public var course: Double?
    public var timestamp: Double?

    /// Creates a location.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses a location object.
    /// - Throws: ``FieldValueError`` when latitude or longitude is missing or out of range.
    public init(value: Value) throws(FieldValueError) {
        func number(_ key: String) throws(FieldValueError) -> Double? {
            switch value[key] {
            case nil, .null?: return nil
            case .int(let int)?: return Double(int)
            case .double(let double)?: return double
            case let other?: throw FieldValueError("LOCATION.\(key): expected a number, found \(other.kindDescription)")
            }
        }
        guard let latitude = try number("latitude"), let longitude = try number("longitude") else {
            throw FieldValueError("a LOCATION needs latitude and longitude")
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw FieldValueError("LOCATION out of range: \(latitude), \(longitude)")
        }
        self.latitude = latitude
        self.longitude = longitude
        horizontalAccuracy = try number("horizontalAccuracy")
        verticalAccuracy = try number("verticalAccuracy")
        altitude = try number("altitude")
        speed = try number("speed")
        course = try number("course")
        timestamp = try number("timestamp")
    }

    /// The wire JSON.
    public var jsonValue: Value {
        var fields = Fields()
        fields.append(key: "latitude", value: .double(latitude))
        fields.append(key: "longitude", value: .double(longitude))
        let optional: [(String, Double?)] = [
            ("horizontalAccuracy", horizontalAccuracy), ("verticalAccuracy", verticalAccuracy), ("altitude", altitude),
            ("speed", speed), ("course", course), ("timestamp", timestamp),
        ]
        for (key, number) in optional {
            if let number { fields.append(key: key, value: .double(number)) }
        }
        return .object(fields)
    }

    /// Great-circle distance to another location in metres (haversine).
    public func distance(to other: Location) -> Double {
        let radius = 6_371_000.0
        let dLat = (other.latitude - latitude) * .pi / 180
        let dLon = (other.longitude - longitude) * .pi / 180
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(latitude * .pi / 180) * cos(other.latitude * .pi / 180)
            * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
