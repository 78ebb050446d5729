#!/usr/bin/env python3
"""Builds the binary import samples in samples/import/ from recipes written for Larder.

Everything here was written for these samples (no third-party recipe text). Run it again to
rebuild the archives byte for byte: timestamps inside the archives are fixed.

  samples/import/sample.paprikarecipes   Paprika export: a zip of gzip-compressed JSON, one per recipe
  samples/import/Beanconqueror.zip       Beanconqueror backup: Beanconqueror.json + Beanconqueror_Brews_1.json
  samples/import/chowdown-master.zip     a Chowdown (Jekyll) site as GitHub's "Download ZIP" gives it
  samples/import/cookmate-backup.mcb     Cookmate (My CookBook) backup: the cookbook XML + images/
  samples/import/recettetek-backup.rtk   RecetteTek (My Recipe Box) backup: recipes.json + the photos
  samples/import/cookn-cookbook.zip      Cook'n cookbook export: temp_*.dsv tables + a photo
"""
import base64, gzip, io, json, os, struct, zipfile, zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples", "import")
FIXED = (2024, 3, 1, 8, 0, 0)


def tiny_png():
    """A 2x2 orange PNG, made here."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\xf0\x90\x30" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def tiny_jpeg():
    """A 1x1 greyscale JPEG (headers only), made here."""
    return bytes.fromhex(
        "ffd8ffe000104a46494600010101004800480000ffdb004300" + "ff" * 64
        + "c2000b080001000101011100ffc40014100100000000000000000000000000000000ffda0008010100013f10")


def paprika_recipe(uid, name, ingredients, directions, **extra):
    recipe = {
        "uid": uid, "name": name, "directions": "\n".join(directions), "servings": extra.get("servings", ""),
        "rating": extra.get("rating", 0), "difficulty": extra.get("difficulty", ""),
        "ingredients": "\n".join(ingredients), "notes": extra.get("notes", ""),
        "created": extra.get("created", "2024-02-10 18:30:00"), "image_url": None,
        "cook_time": extra.get("cook_time", ""), "prep_time": extra.get("prep_time", ""),
        "total_time": extra.get("total_time", ""), "source": extra.get("source", ""),
        "source_url": extra.get("source_url", ""), "hash": "", "photo_hash": None, "photos": [],
        "photo": None, "photo_large": None, "scale": None, "nutritional_info": "", "description": "",
        "categories": extra.get("categories", []), "photo_data": None,
    }
    if "photo" in extra:
        recipe["photo"] = uid + ".png"
        recipe["photo_data"] = base64.b64encode(extra["photo"]).decode()
    return recipe


def gz(data):
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as f:
        f.write(data)
    return buffer.getvalue()


def write_zip(path, entries):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, FIXED)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def paprika():
    recipes = [
        paprika_recipe(
            "5E0D7C1A-4F1B-4A57-9C2E-7A1D2B3C4D01", "Weeknight Red Lentil Soup",
            ["1 tbsp olive oil", "1 onion, diced", "2 carrots, diced", "2 cloves garlic, minced",
             "1 cup red lentils, rinsed", "4 cups vegetable stock", "½ tsp ground cumin", "Juice of ½ lemon"],
            ["Warm the oil in a large pot and soften the onion and carrots, about 8 minutes.",
             "Stir in the garlic and cumin for 1 minute.",
             "Add the lentils and stock, bring to a boil, then simmer 20 minutes until soft.",
             "Blend half the soup, stir it back in and finish with lemon juice."],
            servings="4 servings", prep_time="10 min", cook_time="30 min", difficulty="Easy",
            categories=["Soups", "Weeknight"], rating=4),
        paprika_recipe(
            "5E0D7C1A-4F1B-4A57-9C2E-7A1D2B3C4D02", "Buttermilk Pancakes",
            ["2 cups flour", "2 tbsp sugar", "2 tsp baking powder", "½ tsp baking soda", "½ tsp salt",
             "2 cups buttermilk", "2 eggs", "3 tbsp melted butter"],
            ["Whisk the dry ingredients in a bowl.", "Whisk the buttermilk, eggs and butter in another.",
             "Fold the wet into the dry until just combined; a few lumps are fine.",
             "Cook ¼-cup portions on a hot griddle until bubbles form, flip and cook 1 minute more."],
            servings="12 pancakes", prep_time="10 min", cook_time="20 min", categories=["Breakfast"],
            photo=tiny_png(), created="2024-01-20 09:15:00"),
        paprika_recipe(
            "5E0D7C1A-4F1B-4A57-9C2E-7A1D2B3C4D03", "Lemon Herb Roast Chicken",
            ["1 whole chicken (about 1.6 kg)", "2 lemons", "4 sprigs thyme", "2 tbsp butter, softened",
             "Salt and pepper"],
            ["Heat the oven to 220 °C.", "Rub the chicken with butter, salt and pepper; stuff with lemon and thyme.",
             "Roast 1 hour 10 minutes, until the juices run clear.", "Rest 10 minutes before carving."],
            servings="4", prep_time="15 min", cook_time="1 hr 10 min", difficulty="Medium",
            categories=["Dinner"], source="Larder test kitchen"),
    ]
    entries = [(r["name"] + ".paprikarecipe", gz(json.dumps(r, ensure_ascii=False).encode())) for r in recipes]
    write_zip(os.path.join(ROOT, "sample.paprikarecipes"), entries)


def beanconqueror():
    def config(uuid, ts):
        return {"uuid": uuid, "unix_timestamp": ts}
    beans = [
        {"name": "Kochere Washed", "roaster": "Sample Roasters", "config": config("bean-0001", 1706000000)},
        {"name": "Huila Decaf", "roaster": "Sample Roasters", "config": config("bean-0002", 1706100000)},
    ]
    preparations = [
        {"name": "V60 02", "type": "V60", "config": config("prep-v60", 1705000000)},
        {"name": "AeroPress", "type": "AEROPRESS", "config": config("prep-aero", 1705000001)},
    ]

    def brew(uuid, ts, prep, bean, dose, water, temp, rating, note="", bloom=0, time=0, grind="medium-fine"):
        return {"grind_size": grind, "grind_weight": dose, "method_of_preparation": prep, "mill": "mill-1",
                "bean": bean, "brew_temperature": temp, "brew_time": time, "brew_quantity": water,
                "brew_quantity_type": "GR", "note": note, "rating": rating, "coffee_blooming_time": bloom,
                "brew_beverage_quantity": 0, "attachments": [], "config": config(uuid, ts)}
    main_brews = [
        brew("brew-0001", 1706200000, "prep-v60", "bean-0001", 15, 250, 94, 4, "Bright, clean cup", 45, 195),
        brew("brew-0002", 1706286400, "prep-v60", "bean-0001", 15, 250, 93, 5, "Sweeter at 93 °C", 40, 185),
        brew("brew-0003", 1706372800, "prep-aero", "bean-0002", 17, 220, 85, 3, "", 0, 120, "fine"),
    ]
    extra_brews = [
        brew("brew-0004", 1706459200, "prep-aero", "bean-0002", 17, 220, 85, 4, "Inverted method", 0, 105, "fine"),
        brew("brew-0005", 1706545600, "prep-v60", "bean-0001", 16, 260, 94, 0, "Forgot to rate this one", 45, 200),
    ]
    main = {"BEANS": beans, "BREWS": main_brews, "MILL": [{"name": "Hand grinder", "config": config("mill-1", 1705000002)}],
            "PREPARATION": preparations, "SETTINGS": [{"brew_rating": 5}], "VERSION": []}
    write_zip(os.path.join(ROOT, "Beanconqueror.zip"), [
        ("Beanconqueror.json", json.dumps(main, ensure_ascii=False).encode()),
        ("Beanconqueror_Brews_1.json", json.dumps(extra_brews, ensure_ascii=False).encode()),
    ])


CHOWDOWN_STEW = """---

