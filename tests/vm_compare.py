# SPDX-License-Identifier: GPL-2.0-only
"""tools/vm/compare.py on events written by hand: what it must call a
disagreement, and the differences it must take as timing (docs/vm.md,
"The comparison").  Usage: vm_compare.py SOURCE_DIR"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(sys.argv[1]).resolve()))
from tools.vm.compare import compare  # noqa: E402

NAMES = ["p", "a", "b", "c"]
PARENTS = {"p": None, "a": "p", "b": "p", "c": "p"}
failed = 0


def check(what, real, var, want_diff, racy=False, rv="clean", vv="clean", waiters=(),
          hotplugs=()):
    global failed
    first, table, race = compare("\n".join(real) + "\n", "\n".join(var) + "\n", NAMES,
                                 PARENTS, rv, vv, "kernel-x", racy, waiters, hotplugs)
    if want_diff == "race":
        if first or not race:
            failed += 1
            print(f"FAIL {what}: first difference {first!r}, race {race!r}, wanted a race\n{table}")
    elif bool(first) != want_diff or race:
        failed += 1
        print(f"FAIL {what}: first difference {first!r}, wanted {'one' if want_diff else 'none'}\n{table}")
    return first, table


def cb(dev, phase, err=0):
    return [f"handled {dev} {phase} 0 0 0", f"cb-start {dev} {phase} 0 1 0",
            f"cb-end {dev} {phase} {err} {err} 0"]


def transition(suspend, resume, err=0):
    ev = ["transition-begin - - 0 0 0", "phase-begin - suspend 0 0 0"]
    for d, e in suspend:
        ev += cb(d, "suspend", e)
    ev += ["phase-end - suspend 0 0 0", "phase-begin - resume 0 1 0"]
    for d in resume:
        ev += cb(d, "resume")
    return ev + ["phase-end - resume 0 0 0", f"transition-end - - {err} 0 0"]


same = transition([("a", 0), ("b", 0), ("p", 0)], ["p", "a", "b"])
check("the same run", same, same, False)
check("a callback on one side only", transition([("a", 0), ("p", 0)], ["p", "a"]),
      transition([("a", 0), ("b", 0), ("p", 0)], ["p", "a", "b"]), True)

# b fails; whether a got its callback before main.c saw the error is a race
# when devices suspend async, not otherwise.
real = transition([("b", -5), ("a", 0)], ["a"], err=-5)
var = transition([("b", -5)], [], err=-5)
check("after a failure, with async devices", real, var, False, racy=True)
first, _ = check("after a failure, all synchronous", real, var, True, racy=False)
_, table = check("after a failure, with async devices (table)", real, var, False, racy=True)
if "timing:" not in table:
    failed += 1
    print("FAIL the race is not listed as timing:\n" + table)
check("after a failure, a device the race did not touch differs",
      transition([("b", -5), ("a", 0)], ["a", "c"], err=-5),
      transition([("b", -5)], [], err=-5), True, racy=True)
check("a callback's error differs", transition([("b", -5)], [], err=-5),
      transition([("b", -16)], [], err=-16), True, racy=True)
# A callback that waits with device_pm_wait_for_dev() returns the
# failure if it came first: a race; not for another device.
check("a waiting callback returns the failure on one side",
      transition([("b", -5), ("a", 0)], ["a"], err=-5),
      transition([("b", -5), ("a", -5)], [], err=-5), False, racy=True, waiters={"a"})
check("a callback that does not wait returns the failure on one side",
      transition([("b", -5), ("a", 0)], ["a"], err=-5),
      transition([("b", -5), ("a", -5)], [], err=-5), True, racy=True, waiters={"c"})

# A hotplug removal under way: how far it got by each phase is timing
# for its subtree, not for the other devices.
hot_real = transition([("a", 0), ("b", 0), ("p", 0)], ["p", "b"])
hot_var = transition([("b", 0), ("p", 0)], ["p", "b"])
check("a removal under way", hot_real, hot_var, False, hotplugs=[(1, "suspend", {"a"})])
check("a removal under way elsewhere", hot_real, hot_var, True, hotplugs=[(1, "suspend", {"c"})])
check("a removal under way, later", hot_real, hot_var, True, hotplugs=[(1, "resume", {"a"})])
check("a removal under way decides the verdict", hot_real, hot_var, "race",
      vv="REMOVED", hotplugs=[(1, "suspend", {"a"})])

# A wake-up abort is such a race too.
woken_real = transition([("a", 0)], ["a"], err=-16)
woken_real.insert(2, "wakeup-abort - suspend -16 0 0")
woken_var = transition([], [], err=-16)
woken_var.insert(2, "wakeup-abort - suspend -16 0 0")
check("after a wake-up, with async devices", woken_real, woken_var, False, racy=True)
check("after a wake-up, all synchronous", woken_real, woken_var, True, racy=False)

# Two async failures: which error the transition returns is the race's.
check("two failures, either error kept", transition([("a", -12), ("b", -16)], [], err=-16),
      transition([("a", -12), ("b", -16)], [], err=-12), False, racy=True)
check("an error no callback returned", transition([("a", -12), ("b", -16)], [], err=-5),
      transition([("a", -12), ("b", -16)], [], err=-12), True, racy=True)

# Links: as they stand before the first transition; a removal's link
# drop (the variant publishes it, the module's record has none) is no
# difference, a link ordered on one side only is.
links = ["link a - 0 0 1"]
dropped = list(same)
k = dropped.index("phase-end - resume 0 0 0")
dropped[k:k] = ["gone a resume 0 0 0", "link a - 0 0 0"]
kept = list(same)
kept[k:k] = ["gone a resume 0 0 0"]
check("a link dropped with its device's removal", links + kept, links + dropped, False)
check("a link ordered on one side only", links + same, same, True)

# A device removed in a phase: "taken in hand" is not compared there.
real = transition([("a", 0), ("p", 0)], ["p"]) + []
var_ev = transition([("a", 0), ("p", 0)], ["p"])
k = var_ev.index("phase-end - resume 0 0 0")
var_ev[k:k] = ["handled a resume 0 0 0", "gone a resume 0 0 0"]
real_ev = list(real)
k = real_ev.index("phase-end - resume 0 0 0")
real_ev[k:k] = ["gone a resume 0 0 0"]
check("a device removed while its step waited", real_ev, var_ev, False)
var_ev2 = list(var_ev)
var_ev2.remove("gone a resume 0 0 0")
check("a device taken in hand on one side, not removed", real_ev[:k] + real_ev[k + 1:], var_ev2, True)

check("verdicts differ", same, same, True, rv="RESUME-AFTER-PARENT")
# A verdict that only the race's outcome decided is a race, not a
# disagreement; with anything else different, a disagreement.
check("verdicts differ after a race", transition([("b", -5), ("a", 0)], ["a"], err=-5),
      transition([("b", -5)], [], err=-5), "race", racy=True, vv="RESUME-AFTER-PARENT")
check("verdicts differ after a race, and more", transition([("b", -5), ("a", 0)], ["a", "c"], err=-5),
      transition([("b", -5)], [], err=-5), True, racy=True, vv="RESUME-AFTER-PARENT")
check("verdicts differ, no race", transition([("b", -5), ("a", 0)], ["a"], err=-5),
      transition([("b", -5)], [], err=-5), True, racy=False, vv="RESUME-AFTER-PARENT")
# tools/vm/anchor.py: a timed action tied to what ran at its time.
from tools.vm.anchor import anchor, Unanchored  # noqa: E402

EV = """transition-begin - - 0 0 0 0
phase-begin - suspend 0 0 0 0
cb-start a suspend 0 1 0 0
cb-end a suspend 0 0 0 100000
cb-start b suspend 0 1 0 100000
cb-end b suspend 0 0 0 150000
phase-end - suspend 0 0 0 150000
transition-end - - 0 0 0 150000
transition-begin - - 0 1 0 150001
cb-start a suspend 0 1 0 150001
cb-end a suspend 0 0 0 250001
transition-end - - 0 0 0 250001
"""
for at, want in ((40000, ("cb", 1, ("a", "suspend"), 40000)), (120000, ("cb", 1, ("b", "suspend"), 20000)),
                 (200000, ("cb", 2, ("a", "suspend"), 49999)), (500000, ("end", 2, None, None)),
                 (100000, None), (150000, None), (150001, None), (0, None),
                 (99000, None)):     # 1 ms before the callback ends: too close
    try:
        got = anchor(EV, at)
    except Unanchored:
        got = None
    if got != want:
        failed += 1
        print(f"FAIL anchor at={at}: {got}, wanted {want}")
sys.exit(1 if failed else 0)
