/// The words the test-set generator builds recipes from: dish archetypes with their core
/// ingredients and steps, main ingredients, flavours, adjectives, extras, sites.
///
/// Ingredient specs read `"<quantity> <unit>|<item>"` (`-` for no unit).
enum RecipeVocabulary {
    struct Dish {
        var name: String
        var isSweet: Bool
        var core: [String]
        var steps: [String]
        var cuisine: String
        var prep: ClosedRange<Int>
        var cook: ClosedRange<Int>
        var servings: [Int]
        var tags: [String]
    }

    struct Flavor {
        var name: String
        var isSweet: Bool
        var ingredients: [String]
    }

    static let dishes: [Dish] = [
        Dish(
            name: "Stir-Fry", isSweet: false,
            core: [
                "2 tbsp|soy sauce", "1 tbsp|vegetable oil", "2 clove|garlic", "1 tbsp|fresh ginger",
                "3 -|spring onions", "1 tsp|cornstarch", "200 g|jasmine rice",
            ],
            steps: [
                "Cook the rice according to the packet.", "Slice the {main} into thin strips.",
                "Heat the oil in a wok until smoking.",
                "Stir-fry the {main} for 3 minutes, then add the garlic and ginger.",
                "Add the {flavor} sauce and toss until glossy.", "Serve over the rice with spring onions.",
            ],
            cuisine: "Chinese", prep: 10...20, cook: 8...15, servings: [2, 4], tags: ["weeknight", "asian"]),
        Dish(
            name: "Curry", isSweet: false,
            core: [
                "1 -|onion", "3 clove|garlic", "1 tbsp|ginger", "2 tbsp|curry powder", "400 ml|coconut milk",
                "1 tbsp|vegetable oil", "250 g|basmati rice", "1 handful|cilantro",
            ],
            steps: [
                "Fry the onion in oil until soft and golden.",
                "Add garlic, ginger and the curry powder and cook for a minute.",
                "Add the {main} and brown it on all sides.", "Pour in the coconut milk and simmer for 25 minutes.",
                "Stir through the {flavor} and season.", "Serve with rice and cilantro.",
            ],
            cuisine: "Indian", prep: 15...25, cook: 30...50, servings: [4, 6], tags: ["curry", "comfort food"]),
        Dish(
            name: "Soup", isSweet: false,
            core: [
                "1 -|onion", "2 -|carrots", "2 stalk|celery", "1 l|vegetable stock", "2 tbsp|olive oil", "1 -|bay leaf",
                "1 tsp|salt",
            ],
            steps: [
                "Sweat the onion, carrot and celery in the oil for 10 minutes.", "Add the {main} and the bay leaf.",
                "Pour in the stock and bring to a boil.", "Simmer for 30 minutes until everything is tender.",
                "Season with the {flavor} and blend if you like.", "Ladle into warm bowls.",
            ],
            cuisine: "European", prep: 15...20, cook: 30...45, servings: [4, 6], tags: ["soup", "make-ahead"]),
        Dish(
            name: "Tacos", isSweet: false,
            core: [
                "8 -|corn tortillas", "1 -|red onion", "1 -|lime", "1 tsp|ground cumin", "1 tsp|chili powder",
                "100 g|sour cream", "1 handful|cilantro",
            ],
            steps: [
                "Season the {main} with cumin and chili powder.", "Cook in a hot pan for 6-8 minutes.",
                "Warm the tortillas in a dry pan.", "Toss the {main} with the {flavor}.",
                "Fill the tortillas and top with onion, cilantro and sour cream.", "Squeeze over the lime and serve.",
            ],
            cuisine: "Mexican", prep: 15...20, cook: 10...15, servings: [4], tags: ["tacos", "mexican"]),
        Dish(
            name: "Pasta", isSweet: false,
            core: [
                "400 g|spaghetti", "2 tbsp|olive oil", "3 clove|garlic", "50 g|parmesan", "1 pinch|red pepper flakes",
                "1 handful|basil",
            ],
            steps: [
                "Boil the pasta in well-salted water until al dente.", "Warm the oil and garlic in a large pan.",
                "Add the {main} and cook for 5 minutes.", "Stir in the {flavor}.",
                "Toss the pasta in the pan with a splash of pasta water.", "Finish with parmesan and basil.",
            ],
            cuisine: "Italian", prep: 10...15, cook: 15...20, servings: [2, 4], tags: ["pasta", "italian"]),
        Dish(
            name: "Risotto", isSweet: false,
            core: [
                "300 g|arborio rice", "1 l|chicken stock", "1 -|shallot", "125 ml|dry white wine", "50 g|butter",
                "60 g|parmesan",
            ],
            steps: [
                "Warm the stock in a saucepan.", "Soften the shallot in half the butter.",
                "Toast the rice for 2 minutes, then add the wine.",
                "Add stock a ladle at a time, stirring, for 18 minutes.", "Fold in the {main} and the {flavor}.",
                "Beat in the rest of the butter and the parmesan.",
            ],
            cuisine: "Italian", prep: 10...15, cook: 25...35, servings: [4], tags: ["risotto", "italian"]),
        Dish(
            name: "Casserole", isSweet: false,
            core: [
                "1 -|onion", "2 -|carrots", "400 g|chopped tomatoes", "500 ml|beef stock", "2 tbsp|plain flour",
                "2 sprig|thyme", "2 tbsp|olive oil",
            ],
            steps: [
                "Heat the oven to 160C.", "Brown the {main} in batches in a casserole dish.",
                "Soften the onion and carrots, then stir in the flour.", "Add the tomatoes, stock, thyme and {flavor}.",
                "Cover and bake for 2 hours.", "Rest for 10 minutes before serving.",
            ],
            cuisine: "British", prep: 20...30, cook: 120...150, servings: [6], tags: ["slow-cooked", "winter"]),
        Dish(
            name: "Pancakes", isSweet: true,
            core: [
                "200 g|plain flour", "2 tsp|baking powder", "1 tbsp|caster sugar", "2 -|eggs", "300 ml|milk",
                "30 g|melted butter", "1 pinch|salt",
            ],
            steps: [
                "Whisk the flour, baking powder, sugar and salt.", "Beat the eggs with the milk and melted butter.",
                "Combine into a thick batter; fold in the {main}.", "Rest the batter for 10 minutes.",
                "Cook ladlefuls in a buttered pan until bubbles form, then flip.", "Serve stacked with the {flavor}.",
            ],
            cuisine: "American", prep: 10...15, cook: 15...20, servings: [4], tags: ["breakfast", "brunch"]),
        Dish(
            name: "Muffins", isSweet: true,
            core: [
                "280 g|plain flour", "2 tsp|baking powder", "150 g|caster sugar", "2 -|eggs", "120 ml|vegetable oil",
                "180 ml|buttermilk", "1 tsp|vanilla extract",
            ],
            steps: [
                "Heat the oven to 190C and line a muffin tin.", "Mix the dry ingredients in a bowl.",
                "Whisk the eggs, oil, buttermilk and vanilla.",
                "Stir wet into dry until just combined; fold in the {main}.",
                "Spoon into the cases and top with the {flavor}.", "Bake for 20-22 minutes.",
            ],
            cuisine: "American", prep: 15...20, cook: 20...25, servings: [12], tags: ["baking", "snack"]),
        Dish(
            name: "Cookies", isSweet: true,
            core: [
                "225 g|unsalted butter", "200 g|brown sugar", "100 g|caster sugar", "2 -|eggs", "350 g|plain flour",
                "1 tsp|baking soda", "1 tsp|vanilla extract",
            ],
            steps: [
                "Cream the butter and sugars until fluffy.", "Beat in the eggs and vanilla.",
                "Mix in the flour and baking soda.", "Fold in the {main} and the {flavor}.",
                "Scoop onto lined trays and chill for 30 minutes.", "Bake at 180C for 10-12 minutes.",
            ],
            cuisine: "American", prep: 20...30, cook: 10...12, servings: [24], tags: ["baking", "cookies"]),
        Dish(
            name: "Cake", isSweet: true,
            core: [
                "225 g|self-raising flour", "225 g|caster sugar", "225 g|soft butter", "4 -|eggs", "2 tbsp|milk",
                "200 g|icing sugar",
            ],
            steps: [
                "Heat the oven to 180C and line two tins.", "Beat the butter and sugar until pale.",
                "Beat in the eggs one at a time.", "Fold in the flour, milk and the {main}.",
                "Bake for 25 minutes and cool.", "Sandwich and ice with the {flavor} icing.",
            ],
            cuisine: "British", prep: 25...35, cook: 25...30, servings: [10, 12], tags: ["baking", "celebration"]),
        Dish(
            name: "Salad", isSweet: false,
            core: [
                "1 head|romaine lettuce", "3 tbsp|extra virgin olive oil", "1 tbsp|red wine vinegar",
                "1 tsp|dijon mustard", "1 -|cucumber", "200 g|cherry tomatoes",
            ],
            steps: [
                "Whisk the oil, vinegar and mustard into a dressing.", "Prepare the {main}.",
                "Tear the lettuce and slice the cucumber and tomatoes.",
                "Toss everything with the {flavor} and the dressing.", "Serve straight away.",
            ],
            cuisine: "Mediterranean", prep: 15...20, cook: 0...10, servings: [2, 4], tags: ["salad", "summer"]),
        Dish(
            name: "Stew", isSweet: false,
            core: [
                "2 -|onions", "3 -|potatoes", "2 -|carrots", "1 l|beef stock", "2 tbsp|tomato paste", "2 -|bay leaves",
                "2 tbsp|olive oil",
            ],
            steps: [
                "Brown the {main} in the oil.", "Add the onions and cook until soft.",
                "Stir in the tomato paste and {flavor}.", "Add potatoes, carrots, stock and bay leaves.",
                "Simmer gently for 90 minutes.", "Adjust the seasoning and serve.",
            ],
            cuisine: "European", prep: 20...30, cook: 90...120, servings: [6], tags: ["stew", "winter"]),
        Dish(
            name: "Fried Rice", isSweet: false,
            core: [
                "400 g|cooked rice", "2 -|eggs", "100 g|frozen peas", "2 tbsp|soy sauce", "1 tbsp|sesame oil",
                "3 -|spring onions",
            ],
            steps: [
                "Use rice cooked the day before.", "Scramble the eggs in a hot wok and set aside.",
                "Fry the {main} until cooked through.", "Add the rice and peas and stir-fry for 4 minutes.",
                "Season with soy sauce, sesame oil and {flavor}.",
                "Fold the egg back in and scatter with spring onions.",
            ],
            cuisine: "Chinese", prep: 10...15, cook: 10...15, servings: [2, 4], tags: ["leftovers", "weeknight"]),
        Dish(
            name: "Burgers", isSweet: false,
            core: [
                "4 -|burger buns", "1 -|red onion", "4 slice|cheddar", "1 -|tomato", "4 leaf|lettuce",
                "2 tbsp|mayonnaise",
            ],
            steps: [
                "Shape the {main} into four patties.", "Season and chill for 15 minutes.",
                "Grill or pan-fry for 4 minutes a side.", "Melt the cheese on top in the last minute.",
                "Toast the buns and spread with mayonnaise and {flavor}.",
                "Build the burgers with lettuce, tomato and onion.",
            ],
            cuisine: "American", prep: 15...20, cook: 10...12, servings: [4], tags: ["burgers", "grill"]),
        Dish(
            name: "Frittata", isSweet: false,
            core: [
                "8 -|eggs", "100 ml|double cream", "50 g|parmesan", "1 tbsp|butter", "1 -|red onion",
                "1 handful|chives",
            ],
            steps: [
                "Heat the grill.", "Soften the onion and {main} in the butter in an ovenproof pan.",
                "Whisk the eggs with the cream, parmesan and {flavor}.",
                "Pour into the pan and cook gently for 8 minutes.", "Finish under the grill until set and golden.",
                "Scatter with chives and cut into wedges.",
            ],
            cuisine: "Italian", prep: 10...15, cook: 15...20, servings: [4], tags: ["brunch", "eggs"]),
        Dish(
            name: "Pizza", isSweet: false,
            core: [
                "500 g|strong bread flour", "7 g|dried yeast", "325 ml|warm water", "200 g|passata", "250 g|mozzarella",
                "1 tsp|dried oregano",
            ],
            steps: [
                "Mix flour, yeast, salt and water and knead for 10 minutes.", "Prove for 1 hour until doubled.",
                "Stretch into two bases.", "Spread with passata and top with mozzarella and the {main}.",
                "Bake at the oven's hottest setting for 10 minutes.", "Finish with the {flavor} and oregano.",
            ],
            cuisine: "Italian", prep: 90...120, cook: 10...15, servings: [4], tags: ["pizza", "weekend"]),
        Dish(
            name: "Dumplings", isSweet: false,
            core: [
                "30 -|dumpling wrappers", "200 g|napa cabbage", "2 tbsp|soy sauce", "1 tbsp|rice vinegar",
                "1 tbsp|sesame oil", "2 -|spring onions",
            ],
            steps: [
                "Salt the cabbage for 15 minutes and squeeze dry.",
                "Mix the {main} with the cabbage, spring onions and {flavor}.", "Fill and pleat each wrapper.",
                "Fry the dumplings until the bases are golden.",
                "Add a splash of water, cover and steam for 6 minutes.", "Serve with soy sauce and vinegar.",
            ],
            cuisine: "Chinese", prep: 45...60, cook: 10...15, servings: [4, 6], tags: ["dumplings", "asian"]),
        Dish(
            name: "Lasagna", isSweet: false,
            core: [
                "12 sheet|lasagna sheets", "700 g|passata", "500 ml|milk", "50 g|butter", "50 g|plain flour",
                "100 g|parmesan", "1 -|onion",
            ],
            steps: [
                "Make a ragu: soften the onion, brown the {main} and add the passata.",
                "Simmer with the {flavor} for 30 minutes.", "Make a bechamel with butter, flour and milk.",
                "Layer ragu, pasta and bechamel three times.", "Top with parmesan.", "Bake at 180C for 40 minutes.",
            ],
            cuisine: "Italian", prep: 40...50, cook: 70...90, servings: [6, 8], tags: ["pasta", "comfort food"]),
        Dish(
            name: "Noodles", isSweet: false,
            core: [
                "250 g|egg noodles", "2 tbsp|oyster sauce", "1 tbsp|soy sauce", "1 tbsp|vegetable oil",
                "1 -|red pepper", "150 g|bean sprouts",
            ],
            steps: [
                "Cook the noodles and rinse under cold water.", "Stir-fry the {main} in the oil.",
                "Add the pepper and bean sprouts for 2 minutes.", "Toss in the noodles, sauces and {flavor}.",
                "Serve at once.",
            ],
            cuisine: "Asian", prep: 10...15, cook: 8...12, servings: [2], tags: ["noodles", "quick"]),
        Dish(
            name: "Skewers", isSweet: false,
            core: [
                "8 -|wooden skewers", "1 -|red onion", "1 -|green pepper", "3 tbsp|olive oil", "1 -|lemon",
                "200 g|greek yogurt",
            ],
            steps: [
                "Soak the skewers in water for 30 minutes.",
                "Marinate the {main} in oil, lemon and {flavor} for an hour.",
                "Thread onto skewers with onion and pepper.", "Grill for 8-10 minutes, turning.",
                "Serve with the yogurt.",
            ],
            cuisine: "Middle Eastern", prep: 70...90, cook: 8...12, servings: [4], tags: ["grill", "bbq"]),
        Dish(
            name: "Tart", isSweet: true,
            core: [
                "320 g|shortcrust pastry", "3 -|eggs", "150 g|caster sugar", "100 ml|double cream", "25 g|butter",
                "1 tbsp|icing sugar",
            ],
            steps: [
                "Line a tart tin with the pastry and blind bake for 15 minutes.", "Whisk the eggs, sugar and cream.",
                "Arrange the {main} in the case.", "Pour over the filling and add the {flavor}.",
                "Bake at 160C for 30 minutes until just set.", "Dust with icing sugar.",
            ],
            cuisine: "French", prep: 30...40, cook: 40...50, servings: [8], tags: ["dessert", "baking"]),
        Dish(
            name: "Smoothie Bowl", isSweet: true,
            core: ["2 -|frozen bananas", "150 ml|almond milk", "2 tbsp|granola", "1 tbsp|chia seeds", "1 tbsp|honey"],
            steps: [
                "Blend the bananas, {main} and almond milk until thick.", "Spoon into bowls.",
                "Top with granola, chia seeds and the {flavor}.", "Drizzle with honey.",
            ],
            cuisine: "American", prep: 5...10, cook: 0...0, servings: [2], tags: ["breakfast", "no-cook"]),
        Dish(
            name: "Brownies", isSweet: true,
            core: [
                "185 g|dark chocolate", "185 g|unsalted butter", "275 g|caster sugar", "3 -|eggs", "85 g|plain flour",
                "40 g|cocoa powder",
            ],
            steps: [
                "Melt the chocolate and butter together.", "Whisk the eggs and sugar until thick.",
                "Fold the chocolate into the eggs, then the flour and cocoa.", "Stir through the {main} and {flavor}.",
                "Bake at 180C for 25 minutes.", "Cool in the tin before cutting.",
            ],
            cuisine: "American", prep: 20...25, cook: 25...30, servings: [16], tags: ["baking", "chocolate"]),
        Dish(
            name: "Enchiladas", isSweet: false,
            core: [
                "8 -|flour tortillas", "400 g|enchilada sauce", "200 g|grated cheddar", "1 -|onion",
                "1 tsp|ground cumin", "400 g|black beans",
            ],
            steps: [
                "Cook the onion with the cumin.", "Add the {main}, beans and {flavor} and warm through.",
                "Fill and roll the tortillas.", "Lay in a dish and cover with sauce and cheese.",
                "Bake at 190C for 20 minutes.",
            ],
            cuisine: "Mexican", prep: 20...25, cook: 20...25, servings: [4], tags: ["mexican", "bake"]),
        Dish(
            name: "Gratin", isSweet: false,
            core: [
                "1 kg|waxy potatoes", "300 ml|double cream", "200 ml|whole milk", "2 clove|garlic", "100 g|gruyere",
                "1 pinch|nutmeg",
            ],
            steps: [
                "Heat the oven to 180C.", "Slice the potatoes very thinly.",
                "Warm the cream, milk and garlic with the nutmeg.", "Layer the potatoes with the {main} and {flavor}.",
                "Pour over the cream and top with gruyere.", "Bake for 75 minutes until tender.",
            ],
            cuisine: "French", prep: 25...30, cook: 70...80, servings: [6], tags: ["side", "bake"]),
        Dish(
            name: "Chili", isSweet: false,
            core: [
                "2 -|onions", "400 g|kidney beans", "800 g|chopped tomatoes", "2 tsp|chili powder",
                "1 tsp|smoked paprika", "1 tbsp|tomato paste", "1 -|green pepper",
            ],
            steps: [
                "Soften the onions and pepper.", "Brown the {main}.", "Stir in the spices, tomato paste and {flavor}.",
                "Add the tomatoes and beans.", "Simmer for an hour, stirring now and then.",
                "Serve with rice or tortilla chips.",
            ],
            cuisine: "Tex-Mex", prep: 15...20, cook: 60...75, servings: [6], tags: ["chili", "batch cooking"]),
        Dish(
            name: "Scones", isSweet: true,
            core: [
                "350 g|self-raising flour", "85 g|cold butter", "3 tbsp|caster sugar", "175 ml|milk",
                "1 tsp|vanilla extract", "1 -|egg",
            ],
            steps: [
                "Heat the oven to 220C.", "Rub the butter into the flour.", "Stir in the sugar and the {main}.",
                "Add the milk and vanilla and bring together gently.",
                "Cut out rounds, glaze with egg and bake for 10 minutes.", "Serve warm with the {flavor}.",
            ],
            cuisine: "British", prep: 15...20, cook: 10...12, servings: [8], tags: ["baking", "afternoon tea"]),
        Dish(
            name: "Quiche", isSweet: false,
            core: [
                "320 g|shortcrust pastry", "4 -|eggs", "300 ml|double cream", "100 g|gruyere", "1 -|shallot",
                "1 pinch|nutmeg",
            ],
            steps: [
                "Blind bake the pastry case for 15 minutes.", "Cook the shallot and {main}.",
                "Whisk the eggs, cream, nutmeg and {flavor}.", "Scatter the filling and cheese in the case.",
                "Pour over the custard.", "Bake at 170C for 35 minutes.",
            ],
            cuisine: "French", prep: 30...40, cook: 45...55, servings: [6, 8], tags: ["brunch", "picnic"]),
        Dish(
            name: "Traybake", isSweet: false,
            core: [
                "750 g|new potatoes", "2 -|red onions", "3 tbsp|olive oil", "1 -|lemon", "4 sprig|rosemary",
                "1 head|garlic",
            ],
            steps: [
                "Heat the oven to 200C.", "Toss the potatoes, onions and garlic in oil on a large tray.",
                "Nestle in the {main}.", "Season with the {flavor}, lemon and rosemary.",
                "Roast for 45 minutes, turning once.",
            ],
            cuisine: "British", prep: 15...20, cook: 40...50, servings: [4], tags: ["one-pan", "weeknight"]),
    ]

