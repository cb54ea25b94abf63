#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Findings by root cause (scripts/lib/triage.py) and check-tree's bad
input.

  triage_test.py DPMREPRO REPO [KERNEL-VARIANT]

Each shipped regression of a known finding, replayed with the knobs of its
'fix' line, is labelled by the knob that silences it (the names below are
what the files are about, written by hand); with every knob on nothing is
left to silence it (new).  group_key() merges one step's breaches of an
invariant and keeps steps apart; canonical() renames devices in the order
they are declared.  scripts/check-tree on a missing or non-kernel
directory: one line, exit 2.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

repro, repo = sys.argv[1], Path(sys.argv[2])
kernel = sys.argv[3] if len(sys.argv) > 3 else None
sys.path.insert(0, str(repo / "scripts" / "lib"))
import triage  # noqa: E402

fails = []


def check(what, got, want):
    if got != want:
        fails.append(f"{what}: got {got!r}, want {want!r}")


def fix_line(path):
    for line in path.read_text().splitlines():
        if line.startswith("fix "):
            return line.split(None, 1)[1].strip()
    return "none"


cases = [("seed", "seed/async-error-after-complete", "async-error-order"),
         ("seed", "seed/freed-parent-async-resume", "resume-deleted"),
         ("seed", "seed/never-visited-parent-hang", "completion-init")]
if kernel:
    cases += [(kernel, "kernel/kv2-may-skip-resume-after-late-abort", "kv2-kept-parent"),
              (kernel, "kernel/kv5-suspend-step-freed-parent", "kv5-hold-parent"),
              (kernel, "kernel/kv1-sso-consumer-before-supplier", "kv1-sso-dormant")]
for variant, name, knob in cases:
    f = repo / "corpus" / "regressions" / f"{name}.scenario"
    lab = triage.label(repro, variant, fix_line(f), f)
    check(f"{name} on {variant}", lab["label"], f"known: {knob}")
    check(f"{name} on {variant} with every knob", triage.label(repro, variant, "all", f)["label"],
          "new finding")
if kernel:
    f = repo / "corpus" / "regressions" / "kernel" / "kv2-may-skip-resume-after-late-abort.scenario"
    check("KV-2's name", triage.label(repro, kernel, "none", f)["name"], "KV-2")

new = {"knob": None}
late_child = "child 'dev1' had not suspended when its parent 'dev0' started suspend_late"
late_consumer = ("consumer 'x' had not finished suspending (its callback is running) when its "
                 "supplier 'y' started suspend_late")
noirq_child = "child 'dev1' had not suspended when its parent 'dev0' started suspend_noirq"
k1 = triage.group_key("v", "SUSPEND-AFTER-CHILDREN", new, late_child)
check("one step, two relations", triage.group_key("v", "SUSPEND-AFTER-CHILDREN", new, late_consumer), k1)
if triage.group_key("v", "SUSPEND-AFTER-CHILDREN", new, noirq_child) == k1:
    fails.append("suspend_late and suspend_noirq breaches merged")
if triage.group_key("v", "REMOVED", new, late_child) == k1:
    fails.append("two invariants merged")
known = {"knob": "kv2-kept-parent", "label": "known: kv2-kept-parent"}
check("known merges by knob", triage.group_key("v", "A", known, "x"), triage.group_key("v", "B", known, "y"))
check("canonical", triage.canonical("# c\nvariant seed\ndevice p\ndevice c  parent=p async\n"),
      "device d0\ndevice d1 parent=d0 async\n")

ct = repo / "scripts" / "check-tree"
with tempfile.TemporaryDirectory() as tmp:
    (Path(tmp) / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 12\n")
    for arg, want in ((f"{tmp}/missing", "is not a directory"), (tmp, "is not a kernel tree")):
        p = subprocess.run([str(ct), arg], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(f"check-tree {arg}: exit", p.returncode, 2)
        lines = p.stderr.splitlines()
        if len(lines) != 1 or want not in lines[0] or p.stdout:
            fails.append(f"check-tree {arg}: want one line with '{want}', got {p.stderr!r} {p.stdout!r}")

for f in fails:
    print("FAIL", f)
print(f"triage_test: {len(cases)} labels, {len(fails)} failure(s)")
sys.exit(1 if fails else 0)
