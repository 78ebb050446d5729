#!/usr/bin/env python3
"""Writes samples/saved.json and samples/created.json: a user's saved and created recipe sets
as the app fetched them separately (seed 000), so the same recipes come back twice.

Built from samples/recipes.json (created recipes there go to the created set, saved ones to the
saved set) plus recipes written here. Overlaps of every kind `larder dedupe` handles:
  same id in both sets ........ Spaghetti Carbonara, Shakshuka (newer, 4 servings), Mushroom Risotto
  other id, title formatting .. CLASSIC BANANA BREAD, "red lentil dal."
  other id, reordered lines ... Pad Thai
  other id, reworded lines .... Beef and Guinness Stew (fuzzy)
  other id, added note ........ Minestrone
  other id, changed servings .. Focaccia (16 servings, doubled quantities)
  same source URL ............. Chicken Tikka Masala, Greek Salad (http://, no www, tracking, slash)
Near-misses that must stay apart:
  "Pancakes" (fluffy, saved) and "Pancakes" (potato, created): same title, different dish
  Crêpes (created) and Yorkshire Puddings (saved): same ingredients, different dish
Deterministic: running it again gives the same files."""
import copy, hashlib, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "samples")


def ident(name):
    h = hashlib.sha256(f"dedupe-sample-{name}".encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def ing(q, unit, item, note=None):
    parts = [] if q is None else [("%g" % q)]
    if unit: parts.append(unit)
    parts.append(item)
    line = " ".join(parts) + (f", {note}" if note else "")
    d = {}
    if q is not None: d["quantity"] = float(q)
    if unit: d["unit"] = unit
    d["item"] = item
    if note: d["note"] = note
    d["original"] = line
    return d


def recipe(name, title, ingredients, steps, day, cuisine, prep, cook, servings, tags, diets=(), url=None, owner="_user1", created=True):
    rid = ident(name)
    r = {"id": rid, "title": title, "ingredients": ingredients, "instructions": [{"text": s} for s in steps],
         "createdAt": f"2024-0{1 + day // 28}-{1 + day % 28:02d}T09:00:00Z", "updatedAt": f"2024-0{1 + day // 28}-{1 + day % 28:02d}T18:30:00Z",
         "ownerID": owner, "difficulty": "easy", "prepTime": prep, "cookTime": cook, "servings": servings,
         "dietaryNotes": list(diets), "tags": list(tags), "isPublic": False, "isSaved": not created, "isCreated": created,
         "isFavorited": False, "notes": [], "categories": [], "courses": [], "cuisines": [cuisine], "tools": [],
         "images": [], "reviews": [], "recordName": f"recipe-{rid}", "isCloudEnabled": True, "isDeleted": False}
    if url: r["sourceURL"] = url
    return r


EXTRA_SAVED = [
    recipe("pancakes-fluffy", "Pancakes",
           [ing(200, "g", "plain flour"), ing(2, "teaspoon", "baking powder"), ing(1, "tablespoon", "caster sugar"), ing(2, None, "eggs"),
            ing(300, "ml", "milk"), ing(30, "g", "butter", "melted"), ing(1, "pinch", "salt")],
           ["Whisk the dry ingredients.", "Beat in the eggs, milk and butter to a thick batter.", "Cook ladlefuls in a hot pan, flipping once."],
           3, "American", 10, 15, 4, ["breakfast"], ["vegetarian"], owner="_friend7", created=False),
    recipe("yorkshire", "Yorkshire Puddings",
           [ing(140, "g", "plain flour"), ing(4, None, "eggs"), ing(200, "ml", "milk"), ing(2, "tablespoon", "sunflower oil"), ing(1, "pinch", "salt")],
           ["Heat the oven to 230 °C with oil in a muffin tin.", "Whisk flour, eggs, milk and salt to a smooth batter.",
            "Pour into the smoking-hot tin and bake without opening the door for 20 minutes."],
           5, "British", 10, 25, 8, ["sunday lunch"], ["vegetarian"], owner="_friend2", created=False),
    recipe("cookies", "Chocolate Chip Cookies",
           [ing(225, "g", "unsalted butter", "softened"), ing(200, "g", "brown sugar"), ing(100, "g", "caster sugar"), ing(2, None, "eggs"),
            ing(1, "teaspoon", "vanilla extract"), ing(350, "g", "plain flour"), ing(1, "teaspoon", "baking soda"), ing(300, "g", "chocolate chips")],
           ["Cream the butter and sugars.", "Beat in the eggs and vanilla.", "Mix in the flour and soda, then the chips.", "Bake at 180 °C for 11 minutes."],
           8, "American", 20, 11, 24, ["baking"], ["vegetarian"], url="https://www.bakingpages.example/cookies/chocolate-chip", owner="_friend3", created=False),
    recipe("lemon-drizzle", "Lemon Drizzle Cake",
           [ing(225, "g", "butter", "softened"), ing(225, "g", "caster sugar"), ing(4, None, "eggs"), ing(225, "g", "self-raising flour"),
            ing(2, None, "lemons", "zested and juiced"), ing(85, "g", "granulated sugar")],
           ["Beat butter and sugar until pale.", "Beat in the eggs, fold in the flour and zest.", "Bake for 45 minutes.", "Pour over the lemon juice and sugar while warm."],
           11, "British", 15, 45, 10, ["baking", "tea time"], ["vegetarian"], owner="_friend3", created=False),
    recipe("green-curry", "Thai Green Curry",
           [ing(2, "tablespoon", "green curry paste"), ing(400, "ml", "coconut milk"), ing(500, "g", "chicken thighs", "sliced"),
            ing(1, "tablespoon", "fish sauce"), ing(1, "teaspoon", "palm sugar"), ing(100, "g", "green beans"), ing(1, "handful", "thai basil")],
           ["Fry the paste in a little coconut cream until fragrant.", "Add the chicken and the rest of the coconut milk.",
            "Simmer with the beans for 10 minutes; season with fish sauce and sugar.", "Finish with basil."],
           14, "Thai", 15, 20, 4, ["dinner"], ["dairy-free"], url="https://www.thaifood.example/green-curry", owner="_friend5", created=False),
    recipe("caesar", "Caesar Salad",
           [ing(1, "head", "romaine lettuce"), ing(2, "slice", "sourdough", "cubed"), ing(4, None, "anchovy fillets"), ing(1, None, "egg yolk"),
            ing(1, "clove", "garlic"), ing(40, "g", "parmesan", "grated"), ing(100, "ml", "olive oil")],
           ["Toast the bread cubes into croutons.", "Blend anchovy, yolk, garlic and parmesan, then stream in the oil.", "Toss the leaves with dressing and croutons."],
           17, "American", 20, 10, 2, ["lunch"], [], owner="_friend5", created=False),
    recipe("onion-soup", "French Onion Soup",
           [ing(1, "kg", "onions", "thinly sliced"), ing(50, "g", "butter"), ing(1, "l", "beef stock"), ing(150, "ml", "dry white wine"),
            ing(1, None, "baguette"), ing(150, "g", "gruyère", "grated")],
           ["Cook the onions in butter very slowly until deep brown, about an hour.", "Add wine and stock and simmer for 20 minutes.",
            "Ladle into bowls, top with toasted baguette and cheese, and grill until bubbling."],
           20, "French", 15, 90, 4, ["winter"], [], owner="_friend9", created=False),
    recipe("guacamole", "Guacamole",
           [ing(3, None, "avocados"), ing(1, None, "lime", "juiced"), ing(0.5, None, "red onion", "finely chopped"), ing(1, None, "jalapeño", "minced"),
            ing(1, "handful", "cilantro", "chopped"), ing(1, "pinch", "salt")],
           ["Mash the avocados with lime juice and salt.", "Fold in the onion, chilli and cilantro."],
           22, "Mexican", 10, 0, 4, ["snack", "party"], ["vegan"], owner="_friend2", created=False),
    recipe("hummus", "Hummus",
           [ing(400, "g", "chickpeas", "drained"), ing(3, "tablespoon", "tahini"), ing(1, None, "lemon", "juiced"), ing(1, "clove", "garlic"),
            ing(3, "tablespoon", "olive oil"), ing(1, "teaspoon", "ground cumin")],
           ["Blend everything with a splash of ice water until very smooth.", "Season and drizzle with oil."],
           24, "Middle Eastern", 10, 0, 6, ["snack"], ["vegan"], owner="_friend2", created=False),
]

EXTRA_CREATED = [
    recipe("pancakes-potato", "Pancakes",
           [ing(600, "g", "floury potatoes", "grated"), ing(1, None, "onion", "grated"), ing(1, None, "egg"), ing(2, "tablespoon", "plain flour"),
            ing(4, "tablespoon", "vegetable oil"), ing(100, "g", "sour cream"), ing(1, "tablespoon", "chives", "snipped")],
           ["Squeeze the grated potato and onion dry in a tea towel.", "Mix with egg, flour and salt.",
            "Fry spoonfuls in hot oil until crisp on both sides.", "Serve with sour cream and chives."],
           4, "Polish", 20, 20, 4, ["side"], ["vegetarian"]),
    recipe("crepes", "French Crêpes",
           [ing(125, "g", "plain flour"), ing(2, None, "eggs"), ing(300, "ml", "milk"), ing(1, "tablespoon", "sunflower oil"), ing(1, "pinch", "salt")],
           ["Whisk flour, eggs, milk and salt to a thin batter and rest it for 30 minutes.",
            "Wipe a hot pan with oil, pour in a ladle of batter and tilt to coat.", "Cook for a minute a side."],
           6, "French", 10, 20, 6, ["breakfast", "dessert"], ["vegetarian"]),
    recipe("chili", "Chili con Carne",
           [ing(500, "g", "minced beef"), ing(1, None, "onion", "chopped"), ing(2, "clove", "garlic"), ing(2, "teaspoon", "chili powder"),
            ing(1, "teaspoon", "ground cumin"), ing(400, "g", "chopped tomatoes"), ing(400, "g", "kidney beans", "drained")],
           ["Brown the beef with the onion and garlic.", "Stir in the spices, tomatoes and beans.", "Simmer for 45 minutes."],
           9, "Tex-Mex", 15, 50, 6, ["dinner", "batch cooking"], ["gluten-free"]),
    recipe("porridge", "Apple Cinnamon Porridge",
           [ing(80, "g", "rolled oats"), ing(300, "ml", "milk"), ing(1, None, "apple", "grated"), ing(0.5, "teaspoon", "cinnamon"), ing(1, "tablespoon", "maple syrup")],
           ["Simmer the oats in the milk for 5 minutes, stirring.", "Stir in the apple and cinnamon.", "Serve with maple syrup."],
           12, "British", 5, 5, 2, ["breakfast"], ["vegetarian"]),
]


def by_title(records, title):
    return next(r for r in records if r["title"] == title)


def main():
    base = json.load(open(os.path.join(SAMPLES, "recipes.json")))["records"]
    created = [copy.deepcopy(r) for r in base if r["isCreated"]]
    saved = [copy.deepcopy(r) for r in base if r["isSaved"]]

    # The same record fetched from both sets (same id): the saved copy is favorited or newer.
    for title, change in [("Spaghetti Carbonara", {"isFavorited": True}),
                          ("Shakshuka", {"servings": 4, "updatedAt": "2024-06-02T08:00:00Z", "tags": ["breakfast", "brunch"]}),
                          ("Mushroom Risotto", {})]:
        r = copy.deepcopy(by_title(created, title))
        r.update({"isSaved": True, "isCreated": False})
        r.update(change)
        saved.append(r)

    def saved_copy(title, name, edit):
        r = copy.deepcopy(by_title(created, title))
        r["id"] = ident(name)
        r["recordName"] = f"recipe-{r['id']}"
        r.update({"isSaved": True, "isCreated": False, "ownerID": "_friend4"})
        edit(r)
        saved.append(r)

    saved_copy("Classic Banana Bread", "banana-upper", lambda r: r.update(title="CLASSIC BANANA BREAD"))
    saved_copy("Red Lentil Dal", "dal-lower", lambda r: r.update(title="  red lentil dal. "))
    saved_copy("Pad Thai", "pad-thai-reordered", lambda r: r.update(ingredients=list(reversed(r["ingredients"]))))

    def reword(r):
        lines = r["ingredients"]
        lines[0] = ing(1, "kg", "stewing beef", "in chunks")
        lines[2] = ing(440, "ml", "guinness")
        lines[3] = ing(500, "ml", "beef broth")
        r["updatedAt"] = "2024-05-20T10:00:00Z"
    saved_copy("Beef and Guinness Stew", "stew-reworded", reword)

    def note(r):
        r["ingredients"][5]["note"] = "or borlotti beans"
        r["ingredients"][5]["original"] += " (or borlotti beans)"
        r["instructions"].append({"text": "Note: even better the next day; loosen with a little stock when reheating."})
    saved_copy("Minestrone", "minestrone-note", note)

    def double(r):
        r["servings"] = 16
        for i in r["ingredients"]:
            if "quantity" in i:
                i["quantity"] *= 2
                i["original"] = ("%g " % i["quantity"]) + " ".join(i["original"].split(" ")[1:])
    saved_copy("Focaccia", "focaccia-double", double)

    # Saved recipes the user later also created (imported) from the same page: another id, the URL in another form.
    for title, url in [("Chicken Tikka Masala", "http://example-kitchen.com/recipes/chicken-tikka-masala?utm_source=instagram&utm_medium=social"),
                       ("Greek Salad", "https://www.example-kitchen.com/recipes/greek-salad/")]:
        r = copy.deepcopy(by_title(saved, title))
        r["id"] = ident("url-" + title)
        r["recordName"] = f"recipe-{r['id']}"
        r.update({"isSaved": False, "isCreated": True, "ownerID": "_user1", "sourceURL": url, "updatedAt": "2024-04-01T12:00:00Z"})
        r["title"] = r["title"] + " (from Example Kitchen)"
        created.append(r)

    saved += EXTRA_SAVED
    created += EXTRA_CREATED
    for name, records in [("saved.json", saved), ("created.json", created)]:
        with open(os.path.join(SAMPLES, name), "w") as f:
            json.dump({"schema": "recipe", "version": 4, "records": records}, f, indent=2, ensure_ascii=False)
            f.write("\n")
        print(f"samples/{name}: {len(records)} recipes")


main()
