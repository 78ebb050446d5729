#!/usr/bin/env bash
# make fuzz: builds the libFuzzer binary (ASan + libFuzzer) and spends a total budget of FUZZ_SECONDS
# fuzzing seconds across the targets (or TARGETS), two at a time, each target's share weighted by how
# much untrusted input it faces. Every target starts from its corpus kept in Fuzz/corpus/<target>/ (plus
# the seeds: samples/, ../shared/corpus, Fuzz/seeds/<target>/), and what it finds is merged back with
# -merge=1 into a minimised corpus, capped in size, so every run starts where the last one stopped.
# Findings are written into Fuzz/regressions/<target>/, which `make test` replays. Each run appends a
# section to Fuzz/STATUS.md (per target: seconds, executions this run and cumulative, exec/s, coverage,
# corpus size, findings; the machine's load while it ran); the same table goes to bench-data/fuzz/summary.md.
# Fuzz/README.md has the weights, the caps and how to read the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-1200} # the sum of the targets' fuzzing seconds; the wall time is about half
JOBS=${FUZZ_JOBS:-2}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
OUT=${FUZZ_OUT:-bench-data/fuzz}
CORPUS=${FUZZ_CORPUS:-Fuzz/corpus}
STATUS=${FUZZ_STATUS:-Fuzz/STATUS.md}
MAX_LEN=${FUZZ_MAX_LEN:-8192} # the longest input of most targets; see max_len below
CAP_FILES=${FUZZ_CORPUS_FILES:-200}
CAP_BYTES=${FUZZ_CORPUS_BYTES:-1048576}
MIN_SECONDS=10 # no target gets less (while the budget allows 10 s for each)
# The parsers a probe found quadratic (and the importer that calls two of them): an input taking over
# 2 s is a finding (timeout-*), not just a slow input.
QUADRATIC=" json yaml csv plain multipart html-text ingredient-repair schemaorg "
# The longest input: 64 KiB where only long inputs show a quadratic parser (the quadratic harnesses; a
# parser quadratic in n takes 64 times as long at 64 KiB as at 8 KiB), MAX_LEN (8 KiB) for the rest.
# Time per input grows with its length (ASan and the comparison tracing cost about 100 ns a byte in the
# HTML scanner), so targets fed whole 64 KiB pages and files ran 45 to 350 inputs a second.
max_len() {
  case $1 in
    json | yaml | csv | plain | multipart | html-text | ingredient-repair) echo 65536 ;;
    *) echo "$MAX_LEN" ;;
  esac
}
mkdir -p "$OUT" "$CORPUS"

# Weights: how much untrusted input a target faces.
#   4: request bodies the emulator takes from any client on the network.
#   3: what comes from the web or from another app unchanged and every import passes through: web pages
#      and their JSON-LD and HTML text, ingredient lines, the JSON/XML/gzip/zip containers, the sniffer,
#      the Paprika and Mela files people download, plain recipe files.
#   2: each other app's export format (a user's own file from that app).
#   1: Larder's own schema registry file.
weight() {
  case $1 in
    ck-request | ck-query | multipart | change-token) echo 4 ;;
    html-jsonld | schemaorg | html-text | ingredient-line | ingredient-repair | json | xml | gzip | zip | sniff | \
      paprika | paprika-entry | mela | plain) echo 3 ;;
    manifest) echo 1 ;;
    *) echo 2 ;;
  esac
}

