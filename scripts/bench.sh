#!/usr/bin/env bash
# make bench: every area's benchmark, release build, peers side by side; then one summary table of
# the goals (scripts/bench_summary.py), also written as JSON under bench-data/ for comparing runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_DIR=${BENCH_DIR:-bench-data}
export BENCH_ROWS=$BENCH_DIR/rows.ndjson
mkdir -p "$BENCH_DIR"
: >"$BENCH_ROWS"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (figures are for a quiet machine)"
for script in scripts/bench-*.sh; do
  [ "$script" = scripts/bench-lib.sh ] && continue
  echo "### $script"
  bash "$script" || echo "($script failed)"
done
python3 scripts/bench_summary.py "$BENCH_ROWS" "$BENCH_DIR"
