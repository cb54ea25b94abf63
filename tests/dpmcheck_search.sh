#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# dpmcheck_search.sh DPMCHECK DIR: dpmcheck's search runs to its verdict in
# this build (sanitizers included: a report aborts the run, and a leak at
# exit changes its exit code): the seed as posted breaks
# SUSPEND-AFTER-CHILDREN from 2 devices (exit 1), modern with every fix is
# clean up to 2 (exit 0), and a run resumed from its state file (-o) gives
# the same verdict.
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
exit $rc
