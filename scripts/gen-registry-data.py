#!/usr/bin/env python3
"""Deterministic old-version data for the registry: Cheffy UserRecipes (recipe v1), SnapChef
recipes (recipe v2) and BrewGuide brew logs (brewLog v1).

  python3 scripts/gen-registry-data.py recipe-v1 N OUT [--ndjson] [--image-every K]   # samples (N=24), benchmarks (N=1000000)
  python3 scripts/gen-registry-data.py recipe-v2 N OUT
  python3 scripts/gen-registry-data.py brewlog-v1 N OUT
Writes record by record, so a million records never sit in memory.
"""
import base64, json, random, sys, uuid, zlib, struct

DISHES = [
    ("Pasta Carbonara", "Italian", ["200 g spaghetti", "100 g pancetta, diced", "2 large eggs", "50 g Pecorino Romano, finely grated", "1 tsp black pepper, freshly ground"],
     ["Boil the spaghetti in salted water for 9 minutes.", "Fry the pancetta until crisp, about 5 minutes.", "Whisk the eggs with the cheese and pepper.", "Toss the hot pasta with the pancetta off the heat, then stir in the egg mixture."]),
    ("Chicken Tikka Masala", "Indian", ["500 g chicken thighs, cut into chunks", "150 g plain yogurt", "2 tbsp garam masala", "1 onion, finely chopped", "400 g canned tomatoes", "120 ml double cream"],
     ["Marinate the chicken in yogurt and half the spices for 1 hour.", "Grill the chicken for 10 minutes until charred.", "Soften the onion, add the rest of the spices and the tomatoes, simmer 15 minutes.", "Stir in the cream and the chicken and simmer 5 minutes more."]),
    ("Guacamole", "Mexican", ["3 ripe avocados", "1 lime, juiced", "½ red onion, minced", "1 jalapeño, seeded and minced", "2 tbsp cilantro, chopped", "½ tsp salt"],
     ["Mash the avocados with the lime juice.", "Fold in the onion, jalapeño, cilantro and salt.", "Serve at once."]),
    ("Banana Bread", "American", ["3 ripe bananas", "75 g butter, melted", "150 g sugar", "1 egg, beaten", "1 tsp vanilla extract", "1 tsp baking soda", "190 g all-purpose flour"],
     ["Heat the oven to 175°C.", "Mash the bananas and mix in the butter, sugar, egg and vanilla.", "Stir in the baking soda and flour.", "Bake in a loaf tin for 60 minutes."]),
    ("Miso Soup", "Japanese", ["4 cups dashi", "3 tbsp white miso paste", "200 g silken tofu, cubed", "2 green onions, sliced", "1 tbsp dried wakame"],
     ["Soak the wakame for 5 minutes.", "Warm the dashi without boiling.", "Dissolve the miso in a ladle of dashi and stir it back in.", "Add the tofu and wakame, heat for 2 minutes, top with green onion."]),
    ("Shakshuka", "Middle Eastern", ["2 tbsp olive oil", "1 onion, sliced", "1 red bell pepper, sliced", "2 cloves garlic, minced", "1 tsp cumin", "800 g crushed tomatoes", "6 eggs"],
     ["Cook the onion and pepper in the oil for 8 minutes.", "Add the garlic and cumin for 1 minute.", "Pour in the tomatoes and simmer 10 minutes.", "Make wells, crack in the eggs, cover and cook 6-8 minutes."]),
    ("French Onion Soup", "French", ["4 large onions, thinly sliced", "3 tbsp butter", "1 l beef stock", "120 ml dry white wine", "4 slices baguette", "100 g Gruyère, grated"],
     ["Caramelize the onions in the butter for 45 minutes.", "Deglaze with the wine, add the stock and simmer 20 minutes.", "Top bowls with bread and cheese and grill for 3 minutes."]),
    ("Pad Thai", "Thai", ["200 g rice noodles", "2 tbsp tamarind paste", "2 tbsp fish sauce", "1 tbsp palm sugar", "150 g shrimp, peeled", "2 eggs", "100 g bean sprouts", "3 tbsp roasted peanuts, crushed"],
     ["Soak the noodles for 30 minutes.", "Stir-fry the shrimp for 2 minutes, push aside and scramble the eggs.", "Add the noodles and sauce and toss for 3 minutes.", "Finish with sprouts and peanuts."]),
    ("Greek Salad", "Greek", ["4 tomatoes, cut into wedges", "1 cucumber, sliced", "1 red onion, sliced", "200 g feta", "16 Kalamata olives", "3 tbsp extra virgin olive oil", "1 tsp dried oregano"],
     ["Combine the vegetables and olives.", "Top with the feta, drizzle with oil and sprinkle oregano."]),
    ("Beef Chili", "Tex-Mex", ["1 lb ground beef", "1 onion, diced", "2 tbsp chili powder", "1 tsp cumin", "1 can (15 oz) kidney beans, drained", "1 can (28 oz) crushed tomatoes"],
     ["Brown the beef with the onion for 8 minutes.", "Add the spices and cook 1 minute.", "Add the beans and tomatoes and simmer 1 hour."]),
    ("Pancakes", "American", ["1 ½ cups all-purpose flour", "3 ½ tsp baking powder", "1 tbsp sugar", "1 ¼ cups milk", "1 egg", "3 tbsp butter, melted"],
     ["Whisk the dry ingredients.", "Whisk in the milk, egg and butter until just combined.", "Cook ¼ cup portions for 2 minutes a side."]),
    ("Ratatouille", "French", ["1 eggplant, diced", "2 zucchini, diced", "1 red pepper, diced", "1 onion, diced", "3 tomatoes, chopped", "4 tbsp olive oil", "1 sprig thyme"],
     ["Sauté each vegetable separately in oil until golden.", "Combine with the tomatoes and thyme.", "Simmer gently for 40 minutes."]),
    ("Hummus", "Lebanese", ["400 g canned chickpeas, drained", "60 ml tahini", "1 lemon, juiced", "1 clove garlic", "2 tbsp olive oil", "pinch of salt"],
     ["Blend everything for 3 minutes until smooth, adding water as needed.", "Serve with a swirl of olive oil."]),
    ("Risotto ai Funghi", "Italian", ["300 g arborio rice", "250 g mushrooms, sliced", "1 shallot, minced", "1 l vegetable stock, hot", "100 ml white wine", "50 g Parmesan", "30 g butter"],
     ["Sauté the mushrooms and set aside.", "Soften the shallot, toast the rice for 2 minutes, add the wine.", "Add stock a ladle at a time for 18 minutes, stirring.", "Stir in the mushrooms, butter and Parmesan; rest 2 minutes."]),
    ("Fish Tacos", "Mexican", ["500 g white fish fillets", "1 tsp smoked paprika", "8 corn tortillas", "2 cups shredded cabbage", "½ cup sour cream", "1 lime"],
     ["Season the fish and grill 3-4 minutes a side.", "Warm the tortillas.", "Fill with fish, cabbage and lime crema."]),
    ("Butternut Squash Soup", "American", ["1 butternut squash, peeled and cubed", "1 onion, chopped", "2 carrots, chopped", "1 l vegetable stock", "120 ml coconut milk", "1 tsp nutmeg"],
     ["Roast the squash at 200°C for 35 minutes.", "Soften the onion and carrots, add the squash and stock, simmer 20 minutes.", "Blend with the coconut milk and nutmeg."]),
    ("Tiramisu", "Italian", ["250 g mascarpone", "3 eggs, separated", "75 g sugar", "200 ml strong espresso, cooled", "24 ladyfingers", "2 tbsp cocoa powder"],
     ["Beat the yolks with the sugar, fold in the mascarpone.", "Whip the whites and fold them in.", "Layer espresso-dipped ladyfingers with the cream.", "Chill for 6 hours and dust with cocoa."]),
    ("Bibimbap", "Korean", ["2 cups cooked rice", "200 g beef, thinly sliced", "1 carrot, julienned", "200 g spinach", "4 eggs", "2 tbsp gochujang", "1 tbsp sesame oil"],
     ["Stir-fry the beef for 3 minutes.", "Blanch the spinach for 30 seconds and sauté the carrot.", "Fry the eggs sunny side up.", "Arrange over rice with gochujang and sesame oil."]),
    ("Lentil Dal", "Indian", ["1 cup red lentils", "1 onion, chopped", "2 tsp turmeric", "1 tsp cumin seeds", "400 ml coconut milk", "2 cups water"],
     ["Toast the cumin seeds for 30 seconds.", "Cook the onion for 5 minutes, add the turmeric.", "Add the lentils, coconut milk and water and simmer 25 minutes."]),
    ("Caesar Salad", "American", ["1 romaine lettuce", "2 cups croutons", "50 g Parmesan shavings", "2 anchovy fillets", "1 egg yolk", "1 clove garlic", "80 ml olive oil"],
     ["Blend the anchovy, yolk and garlic, then stream in the oil.", "Toss the lettuce with the dressing, croutons and Parmesan."]),
    ("Paella", "Spanish", ["400 g bomba rice", "1 pinch saffron", "200 g chicken thighs", "150 g chorizo", "200 g prawns", "1 l chicken stock", "100 g green beans"],
     ["Brown the chicken and chorizo in a wide pan.", "Add the rice and saffron, then the hot stock.", "Cook without stirring for 18 minutes, adding prawns for the last 5 minutes.", "Rest for 5 minutes under a towel."]),
    ("Chocolate Chip Cookies", "American", ["225 g butter, softened", "200 g brown sugar", "2 eggs", "2 tsp vanilla", "280 g flour", "1 tsp baking soda", "340 g chocolate chips"],
     ["Cream the butter and sugar.", "Beat in the eggs and vanilla, then the flour and soda.", "Fold in the chips and bake at 190°C for 10 minutes."]),
    ("Pho Bo", "Vietnamese", ["2 kg beef bones", "1 onion, halved and charred", "5 star anise", "1 cinnamon stick", "400 g rice noodles", "300 g sirloin, sliced paper-thin", "fresh herbs, to serve"],
     ["Blanch the bones for 10 minutes and rinse.", "Simmer with the onion and spices for 6 hours.", "Pour the boiling broth over noodles and raw beef."]),
    ("Apple Crumble", "British", ["6 apples, peeled and sliced", "2 tbsp sugar", "1 tsp cinnamon", "150 g flour", "100 g cold butter", "75 g oats"],
     ["Toss the apples with sugar and cinnamon.", "Rub the butter into the flour and oats.", "Top the apples and bake at 180°C for 40 minutes."]),
]
DIFFICULTY_TEXT = ["Easy", "easy", "Medium", "Hard", "Beginner", "Intermediate", "Very Easy", "Advanced", "moderate", None, "Challenging", "Simple"]
DIETS = [[], ["vegetarian"], ["gluten-free"], ["vegan", "gluten-free"], ["dairy-free"], None]
IMAGE_EVERY = 4  # --image-every N: one recipe in N carries inline image data
AUTHORS = ["_4f1c2a9e8b7d", "_9a8b7c6d5e4f", "_1e2d3c4b5a69", "_77aa66bb55cc"]

