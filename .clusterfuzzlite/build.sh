#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
# OSS-Fuzz / ClusterFuzzLite build script.  It runs as `bash -eux
# $SRC/build.sh` in the image of .clusterfuzzlite/Dockerfile, with the
# source in $SRC/dpmfuzz, and uses only what the base image sets: $CC,
# $CFLAGS (sanitizer and coverage flags included), $LIB_FUZZING_ENGINE,
# $SRC, $OUT and, for the build tree, $WORK.  For every
# fuzzers/fuzz_<unit>.c it puts in $OUT:
#   fuzz_<unit>                    the target, linked with $LIB_FUZZING_ENGINE
#   fuzz_<unit>.options            fuzzers/<unit>.options, its dict line
#                                  naming the dictionary below
#   fuzz_<unit>.dict               the dictionary fuzzers/<unit>.options
#                                  names (seed.dict for the byte targets)
#   fuzz_<unit>_seed_corpus.zip    corpus/<unit>/
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
units=()
for f in "$proj"/fuzzers/fuzz_*.c; do
	[ -e "$f" ] || continue
	u=${f##*/fuzz_}
	units+=("${u%.c}")
done
if [ ${#units[@]} -eq 0 ]; then
	echo "build.sh: no fuzzers/fuzz_*.c in $proj" >&2
	exit 2
fi

# cmake takes $CC and $CFLAGS from the environment and
# sanitizers/sanitizers.cmake takes $LIB_FUZZING_ENGINE; build type None
# adds no flags of its own (no -O2, no -DNDEBUG), so the targets are built
# with exactly OSS-Fuzz's flags.
build=${WORK:-$(mktemp -d)}/dpmfuzz-build
rm -rf "$build"
cmake -S "$proj" -B "$build" -DCMAKE_BUILD_TYPE=None
cmake --build "$build" -j "$(nproc)" --target "${units[@]/#/fuzz_}"

mkdir -p "$OUT"
for u in "${units[@]}"; do
	t=fuzz_$u
	cp "$build/fuzzers/$t" "$OUT/$t"
	# The dictionary its .options names (targets sharing the byte format
	# share seed.dict), copied under the target's name.
	d=$u.dict
	if [ -f "$proj/fuzzers/$u.options" ]; then
		named=$(sed -n 's/^dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\)[[:space:]]*$/\1/p' \
			"$proj/fuzzers/$u.options")
		[ -z "$named" ] || d=$named
		sed "s/^\(dict[[:space:]]*=[[:space:]]*\).*$/\1$t.dict/" \
			"$proj/fuzzers/$u.options" >"$OUT/$t.options"
	fi
	if [ -f "$proj/fuzzers/$d" ]; then
		cp "$proj/fuzzers/$d" "$OUT/$t.dict"
	fi
	if [ -d "$proj/corpus/$u" ]; then
		rm -f "$OUT/${t}_seed_corpus.zip"
		(cd "$proj/corpus/$u" && zip -q -r -X "$OUT/${t}_seed_corpus.zip" .)
	fi
done
