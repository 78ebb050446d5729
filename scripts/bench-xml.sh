#!/usr/bin/env bash
# make bench (XML part, issue 2): larder JSON→XML and XML→JSON on N generated recipes (default
# 100k), side by side with python xmltodict (per-record unparse; streaming parse with
# item_depth=2) and libxml2's own parse-only speed: `xmllint --stream --noout` (or, when xmllint
# is not installed, the same xmlTextReader loop compiled in C) and a bare SAX2 push parse in C,
# which is what larder's XMLReader is built on.
#
#   bash scripts/bench-xml.sh                  # 100000 records
#   BENCH_RECORDS=20000 bash scripts/bench-xml.sh
#
# Rates are per CPU second (user+sys), so a busy machine skews the ratios less; wall seconds
# are shown too. "ratio" is larder's rate divided by the row's (higher is better for larder).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-lib.sh
N=${BENCH_RECORDS:-100000}

swift build -c release --product larder 2>&1 | tail -1
json=$(bench_recipes "$N")
xml=$BENCH_DIR/recipes-$N.xml
"$LARDER" convert "$json" --to xml -o "$xml" 2>/dev/null

python3 -c 'import xmltodict' 2>/dev/null || pip install -q xmltodict >/dev/null 2>&1 || true
command -v xmllint >/dev/null || { apt-get install -y -qq libxml2-utils >/dev/null 2>&1 || true; }

cat >"$BENCH_DIR/xmltodict_unparse.py" <<'EOF'
import json, sys, xmltodict
records = json.load(open(sys.argv[1], encoding="utf-8"))
out = open(sys.argv[2], "w", encoding="utf-8")
out.write('<?xml version="1.0" encoding="UTF-8"?>\n<records schema="recipe" version="3">\n')
for record in records:
    out.write(xmltodict.unparse({"recipe": record}, full_document=False, pretty=True, indent="  "))
    out.write("\n")
out.write("</records>\n")
EOF
cat >"$BENCH_DIR/xmltodict_parse.py" <<'EOF'
import json, sys, xmltodict
out = open(sys.argv[2], "w", encoding="utf-8")
count = 0
def write(path, record):
    global count
    out.write(",\n" if count else "[\n")
    out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    count += 1
    return True
with open(sys.argv[1], "rb") as source:
    xmltodict.parse(source, item_depth=2, item_callback=write)
out.write("\n]\n" if count else "[]\n")
EOF
cat >"$BENCH_DIR/libxml2_loops.c" <<'EOF'
/* Parse-only loops over libxml2, doing nothing per node: "reader" is the xmlTextReader loop
   `xmllint --stream --noout` runs; "sax" is a bare SAX2 push parse fed 64 KiB at a time. */
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <string.h>
static void text(void *ctx, const xmlChar *a, int n) {}
static void start(void *ctx, const xmlChar *l, const xmlChar *p, const xmlChar *u, int nn,
                  const xmlChar **ns, int na, int nd, const xmlChar **at) {}
static void end(void *ctx, const xmlChar *l, const xmlChar *p, const xmlChar *u) {}
int main(int argc, char **argv) {
    if (argc != 3) return 2;
    if (strcmp(argv[1], "reader") == 0) {
        xmlTextReaderPtr r = xmlReaderForFile(argv[2], NULL, XML_PARSE_NONET);
        if (!r) return 1;
        int ret;
        while ((ret = xmlTextReaderRead(r)) == 1) {}
        xmlFreeTextReader(r);
        return ret == 0 ? 0 : 1;
    }
    xmlSAXHandler h;
    memset(&h, 0, sizeof h);
    h.initialized = XML_SAX2_MAGIC;
    h.startElementNs = start; h.endElementNs = end; h.characters = text;
    FILE *f = fopen(argv[2], "rb");
    if (!f) return 1;
    static char buf[65536];
    xmlParserCtxtPtr c = xmlCreatePushParserCtxt(&h, NULL, NULL, 0, argv[2]);
    xmlCtxtUseOptions(c, XML_PARSE_NONET);
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) xmlParseChunk(c, buf, (int)k, 0);
    xmlParseChunk(c, buf, 0, 1);
    int ok = c->wellFormed;
    xmlFreeParserCtxt(c);
    return ok ? 0 : 1;
}
EOF
loops=$BENCH_DIR/libxml2_loops
gcc -O2 $(pkg-config --cflags libxml-2.0) "$BENCH_DIR/libxml2_loops.c" -o "$loops" $(pkg-config --libs libxml-2.0) 2>/dev/null || loops=""

# Outputs go to files (same for every tool), not /dev/null: on some sandboxes it is a plain file.
out=$BENCH_DIR/xml-bench-out
json_bytes=$(stat -L -c %s "$json")
xml_bytes=$(stat -L -c %s "$xml")
has_xmltodict=0
python3 -c 'import xmltodict' 2>/dev/null && has_xmltodict=1

bench_header "convert JSON -> XML, $N recipes ($((json_bytes / 1048576)) MB of JSON)"
bench_reset
bench_row "larder convert --to xml" "$N" "$json_bytes" "$LARDER" convert "$json" --to xml -o "$out.xml"
[ "$has_xmltodict" = 1 ] && bench_row "xmltodict unparse (per record)" "$N" "$json_bytes" python3 "$BENCH_DIR/xmltodict_unparse.py" "$json" "$out.xml"

bench_header "convert XML -> JSON, $N recipes ($((xml_bytes / 1048576)) MB of XML)"
bench_reset
bench_row "larder convert --to json" "$N" "$xml_bytes" "$LARDER" convert "$xml" --to json -o "$out.json"
[ "$has_xmltodict" = 1 ] && bench_row "xmltodict parse (streaming)" "$N" "$xml_bytes" python3 "$BENCH_DIR/xmltodict_parse.py" "$xml" "$out.json"
if command -v xmllint >/dev/null; then
  bench_row "xmllint --stream --noout (parse)" "$N" "$xml_bytes" xmllint --stream --noout "$xml"
elif [ -n "$loops" ]; then
  bench_row "xmlTextReader loop, C (parse)" "$N" "$xml_bytes" "$loops" reader "$xml"
fi
[ -n "$loops" ] && bench_row "libxml2 SAX2 push, C (parse)" "$N" "$xml_bytes" "$loops" sax "$xml"
rm -f "$out.xml" "$out.json"
echo
echo "(xmllint-style rows only parse: larder also types every field, checks every record and writes JSON.)"
