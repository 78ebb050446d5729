#!/usr/bin/env python3
"""Builds the binary (and generated) import samples in samples/import/ from recipes written for Larder.

Everything here was written for these samples (no third-party recipe text). Run it again to
rebuild the archives byte for byte: timestamps inside the archives are fixed.

  samples/import/sample.paprikarecipes   Paprika export: a zip of gzip-compressed JSON, one per recipe
  samples/import/Beanconqueror.zip       Beanconqueror backup: Beanconqueror.json + Beanconqueror_Brews_1.json
  samples/import/chowdown-master.zip     a Chowdown (Jekyll) site as GitHub's "Download ZIP" gives it
  samples/import/cookmate-backup.mcb     Cookmate (My CookBook) backup: the cookbook XML + images/
  samples/import/recettetek-backup.rtk   RecetteTek (My Recipe Box) backup: recipes.json + the photos
  samples/import/cookn-cookbook.zip      Cook'n cookbook export: temp_*.dsv tables + a photo
  samples/import/pepperplate-export.zip  Pepperplate export: labelled .txt recipes, CRLF, tab-indented blocks
  samples/import/cheftap-export.zip      ChefTap text export: cheftap_export/*.txt, unlabelled, LF
  samples/import/saffron-export.zip      Saffron text export: labelled .txt recipes, LF
  samples/import/gourmet-export.zip      Gourmet's web-page export: index.htm, style.css, one .htm a recipe, pics/
  samples/import/cookbookapp-export.zip  Cookbook app export: one .html page a recipe (JSON-LD, microdata) + a photo
  samples/import/cookbookapp-yaml.zip    Cookbook app export of older versions: one .yml file a recipe
  samples/import/bigoven-recipes.json    BigOven recipes as its REST API returns them (a JSON array)
  samples/import/bigoven-recipes.csv     BigOven recipes as a CSV with the API's field names as headers (a guess)
"""
import base64, csv, gzip, io, json, os, struct, zipfile, zlib

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


def tiny_jpeg_base64():
    """A 1x1 JPEG (the same bytes as the photos in the Recipe Keeper and CopyMeThat samples)."""
    return base64.b64decode(
        "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////"
        "////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=")


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



def text_file(lines, ending):
    """UTF-8 text, each line ended by `ending`."""
    return "".join(line + ending for line in lines).encode("utf-8")


def pepperplate():
    """Labelled text as Tandoor's pepperplate.py and public parsers of the export read it: one file per
    recipe named after it, `Label: value` header lines (an empty one keeps its label), `Ingredients:`
    and `Instructions:` blocks of tab-indented lines, a blank line after each block, `Notes:`. CRLF
    line endings and UTF-8 without a byte order mark are guesses (Pepperplate was an ASP.NET site)."""
    def recipe(lines):
        return text_file(lines, "\r\n")
    pancakes = recipe([
        "Title: Lemon Ricotta Pancakes",
        "Description: Light pancakes for a slow Sunday.",
        "Source: Larder Test Kitchen",
        "Original URL: https://larder.example/recipes/lemon-ricotta-pancakes",
        "Yield: 4 servings",
        "Active: 15 minutes",
        "Total: 30 minutes",
        "Image: https://larder.example/images/lemon-ricotta-pancakes.jpg",
        "Ingredients:",
        "\t1 cup ricotta",
        "\t2 eggs, separated",
        "\t3/4 cup flour",
        "\t1 tbsp sugar",
        "\tZest of 1 lemon",
        "",
        "Instructions:",
        "\tWhisk the ricotta, yolks, sugar and zest.",
        "\tFold in the flour, then the beaten whites.",
        "\tCook spoonfuls on a buttered griddle, 2 minutes a side.",
        "",
        "Notes: Keep them warm in a low oven.",
    ])
    soup = recipe([
        "Title: Tomato Bread Soup",
        "Description: ",
        "Source: ",
        "Original URL: ",
        "Yield: 6",
        "Active: ",
        "Total: 1 hour 10 minutes",
        "Ingredients:",
        "\t800 g tomatoes, roughly chopped",
        "\t4 slices stale sourdough",
        "\t2 cloves garlic",
        "\t3 tbsp olive oil",
        "\tBasil",
        "",
        "Instructions:",
        "\tWarm the garlic in the oil, add the tomatoes and simmer for 40 minutes.",
        "\tTear in the bread, stir until it falls apart into a thick purée.",
        "\tServe warm with torn basil.",
        "",
        "Notes:",
        "\tBetter the next day.",
        "\tThin with stock when reheating.",
    ])
    write_zip(os.path.join(ROOT, "pepperplate-export.zip"), [
        ("Lemon Ricotta Pancakes.txt", pancakes),
        ("Tomato Bread Soup.txt", soup),
    ])