    static let savoryMains: [String] = [
        "Chicken|500 g|chicken breast", "Chicken Thigh|600 g|boneless chicken thighs", "Beef|500 g|beef sirloin",
        "Pork|500 g|pork tenderloin", "Lamb|500 g|lamb shoulder", "Salmon|4 fillet|salmon fillets",
        "Shrimp|400 g|raw king prawns",
        "Tofu|400 g|firm tofu", "Chickpea|400 g|chickpeas", "Lentil|250 g|red lentils",
        "Mushroom|400 g|chestnut mushrooms",
        "Eggplant|2 -|aubergines", "Cauliflower|1 head|cauliflower", "Sweet Potato|600 g|sweet potatoes",
        "Spinach|200 g|baby spinach",
        "Turkey|500 g|turkey mince", "Cod|4 fillet|cod fillets", "Tuna|2 can|tuna", "Duck|2 -|duck breasts",
        "Halloumi|250 g|halloumi",
        "Paneer|250 g|paneer", "Black Bean|400 g|black beans", "Broccoli|1 head|broccoli", "Zucchini|2 -|courgettes",
        "Butternut Squash|1 -|butternut squash", "Kale|200 g|cavolo nero", "Bacon|200 g|smoked bacon",
        "Sausage|6 -|pork sausages",
        "Crab|200 g|white crab meat", "Tempeh|200 g|tempeh", "Feta|200 g|feta", "Leek|3 -|leeks",
        "Pea|300 g|garden peas",
        "Chorizo|150 g|chorizo", "Beetroot|500 g|beetroots", "Mackerel|4 fillet|mackerel fillets",
        "Venison|500 g|venison steak",
        "Asparagus|250 g|asparagus", "Corn|3 ear|sweetcorn", "Pumpkin|800 g|pumpkin",
    ]

