#!/usr/bin/env bash
# Store maintenance benchmarks (release build; data generated at bench time into bench-data/):
#  1. tombstones compact: 1M tombstones (10% fat), 10 devices (one expires), one transaction with
#     the full report; beside it the floor: one SQL DELETE with the same rule in the sqlite3 CLI
#     (no report, no stripping, no purge queue).
#  2. cache prune: 1M-entry recipe cache, as a JSON file (two streaming passes, atomic rewrite)
#     and as a store table; beside it python's json: load it all, filter, sort, dump.
# Goal: each larder run under 10 s. Wall and CPU seconds, records/s per CPU second, peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
[ -x "$LARDER" ] || swift build -c release --product larder
D=$BENCH_DIR/maintenance
mkdir -p "$D"
N=${BENCH_MAINTENANCE_RECORDS:-1000000}
NOW_STORE=2024-01-14T00:00:00Z
NOW_CACHE=2024-03-01T10:00:00Z

store=$D/tombstones-$N.db
if [ ! -s "$store" ]; then
  rm -f "$store"
  "$LARDER" store import samples/recipes.json --store "$store" 2>/dev/null
  python3 scripts/gen-maintenance-data.py store "$store" "$N"
fi
cachefile=$D/recipe-cache-$N.json
[ -s "$cachefile" ] || python3 scripts/gen-maintenance-data.py cache "$cachefile" "$N"
cachestore=$D/cache-$N.db
if [ ! -s "$cachestore" ]; then
  rm -f "$cachestore"
  "$LARDER" cache import "$cachefile" --store "$cachestore" 2>/dev/null
fi
store_bytes=$(stat -L -c %s "$store")
cache_bytes=$(stat -L -c %s "$cachefile")

bench_header "tombstones compact: $N tombstones, 10 devices ($((store_bytes / 1048576)) MB store)"
bench_reset
cp "$store" "$D/work.db"
bench_row "larder tombstones compact --dry-run" "$N" "$store_bytes" "$LARDER" tombstones compact --store "$D/work.db" --now "$NOW_STORE" --dry-run
bench_row "larder tombstones compact" "$N" "$store_bytes" "$LARDER" tombstones compact --store "$D/work.db" --now "$NOW_STORE"
"$LARDER" tombstones compact --store "$D/work.db" --now "$NOW_STORE" | tail -3
bench_row "larder tombstones compact (2nd run)" "$N" "$store_bytes" "$LARDER" tombstones compact --store "$D/work.db" --now "$NOW_STORE"
if command -v sqlite3 >/dev/null; then
  cp "$store" "$D/work.db"
  now_ms=$(python3 -c "from datetime import datetime,timezone; print(int(datetime(2024,1,14,tzinfo=timezone.utc).timestamp()*1000))")
  bench_row "sqlite3: one DELETE (floor)" "$N" "$store_bytes" sqlite3 "$D/work.db" "
    DELETE FROM records WHERE isDeleted = 1 AND cloudAckAt IS NOT NULL
      AND cloudAckAt <= (SELECT min(coalesce(watermark, -1)) FROM devices WHERE is_self = 0 AND last_seen >= $now_ms - 7776000000)
      AND NOT EXISTS (SELECT 1 FROM pending_changes p WHERE p.type = records.type AND p.id = records.id);"
fi
rm -f "$D/work.db"

bench_header "cache prune: $N entries ($((cache_bytes / 1048576)) MB JSON), 30m TTL, max $((N / 5)) entries"
bench_reset
cp "$cachefile" "$D/work.json"
bench_row "larder cache prune --cache --dry-run" "$N" "$cache_bytes" "$LARDER" cache prune --cache "$D/work.json" --now "$NOW_CACHE" --max-entries $((N / 5)) --dry-run
bench_row "larder cache prune --cache" "$N" "$cache_bytes" "$LARDER" cache prune --cache "$D/work.json" --now "$NOW_CACHE" --max-entries $((N / 5))
"$LARDER" cache prune --cache "$D/work.json" --now "$NOW_CACHE" --max-entries $((N / 5)) | tail -3
cp "$cachestore" "$D/work.db"
bench_row "larder cache prune --store" "$N" "$cache_bytes" "$LARDER" cache prune --store "$D/work.db" --now "$NOW_CACHE" --max-entries $((N / 5))
cp "$cachefile" "$D/work.json"
bench_row "python3 json: load, filter, sort, dump" "$N" "$cache_bytes" python3 -c "
import json, sys
from datetime import datetime, timezone
now = datetime(2024, 3, 1, 10, 0, tzinfo=timezone.utc).timestamp()
ts = lambda s: datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=timezone.utc).timestamp()
c = json.load(open('$D/work.json'))
pins = set(c['pinned']['saved']) | set(c['pinned']['created'])
pinned = lambda e: e['id'] in pins or e['recipe'].get('isSaved') or e['recipe'].get('isCreated')
keep = [e for e in c['records'] if pinned(e) or now - ts(e['fetchedAt']) < 1800]
spare = sorted((e for e in keep if not pinned(e)), key=lambda e: (ts(e['lastAccess']), e['id']))
drop = set(e['id'] for e in spare[:max(0, len(keep) - $((N / 5)))])
c['records'] = [e for e in keep if e['id'] not in drop]
json.dump(c, open('$D/work.json.out', 'w'))"
rm -f "$D/work.json" "$D/work.json.out" "$D/work.db"
