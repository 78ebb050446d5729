#!/usr/bin/env bash
# The whole pipeline on the bundled samples: migrate the old app versions' records, dedupe the
# saved and created recipe sets, upload everything into an in-memory CloudKit emulator, download
# it back, and compare with what went in. Then the incremental part: a second download fetches
# only the changes, and a re-run of the upload is skipped by its journal.
set -euo pipefail
cd "$(dirname "$0")/.."
L=${LARDER:-.build/release/larder}
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill -INT "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== start an in-memory emulator on a free port"
"$L" serve --in-memory --port 0 --config "$work/emulator.json" >"$work/url" 2>"$work/serve.log" &
server_pid=$!
for _ in $(seq 1 200); do [ -s "$work/url" ] && break; sleep 0.05; done
url=$(head -1 "$work/url")
[ -n "$url" ] || { cat "$work/serve.log"; exit 1; }
echo "  $url (container and credentials from the config it wrote: $work/emulator.json)"
connect=(--endpoint "$url" --emulator-config "$work/emulator.json" --zone demo)

echo; echo "== migrate: Cheffy v1 recipes and BrewGuide v1 logs to the newest versions"
"$L" migrate samples/v1/recipes-v1.json -o "$work/saved-recipes.json"
"$L" migrate samples/v1/brew-logs-v1.json -o "$work/brew-logs.json"

echo; echo "== dedupe: the saved set (migrated v1) against the created set (samples/recipes.json)"
"$L" dedupe --saved "$work/saved-recipes.json" --created samples/recipes.json -o "$work/recipes.json" --log "$work/merge-log.json"

inputs=("$work/recipes.json" "$work/brew-logs.json" samples/brew-logs.json samples/brew-recipes.json)
echo; echo "== upload (journal, batches of 200, retries): ${inputs[*]##*/}"
"$L" upload "${inputs[@]}" "${connect[@]}" --journal "$work/upload.journal" --dead-letters "$work/dead-letters.ndjson" \
  --report "$work/upload-report.json" --progress lines

echo; echo "== download everything back (changes/zone, with a state file for next time)"
"$L" download "${connect[@]}" -o "$work/downloaded.ndjson" --state "$work/download.state"

echo; echo "== compare"
python3 - "$work/upload-report.json" "$work/downloaded.ndjson" "${inputs[@]}" <<'PY'
import json, sys
report, downloaded, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
def records(path):
    if path.endswith(".ndjson"):
        return [json.loads(line) for line in open(path) if line.strip()]
    data = json.load(open(path))
    return data["records"] if isinstance(data, dict) else data
sent = {}
for path in inputs:
    for record in records(path):
        sent[record["id"]] = record   # later files win, as later uploads of a record do
back = {record["id"]: record for record in records(downloaded)}
uploaded = json.load(open(report))
differ = [key for key in sent if back.get(key) != sent[key]]
extra = [key for key in back if key not in sent]
print(f"  {uploaded['uploaded']} uploaded ({uploaded['read']} read, {uploaded['deadLetters']} dead letters), "
      f"{len(back)} downloaded, {len(sent)} distinct input records: "
      + ("equal" if not differ and not extra else f"NOT equal ({len(differ)} differ, {len(extra)} unexpected)"))
sys.exit(1 if differ or extra else 0)
PY

echo; echo "== run both again: the upload is skipped by its journal, the download asks only for changes"
"$L" upload "${inputs[@]}" "${connect[@]}" --journal "$work/upload.journal" --dead-letters "$work/dead-letters.ndjson" --progress none 2>&1 |
  grep -E "unchanged|requests"
"$L" download "${connect[@]}" -o "$work/downloaded.ndjson" --state "$work/download.state" 2>&1 | grep -E "changes since|requests"
echo; echo "== images: a Paprika archive with photos → import → upload (assets) → download into an empty folder"
mkdir -p "$work/photos-in" "$work/photos-out"
"$L" import samples/import/sample.paprikarecipes -o "$work/photos-in/recipes.json" 2>&1 | grep -E "imported,"
photos=(--endpoint "$url" --emulator-config "$work/emulator.json" --zone photos)
"$L" upload "$work/photos-in/recipes.json" "${photos[@]}" --journal "$work/photos.journal" \
  --dead-letters "$work/photos-dead.ndjson" --progress none 2>&1 | grep -E "uploaded|images|dead letters"
"$L" download "${photos[@]}" -o "$work/photos-out/recipes.json" 2>&1 | grep -E "full fetch|images"
python3 - "$work/photos-in" "$work/photos-out" <<'PY'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
def refs(folder):
    data = json.load(open(os.path.join(folder, "recipes.json")))
    records = data["records"] if isinstance(data, dict) else data
    found = set()
    for r in records:
        for ref in [r.get("imageRef")] + [i.get("ref") for i in r.get("images", [])]:
            if ref and "://" not in ref:
                found.add(ref)
    return found
# download writes images only into images/ beside its output, under names it makes (a server must
# not choose where files land), so the images are compared by their bytes, not by their paths.
def contents(folder, found):
    return sorted(open(os.path.join(folder, p), "rb").read() for p in found if os.path.isfile(os.path.join(folder, p)))
sent, back = refs(src), refs(dst)
before, after = contents(src, sent), contents(dst, back)
same = [b for b in before if b in after]
print(f"  {len(sent)} image(s) imported, {len(back)} referenced after download, {len(same)} identical byte for byte")
sys.exit(0 if sent and len(same) == len(sent) and before == after else 1)
PY
echo "pipeline demo finished"
