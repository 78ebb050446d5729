#!/usr/bin/env bash
# Benchmark: larder JSON→YAML and YAML→JSON against PyYAML with libyaml (CSafeDumper / CSafeLoader)
# on the same generated recipes. Prints records/s, MB/s (of the input), peak RSS and the ratios.
#
#   scripts/bench-yaml.sh                          # 100k recipes, release build
#   BENCH_YAML_RECORDS=20000 scripts/bench-yaml.sh # smaller run
#   LARDER=/path/to/larder scripts/bench-yaml.sh   # skip the build
#
# Both sides link the same system libyaml (larder through the CLibYAML shim, PyYAML through its
# C extension), so the ratio compares what each builds around libyaml's events. Data goes to
# bench-data/ (git-ignored) and is reused on the next run.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${BENCH_YAML_RECORDS:-100000}
L=${LARDER:-.build/release/larder}
if [ -z "${LARDER:-}" ]; then swift build -c release --product larder >&2; fi
command -v python3 >/dev/null || { echo "bench-yaml: python3 is required" >&2; exit 3; }

dir=bench-data/yaml
mkdir -p "$dir"
json=$dir/recipes-$N.json
[ -f "$json" ] || python3 scripts/gen-recipes.py "$N" "$json"
yaml=$dir/recipes-$N.yaml
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

have_pyyaml=0
if python3 -c 'import yaml, sys; sys.exit(0 if yaml.__with_libyaml__ else 1)' 2>/dev/null; then
    have_pyyaml=1
else
    echo "bench-yaml: PyYAML with libyaml not found (pip install pyyaml); timing larder only" >&2
fi

rows=()
# run NAME DIRECTION INPUT COMMAND...: times COMMAND, records "name direction seconds rss_kb input_bytes cpu_seconds".
run() {
    local name=$1 direction=$2 input=$3
    shift 3
    /usr/bin/time -v -o "$tmp" "$@" >/dev/null 2>"$tmp.err" || { cat "$tmp.err" >&2; exit 1; }
    local seconds rss cpu
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp")
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp")
    cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { print s }' "$tmp")
    rows+=("$name $direction $seconds $rss $(stat -c %s "$input") $cpu")
    rm -f "$tmp.err"
}

run larder "JSON→YAML" "$json" "$L" convert "$json" --to yaml -o "$yaml"
run larder "YAML→JSON" "$yaml" "$L" convert "$yaml" --to json -o "$dir/larder-back.json"
if cmp -s "$json" "$dir/larder-back.json"; then roundtrip="byte-identical"; else roundtrip="DIFFERENT"; fi

if [ $have_pyyaml = 1 ]; then
    run PyYAML "JSON→YAML" "$json" python3 -c '
import json, sys, yaml
with open(sys.argv[1], encoding="utf-8") as f: records = json.load(f)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    yaml.dump(records, f, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False)
' "$json" "$dir/pyyaml.yaml"
    # PyYAML reads larder's YAML, which also checks that a YAML 1.1 reader gets the same records.
    run PyYAML "YAML→JSON" "$yaml" python3 -c '
import json, sys, yaml
with open(sys.argv[1], encoding="utf-8") as f: records = yaml.load(f, Loader=yaml.CSafeLoader)
with open(sys.argv[2], "w", encoding="utf-8") as f: json.dump(records, f, ensure_ascii=False)
' "$yaml" "$dir/pyyaml-back.json"
    pycheck=$(python3 -c '
import json, sys
a, b = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
print("same records" if a == b else "DIFFERENT records")
' "$json" "$dir/pyyaml-back.json")
fi

echo
echo "YAML benchmark: $N recipes ($(( $(stat -c %s "$json") / 1000000 )) MB JSON, $(( $(stat -c %s "$yaml") / 1000000 )) MB YAML)"
printf '%-8s %-10s %9s %9s %12s %9s %10s\n' tool direction seconds "CPU s" records/s MB/s "peak RSS"
declare -A rate cpurate
for row in "${rows[@]}"; do
    read -r name direction seconds rss bytes cpu <<<"$row"
    r=$(awk -v n="$N" -v s="$seconds" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 0.001) }')
    mbs=$(awk -v b="$bytes" -v s="$seconds" 'BEGIN { printf "%.1f", b / 1e6 / (s > 0 ? s : 0.001) }')
    rate["$name $direction"]=$r
    cpurate["$name $direction"]=$(awk -v n="$N" -v s="$cpu" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 0.001) }')
    printf '%-8s %-10s %9s %9s %12s %9s %7d MB\n' "$name" "$direction" "$seconds" "$cpu" "$r" "$mbs" $((rss / 1024))
done
echo "(records/s and MB/s by wall-clock time; CPU s = user + system, steadier on a busy machine)"
echo
echo "larder YAML→JSON output vs the original JSON: $roundtrip"
if [ $have_pyyaml = 1 ]; then
    echo "PyYAML reading larder's YAML: $pycheck"
    for direction in "JSON→YAML" "YAML→JSON"; do
        awk -v a="${rate[larder $direction]}" -v b="${rate[PyYAML $direction]}" -v d="$direction" \
            -v ca="${cpurate[larder $direction]}" -v cb="${cpurate[PyYAML $direction]}" \
            'BEGIN { printf "ratio larder/PyYAML %s: %.1fx by wall clock, %.1fx by CPU time (target >= 10x)\n", d, a / b, ca / cb }'
    done
fi