    static let sweetMains: [String] = [
        "Blueberry|150 g|blueberries", "Banana|3 -|ripe bananas", "Apple|3 -|bramley apples",
        "Chocolate Chip|150 g|chocolate chips",
        "Strawberry|250 g|strawberries", "Raspberry|150 g|raspberries", "Lemon|2 -|unwaxed lemons",
        "Pumpkin Spice|200 g|pumpkin puree",
        "Cherry|200 g|cherries", "Peach|3 -|peaches", "Pear|3 -|pears", "Oat|100 g|rolled oats",
        "Carrot|250 g|grated carrot",
        "Coconut|100 g|desiccated coconut", "Walnut|100 g|walnuts", "Pecan|100 g|pecans", "Hazelnut|100 g|hazelnuts",
        "Mango|2 -|mangoes", "Rhubarb|400 g|rhubarb", "Plum|6 -|plums", "Fig|6 -|figs", "Date|150 g|medjool dates",
        "Pistachio|100 g|pistachios", "Almond|100 g|ground almonds", "Cranberry|100 g|dried cranberries",
        "Ginger|2 piece|stem ginger",
        "Matcha|2 tsp|matcha powder", "Espresso|2 shot|espresso", "Peanut Butter|150 g|peanut butter",
        "Salted Caramel|150 g|caramel sauce",
    ]

