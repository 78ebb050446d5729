package import Foundation
import LarderCore
import LarderFormats

/// Reads CloudKit wire types from JSON bytes: the one decoder the emulator (requests) and the
/// client (answers) share.
///
/// The bytes go through LarderFormats' JSON scanner in place (no copy) into a ``Value``, and
/// ``ValueDecoder`` reads the type's `Decodable` conformance from it, with the `DecodingError`s
/// and coding paths `JSONDecoder` gives. ``WireEncoder`` writes what this reads; the agreement
/// tests hold both to the types' `Codable` round trip.
///
/// ```swift
/// let response = try WireDecoder().decode(RecordsResponse.self, from: body)
/// ```
package struct WireDecoder {
    /// The input's name in syntax errors.
    package var name: String

    /// Creates a decoder; `name` names the input in syntax errors.
    package init(name: String = "<json>") { self.name = name }

    /// Decodes `type` from the JSON document in `bytes`.
    ///
    /// O(n) in the size of the document; the intermediate `Value` is the only copy of its content.
    /// - Parameters:
    ///   - type: the wire type.
    ///   - bytes: the document's UTF-8 text, read in place.
    /// - Returns: the decoded value.
    /// - Throws: ``LarderError`` `syntax-error` (or `refused-input` for nesting too deep) located at
    ///   a line and column for malformed JSON; `DecodingError` naming the coding path when the JSON
    ///   does not fit `type`.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        let json = try JSONScanner.parseDocument(bytes, name: name)
        if let fast = T.self as? any FastWireDecodable.Type, let value = fast.init(fastFrom: json) as? T {
            return value
        }
        return try ValueDecoder().decode(type, from: json)
    }

    /// Decodes `type` from the JSON document in `data` (read in place).
    /// - Throws: what ``decode(_:from:)-(_,UnsafeRawBufferPointer)`` throws.
    package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, from: $0) }
    }

    /// Decodes `type` from the JSON document in `bytes` (read in place).
    /// - Throws: what ``decode(_:from:)-(_,UnsafeRawBufferPointer)`` throws.
    package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0) }
    }
}
