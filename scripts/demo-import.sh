#!/usr/bin/env bash
# Import demo for `make demo`: a Paprika archive and a schema.org page in, re-run without
# duplicates, then out again as schema.org and Paprika and back in.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== import a Paprika archive and a schema.org JSON-LD page"
"$L" import samples/import/sample.paprikarecipes samples/import/overnight-oats.jsonld -o "$out/recipes.json"
ls "$out" "$out/recipes-images"

echo "== the same import again with --merge: same ids, nothing duplicated (without it the output is replaced)"
"$L" import samples/import/sample.paprikarecipes samples/import/overnight-oats.jsonld -o "$out/recipes.json" --merge
"$L" validate "$out/recipes.json"

echo "== a Beanconqueror backup: brew logs and brew recipes (the unrated brew too: brewLog v4), then what BrewGuide would refuse"
"$L" import samples/import/Beanconqueror.zip --keep-going --rejects "$out/rejects.ndjson" -o "$out/coffee.json"
"$L" validate "$out/coffee.brewLog.json" "$out/coffee.brewRecipe.json"
"$L" validate "$out/coffee.brewLog.json" --rules brewguide && exit 1 || echo "   (exit 1 expected: BrewGuide keeps rated brews only)"

echo "== plain recipes written by hand (YAML): detected as the plain format"
"$L" import samples/import/plain-recipes.yaml -o "$out/plain.json"
"$L" validate "$out/plain.json"

echo "== a web page with no JSON-LD (its recipe in microdata), a MealMaster file (several recipes,"
echo "   one- and two-column ingredients) and a CSV spreadsheet"
"$L" import samples/import/lemon-posset.html -o "$out/page.json" 2>/dev/null
grep -o '"title" *: *"Lemon Posset"' "$out/page.json" >/dev/null && echo "   lemon-posset.html: Lemon Posset imported"
"$L" import samples/import/mealmaster-classics.mmf -o "$out/mealmaster.json"
"$L" import samples/import/recipes.csv -o "$out/csv.json"
"$L" validate "$out/mealmaster.json" "$out/csv.json"

echo "== a Recipe Keeper export (recipes.html with its own item properties, photos in images/), found by content"
"$L" import samples/import/recipekeeper-export.zip -o "$out/recipekeeper.json"
"$L" validate "$out/recipekeeper.json"

echo "== the import report as JSON, with the field census (what went where, and why)"
"$L" import samples/import/sample.paprikarecipes -o "$out/census.json" --report "$out/report.json" 2>/dev/null
grep -o '"census"' "$out/report.json" >/dev/null && echo "   report.json holds the census"

echo "== export to the apps people move to (Mealie, Tandoor, Nextcloud, Mela, MealMaster), and back"
for to in mealie tandoor nextcloud mela; do
  "$L" export "$out/recipes.json" --to $to -o "$out/to-$to.zip"
  "$L" import "$out/to-$to.zip" --from $to -o "$out/from-$to.json" 2>/dev/null
  echo "   $to: $(grep -c '"title"' "$out/from-$to.json") recipes back"
done
"$L" export "$out/recipes.json" --to mealmaster -o "$out/to.mmf"
"$L" import "$out/to.mmf" -o "$out/from-mealmaster.json" 2>/dev/null

echo "== export as schema.org and as a Paprika archive, and import those back"
"$L" export "$out/recipes.json" --to schemaorg -o "$out/roundtrip.jsonld"
"$L" export "$out/recipes.json" --to paprika -o "$out/roundtrip.paprikarecipes"
"$L" import "$out/roundtrip.paprikarecipes" -o "$out/from-paprika.json"
"$L" import "$out/roundtrip.jsonld" -o "$out/from-schemaorg.json"
echo "== a printable cookbook (HTML, with photos and a print stylesheet) and a Markdown site (Chowdown's layout)"
mkdir -p out
rm -rf out/cookbook out/cookbook-markdown
"$L" export "$out/recipes.json" "$out/mealmaster.json" "$out/page.json" --to html -o out/cookbook
"$L" export "$out/recipes.json" "$out/mealmaster.json" "$out/page.json" --to markdown -o out/cookbook-markdown
echo "   cookbook: $(pwd)/out/cookbook/index.html (open it in a browser; print it for paper)"
echo "   markdown: $(pwd)/out/cookbook-markdown/_recipes/"
echo "import demo finished"