    static let flavors: [Flavor] = [
        Flavor(name: "Garlic", isSweet: false, ingredients: ["4 clove|garlic", "1 tbsp|butter"]),
        Flavor(name: "Lemon", isSweet: false, ingredients: ["1 -|lemon zest", "2 tbsp|lemon juice"]),
        Flavor(name: "Honey Soy", isSweet: false, ingredients: ["2 tbsp|honey", "1 tbsp|light soy sauce"]),
        Flavor(name: "Ginger", isSweet: false, ingredients: ["2 tbsp|grated ginger"]),
        Flavor(name: "Chili", isSweet: false, ingredients: ["2 -|red chillies", "1 tsp|chili flakes"]),
        Flavor(name: "Smoked Paprika", isSweet: false, ingredients: ["2 tsp|smoked paprika"]),
        Flavor(name: "Sesame", isSweet: false, ingredients: ["2 tbsp|sesame seeds", "1 tbsp|toasted sesame oil"]),
        Flavor(name: "Teriyaki", isSweet: false, ingredients: ["4 tbsp|teriyaki sauce", "1 tbsp|mirin"]),
        Flavor(
            name: "Coconut", isSweet: false, ingredients: ["100 ml|coconut cream", "2 tbsp|toasted coconut flakes"]),
        Flavor(name: "Pesto", isSweet: false, ingredients: ["4 tbsp|basil pesto", "2 tbsp|pine nuts"]),
        Flavor(name: "Cajun", isSweet: false, ingredients: ["2 tbsp|cajun seasoning"]),
        Flavor(name: "Tandoori", isSweet: false, ingredients: ["3 tbsp|tandoori paste", "150 g|natural yogurt"]),
        Flavor(name: "Miso", isSweet: false, ingredients: ["2 tbsp|white miso", "1 tbsp|maple syrup"]),
        Flavor(name: "Harissa", isSweet: false, ingredients: ["2 tbsp|rose harissa"]),
        Flavor(name: "Chipotle", isSweet: false, ingredients: ["2 -|chipotle chillies in adobo"]),
        Flavor(name: "Balsamic", isSweet: false, ingredients: ["3 tbsp|balsamic vinegar", "1 tsp|brown sugar"]),
        Flavor(name: "Rosemary", isSweet: false, ingredients: ["3 sprig|rosemary"]),
        Flavor(name: "Thyme", isSweet: false, ingredients: ["6 sprig|thyme"]),
        Flavor(name: "Cilantro Lime", isSweet: false, ingredients: ["1 bunch|coriander", "2 -|limes"]),
        Flavor(name: "Peanut", isSweet: false, ingredients: ["3 tbsp|crunchy peanut butter", "50 g|roasted peanuts"]),
        Flavor(name: "Mustard", isSweet: false, ingredients: ["2 tbsp|wholegrain mustard"]),
        Flavor(name: "Jerk", isSweet: false, ingredients: ["2 tbsp|jerk seasoning", "1 -|scotch bonnet"]),
        Flavor(name: "Za'atar", isSweet: false, ingredients: ["2 tbsp|za'atar"]),
        Flavor(name: "Gochujang", isSweet: false, ingredients: ["2 tbsp|gochujang", "1 tbsp|rice vinegar"]),
        Flavor(name: "Black Pepper", isSweet: false, ingredients: ["2 tsp|cracked black pepper"]),
        Flavor(name: "Parmesan", isSweet: false, ingredients: ["60 g|grated parmesan"]),
        Flavor(name: "Creamy Tomato", isSweet: false, ingredients: ["200 ml|passata", "100 ml|single cream"]),
        Flavor(name: "Sumac", isSweet: false, ingredients: ["1 tbsp|sumac", "1 -|pomegranate"]),
        Flavor(name: "Dill", isSweet: false, ingredients: ["1 bunch|dill", "2 tbsp|capers"]),
        Flavor(name: "Curry Leaf", isSweet: false, ingredients: ["10 -|curry leaves", "1 tsp|mustard seeds"]),
        Flavor(name: "Maple", isSweet: true, ingredients: ["4 tbsp|maple syrup"]),
        Flavor(name: "Cinnamon", isSweet: true, ingredients: ["2 tsp|ground cinnamon"]),
        Flavor(name: "Vanilla", isSweet: true, ingredients: ["1 -|vanilla pod"]),
        Flavor(name: "Honey", isSweet: true, ingredients: ["3 tbsp|runny honey"]),
        Flavor(name: "Chocolate", isSweet: true, ingredients: ["100 g|milk chocolate"]),
        Flavor(name: "Orange", isSweet: true, ingredients: ["1 -|orange zest", "2 tbsp|orange juice"]),
        Flavor(name: "Cardamom", isSweet: true, ingredients: ["6 pod|cardamom"]),
        Flavor(name: "Brown Butter", isSweet: true, ingredients: ["50 g|browned butter"]),
        Flavor(name: "Lemon Curd", isSweet: true, ingredients: ["4 tbsp|lemon curd"]),
        Flavor(name: "Nutella", isSweet: true, ingredients: ["4 tbsp|chocolate hazelnut spread"]),
        Flavor(name: "Cream Cheese", isSweet: true, ingredients: ["200 g|full-fat cream cheese"]),
        Flavor(name: "Espresso", isSweet: true, ingredients: ["1 tbsp|instant coffee"]),
    ]

