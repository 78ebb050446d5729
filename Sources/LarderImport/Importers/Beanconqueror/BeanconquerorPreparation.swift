import LarderCore

/// What Beanconqueror's preparation methods are, as BrewGuide's ``BrewMethod`` sees them.
///
/// A preparation's `type` is one of Beanconqueror's `PREPARATION_TYPES`
/// (`src/enums/preparations/preparationTypes.ts`: `AEROPRESS`, `AEROPRESS_INVERTED`, `V60`,
/// `PORTAFILTER`, `XENIA`, `HARIO_SWITCH`, …, and `CUSTOM_PREPARATION` for the user's own); the
/// user's own take their method from the name they gave it ("My Aeropress", "Gaggia espresso").
enum BeanconquerorPreparation {
    /// How a method's brew is made, for the steps of the recipe built from it.
    enum Style: Equatable {
        /// Water poured over the bed: bloom, then pour.
        case pourOver
        /// The coffee steeps in all the water, then is pressed or drained.
        case immersion
        /// Espresso: a shot pulled under pressure, dose in, beverage out.
        case espresso
        /// A stovetop moka pot.
        case moka
        /// Cold water over hours.
        case cold
    }

    /// Every type Beanconqueror declares, with the method it is.
    static let methods: [String: BrewMethod] = [
        "V60": .v60, "CHEMEX": .chemex, "KALITA_WAVE": .kalitaWave, "ORIGAMI": .origami,
        "AEROPRESS": .aeropress, "AEROPRESS_INVERTED": .aeropress, "FRENCH_PRESS": .frenchPress,
        // The Switch is an immersion dripper with a valve, as the Clever is.
        "HARIO_SWITCH": .clever, "BIALETTI": .mokaPot,
        "PORTAFILTER": .espresso, "METICULOUS": .espresso, "SANREMO_YOU": .espresso, "XENIA": .espresso,
        "GAGGIUINO": .espresso, "DECENT_ESPRESSO": .espresso, "CAFELAT": .espresso, "FLAIR": .espresso,
        "HAND_LEVER": .espresso, "ROK": .espresso,
        "COLD_BREW": .coldBrew, "COLD_DRIP": .coldBrew,
    ]

    /// The types that are no BrewGuide method but whose style is known.
    private static let styles: [String: Style] = [
        "DELTER_PRESS": .immersion, "KARLSBADER_KANNE": .pourOver, "SIPHON": .immersion, "TURKISH": .immersion,
        "OXO_RAPID_BREWER": .immersion, "TRICOLATE": .pourOver, "FELLOW_STAGG": .pourOver, "KONO": .pourOver,
        "BLUE_DRIPPER": .pourOver, "GINA": .pourOver, "OREA": .pourOver,
        "APRIL_BREWER": .pourOver, "ESPRO_BLOOM": .pourOver, "HSIAO_50": .pourOver, "CAFEC_FLOWER": .pourOver,
        "DECEMBER_DRIPPER": .pourOver, "HARIO_WOODNECK": .pourOver, "RATIO_SIX_COFFEE_BREWER": .pourOver,
        "TORNADO_DUO": .pourOver, "MOCCA_MASTER": .pourOver, "DRIPPER": .pourOver,
    ]

    /// The method of a preparation of `type` named `name`: the type's, or for the user's own and
    /// types BrewGuide has no method for, the one its name says; `.other` when neither tells.
    static func method(type: String, name: String) -> BrewMethod {
        if let known = methods[type.uppercased()] { return known }
        return method(named: name)
    }

    /// The method a name says ("Aeropress", "My V60", "Gaggia Classic espresso"), or `.other`.
    static func method(named name: String) -> BrewMethod {
        let t = name.uppercased().filter { $0.isLetter || $0.isNumber }
        if t.contains("AEROPRESS") { return .aeropress }
        if t.contains("V60") { return .v60 }
        if t.contains("CHEMEX") { return .chemex }
        if t.contains("KALITA") { return .kalitaWave }
        if t.contains("ORIGAMI") { return .origami }
        if t.contains("CLEVER") || t.contains("SWITCH") { return .clever }
        if t.contains("FRENCH") || t.contains("PLUNGER") || t.contains("CAFETIERE") { return .frenchPress }
        if t.contains("BIALETTI") || t.contains("MOKA") || t.contains("STOVETOP") { return .mokaPot }
        if t.contains("ESPRESSO") || t.contains("PORTAFILTER") || t.contains("LEVER") || t.contains("GAGGIA")
            || t.contains("LAMARZOCCO") || t.contains("RANCILIO") || t.contains("BREVILLE") || t.contains("FLAIR")
        {
            return .espresso
        }
        if t.contains("COLD") { return .coldBrew }
        return .other
    }

    /// How a brew of this preparation is made.
    static func style(type: String, name: String, method: BrewMethod) -> Style {
        switch method {
        case .v60, .chemex, .kalitaWave, .origami: return .pourOver
        case .aeropress, .frenchPress, .clever: return .immersion
        case .espresso: return .espresso
        case .mokaPot: return .moka
        case .coldBrew: return .cold
        case .other: return styles[type.uppercased()] ?? .pourOver
        }
    }
}
