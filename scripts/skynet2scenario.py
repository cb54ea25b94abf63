#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn a pm-graph/analyze_suspend dmesg capture into a dpmfuzz scenario.

usage: skynet2scenario.py INPUT_DMESG [-o OUTPUT]      (stdout by default)

Input: a dmesg taken with initcall_debug (e.g. the 2014 "skynet" captures
in pm-graph's devtest/).  Lines used:
  calling  DEV+ @ PID, parent: PARENT
  call DEV+ returned ERR after N usecs
  PM: [late |noirq |early ]VERB of devices complete after X msecs
N is really nanoseconds >> 10 on kernels before 5.14 (so ~2.3% short of
true microseconds); it is used as microseconds anyway.

Phases.  The kernel finishes every phase (async callbacks included)
before printing its "complete" line, so each callback belongs to the
phase whose "complete" line comes NEXT after its "calling" line:
  suspend/freeze/poweroff/quiesce -> suspend, late ... -> suspend_late,
  noirq ... -> suspend_noirq;  noirq resume/thaw/restore -> resume_noirq,
  early ... -> resume_early, resume/thaw/restore -> resume.
Callbacks after the last "complete" line go to the phase that follows it
(after "resume": complete; with no phase lines at all: suspend).
Kernels of this age do not log prepare/complete callbacks, so those
phases normally stay empty.  A "returned" line is paired with the oldest
unanswered "calling" line of the same name.

Devices.  A device is (name, parent) as logged: the captures hold pairs
like an ACPI "PNP0C0C:00" under LNXSYBUS:00 and a platform "PNP0C0C:00"
under "platform", which are two devices.  A "parent: P" reference means
the first device named P in the order below; a P that never has its own
"calling" line is declared as a root device with no durations.  Parents
"", "none" and "(null)" mean no parent.

Order.  dpm_list order: first the resume-side "calling" order (resume,
resume_early, resume_noirq, complete; resume walks dpm_list forward and
waits for the parent first), then devices seen only on the suspend side
in reverse suspend order (suspend walks the list backwards).  Then a
stable topological pass pulls every parent in just before its first
child.

async.  The PM thread is the PID with the most "calling" lines (ties:
the one seen first); it runs every synchronous callback.  A device is
async if any of its callbacks, in any phase, ran on another PID (3.15
runs async devices async in the noirq/late/early phases too).

Names: bytes outside 0x21..0x7e and '=', '"', '#' become '_'; names are
cut to 39 characters; a name already used gets ~2, ~3, ... appended.
PHASE=Nus is the sum of that device's callbacks in the phase (omitted
when 0, capped at 100 s); err=PHASE:-N keeps the first non-zero return
of the phase (|N| up to 4095).  dpmfuzz only logs resume-side errors.
"""
import argparse
import collections
import os
import re
import sys

PHASES = ("prepare", "suspend", "suspend_late", "suspend_noirq",
          "resume_noirq", "resume_early", "resume", "complete")
SUSPEND_VERBS = ("suspend", "freeze", "poweroff", "quiesce")
NAME_MAX, DUR_MAX, ERR_MAX = 39, 100000000, 4095
NO_PARENT = ("", "none", "(null)")

CALLING = re.compile(r"calling  (.+?)\+? @ (\d+), parent: (.*?)(?:, cb: .*)?\s*$")
RETURNED = re.compile(r"call (.+?)\+? returned (-?\d+) after (\d+) usecs")
COMPLETE = re.compile(r"PM: (?:(late|noirq|early) )?(\w+) of devices "
                      r"complete after ([\d.]+) msecs")


def marker_phase(prefix, verb):
    if verb in SUSPEND_VERBS:
        return {"late": "suspend_late", "noirq": "suspend_noirq"}.get(prefix, "suspend")
    return {"noirq": "resume_noirq", "early": "resume_early"}.get(prefix, "resume")


def parse(lines):
    """Return (calls, totals): calls are dicts in log order, each with
    key=(name, parent), pid, phase, dur, err; totals are the log's
    (phase, msecs) "complete" lines."""
    calls, totals, unassigned = [], [], []
    pending = collections.defaultdict(collections.deque)
    for line in lines:
        m = CALLING.search(line)
        if m:
            c = {"key": (m.group(1), m.group(3).strip()), "pid": int(m.group(2)),
                 "phase": None, "dur": 0, "err": 0}
            calls.append(c)
            unassigned.append(c)
            pending[m.group(1)].append(c)
            continue
        m = RETURNED.search(line)
        if m:
            if pending[m.group(1)]:
                c = pending[m.group(1)].popleft()
                c["err"], c["dur"] = int(m.group(2)), int(m.group(3))
            continue
        m = COMPLETE.search(line)
        if m:
            ph = marker_phase(m.group(1), m.group(2))
            totals.append((ph, m.group(3)))
            for c in unassigned:
                c["phase"] = ph
            unassigned = []
    last = PHASES.index(totals[-1][0]) + 1 if totals else 1
    for c in unassigned:
        c["phase"] = PHASES[min(last, len(PHASES) - 1)]
    return calls, totals


def pm_thread(calls):
    count = collections.Counter(c["pid"] for c in calls)
    first = {}
    for i, c in enumerate(calls):
        first.setdefault(c["pid"], i)
    return min(count, key=lambda p: (-count[p], first[p]))


def device_order(calls):
    """Keys in dpm_list order (before the parent fix-up)."""
    by_phase = collections.defaultdict(list)
    for c in calls:
        by_phase[c["phase"]].append(c["key"])
    seq = []
    for ph in ("resume", "resume_early", "resume_noirq", "complete"):
        seq += by_phase[ph]
    for ph in ("suspend", "suspend_late", "suspend_noirq", "prepare"):
        seq += reversed(by_phase[ph])
    return list(dict.fromkeys(seq))


def build(calls):
    """Return the devices, parents first: dicts with name, parent (a
    device or None), async, dur{phase}, err{phase}."""
    pm = pm_thread(calls)
    order = device_order(calls)
    devs = {k: {"key": k, "parent": None, "async": False, "dur": {}, "err": {}}
            for k in order}
    first_named = {}
    for k in order:
        first_named.setdefault(k[0], devs[k])
    for c in calls:
        d = devs[c["key"]]
        d["async"] |= c["pid"] != pm
        d["dur"][c["phase"]] = d["dur"].get(c["phase"], 0) + c["dur"]
        if c["err"] and c["phase"] not in d["err"]:
            d["err"][c["phase"]] = -abs(c["err"])
    for k in order:
        pname = k[1]
        if pname in NO_PARENT:
            continue
        if pname not in first_named:     # parent without callbacks: a root
            first_named[pname] = {"key": (pname, ""), "parent": None,
                                  "async": False, "dur": {}, "err": {}}
        p = first_named[pname]
        devs[k]["parent"] = p if p is not devs[k] else None
    out, state = [], {}

    def visit(d):            # stable topological pass: parents first
        if state.get(id(d)):
            return
        state[id(d)] = 1     # a cycle (impossible in a sane log) is cut
        if d["parent"] is not None and state.get(id(d["parent"])) == 1:
            d["parent"] = None
        if d["parent"] is not None:
            visit(d["parent"])
        state[id(d)] = 2
        out.append(d)
    for k in order:
        visit(devs[k])
    used = set()
    for d in out:
        base = re.sub(r'[^\x21-\x7e]|[="#]', "_", d["key"][0])[:NAME_MAX] or "_"
        name, n = base, 1
        while name in used:
            n += 1
            name = base[:NAME_MAX - len("~%d" % n)] + "~%d" % n
        used.add(name)
        d["name"] = name
    return out, pm


def render(src, devs, pm, calls, totals):
    L = ["# generated by scripts/skynet2scenario.py from %s" % src]
    L.append("# PM thread pid %d; %d callbacks; 'usecs' are ns>>10 on old "
             "kernels, used as us" % (pm, len(calls)))
    if totals:
        L.append("# log totals (ms): " +
                 ", ".join("%s %s" % t for t in totals))
    sums = collections.Counter()
    for c in calls:
        sums[c["phase"]] += c["dur"]
    L.append("# callback sums (us): " + ", ".join(
        "%s %d" % (ph, sums[ph]) for ph in PHASES if ph in sums))
    L += ["dpmfuzz-scenario 1", "pm_async 1", "pm_trace 0", "cycles 1",
          "inline_every 0", "worker_limit 0"]
    for d in devs:
        w = ["device", d["name"]]
        if d["parent"] is not None:
            w.append("parent=" + d["parent"]["name"])
        if d["async"]:
            w.append("async")
        w += ["%s=%dus" % (ph, min(d["dur"][ph], DUR_MAX))
              for ph in PHASES if d["dur"].get(ph)]
        w += ["err=%s:%d" % (ph, d["err"][ph])
              for ph in PHASES if 0 < -d["err"].get(ph, 0) <= ERR_MAX]
        L.append(" ".join(w))
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(
        description="Turn a pm-graph dmesg capture into a dpmfuzz scenario.")
    ap.add_argument("input", metavar="INPUT_DMESG")
    ap.add_argument("-o", "--output", help="output file (default: stdout)")
    a = ap.parse_args()
    me = os.path.basename(sys.argv[0])
    try:
        with open(a.input, encoding="utf-8", errors="replace") as f:
            calls, totals = parse(f)
    except (OSError, UnicodeError) as e:
        print("%s: cannot read %s: %s" % (me, a.input, e), file=sys.stderr)
        return 2
    if not calls:
        print("%s: %s: no 'calling' lines (was initcall_debug on?)"
              % (me, a.input), file=sys.stderr)
        return 2
    devs, pm = build(calls)
    text = render(os.path.basename(a.input), devs, pm, calls, totals)
    if not a.output:
        sys.stdout.write(text)
        return 0
    try:
        with open(a.output, "w", encoding="ascii") as f:
            f.write(text)
    except OSError as e:
        print("%s: cannot write %s: %s" % (me, a.output, e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
