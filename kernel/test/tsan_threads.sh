#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# dpmstress on the threads engine under ThreadSanitizer:
#   kernel/test/tsan_threads.sh DPMSTRESS ARGS...
# The run must be clean for the oracle.  ThreadSanitizer may report data
# races, but only ones where main.c makes one of the two accesses
# (docs/kernel.md lists them: they are the kernel's, reported, never
# suppressed); a race between two accesses of dpmfuzz's own runtime fails
# the test.
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
# A report is main.c's when one of its two accesses is made by main.c:
# the access's own frame is in main.c, or it is in a kernel-shaped
# helper (a shim inline, a runtime function) that main.c called directly.
MAIN = '/drivers/base/power/main.c:'
reports = open(sys.argv[1]).read().split('WARNING: ThreadSanitizer:')[1:]
bad = 0
for r in reports:
    body = r.split('SUMMARY')[0]
    blocks = re.split(r'\n  (?=(?:Previous )?(?:[Aa]tomic )?(?:[Rr]ead|[Ww]rite) of size)',
                      body.split('Location is')[0])[1:3]
    ours = False
    for b in blocks:
        frames = [loc for fn, loc in re.findall(r'#\d+ (\S+) (\S+)', b)
                  if 'compiler-rt' not in loc and loc != '<null>']
        if any(MAIN in loc for loc in frames[:2]):
            ours = True
    if not ours:
        bad += 1
        print('WARNING: ThreadSanitizer:' + body)
print(f"tsan_threads: {len(reports)} race report(s), each with an access by main.c"
      if not bad else f"tsan_threads: {bad} race report(s) without an access by main.c")
sys.exit(1 if bad else 0)
PY