# lld, not the default gold: gold drops the Swift modules' coverage counters, and libFuzzer then
# sees no coverage at all (measured: 25k counters and "cov: 0" with gold, 140k and growing with lld).
# Coverage only on Larder's own modules: swiftc keeps only the last of several -sanitize= flags, so
# SwiftPM's --sanitize=address gives every module, dependencies included, ASan alone, and Package.swift
# adds "-sanitize=fuzzer,address" (one flag, passed after SwiftPM's) to Larder's targets when LARDER_FUZZ
# is set, and to the fuzz binaries' link (libFuzzer's runtime and main). GRDB, NIO and Hummingbird keep
# ASan without coverage: their 350,000 counters were scanned by libFuzzer after every input (25-37 % of
# csv's and schemaorg's samples). Not --sanitize=fuzzer here: SwiftPM passes its sanitizers in no fixed
# order ("-sanitize=fuzzer -sanitize=address" in one build, the reverse in another), and with the reverse
# the dependencies got coverage without ASan (GRDB's and NIO's objects called __sanitizer_cov_* and no
# __asan_*). (Nor -Xswiftc -sanitize=fuzzer,address, which would instrument every module again.)
BUILD=(swift build -c "${FUZZ_CONFIG:-release}" --scratch-path "$SCRATCH" --sanitize=address -Xswiftc -use-ld=lld)
# Two binaries: larder-fuzz (files and wire formats: no emulator, GRDB, NIO or Hummingbird linked) and
# larder-fuzz-emulator (the emulator's request bodies: ck-query, multipart).
BINARIES="larder-fuzz larder-fuzz-emulator"
# FUZZ_NO_BUILD=1 runs the binaries already built (a second run beside one in progress).
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  : >"$OUT/build.log"
  for product in $BINARIES; do
    LARDER_FUZZ=1 "${BUILD[@]}" --product "$product" >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
  done
fi
BIN_PATH=$(LARDER_FUZZ=1 "${BUILD[@]}" --show-bin-path)

# Each binary's targets (it prints them when LARDER_FUZZ_TARGET names none); bin_of gives a target's binary.
declare -A binary_of
all=""
for product in $BINARIES; do
  for t in $( (LARDER_FUZZ_TARGET=none "$BIN_PATH/$product" 2>&1 || true) | sed -n "s/.*one of: //p"); do
    binary_of[$t]=$BIN_PATH/$product
    all="$all $t"
  done
done
bin_of() { echo "${binary_of[$1]:?fuzz: no binary has the target $1}"; }

# Refuse to fuzz blind: Larder's Swift modules must carry coverage counters (the C sources alone give
# under 10k; Larder's modules over 100k in each binary).
empty=$(mktemp -d)
counts=""
for product in $BINARIES; do
  first=$(LARDER_FUZZ_TARGET=seeds "$BIN_PATH/$product" 2>/dev/null | head -1 | cut -d' ' -f1 || true)
  counters=$( (LARDER_FUZZ_TARGET=$first ASAN_OPTIONS=detect_leaks=0 "$BIN_PATH/$product" "$empty" -runs=0 2>&1 || true) \
    | sed -n 's/.*(\([0-9]*\) inline 8-bit counters).*/\1/p' | head -1)
  if [ "${counters:-0}" -lt 50000 ]; then
    echo "fuzz: $product has ${counters:-no} coverage counters; the Swift modules were built without coverage" >&2
    exit 1
  fi
  counts="$counts, $product $counters"
done
rmdir "$empty"
echo "fuzz: coverage counters${counts#,}"
targets=${TARGETS:-$all}
corpus_root=../shared/corpus

# The budget: MIN_SECONDS each (less when the budget is smaller), the rest by weight.
n=0 total_weight=0
for t in $targets; do
  n=$((n + 1))
  total_weight=$((total_weight + $(weight "$t")))
done
base=$((FUZZ_SECONDS / n < MIN_SECONDS ? FUZZ_SECONDS / n : MIN_SECONDS))
rest=$((FUZZ_SECONDS - base * n))
declare -A share
for t in $targets; do share[$t]=$((base + rest * $(weight "$t") / total_weight)); done
echo "fuzz: $FUZZ_SECONDS s over $n targets, $JOBS at a time (wall time about $((FUZZ_SECONDS / JOBS / 60)) min plus merges)"