layout: recipe
title:  "Smoky Bean Stew"
image: smoky-bean-stew.png
imagecredit: https://example.com/photos/smoky-bean-stew
tags: mains, soups

ingredients:
- 2 tablespoons olive oil
- 1 onion, diced
- 2 cloves garlic
- 1 teaspoon smoked paprika
- 2 cans white beans, drained
- 1 quart vegetable broth
- Topping:
- 1/2 cup grated cheese

directions:
- Soften the onion and garlic in the oil
- Stir in the paprika, then the beans and broth
- Simmer for 20 minutes and serve with the cheese on top

---

A pot of beans that tastes of a campfire. Good the next day too.
"""

CHOWDOWN_ROLLS = """---

layout: recipe
title:  "Summer Rolls"
tags:
- sides
- vegetarian
preptime: PT30M
cooktime: PT5M
yield: 8 rolls
nutrition:
  calories: 120
  fatContent: 3
  sodiumContent: 240

components:
- Peanut Dipping Sauce

ingredients:
- 8 rice paper sheets
- 100 g rice noodles, cooked
- 1 carrot, cut into matchsticks
- Herbs:
- 1 handful mint
- 1 handful coriander

directions:
- Dip a sheet in warm water until soft
- Fill with noodles, carrot and herbs, and roll up tightly
- Serve with the dipping sauce

