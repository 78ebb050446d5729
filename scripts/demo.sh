#!/usr/bin/env bash
# `make demo`: the main job end to end on the bundled samples, area by area.
set -euo pipefail
cd "$(dirname "$0")/.."
export LARDER=${LARDER:-.build/release/larder}
L=$LARDER
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== 1. formats: every sample through JSON -> YAML -> XML -> NDJSON.gz -> JSON, then validate"
for type in recipes brew-recipes brew-logs; do
  src=samples/$type.json
  "$L" convert "$src" --to yaml -o "$out/$type.yaml"
  "$L" convert "$out/$type.yaml" --to xml -o "$out/$type.xml"
  "$L" convert "$out/$type.xml" --to ndjson -o "$out/$type.ndjson.gz"
  "$L" convert "$out/$type.ndjson.gz" --to json --envelope -o "$out/$type.roundtrip.json"
  "$L" validate "$out/$type.roundtrip.json"
  # XML cannot tell an empty list from an absent one, so compare the records in canonical form.
  "$L" convert "$src" --to ndjson --normalize -o "$out/$type.before.ndjson" 2>/dev/null
  "$L" convert "$out/$type.roundtrip.json" --to ndjson --normalize -o "$out/$type.after.ndjson" 2>/dev/null
  if cmp -s "$out/$type.before.ndjson" "$out/$type.after.ndjson"; then
    echo "   $type: identical after the round trip"
  else
    echo "   $type: DIFFERS after the round trip" >&2; exit 1
  fi
done
echo "== 1b. a bad file, kept going: bad records go to rejects, the counts add up"
"$L" convert samples/bad/wrong-type.json --to ndjson -o "$out/good.ndjson" --keep-going --rejects "$out/rejects.ndjson" || true

# The later stages, each in its own script, in pipeline order.
for stage in registry import dedupe maintenance emulator pipeline; do
  script=scripts/demo-$stage.sh
  [ -f "$script" ] || continue
  echo
  echo "== $stage ($script)"
  bash "$script"
done
echo
echo "demo finished"
