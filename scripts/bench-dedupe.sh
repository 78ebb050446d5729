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
#
# The real peer is Splink (scripts/bench_splink.py: a Fellegi-Sunter model on its DuckDB backend),
# installed here at bench time into a venv under bench-data/ (pinned below; skipped, saying why,
# without pip or the network). It runs on every size (1M takes it 1–2.5 min and 2 GB here;
# BENCH_SPLINK_SIZES caps it), timed like larder, with its precision/recall beside larder's and the
# speed ratio at the same size; and on the tests' labelled sets (4,000 recipes with every edit kind,
# seed 2024; 1,000 with 20 % near-misses, seed 77).
#   BENCH_DEDUPE_SIZES="100000 300000"  to choose sizes; BENCH_DEDUPE_QUALITY=0 to skip P/R;
#   BENCH_SPLINK_SIZES="100000"  Splink's sizes (among BENCH_DEDUPE_SIZES); BENCH_SPLINK=0 skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
SIZES=${BENCH_DEDUPE_SIZES:-"100000 300000 1000000"}
QUALITY=${BENCH_DEDUPE_QUALITY:-1}
SPLINK_SIZES=${BENCH_SPLINK_SIZES:-$SIZES}
SPLINK_PIN=(splink==4.0.17 duckdb==1.4.4)  # duckdb 2 rejects the `x -> ...` lambdas Splink 4 writes
[ -x "$LARDER" ] || swift build -c release --product larder >/dev/null

# Splink in its own venv (bench time only, never `make test`); SPLINK_PY is empty when unavailable.
SPLINK_PY=""
SPLINK_VENV=$BENCH_DIR/splink-venv
if [ "${BENCH_SPLINK:-1}" = 1 ]; then
  if "$SPLINK_VENV/bin/python" -c "import splink, duckdb, sys
sys.exit(f'splink=={splink.__version__} duckdb=={duckdb.__version__}' != '${SPLINK_PIN[*]}')" 2>/dev/null ||
    { { [ -x "$SPLINK_VENV/bin/python" ] || python3 -m venv "$SPLINK_VENV"; } >/dev/null 2>&1 &&
      "$SPLINK_VENV/bin/python" -m pip install -q "${SPLINK_PIN[@]}" >/dev/null 2>&1; }; then
    SPLINK_PY=$SPLINK_VENV/bin/python
  else
    echo "(Splink peer skipped: could not install ${SPLINK_PIN[*]} into $SPLINK_VENV with python3 -m venv and pip)"
  fi
else
  echo "(Splink peer skipped: BENCH_SPLINK=0)"
fi
in_splink_sizes() { [ -n "$SPLINK_PY" ] && [[ " $SPLINK_SIZES " == *" $1 "* ]]; }

# dedupe_row LABEL N BYTES: one row of the table from bench_measure's T_WALL, T_CPU, T_RSS_MB.
dedupe_row() {
  python3 -c "
n=$2; w=$T_WALL; c=$T_CPU; b=$3
print('%-18s %-10d %9.2f %9.2f %12d %14d %9.1f %10.1f %12.1f' % ('$1', n, w, c, n/max(w,0.001), n/max(c,0.001), b/1048576/max(w,0.001), $T_RSS_MB, c*1e6/n))"
}

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

# quality NAME LABELS CLUSTERS: prints NAME and the evaluation; records precision and recall.
quality() {
  local result
  result=$(evaluate "$2" "$3")
  printf '  %-34s %s\n' "$1:" "$result"
  bench_record "dedupe quality" "$1" precision="$(echo "$result" | awk '{print $2}')" \
    recall="$(echo "$result" | awk '{print $4}')"
}

# splink_run N SAVED CREATED OUT: Splink on one pair of sets (its log beside OUT); false if it failed.
splink_run() {
  if ! bench_measure "$SPLINK_PY" scripts/bench_splink.py "$2" "$3" "$4" >/dev/null 2>"${4%.ndjson}-log.txt"; then
    echo "  (Splink failed on $1 records: see ${4%.ndjson}-log.txt)"
    return 1
  fi
}

