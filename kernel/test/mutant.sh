#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A broken main.c must be caught: copies a kernel tree's Makefile and
# drivers/base/ to a scratch directory, breaks the copy's main.c, builds
# dpmk_check against the copy only, and expects a violation within N
# scenarios.  The tree itself is only read.
#
#   kernel/test/mutant.sh TREE MUTATION [SCENARIOS]
#
# MUTATION:
#   no-wait-subordinate   device_suspend() no longer waits for its children
#                         and consumers (its dpm_wait_for_subordinate() call
#                         is deleted)
#   no-complete-noirq     device_resume_noirq() no longer completes the
#                         device's power.completion
# Exit: 0 the harness caught it (its report, and how long it took, are
# printed), 1 it did not, 2 bad usage or a failed build.
set -euo pipefail

usage() {
	sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
tree=$(cd "$1" && pwd) || usage
mutation=$2
scenarios=${3:-20000}
src=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$tree/drivers/base/power/main.c" ] || { echo "mutant: $tree is not a kernel tree" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/dpmk-mutant.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/tree/drivers"
cp "$tree/Makefile" "$scratch/tree/"
cp -r "$tree/drivers/base" "$scratch/tree/drivers/"
main="$scratch/tree/drivers/base/power/main.c"

# The first line matching $2 inside the function whose definition line
# matches $1 is deleted.
delete_in_function() {
	python3 - "$main" "$1" "$2" <<'EOF'
import re, sys
path, fn, line = sys.argv[1], re.compile(sys.argv[2]), re.compile(sys.argv[3])
src = open(path).read().split('\n')
inside = False
for i, l in enumerate(src):
    if fn.match(l):
        inside = True
    elif inside and l.startswith('}'):
        break
    elif inside and line.search(l):
        del src[i]
        open(path, 'w').write('\n'.join(src))
        sys.exit(0)
sys.exit(1)
EOF
}

case "$mutation" in
no-wait-subordinate)
	delete_in_function '^static (int|void) (__)?device_suspend\(struct device \*dev' \
		'^\s*dpm_wait_for_subordinate\(dev, async\);' ;;
no-complete-noirq)
	delete_in_function '^static (int|void) (__)?device_resume_noirq\(struct device \*dev' \
		'^\s*complete_all\(&dev->power.completion\);' ;;
*)
	echo "mutant: unknown mutation '$mutation'" >&2
	exit 2 ;;
esac || { echo "mutant: $mutation does not apply to $main" >&2; exit 2; }
echo "mutant: $mutation:"
diff -u "$tree/drivers/base/power/main.c" "$main" | sed -n '3,$p' | grep '^[-+]' || true

build="$scratch/build"
cc=${CC:-clang}
if ! { cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="-O2 -g" \
	-DDPMFUZZ_KERNEL_TREES="$scratch/tree" &&
       cmake --build "$build" -j "${JOBS:-2}" --target dpmk_check; } >"$scratch/build.log" 2>&1; then
	tail -20 "$scratch/build.log"
	echo "mutant: the build failed" >&2
	exit 2
fi
start=$(date +%s.%N)
set +e
"$build/kernel/test/dpmk_check" --scenarios "$scenarios" --tail 25 >"$scratch/out" 2>&1
rc=$?
set -e
end=$(date +%s.%N)
if [ $rc -eq 1 ] && grep -q "VIOLATION" "$scratch/out"; then
	grep -m1 "VIOLATION" "$scratch/out"
	grep -m1 -- "--- kernel" "$scratch/out"
	printf 'mutant: caught in %.2f s\n' "$(echo "$end - $start" | bc)"
	exit 0
fi
tail -5 "$scratch/out"
echo "mutant: $mutation was not caught in $scenarios scenarios" >&2
exit 1