def cheftap():
    """ChefTap's text export as Tandoor's cheftap.py reads it (and its docs describe): a zip with a
    `cheftap_export/` folder of `.txt` files named after the recipes, each a title line, then the
    ingredient lines, then the directions, and maybe a source URL line. LF line endings and UTF-8 are
    guesses (ChefTap is an Android app); so is the blank line between the parts."""
    def recipe(lines):
        return text_file(lines, "\n")
    cookies = recipe([
        "Chocolate Oat Cookies",
        "",
        "115 g butter, soft",
        "½ cup brown sugar",
        "1 egg",
        "1 cup rolled oats",
        "3/4 cup flour",
        "1/2 tsp baking soda",
        "100 g dark chocolate, chopped",
        "",
        "Heat the oven to 180 °C.",
        "Cream the butter and sugar, then beat in the egg.",
        "Stir in the oats, flour, soda and chocolate.",
        "Bake spoonfuls for 12 minutes.",
        "",
        "https://larder.example/recipes/chocolate-oat-cookies",
    ])
    shakshuka = recipe([
        "Green Shakshuka",
        "A weeknight pan of eggs in greens.",
        "",
        "2 tbsp olive oil",
        "1 leek, sliced",
        "200 g spinach",
        "4 eggs",
        "Salt and pepper",
        "",
        "1. Soften the leek in the oil.",
        "2. Wilt the spinach and season.",
        "3. Make four wells, crack in the eggs and cover until set.",
    ])
    write_zip(os.path.join(ROOT, "cheftap-export.zip"), [
        ("cheftap_export/Chocolate Oat Cookies.txt", cookies),
        ("cheftap_export/Green Shakshuka.txt", shakshuka),
    ])


def saffron():
    """Labelled text with the labels, in the order, of Tandoor's saffron.py exporter (Title, Description,
    Source, Original URL, Yield, Cookbook, Section, Image, Ingredients, Instructions; empty labels written
    as `Label: `), plus `Prep:` and `Cook:`, which its importer reads (their place is a guess). Ingredient
    and instruction lines are not indented, as that exporter writes them; LF line endings as it writes
    them. The file names (recipe title + .txt) are the exporter's; the zip's flat layout is a guess."""
    def recipe(lines):
        return text_file(lines, "\n")
    dal = recipe([
        "Title: Red Lentil Dal",
        "Description: A pot of dal for the week.",
        "Source: Larder Test Kitchen",
        "Original URL: https://larder.example/recipes/red-lentil-dal",
        "Yield: 4",
        "Prep: 10 min",
        "Cook: 35 min",
        "Cookbook: Weeknights",
        "Section: Soups and stews",
        "Image: ",
        "Ingredients: ",
        "250 g red lentils",
        "1 onion, chopped",
        "2 tsp curry powder",
        "400 ml coconut milk",
        "Instructions: ",
        "Soften the onion with the curry powder.",
        "Add the lentils, coconut milk and 500 ml water; simmer until soft.",
        "Season with salt and lime.",
    ])
    granola = recipe([
        "Title: Maple Granola",
        "Description: ",
        "Source: ",
        "Original URL: ",
        "Yield: 8 servings",
        "Cookbook: Breakfast",
        "Section: ",
        "Image: https://larder.example/images/maple-granola.jpg",
        "Ingredients: ",
        "300 g oats",
        "100 g pecans",
        "80 ml maple syrup",
        "Instructions: ",
        "Toss everything together.",
        "Bake at 160 °C for 25 minutes, stirring once.",
    ])
    write_zip(os.path.join(ROOT, "saffron-export.zip"), [
        ("Red Lentil Dal.txt", dal),
        ("Maple Granola.txt", granola),
    ])


GOURMET_HEAD = ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN">\n<html>\n  <head>\n  ')
GOURMET_HEAD_CLOSE = ('<meta http-equiv="Content-Style-Stype" content="text/css">\n'
                      '     <meta http-equiv="Content-Type" content="text/html;charset=utf-8">\n     </head>')


