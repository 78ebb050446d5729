#!/usr/bin/env bash
# make fuzz: builds the libFuzzer binary (ASan + libFuzzer) and runs every fuzz target (or TARGETS)
# for FUZZ_SECONDS each, seeded from samples/ and ../shared/corpus. Findings are written into
# Fuzz/regressions/<target>/, which `make test` replays; a summary table (execs, coverage, findings
# per target) goes to bench-data/fuzz/summary.md.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
OUT=${FUZZ_OUT:-bench-data/fuzz}
mkdir -p "$OUT"

# lld, not the default gold: gold drops the Swift modules' coverage counters, and libFuzzer then
# sees no coverage at all (measured: 25k counters and "cov: 0" with gold, 140k and growing with lld).
# -Xswiftc -sanitize=fuzzer,address: swiftc keeps only the last of several -sanitize= flags, so SwiftPM's
# "--sanitize=fuzzer --sanitize=address" compiles the Swift modules with ASan but without coverage
# (measured: 8,974 counters, all from the C sources of swift-nio, and a fuzzer that never grows its
# corpus). One comma-separated flag, passed last, gives both.
BUILD=(swift build -c "${FUZZ_CONFIG:-release}" --scratch-path "$SCRATCH" --sanitize=fuzzer --sanitize=address
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
# FUZZ_NO_BUILD=1 runs the binary already built (a second run beside one in progress).
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  LARDER_FUZZ=1 "${BUILD[@]}" --product larder-fuzz >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
BIN=$(LARDER_FUZZ=1 "${BUILD[@]}" --show-bin-path)/larder-fuzz

all=$( (LARDER_FUZZ_TARGET=none "$BIN" 2>&1 || true) | sed -n "s/.*one of: //p")

# Refuse to fuzz blind: the Swift modules must carry coverage counters (the C sources alone give
# under 10k; the Swift modules add well over 100k).
empty=$(mktemp -d)
counters=$( (LARDER_FUZZ_TARGET=json ASAN_OPTIONS=detect_leaks=0 "$BIN" "$empty" -runs=0 2>&1 || true) \
  | sed -n 's/.*(\([0-9]*\) inline 8-bit counters).*/\1/p' | head -1)
rmdir "$empty"
if [ "${counters:-0}" -lt 50000 ]; then
  echo "fuzz: the binary has ${counters:-no} coverage counters; the Swift modules were built without coverage" >&2
  exit 1
fi
echo "fuzz: $counters coverage counters"
targets=${TARGETS:-$all}
corpus_root=../shared/corpus

# Seeds: the sample files whose names end like the target's inputs.
seed() { # target dir suffix...
  local dir=$1; shift
  for suffix in "$@"; do
    # awk reads to the end (head would SIGPIPE find under pipefail)
    find samples "$corpus_root" -type f -name "*$suffix" -not -path '*/bad/*' -size -1000k 2>/dev/null \
      | awk 'NR <= 200' | while read -r f; do cp "$f" "$dir/$(echo "$f" | md5sum | cut -c1-16)"; done
  done
}

printf '| target | seconds | execs | exec/s | coverage (edges) | features | corpus | findings |\n|---|---|---|---|---|---|---|---|\n' >"$OUT/summary.md"
for t in $targets; do
  work="$SCRATCH/corpus/$t"
  mkdir -p "$work" "Fuzz/regressions/$t"
  case $t in
    json|sniff) seed "$work" .json .ndjson ;;
    ndjson) seed "$work" .ndjson .json ;;
    yaml|orf|manifest) seed "$work" .yaml .yml ;;
    xml|recipeml) seed "$work" .xml ;;
    gzip) seed "$work" .gz ;;
    zip|paprika) seed "$work" .zip .paprikarecipes ;;
    html-jsonld|schemaorg) seed "$work" .html .jsonld ;;
    cooklang) seed "$work" .cook ;;
    ingredient-line) seed "$work" .csv ;;
    *) : ;;
  esac
  # Seeds kept for targets whose input no sample is (the emulator's query bodies).
  if [ -d "Fuzz/seeds/$t" ]; then cp Fuzz/seeds/"$t"/* "$work"/; fi
  before=$(ls "Fuzz/regressions/$t" | wc -l)
  log="$OUT/$t.log"
  # detect_leaks=0: LeakSanitizer reports Swift's lazily initialised statics (swift_once) as leaks.
  ASAN_OPTIONS=detect_leaks=0 LARDER_FUZZ_TARGET=$t "$BIN" "$work" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="Fuzz/regressions/$t/" >"$log" 2>&1 || true
  after=$(ls "Fuzz/regressions/$t" | wc -l)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 || true)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1 || true)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  size=$(ls "$work" | wc -l)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$t" "$FUZZ_SECONDS" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$size" "$((after - before))" | tee -a "$OUT/summary.md"
done
echo "summary: $OUT/summary.md; findings (if any) are in Fuzz/regressions/<target>/ and fail make test until fixed"
