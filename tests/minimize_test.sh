#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dpmrepro --minimize FILE keeps FILE's expected invariant and ends with
# at most MAX devices.
#   minimize_test.sh DPMREPRO FILE MAX
set -u
[ $# -eq 3 ] || { echo "usage: minimize_test.sh DPMREPRO FILE MAX" >&2; exit 2; }
want=$(sed -n 's/^expect \([A-Z-]*\).*/\1/p' "$2")
out=$("$1" --minimize "$2")
rc=$?
# A minimised finding is still a finding: dpmrepro exits 1.
[ $rc -eq 1 ] || { echo "minimize_test: dpmrepro exited $rc, expected 1" >&2; exit 1; }
echo "$out" | grep "^# minimized.*; still $want\$" ||
	{ echo "minimize_test: no '# minimized ...; still $want' header: $(echo "$out" | head -1)" >&2; exit 1; }
n=$(echo "$out" | grep -c '^device')
echo "$out" | grep -q "^expect $want\$" || { echo "minimize_test: the result does not expect $want" >&2; exit 1; }
[ "$n" -le "$3" ] || { echo "minimize_test: $n devices left, more than $3" >&2; exit 1; }
# The result is a finding of its own: it replays and shows the invariant.
tmp=$(mktemp) && trap 'rm -f "$tmp"' EXIT
echo "$out" >"$tmp"
"$1" --tail 1 "$tmp" | grep -q "^dpmfuzz: VIOLATION $want:" ||
	{ echo "minimize_test: the minimised scenario does not replay $want" >&2; exit 1; }