def gourmet_page(title, attrs, ingredients, texts, image=None, link=None):
    """One recipe page as Gourmet's website_exporter/html_exporter write it (thinkle/gourmet,
    gourmet/plugins/import_export/html_plugin/html_exporter.py; order image, attributes, ingredients,
    texts; attributes in DEFAULT_OUTPUT_ATTR_ORDER: title, the_yield, cooktime, preptime, category,
    cuisine, stars, source, link)."""
    out = GOURMET_HEAD + "<title>%s</title>" % title
    out += "<link rel='stylesheet' href='style.css' type='text/css'>" + GOURMET_HEAD_CLOSE + "<body>"
    out += '<div class="recipe" itemscope itemtype="http://schema.org/Recipe">'
    if image:
        out += '<img src="%s" itemprop="image">' % image
    out += "<div class='header'>"
    itemprops = {"title": "name", "category": "recipeCategory", "cuisine": "recipeCuisine",
                 "preptime": "prepTime", "cooktime": "cookTime"}
    for attr, label, value in attrs:
        if attr in itemprops:
            out += '<p class="%s"><span class="label">%s:</span> <span itemprop="%s">%s</span></p>\n' % (
                attr, label.capitalize(), itemprops[attr], value)
        else:
            out += "<p class='%s'><span class='label'>%s:</span> %s</p>\n" % (attr, label.capitalize(), value)
    if link:
        host = link.strip("http://").split("/")[0]
        out += '<a href="%s">Original Page from %s</a>\n' % (link, host)
    out += "</div>"
    if ingredients:
        out += '<div class="ing"><h3>Ingredients</h3><ul class="ing">'
        for item in ingredients:
            if isinstance(item, tuple):
                out += "<li class='inggroup'>%s:<ul class='ing'>" % item[0]
                for line in item[1]:
                    out += '<li class="ing" itemprop="ingredients">%s</li>\n' % line
                out += "</ul></li>"
            else:
                out += '<li class="ing" itemprop="ingredients">%s</li>\n' % item
        out += "</ul>\n</div>\n"
    for attr, label, paragraphs in texts:
        body = "".join("<p>%s</p>" % "<br>".join(lines) for lines in paragraphs)
        if attr == "instructions":
            out += '<div class="%s"><h3 class="%s">%s</h3><div itemprop="recipeInstructions">%s</div></div>' % (
                attr, label, label, body)
        else:
            out += '<div class="%s"><h3 class="%s">%s</h3>%s</div>' % (attr, label, label, body)
    out += "</div>\n" + "\n</body>\n</html>"
    return out.encode("utf-8")


def gourmet():
    """Gourmet's web-page export folder, zipped: the exporter writes `index.htm`, `style.css`, one page
    per recipe named after its title (letters, digits and spaces) and id, and photos as `pics/<n>.jpg`.
    Ingredient lines end with the space the exporter leaves after each of amount, unit and item."""
    soup = gourmet_page(
        "Roast Tomato Soup",
        [("title", "Title", "Roast Tomato Soup"), ("the_yield", "the_yield", "4 servings"),
         ("cooktime", "Cooking Time", "45 minutes"), ("preptime", "Preparation Time", "15 minutes"),
         ("category", "Category", "Soup, Vegetarian"), ("cuisine", "Cuisine", "Italian"),
         ("stars", "stars", "4/5 stars"), ("source", "Source", "Larder Test Kitchen")],
        ["1 kg tomatoes, halved ", "1 onion ", "3 cloves garlic ",
         ("For serving", ["2 tbsp cream ", "basil (optional)"])],
        [("instructions", "Instructions", [["Roast the tomatoes, onion and garlic at 200 °C for 40 minutes."],
                                           ["Blend with 500 ml water.", "Season and warm through."]]),
         ("modifications", "Notes", [["Freezes well."]])],
        image="pics/1.jpg", link="https://larder.example/recipes/roast-tomato-soup")
    tart = gourmet_page(
        "Lemon Tart",
        [("title", "Title", "Lemon Tart"), ("the_yield", "the_yield", "8 slices"),
         ("category", "Category", "Dessert")],
        ["1 sweet pastry case ", "3 lemons ", "150 g sugar ", "4 eggs "],
        [("instructions", "Instructions", [["Whisk the zest, juice, sugar and eggs.",
                                            "Pour into the case and bake at 150 °C for 30 minutes."]])])
    index = (GOURMET_HEAD + "<title>Recipe Index</title><link rel='stylesheet' href='style.css' type='text/css'>"
             + GOURMET_HEAD_CLOSE + '<body><div class="index"><table class="index">\n<tr>'
             + '<th class="title">Title</th><th class="category">Category</th><th class="cuisine">Cuisine</th>'
             + '<th class="rating">Rating</th><th class="yields">Yield</th></tr>\n'
             + '<tr><td class="title">\n                     <a href="Roast%20Tomato%20Soup1.htm">Roast Tomato Soup</a>\n'
             + '                   </td><td class="category">Soup, Vegetarian</td><td class="cuisine">Italian</td>'
             + '<td class="rating">8</td><td class="yields">4.0</td></tr>'
             + '<tr><td class="title">\n                     <a href="Lemon%20Tart2.htm">Lemon Tart</a>\n'
             + '                   </td><td class="category">Dessert</td><td class="cuisine"></td>'
             + '<td class="rating"></td><td class="yields">8.0</td></tr>'
             + "</table></div></body></html>").encode("utf-8")
    css = b"body { font-family: sans-serif; }\n.label { font-weight: bold; }\n"
    write_zip(os.path.join(ROOT, "gourmet-export.zip"), [
        ("index.htm", index),
        ("style.css", css),
        ("Roast Tomato Soup1.htm", soup),
        ("pics/1.jpg", tiny_jpeg_base64()),
        ("Lemon Tart2.htm", tart),
    ])