# Seeds: the sample files whose names end like the target's inputs (its seedSuffixes in FuzzTargets,
# and a few more below), cut to the target's longest input (what libFuzzer reads of a file anyway),
# plus the seeds kept in Fuzz/seeds/<target>/ (for targets whose input no sample is).
suffixes=$(for product in $BINARIES; do LARDER_FUZZ_TARGET=seeds ASAN_OPTIONS=detect_leaks=0 "$BIN_PATH/$product" 2>/dev/null || true; done)
seed() { # target dir suffix...
  local target=$1 dir=$2 len
  len=$(max_len "$1")
  shift 2
  for suffix in "$@"; do
    # awk reads to the end (head would SIGPIPE find under pipefail)
    find samples "$corpus_root" -type f -name "*$suffix" -not -path '*/bad/*' 2>/dev/null \
      | awk 'NR <= 200' | while read -r f; do
        local name
        name=$dir/$(echo "$f" | md5sum | cut -c1-16)
        head -c "$len" "$f" >"$name"
        # A web page's JSON-LD blocks in a page of their own: the start of a page is mostly styles and
        # scripts, and its JSON-LD often begins past 8 KiB.
        case $f in *.html | *.htm)
          perl -0777 -ne 'my @b = m{(<script[^>]*ld\+json[^>]*>.*?</script>)}gis; print "<!doctype html><html><head>", @b, "</head><body></body></html>" if @b' "$f" \
            | head -c "$len" >"$name.jsonld.html"
          [ -s "$name.jsonld.html" ] || rm -f "$name.jsonld.html" ;;
        esac
      done
  done
  if [ -d "Fuzz/seeds/$target" ]; then cp Fuzz/seeds/"$target"/* "$dir"/; fi
}

seeds_of() { # target dir
  local own
  # shellcheck disable=SC2046 # the suffixes are words
  own=$(echo "$suffixes" | awk -v t="$1" '$1 == t { $1 = ""; print }')
  case $1 in
    json | sniff) seed "$1" "$2" $own .ndjson ;;
    ndjson) seed "$1" "$2" $own ;;
    yaml | orf | manifest) seed "$1" "$2" $own .yaml .yml ;;
    zip | paprika) seed "$1" "$2" $own .zip .paprikarecipes ;;
    html-jsonld | schemaorg) seed "$1" "$2" $own .html .jsonld ;;
    ingredient-line) seed "$1" "$2" $own .csv ;;
    html-text | ingredient-repair | multipart) seed "$1" "$2" ;; # their own seeds only: short texts
    *) seed "$1" "$2" $own ;;
  esac
}

# The corpus to keep when the merged one is past the cap: from the merge's control file, the inputs
# that reach the most features first (the deep ones: a query that reaches SQL, a whole export), each
# taken only if it adds a feature, while they fit CAP_FILES and CAP_BYTES. (Keeping the smallest files
# instead kept 200 one-byte inputs of ck-query and lost three quarters of its edges.) Prints the paths.
capped_selection() { # control-file
  awk 'FNR == 1 { n = $1; next } FNR == 2 { next } FNR <= n + 2 { print FNR - 3, 0, 0; next }
    $1 == "STARTED" { size[$2] = $3 } $1 == "FT" { print $2, NF - 2, size[$2] }' "$1" \
    | awk '{ nf[$1] = $2; sz[$1] = $3 } END { for (i in nf) print nf[i], sz[i], i }' | sort -k1,1nr -k2,2n \
    | awk -v capf="$CAP_FILES" -v capb="$CAP_BYTES" -v ctl="$1" '
      BEGIN {
        while ((getline line < ctl) > 0) {
          r++
          if (r == 1) { n = line + 0; continue }
          if (r == 2) continue
          if (r <= n + 2) { path[r - 3] = line; continue }
          split(line, w, " ")
          if (w[1] == "FT") ft[w[2]] = line
        }
      }
      {
        i = $3
        # (no early exit: sort would die of SIGPIPE, and pipefail would end the job)
        if (count >= capf || bytes + $2 > capb || !(i in ft)) next
        m = split(ft[i], f, " ")
        new = 0
        for (k = 3; k <= m; k++) if (!(f[k] in seen)) { new = 1; break }
        if (!new) next
        for (k = 3; k <= m; k++) seen[f[k]] = 1
        count++
        bytes += $2
        print path[i]
      }'
}

# detect_leaks=0: LeakSanitizer reports Swift's lazily initialised statics (swift_once) as leaks.
# malloc_context_size=0: no stack recorded per allocation (12 % more inputs a second on ndjson); a
# use-after-free report then lacks the allocation's stack, which replaying the finding without it shows.
ASAN=${FUZZ_ASAN_OPTIONS:-detect_leaks=0:malloc_context_size=0}

# One target: fuzz for its share, merge the corpus back, leave a row of figures in $work/row.
run_one() { # target seconds
  local t=$1 secs=$2 bin
  local work="$SCRATCH/fuzz/$t" keep="$CORPUS/$t" timeout=10 len
  bin=$(bin_of "$t")
  len=$(max_len "$t")
  case $QUADRATIC in *" $t "*) timeout=2 ;; esac
  rm -rf "$work"
  mkdir -p "$work/new" "$work/seeds" "$work/merged" "$work/merge-artifacts" "$keep" "Fuzz/regressions/$t"
  # The seeds go in while the kept corpus is (nearly) empty, or with FUZZ_RESEED=1: after that the
  # corpus holds what of them counts, and whole seed files fed again every run slowed every run down
  # (plain: 324 inputs a second in a run with its 64 KiB seeds, 794 from its kept corpus alone).
  if [ -n "${FUZZ_RESEED:-}" ] || [ "$(find "$keep" -type f | wc -l)" -lt 10 ]; then
    seeds_of "$t" "$work/seeds"
  elif [ -d "Fuzz/seeds/$t" ]; then
    cp Fuzz/seeds/"$t"/* "$work/seeds"/ # the hand-made seeds are small: every run
  fi
  local before after start elapsed
  before=$(find "Fuzz/regressions/$t" -type f -not -name README.md | sort)
  start=$(date +%s)
  # New inputs go to the first folder ($work/new); the kept corpus is only read.
  ASAN_OPTIONS=$ASAN LARDER_FUZZ_TARGET=$t "$bin" "$work/new" "$keep" "$work/seeds" \
    -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb=2048 -max_len="$len" -print_final_stats=1 \
    -artifact_prefix="Fuzz/regressions/$t/" >"$OUT/$t.log" 2>&1 || true
  elapsed=$(($(date +%s) - start))
  after=$(find "Fuzz/regressions/$t" -type f -not -name README.md | sort)
  # Merge the kept corpus, this run's inputs and the seeds into a minimised set (smallest first),
  # then cap it; the kept corpus is replaced only by a merge that finished.
  local dropped=0 merged_edges
  if ASAN_OPTIONS=$ASAN LARDER_FUZZ_TARGET=$t "$bin" -merge=1 -merge_control_file="$work/merge.control" \
    "$work/merged" "$keep" "$work/new" "$work/seeds" \
    -timeout="$timeout" -rss_limit_mb=2048 -max_len="$len" -artifact_prefix="$work/merge-artifacts/" \
    >"$OUT/$t.merge.log" 2>&1 && [ -n "$(ls -A "$work/merged")" ]; then
    local merged_files merged_bytes
    merged_files=$(find "$work/merged" -type f | wc -l)
    merged_bytes=$(find "$work/merged" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    if [ "$merged_files" -gt "$CAP_FILES" ] || [ "$merged_bytes" -gt "$CAP_BYTES" ]; then
      mkdir -p "$work/capped"
      capped_selection "$work/merge.control" | while read -r f; do
        cp "$f" "$work/capped/$(sha1sum "$f" | cut -c1-40)"
      done
      dropped=$((merged_files - $(find "$work/capped" -type f | wc -l)))
      [ "$dropped" -ge 0 ] || dropped=0
      rm -rf "$work/merged"
      mv "$work/capped" "$work/merged"
    fi
    find "$keep" -type f -delete
    mv "$work/merged"/* "$keep"/
  else
    echo "fuzz: $t: the merge failed ($OUT/$t.merge.log); Fuzz/corpus/$t is unchanged" >&2
  fi
  merged_edges=$(sed -n 's/.* \([0-9]*\) new coverage edges.*/\1/p' "$OUT/$t.merge.log" | tail -1)
  local execs rate cov ft files kb findings
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/$t.log" | tail -1)
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$OUT/$t.log" | tail -1 | tr -d '#' || true)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$OUT/$t.log" | tail -1)
  [ -n "$rate" ] || rate=$((${execs:-0} / (elapsed > 0 ? elapsed : 1)))
  cov=$(grep -o 'cov: [0-9]*' "$OUT/$t.log" | tail -1 | cut -d' ' -f2 || true)
  ft=$(grep -o 'ft: [0-9]*' "$OUT/$t.log" | tail -1 | cut -d' ' -f2 || true)
  files=$(find "$keep" -type f | wc -l)
  kb=$(($(find "$keep" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}') / 1024))
  findings=$(comm -13 <(echo "$before") <(echo "$after") | grep -v '^$' | xargs -r -n1 basename | paste -sd' ' - || true)
  local corpus="$files files, $kb KB"
  [ "$dropped" -eq 0 ] || corpus="$corpus ($dropped dropped by the cap)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$(weight "$t")" "$timeout" "$elapsed" "${execs:-0}" \
    "${rate:-0}" "${cov:-?}" "${merged_edges:-?}" "${ft:-?}" "$corpus" "${findings:-none}" >"$work/row"
  echo "fuzz: $t: $elapsed s, ${execs:-0} execs, ${rate:-0}/s, cov ${cov:-?}, corpus $files files, findings: ${findings:-none}"
}

# The machine's load while fuzzing: the 1-minute load average every 15 s.
loadlog="$SCRATCH/fuzz-load.txt"
mkdir -p "$SCRATCH"
: >"$loadlog"
(while true; do
  cut -d' ' -f1 /proc/loadavg >>"$loadlog"
  sleep 15
done) &
sampler=$!
trap 'kill $sampler 2>/dev/null || true' EXIT

started=$(date -u '+%Y-%m-%d %H:%M UTC')
# The commit fuzzed, and whether the sources differed from it (the run's own outputs aside).
commit="$(git rev-parse --short HEAD 2>/dev/null || echo '?')"
git diff --quiet HEAD -- . ':!Fuzz/corpus' ':!Fuzz/STATUS.md' ':!Fuzz/regressions' 2>/dev/null || commit="$commit (with local changes)"
day=$(date -u '+%Y-%m-%d')
# Longest share first, JOBS at a time.
order=$(for t in $targets; do echo "${share[$t]} $t"; done | sort -rn | cut -d' ' -f2)
running=0
for t in $order; do
  if [ $running -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$t" "${share[$t]}" &
  running=$((running + 1))
done
while [ $running -gt 0 ]; do
  wait -n || true
  running=$((running - 1))
done
kill $sampler 2>/dev/null || true
# The targets' scratch files (FuzzTargets.withTemporaryFile) of processes that have ended.
for d in /dev/shm/larder-fuzz-* "${TMPDIR:-/tmp}"/larder-fuzz-*; do
  if [ -d "$d" ] && ! kill -0 "${d##*-}" 2>/dev/null; then rm -rf "$d"; fi
done
load=$(awk '{s += $1; if ($1 > m) m = $1} END {if (NR) printf "mean %.2f, max %.2f (%d samples)", s / NR, m, NR; else print "not sampled"}' "$loadlog")

# Cumulative executions: this run's plus every earlier row of the target in STATUS.md (column 7).
cumulative() { # target
  [ -f "$STATUS" ] || { echo 0; return; }
  awk -F'|' -v t="$1" 'NF == 15 { gsub(/ /, "", $3); gsub(/[ ,]/, "", $7); if ($3 == t) s += $7 } END { print s + 0 }' "$STATUS"
}
header='| date | target | weight | timeout (s) | seconds | execs | cumulative execs | exec/s | coverage (edges) | corpus edges | features | corpus | findings |
|---|---|---|---|---|---|---|---|---|---|---|---|---|'
rows=""
ran=0 execs_total=0
for t in $targets; do
  row="$SCRATCH/fuzz/$t/row"
  [ -f "$row" ] || continue
  IFS=$'\t' read -r name w to secs execs rate cov edges ft corpus findings <"$row"
  cum=$(($(cumulative "$name") + execs))
  ran=$((ran + secs))
  execs_total=$((execs_total + execs))
  rows+="| $day | $name | $w | $to | $secs | $execs | $cum | $rate | $cov | $edges | $ft | $corpus | $findings |"$'\n'
done
section="## $started: $ran s of fuzzing (budget $FUZZ_SECONDS s), $JOBS at a time

Commit $commit; \
$(nproc) cores; load average (1 min) while it ran: $load; $execs_total executions in all; coverage counters:${counts#,}.

$header
$rows"
if [ ! -f "$STATUS" ]; then
  printf '# Fuzzing status\n\nAppended by `make fuzz` (scripts/fuzz.sh); see Fuzz/README.md for the columns.\n\n' >"$STATUS"
fi
printf '%s\n' "$section" >>"$STATUS"
printf '%s\n' "$section" >"$OUT/summary.md"
echo "fuzz: $ran s of fuzzing; $STATUS and $OUT/summary.md have the figures; findings (if any) are in Fuzz/regressions/<target>/ and fail make test until fixed"