    static let adjectives: [String] = [
        "Spicy|1 tsp|cayenne pepper", "Crispy|3 tbsp|panko breadcrumbs", "Creamy|100 ml|double cream", "Roasted|",
        "Grilled|",
        "Baked|", "Slow-Cooked|", "One-Pot|", "Sheet-Pan|", "Healthy|", "Vegan|", "Loaded|50 g|crispy onions",
        "Rustic|",
        "Summer|", "Winter|", "Weeknight|", "Smoky|1 tsp|liquid smoke", "Sticky|2 tbsp|golden syrup",
        "Zesty|1 -|lime zest",
        "Hearty|", "Light|", "Golden|1 tsp|ground turmeric", "Stuffed|", "Pan-Fried|", "Braised|",
        "Herbed|1 handful|flat-leaf parsley",
        "Charred|", "Glazed|2 tbsp|apricot jam", "Cheesy|100 g|mature cheddar",
        "Sweet and Sour|3 tbsp|sweet chilli sauce",
    ]

    /// Regional styles: a title word and the ingredients it brings.
    static let styles: [String] = [
        "Thai|2 tbsp|thai red curry paste|1 tbsp|fish sauce", "Korean|1 tbsp|gochugaru|1 tbsp|toasted sesame seeds",
        "Mexican|1 tsp|dried oregano|1 -|jalapeno", "Greek|100 g|feta cheese|50 g|kalamata olives",
        "Moroccan|1 tsp|ras el hanout|50 g|dried apricots", "Japanese|1 tbsp|mirin|1 tsp|dashi powder",
        "Indian|1 tsp|garam masala|1 tsp|cumin seeds", "Italian|1 tsp|dried oregano|2 tbsp|sun-dried tomato paste",
        "Cajun|1 tsp|cayenne|1 -|green bell pepper", "Vietnamese|1 stalk|lemongrass|1 handful|thai basil",
        "Spanish|1 tsp|sweet pimenton|1 pinch|saffron", "Lebanese|1 tbsp|tahini|1 tsp|seven spice",
        "Caribbean|1 tsp|allspice|1 -|scotch bonnet chilli", "Nordic|1 tbsp|dill seeds|2 tbsp|lingonberry jam",
        "Persian|1 tsp|dried limes|1 pinch|saffron threads", "Ethiopian|1 tbsp|berbere|2 tbsp|niter kibbeh",
    ]

