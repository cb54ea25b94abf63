#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A finding's report ends with the dpmrepro command that reproduces it:
#
#   repro_test.sh DPMREPRO ID EXIT [--last] [--input FILE] -- CMD...
#
# Runs CMD (dpmstress, a fuzz target), which must exit EXIT ("crash": any
# status but 0, 1 and 2); takes the first line of its output that starts
# "--- reproduce: ", which must be a dpmrepro command spelling out
# --variant and --fix, after NAME=VALUE settings if any (with --last, the
# last line of stdout: a threads finding ends the process); if CMD
# printed a "dpmfuzz: VIOLATION" line, it must name ID.  Then runs that
# command with DPMREPRO for "dpmrepro" and FILE for "CRASH-FILE": it must
# exit 1 and report "VIOLATION ID".
set -u
repro=$1 id=$2 want=$3
shift 3
last=0 input=
[ "$1" = --last ] && { last=1; shift; }
[ "$1" = --input ] && { input=$2; shift 2; }
[ "$1" = -- ] || { echo "repro_test: bad arguments" >&2; exit 2; }
shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() {
	echo "repro_test: $*"
	echo "--- its stdout (tail):"; tail -20 "$out"
	echo "--- its stderr (tail):"; tail -5 "$err"
	exit 1
}

"$@" >"$out" 2>"$err"
got=$?
if [ "$want" = crash ]; then
	[ "$got" -gt 2 ] || fail "exit $got, expected a crash"
else
	[ "$got" -eq "$want" ] || fail "exit $got, expected $want"
fi
v=$(grep -m1 -h '^dpmfuzz: VIOLATION ' "$out" "$err")
if [ -n "$v" ] && [[ $v != "dpmfuzz: VIOLATION $id:"* ]]; then
	fail "the finding is not $id: $v"
fi
if [ $last = 1 ]; then
	line=$(tail -1 "$out")
else
	line=$(cat "$out" "$err" | grep -m1 -e '^--- reproduce: ')
fi
cmd=${line#--- reproduce: }
read -r -a words <<<"$cmd"
vars=()
while [[ ${words[0]-} =~ ^[A-Z_]+= ]]; do
	vars+=("${words[0]}")
	words=("${words[@]:1}")
done
[ "${words[0]-}" = dpmrepro ] ||
	fail "the report does not end with a dpmrepro command: $line"
[[ $cmd == *" --variant "*" --fix "* ]] ||
	fail "the command does not spell out --variant and --fix: $cmd"
words=("${words[@]:1}")
for i in "${!words[@]}"; do
	[ "${words[$i]}" = CRASH-FILE ] && words[$i]=$input
done
# The command alone says how to run it: not the settings CMD ran under.
env -u DPMFUZZ_MAX_DEVICES -u DPMFUZZ_FIX "${vars[@]}" "$repro" "${words[@]}" >"$out" 2>"$err"
got=$?
[ "$got" -eq 1 ] || fail "$cmd: exit $got, expected 1"
grep -q "^dpmfuzz: VIOLATION $id:" "$out" ||
	fail "$cmd does not show $id"
echo "repro_test: $id again: $cmd"
