#!/usr/bin/env bash
# Upload benchmark: N recipes (default 100,000) uploaded to a local `larder serve` (release
# build), and how the time splits between the client (`larder upload`) and the server.
# Client CPU and peak RSS come from /usr/bin/time; the server's CPU is read from
# /proc/PID/stat before and after each phase, its peak RSS from /proc/PID/status.
#   scripts/bench-upload.sh [N]        N=100000 by default; BENCH_STORE=memory for an in-memory server
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
N=${1:-${BENCH_UPLOAD_N:-100000}}
STORE_MODE=${BENCH_STORE:-data}
dir="$BENCH_DIR/upload"
mkdir -p "$dir"

if [ -z "${BENCH_NO_BUILD:-}" ]; then
  echo "building larder (release)…"
  swift build -c release --product larder >/dev/null
fi
L=$LARDER

input="$dir/recipes-$N.json"
if [ ! -f "$input" ]; then
  echo "generating $N recipes → $input"
  "$L" generate --type recipe -n "$N" --seed 11 --envelope -o "$input"
fi
bytes=$(stat -L -c %s "$input")

rm -rf "$dir/server" "$dir/upload.journal" "$dir/upload.journal.work" "$dir/out.ndjson" "$dir/out.state" "$dir/dead.ndjson"
mkdir -p "$dir/server"
if [ "$STORE_MODE" = memory ]; then store_flags=(--in-memory); else store_flags=(--data "$dir/server/data"); fi
"$L" serve "${store_flags[@]}" --port 0 --config "$dir/server/config.json" >"$dir/server/url" 2>"$dir/server/log" &
server=$!
trap 'kill -INT $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 200); do [ -s "$dir/server/url" ] && break; sleep 0.05; done
url=$(head -1 "$dir/server/url")
ticks=$(getconf CLK_TCK)
server_cpu() { awk -v t="$ticks" '{print ($14+$15)/t}' "/proc/$server/stat"; }
server_rss() { awk '/VmHWM/ {print $2/1024}' "/proc/$server/status"; }
connect=(--endpoint "$url" --emulator-config "$dir/server/config.json" --zone bench)

run_phase() {  # LABEL RECORDS COMMAND...: wall, client CPU, server CPU, rates
  local label=$1 records=$2; shift 2
  local before after
  before=$(server_cpu)
  bench_time "$@"
  after=$(server_cpu)
  local server_s client_s
  server_s=$(python3 -c "print(round($after-$before,2))")
  client_s=$T_CPU
  bench_record "upload" "$label" wall="$T_WALL" cpu="$client_s" server_cpu="$server_s" rss_mb="$T_RSS_MB" records="$records"
  python3 - "$label" "$records" "$T_WALL" "$client_s" "$server_s" "$T_RSS_MB" "$(server_rss)" <<'PY'
import sys
label, n, wall, client, server, rss, srss = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:])
total = client + server
print(f"{label:<38} {wall:>8.2f} {n / max(wall, 1e-3):>11,.0f} {client:>9.2f} {server:>9.2f} "
      f"{100 * client / max(total, 1e-3):>7.0f}% {100 * server / max(total, 1e-3):>7.0f}% {rss:>9.1f} {srss:>9.1f}")
PY
}

echo
echo "upload benchmark: $N recipes, $((bytes / 1048576)) MB of JSON, server store: $STORE_MODE, $(nproc) cores"
printf '%-38s %8s %11s %9s %9s %8s %8s %9s %9s\n' "phase" "wall s" "records/s" "client s" "server s" "client" "server" "client MB" "server MB"
run_phase "upload (migrate + 200-op batches)" "$N" \
  "$L" upload "$input" "${connect[@]}" --journal "$dir/upload.journal" --dead-letters "$dir/dead.ndjson" \
  --progress none --report "$dir/report.json"
run_phase "upload again (journal: all skipped)" "$N" \
  "$L" upload "$input" "${connect[@]}" --journal "$dir/upload.journal" --dead-letters "$dir/dead.ndjson" --progress none
rm -f "$dir/upload.journal"
run_phase "upload again, journal lost (EXISTS)" "$N" \
  "$L" upload "$input" "${connect[@]}" --journal "$dir/upload.journal" --dead-letters "$dir/dead.ndjson" --progress none
run_phase "download (full, changes/zone)" "$N" \
  "$L" download "${connect[@]}" -o "$dir/out.ndjson" --state "$dir/out.state"
run_phase "download again (no changes)" "$N" \
  "$L" download "${connect[@]}" -o "$dir/out.ndjson" --state "$dir/out.state"
run_phase "migrate alone (client-side stage)" "$N" "$L" migrate "$input" -o "$dir/migrated.json"

# The floor: the sqlite3 tool inserting the same file's records in one transaction with json_each.
command -v sqlite3 >/dev/null || { echo "installing sqlite3"; apt-get install -y -qq sqlite3 >/dev/null 2>&1 || true; }
if command -v sqlite3 >/dev/null; then
  rm -f "$dir/floor.db"*
  sqlite3 "$dir/floor.db" "PRAGMA journal_mode=WAL; CREATE TABLE recipe (id TEXT PRIMARY KEY, body TEXT);" >/dev/null
  bench_time sqlite3 "$dir/floor.db" "BEGIN; INSERT INTO recipe SELECT json_extract(value, '\$.id'), value
    FROM json_each(readfile('$input'), '\$.records'); COMMIT;"
  bench_record "upload" "sqlite3 json_each insert (floor)" wall="$T_WALL" cpu="$T_CPU" rss_mb="$T_RSS_MB" records="$N"
  printf '%-38s %8.2f %11s\n' "sqlite3 json_each insert (floor)" "$T_WALL" \
    "$(python3 -c "print(f'{$N / max($T_WALL, 1e-3):,.0f}')")"
fi

python3 - "$dir/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"\nfirst upload: {r['uploaded']:,} uploaded, {r['deadLetters']} dead letters, {r['requests']} requests, "
      f"{r['bytesSent'] / 1048576:.0f} MB sent; preparing {r['preparationSeconds']:.1f} s, "
      f"uploading {r['seconds'] - r['preparationSeconds']:.1f} s, {r['recordsPerSecond']:,.0f} records/s overall")
PY
