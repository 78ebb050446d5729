#!/usr/bin/env bash
# Regenerates the samples: JSON from scripts/make-samples.py, YAML and XML from the JSON with larder
# itself, so all three formats hold exactly the same records.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/debug/larder}
python3 scripts/make-samples.py
for name in recipes brew-recipes brew-logs; do
  "$L" convert "samples/$name.json" --to yaml --envelope -o "samples/$name.yaml"
  "$L" convert "samples/$name.json" --to xml -o "samples/$name.xml"
done
