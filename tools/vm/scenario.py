# SPDX-License-Identifier: GPL-2.0-only
"""A scenario text (docs/scenario.md) as the test module's parameters
(vm/module/dpmvm.c) and the guest's settings for one run on a real
kernel; what the module cannot express is refused by name (or, asked,
dropped and said).  The scenario the variant is compared on is the one
the real kernel ran: what was dropped is dropped there too."""
import re

PHASES = ["prepare", "suspend", "suspend_late", "suspend_noirq",
          "resume_noirq", "resume_early", "resume", "complete"]
DPM_FLAGS = {"may-skip-resume": "msr", "smart-suspend": "ssusp",
             "smart-prepare": "sprep", "no-direct-complete": "ndc"}
LINK_FLAGS = {"stateless": "stateless", "sync-state-only": "sso",
              "pm-runtime": "pmrt", "rpm-active": "rpma"}
# The middle layers the module gives a device (each as a PM domain of its
# own: the PM core looks them up in the same way, one per device).
LEVELS = ("domain", "type", "class", "bus")
# The module's limits (MAXDEV devices, MAXDEV * 4 links, 40-byte names).
MAX_DEVICES = 64
NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]{1,39}$")


class Unsupported(Exception):
    """A feature the module cannot express: its name and the line."""


class BadScenario(Exception):
    """The text is not a scenario dpmvm can read."""


class Converted:
    def __init__(self):
        self.mode = "mem"       # what is written to /sys/power/state
        self.pm_test = "platform"
        self.pm_async = 1
        self.cycles = 1
        self.args = ""
        self.dropped = []       # what --drop-unsupported dropped, in words
        self.text = ""          # the scenario as the real kernel runs it
        self.variant = None     # the header's variant line, or None
        self.fixes = ""         # the header's knobs
        self.names = []
        self.parents = {}       # name -> its parent's name, or None
        # Timed actions, anchored later (tools/vm/anchor.py): (kind
        # 'unreg' or 'wake', victim or None, at us, the line as written)
        self.actions = []
        # The lines of the removals by a task the freezer leaves running
        # (`unfrozen`): the module's worker is such a task.
        self.unfrozen = set()
        self.waiters = set()    # devices with pm-wait=
        self.links = []         # (supplier, consumer) of each link
        self.racy = False       # pm_async 1 and a device that suspends async
        # (transition, phase, devices) of each removal anchored in a
        # callback (tools/dpmvm), for the comparison's timing rule
        self.hotplugs = []


def _words(line):
    return line.split("#", 1)[0].split()


def _phase_mask(spec, no, what):
    """A PHASES list (or none) as the module's hex mask."""
    if spec == "none":
        return "0"
    m = 0
    for ph in spec.split(","):
        if ph not in PHASES:
            raise BadScenario(f"line {no}: {what}: no phase '{ph}'")
        m |= 1 << PHASES.index(ph)
    return f"{m:x}"


