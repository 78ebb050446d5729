#!/usr/bin/env python3
"""Writes N synthetic recipes as a JSON array (deterministic: seeded), for scripts/bench-xml.sh.

Usage: bench-xml-data.py N OUT.json
Every record is a valid `recipe` (schema v3), about 1.2 KB of JSON, with nested ingredients and
instructions, lists of strings, integers, doubles (integral and not), booleans and unicode text.
"""
import json
import random
import sys

WORDS = ("salt pepper garlic onion butter flour sugar egg milk cream basil thyme lemon olive oil "
         "tomato rice pasta chicken beef tofu ginger chili cumin paprika honey vinegar parsley "
         "crème brûlée jalapeño façon smörgås").split()
UNITS = ["g", "kg", "ml", "l", "cup", "tbsp", "tsp", None]
CUISINES = ["Italian", "French", "Thai", "Mexican", "Japanese", "Indian", "Greek", None]


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def recipe(rng, i):
    ingredients = []
    for _ in range(rng.randint(3, 8)):
        quantity = rng.choice([1, 2, 3, 250, 0.5, 1.5, 15.0, 2.25])
        unit = rng.choice(UNITS)
        item = rng.choice(WORDS)
        ing = {"quantity": quantity}
        if unit:
            ing["unit"] = unit
        ing["item"] = item
        if rng.random() < 0.3:
            ing["note"] = "finely chopped"
        ing["original"] = f"{quantity} {unit or ''} {item}".replace("  ", " ")
        ingredients.append(ing)
    steps = []
    for _ in range(rng.randint(2, 6)):
        step = {"text": sentence(rng, rng.randint(6, 16))}
        if rng.random() < 0.4:
            step["timerSeconds"] = rng.randint(1, 60) * 30
        steps.append(step)
    day = 1 + i % 28
    r = {
        "id": f"r-{i:07d}",
        "title": sentence(rng, rng.randint(2, 5))[:-1],
        "ingredients": ingredients,
        "instructions": steps,
        "createdAt": f"2024-03-{day:02d}T08:{i % 60:02d}:00Z",
        "updatedAt": f"2024-04-{day:02d}T09:{i % 60:02d}:30Z",
        "ownerID": f"user-{i % 977}",
    }
    cuisine = rng.choice(CUISINES)
    if cuisine:
        r["cuisine"] = cuisine
    r["difficulty"] = rng.choice(["easy", "medium", "hard"])
    r["prepTime"] = rng.randint(0, 60)
    r["cookTime"] = rng.randint(0, 180)
    r["servings"] = rng.randint(1, 12)
    r["dietaryNotes"] = rng.sample(["vegetarian", "vegan", "gluten-free", "dairy-free"], rng.randint(0, 2))
    r["tags"] = rng.sample(["quick", "dinner", "lunch", "family", "spicy", "sweet", "weekend"], rng.randint(1, 3))
    r["isPublic"] = rng.random() < 0.5
    r["sourceURL"] = f"https://example.com/recipes/{i}"
    r["isSaved"] = rng.random() < 0.3
    r["isCreated"] = rng.random() < 0.5
    r["isFavorited"] = rng.random() < 0.2
    r["recordName"] = f"recipe-r-{i:07d}"
    r["isCloudEnabled"] = True
    r["isDeleted"] = False
    r["changeTag"] = f"ct{rng.randint(1, 10**9)}"
    return r


def main():
    count = int(sys.argv[1])
    rng = random.Random(42)
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write("[\n")
        for i in range(count):
            if i:
                out.write(",\n")
            out.write(json.dumps(recipe(rng, i), ensure_ascii=False, separators=(",", ":")))
        out.write("\n]\n")


if __name__ == "__main__":
    main()
