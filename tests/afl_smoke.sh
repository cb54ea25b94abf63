#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# AFL++ smoke run.  Configures the afl preset (afl-clang-fast, linked with
# AFL++'s libFuzzer driver) in BUILD-DIR and builds every target its
# fuzzers/fuzz-targets.tsv lists, then runs afl-fuzz on the first (the
# registry's first variant, fuzz_seed), from its corpus/<corpus>/ with
# the dictionary its fuzzers/<corpus>.options names,
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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$src" && cmake --preset afl -B "$bdir") >"$tmp/build.log" 2>&1; then
	tail -30 "$tmp/build.log"
	fail "configuring the afl preset failed"
fi
targets=()
while IFS=$'\t' read -r t _variant _corpus; do
	targets+=("$t")
done <"$bdir/fuzzers/fuzz-targets.tsv"
[ ${#targets[@]} -gt 0 ] || fail "$bdir/fuzzers/fuzz-targets.tsv lists no target"
IFS=$'\t' read -r target _variant corpus <"$bdir/fuzzers/fuzz-targets.tsv"
dict=$src/fuzzers/$(sed -n 's/^dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$src/fuzzers/$corpus.options")
[ -f "$dict" ] || fail "fuzzers/$corpus.options names no dictionary"
if ! cmake --build "$bdir" -j "$(nproc)" --target "${targets[@]}" >"$tmp/build.log" 2>&1; then
	tail -30 "$tmp/build.log"
	fail "the afl preset build failed"
fi

execs=20000
if ! env -u AFL_BENCH_UNTIL_CRASH AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
	AFL_NO_UI=1 AFL_NO_AFFINITY=1 DPMFUZZ_FIX=all \
	afl-fuzz -i "$src/corpus/$corpus" -o "$tmp/out" -x "$dict" \
	-s 1 -t 5000 -E "$execs" -- "$bdir/fuzzers/$target" >"$tmp/afl.log" 2>&1; then
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
want=$(grep -cv '^[[:space:]]*\(#\|$\)' "$dict")
grep -q "Loaded a total of $want extras" "$tmp/afl.log" ||
	fail "afl-fuzz did not load the $want entries of $dict"
files=$(find "$tmp/out/default/crashes" -type f ! -name README.txt | wc -l)
if [ "$crashes" -ne 0 ] || [ "$files" -ne 0 ]; then
	rm -rf "$bdir/afl-smoke-crashes"
	cp -r "$tmp/out/default/crashes" "$bdir/afl-smoke-crashes"
	fail "afl-fuzz saved $crashes crashes ($bdir/afl-smoke-crashes; dpmrepro --fix all FILE explains one)"
fi
[ "$done_" -ge "$execs" ] || fail "afl-fuzz stopped after $done_ executions, before $execs"
echo "afl_smoke: ok, ${#targets[@]} targets built; $target: $done_ executions, $(field corpus_found) new paths, no crash"
