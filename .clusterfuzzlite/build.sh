#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
# OSS-Fuzz / ClusterFuzzLite build script.  It runs as `bash -eux
# $SRC/build.sh` in the image of .clusterfuzzlite/Dockerfile, with the
# source in $SRC/dpmfuzz, and uses only what the base image sets: $CC,
# $CFLAGS (sanitizer and coverage flags included), $LIB_FUZZING_ENGINE,
# $SRC, $OUT and, for the build tree, $WORK.  The targets are those the
# configured build lists in fuzzers/fuzz-targets.tsv (target, variant,
# corpus folder); for each it puts in $OUT:
#   fuzz_<unit>                    the target, linked with $LIB_FUZZING_ENGINE
#   fuzz_<unit>.options            fuzzers/<corpus>.options, its dict line
#                                  naming the dictionary below
#   fuzz_<unit>.dict               the dictionary fuzzers/<corpus>.options
#                                  names (seed.dict for the byte targets)
#   fuzz_<unit>_seed_corpus.zip    corpus/<corpus>/
# tests/oss_fuzz_build.sh runs it without Docker (docs/fuzzing.md).
set -euo pipefail

for v in CC CFLAGS LIB_FUZZING_ENGINE SRC OUT; do
	if [ -z "${!v:-}" ]; then
		echo "build.sh: \$$v is not set; OSS-Fuzz and ClusterFuzzLite set it (docs/fuzzing.md)" >&2
		exit 2
	fi
done
proj=$SRC/dpmfuzz
if [ ! -f "$proj/fuzzers/CMakeLists.txt" ]; then
	echo "build.sh: no dpmfuzz source in $proj" >&2
	exit 2
fi
# cmake takes $CC and $CFLAGS from the environment and
# sanitizers/sanitizers.cmake takes $LIB_FUZZING_ENGINE; build type None
# adds no flags of its own (no -O2, no -DNDEBUG), so the targets are built
# with exactly OSS-Fuzz's flags.
build=${WORK:-$(mktemp -d)}/dpmfuzz-build
rm -rf "$build"
cmake -S "$proj" -B "$build" -DCMAKE_BUILD_TYPE=None
targets=() corpora=()
while IFS=$'\t' read -r t _variant c; do
	targets+=("$t")
	corpora+=("$c")
done <"$build/fuzzers/fuzz-targets.tsv"
if [ ${#targets[@]} -eq 0 ]; then
	echo "build.sh: the build lists no fuzz target ($build/fuzzers/fuzz-targets.tsv)" >&2
	exit 2
fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

mkdir -p "$OUT"
for i in "${!targets[@]}"; do
	t=${targets[$i]} c=${corpora[$i]}
	cp "$build/fuzzers/$t" "$OUT/$t"
	# The dictionary its .options names (targets sharing the byte format
	# share seed.dict), copied under the target's name.
	d=$c.dict
	if [ -f "$proj/fuzzers/$c.options" ]; then
		named=$(sed -n 's/^dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\)[[:space:]]*$/\1/p' \
			"$proj/fuzzers/$c.options")
		[ -z "$named" ] || d=$named
		sed "s/^\(dict[[:space:]]*=[[:space:]]*\).*$/\1$t.dict/" \
			"$proj/fuzzers/$c.options" >"$OUT/$t.options"
	fi
	if [ -f "$proj/fuzzers/$d" ]; then
		cp "$proj/fuzzers/$d" "$OUT/$t.dict"
	fi
	if [ -d "$proj/corpus/$c" ]; then
		rm -f "$OUT/${t}_seed_corpus.zip"
		(cd "$proj/corpus/$c" && zip -q -r -X "$OUT/${t}_seed_corpus.zip" .)
	fi
done