    static let sides: [String] = [
        "Rice", "Greens", "Salsa", "Slaw", "Flatbreads", "Mash", "Noodles", "Couscous", "Herb Salad", "Garlic Bread",
        "Roast Potatoes", "Quinoa", "Pickled Onions", "Tzatziki", "Chimichurri", "Polenta", "Kimchi", "Naan",
        "Yogurt Sauce", "Fries",
    ]

    static let sideIngredients: [String: String] = [
        "Rice": "200 g|long-grain rice", "Greens": "200 g|tenderstem broccoli", "Salsa": "3 -|plum tomatoes",
        "Slaw": "1/4 -|red cabbage", "Flatbreads": "4 -|flatbreads", "Mash": "800 g|floury potatoes",
        "Noodles": "200 g|rice noodles",
        "Couscous": "200 g|couscous", "Herb Salad": "1 bag|mixed leaves", "Garlic Bread": "1 -|baguette",
        "Roast Potatoes": "1 kg|maris piper potatoes", "Quinoa": "200 g|quinoa", "Pickled Onions": "1 -|red onion",
        "Tzatziki": "1 -|cucumber", "Chimichurri": "1 bunch|flat-leaf parsley", "Polenta": "200 g|quick polenta",
        "Kimchi": "150 g|kimchi", "Naan": "4 -|naan breads", "Yogurt Sauce": "200 g|greek yogurt",
        "Fries": "800 g|russet potatoes",
    ]