COOKBOOKAPP_HEAD = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>%s</title>\n')


def cookbookapp():
    """The Cookbook app's export as Tandoor's importer (cookbook/integration/cookbookapp.py) takes it: a zip
    of one .html page per recipe, whose recipe recipe-scrapers' generic reader finds in its schema.org
    markup, and the first <img> of the page as the photo. One page carries JSON-LD (with a remote image
    address), the other microdata (with its photo inside the zip). The page layout around the markup, the
    file names and the images/ folder are guesses."""
    aubergine_ld = {
        "@context": "https://schema.org", "@type": "Recipe", "name": "Miso-Glazed Aubergine",
        "description": "Soft roast aubergine under a sticky miso glaze.",
        "image": "https://cookbook.example/photos/miso-aubergine.jpg",
        "recipeYield": "2 servings", "prepTime": "PT10M", "cookTime": "PT30M", "totalTime": "PT40M",
        "recipeCategory": "Side dish", "recipeCuisine": "Japanese", "keywords": "vegan, weeknight",
        "cookingMethod": "Roasting",
        "recipeIngredient": ["2 aubergines, halved lengthways", "2 tbsp white miso", "1 tbsp mirin",
                             "1 tbsp maple syrup", "1 tsp rice vinegar", "1 spring onion, sliced",
                             "1 tsp sesame seeds"],
        "recipeInstructions": [
            {"@type": "HowToStep", "text": "Score the cut sides of the aubergines and roast at 200 °C for 25 minutes."},
            {"@type": "HowToStep", "text": "Whisk the miso, mirin, maple syrup and vinegar."},
            {"@type": "HowToStep", "text": "Brush on the glaze and grill for 5 minutes, then scatter with spring onion "
                                           "and sesame."},
        ],
    }
    aubergine = (COOKBOOKAPP_HEAD % "Miso-Glazed Aubergine"
                 + '<script type="application/ld+json">\n'
                 + json.dumps(aubergine_ld, ensure_ascii=False, indent=2) + "\n</script>\n</head>\n<body>\n"
                 + '<h1>Miso-Glazed Aubergine</h1>\n'
                 + '<img src="https://cookbook.example/photos/miso-aubergine.jpg" alt="Miso-Glazed Aubergine">\n'
                 + "<p>Soft roast aubergine under a sticky miso glaze.</p>\n"
                 + "<h2>Ingredients</h2>\n<ul>\n"
                 + "".join("<li>%s</li>\n" % line for line in aubergine_ld["recipeIngredient"])
                 + "</ul>\n<h2>Directions</h2>\n<ol>\n"
                 + "".join("<li>%s</li>\n" % step["text"] for step in aubergine_ld["recipeInstructions"])
                 + "</ol>\n</body>\n</html>\n")
    scones = (COOKBOOKAPP_HEAD % "Cheddar Scones" + "</head>\n<body>\n"
              + '<div itemscope itemtype="http://schema.org/Recipe">\n'
              + '<h1 itemprop="name">Cheddar Scones</h1>\n'
              + '<img itemprop="image" src="images/cheddar-scones.jpg" alt="Cheddar Scones">\n'
              + '<p itemprop="description">Quick savoury scones for soup night.</p>\n'
              + '<p>Makes <span itemprop="recipeYield">8 scones</span> · '
              + 'Prep <time itemprop="prepTime" datetime="PT15M">15 min</time> · '
              + 'Cook <time itemprop="cookTime" datetime="PT15M">15 min</time></p>\n'
              + '<p>Category: <span itemprop="recipeCategory">Baking</span></p>\n'
              + "<h2>Ingredients</h2>\n<ul>\n"
              + "".join('<li itemprop="recipeIngredient">%s</li>\n' % line for line in [
                  "250 g self-raising flour", "1 tsp baking powder", "60 g cold butter, cubed",
                  "100 g mature cheddar, grated", "150 ml milk", "1 pinch cayenne pepper"])
              + "</ul>\n<h2>Directions</h2>\n<ol>\n"
              + "".join('<li itemprop="recipeInstructions">%s</li>\n' % step for step in [
                  "Heat the oven to 220 °C and line a tray.",
                  "Rub the butter into the flour and baking powder, then stir in the cheese and cayenne.",
                  "Add the milk, pat out 3 cm thick, cut 8 rounds and bake for 12 to 15 minutes."])
              + "</ol>\n</div>\n</body>\n</html>\n")
    write_zip(os.path.join(ROOT, "cookbookapp-export.zip"), [
        ("Miso-Glazed Aubergine.html", aubergine.encode("utf-8")),
        ("Cheddar Scones.html", scones.encode("utf-8")),
        ("images/cheddar-scones.jpg", tiny_jpeg_base64()),
    ])


