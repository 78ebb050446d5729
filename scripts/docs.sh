#!/usr/bin/env bash
# `make docs`: DocC for the `Larder` library product, with the toolchain's own tools and no package plugin
# (swift-docc-plugin would be one more dependency to resolve in every clean build of Larder and of every package
# that uses it).
#
# 1. `swift build --target Larder`: the debug build the tests use (incremental after `make test`).
# 2. swift-symbolgraph-extract on the `Larder` module, with the flags SwiftPM compiled it with (read from
#    .build/debug.yaml) and the product's modules allowed through its `@_exported` imports, so that one symbol
#    graph holds the whole public API.
# 3. docc convert Sources/Larder/Larder.docc, warnings (an unresolved ``link``) as errors.
# Output: .build/docs/Larder.doccarchive (a static site; DOCS_OUT=dir for another place).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
OUT=${DOCS_OUT:-.build/docs}
MODULES=LarderCore,LarderFormats,LarderImport,LarderRegistry,LarderDedupe,LarderCloudKit,LarderStore,LarderEmulator,LarderSync

bin=$(dirname "$(command -v "$SWIFT")")
docc=${DOCC:-$(command -v docc || echo "$bin/docc")}
extract=${SYMBOLGRAPH_EXTRACT:-$(command -v swift-symbolgraph-extract || echo "$bin/swift-symbolgraph-extract")}

"$SWIFT" build --target Larder
build_dir=$("$SWIFT" build --show-bin-path)

# The compile command of the Larder module, as SwiftPM wrote it: keep what finds modules and headers.
mapfile -t flags < <(python3 - "$build_dir" <<'PY'
import json, os, sys
build_dir = os.path.realpath(sys.argv[1])
manifest = os.path.join(os.path.dirname(build_dir), os.path.basename(build_dir) + ".yaml")
if not os.path.exists(manifest):
    manifest = os.path.join(os.path.dirname(os.path.dirname(build_dir)), "debug.yaml")
lines = open(manifest).read().splitlines()
start = next(i for i, line in enumerate(lines) if line.strip().startswith('"C.Larder-') and line.strip().endswith('.module":'))
args = next(json.loads(line.strip()[len("args: "):]) for line in lines[start:] if line.strip().startswith("args: "))
keep, i = [], 0
while i < len(args):
    arg = args[i]
    if arg in ("-I", "-F", "-Xcc", "-target", "-sdk", "-module-cache-path"):
        keep += [arg, args[i + 1]]
        i += 2
        continue
    if arg.startswith("-I") or arg.startswith("-F"):
        keep.append(arg)
    i += 1
print("\n".join(keep))
PY
)

rm -rf "$OUT/symbol-graphs" "$OUT/Larder.doccarchive"
mkdir -p "$OUT/symbol-graphs"
"$extract" -module-name Larder "${flags[@]}" -minimum-access-level public -skip-synthesized-members \
  -experimental-allowed-reexported-modules="$MODULES" -output-dir "$OUT/symbol-graphs"

"$docc" convert Sources/Larder/Larder.docc --additional-symbol-graph-dir "$OUT/symbol-graphs" \
  --fallback-display-name Larder --fallback-bundle-identifier larder.Larder \
  --output-path "$OUT/Larder.doccarchive" --warnings-as-errors

echo
echo "docs: $OUT/Larder.doccarchive"
echo "open: python3 -m http.server --directory $OUT/Larder.doccarchive 8000, then http://127.0.0.1:8000/documentation/larder"
echo "  (or: $docc preview Sources/Larder/Larder.docc --additional-symbol-graph-dir $OUT/symbol-graphs)"
