#!/usr/bin/env bash
# make bench: `larder dedupe` on generated saved + created sets of 100k, 300k and 1M recipes
# with 10% duplicates (every edit kind) and 3% near-misses. Data is generated at bench time into
# bench-data/ by the hidden `larder dedupe-generate` (deterministic, with truth labels).
#
# Prints wall time, CPU time (user+sys), records/s (by wall and per CPU second), MB/s, peak RSS
# (/usr/bin/time -v), and CPU µs per record, which stays flat when the scaling is linear. Quality
# (pairwise precision/recall against the labels) is printed for larder and for a Tandoor-style
# peer that merges recipes with the same name (case-insensitive), timed on the same input.
# Goal: 1M recipes in under 30 s wall on 2 cores with bounded memory.
#   BENCH_DEDUPE_SIZES="100000 300000"  to choose sizes; BENCH_DEDUPE_QUALITY=0 to skip P/R.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
SIZES=${BENCH_DEDUPE_SIZES:-"100000 300000 1000000"}
QUALITY=${BENCH_DEDUPE_QUALITY:-1}
[ -x "$LARDER" ] || swift build -c release --product larder >/dev/null

evaluate() {  # evaluate LABELS LOG|PAIRS: pairwise precision/recall
  python3 - "$@" <<'PY'
import json, sys, collections
labels, predicted_path = sys.argv[1], sys.argv[2]
entity = {}
for line in open(labels):
    l = json.loads(line)
    entity[(l["set"], l["index"])] = l["entity"]
def ref(r):
    s, i = r.split("["); return (s, int(i[:-1]))
groups = []
if predicted_path.endswith(".json"):
    for c in json.load(open(predicted_path))["clusters"]:
        groups.append([ref(m["ref"]) for m in c["members"]])
else:
    for line in open(predicted_path):
        groups.append([tuple(x) for x in json.loads(line)])
def pairs(group):
    g = sorted(group); return {(g[i], g[j]) for i in range(len(g)) for j in range(i + 1, len(g))}
pred = set()
for g in groups: pred |= pairs(g)
by = collections.defaultdict(list)
for k, e in entity.items(): by[e].append(k)
truth = set()
for g in by.values(): truth |= pairs(g)
tp = len(pred & truth)
print(f"precision {tp / max(len(pred), 1):.4f}  recall {tp / max(len(truth), 1):.4f}  ({len(pred)} predicted pairs, {len(truth)} true)")
PY
}

printf '\n%s\n' "dedupe: saved + created sets, 10% duplicates, 3% near-misses"
printf '%-10s %9s %9s %12s %14s %9s %10s %12s\n' "records" "wall s" "cpu s" "records/s" "records/cpu-s" "MB/s" "peak MB" "cpu µs/rec"
for N in $SIZES; do
  saved=$BENCH_DIR/dedupe-$N-saved.ndjson
  created=$BENCH_DIR/dedupe-$N-created.ndjson
  labels=$BENCH_DIR/dedupe-$N-labels.ndjson
  [ -f "$labels" ] || "$LARDER" dedupe-generate --count "$N" --seed 42 --saved "$saved" --created "$created" --labels "$labels" 2>/dev/null
  bytes=$(( $(stat -L -c %s "$saved") + $(stat -L -c %s "$created") ))
  # Measure larder, not the disk: the previous run's output (gigabytes at 1M) is removed and
  # written back first, and the inputs are read into the page cache.
  rm -f "$BENCH_DIR/dedupe-$N-out.ndjson" "$BENCH_DIR/dedupe-$N-log.json"
  sync
  cat "$saved" "$created" >/dev/null
  log=$(mktemp)
  /usr/bin/time -v -o "$log" "$LARDER" dedupe --saved "$saved" --created "$created" -o "$BENCH_DIR/dedupe-$N-out.ndjson" \
    --log "$BENCH_DIR/dedupe-$N-log.json" -v 2>"$BENCH_DIR/dedupe-$N-summary.txt"
  wall=$(python3 -c "
import re,sys; t=open('$log').read()
m=re.search(r'Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.*)', t).group(1).split(':')
print(round(sum(float(x)*60**i for i,x in enumerate(reversed(m))),2))")
  user=$(grep 'User time' "$log" | awk '{print $NF}')
  sys=$(grep 'System time' "$log" | awk '{print $NF}')
  rss=$(grep 'Maximum resident' "$log" | awk '{print $NF}')
  rm -f "$log"
  python3 -c "
n=$N; w=$wall; c=$user+$sys; b=$bytes
print('%-10d %9.2f %9.2f %12d %14d %9.1f %10.1f %12.1f' % (n, w, c, n/max(w,0.001), n/max(c,0.001), b/1048576/max(w,0.001), $rss/1024, c*1e6/n))"
  bench_record "dedupe" "larder dedupe $N" wall="$wall" cpu="$(python3 -c "print($user+$sys)")" \
    rss_mb="$(python3 -c "print(round($rss/1024,1))")" records="$N"
done

printf '\n%s\n' "phases (wall, and CPU of all threads)"
for N in $SIZES; do
  printf '  %-8s %s\n' "$N" "$(grep -o 'time: .*;' "$BENCH_DIR/dedupe-$N-summary.txt" | sed 's/time: //; s/;$//')"
done

if [ "$QUALITY" = 1 ]; then
  N=$(echo "$SIZES" | awk '{print $1}')
  saved=$BENCH_DIR/dedupe-$N-saved.ndjson
  created=$BENCH_DIR/dedupe-$N-created.ndjson
  labels=$BENCH_DIR/dedupe-$N-labels.ndjson
  printf '\n%s\n' "quality on $N labelled recipes (pairwise, against the generator's truth)"
  printf '  %-34s ' "larder dedupe:"; evaluate "$labels" "$BENCH_DIR/dedupe-$N-log.json"
  peer=$BENCH_DIR/dedupe-$N-peer.ndjson
  bench_time python3 - "$saved" "$created" "$peer" <<'PY'
# Tandoor-style: recipes with the same name (case-insensitive) are the same recipe.
import json, sys, collections
groups = collections.defaultdict(list)
for role, path in (("saved", sys.argv[1]), ("created", sys.argv[2])):
    for i, line in enumerate(open(path)):
        groups[json.loads(line)["title"].strip().lower()].append((role, i))
with open(sys.argv[3], "w") as out:
    for g in groups.values():
        if len(g) > 1: out.write(json.dumps(g) + "\n")
PY
  printf '  %-34s ' "same-name peer ($T_CPU cpu s):"; evaluate "$labels" "$peer"
  echo "  (Mealie does not dedupe: recall 0.)"
fi