SPLINK_DONE=""
printf '\n%s\n' "dedupe: saved + created sets, 10% duplicates, 3% near-misses"
[ -n "$SPLINK_PY" ] && echo "Splink peer (${SPLINK_PIN[*]}, DuckDB backend) on: $SPLINK_SIZES records (BENCH_SPLINK_SIZES)"
printf '%-18s %-10s %9s %9s %12s %14s %9s %10s %12s\n' "tool" "records" "wall s" "cpu s" "records/s" "records/cpu-s" "MB/s" "peak MB" "cpu µs/rec"
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
  bench_measure "$LARDER" dedupe --saved "$saved" --created "$created" -o "$BENCH_DIR/dedupe-$N-out.ndjson" \
    --log "$BENCH_DIR/dedupe-$N-log.json" -v 2>"$BENCH_DIR/dedupe-$N-summary.txt"
  dedupe_row "larder dedupe" "$N" "$bytes"
  bench_record "dedupe" "larder dedupe $N" wall="$T_WALL" cpu="$T_CPU" \
    rss_mb="$T_RSS_MB" records="$N"
  in_splink_sizes "$N" || continue
  larder_wall=$T_WALL larder_cpu=$T_CPU
  splink_run "$N" "$saved" "$created" "$BENCH_DIR/dedupe-$N-splink.ndjson" || continue
  dedupe_row "splink" "$N" "$bytes"
  SPLINK_DONE="$SPLINK_DONE $N"
  bench_record "dedupe splink" "splink dedupe $N" wall="$T_WALL" cpu="$T_CPU" \
    rss_mb="$T_RSS_MB" records="$N"
  python3 -c "print('%-18s %-10s larder is %.2fx Splink per CPU second, %.2fx by wall' % ('', '', $T_CPU/max($larder_cpu,0.001), $T_WALL/max($larder_wall,0.001)))"
done

printf '\n%s\n' "phases (wall, and CPU of all threads)"
for N in $SIZES; do
  printf '  %-8s %s\n' "$N" "$(grep -o 'time: .*;' "$BENCH_DIR/dedupe-$N-summary.txt" | sed 's/time: //; s/;$//')"
  [ -f "$BENCH_DIR/dedupe-$N-splink-log.txt" ] && in_splink_sizes "$N" &&
    printf '  %-8s %s\n' "" "$(tail -1 "$BENCH_DIR/dedupe-$N-splink-log.txt")"
done

# same_name_peer SAVED CREATED OUT: the Tandoor-style peer, timed by bench_time (T_CPU).
same_name_peer() {
  bench_time python3 - "$@" <<'PY'
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
}

if [ "$QUALITY" = 1 ]; then
  first=$(echo "$SIZES" | awk '{print $1}')
  for N in $SIZES; do
    [ "$N" = "$first" ] || [[ " $SPLINK_DONE " == *" $N "* ]] || continue
    labels=$BENCH_DIR/dedupe-$N-labels.ndjson
    printf '\n%s\n' "quality on $N generated recipes (pairwise, against the generator's truth)"
    quality "larder dedupe $N" "$labels" "$BENCH_DIR/dedupe-$N-log.json"
    [[ " $SPLINK_DONE " == *" $N "* ]] && quality "splink $N" "$labels" "$BENCH_DIR/dedupe-$N-splink.ndjson"
    if [ "$N" = "$first" ]; then
      same_name_peer "$BENCH_DIR/dedupe-$N-saved.ndjson" "$BENCH_DIR/dedupe-$N-created.ndjson" "$BENCH_DIR/dedupe-$N-peer.ndjson"
      quality "same-name peer $N ($T_CPU cpu s)" "$labels" "$BENCH_DIR/dedupe-$N-peer.ndjson"
      echo "  (Mealie does not dedupe: recall 0.)"
    fi
  done

  # The labelled sets LarderDedupeTests measures (QualityTests.swift), from the same generator.
  for set in "labelled-4000 4000 2024 0.03" "near-miss-1000 1000 77 0.2"; do
    read -r name count seed near <<<"$set"
    base=$BENCH_DIR/dedupe-$name
    [ -f "$base-labels.ndjson" ] || "$LARDER" dedupe-generate --count "$count" --seed "$seed" --near-misses "$near" \
      --saved "$base-saved.ndjson" --created "$base-created.ndjson" --labels "$base-labels.ndjson" 2>/dev/null
    printf '\n%s\n' "quality on the tests' $name set (seed $seed, $count recipes, near-misses $near)"
    "$LARDER" dedupe --saved "$base-saved.ndjson" --created "$base-created.ndjson" -o "$base-out.ndjson" \
      --log "$base-log.json" 2>/dev/null
    quality "larder dedupe $name" "$base-labels.ndjson" "$base-log.json"
    if [ -n "$SPLINK_PY" ] && splink_run "$count" "$base-saved.ndjson" "$base-created.ndjson" "$base-splink.ndjson"; then
      quality "splink $name" "$base-labels.ndjson" "$base-splink.ndjson"
    fi
    same_name_peer "$base-saved.ndjson" "$base-created.ndjson" "$base-peer.ndjson"
    quality "same-name peer $name" "$base-labels.ndjson" "$base-peer.ndjson"
  done
fi
