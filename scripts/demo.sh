#!/usr/bin/env bash
# `make demo`: the main job end to end on the bundled samples.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== convert every sample through every format and back, then validate"
for type in recipes brew-recipes brew-logs; do
  src=samples/$type.json
  [ -f "$src" ] || continue
  "$L" convert "$src" --to yaml -o "$out/$type.yaml"
  "$L" convert "$out/$type.yaml" --to xml -o "$out/$type.xml"
  "$L" convert "$out/$type.xml" --to ndjson -o "$out/$type.ndjson.gz"
  "$L" convert "$out/$type.ndjson.gz" --to json -o "$out/$type.roundtrip.json"
  "$L" validate "$out/$type.roundtrip.json"
done
echo "demo finished"
