#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dpmimport on real captures and on corrupt copies of them.
#
#   tools/import_test.sh [DPMIMPORT DPMREPRO IMPORT_MUTATE [DATA_DIR]]
#
# 1. Each capture imports (exit 0) with its dmesg alone, its ftrace alone
#    and both, to scenarios (one per transition) that dpmrepro --fix all
#    replays clean (exit 0) on the variant they name, and on every kernel
#    tree configured (the transition the logs show): the skynet captures
#    (DATA_DIR, kernel 3.15), the Ivy Bridge ones beside them
#    (DATA_DIR/../pm-graph-ivybridge-2016, kernels 4.6 and 4.9), and, if
#    DPMFUZZ_PMGRAPH_DIR names a directory, every sleepgraph page (*.html)
#    and every NAME-dmesg.txt / NAME-ftrace.txt pair in it (docs/import.md
#    says which public pm-graph captures, and how to extract them).
# 2. Bad usage and bad files exit 2 with one line; then CASES (300)
#    corrupt inputs made by import_mutate --cases with a fixed SEED, every
#    kind of input in turn (3.x dmesg, ftrace, both, 4.x-6.x dmesg,
#    sleepgraph page, two transitions): every run exits 0 or 2, exit 2
#    with exactly one "dpmimport: " line on stderr, exit 0 with none;
#    never a signal or a sanitizer report (those exit 1, or 23 for a
#    leak).  The same cases and 9,700 more go through the importer
#    in-process in tests/test_import_corrupt.c; here the binary's exit
#    codes and its stderr are what is tested.
#
# Defaults: build/dev/tools binaries, ../shared/data/pm-graph-skynet-2014
# beside the checkout.  Exit 0 pass, 1 fail, 77 no captures (skipped).
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
imp=${1:-$here/build/dev/tools/dpmimport}
repro=${2:-$here/build/dev/tools/dpmrepro}
mutate=${3:-$here/build/dev/tools/import_mutate}
data=${4:-$here/../shared/data/pm-graph-skynet-2014}
ivy=$data/../pm-graph-ivybridge-2016
pmgraph=${DPMFUZZ_PMGRAPH_DIR:-}
seed=${SEED:-20140613}
cases=${CASES:-300}
modes="standby freeze mem disk"

if [ ! -r "$data/skynet_mem_dmesg.txt" ]; then
	echo "import_test: no captures in $data, skipped"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/import_test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
