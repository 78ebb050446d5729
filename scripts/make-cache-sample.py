#!/usr/bin/env python3
"""Writes samples/cache/recipe-cache.json: a SnapChef-style recipe cache (seed 000) for the
maintenance demo and tests. Four of the user's own recipes (saved or created, from
samples/recipes.json) are pinned; ten recipes from other users' public feeds were fetched and
read at various times. With --now 2024-03-01T08:20:00Z and the 30-minute TTL, four public
entries are expired."""
import json, uuid, pathlib

root = pathlib.Path(__file__).resolve().parent.parent
own = {r["title"]: r for r in json.load(open(root / "samples/recipes.json"))["records"]}

def public(n, title, cuisine, ingredients, steps, prep, cook, servings, owner):
    rid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"larder-sample-cache/{title}"))
    return {
        "id": rid, "title": title,
        "ingredients": [{"item": i.split(" ", 2)[-1] if i[0].isdigit() else i, "original": i} for i in ingredients],
        "instructions": [{"text": s} for s in steps],
        "createdAt": f"2024-02-{10 + n:02d}T12:00:00Z", "updatedAt": f"2024-02-{10 + n:02d}T12:00:00Z",
        "ownerID": owner, "cuisine": cuisine, "prepTime": prep, "cookTime": cook, "servings": servings,
        "dietaryNotes": [], "tags": [cuisine.lower()], "isPublic": True,
        "isSaved": False, "isCreated": False, "isFavorited": False,
    }

feed = [
    public(1, "Lemon Drizzle Cake", "British", ["225 g butter", "225 g caster sugar", "4 eggs", "225 g self-raising flour", "2 lemons"],
           ["Cream the butter and sugar.", "Beat in the eggs, fold in the flour and zest.", "Bake, then pour over the lemon syrup."], 20, 45, 10, "_3f9c1a"),
    public(2, "Chana Masala", "Indian", ["2 tins chickpeas", "1 onion", "3 tomatoes", "2 teaspoons garam masala", "1 thumb ginger"],
           ["Fry the onion and ginger.", "Add the spices and tomatoes.", "Simmer with the chickpeas for 20 minutes."], 10, 30, 4, "_8be210"),
    public(3, "Miso Ramen", "Japanese", ["2 portions ramen noodles", "1 litre chicken stock", "3 tablespoons white miso", "2 eggs", "2 spring onions"],
           ["Soft-boil the eggs.", "Whisk the miso into the hot stock.", "Cook the noodles and assemble."], 15, 15, 2, "_c0ffee"),
    public(4, "Caprese Salad", "Italian", ["3 tomatoes", "1 ball mozzarella", "1 handful basil", "2 tablespoons olive oil"],
           ["Slice the tomatoes and mozzarella.", "Layer with basil and dress with oil."], 10, 0, 2, "_3f9c1a"),
    public(5, "Beef Rendang", "Indonesian", ["1 kg beef shin", "400 ml coconut milk", "2 stalks lemongrass", "5 shallots", "1 tablespoon tamarind"],
           ["Blend the spice paste.", "Brown the beef in the paste.", "Simmer in coconut milk until dry, about 3 hours."], 30, 180, 6, "_77aa01"),
    public(6, "Cinnamon Rolls", "American", ["500 g strong flour", "7 g dried yeast", "80 g butter", "2 tablespoons cinnamon", "100 g brown sugar"],
           ["Make and prove the dough.", "Roll out, fill, roll up and slice.", "Prove again and bake."], 40, 25, 12, "_8be210"),
    public(7, "Tom Yum Soup", "Thai", ["300 g prawns", "1 litre stock", "3 lime leaves", "2 tablespoons fish sauce", "1 lime"],
           ["Infuse the stock with the aromatics.", "Poach the prawns.", "Season with fish sauce and lime."], 15, 15, 4, "_c0ffee"),
    public(8, "Spanakopita", "Greek", ["500 g spinach", "200 g feta", "1 pack filo pastry", "2 eggs", "50 g butter"],
           ["Wilt and squeeze the spinach.", "Mix with feta and eggs.", "Layer in buttered filo and bake."], 25, 40, 6, "_77aa01"),
    public(9, "Huevos Rancheros", "Mexican", ["4 eggs", "4 corn tortillas", "1 tin black beans", "1 jar salsa roja"],
           ["Warm the beans and salsa.", "Fry the eggs and tortillas.", "Assemble and serve."], 10, 15, 2, "_3f9c1a"),
    public(10, "Ratatouille", "French", ["1 aubergine", "2 courgettes", "1 red pepper", "4 tomatoes", "3 cloves garlic"],
           ["Cook each vegetable separately.", "Combine with the tomatoes and garlic.", "Simmer gently for 30 minutes."], 20, 45, 4, "_8be210"),
]

# (fetchedAt, lastAccess, hits) per entry; times on 2024-03-01.
pinned_titles = ["Spaghetti Carbonara", "Chicken Tikka Masala", "Shakshuka", "Greek Salad"]
times = {
    "Spaghetti Carbonara": ("07:10", "08:15", 14), "Chicken Tikka Masala": ("07:10", "07:30", 6),
    "Shakshuka": ("08:00", "08:05", 3), "Greek Salad": ("07:10", None, 0),
    "Lemon Drizzle Cake": ("07:10", "07:20", 2), "Chana Masala": ("07:10", "07:45", 5),
    "Miso Ramen": ("07:40", "07:42", 1), "Caprese Salad": ("07:45", None, 0),
    "Beef Rendang": ("08:00", "08:02", 1), "Cinnamon Rolls": ("08:00", "08:18", 4),
    "Tom Yum Soup": ("08:00", "08:10", 2), "Spanakopita": ("08:00", "08:10", 1),
    "Huevos Rancheros": ("08:00", "08:12", 3), "Ratatouille": ("08:00", None, 0),
}
entries = []
for recipe in [own[t] for t in pinned_titles] + feed:
    fetched, access, hits = times[recipe["title"]]
    entry = {"id": recipe["id"], "fetchedAt": f"2024-03-01T{fetched}:00Z"}
    if access: entry["lastAccess"] = f"2024-03-01T{access}:00Z"
    entry["hits"] = hits
    entry["recipe"] = recipe
    entries.append(entry)

cache = {
    "cache": "cloudkit_local_recipe_cache_v1",
    "fetchedAt": "2024-03-01T08:00:00Z",
    "ttlSeconds": 1800,
    "stats": {"hits": sum(times[t][2] for t in times), "misses": 9},
    "pinned": {"saved": [own["Chicken Tikka Masala"]["id"], own["Greek Salad"]["id"]],
               "created": [own["Spaghetti Carbonara"]["id"], own["Shakshuka"]["id"]]},
    "records": entries,
}
out = root / "samples/cache/recipe-cache.json"
out.write_text(json.dumps(cache, indent=2, ensure_ascii=False) + "\n")
print(f"wrote {out} ({len(entries)} entries)")