def cookbookapp_yaml():
    """The Cookbook app's export of older versions, as the earlier Tandoor importer read it: a zip of one
    .yml file per recipe with the keys name, recipeYield, prep_time, cook_time, on_favorites, directions,
    notes, nutritional_info, source and ingredients (one text, a line each). The key order, the block
    scalars, the quoting and the file names are guesses."""
    salad = "\n".join([
        "name: Warm Chickpea Salad",
        "recipeYield: 4 servings",
        "prep_time: 15 minutes",
        "cook_time: 10 minutes",
        "on_favorites: true",
        "directions: |-",
        "  Warm the chickpeas in the oil with the cumin for 5 minutes.",
        "  Whisk the dressing.",
        "  Toss everything together and serve warm.",
        "notes: Keeps for two days in the fridge.",
        "nutritional_info: |-",
        "  Calories: 320",
        "  Protein: 12 g",
        "source: https://cookbook.example/warm-chickpea-salad",
        "ingredients: |-",
        "  2 tins chickpeas, drained",
        "  2 tbsp olive oil",
        "  1 tsp ground cumin",
        "  1 red onion, sliced",
        "  For the dressing:",
        "  3 tbsp tahini",
        "  1 lemon, juiced",
        "",
    ])
    muffins = "\n".join([
        "name: Banana Oat Muffins",
        "recipeYield: 12 muffins",
        "prep_time: 10 minutes",
        "cook_time: 22 minutes",
        "on_favorites: false",
        "directions: |-",
        "  Mash the bananas and whisk in the eggs, milk and oil.",
        "  Fold in the oats, flour and baking powder.",
        "  Bake in lined tins at 180 °C for 20 to 22 minutes.",
        "notes: ''",
        "nutritional_info: ''",
        "source: Grandma's recipe box",
        "ingredients: |-",
        "  3 ripe bananas",
        "  2 eggs",
        "  120 ml milk",
        "  80 ml sunflower oil",
        "  150 g rolled oats",
        "  125 g plain flour",
        "  2 tsp baking powder",
        "",
    ])
    write_zip(os.path.join(ROOT, "cookbookapp-yaml.zip"), [
        ("Warm Chickpea Salad.yml", salad.encode("utf-8")),
        ("Banana Oat Muffins.yml", muffins.encode("utf-8")),
    ])