---

Fresh rolls for a hot evening.
"""

CHOWDOWN_SAUCE = """---

layout: recipe
title:  "Peanut Dipping Sauce"

ingredients:
- 3 tablespoons peanut butter
- 1 tablespoon soy sauce
- 1 lime, juiced
- 2 tablespoons warm water

directions:
- Whisk everything together until smooth

---
"""


def chowdown():
    site = "chowdown-master/"
    write_zip(os.path.join(ROOT, "chowdown-master.zip"), [
        (site + "README.md", b"# Chowdown\n\nA simple, plain-text recipe database for hackers.\n"),
        (site + "_config.yml", b"title: Chowdown\nbaseurl: \"\"\ncollections:\n  recipes:\n    output: true\n"
         b"  components:\n    output: true\n"),
        (site + "_components/peanut-sauce.md", CHOWDOWN_SAUCE.encode()),
        (site + "_recipes/smoky-bean-stew.md", CHOWDOWN_STEW.encode()),
        (site + "_recipes/summer-rolls.md", CHOWDOWN_ROLLS.encode()),
        (site + "images/smoky-bean-stew.png", tiny_png()),
    ])


# Cookmate (My CookBook) writes its cookbook as a real backup does (github.com/Thierry46/
# MesRecettes2MyCook, MyCookBook_Backup_2018-01-26.xml): an XML declaration with a lowercase
# "utf-8", <cookbook version="60">, no indentation, LF line endings, a blank line after each
# recipe; ingredients and steps either as text lines or as <li> elements (with blank lines between
# steps), free-text times ("10 mn", "1h30"), imagepath as the photo's path on the phone.
COOKMATE_XML = """<?xml version="1.0" encoding="utf-8"?>
<cookbook version="60">
<recipe>
<title>Gratin dauphinois</title>
<preptime>20 min</preptime>
<cooktime>1h15</cooktime>
<ingredient><li>- 1 kg de pommes de terre.</li>
<li>- 50 cl de crème fraîche.</li>
<li>- 25 cl de lait.</li>
<li>- 1 gousse d'ail.</li>
<li>- sel, poivre, muscade.</li>
</ingredient>
<recipetext><li>Préchauffer le four à 160°C.</li>

<li>Éplucher et couper les pommes de terre en fines rondelles.</li>

