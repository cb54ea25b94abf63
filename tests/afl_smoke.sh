#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# AFL++ smoke run.  Builds every fuzzers/fuzz_<unit>.c with the afl preset
# (afl-clang-fast, linked with AFL++'s libFuzzer driver) in BUILD-DIR,
# then runs afl-fuzz on fuzz_seed, from corpus/seed with fuzzers/seed.dict,
# for 20000 executions (-E, a fixed RNG seed) with every kernel fix on,
# and reads its fuzzer_stats: the run must end by reaching that count,
# load every dictionary entry, and save no crash.  A crash is kept in
# BUILD-DIR/afl-smoke-crashes.  Exit 77 (ctest: skipped) when afl++ is
# not installed; scripts/setup installs it.
#   afl_smoke.sh SOURCE-DIR BUILD-DIR
set -euo pipefail
fail() { echo "afl_smoke: $*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: afl_smoke.sh SOURCE-DIR BUILD-DIR" >&2; exit 2; }
src=$(cd "$1" 2>/dev/null && pwd) || { echo "afl_smoke: no directory $1" >&2; exit 2; }
bdir=$2
for c in afl-fuzz afl-clang-fast; do
	command -v "$c" >/dev/null || { echo "afl_smoke: no $c, afl++ is not installed (skipped)"; exit 77; }
done
mapfile -t units < <(cd "$src/fuzzers" && ls fuzz_*.c 2>/dev/null | sed 's/^fuzz_\(.*\)\.c$/\1/')
[ ${#units[@]} -gt 0 ] || fail "no fuzzers/fuzz_*.c in $src"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! { (cd "$src" && cmake --preset afl -B "$bdir") &&
	cmake --build "$bdir" -j "$(nproc)" --target "${units[@]/#/fuzz_}"; } >"$tmp/build.log" 2>&1; then
	tail -30 "$tmp/build.log"
	fail "the afl preset build failed"
fi

execs=20000
if ! env -u AFL_BENCH_UNTIL_CRASH AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
	AFL_NO_UI=1 AFL_NO_AFFINITY=1 DPMFUZZ_FIX=all \
	afl-fuzz -i "$src/corpus/seed" -o "$tmp/out" -x "$src/fuzzers/seed.dict" \
	-s 1 -t 5000 -E "$execs" -- "$bdir/fuzzers/fuzz_seed" >"$tmp/afl.log" 2>&1; then
	sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$tmp/afl.log" | tail -20
	fail "afl-fuzz failed"
fi
stats=$tmp/out/default/fuzzer_stats
[ -f "$stats" ] || fail "afl-fuzz wrote no fuzzer_stats"
field() { sed -n "s/^$1[[:space:]]*: *\([0-9]*\).*/\1/p" "$stats"; }
done_=$(field execs_done)
crashes=$(field saved_crashes)
[ -n "$crashes" ] || crashes=$(field unique_crashes)
[ -n "$done_" ] && [ -n "$crashes" ] || fail "fuzzer_stats has no execs_done or saved_crashes"
want=$(grep -cv '^[[:space:]]*\(#\|$\)' "$src/fuzzers/seed.dict")
grep -q "Loaded a total of $want extras" "$tmp/afl.log" ||
	fail "afl-fuzz did not load the $want entries of fuzzers/seed.dict"
files=$(find "$tmp/out/default/crashes" -type f ! -name README.txt | wc -l)
if [ "$crashes" -ne 0 ] || [ "$files" -ne 0 ]; then
	rm -rf "$bdir/afl-smoke-crashes"
	cp -r "$tmp/out/default/crashes" "$bdir/afl-smoke-crashes"
	fail "afl-fuzz saved $crashes crashes ($bdir/afl-smoke-crashes; dpmrepro --fix all FILE explains one)"
fi
[ "$done_" -ge "$execs" ] || fail "afl-fuzz stopped after $done_ executions, before $execs"
echo "afl_smoke: ok, ${#units[@]} targets built; fuzz_seed: $done_ executions, $(field corpus_found) new paths, no crash"
