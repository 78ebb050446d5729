#!/usr/bin/env bash
# make bench: JSON→NDJSON against jq, python json and orjson on the same generated data.
# Rates are per CPU second (user+sys), so a busy machine does not skew the ratios;
# "ratio" is Larder's rate divided by the peer's (higher is better for Larder).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
N=${BENCH_RECORDS:-100000}
data=$(bench_recipes "$N")
bytes=$(stat -L -c %s "$data")
command -v jq >/dev/null || { apt-get install -y -qq jq >/dev/null 2>&1 || true; }
python3 -c 'import orjson' 2>/dev/null || pip install -q orjson >/dev/null 2>&1 || true

# Every row reads the file from the page cache: the first would otherwise pay for the disk alone.
cat "$data" >/dev/null
bench_header "convert JSON -> NDJSON, $N recipes ($((bytes / 1048576)) MB)"
bench_reset
bench_row "larder convert" "$N" "$bytes" "$LARDER" convert "$data" --to ndjson -o /dev/null
command -v jq >/dev/null && bench_row "jq -c '.[]'" "$N" "$bytes" jq -c '.[]' "$data"
bench_row "python3 json load+dumps" "$N" "$bytes" python3 -c "
import json,sys
out=sys.stdout
for r in json.load(open('$data')): out.write(json.dumps(r,ensure_ascii=False)+'\n')"
python3 -c 'import orjson' 2>/dev/null && bench_row "python3 orjson loads+dumps" "$N" "$bytes" python3 -c "
import orjson,sys
out=sys.stdout.buffer
for r in orjson.loads(open('$data','rb').read()): out.write(orjson.dumps(r)+b'\n')"

# Loose JSON with every version 4 member: the first record of samples/recipes.json (notes, images,
# nutrition, rating; indented, as people's files are) copied N times. Generated records have none of
# those members, so the rows above never leave the fast structure check.
loose=$BENCH_DIR/recipes-loose-$N.json
[ -f "$loose" ] || python3 - "$N" "$loose" <<'PY'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
record = json.dumps(json.load(open("samples/recipes.json"))["records"][0], indent=2, ensure_ascii=False)
with open(path, "w", encoding="utf-8") as out:
    out.write("[\n" + ",\n".join([record] * n) + "\n]\n")
PY
loose_bytes=$(stat -L -c %s "$loose")
cat "$loose" >/dev/null
bench_header "convert loose JSON -> NDJSON, $N copies of samples/recipes.json's first record ($((loose_bytes / 1048576)) MB)"
bench_reset
bench_row "larder convert (loose, v4 members)" "$N" "$loose_bytes" "$LARDER" convert "$loose" --to ndjson -o /dev/null
command -v jq >/dev/null && bench_row "jq -c '.[]' (loose)" "$N" "$loose_bytes" jq -c '.[]' "$loose"
python3 -c 'import orjson' 2>/dev/null && bench_row "python3 orjson loads+dumps (loose)" "$N" "$loose_bytes" python3 -c "
import orjson,sys
out=sys.stdout.buffer
for r in orjson.loads(open('$loose','rb').read()): out.write(orjson.dumps(r)+b'\n')"

if [ "${BENCH_BIG:-1}" = 1 ]; then
  big=$BENCH_DIR/recipes-1m.ndjson
  [ -f "$big" ] || "$LARDER" generate -n 1000000 --to ndjson -o "$big"
  bench_header "memory on 1,000,000 recipes (NDJSON -> JSON), goal < 150 MB peak"
  bench_reset
  bench_row "larder convert 1M" 1000000 "$(stat -L -c %s "$big")" "$LARDER" convert "$big" --to json -o /dev/null
fi
