/// Nutrition facts as schema.org's `NutritionInformation` has them, each kept as written
/// (`"240 kcal"`, `"12 g"`), because sources mix numbers, units and ranges; `text` holds
/// nutrition written as free text (Paprika's and Mela's `nutritional_info`).
public struct Nutrition: Sendable, Hashable {
    public var calories: String?
    public var fatContent: String?
    public var saturatedFatContent: String?
    public var transFatContent: String?
    public var unsaturatedFatContent: String?
    public var cholesterolContent: String?
    public var sodiumContent: String?
    public var carbohydrateContent: String?
    public var sugarContent: String?
    public var fiberContent: String?
    public var proteinContent: String?
    /// What one serving is (`"1 slice"`).
    public var servingSize: String?
    /// Nutrition as free text, when the source has no structure for it.
    public var text: String?

    /// The member names, in schema.org's order.
    public static let keys = [
        "calories", "fatContent", "saturatedFatContent", "transFatContent", "unsaturatedFatContent",
        "cholesterolContent", "sodiumContent", "carbohydrateContent", "sugarContent", "fiberContent", "proteinContent",
        "servingSize", "text",
    ]

    /// Creates nutrition facts.
    public init(
        calories: String? = nil, fatContent: String? = nil, saturatedFatContent: String? = nil,
        transFatContent: String? = nil, unsaturatedFatContent: String? = nil, cholesterolContent: String? = nil,
        sodiumContent: String? = nil, carbohydrateContent: String? = nil, sugarContent: String? = nil,
        fiberContent: String? = nil, proteinContent: String? = nil, servingSize: String? = nil, text: String? = nil
    ) {
        self.calories = calories
        self.fatContent = fatContent
        self.saturatedFatContent = saturatedFatContent
        self.transFatContent = transFatContent
        self.unsaturatedFatContent = unsaturatedFatContent
        self.cholesterolContent = cholesterolContent
        self.sodiumContent = sodiumContent
        self.carbohydrateContent = carbohydrateContent
        self.sugarContent = sugarContent
        self.fiberContent = fiberContent
        self.proteinContent = proteinContent
        self.servingSize = servingSize
        self.text = text
    }

    /// The shape: every member is text.
    public static let shape: Shape = .object(Dictionary(uniqueKeysWithValues: keys.map { ($0, Shape.string) }))

    /// The value of member `key` (one of ``keys``); setting an unknown key does nothing.
    public subscript(key: String) -> String? {
        get {
            switch key {
            case "calories": calories
            case "fatContent": fatContent
            case "saturatedFatContent": saturatedFatContent
            case "transFatContent": transFatContent
            case "unsaturatedFatContent": unsaturatedFatContent
            case "cholesterolContent": cholesterolContent
            case "sodiumContent": sodiumContent
            case "carbohydrateContent": carbohydrateContent
            case "sugarContent": sugarContent
            case "fiberContent": fiberContent
            case "proteinContent": proteinContent
            case "servingSize": servingSize
            case "text": text
            default: nil
            }
        }
        set {
            switch key {
            case "calories": calories = newValue
            case "fatContent": fatContent = newValue
            case "saturatedFatContent": saturatedFatContent = newValue
            case "transFatContent": transFatContent = newValue
            case "unsaturatedFatContent": unsaturatedFatContent = newValue
            case "cholesterolContent": cholesterolContent = newValue
            case "sodiumContent": sodiumContent = newValue
            case "carbohydrateContent": carbohydrateContent = newValue
            case "sugarContent": sugarContent = newValue
            case "fiberContent": fiberContent = newValue
            case "proteinContent": proteinContent = newValue
            case "servingSize": servingSize = newValue
            case "text": text = newValue
            default: break
            }
        }
    }

    /// Whether no member has a value.
    public var isEmpty: Bool { Self.keys.allSatisfy { self[$0] == nil } }

    /// Decodes nutrition facts at `path`.
    /// - Throws: ``LarderError`` `malformed-record` naming the member that is not text.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init()
        for key in Self.keys { self[key] = try r.optionalString(key) }
    }

    /// The facts as a value, absent members left out.
    public var value: Value {
        var b = ValueBuilder()
        for key in Self.keys { b.set(key, self[key]) }
        return b.value
    }
}
