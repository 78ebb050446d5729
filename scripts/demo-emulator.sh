#!/usr/bin/env bash
# Emulator demo: start `larder serve` in memory on a free port, load the samples through
# records/modify (curl), query them back, read the change feed, and stop the server.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill -INT "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

container=iCloud.com.example.larder
api=$(printf 'de%.0s' $(seq 1 32))
web='demo+alice/token='
admin=$(printf 'ad%.0s' $(seq 1 32))
cat > "$work/config.json" <<JSON
{"containers": ["$container"], "apiTokens": ["$api"], "adminToken": "$admin",
 "users": [{"userRecordName": "_a11ce", "webAuthToken": "$web", "emailAddress": "alice@example.com", "firstName": "Alice"}]}
JSON
"$L" serve --in-memory --port 0 --config "$work/config.json" >"$work/url" 2>"$work/log" &
server_pid=$!
for _ in $(seq 1 100); do [ -s "$work/url" ] && break; sleep 0.1; done
url=$(head -1 "$work/url")
[ -n "$url" ] || { cat "$work/log"; exit 1; }
echo "== emulator at $url"
q="ckAPIToken=$api&ckWebAuthToken=$(python3 -c 'import sys,urllib.parse;print(urllib.parse.quote(sys.argv[1],safe=""))' "$web")"
base="$url/database/1/$container/development/private"

echo "== load the samples (records/modify, 200 per request)"
python3 - "$work" samples/*.json <<'PY'
import json, os, re, sys
work, files = sys.argv[1], [f for f in sys.argv[2:] if os.path.exists(f)]
def records_of(path):
    data = json.load(open(path))
    if isinstance(data, dict):
        data = data.get("records", [data])
    return data
def cloudkit(record, record_type, index):
    fields = {}
    for key, value in record.items():
        if key == "id" or value is None:
            continue
        if isinstance(value, (dict,)) or (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)) \
                or (isinstance(value, list) and not value):
            value = json.dumps(value)          # nested structures travel as JSON text
        elif isinstance(value, bool):
            value = int(value)
        elif isinstance(value, list) and len({type(v) for v in value}) > 1:
            value = [str(v) for v in value]
        name = "".join(c if c.isalnum() and c.isascii() else "_" for c in key)
        fields[name if name[:1].isalpha() else "f" + name] = {"value": value}
    return {"recordName": str(record.get("id", "%s-%d" % (record_type, index))), "recordType": record_type, "fields": fields}
batches = []
sources = [(f, os.path.basename(f).split(".")[0].replace("-", " ").title().replace(" ", "").rstrip("s")) for f in files]
if not sources:
    sample = [{"id": "pancakes", "title": "Pancakes", "servings": 4, "tags": ["breakfast", "sweet"]},
              {"id": "shakshuka", "title": "Shakshuka", "servings": 2, "tags": ["breakfast", "savory"]},
              {"id": "carbonara", "title": "Pasta Carbonara", "servings": 4, "tags": ["dinner"]}]
    json.dump(sample, open(os.path.join(work, "recipes.json"), "w"))
    sources = [(os.path.join(work, "recipes.json"), "Recipe")]
for path, record_type in sources:
    records = [cloudkit(r, record_type, i) for i, r in enumerate(records_of(path)) if isinstance(r, dict)]
    for start in range(0, len(records), 200):
        ops = [{"operationType": "forceReplace", "record": r} for r in records[start:start + 200]]
        batches.append({"operations": ops, "atomic": False})
    print("  %-40s %5d records as %s" % (path if not path.startswith(work) else "(built-in recipes)", len(records), record_type))
for i, batch in enumerate(batches):
    json.dump(batch, open(os.path.join(work, "batch-%03d.json" % i), "w"))
json.dump(sorted({t for _, t in sources}), open(os.path.join(work, "types.json"), "w"))
PY
loaded=0; failed=0
for batch in "$work"/batch-*.json; do
  answer=$(curl -sS -X POST "$base/records/modify?$q" -H 'Content-Type: application/json' --data-binary @"$batch")
  loaded=$((loaded + $(echo "$answer" | jq '[.records[] | select(.serverErrorCode == null)] | length')))
  failed=$((failed + $(echo "$answer" | jq '[.records[] | select(.serverErrorCode != null)] | length')))
  echo "$answer" | jq -r '.records[] | select(.serverErrorCode != null) | "  rejected \(.recordName): \(.serverErrorCode) \(.reason)"'
done
echo "  saved $loaded records, $failed rejected"

echo "== query them back"
for type in $(jq -r '.[]' "$work/types.json"); do
  curl -sS -X POST "$base/records/query?$q" -H 'Content-Type: application/json' \
    -d "{\"query\":{\"recordType\":\"$type\"},\"resultsLimit\":5}" |
    jq -r --arg t "$type" '"  \($t): first \(.records | length) of the page" , (.records[] | "    \(.recordName)  tag=\(.recordChangeTag)  \(.fields | keys | length) fields"), (if .continuationMarker then "    … more pages" else empty end)'
done
echo "== change feed of the default zone"
curl -sS -X POST "$base/changes/zone?$q" -H 'Content-Type: application/json' \
  -d '{"zones":[{"zoneID":{"zoneName":"_defaultZone"},"resultsLimit":200}]}' |
  jq -r '.zones[0] | "  \(.records | length) changes, moreComing=\(.moreComing)"'
echo "== request log"
curl -sS -H "Authorization: Bearer $admin" "$url/_emulator/requests" | jq -r '.requests | "  \(length) requests, \([.[] | select(.status >= 400)] | length) errors"'
echo "demo finished (emulator stopped)"
