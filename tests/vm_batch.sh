#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/dpmvm on the real 6.1 kernel (QEMU): one boot, a clean scenario,
# an error path, two known violations (one of them a hibernation image
# and its thaw, with runtime-suspended devices), callbacks from every
# middle layer, and a wake-up event, a late device and a hotplug removal
# beside the walk; each judged on the real run and compared with
# kernel-6.1.192.  Skipped (77) with a one-line reason
# where the guest kernels or QEMU are missing.
#   vm_batch.sh SOURCE_DIR BUILD_DIR
set -u
src=$1
export DPMFUZZ_BUILD=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "vm_batch: $*" >&2
	exit 1
}
if ! why=$("$src/tools/dpmvm" --check-setup 2>&1 >/dev/null); then
	echo "vm_batch: skipped: $why"
	exit 77
fi
"$src/tools/dpmvm" -k 6.1 -o "$tmp/out" -T 60 \
	"$src/vm/scenarios/async-tree.scenario" \
	"$src/vm/scenarios/sync-error.scenario" \
	"$src/corpus/regressions/kernel/sso-must-resume.scenario" \
	"$src/vm/scenarios/kv9-thaw.scenario" \
	"$src/vm/scenarios/levels.scenario" \
	"$src/vm/scenarios/actions.scenario" >"$tmp/lines" 2>"$tmp/err"
rc=$?
cat "$tmp/lines"
[ $rc -eq 1 ] || fail "exit $rc, not 1 (a known violation): $(cat "$tmp/err")"
want="async-tree real=clean kernel-6.1.192=clean agree
sync-error real=clean kernel-6.1.192=clean agree
sso-must-resume real=RESUME-AFTER-PARENT kernel-6.1.192=RESUME-AFTER-PARENT agree
kv9-thaw real=RESUME-AFTER-PARENT kernel-6.1.192=RESUME-AFTER-PARENT agree
levels real=clean kernel-6.1.192=clean agree
actions real=clean kernel-6.1.192=clean agree"
[ "$(cat "$tmp/lines")" = "$want" ] || fail "the lines are not the expected ones"
# The real run, not a replay: the record has the failing callback and
# the transition's error, and the judge saw them.
grep -q ' CE s3 1 -5 ' "$tmp/out/sync-error/record.txt" || fail "sync-error: no failing suspend of s3 in the record"
grep -q '^transition-end - - -5 0 0 [0-9]*$' "$tmp/out/sync-error/real.events" || fail "sync-error: the judge did not see the transition's -5"
# A real image and its thaw: the resume phases ran with PM_EVENT_THAW.
grep -q ' PB - 4 0 32 0$' "$tmp/out/kv9-thaw/record.txt" || fail "kv9-thaw: no thaw_noirq phase in the record"
# The actions happened on the real kernel: the wake-up (an abort seen by
# pm_wakeup_pending()), the late device's registration, the removal.
for k in WK WA AD HP; do
	grep -q " $k " "$tmp/out/actions/record.txt" || fail "actions: no $k in the record"
done
grep -q 'legacy_suspend' "$tmp/out/levels/dmesg.txt" || fail "levels: no legacy bus callback ran"
for f in args.txt dmesg.txt ftrace.txt record.txt real.txt variant.txt compare.txt; do
	[ -s "$tmp/out/sso-must-resume/$f" ] || fail "sso-must-resume: no $f"
done
echo "vm_batch: ok"
