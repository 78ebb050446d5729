import Foundation
package import LarderCore
import LarderFormats

/// Imports a Beanconqueror backup: a zip archive (or the bare `Beanconqueror.json`) whose main
/// file holds `BEANS`, `BREWS`, `PREPARATION`, `MILL` and `SETTINGS`, with further brews and
/// beans in `Beanconqueror_Brews_N.json` / `Beanconqueror_Beans_N.json` chunks.
///
/// Every brew becomes a ``BrewLog`` (dose, yield, temperature, grind, rating, brew time, note,
/// date, method from its preparation); every preparation method that was brewed with becomes a
/// ``BrewRecipe`` built from its latest complete brew (steps as the method makes a brew: bloom and
/// pour, steep, or a shot pulled), which the logs link to. Beanconqueror writes 0 for what was not
/// recorded: an unrated brew (rating 0) is a log without a rating, an unweighed one a log without
/// dose or yield (brewLog v4); `larder validate --rules brewguide` names the logs BrewGuide would refuse.
package struct BeanconquerorImporter: RecipeImporter {
    package var format: ImportFormat { .beanconqueror }

    /// Creates the importer.
    package init() {}

    private struct Lookups {
        var beans: [String: String] = [:]
        var beanDetails: [String: CoffeeBean] = [:]
        var mills: [String: String] = [:]
        var waters: [String: BrewWater] = [:]
        var preparations: [String: (name: String, type: String)] = [:]
        var ratingScale = 5.0
        /// The latest complete brew per preparation, for its recipe.
        var latestByPreparation: [String: (date: Double, brew: Value)] = [:]
    }

    package func importItems(at path: String, context: ImportContext) throws {
        let head = try FileByteSource(path: path).readPrefix(4)
        let origin = ImportOrigin(file: path)
        var lookups = Lookups()
        guard ZipArchive.isZip(head) else {
            let main = try JSONLDBlocks.parse(
                TranscodingByteSource(try FileByteSource(path: path), encoding: nil),
                limits: context.readerLimits.forWholeDocument
            ) { context.warn(JSONLDBlocks.warningText($0), origin: origin) }
            readLookups(main, into: &lookups)
            try readBrews(main["BREWS"], origin: origin, lookups: &lookups, context: context)
            try emitRecipes(lookups, origin: origin, context: context)
            return
        }
        // Pass 1: the lookups (beans, preparations, settings) from the main file and bean chunks.
        let archive = try ZipArchive(path: path)
        var mainEntry: ZipEntry?
        var brewChunks: [ZipEntry] = []
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            let name = entry.fileName.lowercased()
            if name == "beanconqueror.json" { mainEntry = entry }
            if name.hasPrefix("beanconqueror_brews_") && name.hasSuffix(".json") { brewChunks.append(entry) }
            if name.hasPrefix("beanconqueror_beans_") && name.hasSuffix(".json") {
                try context.isolating(origin.entry(entry.path)) {
                    let beans = try JSONLDBlocks.parse(
                        TranscodingByteSource(try archive.open(entry), encoding: nil),
                        limits: context.readerLimits.forWholeDocument
                    ) { context.warn(JSONLDBlocks.warningText($0), origin: origin.entry(entry.path)) }
                    readBeans(beans, into: &lookups)
                }
            }
        }
        guard let mainEntry else {
            throw LarderError(
                .malformedRecord, "no Beanconqueror.json in the archive: not a Beanconqueror backup",
                location: SourceLocation(file: path))
        }
        let mainOrigin = origin.entry(mainEntry.path)
        let main = try JSONLDBlocks.parse(
            TranscodingByteSource(try archive.open(mainEntry), encoding: nil),
            limits: context.readerLimits.forWholeDocument
        ) { context.warn(JSONLDBlocks.warningText($0), origin: mainOrigin) }
        readLookups(main, into: &lookups)
        // Pass 2: the brews, main file first, then the chunks in order.
        try readBrews(main["BREWS"], origin: mainOrigin, lookups: &lookups, context: context)
        for entry in brewChunks.sorted(by: { Self.chunkNumber($0.fileName) < Self.chunkNumber($1.fileName) }) {
            let chunkOrigin = origin.entry(entry.path)
            try context.isolating(chunkOrigin) {
                let brews = try JSONLDBlocks.parse(
                    TranscodingByteSource(try archive.open(entry), encoding: nil),
                    limits: context.readerLimits.forWholeDocument
                ) { context.warn(JSONLDBlocks.warningText($0), origin: chunkOrigin) }
                try readBrews(brews, origin: chunkOrigin, lookups: &lookups, context: context)
            }
        }
        try emitRecipes(lookups, origin: mainOrigin, context: context)
    }

    private static func chunkNumber(_ name: String) -> Int {
        Int(name.filter(\.isNumber)) ?? 0
    }

    private func readLookups(_ main: Value, into lookups: inout Lookups) {
        readBeans(main["BEANS"] ?? .null, into: &lookups)
        for preparation in main["PREPARATION"]?.arrayValue ?? [] {
            guard let uuid = preparation["config"]?["uuid"]?.stringValue else { continue }
            lookups.preparations[uuid] = (
                preparation["name"]?.stringValue ?? "Brew", preparation["type"]?.stringValue ?? ""
            )
        }
        for mill in main["MILL"]?.arrayValue ?? [] {
            guard let uuid = mill["config"]?["uuid"]?.stringValue, let name = mill["name"]?.stringValue else {
                continue
            }
            lookups.mills[uuid] = name
        }
        for water in main["WATER"]?.arrayValue ?? [] {
            guard let uuid = water["config"]?["uuid"]?.stringValue else { continue }
            let hardness = Self.number(water["general_hardness"] ?? water["total_hardness"]).map {
                "\(Self.grams($0)) \(water["general_hardness_type"]?.stringValue ?? "ppm")"
            }
            lookups.waters[uuid] = BrewWater(name: water["name"]?.stringValue, hardness: hardness)
        }
        let settings = main["SETTINGS"]?.arrayValue?.first ?? main["SETTINGS"]
        if let scale = settings?["brew_rating"].flatMap(Self.number), scale > 0 { lookups.ratingScale = scale }
    }

    private func readBeans(_ beans: Value, into lookups: inout Lookups) {
        for bean in beans.arrayValue ?? [] {
            guard let uuid = bean["config"]?["uuid"]?.stringValue else { continue }
            let name = bean["name"]?.stringValue ?? ""
            let roaster = bean["roaster"]?.stringValue ?? ""
            lookups.beans[uuid] = roaster.isEmpty ? name : "\(name) (\(roaster))"
            let information = bean["bean_information"]?.arrayValue?.first
            func text(_ value: Value?) -> String? { value?.stringValue.flatMap(ImportText.nonEmpty) }
            let origin = [text(information?["country"]), text(information?["region"]), text(information?["farm"])]
                .compactMap { $0 }
            lookups.beanDetails[uuid] = CoffeeBean(
                name: text(bean["name"]), roaster: text(bean["roaster"]),
                origin: origin.isEmpty ? nil : origin.joined(separator: ", "), variety: text(information?["variety"]),
                process: text(information?["processing"]), roastLevel: text(bean["roast"]),
                roastDate: text(bean["roastingDate"]))
        }
    }

    private func readBrews(_ brews: Value?, origin: ImportOrigin, lookups: inout Lookups, context: ImportContext)
        throws
    {
        guard let brews else { return }
        guard let list = brews.arrayValue else {
            try context.reject(
                LarderError(
                    .malformedRecord, "expected a list of brews, found \(brews.kindDescription)",
                    location: SourceLocation(fieldPath: "BREWS")), origin: origin, raw: nil)
            return
        }
        for (index, brew) in list.enumerated() {
            let itemOrigin = origin.item(index)
            try context.isolating(itemOrigin, raw: brew) {
                let log = try brewLog(brew, lookups: lookups)
                if let preparation = brew["method_of_preparation"]?.stringValue, log.doseGrams != nil,
                    log.targetYieldGrams != nil
                {
                    let date = log.createdAt.timeIntervalSince1970
                    if date >= lookups.latestByPreparation[preparation]?.date ?? -.infinity {
                        lookups.latestByPreparation[preparation] = (date, brew)
                    }
                }
                try context.records.brewLog(log, census: Self.census(of: brew, log: log), origin: itemOrigin)
            }
        }
    }

    /// The brew log a Beanconqueror brew describes.
    private func brewLog(_ brew: Value, lookups: Lookups) throws -> BrewLog {
        let r = try ValueReader(brew)
        guard let uuid = brew["config"]?["uuid"]?.stringValue, !uuid.isEmpty else {
            throw LarderError(
                .malformedRecord, "the brew has no config.uuid", location: SourceLocation(fieldPath: "config.uuid"))
        }
        let preparationID = try r.optionalString("method_of_preparation")
        let preparation = preparationID.flatMap { lookups.preparations[$0] }
        let bean = try r.optionalString("bean").flatMap { lookups.beans[$0] }
        let name = [preparation?.name, bean].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " – ")
        let dose = Self.number(r.fields["grind_weight"]) ?? 0
        let water = Self.number(r.fields["brew_quantity"]) ?? 0
        let beverage = Self.number(r.fields["brew_beverage_quantity"]) ?? 0
        let rating = Self.rating(r.fields["rating"], scale: lookups.ratingScale)
        let method = BeanconquerorPreparation.method(type: preparation?.type ?? "", name: preparation?.name ?? "")
        let seconds = Self.number(brew["config"]?["unix_timestamp"]) ?? 0
        let temperature = Self.number(r.fields["brew_temperature"]).flatMap { $0 > 0 ? $0 : nil }
        // Seconds past Int's range are no time: the census keeps the field as written in extras.
        let brewTime = Self.number(r.fields["brew_time"]).flatMap { $0 > 0 ? Int(rounding: $0) : nil }
        let note = try r.optionalString("note").flatMap(ImportText.nonEmpty)
        let beanID = try r.optionalString("bean")
        let millName = try r.optionalString("mill").flatMap { lookups.mills[$0] }
        let grindSetting = try r.optionalString("grind_size").flatMap(ImportText.nonEmpty)
        let bloomSeconds = Self.number(r.fields["coffee_blooming_time"]).flatMap { $0 > 0 ? Int(rounding: $0) : nil }
        // A percentage; anything else is left in extras rather than failing the brew's validation.
        let tds = Self.number(r.fields["tds"]).flatMap { $0 > 0 && $0 <= 100 ? $0 : nil }
        let photos = (r.fields["attachments"]?.arrayValue ?? []).compactMap { $0.stringValue }.filter { !$0.isEmpty }
        var log = BrewLog(
            id: StableID.uuid(["beanconqueror", "brew", uuid]),
            method: method, recipeNameAtBrew: name.isEmpty ? "Brew" : name, doseGrams: dose > 0 ? dose : nil,
            targetYieldGrams: Self.yield(water: water, beverage: beverage, method: method),
            waterTemperatureCelsius: temperature, grindLabel: Self.grindLabel(try r.optionalString("grind_size")),
            rating: rating,
            brewTimeSeconds: brewTime, note: note, createdAt: Date(timeIntervalSince1970: seconds),
            recipeID: preparationID.map { StableID.uuid(["beanconqueror", "preparation", $0]) },
            bean: beanID.flatMap { lookups.beanDetails[$0] },
            grinder: millName != nil || grindSetting != nil ? Grinder(name: millName, setting: grindSetting) : nil,
            bloom: bloomSeconds.map { Bloom(seconds: $0) },
            water: try r.optionalString("water").flatMap { lookups.waters[$0] }, tds: tds,
            extractionYield: Self.extractionYield(tds: tds, beverage: beverage, dose: dose), photos: photos)
        let kept = Self.take(brew, log: log).extras
        if !kept.isEmpty {
            log.extras = Fields([Field(key: ImportFormat.beanconqueror.rawValue, value: .object(kept))])
        }
        return log
    }

    /// The brew's rating on Larder's 1–5 scale, from Beanconqueror's (`SETTINGS.brew_rating`, 5 by default).
    ///
    /// `nil` for an unrated brew (0, or none) and for a value that is no rating (below 0,
    /// past Int's range, `1e300`, or over a scale so small the quotient is infinite), which the
    /// census then keeps in extras as written. A rating past the scale counts as its top.
    static func rating(_ value: Value?, scale: Double) -> Int? {
        guard let raw = number(value), raw > 0, let scaled = Int(rounding: raw * 5 / scale) else { return nil }
        return min(5, max(1, scaled))
    }

    /// What the importer does with each field of a Beanconqueror brew; any other field
    /// (`mill_speed`, `pressure_profile`, `coffee_type`, `cupping`, `flow_profile`, …) is kept in
    /// `extras.beanconqueror`.
    package static let fieldTable = FieldTable(
        .beanconqueror,
        [
            "config": .carried("id"), "method_of_preparation": .carried("method"), "bean": .carried("bean"),
            "mill": .carried("grinder"), "grind_size": .carried("grinder"), "grind_weight": .carried("doseGrams"),
            "brew_quantity": .carried("targetYieldGrams"), "brew_beverage_quantity": .carried("targetYieldGrams"),
            "brew_temperature": .carried("waterTemperatureCelsius"), "brew_time": .carried("brewTimeSeconds"),
            "note": .carried("note"), "rating": .carried("rating"), "coffee_blooming_time": .carried("bloom"),
            "water": .carried("water"), "tds": .carried("tds"), "attachments": .carried("photos"),
        ])

    /// The census of one brew, checked against the log it became.
    package static func census(of brew: Value, log: BrewLog) -> FieldCensus {
        take(brew, log: log).census
    }

    /// The census of one brew and the fields to keep in extras.
    private static func take(_ brew: Value, log: BrewLog) -> (census: FieldCensus, extras: Fields) {
        var overrides: [String: FieldFate] = [:]
        // One of the two weights is the yield (``yield(water:beverage:method:)``); the other is kept.
        let water = number(brew["brew_quantity"]) ?? 0
        let beverage = number(brew["brew_beverage_quantity"]) ?? 0
        if water > 0, beverage > 0 {
            overrides[log.method == .espresso ? "brew_quantity" : "brew_beverage_quantity"] = .extras
        }
        // A mill that is not in the backup's MILL list gave the grinder no name: its id is kept.
        if log.grinder?.name == nil { overrides["mill"] = .extras }
        // Beanconqueror writes 0 for what was not recorded (a rating, a weight, a time): nothing is lost.
        for (key, fate) in fieldTable.fates {
            guard case .carried = fate, let value = brew[key], number(value) == 0 else { continue }
            overrides[key] = .dropped("0: not recorded (Beanconqueror writes 0 for \"none\")")
        }
        return FieldCensus.take(of: brew.objectValue ?? Fields(), table: fieldTable, overrides: overrides) {
            holds($0, log)
        }
    }

    /// Whether the brew log's field `name` received a value.
    private static func holds(_ name: String, _ log: BrewLog) -> Bool {
        switch name {
        case "bean": log.bean != nil
        case "grinder": log.grinder != nil
        case "doseGrams": log.doseGrams != nil
        case "targetYieldGrams": log.targetYieldGrams != nil
        case "rating": log.rating != nil
        case "waterTemperatureCelsius": log.waterTemperatureCelsius != nil
        case "brewTimeSeconds": log.brewTimeSeconds != nil
        case "note": log.note != nil
        case "bloom": log.bloom != nil
        case "water": log.water != nil
        case "tds": log.tds != nil
        case "photos": !log.photos.isEmpty
        case "method": log.recipeID != nil
        default: true
        }
    }

    /// One brew recipe per preparation method, from its latest complete brew: a bloom step when
    /// the brew had one, then the pour to the full water weight.
    private func emitRecipes(_ lookups: Lookups, origin: ImportOrigin, context: ImportContext) throws {
        for (preparationID, latest) in lookups.latestByPreparation.sorted(by: { $0.key < $1.key }) {
            let brew = latest.brew
            let preparation = lookups.preparations[preparationID]
            let recipeOrigin = ImportOrigin(
                file: origin.file, entry: (origin.entry ?? "") + " PREPARATION \(preparation?.name ?? preparationID)")
            try context.isolating(recipeOrigin, raw: brew) {
                let dose = Self.number(brew["grind_weight"]) ?? 0
                let name = preparation?.name ?? ""
                let type = preparation?.type ?? ""
                let method = BeanconquerorPreparation.method(type: type, name: name)
                let water =
                    Self.yield(
                        water: Self.number(brew["brew_quantity"]) ?? 0,
                        beverage: Self.number(brew["brew_beverage_quantity"]) ?? 0, method: method) ?? 0
                // Seconds past Int's range are no time (the brew's own log keeps them in extras); none
                // below 0, so `total - bloom` cannot overflow.
                let bloom = Self.number(brew["coffee_blooming_time"]).flatMap { Int(rounding: $0, .towardZero) } ?? 0
                let total = max(0, Self.number(brew["brew_time"]).flatMap { Int(rounding: $0, .towardZero) } ?? 0)
                let style = BeanconquerorPreparation.style(type: type, name: name, method: method)
                let steps = Self.steps(style: style, dose: dose, water: water, bloom: bloom, total: total)
                let created = Date(timeIntervalSince1970: latest.date)
                let recipe = BrewRecipe(
                    id: StableID.uuid(["beanconqueror", "preparation", preparationID]),
                    name: preparation?.name ?? "Beanconqueror brew",
                    method: method, doseGrams: dose,
                    targetYieldGrams: water,
                    waterTemperatureCelsius: Self.number(brew["brew_temperature"]).flatMap { $0 > 0 ? $0 : nil },
                    grindLabel: Self.grindLabel(brew["grind_size"]?.stringValue), steps: steps, createdAt: created)
                try context.records.brewRecipe(recipe, census: nil, origin: recipeOrigin)
            }
        }
    }

    /// The brew's yield, `nil` when nothing was weighed.
    ///
    /// The water weight (`brew_quantity`), or the beverage's when no water was weighed; for
    /// espresso the beverage's first (the shot's weight out is its yield).
    static func yield(water: Double, beverage: Double, method: BrewMethod) -> Double? {
        let order = method == .espresso ? [beverage, water] : [water, beverage]
        return order.first { $0 > 0 }
    }

    /// The extraction yield in percent, as Beanconqueror shows it: TDS × beverage weight ÷ dose,
    /// rounded to two decimals; `nil` without all three.
    static func extractionYield(tds: Double?, beverage: Double, dose: Double) -> Double? {
        guard let tds, beverage > 0, dose > 0 else { return nil }
        let percent = (tds * beverage / dose * 100).rounded() / 100
        return percent <= 100 ? percent : nil
    }

    /// The steps of a recipe made as `style` makes a brew, their water adding up to `water`:
    /// a bloom and a pour (pour-over), the water then a steep (immersion, cold brew), a shot with
    /// its pre-infusion (espresso: `dose` in, `water`, the beverage, out), the base filled (moka).
    static func steps(
        style: BeanconquerorPreparation.Style, dose: Double, water: Double, bloom: Int, total: Int
    ) -> [BrewStep] {
        let time: (Int) -> Int? = { $0 > 0 ? $0 : nil }
        switch style {
        case .espresso:
            var steps: [BrewStep] = []
            if bloom > 0 {
                steps.append(BrewStep(order: 1, instruction: "Pre-infuse", timerSeconds: bloom, waterGrams: 0))
            }
            let seconds = total > 0 ? " in \(total) s" : ""
            steps.append(
                BrewStep(
                    order: steps.count + 1,
                    instruction: "Pull the shot: \(grams(dose)) g of coffee in, \(grams(water)) g out\(seconds)",
                    timerSeconds: time(max(0, total - bloom)), waterGrams: water))
            return steps
        case .moka:
            return [
                BrewStep(
                    order: 1, instruction: "Fill the base with \(grams(water)) g of water and brew on the stove",
                    timerSeconds: time(total), waterGrams: water)
            ]
        case .immersion, .cold:
            let verb = style == .cold ? "steep cold" : "steep"
            return [
                BrewStep(
                    order: 1, instruction: "Add \(grams(water)) g of water and \(verb)", timerSeconds: time(total),
                    waterGrams: water)
            ]
        case .pourOver:
            guard bloom > 0 else {
                return [
                    BrewStep(
                        order: 1, instruction: "Pour \(grams(water)) g of water", timerSeconds: time(total),
                        waterGrams: water)
                ]
            }
            let bloomWater = min(water, (dose * 2).rounded())
            return [
                BrewStep(
                    order: 1, instruction: "Bloom with \(grams(bloomWater)) g of water", timerSeconds: bloom,
                    waterGrams: bloomWater),
                BrewStep(
                    order: 2, instruction: "Pour to \(grams(water)) g", timerSeconds: time(max(0, total - bloom)),
                    waterGrams: water - bloomWater),
            ]
        }
    }

    static func grindLabel(_ text: String?) -> GrindLabel? {
        guard let t = text?.lowercased().filter({ $0.isLetter || $0 == " " || $0 == "-" }) else { return nil }
        let compact = t.replacingAll("-", with: " ")
        if compact.contains("extra fine") { return .extraFine }
        if compact.contains("extra coarse") { return .extraCoarse }
        if compact.contains("medium fine") { return .mediumFine }
        if compact.contains("medium coarse") { return .mediumCoarse }
        if compact.contains("fine") { return .fine }
        if compact.contains("coarse") { return .coarse }
        if compact.contains("medium") { return .medium }
        return nil
    }

    static func number(_ value: Value?) -> Double? {
        switch value {
        case .int(let i)?: Double(i)
        case .double(let d)?: d
        case .string(let s)?: Double(s.trimmingWhitespace.replacingAll(",", with: "."))
        default: nil
        }
    }

    private static func grams(_ value: Double) -> String {
        Int(exactly: value).map { String($0) } ?? String(value)
    }
}
