#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A broken main.c must be caught, by the invariant its break breaks:
tools/dpmmutate runs a handful of fixed mutants of a kernel tree, each
built as the tree's kernel variant in the dev preset and replayed on the
shipped corpus (-t 0: no fuzzing, the same outcome every run), and each
must be killed by its invariant with dpmrepro replaying the input, or be
found equivalent by its object code.  The run is interrupted with SIGINT
after the first mutant (exit 130, that result kept) and resumed by the
same command.

  mutate_test.py DPMMUTATE TREE OUTDIR

OUTDIR keeps the worker's build between runs (the first builds the
project once, about a minute; later runs rebuild main.c per mutant).
Exit: 0 every mutant as expected, 1 one is not, 77 no mutants are listed
for the tree's kernel series (skipped), 2 bad usage.
"""
import json
import re
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


def main(argv):
    if len(argv) != 3:
        print("usage: mutate_test.py DPMMUTATE TREE OUTDIR", file=sys.stderr)
        return 2
    tool, tree, out = argv
    s = series(tree)
    if s not in EXPECT:
        print(f"mutate_test: no fixed mutants for kernel series {s} (only {', '.join(EXPECT)}): skipped")
        return 77
    cmd = [tool, tree, "--preset", "dev", "-t", "0", "--tsan-iterations", "0", "-o", out]
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
    if list(state["results"]) != first or not state["sessions"][-1].get("interrupted"):
        print(f"mutate_test: the interrupted state holds {list(state['results'])}, not {first}")
        return 1
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout, end="")
    if p.returncode:
        print(f"mutate_test: dpmmutate exited {p.returncode}")
        return 1
    n = len(EXPECT[s])
    if f"{n} mutants selected, 1 done before, {n - 1} to run" not in p.stdout:
        print("mutate_test: the second run did not resume after the first mutant")
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
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
