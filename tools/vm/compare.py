# SPDX-License-Identifier: GPL-2.0-only
"""The comparison of a real kernel's run with the kernel variant's run
of the same scenario, from the events both wrote (dpmrepro --events;
docs/vm.md, "The comparison").

Per transition and per phase, in the order the phases ran (a rollback is
a phase sequence of its own), it compares sets, never times or the order
of devices no rule orders: which devices main.c took in hand, whose
callbacks ran and what they returned, which it skipped and why,
direct_complete, removals, the links it must order, and each
transition's error; then every ordering constraint the oracle knows
(parent before child, supplier before consumer): for each pair whose
callbacks both ran in a phase, whether the subordinate's callback ended
before the superior's began (suspend side) or began after it ended
(resume side), on each side.  Under TCG the real kernel's timing is not
the variant's virtual time: which of two unordered devices goes first
is not compared.

Two differences are timing, not disagreements, and are listed as such:
- After a suspend-side callback fails, or a wake-up event aborts, in a
  transition where devices suspend asynchronously (pm_async 1 and an async device), which of the
  devices not yet started still get their callbacks before main.c sees
  the error is a race on both kernels; from that phase on, a device
  treated differently there (ran, skipped, taken in hand, or for a
  device whose callback waits for another with device_pm_wait_for_dev(),
  which returns the failure if it came first: what it returned) is left
  out
  of the comparison of the transition's later phases too; and where
  several callbacks failed, which of their errors the transition
  returns is the race's as well.
- A concurrent removal (a hotplug action) waits for device locks and
  dpm_list_mtx that the walk takes and gives back: in which phase each
  device of its subtree goes, and what the walk did with it meanwhile,
  is timing; from the removal's phase on, those devices are left out of
  the transition's comparison.
- A step waiting for its superior when its device is removed leaves no
  trace in the module's record (the PM core calls nothing of it), so a
  device removed in a phase is not compared for "taken in hand" there.

The variant's run stops at its first violation, so phases are compared
up to the last phase both runs finished; the verdicts are compared
first."""

SKIPS = ["no callback", "runtime-suspended", "not suspended", "aborting",
         "syscore"]


class Phase:
    def __init__(self, name):
        self.name = name
        self.handled = set()
        self.ran = {}           # device -> error
        self.starts = {}        # device -> index of its cb-start
        self.ends = {}          # device -> index of its cb-end
        self.skipped = {}       # device -> reason
        self.dc = set()         # direct-complete / direct-resume
        self.gone = set()
        self.woken = False      # a wake-up aborted the transition here
        self.ended = False


class Run:
    def __init__(self):
        self.transitions = []   # [ {'phases': [Phase], 'err': int|None} ]
        self.links = set()      # (supplier, consumer) the PM core orders,
                                # as the links stand when the first
                                # transition begins
        self.parents = {}


def parse_events(text, parents):
    run = Run()
    run.parents = parents
    cur = None
    ph = None
    for i, line in enumerate(text.splitlines()):
        f = line.split()
        if len(f) < 6:
            continue
        kind, dev, phase, err, a, b = f[:6]
        err, a, b = int(err), int(a), int(b)
        if kind == "transition-begin":
            cur = {"phases": [], "err": None}
            run.transitions.append(cur)
            ph = None
        elif cur is None:
            if kind == "link":
                run.links.add((a, dev)) if b else run.links.discard((a, dev))
            continue
        elif kind == "transition-end":
            cur["err"] = err
            ph = None
        elif kind == "phase-begin":
            ph = Phase(phase)
            cur["phases"].append(ph)
        elif kind == "phase-end":
            if ph is not None:
                ph.ended = True
        elif ph is None:
            continue
        elif kind == "handled":
            ph.handled.add(dev)
        elif kind == "cb-start":
            ph.starts[dev] = i
        elif kind == "cb-end":
            ph.ran[dev] = err
            ph.ends[dev] = i
        elif kind == "skip":
            ph.skipped[dev] = SKIPS[a] if 0 <= a < len(SKIPS) else str(a)
        elif kind in ("direct-complete", "direct-resume"):
            ph.dc.add(dev)
        elif kind == "gone":
            ph.gone.add(dev)
        elif kind == "wakeup-abort":
            ph.woken = True
        # A link dropped later goes with its device's removal, which
        # the module does not record: 'gone' compares removals.
    return run


def link_names(run, names):
    """The links as names (events name the supplier by index)."""
    out = set()
    for a, con in run.links:
        sup = names[a] if 0 <= a < len(names) else str(a)
        out.add((sup, con))
    return out