    static let extras: [String] = [
        "1 -|red bell pepper", "1 -|yellow pepper", "2 -|carrots", "2 stalk|celery", "1 -|fennel bulb",
        "100 g|sugar snap peas",
        "100 g|green beans", "1 -|avocado", "2 -|tomatoes", "1 -|shallot", "1 -|leek", "100 g|baby corn",
        "1 -|courgette",
        "50 g|sun-dried tomatoes", "50 g|kalamata olives", "2 tbsp|capers", "1 tbsp|worcestershire sauce",
        "1 tbsp|fish sauce",
        "1 tsp|garam masala", "1 tsp|ground coriander", "1 tsp|turmeric", "1 tsp|fennel seeds", "1 -|star anise",
        "1 -|cinnamon stick", "2 tbsp|tahini", "50 g|pine nuts", "50 g|cashews", "1 tbsp|hoisin sauce",
        "1 tbsp|sriracha", "2 tbsp|sweet chilli sauce", "100 g|frozen sweetcorn", "1 -|red chilli", "1 handful|mint",
        "1 handful|dill", "1 handful|tarragon", "1 bunch|watercress", "100 g|rocket", "200 g|spinach", "100 g|chard",
        "150 g|button mushrooms", "20 g|dried porcini", "1 tbsp|truffle oil", "100 g|pancetta", "50 g|anchovies",
        "100 g|goat cheese", "50 g|pecorino", "100 g|creme fraiche", "1 tbsp|apple cider vinegar",
        "1 tbsp|sherry vinegar", "1 tsp|english mustard", "1 tbsp|horseradish", "2 tbsp|mango chutney",
        "1 tbsp|tamarind paste",
        "1 tbsp|pomegranate molasses", "1 tsp|sumac", "1 tsp|nigella seeds", "1 tsp|cumin seeds", "1 tsp|caraway seeds",
        "1 -|lemongrass stalk", "4 -|kaffir lime leaves", "1 tbsp|palm sugar",
    ]

