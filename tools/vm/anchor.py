# SPDX-License-Identifier: GPL-2.0-only
"""A scenario's timed actions (`action unregister NAME at=Nus`, `wakeup
at=Nus`) on a real kernel.  Their time is the variant's virtual time,
which the real kernel under TCG does not keep, so each is tied to what
was under way in the variant's run at that time (its events, written by
dpmrepro --events with the clock in the last field):

  - inside a callback (the one begun last, if several run), at least
    MARGIN_US before it ends: the same callback on the real kernel, the
    same microseconds after it starts; the real callback lasts at least
    as long, and the margin covers the worker's wake-up under TCG, so the
    action lands in it again;
  - after a transition ended (and before the next began): right after
    the real transition K ends;
  - anywhere else (between two callbacks, or as a transition starts):
    nothing both runs share to tie it to, so it is refused by name.

docs/vm.md, "Timed actions"."""


# Time left in the anchor callback after the action: the real worker's
# timer and wake-up take up to a few milliseconds more than asked under
# TCG (an action 1 us before the end of a 10 us callback was seen to land
# a step later).
MARGIN_US = 5000

# The phases from the late suspend to the early resume: a hotplug task
# the freezer stops waits them out in the variant (docs/kernel.md, "The
# late/noirq window"); the module's worker, on the unbound pool, is not
# frozen, so only an `unfrozen` removal is tied to their callbacks.
WINDOW_PHASES = ("suspend_late", "suspend_noirq", "resume_noirq", "resume_early")


class Unanchored(Exception):
    """The action falls where nothing in the variant's run anchors it."""


def _events(text):
    """[(kind, dev, phase, us)] of an events file."""
    out = []
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 7:
            out.append((f[0], f[1], f[2], int(f[6])))
    return out


def anchor(events_text, at_us):
    """('end', K, None, None) or ('cb', K, (DEV, PHASE), offset_us) for an
    action at at_us of the variant's run; raise Unanchored."""
    k, last = 0, 0
    spans = []          # (K, begin us, end us or None)
    open_cbs = {}       # (dev, phase) -> (K, start us)
    cbs = []            # (K, dev, phase, start, end)
    for kind, dev, phase, us in _events(events_text):
        last = max(last, us)
        if kind == "transition-begin":
            k += 1
            spans.append([k, us, None])
        elif kind == "transition-end" and spans:
            spans[-1][2] = us
        elif kind == "cb-start":
            open_cbs[(dev, phase)] = (k, us)
        elif kind == "cb-end" and (dev, phase) in open_cbs:
            kk, t0 = open_cbs.pop((dev, phase))
            cbs.append((kk, dev, phase, t0, us))
    if not spans:
        raise Unanchored("the variant's run has no transition")
    for kk, b, e in spans:
        if at_us <= b:
            if kk == 1 or at_us == b:
                raise Unanchored(f"at={at_us}us is the instant transition {kk} begins"
                                 if at_us == b else
                                 f"at={at_us}us comes before the first transition")
            return ("end", kk - 1, None, None)
        if e is None and at_us > last:
            return ("end", kk, None, None)     # the variant stopped before it
        if e is None or at_us <= e:
            # Strictly inside: at a callback's first or last instant, or
            # at the transition's end, other steps happen at the same
            # virtual time, and which came first only the variant's
            # schedule knows.
            inside = [c for c in cbs if c[0] == kk and c[3] < at_us < c[4]]
            if not inside:
                raise Unanchored(f"at={at_us}us falls between callbacks of transition {kk} in the "
                                 f"variant's run: nothing both runs share to tie it to")
            inside = [c for c in inside if c[4] - at_us >= MARGIN_US]
            if not inside:
                raise Unanchored(f"at={at_us}us falls less than {MARGIN_US} us before the end of the "
                                 f"callbacks under way in transition {kk}: too close for the real "
                                 f"kernel's timing")
            c = max(inside, key=lambda c: c[3])
            return ("cb", kk, (c[1], c[2]), at_us - c[3])
    return ("end", spans[-1][0], None, None)
