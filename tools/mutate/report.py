# SPDX-License-Identifier: GPL-2.0-only
"""dpmmutate's report: report.md, report.html and report.json in the
campaign directory (docs/mutation.md, "The report").

The mutation score is detected / (mutants - equivalent - did not build
- baseline fails - not run yet), detected = killed + timed out: a
mutant that makes an input run forever is one the fuzzer noticed (a
kernel that hangs in suspend), but it is counted apart too.
"""
import json

from document import render_html, render_md

STATUSES = ["killed", "timed-out", "survived", "equivalent", "did-not-build", "baseline-fails", "pending"]


def status(c, mid):
    r = c.state["results"].get(mid)
    return r["status"] if r else "pending"


def tally(c, ids):
    t = {s: 0 for s in STATUSES}
    for i in ids:
        t[status(c, i)] += 1
    t["mutants"] = len(ids)
    valid = t["mutants"] - t["equivalent"] - t["did-not-build"] - t["baseline-fails"] - t["pending"]
    t["detected"] = t["killed"] + t["timed-out"]
    t["score"] = round(100.0 * t["detected"] / valid, 1) if valid else None
    return t


def summarise(c):
    ids = c.selected
    by_op, by_fn, killers, stages_ = {}, {}, {}, {}
    for i in ids:
        m, r = c.mutants[i]
        by_op.setdefault(m.operator, []).append(i)
        by_fn.setdefault(m.function, []).append(i)
        res = c.state["results"].get(i)
        if res and res["status"] in ("killed", "timed-out"):
            killers[res["by"]] = killers.get(res["by"], 0) + 1
            stages_[res.get("stage", "?")] = stages_.get(res.get("stage", "?"), 0) + 1
    seconds = sum(s.get("seconds", 0) for s in c.state["sessions"])
    ran = sum(1 for i in ids if status(c, i) not in ("pending",))
    cpu = sum(r.get("seconds", 0) for i, r in c.state["results"].items() if i in c.mutants)
    return {
        "kernel": c.version, "tree": str(c.tree), "main_sha256": c.main_sha, "variant": c.variant,
        "preset": c.preset, "time": c.time, "tsan_iterations": c.tsan_iterations,
        "check_devices": c.check_devices,
        "functions": {n: f for n, f in c.facts}, "mutated": sorted(by_fn),
        "total": tally(c, ids),
        "operators": {op: tally(c, by_op[op]) for op in sorted(by_op, key=op_order)},
        "by_function": {fn: tally(c, by_fn[fn]) for fn in sorted(by_fn, key=lambda f: c.source.functions[f].extent.start.offset)},
        "killed_by": dict(sorted(killers.items(), key=lambda kv: -kv[1])),
        "kill_stage": stages_,
        "wall_seconds": round(seconds, 1), "mutant_seconds": round(cpu, 1),
        "per_minute": round(ran / seconds * 60, 1) if seconds else None,
        "stages": c.state.get("stages", {}),
        "own_builds": sum(1 for i in ids if c.state["results"].get(i, {}).get("own_build")
                          or i in getattr(c, "own", {})),
        "duplicates": sum(1 for i in ids if c.state["results"].get(i, {}).get("duplicate_of")),
        "judged_equivalent": sum(1 for i in ids if c.state["results"].get(i, {}).get("by") == "judged"),
        "judged_survivors": sum(1 for i in ids if c.state["results"].get(i, {}).get("judged")),
        "sessions": len(c.state["sessions"]), "duplicates_dropped": c.duplicates,
        "baseline_inputs": sum(c.state["results"].get(i, {}).get("baseline_inputs", 0) for i in ids),
    }


def op_order(op):
    import mutants
    return mutants.OPERATOR_NAMES.index(op)


def headline(s):
    t = s["total"]
    score = f"{t['score']}%" if t["score"] is not None else "n/a"
    if t["pending"] and t["score"] is not None:
        score += f" of the mutants decided so far ({t['pending']} not run)"
    return (f"kernel {s['kernel']}: {t['mutants']} mutants: {t['killed']} killed, {t['timed-out']} timed out, "
            f"{t['survived']} survived, {t['equivalent']} equivalent, {t['did-not-build']} did not build, "
            f"{t['baseline-fails']} baseline fails, {t['pending']} not run; score {score} "
            f"({s['wall_seconds']} s wall in {s['sessions']} session(s), {s['per_minute']} mutants a minute)")


def hms(sec):
    sec = int(sec)
    return f"{sec // 3600}:{sec // 60 % 60:02d}:{sec % 60:02d}"


COLS = ["mutants", "killed", "timed-out", "survived", "equivalent", "did-not-build", "baseline-fails", "pending", "score"]


def table_rows(name, tallies):
    rows = []
    for k, t in tallies.items():
        rows.append([k] + [t[c] if c != "score" else ("-" if t[c] is None else f"{t[c]}%") for c in COLS])
    return [name] + COLS, rows


def table(head, rows):
    """A table block, or "(none)" for no rows."""
    return ("table", head, rows) if rows else ("p", "(none)")


