#!/usr/bin/env python3
"""Writes samples/{recipes,brew-recipes,brew-logs}.json: realistic records of the current
schema versions (recipe v4, brewRecipe v2, brewLog v4). The YAML and XML samples are made
from these by `larder convert` (scripts/make-samples.sh), so all three formats hold the same records."""
import json, hashlib, os, datetime

UNITS = {"g", "kg", "ml", "l", "cup", "tablespoon", "teaspoon", "clove", "can", "pinch", "oz", "lb", "slice", "sprig", "stick"}

def ident(kind, n):
    h = hashlib.sha256(f"{kind}-{n}".encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"

def ingredient(line):
    original = line
    note = None
    if ", " in line:
        line, note = line.split(", ", 1)
    parts = line.split(" ")
    q = None
    try:
        if "/" in parts[0]:
            a, b = parts[0].split("/"); q = float(a) / float(b)
        else:
            q = float(parts[0])
        parts = parts[1:]
    except ValueError:
        pass
    unit = None
    if q is not None and parts and parts[0].rstrip("s") in UNITS:
        unit = parts[0].rstrip("s") if parts[0] not in ("g", "kg", "ml", "l", "oz", "lb") else parts[0]
        parts = parts[1:]
    d = {}
    if q is not None: d["quantity"] = q
    if unit: d["unit"] = unit
    d["item"] = " ".join(parts)
    if note: d["note"] = note
    d["original"] = original
    return d

def ts(day, hour=9, minute=0):
    t = datetime.datetime(2024, 1, 1, hour, minute, tzinfo=datetime.timezone.utc) + datetime.timedelta(days=day)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")

RECIPES = [
 ("Spaghetti Carbonara", "Italian", "medium", 10, 15, 4, ["200 g spaghetti", "100 g guanciale, diced", "3 eggs", "50 g pecorino romano, finely grated", "1 teaspoon black pepper, freshly ground"], [("Boil the spaghetti in salted water until al dente.", 540), ("Crisp the guanciale in a dry pan over medium heat.", 300), ("Whisk the eggs with the pecorino and pepper.", None), ("Toss the pasta with the guanciale off the heat, then stir in the egg mixture with a splash of pasta water.", None)], ["dinner", "quick"], []),
 ("Chicken Tikka Masala", "Indian", "medium", 30, 40, 4, ["800 g chicken thighs, cut into chunks", "250 ml plain yogurt", "2 tablespoons garam masala", "1 can crushed tomatoes", "200 ml heavy cream", "4 cloves garlic, minced", "1 tablespoon ginger, grated"], [("Marinate the chicken in yogurt and half the spices for at least an hour.", 3600), ("Grill or broil the chicken until charred at the edges.", 600), ("Simmer garlic, ginger, remaining spices and tomatoes for 15 minutes.", 900), ("Stir in the cream and the chicken; simmer 10 minutes more.", 600)], ["dinner", "family"], ["gluten-free"]),
 ("Shakshuka", "Middle Eastern", "easy", 10, 25, 2, ["2 tablespoons olive oil", "1 yellow onion, thinly sliced", "1 red bell pepper, sliced", "2 cloves garlic, minced", "1 teaspoon cumin", "1 can whole tomatoes", "4 eggs", "1 pinch chili flakes"], [("Soften the onion and pepper in olive oil.", 480), ("Add garlic and spices, then the tomatoes; simmer until thick.", 600), ("Make four wells and crack in the eggs; cover and cook until the whites set.", 420)], ["breakfast", "quick"], ["vegetarian"]),
 ("Classic Banana Bread", "American", "easy", 15, 60, 8, ["3 ripe bananas, mashed", "75 g unsalted butter, melted", "150 g brown sugar", "1 egg, beaten", "1 teaspoon vanilla extract", "1 teaspoon baking soda", "190 g all-purpose flour", "1 pinch sea salt"], [("Heat the oven to 175 °C and butter a loaf tin.", None), ("Mix the bananas with butter, sugar, egg and vanilla.", None), ("Fold in the baking soda, salt and flour until just combined.", None), ("Bake until a skewer comes out clean.", 3600)], ["dessert", "baking"], ["vegetarian"]),
 ("Red Lentil Dal", "Indian", "easy", 10, 30, 4, ["250 g red lentils, rinsed", "1 l water", "1 teaspoon turmeric", "2 tablespoons ghee", "1 teaspoon cumin seeds", "1 yellow onion, finely chopped", "3 cloves garlic, sliced", "1 lime, juiced"], [("Simmer the lentils with water and turmeric until soft.", 1500), ("Fry the cumin seeds in ghee, then the onion and garlic until golden.", 480), ("Pour the tempering over the dal and finish with lime juice.", None)], ["dinner", "budget"], ["vegetarian", "gluten-free"]),
 ("Fish Tacos with Lime Slaw", "Mexican", "medium", 20, 10, 4, ["500 g white fish fillets", "1 tablespoon smoked paprika", "8 corn tortillas", "200 g red cabbage, shredded", "2 limes, juiced", "100 ml sour cream", "1 sprig cilantro, chopped"], [("Season the fish with paprika and salt.", None), ("Toss the cabbage with lime juice and a pinch of salt.", None), ("Sear the fish 3 minutes per side and flake it.", 360), ("Fill warm tortillas with fish, slaw and sour cream.", None)], ["dinner", "summer"], []),
 ("Mushroom Risotto", "Italian", "medium", 10, 35, 4, ["300 g arborio rice", "1 l vegetable stock, hot", "250 g mushrooms, sliced", "1 yellow onion, finely chopped", "120 ml dry white wine", "40 g parmesan cheese, grated", "30 g unsalted butter"], [("Sauté the mushrooms until browned; set aside.", 420), ("Soften the onion, toast the rice, then deglaze with wine.", 300), ("Add the stock a ladle at a time, stirring, until creamy.", 1200), ("Beat in butter, parmesan and the mushrooms.", None)], ["dinner", "comfort"], ["vegetarian"]),
 ("Pad Thai", "Thai", "medium", 20, 10, 2, ["200 g rice noodles", "2 tablespoons fish sauce", "2 tablespoons tamarind paste", "1 tablespoon palm sugar", "150 g shrimp, peeled", "2 eggs", "100 g bean sprouts", "40 g roasted peanuts, chopped"], [("Soak the noodles in warm water until pliable.", 1200), ("Stir together fish sauce, tamarind and sugar.", None), ("Stir-fry the shrimp, push aside and scramble the eggs.", 180), ("Add noodles and sauce, toss until glossy, then the sprouts and peanuts.", 180)], ["dinner", "quick"], ["dairy-free"]),
 ("Beef and Guinness Stew", "Irish", "medium", 25, 150, 6, ["1 kg beef chuck, cubed", "2 tablespoons all-purpose flour", "440 ml stout", "500 ml beef stock", "3 carrots, chunked", "2 celery stalks, sliced", "2 sprigs thyme", "2 bay leaves"], [("Dust the beef in flour and brown it in batches.", 900), ("Add the vegetables, stout, stock and herbs.", None), ("Cover and simmer gently until the beef is tender.", 9000)], ["dinner", "comfort"], ["dairy-free"]),
 ("Greek Salad", "Greek", "easy", 15, 0, 4, ["4 tomatoes, cut into wedges", "1 cucumber, sliced", "1 red onion, thinly sliced", "100 g kalamata olives", "200 g feta cheese", "3 tablespoons olive oil", "1 teaspoon dried oregano"], [("Combine the vegetables and olives in a wide bowl.", None), ("Top with the feta, oil and oregano.", None)], ["summer", "quick"], ["vegetarian", "gluten-free"]),
 ("Buttermilk Pancakes", "American", "easy", 10, 20, 4, ["250 g all-purpose flour", "2 tablespoons sugar", "2 teaspoons baking powder", "1 teaspoon baking soda", "500 ml buttermilk", "2 eggs", "40 g unsalted butter, melted"], [("Whisk the dry ingredients together.", None), ("Whisk the buttermilk, eggs and butter, then fold into the dry mix; leave lumps.", None), ("Cook ladlefuls on a buttered griddle until bubbles form, then flip.", 240)], ["breakfast", "family"], ["vegetarian"]),
 ("Minestrone", "Italian", "easy", 20, 40, 6, ["2 tablespoons olive oil", "1 yellow onion, diced", "2 carrots, diced", "2 celery stalks, diced", "1 zucchini, diced", "1 can cannellini beans, drained and rinsed", "1 can chopped tomatoes", "1.5 l vegetable stock", "100 g small pasta"], [("Sweat the onion, carrot and celery in olive oil.", 600), ("Add the zucchini, beans, tomatoes and stock; simmer.", 1200), ("Add the pasta and cook until tender.", 600)], ["dinner", "budget", "meal-prep"], ["vegan"]),
 ("Bibimbap", "Korean", "medium", 30, 20, 2, ["300 g cooked short-grain rice", "150 g spinach", "1 carrot, julienned", "100 g bean sprouts", "150 g beef sirloin, thinly sliced", "2 eggs", "2 tablespoons gochujang", "1 teaspoon sesame oil"], [("Blanch and season each vegetable separately.", 300), ("Sear the beef quickly in a hot pan.", 120), ("Fry the eggs sunny side up.", 180), ("Arrange everything over the rice with gochujang and sesame oil.", None)], ["dinner"], ["dairy-free"]),
 ("Tiramisu", "Italian", "medium", 30, 0, 8, ["4 eggs, separated", "100 g sugar", "500 g mascarpone", "300 ml strong coffee, cooled", "200 g ladyfingers", "2 tablespoons cocoa powder"], [("Beat the yolks with sugar, then the mascarpone.", None), ("Whip the whites to soft peaks and fold them in.", None), ("Dip the ladyfingers in coffee and layer with the cream.", None), ("Chill overnight and dust with cocoa.", 28800)], ["dessert", "holiday"], ["vegetarian"]),
 ("Vegetable Paella", "Spanish", "hard", 20, 45, 6, ["4 tablespoons olive oil", "1 red bell pepper, sliced", "200 g green beans", "1 can artichoke hearts", "350 g bomba rice", "1 pinch saffron", "1 teaspoon smoked paprika", "1 l vegetable stock, hot"], [("Fry the vegetables in the paella pan.", 480), ("Add the rice, paprika and saffron and coat in oil.", 60), ("Pour in the stock, spread evenly and do not stir again.", None), ("Cook until the liquid is absorbed and a socarrat forms.", 1200)], ["dinner", "holiday"], ["vegan", "gluten-free"]),
 ("Falafel Wraps", "Middle Eastern", "medium", 30, 15, 4, ["400 g dried chickpeas, soaked overnight", "1 yellow onion, quartered", "3 cloves garlic", "1 sprig parsley", "2 teaspoons cumin", "4 flatbreads", "4 tablespoons tahini", "1 lemon, juiced"], [("Pulse the chickpeas, onion, garlic, herbs and spices to a coarse paste.", None), ("Shape into balls and deep-fry until deep golden.", 240), ("Whisk tahini with lemon and water to a sauce.", None), ("Wrap the falafel with salad and sauce.", None)], ["dinner", "meal-prep"], ["vegan"]),
 ("Butter Chicken", "Indian", "medium", 20, 35, 4, ["700 g chicken thighs, cubed", "120 ml plain yogurt", "60 g unsalted butter", "1 can tomato passata", "150 ml heavy cream", "1 tablespoon garam masala", "1 teaspoon kashmiri chili"], [("Marinate the chicken in yogurt and spices.", 1800), ("Sear the chicken in half the butter.", 480), ("Simmer the passata with the rest of the butter, then add cream and chicken.", 900)], ["dinner", "family"], ["gluten-free"]),
 ("Gazpacho", "Spanish", "easy", 20, 0, 4, ["1 kg ripe tomatoes, chopped", "1 cucumber, peeled", "1 green bell pepper, seeded", "1 clove garlic", "60 ml olive oil", "2 tablespoons sherry vinegar", "1 slice stale bread"], [("Blend everything until very smooth.", None), ("Season and chill for at least two hours.", 7200)], ["summer", "quick"], ["vegan"]),
 ("Quiche Lorraine", "French", "hard", 30, 45, 6, ["1 sheet shortcrust pastry", "200 g bacon lardons", "3 eggs", "300 ml heavy cream", "100 g gruyère, grated", "1 pinch nutmeg"], [("Blind-bake the pastry case.", 900), ("Crisp the lardons and scatter them over the base.", 420), ("Whisk eggs, cream, cheese and nutmeg; pour in.", None), ("Bake until just set with a slight wobble.", 1800)], ["brunch"], []),
 ("Chicken Pho", "Vietnamese", "hard", 30, 120, 6, ["1.5 kg chicken, whole", "1 yellow onion, halved and charred", "1 ginger knob, charred", "3 star anise", "1 stick cinnamon", "3 tablespoons fish sauce", "400 g flat rice noodles", "1 sprig thai basil"], [("Simmer the chicken with the charred aromatics and spices.", 5400), ("Strain the broth and season with fish sauce.", None), ("Shred the chicken and serve over noodles with hot broth and herbs.", None)], ["dinner", "comfort"], ["dairy-free", "gluten-free"]),
 ("Focaccia", "Italian", "medium", 20, 25, 8, ["500 g bread flour", "400 ml water, lukewarm", "7 g instant yeast", "10 g sea salt", "80 ml olive oil", "1 sprig rosemary"], [("Mix flour, water, yeast and salt into a wet dough.", None), ("Fold the dough every 30 minutes for two hours.", 7200), ("Spread in an oiled tray, dimple, top with rosemary and salt.", None), ("Bake at 230 °C until golden.", 1500)], ["baking"], ["vegan"]),
 ("Apple Crumble", "British", "easy", 20, 40, 6, ["6 apples, peeled and sliced", "50 g sugar", "1 teaspoon cinnamon", "150 g all-purpose flour", "100 g cold butter, cubed", "75 g brown sugar", "50 g rolled oats"], [("Toss the apples with sugar and cinnamon in a baking dish.", None), ("Rub the butter into the flour, then stir in sugar and oats.", None), ("Scatter the crumble over the fruit and bake until bubbling.", 2400)], ["dessert", "family"], ["vegetarian"]),
]

COURSES = {"dinner": "Main course", "breakfast": "Breakfast", "dessert": "Dessert", "summer": "Salad"}

def v4_fields(n, title, cuisine, prep, cook, tags):
    """recipe v4's fields: lists always (as Larder writes them), the rest on some records."""
    v = {}
    if n % 3 == 0:
        v["description"] = f"{title}, the way we make it at home."
    v["notes"] = [{"title": "Make ahead", "text": "Keeps in the fridge for two days."}] if n % 5 == 2 else []
    if n % 4 == 0:
        v["nutrition"] = {"calories": f"{320 + n * 15} kcal", "fatContent": f"{8 + n} g", "proteinContent": f"{12 + n % 7} g",
                          "servingSize": "1 portion"}
    if n == 3:
        v["yield"] = {"quantity": 1.0, "unit": "loaf", "text": "1 loaf"}
    if n % 6 == 1:
        v["totalTime"] = prep + cook + 15
    if n % 4 == 1:
        v["author"] = {"name": "Example Kitchen", "url": "https://www.example-kitchen.com/about"}
        v["sourceName"] = "Example Kitchen"
    if n % 5 == 0:
        v["rating"] = {"value": 4.5, "scale": 5.0, "count": 12 + n}
    v["categories"] = ["Baking"] if "baking" in tags else []
    v["courses"] = sorted({COURSES[t] for t in tags if t in COURSES})
    v["cuisines"] = [cuisine] + (["Fusion"] if n == 8 else [])
    v["tools"] = ["Loaf tin"] if n == 3 else (["Wok"] if n == 7 else [])
    v["images"] = ([{"ref": f"images/{ident('recipe', n)}.jpg", "isPrimary": True},
                    {"url": f"https://www.example-kitchen.com/img/{n}.jpg", "isPrimary": False}] if n % 8 == 0 else [])
    v["language"] = "en"
    v["reviews"] = ["Made it twice, perfect both times."] if n % 7 == 0 else []
    if n == 1:
        v["extras"] = {"paprika": {"hash": "e3b0c44298fc1c14", "photo_hash": "none", "source": "example-kitchen.com"}}
    return v

def recipes():
    out = []
    for n, (title, cuisine, diff, prep, cook, servings, ings, steps, tags, diets) in enumerate(RECIPES):
        rid = ident("recipe", n)
        steps_v = []
        for text, timer in steps:
            s = {"text": text}
            if timer is not None: s["timerSeconds"] = timer
            steps_v.append(s)
        r = {"id": rid, "title": title, "ingredients": [ingredient(i) for i in ings], "instructions": steps_v,
             "createdAt": ts(n * 3, 18), "updatedAt": ts(n * 3 + 1, 20, 15), "ownerID": f"_user{n % 3 + 1}",
             "difficulty": diff, "prepTime": prep, "cookTime": cook, "servings": servings,
             "dietaryNotes": diets, "tags": tags, "isPublic": n % 3 == 0,
             "isSaved": n % 4 == 1, "isCreated": n % 4 != 1, "isFavorited": n % 5 == 0}
        if n % 2 == 0: r["imageRef"] = f"images/{rid}.jpg"
        if n % 4 == 1: r["sourceURL"] = f"https://www.example-kitchen.com/recipes/{title.lower().replace(' ', '-')}"
        r.update(v4_fields(n, title, cuisine, prep, cook, tags))
        r.update({"recordName": f"recipe-{rid}", "isCloudEnabled": n != 7, "isDeleted": False})
        if n == 3:
            # Ingredient and step sections.
            for i, ing in enumerate(r["ingredients"]):
                ing["group"] = "Batter" if i < 6 else "To finish"
            r["instructions"][1]["name"] = "Batter"
            r["instructions"][2]["name"] = "Batter"
        out.append(r)
    return out

METHODS = ["v60", "chemex", "kalitaWave", "aeropress", "frenchPress", "origami", "clever"]
COFFEES = ["Ethiopia Yirgacheffe", "Colombia Huila", "Kenya Nyeri AA", "Guatemala Antigua", "Brazil Cerrado", "Rwanda Nyamasheke", "Costa Rica Tarrazú"]

ROASTERS = ["Square Mile", "Tim Wendelboe", "La Cabra", "Onyx", "Friedhats"]
GRINDERS = [("Comandante C40", "24 clicks"), ("1Zpresso K-Ultra", "6.5"), ("Baratza Encore", "15")]

def bean(n):
    origin = COFFEES[n % len(COFFEES)]
    b = {"name": origin, "roaster": ROASTERS[n % len(ROASTERS)], "origin": origin.split(" ")[0],
         "process": ["washed", "natural", "honey"][n % 3], "roastLevel": ["light", "medium-light"][n % 2]}
    if n % 2 == 0: b["variety"] = ["Heirloom", "SL28, SL34", "Caturra", "Bourbon"][n % 4]
    if n % 3 == 0: b["roastDate"] = f"2024-0{1 + n % 6}-{10 + n % 15:02d}"
    return b

def brew_recipe_v2(n, bloom):
    v = {}
    if n % 2 == 0: v["brewTimeSeconds"] = 180 + 5 * n
    if n % 3 == 0: v["bean"] = bean(n)
    if n % 4 == 0:
        g = GRINDERS[n % len(GRINDERS)]
        v["grinder"] = {"name": g[0], "setting": g[1]}
    v["bloom"] = {"waterGrams": float(bloom), "seconds": 40}
    if n % 5 == 0: v["water"] = {"name": "Third Wave Water", "hardness": "68 ppm"}
    if n % 6 == 0: v["tds"] = 1.35
    if n % 6 == 0: v["extractionYield"] = 20.5
    v["photos"] = []
    return v

def brew_recipes():
    starter = {"id": "starter-v60", "name": "V60 Starter", "method": "v60", "isStarter": True, "origin": "starter",
               "doseGrams": 15.0, "targetYieldGrams": 250.0, "waterTemperatureCelsius": 94.0, "grindLabel": "medium",
               "steps": [
                 {"order": 1, "instruction": "Rinse the paper filter with hot water and discard the rinse water", "timerSeconds": 0},
                 {"order": 2, "instruction": "Add 15 g of coffee, ground medium (sand; slightly finer than sea salt)", "timerSeconds": 0},
                 {"order": 3, "instruction": "Bloom: pour 45 g of water and wait", "timerSeconds": 45, "waterGrams": 45.0},
                 {"order": 4, "instruction": "Pour to 150 g by 1:30", "timerSeconds": 45, "waterGrams": 105.0},
                 {"order": 5, "instruction": "Pour to 250 g by 2:15", "timerSeconds": 45, "waterGrams": 100.0},
                 {"order": 6, "instruction": "Let it draw down; finish between 3:00 and 3:30", "timerSeconds": 60}],
               "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-01T00:00:00Z",
               "brewTimeSeconds": 195, "bloom": {"waterGrams": 45.0, "seconds": 45}, "photos": [],
               "recordName": "brewRecipe-starter-v60", "isCloudEnabled": True, "isDeleted": False}
    out = [starter]
    for n in range(21):
        method = METHODS[n % len(METHODS)]
        dose = [12.0, 15.0, 18.0, 20.0, 22.0, 30.0][n % 6]
        ratio = [15, 16, 16.5, 17][n % 4]
        yld = round(dose * ratio)
        bloom = round(dose * 3)
        pours = [round((yld - bloom) / 2), yld - bloom - round((yld - bloom) / 2)]
        steps = [{"order": 1, "instruction": "Rinse the filter and preheat the brewer", "timerSeconds": 0},
                 {"order": 2, "instruction": f"Bloom with {bloom} g of water", "timerSeconds": 40, "waterGrams": float(bloom)},
                 {"order": 3, "instruction": f"Pour to {bloom + pours[0]} g in slow spirals", "timerSeconds": 45, "waterGrams": float(pours[0])},
                 {"order": 4, "instruction": f"Pour to {yld} g and swirl gently", "timerSeconds": 45, "waterGrams": float(pours[1])},
                 {"order": 5, "instruction": "Let it draw down", "timerSeconds": 75}]
        rid = ident("brew", n)
        out.append({"id": rid, "name": f"{COFFEES[n % len(COFFEES)]} {method} {int(dose)}g", "method": method,
                    "isStarter": False, "origin": "conflictedCopy" if n == 9 else "custom",
                    "doseGrams": dose, "targetYieldGrams": float(yld), "waterTemperatureCelsius": float(90 + n % 7),
                    "grindLabel": ["fine", "mediumFine", "medium", "mediumCoarse", "coarse"][n % 5], "steps": steps,
                    "createdAt": ts(n * 5, 7, 30), "updatedAt": ts(n * 5 + 2, 8), **brew_recipe_v2(n, bloom),
                    "recordName": f"brewRecipe-{rid}", "isCloudEnabled": True, "isDeleted": False})
    return out

NOTES = ["Bright and clean, a touch sour at the end", "Grind one step finer next time", "Sweet, syrupy body",
         "Drawdown stalled at 3:45 — too fine", "Great balance", "Too bitter; drop the temperature to 92 °C",
         "Juicy, notes of blueberry and jasmine", None, "Flat. Old beans?", "Lovely with a splash of milk"]
TASTES = [["balanced"], ["tooSour"], ["sweet"], ["tooBitter", "astringent"], ["balanced", "sweet"], [], ["tooWeak"], ["flat"]]

def brew_logs():
    out = []
    for n in range(24):
        lid = ident("log", n)
        dose = [15.0, 18.0, 20.0, 12.5][n % 4]
        log = {"id": lid, "method": METHODS[n % 3], "recipeNameAtBrew": "V60 Starter" if n % 3 == 0 else f"{COFFEES[n % len(COFFEES)]} {METHODS[n % 3]}",
               "doseGrams": dose, "targetYieldGrams": round(dose * 16.7), "waterTemperatureCelsius": float(92 + n % 4),
               "grindLabel": ["medium", "mediumFine", "fine", "mediumCoarse"][n % 4], "rating": 1 + (n * 7) % 5,
               "tasteTags": TASTES[n % len(TASTES)], "createdAt": ts(n * 2, 7, n % 60)}
        if n % 2 == 0: log["brewTimeSeconds"] = 180 + n * 3
        if NOTES[n % len(NOTES)]: log["note"] = NOTES[n % len(NOTES)]
        if n % 3 == 0: log["recipeID"] = "starter-v60"
        if n % 2 == 0: log["bean"] = bean(n)
        if n % 3 == 1:
            g = GRINDERS[n % len(GRINDERS)]
            log["grinder"] = {"name": g[0], "setting": g[1]}
        if n % 4 == 0: log["bloom"] = {"waterGrams": round(dose * 3, 1), "seconds": 40}
        if n % 5 == 0: log["water"] = {"name": "tap, filtered", "hardness": "4 dGH"}
        if n % 4 == 2:
            log["tds"] = round(1.2 + (n % 5) * 0.05, 2)
            log["extractionYield"] = round(19.0 + (n % 5) * 0.6, 1)
        log["photos"] = [f"images/brew-{lid}.jpg"] if n % 6 == 0 else []
        if n == 4: log["extras"] = {"beanconqueror": {"coffee_type": "filter", "mill_timer": "12 s"}}
        log.update({"recordName": f"brewLog-{lid}", "isCloudEnabled": True, "isDeleted": False})
        out.append(log)
    return out

def write(name, schema, version, records):
    path = os.path.join(os.path.dirname(__file__), "..", "samples", name)
    with open(path, "w") as f:
        json.dump({"schema": schema, "version": version, "records": records}, f, indent=2, ensure_ascii=False)
        f.write("\n")

write("recipes.json", "recipe", 4, recipes())
write("brew-recipes.json", "brewRecipe", 2, brew_recipes())
write("brew-logs.json", "brewLog", 4, brew_logs())
