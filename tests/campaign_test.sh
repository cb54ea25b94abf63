#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/campaign, briefly (docs/fuzzing.md, "Campaigns").
#
#   campaign_test.sh usage  SOURCE-DIR BUILD-DIR [CAMPAIGN]
#       bad flags, numbers and targets (BUILD-DIR's fuzz-targets.tsv
#       lists the targets): exit 2 and one line on stderr.
#   campaign_test.sh find   SOURCE-DIR BUILD-DIR WORK-DIR [CAMPAIGN]
#       15 s on fuzz_seed with every fix off, with a shipped corpus input
#       that breaks an invariant planted twice in the crash directory:
#       the report lists it once (both copies), under the ID dpmrepro
#       gives it; every finding's reproduce command and minimal scenario
#       replay show that finding's ID; the HTML report has the same
#       findings; the corpus was merged.  An unknown knob is exit 2.
#   campaign_test.sh leak   SOURCE-DIR BUILD-DIR WORK-DIR CAMPAIGN LEAK-TARGET
#       a campaign over a build directory whose one target, LEAK-TARGET,
#       leaks on inputs that start with "LEAK", with such an input planted
#       as a crash file: its finding is LSAN-leak and carries the
#       LeakSanitizer report (report.md, report.json's sanitizer file and
#       summary), which names the leaking function.
#   campaign_test.sh resume SOURCE-DIR BUILD-DIR WORK-DIR [CAMPAIGN]
#       20 s on fuzz_seed, SIGINT at the first progress line: exit 130,
#       a partial report with the resume command, state 'interrupted';
#       the same command again resumes: it starts from the time already
#       done, ends with at least 20 s fuzzed in all, time and executions
#       the two sessions' shares added up, the first session's inputs
#       kept, and a complete report.
#
# CAMPAIGN (default SOURCE-DIR/scripts/campaign) lets a scratch copy of
# the script be tested.  Runs take a few seconds of fuzzing; nothing is
# asserted about speed or about how many crashes the fuzzer finds.
set -uo pipefail
fail() { echo "campaign_test: $*" >&2; exit 1; }
mode=${1:-}
src=$(cd "${2:-.}" && pwd)
case "$mode" in
usage)
	[ $# -ge 3 ] || { echo "usage: campaign_test.sh usage SOURCE-DIR BUILD-DIR [CAMPAIGN]" >&2; exit 2; }
	build=$(cd "$3" && pwd) campaign=${4:-$src/scripts/campaign} ;;
find|resume|leak)
	[ $# -ge 4 ] || { echo "usage: campaign_test.sh find|resume|leak SOURCE-DIR BUILD-DIR WORK-DIR [CAMPAIGN [LEAK-TARGET]]" >&2; exit 2; }
	build=$(cd "$3" && pwd) work=$4 campaign=${5:-$src/scripts/campaign}
	repro=$build/tools/dpmrepro
	rm -rf "$work" && mkdir -p "$work" ;;
*) echo "usage: campaign_test.sh usage|find|resume SOURCE-DIR ..." >&2; exit 2 ;;
esac
cd "$src" || exit 2
json() { python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print($2)" "$1"; }

if [ "$mode" = usage ]; then
	n=0 errf=$(mktemp)
	trap 'rm -f "$errf"' EXIT
	for args in "-t abc" "-t 0" "-t 5x" "-t 99999999999999999999" "-j 0" "-j two" "--interval -1" \
		"--bogus" "nosuch" "seed nosuch" "--fix bad!spec" "--fix nosuch=all" "diff=none" \
		"seed=bad!spec" "-t" "-o"; do
		# shellcheck disable=SC2086
		"$campaign" --bin-dir "$build" $args >/dev/null 2>"$errf" </dev/null
		rc=$?
		err=$(cat "$errf")
		[ $rc -eq 2 ] || fail "'campaign $args' exited $rc, not 2"
		[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [[ $err == campaign:* ]] ||
			fail "'campaign $args' did not give one 'campaign:' line on stderr: $err"
		n=$((n + 1))
	done
	echo "campaign_test: usage ok, $n bad invocations exit 2 with one line"
	exit 0
fi

if [ "$mode" = leak ]; then
	target=${6:?the leak mode wants LEAK-TARGET}
	bin=$work/bin
	mkdir -p "$bin/fuzzers" "$bin/tools" "$work/c/crashes/leaky"
	printf 'fuzz_leaky\t-\tseed\n' >"$bin/fuzzers/fuzz-targets.tsv"
	ln -s "$target" "$bin/fuzzers/fuzz_leaky"
	ln -s "$repro" "$bin/tools/dpmrepro"
	printf 'LEAK planted' >"$work/c/crashes/leaky/leak-planted"
	"$campaign" -t 5 -j 1 --interval 5 --bin-dir "$bin" -o "$work/c" leaky >"$work/out" 2>&1
	rc=$?
	cat "$work/out"
	[ $rc -eq 1 ] || fail "exit $rc, not 1 (done with findings)"
	python3 - "$work/c" <<'EOF' || exit 1
import json, sys
from pathlib import Path
d = Path(sys.argv[1])
def fail(msg):
    print(f"campaign_test: {msg}", file=sys.stderr)
    sys.exit(1)
rep = json.loads((d / "report.json").read_text())
f = [x for x in rep["findings"] if x["first"].endswith("leak-planted")]
if not f:
    fail(f"no finding whose first file is the planted leak: {rep['findings']}")
f = f[0]
if f["id"] != "LSAN-leak":
    fail(f"the planted leak is {f['id']}, not LSAN-leak")
if not f.get("sanitizer") or "leaked" not in (f.get("sanitizer_summary") or ""):
    fail(f"the finding carries no LeakSanitizer summary: {f}")
text = (Path(f["sanitizer"]) if Path(f["sanitizer"]).is_absolute() else Path.cwd() / f["sanitizer"]).read_text()
if "ERROR: LeakSanitizer: detected memory leaks" not in text or "planted_leak" not in text:
    fail(f"the kept report lacks the LeakSanitizer error or the leaking function:\n{text[:600]}")
md = (d / "report.md").read_text()
if "ERROR: LeakSanitizer: detected memory leaks" not in md:
    fail("report.md does not show the LeakSanitizer report")
print("campaign_test: leak ok: LSAN-leak with its LeakSanitizer report kept")
EOF
	exit 0
fi

if [ "$mode" = find ]; then
	out=$("$campaign" --fix bogus-knob --bin-dir "$build" -o "$work/bad" seed 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] && [[ $out == *"bogus-knob"* ]] && [ "$(wc -l <<<"$out")" -eq 1 ] ||
		fail "an unknown knob gave exit $rc and: $out"
	[ ! -e "$work/bad" ] || fail "an unknown knob left a campaign directory behind"
	# The first shipped input that breaks an invariant with every fix off.
	for f in corpus/seed/*; do
		want=$("$repro" --variant seed --fix none --summary-json "$f" | json /dev/stdin 's["violation"] or ""')
		[ -n "$want" ] && break
	done
	[ -n "$want" ] || fail "no corpus/seed input breaks an invariant with --fix none"
	mkdir -p "$work/c/crashes/seed"
	cp "$f" "$work/c/crashes/seed/crash-planted"
	cp "$f" "$work/c/crashes/seed/crash-planted-copy"
	"$campaign" -t 15 -j 2 --interval 5 --fix none --bin-dir "$build" -o "$work/c" seed >"$work/out" 2>&1
	rc=$?
	cat "$work/out"
	[ $rc -eq 1 ] || fail "exit $rc, not 1 (done with findings)"
	md=$work/c/report.md
	[ -s "$md" ] && [ -s "$work/c/report.html" ] || fail "no report.md or report.html"
	grep -q '^Status: \*\*complete\*\*' "$md" || fail "the report does not say complete"
	python3 - "$md" "$work/c/report.html" "$want" "$src" <<'EOF' || exit 1
import html, re, subprocess, sys
md, page, want, src = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
text = open(md).read()
def fail(msg):
    print(f"campaign_test: {msg}", file=sys.stderr)
    sys.exit(1)
parts = re.split(r"^### \d+\. ", text, flags=re.M)[1:]
if not parts:
    fail("the report lists no finding")
shapes, planted = set(), None
for p in parts:
    m = re.match(r"(known: \S+(?: \([^)]*\))?|new finding): (\S+(?:, \S+)*) in fuzz_seed: (\d+) crash file", p)
    if not m:
        fail(f"a finding without 'LABEL: ID[, ID...] in fuzz_seed: N crash files': {p[:80]!r}")
    ids, count = m.group(2).split(", "), int(m.group(3))
    fid = ids[0]
    shape = re.search(r"```\n(.*?)\n```", p, re.S).group(1)
    if shape in shapes:
        fail(f"two findings with the same shape:\n{shape}")
    shapes.add(shape)
    if "crash-planted`" in p or "crash-planted-copy`" in p:
        planted = (want if want in ids else fid, count)
    cmds = re.findall(r"^Reproduce: `(.*)`$", p, re.M) + re.findall(r"replay: `(.*)`$", p, re.M)
    if len(cmds) != 2:
        fail(f"finding {fid}: want a reproduce command and a minimal scenario replay, got {cmds}")
    for cmd in cmds:
        r = subprocess.run(cmd, shell=True, cwd=src, capture_output=True, text=True)
        if r.returncode != 1 or not any(f"dpmfuzz: VIOLATION {i}:" in r.stdout for i in ids):
            fail(f"'{cmd}' exited {r.returncode} without VIOLATION {'/'.join(ids)}:\n{r.stdout[:400]}{r.stderr[:400]}")
        if html.escape(cmd, quote=False) not in page:
            fail(f"report.html lacks the command '{cmd}'")
    if f"{m.group(2)} in fuzz_seed" not in page:
        fail(f"report.html lacks finding {fid}")
if not planted:
    fail("no finding's first file is the planted crash")
if planted[0] != want or planted[1] < 2:
    fail(f"the planted crash (twice) is listed as {planted}, want {want} with both copies")
print(f"campaign_test: {len(parts)} finding(s), each reproduced; planted {want} listed once with {planted[1]} files")
EOF
	ex=$(json "$work/c/state.json" 's["targets"]["seed"]["execs"]')
	[ "$ex" -gt 0 ] || fail "no executions recorded"
	[ -n "$(ls "$work/c/merged/seed")" ] || fail "no merged corpus in merged/seed"
	echo "campaign_test: find ok ($ex executions)"
	exit 0
fi

# resume
cmd=("$campaign" -t 20 -j 2 --interval 2 --bin-dir "$build" -o "$work/c" seed)
"${cmd[@]}" >"$work/out1" 2>&1 &
pid=$!
for _ in $(seq 600); do
	grep -q 'fuzz_seed \[1/1\] ' "$work/out1" && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
grep -q 'fuzz_seed \[1/1\] ' "$work/out1" || { cat "$work/out1"; kill $pid 2>/dev/null; fail "no progress line"; }
kill -INT $pid
wait $pid
rc=$?
cat "$work/out1"
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, not 130"
st=$work/c/state.json
grep -q '^Status: \*\*partial\*\*' "$work/c/report.md" || fail "no partial report"
grep -q 'Resume with `.*-o ' "$work/c/report.md" || fail "the partial report does not say how to resume"
grep -q 'resume with: ' "$work/out1" || fail "no resume command printed"
[ "$(json "$st" 's["status"]')" = interrupted ] || fail "state is not 'interrupted'"
s1=$(json "$st" 's["targets"]["seed"]["seconds"]')
x1=$(json "$st" 's["targets"]["seed"]["execs"]')
python3 -c "import sys; sys.exit(not 0 < float(sys.argv[1]) < 20)" "$s1" || fail "after SIGINT, $s1 s fuzzed"
ls "$work/c/corpus/seed" >"$work/corpus1"
"${cmd[@]}" >"$work/out2" 2>&1
rc=$?
cat "$work/out2"
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "the resumed run exited $rc"
s1r=$(python3 -c "print(f'{float(__import__(\"sys\").argv[1]):.0f}')" "$s1")
grep -q "resuming .*: seed $s1r/20 s" "$work/out2" || fail "the rerun did not resume from $s1r s"
[ "$(json "$st" 's["status"]')" = complete ] || fail "state is not 'complete' after the rerun"
grep -q '^Status: \*\*complete\*\*' "$work/c/report.md" || fail "the report does not say complete"
json "$st" '[x["interrupted"] for x in s["sessions"]] == [True, False] or sys.exit(1)' >/dev/null ||
	fail "sessions: $(json "$st" 's["sessions"]')"
s2=$(json "$st" 's["targets"]["seed"]["seconds"]')
x2=$(json "$st" 's["targets"]["seed"]["execs"]')
python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= 20)" "$s2" || fail "$s2 s fuzzed in all, not 20"
[ "$x2" -ge "$x1" ] || fail "executions went from $x1 to $x2"
# The totals are the sessions' shares added up, the first one's as it was.
json "$st" 'abs(sum(x["seconds"]["seed"] for x in s["sessions"]) - s["targets"]["seed"]["seconds"]) < 0.1 and
	sum(x["execs"]["seed"] for x in s["sessions"]) == s["targets"]["seed"]["execs"] and
	abs(s["sessions"][0]["seconds"]["seed"] - '"$s1"') < 0.1 and s["sessions"][0]["execs"]["seed"] == '"$x1"' and
	min(x["seconds"]["seed"] for x in s["sessions"]) > 0 or sys.exit(1)' >/dev/null ||
	fail "the totals are not the sessions added up: $(json "$st" '[(x["seconds"], x["execs"]) for x in s["sessions"]], s["targets"]["seed"]["seconds"], s["targets"]["seed"]["execs"]')"
missing=$(ls "$work/c/corpus/seed" | comm -23 "$work/corpus1" -)
[ -z "$missing" ] || fail "the first session's inputs are gone: $missing"
echo "campaign_test: resume ok: $s1 s before SIGINT, $s2 s in all; $x1 -> $x2 executions"
