#!/usr/bin/env bash
# `make test`'s test run: the whole suite, its output kept in .build/test-output/swift-test.log.
# When it fails, the failures are printed again at the very end, so a log that keeps only its
# tail (CI's) still names the failing tests and their expectations.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
mkdir -p .build/test-output
log=.build/test-output/swift-test.log
"$SWIFT" test --disable-xctest "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo
  echo "== make test failed (exit $status); the failures, again (whole log: $log) =="
  # Swift Testing marks failures with ✘; a compile error has "error:".
  grep -E "✘|error:|Fatal error|Crash|signal" "$log" | grep -v "known issue" | tail -60
fi
exit "$status"
