public import LarderCore

/// Placeholder until its reader lands.
public struct RecipeMLImporter: RecipeImporter {
    public var format: ImportFormat { .recipeml }

    /// Creates the importer.
    public init() {}

    public func importItems(at path: String, into sink: any ImportSink) throws {
        throw LarderError(.usage, "\(format.displayName) import is not available yet", location: SourceLocation(file: path))
    }
}