def convert(text, drop_unsupported=False):
    """Converted, or raise Unsupported / BadScenario."""
    c = Converted()
    devs, cbs, errs, links, waits, removes = [], [], [], [], [], []
    kept = []
    pending_waits = []
    pool = []       # inline_every, worker_limit: (line, what, where kept)
    seen_header = False

    def refuse(no, what):
        msg = f"line {no}: {what}"
        if not drop_unsupported:
            raise Unsupported(msg)
        c.dropped.append(msg)

    for no, raw in enumerate(text.splitlines(), 1):
        w = _words(raw)
        if not w:
            kept.append(raw)
            continue
        key = w[0]
        if key == "dpmfuzz-scenario":
            seen_header = True
            kept.append(raw)
            continue
        if not seen_header:
            raise BadScenario(f"line {no}: a scenario starts with 'dpmfuzz-scenario 1'")
        if key == "variant" and len(w) == 2:
            c.variant = w[1]
        elif key == "fix" and len(w) == 2:
            c.fixes = w[1]
        elif key == "expect":
            pass
        elif key == "pm_async" and len(w) == 2 and w[1] in ("0", "1"):
            c.pm_async = int(w[1])
        elif key == "pm_trace" and len(w) == 2:
            if w[1] != "0":
                refuse(no, "pm_trace 1 (CONFIG_PM_TRACE would write the guest's RTC)")
                continue
        elif key == "cycles" and len(w) == 2 and w[1].isdigit():
            c.cycles = int(w[1])
            if not 1 <= c.cycles <= 20:
                refuse(no, f"cycles {c.cycles} (1 to 20 on a real kernel)")
                c.cycles = 1
                continue
        elif key in ("inline_every", "worker_limit") and len(w) == 2:
            # They matter only where a device can suspend async (below).
            if w[1] != "0":
                pool.append((no, f"{key} {w[1]}", len(kept)))
        elif key == "suspend_again" and len(w) == 2 and w[1].isdigit():
            if w[1] != "0":
                refuse(no, f"suspend_again {w[1]} (the guest's platform has no suspend_again())")
                continue
        elif key == "transition" and len(w) == 2:
            if w[1] in ("mem", "s2idle"):
                c.mode = "mem" if w[1] == "mem" else "freeze"
            elif w[1] == "freeze":
                # A real hibernation image, then thaw; writing it fails
                # (the guest has no swap), after the devices thawed.
                c.mode, c.pm_test = "disk", "none"
            else:
                refuse(no, f"transition {w[1]} (the guest cannot power off or restore an image)")
                continue
        elif key == "device" and len(w) >= 2:
            name = w[1]
            if not NAME_RE.match(name):
                raise Unsupported(f"line {no}: device name '{name}' cannot be a module parameter (letters, digits, _ . + - only)")
            spec = [name]
            keep = ["device", name]
            for word in w[2:]:
                k, eq, v = word.partition("=")
                if k == "parent" and eq:
                    spec.append("parent=" + v)
                elif word in ("async", "pci"):
                    if "async" not in spec:
                        spec.append("async")
                elif k in PHASES and v.endswith("us") and v[:-2].isdigit():
                    if int(v[:-2]):
                        cbs.append(f"{name}:{k}:{v[:-2]}")
                elif k == "err" and eq:
                    ph, _, e = v.partition(":")
                    if ph not in PHASES or ph == "complete":
                        raise BadScenario(f"line {no}: err={v}")
                    errs.append(f"{name}:{ph}:{e}")
                elif k == "supplier" and eq:
                    sup, _, fl = v.partition(":")
                    fl = fl or "pm-runtime"
                    kinds = [LINK_FLAGS.get(f) for f in fl.split(",")]
                    if None in kinds:
                        raise BadScenario(f"line {no}: supplier={v}: link flags are {', '.join(LINK_FLAGS)}")
                    links.append(f"{sup}:{name}:{'+'.join(kinds)}")
                    c.links.append((sup, name))
                elif k == "remove" and eq:
                    ph, _, victim = v.partition(":")
                    removes.append(f"{name}:{ph}:{victim}")
                elif k == "pm-wait" and eq:
                    pending_waits.append((name, v))
                elif word == "no-driver":
                    spec.append("nodrv")
                elif word == "no-pm":
                    spec.append("nopm")
                elif word == "syscore":
                    spec.append("syscore")
                elif k == "dpm-flags" and eq:
                    for f in v.split(","):
                        if f not in DPM_FLAGS:
                            raise BadScenario(f"line {no}: dpm-flags {f}")
                        spec.append(DPM_FLAGS[f])
                elif word == "rpm-suspended":
                    spec.append("rpms")
                elif word == "wakeup":
                    spec.append("wakeup")
                elif k == "level" and eq and v.split(":")[0] in LEVELS:
                    lv, _, phs = v.partition(":")
                    m = _phase_mask(phs or ",".join(PHASES), no, word)
                    if m != "0":
                        spec.append("lvl=" + m)
                elif k == "level" and eq and v.split(":")[0] == "legacy-bus":
                    # The old bus methods: suspend and resume only.
                    _, _, phs = v.partition(":")
                    m = int(_phase_mask(phs or ",".join(PHASES), no, word), 16)
                    m &= 1 << PHASES.index("suspend") | 1 << PHASES.index("resume")
                    if m:
                        spec.append(f"leg={m:x}")
                elif k == "late" and eq and v in PHASES:
                    spec.append("late=" + v)
                elif k == "driver-cbs" and eq:
                    spec.append("drv=" + _phase_mask(v, no, word))
                else:
                    what = {"release-unregisters": "release-unregisters="}.get(k, word)
                    refuse(no, f"{name} {what}")
                    continue
                keep.append(word)
            c.names.append(name)
            c.parents[name] = next((x[7:] for x in w[2:] if x.startswith("parent=")), None)
            devs.append(":".join(spec))
            kept.append(" ".join(keep))
            continue
        elif key == "wakeup" and len(w) == 2 and re.fullmatch(r"at=\d+us", w[1]):
            c.actions.append(("wake", None, int(w[1][3:-2]), raw.strip()))
        elif (key == "action" and len(w) in (4, 5) and w[1] == "unregister"
              and re.fullmatch(r"at=\d+us", w[3]) and w[4:] in ([], ["unfrozen"])):
            c.actions.append(("unreg", w[2], int(w[3][3:-2]), raw.strip()))
            if w[4:]:
                c.unfrozen.add(raw.strip())
        elif key == "action":
            refuse(no, f"action {w[1] if len(w) > 1 else ''} (power/async writes between cycles)")
            continue
        elif key in ("schedule", "schedule-by"):
            pass    # the real scheduler decides; the variant keeps them
        else:
            raise BadScenario(f"line {no}: '{raw.strip()}' is not a scenario statement")
        kept.append(raw)
    if not seen_header:
        raise BadScenario("not a scenario: no 'dpmfuzz-scenario 1' line")
    if not devs:
        raise BadScenario("the scenario has no device")
    if len(devs) > MAX_DEVICES:
        raise Unsupported(f"{len(devs)} devices (the module takes {MAX_DEVICES})")
    if pool and c.pm_async and any(":async" in d for d in devs):
        for no, what, at in reversed(pool):
            refuse(no, f"{what} (the kernel's async pool is what it is)")
            kept[at] = "# dropped: " + kept[at]
    for kind, victim, _, line in c.actions:
        if victim is not None and victim not in c.names:
            raise BadScenario(f"'{line}': no such device")
    for name, other in pending_waits:
        if other not in c.names:
            raise BadScenario(f"pm-wait={other}: no such device")
        waits.append(f"{name}:{other}")
        c.waiters.add(name)
    args = []
    for k, vals in (("dev", devs), ("cb", cbs), ("err", errs),
                    ("link", links), ("wait", waits), ("remove", removes)):
        if vals:
            args.append(f"{k}={','.join(vals)}")
    c.args = " ".join(args)
    c.racy = bool(c.pm_async) and any(":async" in d for d in devs)
    c.text = "\n".join(kept) + "\n"
    return c


def kernel_of(variant):
    """The guest kernel's major.minor a scenario's variant line asks for."""
    return "6.1" if variant and variant.startswith("kernel-6.1.") else "6.12"
