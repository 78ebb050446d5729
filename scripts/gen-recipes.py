#!/usr/bin/env python3
"""Writes N deterministic synthetic recipes (Recipe v3 shape) as a JSON array: gen-recipes.py N OUT."""
import json, random, sys

def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(20240301)
    items = ["spaghetti", "eggs", "pecorino romano", "guanciale", "black pepper", "olive oil", "garlic", "onion",
             "crème fraîche", "tomatoes", "basil", "salt", "butter", "flour", "milk", "sugar", "jalapeño", "味噌", "tofu"]
    units = ["g", "ml", "tbsp", "tsp", "cup", None]
    verbs = ["Boil", "Chop", "Whisk", "Fry", "Simmer", "Season", "Bake", "Rest", "Stir", "Serve"]
    cuisines = ["Italian", "French", "Japanese", "Mexican", "Indian", "Thai", None]
    tags = ["quick", "vegetarian", "no", "yes", "spicy", "comfort", "weeknight", "2024-01-01", "on"]
    with open(out, "w", encoding="utf-8") as f:
        f.write("[")
        for i in range(n):
            ingredients = []
            for _ in range(rng.randint(5, 10)):
                q = rng.choice([1, 2, 0.5, 200, 15.0, 1.25, 3])
                u = rng.choice(units)
                item = rng.choice(items)
                ing = {"quantity": q, "item": item, "original": f"{q} {u or ''} {item}".replace("  ", " ")}
                if u: ing["unit"] = u
                ingredients.append(ing)
            steps = []
            for s in range(rng.randint(4, 8)):
                step = {"text": f"{rng.choice(verbs)} the {rng.choice(items)} for {rng.randint(1, 20)} minutes, then {rng.choice(verbs).lower()} gently."}
                if rng.random() < 0.6: step["timerSeconds"] = rng.randint(30, 1800)
                steps.append(step)
            day = 1 + i % 28
            rec = {
                "id": f"recipe-{i:07d}", "title": f"{rng.choice(cuisines) or 'House'} {rng.choice(items)} #{i}",
                "ingredients": ingredients, "instructions": steps,
                "createdAt": f"2024-02-{day:02d}T08:00:00Z", "updatedAt": f"2024-03-{day:02d}T09:30:00Z",
                "ownerID": f"user-{rng.randint(1, 5000)}", "cuisine": rng.choice(cuisines),
                "difficulty": rng.choice(["easy", "medium", "hard"]), "prepTime": rng.randint(0, 60),
                "cookTime": rng.randint(0, 240), "servings": rng.randint(1, 8), "dietaryNotes": [],
                "tags": rng.sample(tags, rng.randint(0, 3)), "isPublic": rng.random() < 0.5,
                "sourceURL": f"https://example.com/r/{i}", "isSaved": False, "isCreated": True, "isFavorited": rng.random() < 0.1,
                "recordName": f"rec-{i}", "isCloudEnabled": True, "changeTag": f"ct{rng.randint(1, 10**9)}",
            }
            if rec["cuisine"] is None: del rec["cuisine"]
            f.write(("," if i else "") + "\n" + json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
        f.write("\n]\n")

main()
