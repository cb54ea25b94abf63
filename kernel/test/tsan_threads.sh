#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# dpmk_check on the threads engine under ThreadSanitizer:
#   kernel/test/tsan_threads.sh DPMK_CHECK ARGS...
# The run must be clean for the checker.  ThreadSanitizer may report data
# races, but only ones main.c takes part in (docs/kernel.md lists them:
# they are the kernel's, reported, never suppressed); a race between two
# accesses of dpmfuzz's own runtime fails the test.
set -uo pipefail
out=$(mktemp)
trap 'rm -f "$out"' EXIT
TSAN_OPTIONS="halt_on_error=0 exitcode=66 ${TSAN_OPTIONS:-}" "$@" >"$out" 2>&1
rc=$?
if grep -q "VIOLATION" "$out"; then
	cat "$out"
	exit 1
fi
if [ $rc -ne 0 ] && [ $rc -ne 66 ]; then
	tail -40 "$out"
	exit 1
fi
python3 - "$out" <<'PY'
import re, sys
reports = open(sys.argv[1]).read().split('WARNING: ThreadSanitizer:')[1:]
bad = 0
for r in reports:
    body = r.split('SUMMARY')[0]
    if '/drivers/base/power/main.c:' not in body:
        bad += 1
        print('WARNING: ThreadSanitizer:' + body)
print(f"tsan_threads: {len(reports)} race report(s), all with main.c's own accesses"
      if not bad else f"tsan_threads: {bad} race(s) without main.c")
sys.exit(1 if bad else 0)
PY
