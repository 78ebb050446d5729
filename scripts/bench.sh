#!/usr/bin/env bash
# make bench: every area's benchmark, release build, peers side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
for script in scripts/bench-*.sh; do
  [ "$script" = scripts/bench-lib.sh ] && continue
  echo "### $script"
  bash "$script" || echo "($script failed)"
done
