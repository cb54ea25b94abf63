#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# dpmrepro --judge on records of real kernels (tests/data/vm, written by
# tools/dpmvm on 6.1.0-57-amd64; kv3-runtime-pm on 6.12.118+deb12-amd64):
# the oracle's verdict on the real run,
# the events it saw, and one line with exit 2 for a damaged record.
#   vm_judge.sh DPMREPRO SOURCE_DIR
set -u
repro=$1
src=$2
data=$src/tests/data/vm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "vm_judge: $*" >&2
	exit 1
}

# sso-must-resume: the supplier's noirq resume skipped while its
# consumer's runs, as the kernel variant reports it.
out=$("$repro" --judge "$data/sso-must-resume.record" "$src/corpus/regressions/kernel/sso-must-resume.scenario")
rc=$?
[ $rc -eq 1 ] || fail "sso-must-resume: exit $rc, not 1"
grep -q "^dpmfuzz: VIOLATION RESUME-AFTER-PARENT: supplier 'dev77' had not resumed when its consumer 'dev79' started resume_noirq" <<<"$out" ||
	fail "sso-must-resume: not the variant's verdict: $(head -1 <<<"$out")"

# sync-error: s3's suspend fails with -5, the transition reports -5, the
# rollback resumes s4 only: clean.
"$repro" --judge "$data/sync-error.record" --events "$tmp/ev" "$src/vm/scenarios/sync-error.scenario" >"$tmp/out"
rc=$?
[ $rc -eq 0 ] || fail "sync-error: exit $rc: $(head -1 "$tmp/out")"
grep -q '^dpmfuzz: no violation on the real kernel' "$tmp/out" || fail "sync-error: $(head -1 "$tmp/out")"
grep -q '^cb-end s3 suspend -5 -5 0 [0-9]*$' "$tmp/ev" || fail "sync-error: no failing suspend of s3 among the events"
grep -q '^transition-end - - -5 0 0 [0-9]*$' "$tmp/ev" || fail "sync-error: the transition's -5 is not in the events"
[ "$(grep -c '^cb-start .* resume 0' "$tmp/ev")" -eq 1 ] || fail "sync-error: the rollback should resume s4 only"

# kv3-runtime-pm: the real 6.12 leaves dev1's runtime PM disabled once
# more (KV-3), which only the RP records show; with every knob on it is
# the known finding, named.
sc=$src/corpus/regressions/kernel/kv3-no-callbacks-runtime-pm-left-disabled.scenario
out=$("$repro" --judge "$data/kv3-runtime-pm.record" "$sc")
[ $? -eq 1 ] && grep -q "^dpmfuzz: VIOLATION RUNTIME-PM: the runtime PM of 'dev1' ends the transition disabled 1 times, not 0" <<<"$out" ||
	fail "kv3-runtime-pm: $(head -1 <<<"$out")"
grep -v ' RP ' "$data/kv3-runtime-pm.record" >"$tmp/norp.record"
out=$("$repro" --judge "$tmp/norp.record" "$sc")
[ $? -eq 0 ] || fail "kv3-runtime-pm without RP records: $(head -1 <<<"$out")"
out=$("$repro" --fix all --judge "$data/kv3-runtime-pm.record" "$sc")
[ $? -eq 0 ] && grep -q "^dpmfuzz: KNOWN KV-3 (waiver kv3-dc-cleared): RUNTIME-PM: " <<<"$out" ||
	fail "kv3-runtime-pm, every knob on: $(sed -n 2p <<<"$out")"

# The same record with the write said to succeed: a failed suspend that
# reports success is a rollback violation.
sed 's/^\(.* TE - -1\) -5 /\1 0 /' "$data/sync-error.record" >"$tmp/ok.record"
out=$("$repro" --judge "$tmp/ok.record" "$src/vm/scenarios/sync-error.scenario")
[ $? -eq 1 ] && grep -q '^dpmfuzz: VIOLATION ROLLBACK' <<<"$out" || fail "a failed suspend reported as success: $(head -1 <<<"$out")"

# A record whose transition hung: LIVENESS with the stacks given.
{ grep -v ' TE ' "$data/sync-error.record"; echo "# hung"; echo "# stack task 'init' in device_pm_wait_for_dev"; } >"$tmp/hung.record"
out=$("$repro" --judge "$tmp/hung.record" "$src/vm/scenarios/sync-error.scenario")
[ $? -eq 1 ] && grep -q '^dpmfuzz: VIOLATION LIVENESS: the transition never returned' <<<"$out" &&
	grep -q "task 'init' in device_pm_wait_for_dev" <<<"$out" || fail "a hung record: $(head -1 <<<"$out")"

# Damaged records: one line on stderr, exit 2, no events file.
bad() {
	local what=$1 want=$2
	"$repro" --judge "$tmp/bad.record" --events "$tmp/bad.ev" "$src/vm/scenarios/sync-error.scenario" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$what: exit $rc, not 2"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: not one line: $(cat "$tmp/err")"
	grep -q -- "$want" "$tmp/err" || fail "$what: '$(cat "$tmp/err")' does not say '$want'"
	[ ! -e "$tmp/bad.ev" ] || fail "$what: an events file was left behind"
}
{ head -3 "$data/sync-error.record"; echo "garbage"; } >"$tmp/bad.record"
bad "a line of another form" "line 4: not a record line"
sed 's/ DN s1 / DN nosuch /' "$data/sync-error.record" >"$tmp/bad.record"
bad "an unknown device" "no device 'nosuch'"
{ sed -n 2p "$data/sync-error.record"; sed -n 1p "$data/sync-error.record"; } >"$tmp/bad.record"
bad "sequence numbers out of order" "sequence number"
sed 's/ DN s1 / XX s1 /' "$data/sync-error.record" >"$tmp/bad.record"
bad "an unknown kind" "unknown event kind 'XX'"
echo "vm_judge: ok"
