#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dpmimport on the real skynet captures and on corrupt copies of them.
#
#   tools/import_test.sh [DPMIMPORT DPMREPRO IMPORT_MUTATE [DATA_DIR]]
#
# 1. Each dmesg, each ftrace and each pair imports (exit 0) to a scenario
#    that dpmrepro --fix all replays clean (exit 0).
# 2. Bad usage and bad files, then CASES (300) corrupt copies made by
#    import_mutate with a fixed SEED: every run exits 0 or 2, exit 2 with
#    exactly one "dpmimport: " line on stderr, exit 0 with none; never a
#    signal or a sanitizer report (those exit 1, or 23 for a leak).  The
#    same cases and 9,700 more go through the importer in-process in
#    tests/test_import_corrupt.c; here the binary's exit codes and its
#    stderr are what is tested.
#
# Defaults: build/dev/tools binaries, ../shared/data/pm-graph-skynet-2014
# beside the checkout.  Exit 0 pass, 1 fail, 77 no captures (skipped).
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
imp=${1:-$here/build/dev/tools/dpmimport}
repro=${2:-$here/build/dev/tools/dpmrepro}
mutate=${3:-$here/build/dev/tools/import_mutate}
data=${4:-$here/../shared/data/pm-graph-skynet-2014}
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
command -v timeout >/dev/null && lim="timeout -s KILL 20"

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
# capture WHAT ARGS...: imports, and dpmrepro replays it clean.
capture() {
	local what=$1

	shift
	import "$@" -o "$tmp/out"
	if [ "$rc" != 0 ]; then
		fail "$what: dpmimport exit $rc: $first"
	elif ! $lim "$repro" --fix all "$tmp/out" >"$tmp/repro" 2>&1; then
		fail "$what: dpmrepro --fix all: $(grep -m1 VIOLATION "$tmp/repro")"
	else
		echo "ok: $what: $(grep -c '^device' "$tmp/out") devices"
	fi
}

for m in $modes; do
	d=$data/skynet_${m}_dmesg.txt
	f=$data/skynet_${m}_ftrace.txt
	capture "$m dmesg" --dmesg "$d"
	capture "$m ftrace" --ftrace "$f"
	capture "$m ftrace+dmesg" --ftrace "$f" --dmesg "$d"
done

# ---- 2: bad usage, bad files, corrupt captures ----
# check WHAT ARGS...: exit 0 with a scenario and a silent stderr, or 2
# with exactly one "dpmimport: " line; nothing else.
check() {
	local what=$1 head=""

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

: >"$tmp/empty"
printf '\0\0\0\n\0' >"$tmp/nul"
must_fail "no arguments"
must_fail "bad option" --bogus
must_fail "stray argument" "$data/skynet_mem_dmesg.txt"
must_fail "missing value" --dmesg
must_fail "missing file" --dmesg "$tmp/none"
must_fail "a directory" --ftrace "$tmp"
must_fail "empty file" --dmesg "$tmp/empty"
must_fail "NULs only" --ftrace "$tmp/nul"
must_fail "ftrace as dmesg" --dmesg "$data/skynet_mem_ftrace.txt"
must_fail "dmesg as ftrace" --ftrace "$data/skynet_mem_dmesg.txt"
must_fail "unwritable output" --dmesg "$data/skynet_mem_dmesg.txt" -o "$tmp/none/x"

dmesgs=() ftraces=()
for m in $modes; do
	dmesgs+=("$data/skynet_${m}_dmesg.txt")
	ftraces+=("$data/skynet_${m}_ftrace.txt")
done
start=$SECONDS
ok=0 rejected=0 batch=100
for ((i = 0; i < cases; i++)); do
	if ((i % batch == 0)); then
		rm -f "$tmp"/d.* "$tmp"/f.*
		if ! "$mutate" "$seed" "$i" "$batch" "$tmp/d." "${dmesgs[@]}" ||
		   ! "$mutate" $((seed + 1)) "$i" "$batch" "$tmp/f." "${ftraces[@]}"; then
			fail "import_mutate"
			break
		fi
	fi
	rm -f "$tmp"/out "$tmp"/out-*
	case $((i % 3)) in
	0) args=(--dmesg "$tmp/d.$i") ;;
	1) args=(--ftrace "$tmp/f.$i") ;;
	*) args=(--ftrace "$tmp/f.$i" --dmesg "$tmp/d.$i") ;;
	esac
	((i % 7)) || args+=(--summary)
	check "case $i (SEED=$seed)" "${args[@]}" -o "$tmp/out"
	case $rc in
	0) ok=$((ok + 1)) ;;
	2) rejected=$((rejected + 1)) ;;
	*) cp "$tmp/d.$i" "$tmp/f.$i" . &&
		echo "  kept its inputs as d.$i and f.$i in $(pwd)" ;;
	esac
done
echo "corrupt inputs: $cases runs, $ok imported, $rejected rejected, $((SECONDS - start)) s"

if [ "$fails" != 0 ]; then
	echo "import_test: $fails failures"
	exit 1
fi
echo "import_test: all passed"