def tiny_png(seed):
    """A real 2x2 PNG whose colour depends on the seed."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    r, g, b = (seed * 53) % 256, (seed * 97) % 256, (seed * 193) % 256
    raw = b"".join(b"\x00" + bytes([r, g, b]) * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def ts(rng, year=2023):
    return "%04d-%02d-%02dT%02d:%02d:%02dZ" % (year, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))

def recipe_v1(i, rng):
    title, cuisine, ingredients, steps = DISHES[i % len(DISHES)]
    if i >= len(DISHES):
        title = "%s #%d" % (title, i // len(DISHES) + 1)
    r = {
        "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(),
        "title": title,
        "ingredients": ingredients,
        "instructions": steps,
        "createdAt": ts(rng),
        "authorID": AUTHORS[i % len(AUTHORS)],
    }
    if i % IMAGE_EVERY == 1:
        r["imageData"] = base64.b64encode(tiny_png(i)).decode()
    r["cuisine"] = cuisine
    d = DIFFICULTY_TEXT[i % len(DIFFICULTY_TEXT)]
    if d is not None:
        r["difficulty"] = d
    r["prepTime"] = 5 + (i * 7) % 40
    if i % 5 != 3:
        r["cookTime"] = 10 + (i * 11) % 80
    r["servings"] = 2 + i % 6
    diet = DIETS[i % len(DIETS)]
    if diet is not None:
        r["dietaryNotes"] = diet
    r["isPublic"] = i % 3 == 0
    r["syncStatus"] = ["synced", "synced", "pending", "failed"][i % 4]
    return r

def recipe_v2(i, rng):
    r1 = recipe_v1(i + 7, rng)
    r = {"id": r1["id"].lower(), "title": r1["title"], "ingredients": r1["ingredients"], "instructions": r1["instructions"],
         "createdAt": r1["createdAt"], "updatedAt": r1["createdAt"].replace("2023", "2024"), "ownerID": r1["authorID"]}
    if i % 5 == 2:
        r["imageRef"] = "images/%s.jpg" % r["id"]
    r["cuisine"] = r1["cuisine"]
    r["difficulty"] = ["easy", "medium", "hard"][i % 3]
    for k in ("prepTime", "cookTime", "servings", "dietaryNotes"):
        if k in r1:
            r[k] = r1[k]
    r["isPublic"] = r1["isPublic"]
    r["isDeleted"] = False
    r["recordName"] = "Recipe-" + r["id"]
    if i % 4 == 0:
        r["changeTag"] = "ct%05x" % rng.getrandbits(20)
    if i % 10 == 9:  # a minimal tombstone (seed 003)
        return {"id": r["id"], "isDeleted": True, "deletedAt": "2024-05-%02dT09:30:00Z" % (i % 28 + 1), "updatedAt": "2024-05-%02dT09:30:00Z" % (i % 28 + 1), "recordName": r["recordName"]}
    return r

TASTES = ["balanced", "tooBitter", "sweet", "tooSour", None, "tooWeak", "flat", "tooStrong", "astringent"]
GRINDS = ["medium", "mediumFine", "fine", "medium", "mediumCoarse"]
def brewlog_v1(i, rng):
    names = ["V60 Starter", "Bright Kenyan V60", "Chemex Sunday", "AeroPress Inverted", "Kalita 20g"]
    methods = ["v60", "v60", "chemex", "aeropress", "kalitaWave"]
    dose = [15, 15, 30, 17, 20][i % 5]
    r = {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "method": methods[i % 5], "recipeNameAtBrew": names[i % 5],
         "doseGrams": dose, "targetYieldGrams": round(dose * 16.7), "waterTemperatureCelsius": [94, 96, 93, 85, 92][i % 5],
         "grindLabel": GRINDS[i % 5], "rating": 1 + (i * 3) % 5}
    tag = TASTES[i % len(TASTES)]
    if tag:
        r["tasteTag"] = tag
    if i % 3 == 0:
        r["note"] = ["Great balance", "A bit thin, grind finer next time", "Juicy and sweet", "Stalled drawdown", "Too hot, try 92°C"][i % 5]
    r["createdAt"] = ts(rng, 2024)
    if i % 5 == 0:
        r["recipeID"] = "starter-v60"
    r["isCloudEnabled"] = i % 7 != 6
    r["isDeleted"] = False
    return r

def main():
    kind, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    ndjson = "--ndjson" in sys.argv
    global IMAGE_EVERY
    if "--image-every" in sys.argv:
        IMAGE_EVERY = int(sys.argv[sys.argv.index("--image-every") + 1])
    rng = random.Random(20240301)
    make, schema, version = {"recipe-v1": (recipe_v1, "recipe", 1), "recipe-v2": (recipe_v2, "recipe", 2),
                             "brewlog-v1": (brewlog_v1, "brewLog", 1)}[kind]
    with open(out, "w", encoding="utf-8") as f:
        if ndjson:
            for i in range(count):
                f.write(json.dumps(make(i, rng), ensure_ascii=False) + "\n")
            return
        pretty = count <= 100
        f.write('{"schema": "%s", "version": %d, "records": [\n' % (schema, version))
        for i in range(count):
            text = json.dumps(make(i, rng), ensure_ascii=False, indent=2 if pretty else None)
            if pretty:
                text = "\n".join("  " + line for line in text.split("\n"))
            f.write(text + (",\n" if i + 1 < count else "\n"))
        f.write("]}\n")

main()
