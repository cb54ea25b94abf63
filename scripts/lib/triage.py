# SPDX-License-Identifier: GPL-2.0-only
"""Findings by root cause: known (the knob that silences it) or new.

A finding is a scenario on which a variant, with the knobs of its run on,
breaks an invariant.  Its label comes from replay: with each other knob
of the variant turned on beside the run's, one at a time, the first knob
under which the scenario runs clean names it, `known: KNOB`.  A finding no
knob silences is a `new finding`.  Known findings merge by label; new ones
by their invariant and their minimal scenario in canonical form (devices
renamed in the order they are declared, comments and header lines
dropped).  scripts/campaign (and so fuzz-quick) and scripts/check-tree
label their findings here (docs/check-tree.md, "Known or new").
"""
import functools
import re
import subprocess


@functools.lru_cache(maxsize=None)
def _knobs(repro, variant):
    return tuple(knobs_uncached(repro, variant))


def knobs(repro, variant, env=None):
    """The variant's knobs as [(name, what)] in its order (dpmrepro --fix
    list), asked once per program and variant."""
    return list(_knobs(str(repro), variant)) if env is None else knobs_uncached(repro, variant, env)


def knobs_uncached(repro, variant, env=None):
    p = subprocess.run([str(repro), "--fix", "list", "--variant", variant], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = []
    for line in p.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 3 and f[0]:
            out.append((f[0], f[2]))
    return out


def fix_list(spec, all_knobs):
    """The knob names a --fix SPEC turns on."""
    if spec in (None, "", "none"):
        return []
    if spec == "all":
        return list(all_knobs)
    return [k for k in spec.split(",") if k]


def knob_name(what):
    """A knob's finding name: its description up to the first colon when
    that is a short name ("KV-2: accept ..." -> "KV-2"), else None."""
    head, colon, _ = what.partition(":")
    return head.strip() if colon and 0 < len(head.strip()) <= 16 else None


def replay_outcome(repro, variant, fix, path, env=None, timeout=120, extra=()):
    """dpmrepro's verdict on a file with --fix FIX: 0 clean, 1 violation,
    2 error, -1 timed out."""
    try:
        p = subprocess.run([str(repro), "--variant", variant, "--fix", fix or "none",
                            *extra, "--summary-json", str(path)], env=env, timeout=timeout,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return -1
    return p.returncode


def label(repro, variant, fix, path, env=None, outcome=None):
    """The label of a finding: {"label": "known: KNOB" | "new finding",
    "knob": KNOB | None, "name": the finding's name or None}.  outcome, if
    given, replays the finding under a knob list and says whether it runs
    clean (for findings dpmrepro cannot replay: a sanitizer report)."""
    if outcome is None:
        def outcome(spec):
            return replay_outcome(repro, variant, spec, path, env) == 0
    all_knobs = knobs(repro, variant, env)
    have = fix_list(fix, [k for k, _ in all_knobs])
    for k, what in all_knobs:
        if k in have:
            continue
        if outcome(",".join(have + [k])):
            return {"label": f"known: {k}", "knob": k, "name": knob_name(what)}
    return {"label": "new finding", "knob": None, "name": None}


HEADER = re.compile(r"^(#|dpmfuzz-scenario\b|variant\b|fix\b|expect\b)")


def canonical(text):
    """A scenario text in canonical form: comments and the header lines
    (format, variant, fix, expect) dropped, blank space normalised, and
    each device renamed d0, d1, ... in the order it is declared."""
    lines = [l.split("#", 1)[0].strip() for l in text.splitlines()]
    lines = [" ".join(l.split()) for l in lines if l and not HEADER.match(l)]
    names = {}
    for l in lines:
        m = re.match(r"device (\S+)", l)
        if m and m.group(1) not in names:
            names[m.group(1)] = f"d{len(names)}"

    def rename(m):
        return names.get(m.group(0), m.group(0))
    return "\n".join(re.sub(r"[^\s=,:]+", rename, l) for l in lines) + "\n"


def norm(text, names):
    """A message or trace event without names, numbers and times."""
    def quoted(m):
        k = re.fullmatch(r"([a-z_]+)/\d+(?::.*)?", m.group(1))
        return f"'{k.group(1)}'" if k else ("'pm'" if m.group(1) == "pm" else "'D'")
    text = re.sub(r"'([^']*)'", quoted, text)
    if names:
        text = re.sub(r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
                      + r")(?![\w-])", "D", text)
    text = re.sub(r"\bdev\d+\b", "D", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "X", text)
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    text = re.sub(r"'D'(, 'D')+", "'D'", text)
    return " ".join(text.split())


PHASE_WORDS = re.compile(r"\b(prepare|(?:suspend|freeze|poweroff)(?:_late|_noirq)?|"
                         r"(?:resume|thaw|restore)(?:_early|_noirq)?|complete)\b")


def group_key(variant, inv, lab, message):
    """What findings of one root cause share: the variant and the knob for
    a known one; for a new one, the variant, the invariant and the phases
    the violation's message names (the same invariant broken in the same
    step: a late suspend that does not wait for its subordinates breaks
    SUSPEND-AFTER-CHILDREN at suspend_late for children and consumers,
    running or not yet started, alike).  Two bugs that break one
    invariant in one step merge; the group keeps every distinct message."""
    if lab["knob"]:
        return (variant, lab["label"])
    return (variant, "new", inv, tuple(dict.fromkeys(PHASE_WORDS.findall(message or ""))))