def constraints(ph, pairs, suspend_side):
    """(kept, broken) lists of 'sup > sub' for the pairs whose callbacks
    both ran in the phase."""
    kept, broken = [], []
    for sup, sub in sorted(pairs):
        if sup not in ph.starts or sub not in ph.starts:
            continue
        if suspend_side:
            ok = ph.ends.get(sub, 1 << 60) < ph.starts[sup]
        else:
            ok = ph.ends.get(sup, 1 << 60) < ph.starts[sub]
        (kept if ok else broken).append(f"{sup}>{sub}")
    return kept, broken


def _without(ph, devs):
    """ph with the devices devs left out."""
    out = Phase(ph.name)
    out.handled = ph.handled - devs
    out.ran = {d: e for d, e in ph.ran.items() if d not in devs}
    out.starts, out.ends = ph.starts, ph.ends
    out.skipped = {d: r for d, r in ph.skipped.items() if d not in devs}
    out.dc = ph.dc - devs
    out.gone = ph.gone - devs
    out.ended = ph.ended
    return out


def _fmt_set(s):
    return ",".join(sorted(s)) or "-"


def compare(real_text, var_text, names, parents, real_verdict, var_verdict,
            var_name, racy=False, waiters=(), hotplugs=()):
    """(first difference or None, the comparison table as text, race or
    None); racy: devices suspend asynchronously (the timing rule above);
    waiters: the devices whose callbacks return what
    device_pm_wait_for_dev() says (pm-wait=): the failure so far;
    hotplugs: (transition, phase, devices) of each concurrent removal:
    from that phase on, how far it got is timing for those devices.
    race: the verdicts differ, and nothing else does but what a race
    after a failure decided (which side of it each run took)."""
    real = parse_events(real_text, parents)
    var = parse_events(var_text, parents)
    rows = []
    first = None
    races = []

    def differ(what):
        nonlocal first
        if first is None:
            first = what
        rows.append("  DIFFERENT: " + what)

    rl, vl = link_names(real, names), link_names(var, names)
    if rl != vl:
        differ("ordered links: real " + _fmt_set(f"{s}>{c}" for s, c in rl) +
               f", {var_name} " + _fmt_set(f"{s}>{c}" for s, c in vl))
    pairs = {(p, c) for c, p in parents.items() if p is not None} | rl
    nt = min(len(real.transitions), len(var.transitions))
    if len(real.transitions) != len(var.transitions) and var_verdict == "clean":
        differ(f"transitions: real {len(real.transitions)}, {var_name} {len(var.transitions)}")
    for t in range(nt):
        rt, vt = real.transitions[t], var.transitions[t]
        raced = None    # devices a race after an abort treated differently
        hot = set()     # devices a removal under way may have taken
        err = lambda e: "-" if e is None else e  # noqa: E731 (no end: a verdict came first)
        rows.append(f"transition {t + 1}: error real {err(rt['err'])}, {var_name} {err(vt['err'])}")
        rp, vp = rt["phases"], vt["phases"]
        seq_r = [p.name for p in rp]
        seq_v = [p.name for p in vp]
        last_var_complete = var_verdict == "clean"
        n = min(len(rp), len(vp))
        if last_var_complete and seq_r != seq_v:
            differ(f"transition {t + 1}: phases real {' '.join(seq_r)}, {var_name} {' '.join(seq_v)}")
        for k in range(n):
            a, b = rp[k], vp[k]
            if a.name != b.name:
                differ(f"transition {t + 1}: phase {k + 1} is {a.name} on the real kernel, {b.name} on {var_name}")
                break
            for hk, hph, hdevs in hotplugs:
                if hk == t + 1 and hph == a.name and not set(hdevs) <= hot:
                    hot |= set(hdevs)
                    races.append(f"transition {t + 1} {a.name} (a hotplug removal of {_fmt_set(hdevs)})")
                    rows.append(f"  timing: transition {t + 1} {a.name}: a hotplug removal under way: "
                                f"{_fmt_set(hot)} left out from here on")
            # A phase the variant did not finish (its violation) is
            # compared only as far as its verdict.
            if not b.ended:
                rows.append(f"  {a.name}: the variant stopped here (its verdict)")
                break
            sus = a.name.startswith("suspend")
            kr, br = constraints(a, pairs, sus)
            kv, bv = constraints(b, pairs, sus)
            rows.append(f"  {a.name}: callbacks real {_fmt_set(f'{d}={e}' for d, e in a.ran.items())}"
                        f" | {var_name} {_fmt_set(f'{d}={e}' for d, e in b.ran.items())};"
                        f" skipped real {_fmt_set(f'{d}({r})' for d, r in a.skipped.items())}"
                        f" | {var_name} {_fmt_set(f'{d}({r})' for d, r in b.skipped.items())};"
                        f" constraints kept {len(kr)}/{len(kr) + len(br)} | {len(kv)}/{len(kv) + len(bv)}")
            where = f"transition {t + 1} {a.name}"
            failed = sus and (any(a.ran.values()) or any(b.ran.values()) or a.woken or b.woken)
            if raced is None and racy and failed:
                raced = set()
                # Whether a callback ran is the race's; what it returned
                # is not.
                raced |= set(a.ran) ^ set(b.ran)
                # ... but for a callback that returns what its
                # device_pm_wait_for_dev() said: the failure, if it
                # came before.
                raced |= {d for d in set(a.ran) & set(b.ran) & set(waiters)
                          if a.ran[d] != b.ran[d]}
                raced |= {d for d in set(a.skipped) | set(b.skipped)
                          if a.skipped.get(d) != b.skipped.get(d)}
                raced |= a.handled ^ b.handled
                if raced:
                    races.append(f"{where} ({_fmt_set(raced)})")
                    rows.append(f"  timing: {where}: after the failure, a race: "
                                f"{_fmt_set(raced)} treated differently, left out from here on")
            if raced or hot:
                a, b = _without(a, (raced or set()) | hot), _without(b, (raced or set()) | hot)
            gone = a.gone | b.gone
            if gone and a.handled - gone == b.handled - gone:
                a.handled, b.handled = a.handled - gone, b.handled - gone
            if a.ran != b.ran:
                only_r = sorted(set(a.ran) - set(b.ran))
                only_v = sorted(set(b.ran) - set(a.ran))
                errs = sorted(d for d in set(a.ran) & set(b.ran) if a.ran[d] != b.ran[d])
                if only_r:
                    differ(f"{where}: callbacks of {','.join(only_r)} ran on the real kernel only")
                elif only_v:
                    differ(f"{where}: callbacks of {','.join(only_v)} ran on {var_name} only")
                else:
                    differ(f"{where}: {errs[0]} returned {a.ran[errs[0]]} on the real kernel, {b.ran[errs[0]]} on {var_name}")
            if a.skipped != b.skipped:
                d = sorted(set(a.skipped.items()) ^ set(b.skipped.items()))[0][0]
                differ(f"{where}: {d} skipped real ({a.skipped.get(d, 'not skipped')}), "
                       f"{var_name} ({b.skipped.get(d, 'not skipped')})")
            if a.dc != b.dc:
                differ(f"{where}: direct_complete real {_fmt_set(a.dc)}, {var_name} {_fmt_set(b.dc)}")
            if a.handled != b.handled:
                differ(f"{where}: taken in hand real {_fmt_set(a.handled)}, {var_name} {_fmt_set(b.handled)}")
            if a.gone != b.gone:
                differ(f"{where}: removed real {_fmt_set(a.gone)}, {var_name} {_fmt_set(b.gone)}")
            # Pairs with a device left out above are not compared either.
            out = (raced or set()) | hot
            br = [x for x in br if not set(x.split(">")) & out]
            bv = [x for x in bv if not set(x.split(">")) & out]
            if set(br) != set(bv):
                differ(f"{where}: order broken real {_fmt_set(br)}, {var_name} {_fmt_set(bv)}")
        # Several async callbacks failed: which error main.c keeps is the
        # race's too (either side's is one that a callback returned).
        failures = {e for ph in rp + vp for e in ph.ran.values() if e}
        if (last_var_complete and rt["err"] != vt["err"] and raced is not None
                and {rt["err"], vt["err"]} <= failures):
            rows.append(f"  timing: transition {t + 1}: the suspend returned {rt['err']} on the real kernel, "
                        f"{vt['err']} on {var_name}: both callbacks failed, which error is kept is a race")
        elif last_var_complete and rt["err"] != vt["err"]:
            differ(f"transition {t + 1}: the suspend returned {rt['err']} on the real kernel, {vt['err']} on {var_name}")
    race = None
    if real_verdict != var_verdict:
        if first is None and races:
            race = f"the verdicts differ after a race in {races[0]}"
            rows.insert(0, f"  timing: {race}")
        else:
            first = f"verdict: real {real_verdict}, {var_name} {var_verdict}"
            rows.insert(0, "  DIFFERENT: " + first)
    table = [f"verdict: real {real_verdict}, {var_name} {var_verdict}"] + rows
    return first, "\n".join(table) + "\n", race
