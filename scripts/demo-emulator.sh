#!/usr/bin/env bash
# Emulator demo: start `larder serve` in memory on a free port, load the samples with `larder upload`
# (its record mapping; the demo fails if any record is rejected), query them back, read the change
# feed, and stop the server.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill -INT "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

container=iCloud.com.example.larder
zone=larder
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

echo "== load the samples with larder upload (its record mapping, 200 operations per request)"
samples=()
for f in samples/*.json; do [ -e "$f" ] && samples+=("$f"); done
[ ${#samples[@]} -gt 0 ] || { echo "no samples/*.json to load" >&2; exit 1; }
# The web-auth token is given plain, as `larder serve` prints it for flags.
status=0
"$L" upload "${samples[@]}" --endpoint "$url" --container "$container" --database private --zone "$zone" \
  --api-token "$api" --web-auth-token "$web" --journal "$work/upload.journal" \
  --dead-letters "$work/dead-letters.ndjson" --report "$work/report.json" --progress none || status=$?
[ -s "$work/report.json" ] || { echo "larder upload wrote no report (exit $status)" >&2; exit 1; }
read -r read_count uploaded rejected <<<"$(jq -r '"\(.read) \(.uploaded + .unchanged) \(.deadLetters)"' "$work/report.json")"
for f in "${samples[@]}"; do echo "  $f"; done
echo "  read $read_count records, saved $uploaded, $rejected rejected"
if [ "$rejected" != 0 ] || [ "$status" != 0 ]; then
  [ -s "$work/dead-letters.ndjson" ] && jq -r '"  rejected (\(.stage)) \(.recordName // "record"): \(.reason)"' "$work/dead-letters.ndjson" | head -20
  echo "demo failed: $rejected sample records rejected (larder upload exit $status)" >&2
  exit 1
fi
types=$(curl -sS -X POST "$base/changes/zone?$q" -H 'Content-Type: application/json' \
  -d "{\"zones\":[{\"zoneID\":{\"zoneName\":\"$zone\"},\"resultsLimit\":200}]}" |
  jq -r '[.zones[0].records[] | .recordType // empty] | unique | .[]')

echo "== query them back"
for type in $types; do
  curl -sS -X POST "$base/records/query?$q" -H 'Content-Type: application/json' \
    -d "{\"query\":{\"recordType\":\"$type\"},\"zoneID\":{\"zoneName\":\"$zone\"},\"resultsLimit\":5}" |
    jq -r --arg t "$type" '"  \($t): first \(.records | length) of the page" , (.records[] | "    \(.recordName)  tag=\(.recordChangeTag)  \(.fields | keys | length) fields"), (if .continuationMarker then "    … more pages" else empty end)'
done
echo "== change feed of the $zone zone"
curl -sS -X POST "$base/changes/zone?$q" -H 'Content-Type: application/json' \
  -d "{\"zones\":[{\"zoneID\":{\"zoneName\":\"$zone\"},\"resultsLimit\":200}]}" |
  jq -r '.zones[0] | "  \(.records | length) changes, moreComing=\(.moreComing)"'
echo "== request log"
curl -sS -H "Authorization: Bearer $admin" "$url/_emulator/requests" | jq -r '.requests | "  \(length) requests, \([.[] | select(.status >= 400)] | length) errors"'
echo "demo finished (emulator stopped)"