lim=""
command -v timeout >/dev/null && lim="timeout -s KILL 60"
kernels=$("$repro" --list-variants | cut -f1 | grep '^kernel-')

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# Run dpmimport "$@"; sets rc, and err to the lines on its stderr.
import() {
	local lines

	$lim "$imp" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	mapfile -t lines <"$tmp/stderr"
	err=${#lines[@]}
	first=${lines[0]-}
}

# ---- 1: the real captures ----
# capture WHAT ARGS...: imports, and dpmrepro replays every transition clean.
capture() {
	local what=$1 f n=0 devs=""

	shift
	rm -f "$tmp"/cap*.scenario
	import "$@" -o "$tmp/cap.scenario"
	if [ "$rc" != 0 ]; then
		fail "$what: dpmimport exit $rc: $first"
		return
	fi
	for f in "$tmp"/cap*.scenario; do
		n=$((n + 1))
		if ! $lim "$repro" --fix all "$f" >"$tmp/repro" 2>&1; then
			fail "$what: $(basename "$f"): dpmrepro --fix all: $(grep -m1 -e VIOLATION -e dpmrepro "$tmp/repro")"
			return
		fi
		for k in $kernels; do
			if ! $lim "$repro" --variant "$k" --fix all "$f" >"$tmp/repro" 2>&1; then
				fail "$what: $(basename "$f"): dpmrepro --variant $k --fix all: $(grep -m1 -e VIOLATION -e dpmrepro "$tmp/repro")"
				return
			fi
		done
		devs+="${devs:+, }$(grep -c '^device' "$f")"
	done
	echo "ok: $what: $n transition(s), $devs devices, variant $(sed -n 's/^variant //p' "$f")${kernels:+, and on }$(echo $kernels)"
}

# triple WHAT DMESG FTRACE: the dmesg alone, the ftrace alone, both.
triple() {
	capture "$1 dmesg" --dmesg "$2"
	capture "$1 ftrace" --ftrace "$3"
	capture "$1 ftrace+dmesg" --ftrace "$3" --dmesg "$2"
}

for m in $modes; do
	triple "skynet $m" "$data/skynet_${m}_dmesg.txt" "$data/skynet_${m}_ftrace.txt"
done
if [ -d "$ivy" ]; then
	for d in "$ivy"/*/*/; do
		for dm in "$d"*_dmesg.txt; do
			[ -r "$dm" ] && triple "ivybridge $(basename "$d")" "$dm" "${dm%_dmesg.txt}_ftrace.txt"
		done
	done
else
	echo "import_test: no $ivy, its captures not tried"
fi
if [ -n "$pmgraph" ]; then
	for h in "$pmgraph"/*.html; do
		[ -r "$h" ] && capture "pm-graph $(basename "$h")" --html "$h"
	done
	for dm in "$pmgraph"/*-dmesg.txt; do
		[ -r "$dm" ] && triple "pm-graph $(basename "${dm%-dmesg.txt}")" "$dm" "${dm%-dmesg.txt}-ftrace.txt"
	done
fi

# ---- 2: bad usage, bad files, corrupt captures ----
# check WHAT ARGS...: exit 0 with scenarios and a silent stderr, or 2
# with exactly one "dpmimport: " line; nothing else.
check() {
	local what=$1 head="" o

	shift
	import "$@"
	case $rc in
	2)
		if [ "$err" != 1 ] || [[ $first != "dpmimport: "* ]]; then
			fail "$what: exit 2 with $err stderr lines: $first"
		fi ;;
	0)
		# several transitions: one file each, out-1 first
		for o in "$tmp/out" "$tmp/out-1"; do
			[ -s "$o" ] && read -r head <"$o" && break
		done
		if [ "$err" != 0 ] || [[ $head != "# imported by dpmimport from "* ]]; then
			fail "$what: exit 0, stderr: $first, output: $head"
		fi ;;
	*)
		fail "$what: exit $rc (a signal or a sanitizer): $first" ;;
	esac
}

# must_fail WHAT ARGS...: exit 2 expected.
must_fail() {
	check "$@"
	[ "$rc" = 2 ] || fail "$1: expected exit 2, got $rc"
}

d=$data/skynet_mem_dmesg.txt
f=$data/skynet_mem_ftrace.txt
: >"$tmp/empty"
printf '\0\0\0\n\0' >"$tmp/nul"
printf '<html><body><p>a timeline without its logs</p></body></html>\n' >"$tmp/nolog.html"
printf '\037\213\010\000' >"$tmp/gz"
cat "$f" "$data/skynet_disk_ftrace.txt" >"$tmp/two-ftrace"
must_fail "no arguments"
must_fail "bad option" --bogus
must_fail "stray argument" "$d"
must_fail "missing value" --dmesg
must_fail "missing file" --dmesg "$tmp/none"
must_fail "a directory" --ftrace "$tmp"
must_fail "empty file" --dmesg "$tmp/empty"
must_fail "NULs only" --ftrace "$tmp/nul"
must_fail "ftrace as dmesg" --dmesg "$f"
must_fail "dmesg as ftrace" --ftrace "$d"
must_fail "unwritable output" --dmesg "$d" -o "$tmp/none/x"
must_fail "html beside a dmesg" --html "$tmp/nolog.html" --dmesg "$d"
must_fail "a page without logs" --html "$tmp/nolog.html"
must_fail "a text as a page" --html "$d"
must_fail "gzip-compressed" --ftrace "$tmp/gz"
must_fail "two runs' logs" --dmesg "$d" --ftrace "$data/skynet_freeze_ftrace.txt"
must_fail "--cycle 0" --ftrace "$f" --cycle 0
must_fail "--cycle past the end" --ftrace "$f" --cycle 2
must_fail "--cycle twice" --ftrace "$f" --cycle 1 --cycle 1
must_fail "two transitions to stdout" --ftrace "$tmp/two-ftrace"
must_fail "an unknown --variant" --ftrace "$f" --variant nope
must_fail "five --variant" --ftrace "$f" --summary --variant seed --variant seed --variant seed --variant seed --variant seed
# --variant: the scenario's variant, and a summary column per model.
import --ftrace "$f" --variant seed
grep -qx "variant seed" "$tmp/stdout" || fail "--variant seed: $(grep -m1 '^variant' "$tmp/stdout")"
import --ftrace "$f" --summary --variant modern --variant seed
grep -q "modern_ms *seed_ms$" "$tmp/stdout" || fail "--summary with two --variant: $(grep -m1 '^phase' "$tmp/stdout")"
# The transition the logs show: hibernation's freeze and restore.
import --ftrace "$data/skynet_disk_ftrace.txt"
grep -qx "transition restore" "$tmp/stdout" || fail "skynet disk: $(grep -m1 '^transition' "$tmp/stdout")"
import --ftrace "$tmp/two-ftrace" --cycle 2
grep -q "^# transition 2 of 2: freeze, restore" "$tmp/stdout" ||
	fail "--cycle 2 of two transitions: $(grep -m1 '^# transition' "$tmp/stdout")"

start=$SECONDS
ok=0 rejected=0 batch=100
for ((i = 0; i < cases; i++)); do
	if ((i % batch == 0)); then
		rm -f "$tmp"/c.*
		if ! "$mutate" --cases "$seed" "$i" "$batch" "$tmp/c." "$data"; then
			fail "import_mutate"
			break
		fi
	fi
	rm -f "$tmp"/out "$tmp"/out-*
	args=()
	[ -e "$tmp/c.$i-dmesg.txt" ] && args+=(--dmesg "$tmp/c.$i-dmesg.txt")
	[ -e "$tmp/c.$i-ftrace.txt" ] && args+=(--ftrace "$tmp/c.$i-ftrace.txt")
	[ -e "$tmp/c.$i.html" ] && args+=(--html "$tmp/c.$i.html")
	((i % 7)) || args+=(--summary)
	check "case $i (SEED=$seed)" "${args[@]}" -o "$tmp/out"
	case $rc in
	0) ok=$((ok + 1)) ;;
	2) rejected=$((rejected + 1)) ;;
	*) cp "$tmp"/c."$i"[.-]* . &&
		echo "  kept its inputs as c.$i* in $(pwd)" ;;
	esac
done
echo "corrupt inputs: $cases runs, $ok imported, $rejected rejected, $((SECONDS - start)) s"

if [ "$fails" != 0 ]; then
	echo "import_test: $fails failures"
	exit 1
fi
echo "import_test: all passed"
