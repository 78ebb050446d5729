# Shared helpers for scripts/bench-*.sh: timing with peak RSS, and a results table.
# Usage: source scripts/bench-lib.sh; bench_row NAME RECORDS BYTES -- command args...
BENCH_DIR=${BENCH_DIR:-bench-data}
mkdir -p "$BENCH_DIR"
LARDER=${LARDER:-.build/release/larder}

# bench_recipes N: the path of N generated recipes as a JSON array ($BENCH_DIR/recipes-N.json),
# generated on first use and shared by the scripts that read the same N.
bench_recipes() {
  local path=$BENCH_DIR/recipes-$1.json
  [ -f "$path" ] || "$LARDER" generate -n "$1" -o "$path" >&2
  echo "$path"
}

# bench_measure CMD...: runs CMD (its output goes where the caller redirects it), sets T_WALL, T_CPU
# (user+sys) and T_RSS_MB; returns CMD's status.
bench_measure() {
  local log status=0
  log=$(mktemp)
  /usr/bin/time -o "$log" -f "%e %U %S %M" "$@" || status=$?
  read -r T_WALL T_USER T_SYS T_RSS_KB < <(tail -1 "$log")
  rm -f "$log"
  T_CPU=$(python3 -c "print(round($T_USER+$T_SYS,2))")
  T_RSS_MB=$(python3 -c "print(round($T_RSS_KB/1024,1))")
  return "$status"
}

# bench_time CMD...: bench_measure with CMD's output discarded and its status ignored.
bench_time() { bench_measure "$@" >/dev/null 2>/dev/null || true; }

# bench_record SECTION LABEL KEY=NUMBER...: appends one measurement to $BENCH_ROWS (JSON lines),
# which scripts/bench_summary.py turns into `make bench`'s summary table.
BENCH_ROWS=${BENCH_ROWS:-$BENCH_DIR/rows.ndjson}
bench_record() {
  python3 - "$BENCH_ROWS" "$@" <<'PY'
import json, sys
path, section, label, *pairs = sys.argv[1:]
row = {"section": section, "label": label}
for pair in pairs:
    key, _, value = pair.partition("=")
    row[key] = float(value)
with open(path, "a") as f:
    f.write(json.dumps(row) + "\n")
PY
}

# bench_row LABEL RECORDS BYTES CMD...: prints one table row; remembers the first row of a group as the base.
bench_header() {
  BENCH_SECTION=$1
  printf '\n%s\n' "$1"
  printf '%-34s %9s %9s %12s %9s %10s %8s\n' "tool" "wall s" "cpu s" "records/s" "MB/s" "peak MB" "ratio"
}
bench_row() {
  local label=$1 records=$2 bytes=$3; shift 3
  bench_time "$@"
  local rate mbs
  rate=$(python3 -c "print(int($records/max($T_CPU,0.001)))")
  mbs=$(python3 -c "print(round($bytes/1048576/max($T_CPU,0.001),1))")
  if [ -z "${BENCH_BASE_RATE:-}" ]; then BENCH_BASE_RATE=$rate; ratio="1.00"; else
    ratio=$(python3 -c "print('%.2f' % ($BENCH_BASE_RATE/max($rate,1)))"); fi
  printf '%-34s %9s %9s %12s %9s %10s %8s\n' "$label" "$T_WALL" "$T_CPU" "$rate" "$mbs" "$T_RSS_MB" "${ratio}x"
  bench_record "${BENCH_SECTION:-}" "$label" wall="$T_WALL" cpu="$T_CPU" rate="$rate" rss_mb="$T_RSS_MB" records="$records"
}
bench_reset() { unset BENCH_BASE_RATE; }
