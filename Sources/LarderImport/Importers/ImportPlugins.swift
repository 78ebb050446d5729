/// The formats `larder import` reads: one line per importer folder.
///
/// The order breaks ties: when two plugins are equally sure of an input, the one listed first
/// reads it (an app's own format before the generic readers, plain recipe files last).
package enum ImportPlugins {
    /// Every registered plugin.
    package static let all: [any ImportPlugin] = [
        BeanconquerorPlugin(),
        RecipeKeeperPlugin(),
        CopyMeThatPlugin(),
        GourmetPlugin(),
        CookmatePlugin(),
        RezeptsuitePlugin(),
        RecetteTekPlugin(),
        CooknPlugin(),
        PaprikaPlugin(),
        MelaPlugin(),
        ChowdownPlugin(),
        MealMasterPlugin(),
        PepperplatePlugin(),
        SaffronPlugin(),
        PlanToEatPlugin(),
        MyRecipeBoxPlugin(),
        BigOvenPlugin(),
        OpenEatsPlugin(),
        DomesticaPlugin(),
        RecipeSagePlugin(),
        SchemaOrgPlugin(),
        MealiePlugin(),
        TandoorPlugin(),
        CroutonPlugin(),
        NextcloudPlugin(),
        CooklangPlugin(),
        ChefTapPlugin(),
        CookbookAppPlugin(),
        RecipeMLPlugin(),
        ORFPlugin(),
        CSVPlugin(),
        PlainPlugin(),
    ]

    /// The plugins by format name.
    package static let named: [String: any ImportPlugin] = Dictionary(
        all.map { ($0.format.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
}
