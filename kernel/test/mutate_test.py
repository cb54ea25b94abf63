#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A broken main.c must be caught, by the invariant its break breaks:
tools/dpmmutate runs a handful of fixed mutants of a kernel tree through
its schemata (every mutant of main.c in one dev-preset build, each behind
a run-time id), stages corpus and check only (-t 0: the same outcome every
run), and each must be killed by its invariant with dpmrepro replaying the
input, or be found equivalent by its object code.  The run is interrupted
with SIGINT after the first mutant (exit 130, that result and any its batch finished kept) and
resumed by the same command.  Then:

  - id 0 of the schemata build gives every shipped regression of the
    tree's series the verdict the unmutated build gives it (DPMREPRO);
  - --list --base and --diff on a copy of the tree with one function
    changed list that function's mutants and no other;
  - bad input (an unknown function, an unknown operator, a damaged
    campaign directory, a diff that is not one of main.c) is one line on
    stderr and exit 2;
  - the first mutant built on its own (--own-build: the way a mutant the
    schemata cannot express goes) is killed by the same invariant.

  mutate_test.py DPMMUTATE DPMREPRO TREE OUTDIR

OUTDIR keeps the campaign's builds between runs (the first builds the
project once, about a minute; later runs only replay).
Exit: 0 every check as expected, 1 one is not, 77 no mutants are listed
for the tree's kernel series (skipped), 2 bad usage.
"""
import difflib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

# Per kernel series: (mutant, what must become of it).  The mutants are
# dpmmutate's ids (--list); 6.1's per-device functions have the
# double-underscore names 6.12 dropped.
EXPECT = {
    "6.12": [
        ("device_suspend.delete-call.dpm_wait_for_subordinate", "SUSPEND-AFTER-CHILDREN"),
        ("device_resume_noirq.delete-call.complete_all", "RESUME-AFTER-PARENT"),
        ("dpm_wait_for_superior.delete-call.put_device", "REFS"),
        ("dpm_complete.put-in-lock.put_device-before-unlock", "REMOVED"),
        ("device_resume.delete-call.device_unlock", "LIVENESS"),
        ("dpm_noirq_resume_devices.cond-false.while-1", "ROLLBACK"),
        ("device_suspend.swap-stmts.1", "equivalent"),
    ],
    "6.1": [
        ("__device_suspend.delete-call.dpm_wait_for_subordinate", "SUSPEND-AFTER-CHILDREN"),
        ("__device_resume_noirq.delete-call.complete_all", "RESUME-AFTER-PARENT"),
        ("dpm_wait_for_superior.delete-call.put_device", "REFS"),
        ("dpm_complete.put-in-lock.put_device-before-unlock", "REMOVED"),
        ("__device_resume.delete-call.device_unlock", "LIVENESS"),
        ("dpm_noirq_resume_devices.cond-false.while-1", "ROLLBACK"),
        ("__device_suspend.swap-stmts.1", "equivalent"),
    ],
}


def series(tree):
    mk = (Path(tree) / "Makefile").read_text(errors="replace")
    v = re.search(r"^VERSION *= *(\d+)", mk, re.M)
    p = re.search(r"^PATCHLEVEL *= *(\d+)", mk, re.M)
    return f"{v.group(1)}.{p.group(1)}" if v and p else None


def check_regressions(tool_out, dpmrepro, tree_series, out):
    """Every kernel regression of the series: the schemata build's verdict
    (id 0) is the unmutated build's."""
    schem = Path(out) / "build-dev" / "tools" / "dpmrepro"
    variant = json.loads((Path(out) / "state.json").read_text())["variant"]
    repo = Path(tool_out).resolve().parent.parent
    bad, n = 0, 0
    for f in sorted((repo / "corpus" / "regressions" / "kernel").glob("*.scenario")):
        holds = re.search(r"^# Holds on:(.*)$", f.read_text(), re.M)
        if not holds or f"kernel-{tree_series}" not in holds.group(1).split():
            continue
        got = []
        for binary in (dpmrepro, schem):
            env = dict(os.environ)
            env.pop("DPMFUZZ_MUTANT", None)
            p = subprocess.run([str(binary), "--variant", variant, "--check-regression", "--schedules", "200",
                                "--tail", "0", str(f)], capture_output=True, text=True, env=env)
            got.append((p.returncode, p.stdout.strip().replace(str(f), f.name)))
        n += 1
        if got[0] != got[1]:
            print(f"mutate_test: FAIL {f.name}: the unmutated build says {got[0]}, id 0 of the schemata {got[1]}")
            bad += 1
        else:
            print(f"mutate_test: ok   {f.name}: {got[0][1]} (exit {got[0][0]}) on both")
    if not n:
        print("mutate_test: FAIL no regression of the series to compare")
        return 1
    return bad