def bigoven_ingredient(index, name, quantity=None, display=None, unit="", notes="", heading=False, metric=None):
    """One BigOvenModelAPIIngredient, with every field of the API's model."""
    metric_quantity, metric_unit, metric_display = metric or (0, "", "")
    return {
        "IngredientID": 3100 + index, "DisplayIndex": index, "IsHeading": heading, "Name": name,
        "HTMLName": name, "Quantity": quantity or 0, "DisplayQuantity": display or "", "Unit": unit,
        "MetricQuantity": metric_quantity, "MetricUnit": metric_unit, "MetricDisplayQuantity": metric_display,
        "PreparationNotes": notes or None, "IngredientInfo": None if heading else {
            "Name": name, "Department": "Pantry", "MasterIngredientID": 700 + index, "UsuallyOnHand": False},
        "IsLinked": not heading,
    }


def bigoven_recipe(recipe_id, title, ingredients, instructions, **extra):
    """One BigOvenModelAPIRecipe with every field of the API's model, in its order."""
    return {
        "RecipeID": recipe_id, "Title": title, "Description": extra.get("description"),
        "Cuisine": extra.get("cuisine"), "Category": extra.get("category"),
        "Subcategory": extra.get("subcategory"), "Microcategory": None,
        "PrimaryIngredient": extra.get("primary"), "StarRating": extra.get("stars", 0),
        "WebURL": "https://bigoven.example/recipe/%s/%d" % (title.lower().replace(" ", "-"), recipe_id),
        "ImageURL": extra.get("image"), "ReviewCount": extra.get("reviews", 0), "MedalCount": 0,
        "FavoriteCount": extra.get("favorites", 0), "Poster": {
            "UserID": 58001, "UserName": "larderkitchen", "FirstName": "Larder", "LastName": "Kitchen",
            "ImageUrl48": None, "IsPremium": False, "IsKitchenHelper": False, "PremiumExpiryDate": None,
            "MemberSince": "2016-05-04T09:12:00", "IsUsingRecurly": False, "PhotoUrl": None, "PhotoUrl48": None,
            "WebUrl": "https://bigoven.example/user/larderkitchen"},
        "Ingredients": ingredients, "Instructions": instructions,
        "YieldNumber": extra.get("yield_number"), "YieldUnit": extra.get("yield_unit"),
        "TotalMinutes": extra.get("total"), "ActiveMinutes": extra.get("active"),
        "NutritionInfo": extra.get("nutrition"), "IsPrivate": False,
        "CreationDate": extra.get("created"), "LastModified": extra.get("modified"),
        "IsBookmark": False, "BookmarkURL": None, "BookmarkSiteLogo": None, "BookmarkImageURL": None,
        "IsRecipeScan": False, "MenuCount": extra.get("menus", 0), "NotesCount": 0, "AdTags": "",
        "IngredientsTextBlock": "\r\n".join(
            (i["Name"] + ":") if i["IsHeading"] else " ".join(
                x for x in [i["DisplayQuantity"], i["Unit"], i["Name"]] if x)
            + (", " + i["PreparationNotes"] if i["PreparationNotes"] else "") for i in ingredients),
        "AllCategoriesText": " ".join(x for x in [extra.get("category"), extra.get("subcategory")] if x),
        "IsSponsored": False, "VariantOfRecipeID": None, "Collection": None, "CollectionID": None,
        "AdminBoost": None, "VerifiedDateTime": None, "MaxImageSquare": 640 if extra.get("image") else None,
        "ImageSquares": [640, 320, 160] if extra.get("image") else [], "HeroPhotoUrl": None,
        "VerifiedByClass": None,
    }


