#!/usr/bin/env bash
# make bench (import): `larder import` of records already in Larder's own format (`larder generate`)
# beside `larder convert` of the same file to JSON, the pace import is held to (issue 32: import at
# least half convert's rate per CPU second). Import does what convert does not: it reads each record
# as a recipe to bring in (ingredient lines, step labels, times), builds the Larder record, takes the
# field and leaf census, fingerprints it against duplicates and writes the report.
#   BENCH_IMPORT_RECORDS=10000 scripts/bench-import.sh   # a smaller run
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
N=${BENCH_IMPORT_RECORDS:-50000}
data=$(bench_recipes "$N")
bytes=$(stat -L -c %s "$data")
out=$BENCH_DIR/import-$N

bench_header "import of Larder's own records vs convert, $N recipes ($((bytes / 1048576)) MB JSON)"
bench_reset
bench_row "larder convert --to json" "$N" "$bytes" "$LARDER" convert "$data" --to json -o "$out-convert.json" --quiet
bench_row "larder import" "$N" "$bytes" "$LARDER" import "$data" -o "$out-import.json" --quiet
rm -f "$out-convert.json" "$out-import.json"
