#!/usr/bin/env bash
# make bench (YAML): convert JSON→YAML and YAML→JSON against PyYAML with libyaml (CSafeDumper /
# CSafeLoader) on the same generated recipes. Rates are per CPU second (user+sys), so a busy
# machine does not skew the ratios; "ratio" is Larder's rate divided by the peer's.
#
# Both sides use the same system libyaml (Larder through the CLibYAML shim, PyYAML through its C
# extension), so the ratio measures what each builds around libyaml's events.
#   BENCH_RECORDS=20000 scripts/bench-yaml.sh   # a smaller run
#   BENCH_YAML_PYYAML=0 scripts/bench-yaml.sh   # Larder only (PyYAML takes minutes on 100k)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
N=${BENCH_RECORDS:-100000}
data=$(bench_recipes "$N")
yaml=$BENCH_DIR/recipes-$N.yaml
back=$BENCH_DIR/recipes-$N.yaml-back.json
bytes=$(stat -L -c %s "$data")

pyyaml=${BENCH_YAML_PYYAML:-1}
if [ "$pyyaml" = 1 ] && ! python3 -c 'import yaml, sys; sys.exit(0 if yaml.__with_libyaml__ else 1)' 2>/dev/null; then
  pip install -q pyyaml >/dev/null 2>&1 || true
  python3 -c 'import yaml, sys; sys.exit(0 if yaml.__with_libyaml__ else 1)' 2>/dev/null || {
    echo "(PyYAML with libyaml is not installed: timing Larder only)"
    pyyaml=0
  }
fi

bench_header "convert JSON -> YAML, $N recipes ($((bytes / 1048576)) MB JSON)"
bench_reset
bench_row "larder convert --to yaml" "$N" "$bytes" "$LARDER" convert "$data" --to yaml -o "$yaml"
[ "$pyyaml" = 1 ] && bench_row "PyYAML json.load + CSafeDumper" "$N" "$bytes" python3 -c "
import json, yaml
with open('$data', encoding='utf-8') as f: records = json.load(f)
with open('/dev/null', 'w', encoding='utf-8') as f:
    yaml.dump(records, f, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False)"

ybytes=$(stat -L -c %s "$yaml")
bench_header "convert YAML -> JSON, $N recipes ($((ybytes / 1048576)) MB YAML written by larder)"
bench_reset
bench_row "larder convert --to json" "$N" "$ybytes" "$LARDER" convert "$yaml" --to json -o "$back"
[ "$pyyaml" = 1 ] && bench_row "PyYAML CSafeLoader + json.dump" "$N" "$ybytes" python3 -c "
import json, yaml
with open('$yaml', encoding='utf-8') as f: records = yaml.load(f, Loader=yaml.CSafeLoader)
with open('/dev/null', 'w', encoding='utf-8') as f: json.dump(records, f, ensure_ascii=False)"

echo
if cmp -s "$data" "$back"; then echo "check: JSON -> YAML -> JSON is byte-identical"; else echo "check: JSON -> YAML -> JSON DIFFERS"; fi
# PyYAML is a YAML 1.1 reader: it must read Larder's YAML to the same records (no `no` -> false).
[ "$pyyaml" = 1 ] && python3 -c "
import json, yaml
with open('$data', encoding='utf-8') as f: a = json.load(f)
with open('$yaml', encoding='utf-8') as f: b = yaml.load(f, Loader=yaml.CSafeLoader)
print('check: PyYAML reads larder\'s YAML as ' + ('the same records' if a == b else 'DIFFERENT records'))"
true
