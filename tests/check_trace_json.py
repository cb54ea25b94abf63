#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Schema check of a dpmrepro --trace-json file (Chrome trace-event format).

usage: check_trace_json.py FILE [--violation ID] [--min-slices N]
                            [--removed DEV]... [--min-waits N]
Checks: an object with a traceEvents list; every event has a known ph,
integer pid and tid, a non-negative ts (but metadata); X events have a
name and dur >= 0; every flow start has its finish with the same id;
every tid used has a thread_name; at least N complete slices; with
--violation, an instant event naming it; with --removed, an instant
event (cat removal) for DEV's removal on a named task; blocked waits
(cat blocked) say what they wait for, at least N of them.  Exit 0 or 1
with the reason.
"""
import json
import sys


def fail(msg):
    print("check_trace_json: " + msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: check_trace_json.py FILE [--violation ID] [--min-slices N]")
    path, want_v, min_slices, want_removed, min_waits = args[0], None, 1, [], 0
    i = 1
    while i < len(args):
        if args[i] == "--violation":
            want_v = args[i + 1]
        elif args[i] == "--min-slices":
            min_slices = int(args[i + 1])
        elif args[i] == "--removed":
            want_removed.append(args[i + 1])
        elif args[i] == "--min-waits":
            min_waits = int(args[i + 1])
        i += 2
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents list")
    named, used, flows_s, flows_f, slices, violations = set(), set(), set(), set(), 0, []
    removed, waits = [], 0
    for e in doc["traceEvents"]:
        ph = e.get("ph")
        if ph not in ("M", "X", "B", "i", "s", "f"):
            fail("unknown ph %r" % ph)
        if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
            fail("pid/tid not integers in %r" % e)
        if ph == "M":
            if e.get("name") != "thread_name" or not e.get("args", {}).get("name"):
                fail("bad metadata %r" % e)
            named.add(e["tid"])
            continue
        if not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
            fail("bad ts in %r" % e)
        used.add(e["tid"])
        if ph == "X":
            if not e.get("name") or not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                fail("bad slice %r" % e)
            slices += 1
        if ph in ("X", "B") and e.get("cat") == "blocked":
            if not e.get("args", {}).get("waits_for"):
                fail("a blocked wait that does not say what it waits for: %r" % e)
            waits += 1
        elif ph == "s":
            flows_s.add(e["id"])
        elif ph == "f":
            flows_f.add(e["id"])
        elif ph == "i" and e.get("cat") == "violation":
            violations.append(e["name"])
        elif ph == "i" and e.get("cat") == "removal":
            removed.append(e.get("args", {}).get("device"))
    if flows_s != flows_f:
        fail("unpaired flow ids %r" % (flows_s ^ flows_f))
    if used - named:
        fail("tids without a thread_name: %r" % sorted(used - named))
    if slices < min_slices:
        fail("%d slices, expected at least %d" % (slices, min_slices))
    if want_v and not any(want_v in v for v in violations):
        fail("no violation event naming %s" % want_v)
    if waits < min_waits:
        fail("%d blocked waits, expected at least %d" % (waits, min_waits))
    for dev in want_removed:
        if dev not in removed:
            fail("no removal event for %s (removals: %r)" % (dev, removed))
    print("check_trace_json: ok, %d slices (%d of them waits), %d flows, %d tasks, %d removals"
          % (slices, waits, len(flows_s), len(named), len(removed)))


main()
