#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs .clusterfuzzlite/build.sh the way OSS-Fuzz's `compile` runs it for
# a libFuzzer + AddressSanitizer build, without Docker: a copy of the
# source in $SRC/dpmfuzz, build.sh copied to $SRC (as the Dockerfile
# does), `bash -eux $SRC/build.sh` from $SRC/dpmfuzz with only the base
# image's variables set.  Then it removes $SRC and $WORK, so nothing but
# $OUT is left, and checks for every target the build listed (its
# fuzzers/fuzz-targets.tsv, read before $WORK goes):
#   - $OUT has fuzz_<unit>, .options, .dict and _seed_corpus.zip;
#   - every compile command carried $CFLAGS as given (no -O2, no -DNDEBUG);
#   - the target is built with ASan and libFuzzer;
#   - the .options file parses as ClusterFuzz reads it ([libfuzzer]
#     section, key = value, dict next to the target), and libFuzzer takes
#     every flag from it and loads the whole dictionary;
#   - 1000 runs (-runs=1000 -seed=1) with those flags exit 0;
#   - the zip holds the files of corpus/<corpus>/, and replaying them
#     (-runs=0) exits 0 having read them all.
# DPMFUZZ_FIX=all: every kernel fix on, so nothing may be found.
#   oss_fuzz_build.sh SOURCE-DIR
set -euo pipefail
fail() { echo "oss_fuzz_build: $*" >&2; exit 1; }
[ $# -eq 1 ] || { echo "usage: oss_fuzz_build.sh SOURCE-DIR" >&2; exit 2; }
src=$(cd "$1" 2>/dev/null && pwd) || { echo "oss_fuzz_build: no directory $1" >&2; exit 2; }
[ -f "$src/.clusterfuzzlite/build.sh" ] ||
	{ echo "oss_fuzz_build: $src has no .clusterfuzzlite/build.sh" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SRC=$tmp/src OUT=$tmp/out WORK=$tmp/work
mkdir -p "$SRC/dpmfuzz" "$OUT" "$WORK" "$tmp/run"
for e in "$src"/* "$src"/.clusterfuzzlite; do
	case ${e##*/} in build|fuzz-out) continue ;; esac
	cp -a "$e" "$SRC/dpmfuzz/"
done
cp "$src/.clusterfuzzlite/build.sh" "$SRC/build.sh"

# OSS-Fuzz's base-builder image: CFLAGS is its base flags, then
# SANITIZER_FLAGS_address, then COVERAGE_FLAGS; compile_libfuzzer sets
# LIB_FUZZING_ENGINE (docs/fuzzing.md).
cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
cflags+=" -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
if ! (cd "$SRC/dpmfuzz" && env -i PATH="$PATH" HOME="$tmp" \
	CC=clang CXX=clang++ CFLAGS="$cflags" CXXFLAGS="$cflags" \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address \
	FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=c ARCHITECTURE=x86_64 \
	SRC="$SRC" OUT="$OUT" WORK="$WORK" \
	bash -eux "$SRC/build.sh") >"$tmp/build.log" 2>&1; then
	tail -30 "$tmp/build.log"
	fail "build.sh failed"
fi

# The targets and the compile commands, before $WORK goes.
tsv=$WORK/dpmfuzz-build/fuzzers/fuzz-targets.tsv
[ -s "$tsv" ] || fail "the build wrote no fuzzers/fuzz-targets.tsv under \$WORK"
targets=() corpora=()
while IFS=$'\t' read -r t _variant c; do
	targets+=("$t")
	corpora+=("$c")
