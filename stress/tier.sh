#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One stress-tier check for ctest:  tier.sh EXIT [--grep TEXT]... -- CMD...
# Runs CMD, requires its exit status to be EXIT (or one of a comma list) and its output (stdout and
# stderr) to contain every TEXT; prints the output's tail otherwise.
set -u
want=$1; shift
greps=()
while [ "$1" != "--" ]; do
	[ "$1" = "--grep" ] || { echo "tier: bad arguments" >&2; exit 2; }
	greps+=("$2"); shift 2
done
shift
out=$(mktemp)
"$@" >"$out" 2>&1
got=$?
ok=1
case ",$want," in *",$got,"*) ;; *) echo "tier: exit $got, expected $want"; ok=0 ;; esac
for g in "${greps[@]}"; do
	grep -qF -- "$g" "$out" || { echo "tier: output lacks '$g'"; ok=0; }
done
if [ $ok -eq 0 ]; then
	tail -40 "$out"; rm -f "$out"; exit 1
fi
grep -E '^dpmstress: [0-9]+ scenarios' "$out" || tail -2 "$out"
rm -f "$out"
exit 0
