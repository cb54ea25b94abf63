#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The worker pool (tools/pool.c): the work of J workers is the work of
# one.  dpmstress --jobs 3 runs the same scenarios as --jobs 1 (same
# count, transitions and violations by invariant); dpmcheck -j 2 finds
# the same table and the same smallest scenarios as -j 1 (less the rate
# column).
#   tests/pool_test.sh DPMSTRESS DPMCHECK
set -uo pipefail
stress=$1 check=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "pool_test: $*" >&2; exit 1; }

counts() {	# the summary less its times and rates
	"$stress" --variant modern --engine det --seed 5 --iterations 3001 --jobs "$1" --out "$out" 2>&1 |
		tail -1 | sed -E 's/ in [0-9.]+ s \([^)]*\)//; s/peak RSS [0-9]+ MiB, //'
}
one=$(counts 1) three=$(counts 3)
case $one in
"dpmstress: 3001 scenarios, "*" violations "*) ;;
*) fail "dpmstress --jobs 1: unexpected summary: $one" ;;
esac
[ "$one" = "$three" ] || fail "dpmstress --jobs 3 differs from --jobs 1:
  $one
  $three"

table() {	# everything but the sched/s and cpu columns
	"$check" --variant seed -n 3 -j "$1" 2>/dev/null |
		awk '/^(devices|[0-9]+ |all )/ { $6 = ""; $7 = "" } { print }'
}
table 1 >"$out/j1"
table 2 >"$out/j2"
grep -q '^all  *6102 ' "$out/j1" || fail "dpmcheck -j 1: not the 6,102 scenarios of seed at 3 devices"
diff -u "$out/j1" "$out/j2" || fail "dpmcheck -j 2 differs from -j 1"
echo "pool_test: --jobs 3 and -j 2 did the work of one worker ($one)"