<li>Frotter le plat avec l'ail, y ranger les rondelles, couvrir de crème et de lait.</li>

<li>Enfourner pour 1h15 environ.</li>
</recipetext>
<url>https://larder.example/recettes/gratin-dauphinois</url>
<imagepath>/mnt/sdcard/MyCookBook/images/Gratin_dauphinois.jpg</imagepath>
<imageurl>https://larder.example/photos/gratin.jpg</imageurl>
<quantity>6 personnes</quantity>
<rating>4</rating>
<nutrition></nutrition>
<comments><li>Meilleur réchauffé le lendemain.</li>
</comments>
<totaltime>1 heure 35</totaltime>
<description></description>
<source>Larder</source>
<video></video>
<lang>fr</lang>
<category>Plat</category>
<category>Végétarien</category>
</recipe>

<recipe>
<title>Vinaigrette</title>
<preptime>5 mn</preptime>
<cooktime></cooktime>
<ingredient>1 c. à soupe de moutarde
3 c. à soupe de vinaigre
9 c. à soupe d'huile
sel, poivre</ingredient>
<recipetext>Mélanger la moutarde, le sel et le vinaigre.
Ajouter l'huile en fouettant.</recipetext>
<url></url>
<imagepath></imagepath>
<imageurl></imageurl>
<quantity>1 bol</quantity>
<rating>0</rating>
<nutrition></nutrition>
<comments></comments>
<lang>fr</lang>
<category>Sauce</category>
</recipe>

