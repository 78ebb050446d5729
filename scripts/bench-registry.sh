#!/usr/bin/env bash
# Schema registry benchmarks (release build; data generated into bench-data/, git-ignored):
#  1. migrate recipes v1 → v3 file to file, streaming: 100k and 1M records, records/s and peak RSS;
#  2. JSON Schema validation of the same 100k v3 recipes: larder vs python jsonschema vs jsonschema-rs
#     (whole processes, load included);
#  3. XSD validation of those recipes as XML: larder vs xmllint --stream --schema.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
[ -x "$LARDER" ] || swift build -c release --product larder
D=$BENCH_DIR/registry
mkdir -p "$D"
N_BIG=${BENCH_REGISTRY_RECORDS:-1000000}
N_VAL=100000

# Peers (installed on demand; a missing peer is reported and skipped).
python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install -q jsonschema rfc3339-validator rfc3986-validator >/dev/null 2>&1 || true
python3 -c "import jsonschema_rs" 2>/dev/null || python3 -m pip install -q jsonschema-rs >/dev/null 2>&1 || true
# (apt's sandbox user may fail to run gpgv here; installing as root then works.)
command -v xmllint >/dev/null || apt-get install -y -qq libxml2-utils >/dev/null 2>&1 \
  || { apt-get -o APT::Sandbox::User=root update -qq && apt-get -o APT::Sandbox::User=root install -y -qq libxml2-utils; } >/dev/null 2>&1 || true

for n in $N_VAL $N_BIG; do
  [ -s "$D/recipes-v1-$n.json" ] || python3 scripts/gen-registry-data.py recipe-v1 "$n" "$D/recipes-v1-$n.json" --image-every 100
done

bench_header "migrate recipe v1 → v3, file to file (JSON envelope; 1 in 100 records moves an image out)"
for n in $N_VAL $N_BIG; do
  bytes=$(stat -L -c %s "$D/recipes-v1-$n.json")
  rm -rf "$D/out-$n" && mkdir -p "$D/out-$n"
  bench_row "larder migrate ($n records)" "$n" "$bytes" "$LARDER" migrate "$D/recipes-v1-$n.json" --to 3 -o "$D/out-$n/recipes-v3.json"
done
bench_reset

V3=$D/out-$N_VAL/recipes-v3.json
[ -s "$V3" ] || "$LARDER" migrate "$D/recipes-v1-$N_VAL.json" --to 3 -o "$V3"
python3 - "$V3" "$D/recipes-v3.xml" "$D/schema-v3.json" <<'PY'
import json, sys
from xml.sax.saxutils import escape
src, xml_out, schema_out = sys.argv[1:4]
json.dump(json.load(open("Schemas/recipe/v3.schema.json")), open(schema_out, "w"))
def emit(f, key, value):
    if isinstance(value, list):
        for item in value: emit(f, key, item)
    elif isinstance(value, dict):
        f.write("<%s>" % key); [emit(f, k, v) for k, v in value.items()]; f.write("</%s>" % key)
    elif value is None: pass
    else:
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        f.write("<%s>%s</%s>" % (key, escape(text), key))
with open(xml_out, "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<records schema="recipe" version="3">\n')
    for r in json.load(open(src))["records"]:
        emit(f, "recipe", r); f.write("\n")
    f.write("</records>\n")
PY
cat > "$D/validate-jsonschema.py" <<'PY'
import json, sys
from jsonschema import Draft202012Validator as V
v = V(json.load(open(sys.argv[1])), format_checker=V.FORMAT_CHECKER)
bad = sum(0 if v.is_valid(r) else 1 for r in json.load(open(sys.argv[2]))["records"])
print(bad)
PY
cat > "$D/validate-jsonschema-rs.py" <<'PY'
import json, sys, jsonschema_rs
v = jsonschema_rs.validator_for(json.load(open(sys.argv[1])), validate_formats=True)
bad = sum(0 if v.is_valid(r) else 1 for r in json.load(open(sys.argv[2]))["records"])
print(bad)
PY

bytes=$(stat -L -c %s "$V3")
bench_header "JSON Schema validation, $N_VAL recipe v3 records ($((bytes / 1048576)) MB), whole process"
bench_row "larder validate (schema + rules)" $N_VAL "$bytes" "$LARDER" validate "$V3"
python3 -c "import jsonschema_rs" 2>/dev/null && bench_row "python jsonschema-rs" $N_VAL "$bytes" python3 "$D/validate-jsonschema-rs.py" "$D/schema-v3.json" "$V3" || echo "jsonschema-rs not installed: skipped"
python3 -c "import jsonschema" 2>/dev/null && bench_row "python jsonschema" $N_VAL "$bytes" python3 "$D/validate-jsonschema.py" "$D/schema-v3.json" "$V3" || echo "jsonschema not installed: skipped"
bench_reset

bytes=$(stat -L -c %s "$D/recipes-v3.xml")
bench_header "XSD validation, $N_VAL recipe v3 records as XML ($((bytes / 1048576)) MB), streaming"
bench_row "larder validate (XSD)" $N_VAL "$bytes" "$LARDER" validate "$D/recipes-v3.xml"
command -v xmllint >/dev/null && bench_row "xmllint --stream --schema" $N_VAL "$bytes" xmllint --stream --noout --schema Schemas/recipe/v3.xsd "$D/recipes-v3.xml" || echo "xmllint not installed: skipped"
bench_reset
echo
echo "ratio = larder's records/s ÷ the peer's (above 1: larder is faster)"
