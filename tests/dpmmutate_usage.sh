#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/dpmmutate's bad command lines: each is exit 2 and exactly one line
# on stderr, before anything is built or written.
#
#   dpmmutate_usage.sh SOURCE-DIR
set -uo pipefail
src=$(cd "${1:?usage: dpmmutate_usage.sh SOURCE-DIR}" && pwd)
tool=$src/tools/dpmmutate
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A tree as far as the command line can tell (the build would refuse it).
tree=$tmp/tree
mkdir -p "$tree/drivers/base/power"
printf 'VERSION = 6\nPATCHLEVEL = 12\n' >"$tree/Makefile"
: >"$tree/drivers/base/power/main.c"
n=0
check() {
	"$tool" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || [ -s "$tmp/out" ]; then
		echo "dpmmutate_usage: 'dpmmutate $*' exited $rc with $lines line(s) on stderr:" >&2
		cat "$tmp/err" "$tmp/out" >&2
		exit 1
	fi
	n=$((n + 1))
}
check
check --bogus "$tree"
check "$tmp/nosuch"
check "$tmp"
check "$tree" "$tree"
check -t abc "$tree"
check -t -1 "$tree"
check -t 99999999999 "$tree"
check -j 0 "$tree"
check --sample 0 "$tree"
check --operator nosuch "$tree"
check --preset nosuch "$tree"
check --preset tsan "$tree"
check --preset dev -t 5 "$tree"
check --list --show x "$tree"
check -o "$src/docs" "$tree"
check -o "$tree/out" "$tree"
check "$tree" -t
[ -z "$(ls "$tree")" ] || [ "$(ls "$tree")" = "$(printf 'Makefile\ndrivers')" ] ||
	{ echo "dpmmutate_usage: something was written into the tree" >&2; exit 1; }
echo "dpmmutate_usage: $n bad command lines, each exit 2 with one line on stderr"