</cookbook>
"""


def cookmate():
    write_zip(os.path.join(ROOT, "cookmate-backup.mcb"), [
        ("MyCookBook_Backup_2024-03-01.xml", COOKMATE_XML.encode("utf-8")),
        ("images/Gratin_dauphinois.jpg", tiny_jpeg()),
    ])


def recettetek():
    """recipes.json as Tandoor's RecetteTek importer (cookbook/integration/recettetek.py) reads it:
    a JSON array, times and quantity as text, one text of lines for ingredients and instructions,
    `;`-separated keywords, `pictures` as paths on the phone whose files sit at the archive's root;
    the other keys are the columns of the same app's CSV export (samples/import/myrecipebox.csv).
    Compact JSON, as Android's JSON writers give it."""
    picture = "/data/user/0/fr.recettetek/files/pictures/1709280000000.jpg"
    recipes = [
        {"title": "Soupe \u00e0 l'oignon", "description": "Gratin\u00e9e au comt\u00e9.",
         "preparationTime": "15", "cookingTime": "45", "inactiveTime": "", "totalTime": "60",
         "quantity": "4 bols",
         "ingredients": "6 oignons\n40 g de beurre\n1 l de bouillon\n4 tranches de pain\n100 g de comt\u00e9",
         "instructions": "Faire fondre les oignons dans le beurre 30 min.\n\nMouiller avec le bouillon, cuire 15 min."
                         "\n\nCouvrir de pain et de fromage, gratiner.",
         "notes": "Se pr\u00e9pare la veille.", "nutrition": "calories : 320 kcal\nprotein : 12 g",
         "favorite": True, "rating": 5, "categories": "Soupes;Entr\u00e9es", "keywords": "hiver;gratin",
         "video": "", "url": "https://larder.example/recettes/soupe-oignon",
         "originalPicture": "https://larder.example/photos/soupe-oignon.jpg", "pictures": [picture]},
        {"title": "Citronnade", "description": "", "preparationTime": "10", "cookingTime": "", "inactiveTime": "60",
         "totalTime": "", "quantity": "1 l", "ingredients": "3 citrons\n80 g de sucre\n1 l d'eau",
         "instructions": "Presser les citrons, m\u00e9langer avec le sucre et l'eau.\nLaisser refroidir 1 h.",
         "notes": "", "nutrition": "", "favorite": False, "rating": 0, "categories": "Boissons", "keywords": "",
         "video": "", "url": "", "originalPicture": "", "pictures": []},
    ]
    body = json.dumps(recipes, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    write_zip(os.path.join(ROOT, "recettetek-backup.rtk"), [
        ("recipes.json", body),
        ("1709280000000.jpg", tiny_jpeg()),
    ])


def dsv(columns, rows):
    """A Cook'n .dsv table as Mealie's Cook'n migration (mealie/services/migrations/cookn.py) reads
    it: columns separated by ||||, each row (the header first) ended by !@#%^&*()."""
    return "".join("||||".join(row) + "!@#%^&*()" for row in [columns] + rows).encode("utf-8")


def cookn():
    write_zip(os.path.join(ROOT, "cookn-cookbook.zip"), [
        ("temp_cookBook_desc.dsv", dsv(["ID", "TITLE"], [["5001", "Family Favorites"]])),
        ("temp_chapter_desc.dsv", dsv(["ID", "PARENT", "TITLE"], [["6001", "5001", "Breakfast"]])),
        ("temp_recipe_desc.dsv", dsv(["ID", "PARENT", "TITLE", "DESCRIPTION"], [
            ["7001", "6001", "Buttermilk Pancakes", "Light, fluffy and quick."],
            ["7002", "6001", "Scrambled Eggs", "[null]"],
        ])),
        ("temp_recipe.dsv", dsv(["ID", "SERVES", "PREPTIME", "COOKTIME", "INSTRUCTIONS"], [
            ["7001", "4", "10", "15", "1. Whisk the dry ingredients.\n2. Beat in the buttermilk, egg and butter;\n"
             "leave the batter a little lumpy.\n3. Cook on a hot griddle until bubbles form, then flip."],
            ["7002", "2", "5", "5", "Beat the eggs with the salt.\nStir over low heat until just set."],
        ])),
        ("temp_ingredient.dsv", dsv(
            ["ID", "PARENT_ID", "DISPLAY_ORDER", "AMOUNT_QTY_STRING", "AMOUNT_UNIT", "PRE_QUALIFIER",
             "INGREDIENT_FOOD_ID", "POST_QUALIFIER", "BRAND_ID"], [
                ["8002", "7001", "2", "1 1/2", "9002", "", "9102", "", "[null]"],
                ["8001", "7001", "1", "2", "9001", "", "9101", ", sifted", "[null]"],
                ["8003", "7001", "3", "1", "[null]", "large", "9103", "", "[null]"],
                ["8004", "7001", "4", "2", "9003", "melted", "9104", "", "9201"],
                ["8005", "7002", "1", "4", "[null]", "", "9103", "", "[null]"],
                ["8006", "7002", "2", "0", "[null]", "", "9105", ", to taste", "[null]"],
            ])),
        ("temp_unit.dsv", dsv(["ID", "NAME", "PLURAL_NAME", "ABBREVIATION"], [
            ["9001", "cup", "cups", "c"], ["9002", "cup", "cups", "c"], ["9003", "tablespoon", "tablespoons", "tbsp"],
        ])),
        ("temp_food.dsv", dsv(["ID", "NAME", "PLURAL_NAME"], [
            ["9101", "flour", "flour"], ["9102", "buttermilk", "buttermilk"], ["9103", "egg", "eggs"],
            ["9104", "butter", "butter"], ["9105", "salt", "salt"],
        ])),
        ("temp_brand.dsv", dsv(["ID", "NAME"], [["9201", "Larder Dairy"]])),
        ("temp_media.dsv", dsv(["ID", "ENTITY_ID", "MEDIA_CONTENT_TYPE"], [["4001", "7001", "image/jpeg"]])),
        ("4001", tiny_jpeg()),
    ])


if __name__ == "__main__":
    os.makedirs(ROOT, exist_ok=True)
    paprika()
    beanconqueror()
    chowdown()
    cookmate()
    recettetek()
    cookn()
    print("wrote", os.path.normpath(ROOT))