def bigoven_recipes():
    chili = bigoven_recipe(
        900001, "Smoky Black Bean Chili", [
            bigoven_ingredient(0, "For the chili", heading=True),
            bigoven_ingredient(1, "olive oil", 2, "2", "tablespoons", metric=(30, "ml", "30")),
            bigoven_ingredient(2, "onion", 1, "1", "", "diced"),
            bigoven_ingredient(3, "garlic", 3, "3", "cloves", "minced"),
            bigoven_ingredient(4, "smoked paprika", 1.5, "1 1/2", "teaspoons", metric=(7.5, "ml", "7.5")),
            bigoven_ingredient(5, "black beans", 2, "2", "cans", "drained and rinsed"),
            bigoven_ingredient(6, "crushed tomatoes", 28, "28", "ounces", metric=(794, "g", "794")),
            bigoven_ingredient(7, "To serve", heading=True),
            bigoven_ingredient(8, "sour cream", 0.5, "1/2", "cup", metric=(120, "ml", "120")),
            bigoven_ingredient(9, "cilantro", None, None, "", "chopped"),
        ],
        "Warm the oil in a heavy pot and soften the onion, 6 minutes.\r\n"
        "Stir in the garlic and paprika for 1 minute.\r\n"
        "Add the beans and tomatoes and simmer 25 minutes, stirring now and then.\r\n"
        "Serve with sour cream and cilantro.",
        description="A weeknight chili that tastes like it simmered all day.", cuisine="Mexican",
        category="Main Dish", subcategory="Chili", primary="Beans", stars=4.5, reviews=12, favorites=37,
        image="https://images.bigoven.example/image/upload/smoky-black-bean-chili.jpg",
        yield_number=6, yield_unit="servings", total=45, active=15, menus=3,
        nutrition={"TotalCalories": 310.2, "TotalFat": 9.1, "TotalFatPct": 14, "SatFat": 3.2, "SatFatPct": 16,
                   "TransFat": 0, "MonoFat": 3.9, "PolyFat": 1.1, "Cholesterol": 11.5, "CholesterolPct": 4,
                   "Sodium": 612, "SodiumPct": 26, "Potassium": 880, "PotassiumPct": 25, "TotalCarbs": 44.3,
                   "TotalCarbsPct": 15, "DietaryFiber": 15.8, "DietaryFiberPct": 63, "Sugar": 7.4,
                   "Protein": 15.6, "ProteinPct": 31, "CaloriesFromFat": 82, "SingularYieldUnit": "serving"},
        created="2019-03-02T18:20:00", modified="2021-11-14T08:05:31")
    pancakes = bigoven_recipe(
        900002, "Lemon Ricotta Pancakes", [
            bigoven_ingredient(0, "ricotta", 1, "1", "cup", metric=(250, "g", "250")),
            bigoven_ingredient(1, "eggs", 2, "2", "", "separated"),
            bigoven_ingredient(2, "milk", 0.75, "3/4", "cup", metric=(180, "ml", "180")),
            bigoven_ingredient(3, "lemon", 1, "1", "", "zested"),
            bigoven_ingredient(4, "all-purpose flour", 1, "1", "cup", metric=(125, "g", "125")),
            bigoven_ingredient(5, "baking powder", 1, "1", "teaspoon", metric=(5, "ml", "5")),
        ],
        "Whisk the ricotta, yolks, milk and zest.\r\n"
        "Fold in the flour and baking powder, then the whites beaten to soft peaks.\r\n"
        "Cook 1/4-cup rounds on a buttered griddle, 2 minutes a side.",
        category="Breakfast", subcategory="Pancakes", primary="Dairy", stars=0,
        yield_number=12, yield_unit="pancakes", total=25, active=10,
        created="2020-06-21T07:40:00", modified="2020-06-21T07:40:00")
    with open(os.path.join(ROOT, "bigoven-recipes.json"), "wb") as f:
        f.write(json.dumps([chili, pancakes], ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    columns = ["RecipeID", "Title", "Description", "Category", "Subcategory", "Cuisine", "PrimaryIngredient",
               "IngredientsTextBlock", "Instructions", "YieldNumber", "YieldUnit", "TotalMinutes",
               "ActiveMinutes", "StarRating", "WebURL", "ImageURL", "CreationDate"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(columns)
    for recipe in [chili, pancakes]:
        row = []
        for column in columns:
            value = recipe[column]
            row.append("" if value is None else str(value).replace("\r\n", "\n"))
        writer.writerow(row)
    with open(os.path.join(ROOT, "bigoven-recipes.csv"), "wb") as f:
        f.write(buffer.getvalue().encode("utf-8"))


if __name__ == "__main__":
    os.makedirs(ROOT, exist_ok=True)
    paprika()
    beanconqueror()
    chowdown()
    cookmate()
    recettetek()
    cookn()
    pepperplate()
    cheftap()
    saffron()
    gourmet()
    cookbookapp()
    cookbookapp_yaml()
    bigoven_recipes()
    print("wrote", os.path.normpath(ROOT))
