#!/usr/bin/env bash
# Emulator benchmark (`make bench` runs every scripts/bench-*.sh).
#  1. records/modify: 200-record batches from 4 concurrent clients over loopback (Python stdlib client,
#     scripts/bench_emulator.py), against the release `larder serve` with a SQLite store (WAL) in bench-data/.
#  2. The peer: the sqlite3 tool inserting the same records in one transaction with json_each.
#  3. records/query p50 / p99 at 100k records (filter + sort + resultsLimit 50).
# Prints records/s, MB/s, the ratio to raw SQLite, and the server's peak RSS (/usr/bin/time -v).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_RECORDS:-20000}
TOTAL=${BENCH_QUERY_RECORDS:-100000}
CLIENTS=${BENCH_CLIENTS:-4}
QUERIES=${BENCH_QUERIES:-300}
command -v sqlite3 >/dev/null || { echo "installing sqlite3"; apt-get install -y -qq sqlite3 >/dev/null; }
swift build -c release --product larder >/dev/null
L=.build/release/larder
D=bench-data/emulator
rm -rf "$D"; mkdir -p "$D"
PY=scripts/bench_emulator.py

python3 - "$D/config.json" <<'PY'
import json, sys
json.dump({"containers": ["iCloud.com.example.bench"], "apiTokens": ["ab" * 32],
           "users": [{"userRecordName": "_bench", "webAuthToken": "bench+token/="}],
           "requestLogCapacity": 100}, open(sys.argv[1], "w"))
PY
python3 $PY records "$D/records.json" "$N"
python3 $PY records "$D/more.json" "$((TOTAL - N))" "$N"
MB=$(python3 -c "import os;print(os.path.getsize('$D/records.json')/1e6)")

# Peer: raw SQLite, one transaction, json_each over the same records.
rm -f "$D/raw.db"
sqlite3 "$D/raw.db" "PRAGMA journal_mode=WAL; CREATE TABLE record (name TEXT PRIMARY KEY, type TEXT, fields TEXT);" >/dev/null
start=$(date +%s.%N)
sqlite3 "$D/raw.db" "BEGIN; INSERT INTO record SELECT json_extract(value,'\$.recordName'), json_extract(value,'\$.recordType'), json_extract(value,'\$.fields') FROM json_each(readfile('$D/records.json')); COMMIT;"
end=$(date +%s.%N)
raw_s=$(echo "$end - $start" | bc -l)
raw_rps=$(echo "$N / $raw_s" | bc -l)

# The emulator under /usr/bin/time for its peak RSS.
/usr/bin/time -v "$L" serve --data "$D/store" --config "$D/config.json" --port 0 > "$D/serve.out" 2> "$D/serve.err" &
TPID=$!
for _ in $(seq 1 100); do [ -s "$D/serve.out" ] && break; sleep 0.1; done
URL=$(head -1 "$D/serve.out")
read -r n emu_s emu_rps < <(python3 $PY modify "$URL" "$D/config.json" "$D/records.json" "$CLIENTS")
python3 $PY modify "$URL" "$D/config.json" "$D/more.json" "$CLIENTS" >/dev/null
read -r p50 p99 < <(python3 $PY query "$URL" "$D/config.json" "$QUERIES")
SPID=$(pgrep -P $TPID larder || true)
kill -INT "${SPID:-$TPID}"; wait $TPID || true
rss=$(grep "Maximum resident" "$D/serve.err" | awk '{print $NF}')

ratio=$(echo "100 * $emu_rps / $raw_rps" | bc -l)
printf "\n%-58s %12s %10s\n" "emulator benchmark ($N records, ${MB} MB JSON)" "records/s" "MB/s"
printf "%-58s %12.0f %10.1f\n" "sqlite3 json_each insert, one transaction (peer)" "$raw_rps" "$(echo "$MB / $raw_s" | bc -l)"
printf "%-58s %12.0f %10.1f\n" "larder serve records/modify, 200/batch, $CLIENTS clients, HTTP" "$emu_rps" "$(echo "$MB / $emu_s" | bc -l)"
printf "%-58s %11.1f%%\n" "emulator / raw SQLite (goal >= 25%)" "$ratio"
printf "%-58s %9.2f ms\n" "records/query p50 at $TOTAL records" "$p50"
printf "%-58s %9.2f ms\n" "records/query p99 at $TOTAL records" "$p99"
printf "%-58s %9.1f MB\n" "emulator peak RSS" "$(echo "${rss:-0} / 1024" | bc -l)"