done <"$tsv"
[ ${#targets[@]} -gt 0 ] || fail "$tsv lists no target"
cc_json=$(find "$WORK" -name compile_commands.json | head -1)
[ -n "$cc_json" ] || fail "no compile_commands.json under \$WORK"
python3 - "$cc_json" "$cflags" <<'PY' || exit 1
import json, sys
cmds = json.load(open(sys.argv[1]))
bad = [c["file"] for c in cmds
       if sys.argv[2] not in c["command"] or "-DNDEBUG" in c["command"]
       or " -O2" in c["command"] or " -O3" in c["command"]]
if not cmds or bad:
    sys.exit("oss_fuzz_build: compiled without OSS-Fuzz's CFLAGS as given: %s"
             % (bad[0] if bad else "no commands"))
PY
rm -rf "$SRC" "$WORK"
cd "$tmp/run"

# options_flags FILE: the libFuzzer flags ClusterFuzz makes of an .options
# file, one per line; the dict path is relative to the target's directory.
options_flags() {
	python3 - "$1" <<'PY'
import configparser, os, sys
p = sys.argv[1]
c = configparser.ConfigParser()
try:
    c.read_file(open(p))
except (OSError, configparser.Error) as e:
    sys.exit("oss_fuzz_build: %s does not parse: %s" % (p, str(e).splitlines()[0]))
if not c.has_section("libfuzzer"):
    sys.exit("oss_fuzz_build: %s has no [libfuzzer] section" % p)
for k, v in c.items("libfuzzer"):
    if k == "dict":
        v = os.path.join(os.path.dirname(p), v)
        if not os.path.isfile(v):
            sys.exit("oss_fuzz_build: %s names a dict that is not in $OUT: %s" % (p, v))
    print("-%s=%s" % (k, v))
PY
}

for i in "${!targets[@]}"; do
	t=${targets[$i]} c=${corpora[$i]}
	for f in "$t" "$t.options" "$t.dict" "${t}_seed_corpus.zip"; do
		[ -s "$OUT/$f" ] || fail "$f is missing from \$OUT"
	done
	[ -x "$OUT/$t" ] || fail "$t in \$OUT is not executable"

	ASAN_OPTIONS=help=1 "$OUT/$t" -runs=0 2>"$tmp/asan.log" >/dev/null || true
	grep -q "Available flags for AddressSanitizer" "$tmp/asan.log" ||
		fail "$t is not built with AddressSanitizer"

	opts=$(options_flags "$OUT/$t.options") || exit 1
	mapfile -t flags <<<"$opts"
	[ ${#flags[@]} -gt 0 ] || fail "$t.options gave no flags"
	if ! DPMFUZZ_FIX=all "$OUT/$t" "${flags[@]}" -runs=1000 -seed=1 >"$tmp/run.log" 2>&1; then
		tail -20 "$tmp/run.log"
		fail "$t ${flags[*]} -runs=1000 failed"
	fi
	! grep -q "unrecognized flag" "$tmp/run.log" ||
		fail "$t: libFuzzer does not know a flag of $t.options: $(grep -m1 'unrecognized flag' "$tmp/run.log")"
	grep -q "Loaded 1 modules" "$tmp/run.log" || fail "$t has no libFuzzer coverage instrumentation"
	want=$(grep -cv '^[[:space:]]*\(#\|$\)' "$OUT/$t.dict")
	grep -q "^Dictionary: $want entries" "$tmp/run.log" ||
		fail "$t: libFuzzer did not load the $want entries of $t.dict through $t.options"

	python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
		"$OUT/${t}_seed_corpus.zip" "$tmp/seeds-$t" || fail "${t}_seed_corpus.zip does not unzip"
	n=$(find "$tmp/seeds-$t" -type f | wc -l)
	want=$(find "$src/corpus/$c" -type f | wc -l)
	[ "$n" -eq "$want" ] || fail "${t}_seed_corpus.zip has $n files, corpus/$c has $want"
	if ! DPMFUZZ_FIX=all "$OUT/$t" "${flags[@]}" -runs=0 "$tmp/seeds-$t" >"$tmp/run.log" 2>&1; then
		tail -20 "$tmp/run.log"
		fail "$t -runs=0 on its seed corpus failed"
	fi
	grep -q "seed corpus: files: $n " "$tmp/run.log" ||
		fail "$t did not read the $n files of its seed corpus"
	echo "oss_fuzz_build: $t ok: ${flags[*]}; 1000 runs; $n seeds replayed"
done
echo "oss_fuzz_build: ok, ${#targets[@]} targets in \$OUT: $(cd "$OUT" && echo *)"