def document(c, s):
    """The report as scripts/lib/document.py's blocks, for markdown and HTML
    alike."""
    t = s["total"]
    doc = [("h1", f"dpmmutate: kernel {s['kernel']}"), ("h2", "Summary"),
           ("p", f"Tree {s['tree']} (kernel {s['kernel']}, main.c sha256 {s['main_sha256'][:16]}...), variant "
            f"{s['variant']}; the schemata built with the {s['preset']} preset (and dev, tsan); dpmcheck up to "
            f"{s['check_devices']} devices; {s['time']} s of fuzzing for each survivor of the cheaper stages "
            f"(0: none); {s['tsan_iterations']} dpmstress scenarios under ThreadSanitizer "
            "for a race operator's survivor."),
           ("p", f"Mutation score: **{t['score']}%** ({t['detected']} of "
            f"{t['mutants'] - t['equivalent'] - t['did-not-build'] - t['baseline-fails'] - t['pending']} "
            f"non-equivalent mutants detected: {t['killed']} killed, {t['timed-out']} timed out); "
            f"{t['survived']} survived, {t['equivalent']} equivalent ({s['judged_equivalent']} of them judged so in "
            "docs/mutation.md, the others by the same -O2 object code), "
            f"{t['did-not-build']} did not build, {t['baseline-fails']} baseline fails, {t['pending']} not run yet; "
            f"{s['duplicates']} took the outcome of another mutant whose code they compile to; "
            f"{s['own_builds']} needed a build of their own (outside the schemata)."),
           ("p", f"Wall time {hms(s['wall_seconds'])} in {s['sessions']} session(s), {s['per_minute']} mutants a minute, "
            f"set-up included; the mutants' own time {hms(s['mutant_seconds'])}.")]
    doc += [("h2", "Stages"),
            table(["stage", "mutants run through it", "killed there", "wall seconds"],
                  [[k, v["mutants"], s["kill_stage"].get(k, 0) +
                    (s["kill_stage"].get("regressions", 0) if k == "check" else 0), v["seconds"]]
                   for k, v in s["stages"].items()])]
    doc += [("h2", "Functions"),
            table(["function", "why it is mutated (the call that does it, or the function of main.c that does)"],
                  [[n, "; ".join(f"{k}: {v}" for k, v in f.items())] for n, f in s["functions"].items()])]
    doc += [("h2", "By operator"), table(*table_rows("operator", s["operators"]))]
    doc += [("h2", "By function"), table(*table_rows("function", s["by_function"]))]
    doc += [("h2", "What killed them"),
            table(["killed by", "mutants"], [[k, v] for k, v in s["killed_by"].items()]
                  + [["stage: " + k, v] for k, v in s["kill_stage"].items()])]
    rows_k, rows_o, surv = [], [], []
    for i in c.selected:
        m, rec = c.mutants[i]
        r = c.state["results"].get(i)
        if not r:
            continue
        if r["status"] in ("killed", "timed-out"):
            rows_k.append([i, m.line, r["status"], r.get("by", ""), r.get("stage", ""),
                           r.get("fuzz_seconds", r.get("tsan_seconds", "")),
                           {True: "yes", False: "NO", None: "-"}[r.get("reproduced")],
                           (r.get("message") or "")[:120], r.get("repro", "")])
        elif r["status"] == "survived":
            j = f" Judged {r['judged']}: {r['why']}" if r.get("judged") else " Not judged yet."
            surv += [("h3", i), ("p", f"line {m.line}: {m.what}.{j}"), ("diff", c.diff(i))]
        else:
            rows_o.append([i, m.line, r["status"], r.get("by", ""), (r.get("message") or "").splitlines()[0][:160]
                           if r.get("message") else ""])
    doc += [("h2", "Survivors")] + (surv or [("p", "(none)")])
    doc += [("h2", "Killed and timed out"),
            table(["mutant", "line", "outcome", "by", "stage", "seconds", "dpmrepro replays", "message",
                   "reproduce (from the repository)"], rows_k)]
    doc += [("h2", "Equivalent, did not build, baseline fails"),
            table(["mutant", "line", "outcome", "by", "why"], rows_o)]
    rows_b = [[i, c.state["results"][i]["baseline_inputs"], " ".join(c.state["results"][i].get("baseline_examples", []))]
              for i in c.selected if c.state["results"].get(i, {}).get("baseline_inputs")]
    doc += [("h2", "Inputs the unmutated tree fails on too"),
            ("p", f"While fuzzing, {s['baseline_inputs']} saved inputs failed on the unmutated tree as well (every "
             "knob on): findings of the harness or of the kernel, not of the mutants; they did not count as kills "
             "and the fuzzing went on.  Replay one with dpmrepro --variant "
             f"{s['variant']} --fix all --bytes FILE."),
            table(["mutant", "inputs", "kept (up to 3)"], rows_b)]
    return doc


def write(c):
    s = summarise(c)
    md, htm, js = c.out / "report.md", c.out / "report.html", c.out / "report.json"
    doc = document(c, s)
    md.write_text(render_md(doc))
    htm.write_text(render_html(doc))
    data = dict(s, mutants={i: dict(c.mutants[i][1], **(c.state["results"].get(i) or {"status": "pending"}))
                            for i in c.selected})
    js.write_text(json.dumps(data, indent=1) + "\n")
    return [md, htm, js]
