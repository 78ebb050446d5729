import Foundation
public import LarderCore
import LarderFormats

/// Where migrated images go and come back from: files next to the output, or the store's images table.
public protocol ImageStore: AnyObject {
    /// Stores `bytes` for the record `recordID` and returns the reference to put in `imageRef`.
    func save(_ bytes: [UInt8], recordID: String, fileExtension: String) throws -> String
    /// The bytes a reference points at.
    func load(_ reference: String) throws -> [UInt8]
}

/// What a custom stage may use besides the record.
public struct StageContext {
    /// Where images go.
    public var images: any ImageStore
    /// The record's type.
    public var recordType: String

    /// Creates a context.
    public init(images: any ImageStore, recordType: String) {
        self.images = images
        self.recordType = recordType
    }
}

/// A migration stage written in Swift, registered by id and named from the manifest.
///
/// The manifest names it as `stage: image-move`. Declarative steps cover renames, defaults,
/// maps, type changes, nesting and drops; a stage does what they cannot (parse text, move
/// blobs out).
public struct MigrationStage: Sendable {
    /// The id the manifest names.
    public var id: String
    /// The implementation's version; part of the step's checksum, so changing what a stage does
    /// (and bumping this) makes `larder schema validate` flag stores that ran the old one.
    public var implementationVersion: Int
    /// What it does.
    public var summary: String
    /// Runs the stage on one record; returns whether it changed anything.
    /// - Throws: ``LarderError`` (with a field path) or ``ConversionFailure`` when the record
    ///   cannot be migrated; the record is rejected with that reason.
    public var run: @Sendable (_ record: inout Value, _ context: StageContext) throws -> Bool

    /// Creates a stage.
    public init(
        id: String, implementationVersion: Int = 1, summary: String,
        run: @escaping @Sendable (_ record: inout Value, _ context: StageContext) throws -> Bool
    ) {
        self.id = id
        self.implementationVersion = implementationVersion
        self.summary = summary
        self.run = run
    }

    /// The built-in stages: `ingredient-lines` / `ingredient-originals` (recipe v2 ↔ v3) and
    /// `image-move` / `image-inline` (recipe v1 ↔ v2).
    public static let builtIn: [String: MigrationStage] = {
        let all = [ingredientLines, ingredientOriginals, imageMove, imageInline]
        return Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
    }()

    /// Fields' `key` as an object, failing with the path when it is not one.
    static func fields(_ record: Value) throws -> Fields {
        guard let fields = record.objectValue else {
            throw LarderError(
                .malformedRecord, "expected an object, found \(record.kindDescription)",
                location: SourceLocation(fieldPath: .root))
        }
        return fields
    }
}

extension MigrationStage {
    /// `ingredient-lines`: each ingredient line becomes `{quantity, quantityMax, unit, item, note,
    /// original}` through ``IngredientLineParser``; the original line is always kept.
    static let ingredientLines = MigrationStage(
        id: "ingredient-lines", implementationVersion: 2,
        summary: "each ingredient line becomes {quantity, unit, item, note, original}"
    ) { record, _ in
        var fields = try fields(record)
        guard let lines = fields["ingredients"], !lines.isNull else { return false }
        guard let list = lines.arrayValue else {
            throw LarderError(
                .invalidRecord, "expected a list of ingredient lines, found \(lines.kindDescription)",
                location: SourceLocation(fieldPath: "ingredients"))
        }
        var changed = false
        var parsed: [Value] = []
        parsed.reserveCapacity(list.count)
        for (index, line) in list.enumerated() {
            switch line {
            case .string(let text):
                parsed.append(IngredientLines.parser.parse(text).value)
                changed = true
            case .object:
                parsed.append(line)  // already structured
            default:
                throw LarderError(
                    .invalidRecord, "expected an ingredient line, found \(line.kindDescription)",
                    location: SourceLocation(fieldPath: FieldPath.root.appending("ingredients").appending(index: index))
                )
            }
        }
        guard changed else { return false }
        fields["ingredients"] = .array(parsed)
        record = .object(fields)
        return true
    }

    /// `ingredient-originals`: each structured ingredient becomes its original line again.
    static let ingredientOriginals = MigrationStage(
        id: "ingredient-originals", summary: "each structured ingredient becomes its original line"
    ) { record, _ in
        var fields = try fields(record)
        guard let list = fields["ingredients"]?.arrayValue else { return false }
        var changed = false
        let lines: [Value] = list.map { element in
            guard let object = element.objectValue else { return element }
            changed = true
            if let original = object["original"]?.stringValue, !original.isEmpty { return .string(original) }
            return .string(IngredientLines.render(object))
        }
        guard changed else { return false }
        fields["ingredients"] = .array(lines)
        record = .object(fields)
        return true
    }

    /// `image-move`: inline base64 `imageData` becomes a stored image and an `imageRef`.
    static let imageMove = MigrationStage(
        id: "image-move",
        summary: "inline base64 imageData moves out to a file (or the store's images table); imageRef points at it"
    ) { record, context in
        var fields = try fields(record)
        guard fields.contains(key: "imageData") else { return false }
        let data = fields.removeValue(forKey: "imageData")
        if case .string(let text)? = data, !text.isEmpty {
            let cleaned = text.filter { !$0.isWhitespace }
            guard let bytes = Data(base64Encoded: cleaned), !bytes.isEmpty else {
                throw LarderError(
                    .invalidRecord, "imageData is not valid base64 (\(text.count) characters)",
                    location: SourceLocation(fieldPath: "imageData"))
            }
            let id = fields["id"]?.stringValue ?? "image"
            let reference = try context.images.save(
                Array(bytes), recordID: id, fileExtension: ImageKind.fileExtension(for: Array(bytes.prefix(16))))
            fields["imageRef"] = .string(reference)
        } else if let data, !data.isNull, data.stringValue == nil {
            throw LarderError(
                .invalidRecord, "expected base64 text, found \(data.kindDescription)",
                location: SourceLocation(fieldPath: "imageData"))
        }
        record = .object(fields)
        return true
    }

    /// `image-inline`: the image an `imageRef` points at becomes inline base64 `imageData` again.
    static let imageInline = MigrationStage(
        id: "image-inline", summary: "the image imageRef points at becomes inline base64 imageData"
    ) { record, context in
        var fields = try fields(record)
        guard let reference = fields.removeValue(forKey: "imageRef") else { return false }
        if case .string(let ref) = reference, !ref.isEmpty {
            let bytes: [UInt8]
            do {
                bytes = try context.images.load(ref)
            } catch {
                throw LarderError(
                    .invalidRecord, "imageRef \"\(ref)\": \(error)", location: SourceLocation(fieldPath: "imageRef"))
            }
            fields["imageData"] = .string(Data(bytes).base64EncodedString())
        }
        record = .object(fields)
        return true
    }
}

/// Ingredient lines, parsed and rendered back.
enum IngredientLines {
    static let parser = IngredientLineParser()

    /// A line for a structured ingredient without `original`: `2 cup flour, sifted`.
    static func render(_ object: Fields) -> String {
        var parts: [String] = []
        if let q = object["quantity"] {
            var text = q.compactText(limit: 20)
            if let max = object["quantityMax"], !max.isNull { text += "-" + max.compactText(limit: 20) }
            parts.append(text)
        }
        if let unit = object["unit"]?.stringValue { parts.append(unit) }
        if let item = object["item"]?.stringValue { parts.append(item) }
        var line = parts.joined(separator: " ")
        if let note = object["note"]?.stringValue, !note.isEmpty { line += ", " + note }
        return line
    }
}
