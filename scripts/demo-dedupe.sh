#!/usr/bin/env bash
# `make demo` part: merge the sample saved and created recipe sets (seed 000: the app fetched
# them separately and got the same recipes twice) and show what happened.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== dedupe samples/saved.json + samples/created.json"
"$L" dedupe --saved samples/saved.json --created samples/created.json -o "$out/merged.json" --log "$out/merge-log.json" 2>&1
echo
echo "== clusters (from the merge log)"
python3 - "$out/merge-log.json" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
for c in log["clusters"]:
    rules = ", ".join(f'{m["rule"]} {m["score"]["total"]:.2f}' for m in c["matches"])
    print(f'  {c["title"]:<45} {" + ".join(m["ref"] for m in c["members"]):<26} {rules}')
PY
echo
echo "== why the two \"Pancakes\" stayed apart"
id=$(python3 -c 'import json; print(next(r["id"] for r in json.load(open("samples/created.json"))["records"] if r["title"] == "Pancakes"))')
"$L" dedupe --saved samples/saved.json --created samples/created.json --explain "$id" 2>/dev/null | sed -n '1,2p;/nearest/,$p' | head -6
echo
echo "== the merged set is valid and keeps its envelope"
"$L" validate "$out/merged.json" 2>&1
