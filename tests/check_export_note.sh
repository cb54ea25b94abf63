#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dpmrepro --html FILE and --trace-json FILE each say the path they
# wrote, one line on stderr, and leave stdout (the report, which scripts
# parse) as it is without them.
#   check_export_note.sh DPMREPRO SCENARIO
set -u
repro=$1 scn=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_export_note: FAIL: $*"; exit 1; }

"$repro" "$scn" >"$work/plain.out" 2>"$work/plain.err"
rc0=$?
"$repro" --html "$work/t.html" --trace-json "$work/t.json" "$scn" \
	>"$work/both.out" 2>"$work/both.err"
rc1=$?
[ "$rc0" = "$rc1" ] || fail "exit $rc1 with the files, $rc0 without"
[ -s "$work/t.html" ] && [ -s "$work/t.json" ] || fail "a file was not written"
cmp -s "$work/plain.out" "$work/both.out" ||
	fail "stdout differs with --html and --trace-json"
# stderr: what it says without the files, then one line per file
{
	cat "$work/plain.err"
	echo "dpmrepro: trace-event JSON written to $work/t.json"
	echo "dpmrepro: timeline written to $work/t.html"
} >"$work/want.err"
cmp -s "$work/want.err" "$work/both.err" || {
	diff "$work/want.err" "$work/both.err"
	fail "stderr does not name each file written, one line each"
}
echo "check_export_note: ok: stdout unchanged; stderr names $work/t.html and $work/t.json"
