import LarderCore
import LarderFormats

/// Imports recipe files people write by hand or export from scripts (``PlainRecipe`` says what
/// each record may hold).
///
/// Reads JSON (an object, an array, a Larder envelope, NDJSON lines, trailing commas tolerated),
/// YAML (a document, a list, several `---` documents) and XML (every `<recipe>` element, whatever
/// wraps it), gzip-compressed or not. A document that wraps its list (`{"recipes": […]}`) is
/// read as one record, within the record size limit. Streams record by record, and each record is
/// isolated: a bad one is rejected with its index and field path (and line:column where the
/// reader knows it) and the rest import; after a syntax error only NDJSON reads on.
///
/// Source fields Larder has no field for are kept verbatim in `extras.plain` and named in a
/// warning (``keep(_:in:fields:isLarderRecord:origin:context:)``).
///
/// ```swift
/// try PlainRecipeImporter().importItems(at: "recipes.yaml", into: session)
/// ```
package struct PlainRecipeImporter: RecipeImporter {
    package var format: ImportFormat { .plain }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let (source, dataFormat) = try RecordIO.sniff(FileByteSource(path: path), path: path)
        if dataFormat == .xml {
            try importXML(source, path: path, context: context)
            return
        }
        let decoded = TranscodingByteSource(source, encoding: nil)
        let limits = context.readerLimits
        let reader: any RecordReader
        switch dataFormat {
        case .yaml: reader = try YAMLReader(source: decoded, limits: limits)
        case .ndjson: reader = JSONReader(source: decoded, lineMode: true, lenient: true, limits: limits)
        case .json, .xml: reader = JSONReader(source: decoded, lineMode: false, lenient: true, limits: limits)
        }
        var index = 0
        var warningsSeen = 0
        defer { if decoded.usedFallback { context.warnEncodingFallback(ImportOrigin(file: path)) } }
        while true {
            let item: RecordItem?
            do {
                item = try reader.next()
            } catch let error as LarderError where error.code != .io {
                try context.reject(error, origin: ImportOrigin(file: path, index: index), raw: nil)
                index += 1
                if reader.canRecover { continue }
                return
            }
            if let json = reader as? JSONReader, json.warnings.count > warningsSeen {
                for warning in json.warnings[warningsSeen...] {
                    context.warn(JSONLDBlocks.warningText(warning), origin: ImportOrigin(file: path))
                }
                warningsSeen = json.warnings.count
            }
            guard let item else { return }
            if let type = reader.header?.recordType, type != .recipe {
                throw LarderError(
                    .malformedRecord,
                    "a Larder \(type.rawValue) file: larder import reads recipes (larder convert and validate read Larder records)",
                    location: SourceLocation(file: path))
            }
            let isLarderRecord = reader.header?.recordType == .recipe
            for (value, prefix) in Self.recipes(
                in: item.value, origin: ImportOrigin(file: path, index: index), context: context)
            {
                let origin = ImportOrigin(file: path, index: index)
                index += 1
                try context.isolating(origin, raw: value) {
                    do {
                        try Self.importRecord(value, isLarderRecord: isLarderRecord, origin: origin, context: context)
                    } catch let error as LarderError {
                        // Point at the field's line in the file when the reader knows it.
                        let inner = error.location?.fieldPath ?? .root
                        var position =
                            reader.location(of: FieldPath(components: prefix.components + inner.components))
                            ?? item.location
                        position.recordIndex = nil
                        position.fieldPath = inner
                        throw error.locatedAt(position)
                    }
                }
            }
        }
    }

    /// Reads one record and hands the recipe to the context, with what it could not carry.
    static func importRecord(_ value: Value, isLarderRecord: Bool, origin: ImportOrigin, context: ImportContext)
        throws
    {
        // A current Larder recipe in its plain form is mapped field by field, as the full path reads it.
        if context.takesShortcuts, let record = PlainRecipe.LarderRecord(value, isLarderRecord: isLarderRecord) {
            for warning in record.warnings { context.warn(warning, origin: origin) }
            try context.records.recipe(record.recipe, origin: origin)
            return
        }
        let plain = try PlainRecipe(value: value, isLarderRecord: isLarderRecord)
        var recipe = plain.recipe
        keep(
            plain.unmapped, in: &recipe, fields: value.objectValue ?? Fields(), isLarderRecord: isLarderRecord,
            origin: origin, context: context)
        try context.records.recipe(recipe, origin: origin)
    }

    /// Where the source fields Larder has no place for go: `extras.plain`, verbatim, keyed by the
    /// field's name (its path, such as `ingredients[2].brand`, when it sits deeper), and the census.
    ///
    /// A field Larder has a field for but whose value could not be read (`prep: soon`) is kept in
    /// extras too; only Larder's own sync state and set flags are dropped (with their reason).
    /// Every field not carried is still named in a warning. A Larder record's own `extras` stays
    /// its extras.
    /// - Parameters:
    ///   - unmapped: the fields, in record order.
    ///   - recipe: the recipe they belong to (to receive them as `extras`).
    ///   - fields: the record's top-level fields, for the census.
    ///   - isLarderRecord: whether the record is a Larder record (its `extras` are its own).
    ///   - origin: where the recipe came from, for the warnings.
    ///   - context: the receiver of the warnings.
    static func keep(
        _ unmapped: [PlainRecipe.UnmappedField], in recipe: inout ImportedRecipe, fields: Fields,
        isLarderRecord: Bool, origin: ImportOrigin, context: ImportContext
    ) {
        var kept = Fields()
        var overrides: [String: FieldFate] = [:]
        var withoutField: [String] = []
        for field in unmapped {
            let topKey: String? = {
                if case .key(let key)? = field.path.components.first { return key }
                return nil
            }()
            let isTopLevel = field.path.components.count == 1
            if isLarderRecord, isTopLevel, topKey == "extras", let own = field.value.objectValue {
                for entry in own where !recipe.extras.contains(key: entry.key) {
                    recipe.extras.append(key: entry.key, value: entry.value)
                }
                overrides["extras"] = .carried("extras")
                continue
            }
            let role = topKey.flatMap { PlainRecipe.Role(key: $0) }
            if let reason = field.reason, role == .larderFlag || role == .syncState {
                if isTopLevel, let topKey { overrides[topKey] = .dropped(reason) }
                context.warn("\(field.path): \(field.value.snippet) not imported: \(reason)", origin: origin)
                continue
            }
            let key = field.path.description
            if !kept.contains(key: key) { kept.append(key: key, value: field.value) }
            if isTopLevel, let topKey { overrides[topKey] = .extras }
            if let reason = field.reason {
                context.warn(
                    "\(field.path): \(field.value.snippet) not imported: \(reason) (kept verbatim in extras.plain)",
                    origin: origin)
            } else {
                withoutField.append(key)
            }
        }
        if !withoutField.isEmpty {
            context.warn(
                "not imported into a Larder field (no Larder recipe field for \(withoutField.count == 1 ? "it" : "them"); kept verbatim in extras.plain): "
                    + withoutField.joined(separator: ", "), origin: origin)
        }
        var table: [String: FieldFate] = [:]
        for field in fields {
            guard let role = PlainRecipe.Role(key: field.key) else { continue }
            table[field.key] = role.larderField.map { .carried($0) } ?? .dropped("Larder's own state, not imported")
        }
        for field in fields where PlainRecipe.Role(key: field.key) == .source && overrides[field.key] == nil {
            let text = field.value.stringValue?.lowercased() ?? ""
            if text.hasPrefix("http://") || text.hasPrefix("https://") || text.hasPrefix("www.") {
                overrides[field.key] = .carried("sourceURL")
            } else if field.value.objectValue != nil {
                overrides[field.key] = recipe.sourceName != nil ? .carried("sourceName") : .carried("sourceURL")
            }
        }
        // A field whose Larder field stayed empty is kept too (the census checks each against the recipe).
        let (census, unread) = FieldCensus.take(of: fields, table: FieldTable(.plain, table), overrides: overrides) {
            [recipe] in recipe.holds($0)
        }
        for field in unread where !kept.contains(key: field.key) { kept.append(key: field.key, value: field.value) }
        recipe.fieldCensus = census
        recipe.leafSource = LeafSource(fields: fields, format: .plain)
        guard !kept.isEmpty else { return }
        var entry = recipe.extras["plain"]?.objectValue ?? Fields()
        for field in kept where !entry.contains(key: field.key) { entry.append(key: field.key, value: field.value) }
        if recipe.extras.contains(key: "plain") {
            recipe.extras["plain"] = .object(entry)
        } else {
            recipe.extras.append(key: "plain", value: .object(entry))
        }
    }

    /// Names of a document's member that holds its list of recipes.
    private static let wrapperNames: Set<String> = ["recipes", "recipe", "items", "data", "results", "entries"]

    /// The recipes a record holds, each with its path in the record.
    ///
    /// The record itself, or the list of a document that wraps its recipes (`{"recipes": […]}`,
    /// `recipe: {…}`); the wrapper's other members are reported as not imported.
    static func recipes(in value: Value, origin: ImportOrigin, context: ImportContext) -> [(Value, FieldPath)] {
        guard let fields = value.objectValue, !fields.contains(where: { PlainRecipe.Role(key: $0.key) == .title }),
            let wrapper = fields.first(where: {
                wrapperNames.contains(PlainRecipe.normalizedName($0.key))
                    && ($0.value.arrayValue != nil || $0.value.objectValue != nil)
            })
        else { return [(value, .root)] }
        let others = fields.filter { $0.key != wrapper.key && !PlainRecipe.isEmpty($0.value) }.map(\.key)
        if !others.isEmpty {
            context.warn(
                "not imported (fields of the document around its recipes): \(others.joined(separator: ", "))",
                origin: ImportOrigin(file: origin.file))
        }
        let base = FieldPath.root.appending(wrapper.key)
        guard let list = wrapper.value.arrayValue else { return [(wrapper.value, base)] }
        return list.enumerated().map { ($1, base.appending(index: $0)) }
    }

    /// Reads every `<recipe>` element of an XML document, one subtree at a time.
    private func importXML(_ source: any ByteSource, path: String, context: ImportContext) throws {
        let reader = try XMLSubtreeReader(source: source, recordElements: ["recipe"])
        var index = 0
        while let element = try reader.nextRecord() {
            var lines: [FieldPath: Int] = [:]
            let value = element.plainValue(lines: &lines)
            let origin = ImportOrigin(file: path, index: index)
            index += 1
            try context.isolating(origin, raw: value) {
                do {
                    // Larder's own XML (`<records schema="recipe">`) keeps its ids.
                    try Self.importRecord(
                        value, isLarderRecord: reader.rootName == "records", origin: origin, context: context)
                } catch let error as LarderError {
                    var line = element.line
                    if var path = error.location?.fieldPath {
                        while !path.components.isEmpty, lines[path] == nil { path.components.removeLast() }
                        line = lines[path] ?? line
                    }
                    throw error.locatedAt(SourceLocation(line: line))
                }
            }
        }
        if index == 0 {
            throw LarderError(
                .malformedRecord, "no <recipe> element found (the root element is <\(reader.rootName ?? "nothing")>)",
                location: SourceLocation(file: path))
        }
    }
}
