#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# dpmcheck_search.sh DPMCHECK DIR: dpmcheck's search runs to its verdict in
# this build (sanitizers included: a report aborts the run, and a leak at
# exit changes its exit code): the seed as posted breaks
# SUSPEND-AFTER-CHILDREN from 2 devices (exit 1), modern with every fix is
# clean up to 2 (exit 0), a run resumed from its state file (-o) gives
# the same verdict, and a run cut by -t and resumed counts exactly what one
# uninterrupted run counts.
set -u
bin=$1 dir=$2
rc=0
expect() {	# expect CODE TEXT ARGS...: the exit code and a line of the table
	local code=$1 text=$2 out
	shift 2
	out=$("$bin" -q "$@" 2>&1)
	local got=$?
	if [ "$got" -ne "$code" ] || ! grep -qF -- "$text" <<<"$out"; then
		echo "dpmcheck_search: dpmcheck $*: exit $got (want $code), want '$text' in:"
		printf '%s\n' "$out" | tail -n 20
		rc=1
	fi
}
rm -rf "$dir"
expect 1 "verdict: violations: SUSPEND-AFTER-CHILDREN (from 2 devices)" --variant seed --fix none -n 2
expect 0 "verdict: no violation up to 2 devices" --variant modern --fix all -n 2 -o "$dir"
expect 0 "verdict: no violation up to 2 devices" --variant modern --fix all -n 2 -o "$dir"
# Resume after a cut: a run stopped by -t (exit 3, not exhaustive; 0 if
# the machine finished first) and resumed from its state file counts
# every scenario, schedule and event exactly once: the same rows as one
# uninterrupted run.
counts() {
	python3 -c 'import json, sys
j = json.load(sys.stdin)
print(j["complete"], [(r["devices"], r["scenarios"], r["schedules"], r["blocked"], r["events"],
       sorted(r["violating"].items())) for r in j["rows"]])'
}
full=$("$bin" -q --json --variant modern --fix all -n 3 | counts)
"$bin" -q --variant modern --fix all -n 3 -t 1 -o "$dir/cut" >/dev/null 2>&1
cut=$?
if [ $cut -ne 0 ] && [ $cut -ne 3 ]; then
	echo "dpmcheck_search: the run cut by -t 1 exited $cut, not 3 (or 0)"
	rc=1
fi
resumed=$("$bin" -q --json --variant modern --fix all -n 3 -o "$dir/cut" | counts)
if [ "$full" != "$resumed" ]; then
	echo "dpmcheck_search: resumed after a cut (exit $cut): $resumed"
	echo "dpmcheck_search: one uninterrupted run:       $full"
	rc=1
fi
exit $rc