    static let sweetExtras: [String] = [
        "1 tbsp|black treacle", "50 g|raisins",
        "50 g|sultanas", "50 g|dried apricots", "1 tsp|mixed spice", "1 tsp|ground ginger", "1 tsp|allspice",
        "1 tbsp|poppy seeds",
        "50 g|white chocolate", "100 ml|evaporated milk", "1 tbsp|golden syrup", "50 g|demerara sugar",
        "1 tsp|almond extract",
        "1 tbsp|rose water", "1 tsp|orange blossom water", "30 g|crystallised ginger", "100 g|marzipan",
        "50 g|candied peel",
        "50 g|flaked almonds", "100 g|ricotta", "100 g|mascarpone", "1 tsp|ground nutmeg", "1 tbsp|cornflour",
        "2 tbsp|sour cream",
        "50 g|toasted hazelnuts", "1 tsp|lemon zest", "100 g|blackberries", "1 tbsp|agave syrup", "50 g|cacao nibs",
    ]

    static let sites: [String] = [
        "bbcgoodfood.com/recipes", "allrecipes.com/recipe", "seriouseats.com", "bonappetit.com/recipe",
        "food52.com/recipes",
        "smittenkitchen.com/2023", "budgetbytes.com", "minimalistbaker.com", "thekitchn.com/recipes",
        "cookieandkate.com",
        "recipetineats.com", "delish.com/cooking/recipe-ideas", "epicurious.com/recipes/food/views",
        "nytimes.com/recipes",
    ]

    /// Alternative wordings of ingredient items, for reworded duplicates (synonyms and regional names).
    static let rewordings: [String: String] = [
        "spring onions": "scallions", "cilantro": "fresh coriander", "coriander": "cilantro", "courgettes": "zucchini",
        "courgette": "zucchini", "aubergines": "eggplants", "chickpeas": "garbanzo beans",
        "double cream": "heavy cream",
        "caster sugar": "superfine sugar", "plain flour": "all-purpose flour", "icing sugar": "powdered sugar",
        "raw king prawns": "large raw shrimp", "cornstarch": "cornflour", "bicarbonate of soda": "baking soda",
        "baking soda": "bicarbonate of soda", "rocket": "arugula", "beetroots": "beets", "minced beef": "ground beef",
        "turkey mince": "ground turkey", "chilli flakes": "red pepper flakes", "red chillies": "red chili peppers",
        "natural yogurt": "plain yogurt", "greek yogurt": "greek-style yoghurt", "single cream": "light cream",
        "self-raising flour": "self-rising flour", "napa cabbage": "chinese cabbage", "sweetcorn": "corn kernels",
        "passata": "tomato puree", "chopped tomatoes": "diced tomatoes", "vegetable stock": "vegetable broth",
        "chicken stock": "chicken broth", "beef stock": "beef broth", "red pepper": "red bell pepper",
        "green pepper": "green bell pepper",
    ]

    /// Notes added to one ingredient line of a duplicate.
    static let ingredientNotes = [
        "optional", "or to taste", "at room temperature", "plus extra to serve", "roughly chopped", "divided",
    ]

    /// Notes added as an extra step of a duplicate.
    static let stepNotes = [
        "Note: keeps in the fridge for up to three days.", "Tip: make it a day ahead; the flavour improves.",
        "Note: freezes well for up to a month.", "Tip: double the sauce if you like it saucy.",
    ]
}
