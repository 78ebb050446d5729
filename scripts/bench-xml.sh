#!/usr/bin/env bash
# XML benchmark (issue 2): larder JSON→XML and XML→JSON on N synthetic recipes (default 100k),
# side by side with python xmltodict (unparse and streaming parse) and libxml2's own parse
# speed (`xmllint --stream --noout`, and a bare SAX2 push loop in C). Prints wall and CPU
# records/s, MB/s, peak RSS (/usr/bin/time -v) and the ratios larder/peer.
#
#   bash scripts/bench-xml.sh            # 100000 records
#   BENCH_XML_RECORDS=20000 bash scripts/bench-xml.sh
#
# Data goes to bench-data/ (git-ignored) and is made at bench time by scripts/bench-xml-data.py.
# The machine may be shared: CPU seconds (user+sys) are steadier than wall seconds, so both
# are printed and the ratios are given for both.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_XML_RECORDS:-100000}
DATA=bench-data
mkdir -p "$DATA"
L=.build/release/larder

echo "== release build"
swift build -c release --product larder 2>&1 | tail -1

if ! python3 -c 'import xmltodict' 2>/dev/null; then
  echo "== installing xmltodict (pip)"
  python3 -m pip install -q xmltodict || echo "xmltodict unavailable: its rows are skipped"
fi
if ! command -v xmllint >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libxml2-utils >/dev/null 2>&1 || true
fi
if [ ! -x /usr/bin/time ]; then
  echo "/usr/bin/time is needed (apt-get install time)"; exit 3
fi

JSON=$DATA/xml-bench-$N.json
if [ ! -s "$JSON" ]; then
  echo "== generating $N recipes"
  python3 scripts/bench-xml-data.py "$N" "$JSON"
fi

# Peers, written at bench time.
cat >"$DATA/xmltodict_unparse.py" <<'EOF'
import json, sys, xmltodict
records = json.load(open(sys.argv[1], encoding="utf-8"))
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<records schema="recipe" version="3">\n')
    for record in records:
        out.write(xmltodict.unparse({"recipe": record}, full_document=False, pretty=True, indent="  "))
        out.write("\n")
    out.write("</records>\n")
EOF
cat >"$DATA/xmltodict_parse.py" <<'EOF'
import json, sys, xmltodict
count = 0
with open(sys.argv[1], "rb") as source, open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("[")
    def write(path, record):
        global count
        out.write(",\n" if count else "\n")
        out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        count += 1
        return True
    xmltodict.parse(source, item_depth=2, item_callback=write)
    out.write("\n]\n")
EOF
cat >"$DATA/libxml2_loops.c" <<'EOF'
/* Parse-only loops over libxml2: the xmlTextReader loop `xmllint --stream --noout` runs, and a
   bare SAX2 push parse (what larder's XMLReader is built on), both doing nothing per node. */
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <string.h>
static void noop(void *ctx, const xmlChar *a, int n) {}
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
    h.startElementNs = start; h.endElementNs = end; h.characters = noop;
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
HAVE_LOOPS=0
if gcc -O2 $(pkg-config --cflags libxml-2.0) "$DATA/libxml2_loops.c" -o "$DATA/libxml2_loops" $(pkg-config --libs libxml-2.0) 2>/dev/null; then
  HAVE_LOOPS=1
fi

RESULTS=$DATA/xml-bench-results.tsv
: >"$RESULTS"
# run LABEL INPUT COMMAND...: times COMMAND with /usr/bin/time -v and appends a result row.
run() {
  local label=$1 input=$2
  shift 2
  local log=$DATA/time.log
  if ! /usr/bin/time -v "$@" >/dev/null 2>"$log"; then
    echo "FAILED: $label"; tail -5 "$log"; return 0
  fi
  local wall user sys rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  user=$(awk -F': ' '/User time/ {print $2}' "$log")
  sys=$(awk -F': ' '/System time/ {print $2}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$(stat -c %s "$input")" "$wall" "$user" "$sys" "$rss" >>"$RESULTS"
  echo "   $label: ${wall}s wall, $(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')s cpu"
}

echo "== timing ($N records)"
run "larder JSON→XML" "$JSON" "$L" convert "$JSON" --to xml -o "$DATA/larder.xml"
run "larder XML→JSON" "$DATA/larder.xml" "$L" convert "$DATA/larder.xml" --to json -o "$DATA/larder-back.json"
if python3 -c 'import xmltodict' 2>/dev/null; then
  run "xmltodict unparse JSON→XML" "$JSON" python3 "$DATA/xmltodict_unparse.py" "$JSON" "$DATA/xmltodict.xml"
  run "xmltodict parse XML→JSON" "$DATA/larder.xml" python3 "$DATA/xmltodict_parse.py" "$DATA/larder.xml" "$DATA/xmltodict-back.json"
fi
if command -v xmllint >/dev/null 2>&1; then
  run "xmllint --stream --noout" "$DATA/larder.xml" xmllint --stream --noout "$DATA/larder.xml"
fi
if [ "$HAVE_LOOPS" = 1 ]; then
  if ! command -v xmllint >/dev/null 2>&1; then
    run "xmlTextReader loop (C, = xmllint --stream)" "$DATA/larder.xml" "$DATA/libxml2_loops" reader "$DATA/larder.xml"
  fi
  run "libxml2 SAX2 push parse (C)" "$DATA/larder.xml" "$DATA/libxml2_loops" sax "$DATA/larder.xml"
fi

python3 - "$RESULTS" "$N" <<'EOF'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
n = int(sys.argv[2])
table = {}
print()
print(f"{'':44} {'wall s':>7} {'cpu s':>7} {'rec/s wall':>11} {'rec/s cpu':>10} {'MB/s wall':>10} {'peak RSS MB':>12}")
for label, size, wall, user, sys_, rss in rows:
    wall, cpu = float(wall), float(user) + float(sys_)
    table[label] = (wall, cpu)
    print(f"{label:44} {wall:7.2f} {cpu:7.2f} {n / max(wall, 1e-9):11,.0f} {n / max(cpu, 1e-9):10,.0f} "
          f"{int(size) / 1e6 / max(wall, 1e-9):10.1f} {int(rss) / 1024:12.1f}")
def ratio(ours, peer, what):
    if ours in table and peer in table:
        (ow, oc), (pw, pc) = table[ours], table[peer]
        print(f"  {what}: {pw / ow:.1f}x wall, {pc / oc:.1f}x cpu")
print()
print("larder speed / peer speed:")
ratio("larder JSON→XML", "xmltodict unparse JSON→XML", "JSON→XML vs xmltodict unparse (target ≥ 10x)")
ratio("larder XML→JSON", "xmltodict parse XML→JSON", "XML→JSON vs xmltodict parse (target ≥ 10x)")
for peer in ("xmllint --stream --noout", "xmlTextReader loop (C, = xmllint --stream)", "libxml2 SAX2 push parse (C)"):
    ratio("larder XML→JSON", peer, f"XML→JSON (parse, type, check, write JSON) vs {peer} (parse only)")
EOF
