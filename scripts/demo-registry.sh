#!/usr/bin/env bash
# The schema registry end to end on the bundled samples: a dry run first, then the migration to
# the newest version, validation, a store with its history, and the compatibility checks.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== the registry"
"$L" schema list

echo; echo "== dry run: Cheffy v1 recipes to the newest version (writes nothing)"
"$L" migrate samples/v1/recipes-v1.json --dry-run

echo; echo "== migrate v1 recipes, v2 recipes and v1 brew logs to their newest versions"
"$L" migrate samples/v1/recipes-v1.json -o "$out/recipes-v4.json"
"$L" migrate samples/v2/recipes-v2.json -o "$out/recipes-v4-from-v2.json"
"$L" migrate samples/v1/brew-logs-v1.json -o "$out/brew-logs-v3.ndjson" --format ndjson
ls "$out/images" | head -3
"$L" validate "$out/recipes-v4.json" "$out/recipes-v4-from-v2.json"
"$L" validate "$out/brew-logs-v3.ndjson" --type brewLog

echo; echo "== down again: v4 → v2 works while v4's new fields are empty; brewLog v3 → v1 does not"
"$L" migrate "$out/recipes-v4.json" --to 2 -o "$out/recipes-v2-again.json"
"$L" migrate "$out/brew-logs-v3.ndjson" --type brewLog --to 1 -o "$out/x.json" || echo "(refused, as it should be)"
echo "   samples/recipes.json (v4, with notes, nutrition, sections) cannot go down to v3:"
"$L" migrate samples/recipes.json --to-version 3 -o "$out/y.json" 2> "$out/refused.txt" || head -1 "$out/refused.txt"

echo; echo "== a store: import v1 data, dry run, migrate (one transaction per step), check the history"
"$L" store import samples/v1/recipes-v1.json samples/v1/brew-logs-v1.json --store "$out/larder.db"
"$L" migrate --store "$out/larder.db" --dry-run > "$out/dry-run.txt"
head -20 "$out/dry-run.txt"
"$L" migrate --store "$out/larder.db"
"$L" schema validate --store "$out/larder.db"

echo; echo "== compatibility: each type under its own mode, then recipe under BACKWARD (breaks, and says where)"
"$L" schema check
"$L" schema check recipe --mode BACKWARD || true
"$L" schema diff recipe 1 3
"$L" schema diff recipe 3 4
echo "registry demo finished"