def one_line_exit2(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    if p.returncode != 2 or len(lines) != 1:
        print(f"mutate_test: FAIL {what}: exit {p.returncode} with {len(lines)} line(s) on stderr:\n{p.stderr}")
        return 1
    print(f"mutate_test: ok   {what}: exit 2, '{lines[0]}'")
    return 0


def check_diff_mode(tool, tree, out):
    """A copy of the tree with one line added inside one function."""
    copy = Path(out) / "changed-tree"
    shutil.rmtree(copy, ignore_errors=True)
    (copy / "drivers/base/power").mkdir(parents=True)
    for f in ("Makefile", "drivers/base/base.h", "drivers/base/power/power.h"):
        shutil.copyfile(Path(tree) / f, copy / f)
    main = (Path(tree) / "drivers/base/power/main.c").read_text()
    m = re.search(r"\nstatic bool dpm_wait_for_superior\(.*?\n\{\n", main, re.S)
    if not m:
        print("mutate_test: FAIL no dpm_wait_for_superior() in main.c")
        return 1
    changed = main[:m.end()] + "\tmight_sleep();\n" + main[m.end():]
    (copy / "drivers/base/power/main.c").write_text(changed)
    diff = "".join(difflib.unified_diff(main.splitlines(True), changed.splitlines(True),
                                        "a/drivers/base/power/main.c", "b/drivers/base/power/main.c"))
    (Path(out) / "one.diff").write_text(diff)
    bad = 0
    for how in (["--base", str(tree)], ["--diff", str(Path(out) / "one.diff")]):
        p = subprocess.run([tool, str(copy), "--list", "-o", str(Path(out) / "diff-campaign")] + how,
                           capture_output=True, text=True)
        ids = [l.split("\t")[0] for l in p.stdout.splitlines() if "\t" in l]
        fns = {i.split(".")[0] for i in ids}
        if p.returncode or fns != {"dpm_wait_for_superior"}:
            print(f"mutate_test: FAIL --list {how[0]}: exit {p.returncode}, functions {sorted(fns)}\n{p.stderr}")
            bad += 1
        else:
            print(f"mutate_test: ok   --list {how[0]}: {len(ids)} mutants, all of dpm_wait_for_superior")
    return bad


def check_own_build(tool, tree, out, mid, want):
    """The same mutant built on its own (--own-build, the way a mutant the
    schemata cannot express goes) is killed by the same invariant."""
    camp = Path(out) / "own-campaign"
    (camp / "state.json").unlink(missing_ok=True)
    p = subprocess.run([tool, tree, "--preset", "dev", "-t", "0", "--tsan-iterations", "0", "--check-devices", "0",
                        "--own-build", "--mutant", mid, "-o", str(camp)], capture_output=True, text=True)
    r = json.loads((camp / "report.json").read_text()) if (camp / "report.json").exists() else {}
    got = r.get("mutants", {}).get(mid, {})
    if p.returncode or got.get("status") != "killed" or got.get("by") != want or r.get("own_builds") != 1:
        print(f"mutate_test: FAIL --own-build {mid}: exit {p.returncode}, {got.get('status')} by {got.get('by')}, "
              f"{r.get('own_builds')} own build(s)\n{p.stdout[-2000:]}{p.stderr}")
        return 1
    print(f"mutate_test: ok   --own-build {mid}: killed by {want} in a build of its own")
    return 0


def check_bad_input(tool, tree, out):
    junk = Path(out) / "damaged"
    junk.mkdir(exist_ok=True)
    (junk / "state.json").write_text("{not json")
    notdiff = Path(out) / "not.diff"
    notdiff.write_text("hello\n")
    bad = one_line_exit2([tool, tree, "--function", "no_such_function", "--list", "-o", str(junk)],
                         "an unknown function")
    bad += one_line_exit2([tool, tree, "--operator", "no-such-operator"], "an unknown operator")
    bad += one_line_exit2([tool, tree, "-t", "0", "--mutant", "x", "-o", str(junk)], "an unknown mutant")
    bad += one_line_exit2([tool, tree, "-t", "0", "--report-only", "-o", str(junk)], "a damaged campaign directory")
    bad += one_line_exit2([tool, tree, "--list", "--diff", str(notdiff), "-o", str(junk)], "a diff of no main.c")
    return bad


def check_baseline_refresh(cmd, out):
    """The unmutated code's corpus run holds for the build it ran on: a
    campaign whose recorded build differs (dpmfuzz's code changed between
    sessions) runs it again before it counts a kill."""
    sf = Path(out) / "state.json"
    state = json.loads(sf.read_text())
    if not state.get("baseline", {}).get("build"):
        print("mutate_test: FAIL the baseline does not record the build it ran on")
        return 1
    state["baseline"]["build"] = "an older build"
    state["baseline"]["when"] = "then"
    sf.write_text(json.dumps(state))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    after = json.loads(sf.read_text()).get("baseline", {})
    if p.returncode or after.get("when") == "then" or after.get("build") == "an older build":
        print(f"mutate_test: FAIL a campaign checked with another build did not run its baseline again "
              f"(exit {p.returncode}, baseline {after})")
        return 1
    print("mutate_test: ok   the baseline runs again for a changed build")
    return 0


def main(argv):
    if len(argv) != 4:
        print("usage: mutate_test.py DPMMUTATE DPMREPRO TREE OUTDIR", file=sys.stderr)
        return 2
    tool, dpmrepro, tree, out = argv
    s = series(tree)
    if s not in EXPECT:
        print(f"mutate_test: no fixed mutants for kernel series {s} (only {', '.join(EXPECT)}): skipped")
        return 77
    cmd = [tool, tree, "--preset", "dev", "-t", "0", "--tsan-iterations", "0", "-o", out]
    Path(out).mkdir(parents=True, exist_ok=True)
    for mid, _ in EXPECT[s]:
        cmd += ["--mutant", mid]
    # SIGINT after the first mutant: exit 130, its result kept; the same
    # command resumes with the others.
    # A new campaign each time; the worker's build stays.
    (Path(out) / "state.json").unlink(missing_ok=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = []
    for line in p.stdout:
        print(line, end="")
        if re.search(r"\[1/\d+\] ", line):
            first.append(line.split()[2].rstrip(":"))
            p.send_signal(signal.SIGINT)
    if p.wait() != 130 or len(first) != 1:
        print(f"mutate_test: SIGINT after the first mutant: exit {p.returncode}, not 130")
        return 1
    state = json.loads((Path(out) / "state.json").read_text())
    killed = [i for i, r in state["results"].items() if r["status"] != "equivalent"]
    # The corpus stage runs its mutants in batches, a process each: the
    # SIGINT may land after the first mutant's batch has done more of
    # them (all of them, on a fast machine).  The state holds the first,
    # what came with it in the order run, and says it was interrupted.
    if killed[:1] != first or not state["sessions"][-1].get("interrupted"):
        print(f"mutate_test: the interrupted state holds {killed}, not {first} first")
        return 1
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout, end="")
    if p.returncode:
        print(f"mutate_test: dpmmutate exited {p.returncode}")
        return 1
    n = len(EXPECT[s])
    m = re.search(r"(\d+) mutants selected, (\d+) equivalent, \d+ duplicates of another, (\d+) to run", p.stdout)
    if not m or int(m.group(1)) != n or int(m.group(3)) != n - int(m.group(2)) - len(killed):
        print(f"mutate_test: the second run did not resume after the {len(killed)} mutant(s) the first one did")
        return 1
    got = json.loads((Path(out) / "report.json").read_text())["mutants"]
    bad = 0
    for mid, want in EXPECT[s]:
        r = got.get(mid, {})
        if want == "equivalent":
            ok = r.get("status") == "equivalent"
            seen = r.get("status")
        else:
            ok = r.get("status") == "killed" and r.get("by") == want and r.get("reproduced") is True
            seen = f"{r.get('status')} by {r.get('by')}, dpmrepro replays it: {r.get('reproduced')}"
        print(f"mutate_test: {'ok  ' if ok else 'FAIL'} {mid}: expected {want}, got {seen}")
        bad += not ok
    if bad:
        print(f"mutate_test: {bad} of {len(EXPECT[s])} mutants not as expected (report: {out}/report.md)")
    bad += check_regressions(tool, dpmrepro, s, out)
    bad += check_diff_mode(tool, tree, out)
    bad += check_bad_input(tool, tree, out)
    bad += check_own_build(tool, tree, out, *EXPECT[s][0])
    bad += check_baseline_refresh(cmd, out)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
