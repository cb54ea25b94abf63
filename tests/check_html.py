#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Drive a dpmrepro --html page in headless Chromium and check what a
reader sees, through the DevTools protocol on a pipe (no network, no
port): tests/check_html.sh calls it.

  check_html.py CHROMIUM PAGE.html [--bars N] [--devices N] [--violation ID]
                [--widest-within PHASE:FRACTION] [--screenshot OUT.png]
                [--size W,H] [--text TEXT]...
                [--removals TASK:DEV,...]... [--waits N [--min-waits M]
                [--trace-json FILE]] [--wait TASK=TEXT]...

Checks, each printed as it passes:
  - the page draws N callback bars (rect.bar), and every bar's title
    names its device and its phase; the device tree lists N devices;
  - every count on the page is worded right ("1 task", "2 tasks", never
    "1 tasks" or "2 task"); with --text, the page says TEXT;
  - the time axis has tick labels, the first 0 (the run's first event)
    at the left edge, and the span shown starts at 0; a mouse-wheel zoom
    over the timeline changes them and narrows the shown span; a drag
    pans it; the fit button restores the first axis; a drag towards
    earlier times from there stops at 0;
  - with --violation: the mark names the ID, is inside the visible part
    of the timeline, and a bar is selected with the violation in the
    details; without it, no mark;
  - with --removals TASK:DEV,...: the timeline has a row named TASK (a
    hotplug or release task) and on it, in view at the default zoom, a
    mark for each DEV's removal titled "DEV removed";
  - with --waits N: N blocked waits drawn (rect.wait), at least M; each
    titled with its task, how long it blocked and what it waits for;
    with --trace-json, the same (task, start, end) as the file's blocked
    slices; in virtual time each bar's x and width match its start and
    end on the axis's ticks; with --wait TASK=TEXT, one of TASK's, on
    its row if it has one (an async job's lane has no name), whose
    title says TEXT;
  - with --widest-within PHASE:F: at the default zoom the widest bar of
    PHASE is at least F of PHASE's band (the skynet disk's 820 ms in an
    866 ms suspend must not be a sliver);
  - a click on a bar shows its details (device, phase, callback, result,
    who woke its task).
Exit 0 all passed, 1 a check failed, 77 Chromium would not start.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    """Chromium with --remote-debugging-pipe: requests on fd 3, answers on fd 4."""

    def __init__(self, exe, width, height):
        self.profile = tempfile.mkdtemp(prefix="check_html.")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def fds():
            # fresh copies first: to_r may be fd 3 already, and a dup2 onto
            # itself would keep it close-on-exec
            r, w = os.dup(to_r), os.dup(from_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        args = [exe, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-extensions",
                "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
                "--window-size=%d,%d" % (width, height), "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False,
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.session = None

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)
        shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                ans = json.loads(raw)
                if ans.get("id") == self.next_id:
                    if "error" in ans:
                        raise RuntimeError("%s: %s" % (method, ans["error"]))
                    return ans.get("result", {})
            if time.time() > deadline:
                raise RuntimeError("%s: no answer" % method)
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("%s: the browser went away" % method)
            self.buf += chunk

    def open(self, url):
        target = self.send("Target.createTarget", {"url": url}, session=False)
        att = self.send("Target.attachToTarget",
                        {"targetId": target["targetId"], "flatten": True},
                        session=False)
        self.session = att["sessionId"]
        for _ in range(200):
            if self.js("document.readyState === 'complete' && "
                       "document.querySelectorAll('rect.bar').length > 0"):
                return
            time.sleep(0.05)
        raise RuntimeError("the page never drew its bars")

    def js(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def mouse(self, kind, x, y, **kw):
        p = {"type": kind, "x": x, "y": y}
        p.update(kw)
        self.send("Input.dispatchMouseEvent", p)


FAILS = []


def check(ok, what):
    print("check_html: %s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        FAILS.append(what)


# what the page counts
NOUNS = ["callback", "task", "async job", "lane", "device", "event", "removal", "wait"]


def tick_value(tick):
    """'12.5 ms@340' -> 12.5, 'event 7@12' -> 7"""
    words = tick.rsplit("@", 1)[0].split()
    return float(words[1] if words[0] == "event" else words[0])


def tick_x(tick):
    return int(tick.rsplit("@", 1)[1])


# the tick labels and where they are
AXIS = "[...document.querySelectorAll('#tl .tick')].map(t => t.textContent + '@' + Math.round(+t.getAttribute('x')))"


def check_waits(b, a):
    """The blocked waits: one hatched bar each, titled, from the wait's
    start to its end as the trace JSON of the same run has it."""
    waits = b.js("""[...document.querySelectorAll('#tl rect.wait')].map(r => [
        r.dataset.task, +r.dataset.from, +r.dataset.to,
        r.querySelector('title') ? r.querySelector('title').textContent : '',
        +r.getAttribute('x'), +r.getAttribute('width')])""")
    check(len(waits) == a.waits and len(waits) >= a.min_waits,
          "%d blocked waits drawn, %d in the run (at least %d wanted)"
          % (len(waits), a.waits, a.min_waits))
    bad = [w[3] or "(no title)" for w in waits
           if not w[3].startswith(w[0] + " blocked ") or ": waits for " not in w[3]]
    check(not bad, "every wait's title names its task, how long it blocked and what for%s"
          % ("; not: " + bad[0] if bad else (": " + waits[0][3] if waits else "")))
    for spec in a.wait:
        task, text = spec.split("=", 1)
        got = b.js("""(() => {
            // an async job's lane has no name of its own: its task only
            const lane = [...document.querySelectorAll('#names text')].find(t => t.textContent === %s);
            const ly = lane ? lane.getBoundingClientRect() : null;
            return [...document.querySelectorAll('#tl rect.wait')].filter(r => r.dataset.task === %s)
                .map(r => { const q = r.getBoundingClientRect();
                    return [r.querySelector('title').textContent,
                            !ly || Math.abs((q.top + q.bottom) / 2 - (ly.top + ly.bottom) / 2) < 8]; });
            })()""" % (json.dumps(task), json.dumps(task)))
        m = [g for g in got if text in g[0]]
        check(m and m[0][1], "a wait bar on %s's row: %s" % (task, m[0][0] if m else
                                                           "none waits for %r" % text))
    if a.trace_json:
        with open(a.trace_json) as f:
            ev = json.load(f)["traceEvents"]
        names = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M"}
        want = sorted((names.get(e["tid"], ""), round(e["ts"], 3),
                       round(e["ts"] + e["dur"], 3) if e["ph"] == "X" else -1)
                      for e in ev if e.get("cat") == "blocked")
        got = sorted((w[0], round(w[1], 3), round(w[2], 3)) for w in waits)
        check(got == want, "the waits drawn are the trace JSON's blocked slices (%d)%s"
              % (len(want), "" if got == want else ": %r, not %r" % (got[:3], want[:3])))
    # at the default zoom, in virtual time: x and width from start and end
    axis = b.js(AXIS)
    if axis and axis[0].rsplit("@", 1)[0].endswith(" ms") and len(axis) >= 2:
        t0, x0 = tick_value(axis[0]) * 1000, tick_x(axis[0])
        t1, x1 = tick_value(axis[-1]) * 1000, tick_x(axis[-1])
        ppu = (x1 - x0) / (t1 - t0)
        off = [w for w in waits if w[2] >= 0 and w[5] > 3 and
               (abs(w[4] - (x0 + (w[1] - t0) * ppu)) > 2 or
                abs(w[5] - (w[2] - w[1]) * ppu) > 2)]
        check(not off, "each wait's bar runs from its start to its end on the axis (%d long enough to see)%s"
              % (len([w for w in waits if w[2] >= 0 and w[5] > 3]),
                 "; not: %r" % off[0] if off else ""))


def run(b, a):
    b.open("file://" + os.path.abspath(a.page))
    bars = b.js("""[...document.querySelectorAll('rect.bar')].map(r => [
        r.dataset.dev, r.dataset.phase,
        r.querySelector('title') ? r.querySelector('title').textContent : ''])""")
    if a.bars is not None:
        check(len(bars) == a.bars, "%d bars drawn, %d callbacks in the run" % (len(bars), a.bars))
    bad = [t or "(no title)" for d, p, t in bars
           if not d or not p or not t or not t.startswith(d + " " + p + ":")]
    check(bars and not bad, "every bar's title names its device and phase (%d bars%s)"
          % (len(bars), "; not: " + bad[0] if bad else ""))

    # counts worded right: "1 task", "2 tasks", "0 tasks"
    text = b.js("""document.body.innerText + '\\n' + [...document.querySelectorAll('svg text, svg title')]
        .map(t => t.textContent).join('\\n')""")
    wrong = re.findall(r"(?<![\d.])(?:1 (?:%s)|(?:0|[2-9]|[1-9]\d+) (?:%s))\b"
                       % ("|".join(n + "s" for n in NOUNS), "|".join(NOUNS)), text)
    check(not wrong, "counts are worded right (1 task, 2 tasks)%s"
          % (": not " + ", ".join(sorted(set(wrong))) if wrong else ""))
    for want in a.text:
        check(want in text, "the page says %r" % want)

    if a.devices is not None:
        n = b.js("document.querySelectorAll('#tree li').length")
        check(n == a.devices, "the device tree lists %d devices, the scenario has %d" % (n, a.devices))
    if not a.violation:
        check(b.js("!document.getElementById('violation-mark')"), "no violation, none marked")

    for spec in a.removals:
        lane, devs = spec.split(":")
        got = b.js("""(() => {
            const lane = [...document.querySelectorAll('#names text')].find(t => t.textContent === %s);
            if (!lane) return null;
            const ly = lane.getBoundingClientRect(), tl = document.getElementById('tl').getBoundingClientRect();
            return [...document.querySelectorAll('#tl g.removal')].map(g => {
                const r = g.querySelector('path').getBoundingClientRect();
                return [g.dataset.dev, g.dataset.task, g.querySelector('title').textContent,
                        Math.abs((r.top + r.bottom) / 2 - (ly.top + ly.bottom) / 2) < 8,
                        r.left >= tl.left - 6 && r.right <= tl.right + 6];
            }); })()""" % json.dumps(lane))
        check(got is not None, "the timeline has a row for %s" % lane)
        for dev in devs.split(","):
            m = [g for g in got or [] if g[0] == dev and g[1] == lane]
            check(m and m[0][3] and m[0][4] and (dev + " removed") in m[0][2],
                  "%s's removal is marked on %s's row, in view, titled: %s"
                  % (dev, lane, m[0][2] if m else "no mark"))

    if a.waits is not None:
        check_waits(b, a)

    if a.widest_within:
        phase, frac = a.widest_within.split(":")
        band = b.js("""(() => { const r = document.querySelector('rect.band[data-phase="%s"]');
            return r ? r.getBoundingClientRect().width : 0; })()""" % phase)
        widest = b.js("""(() => { let w = 0, d = '';
            for (const r of document.querySelectorAll('rect.bar[data-phase="%s"]')) {
                const x = r.getBoundingClientRect().width; if (x > w) { w = x; d = r.dataset.dev; } }
            return [w, d]; })()""" % phase)
        check(band > 0 and widest[0] >= float(frac) * band,
              "widest %s bar (%s) %.0f px, %.0f%% of the %s band's %.0f px (at least %d%%)"
              % (phase, widest[1], widest[0], 100 * widest[0] / max(band, 1), phase, band,
                 100 * float(frac)))

    axis0 = b.js(AXIS)
    span0 = b.js("document.getElementById('span').textContent")
    check(len(axis0) >= 3, "the axis has tick labels: %s" % axis0[:4])
    check(axis0 and tick_value(axis0[0]) == 0 and tick_x(axis0[0]) <= 1 and
          re.match(r"x: (virtual time, 0(\.0*)? ms|event order, events 0) to", span0),
          "the axis starts at 0, the first event, at its left edge: %s; %s" % (axis0[:1], span0))
    box = b.js("(() => { const r = document.getElementById('tl').getBoundingClientRect();"
               " return [r.left + r.width / 2, r.top + 30]; })()")
    b.mouse("mouseWheel", box[0], box[1], deltaX=0, deltaY=-800)
    axis1 = b.js(AXIS)
    span1 = b.js("document.getElementById('span').textContent")
    check(axis1 != axis0 and span1 != span0,
          "a wheel zoom changes the axis: %s -> %s" % (axis0[:3], axis1[:3]))
    b.mouse("mousePressed", box[0], box[1], button="left", buttons=1, clickCount=1)
    b.mouse("mouseMoved", box[0] + 150, box[1], button="left", buttons=1)
    b.mouse("mouseReleased", box[0] + 150, box[1], button="left", buttons=0, clickCount=1)
    axis2 = b.js(AXIS)
    check(axis2 != axis1, "a drag pans the axis: %s -> %s" % (axis1[:3], axis2[:3]))
    b.js("document.getElementById('zfit').click()")
    check(b.js(AXIS) == axis0, "the fit button gives the first axis back")
    b.mouse("mousePressed", box[0], box[1], button="left", buttons=1, clickCount=1)
    b.mouse("mouseMoved", box[0] + 300, box[1], button="left", buttons=1)
    b.mouse("mouseReleased", box[0] + 300, box[1], button="left", buttons=0, clickCount=1)
    axis3 = b.js(AXIS)
    check(axis3 == axis0, "a drag towards earlier times stops at 0: %s" % axis3[:2])
    b.js("document.getElementById('zfit').click()")

    if a.violation:
        mark = b.js("""(() => { const m = document.getElementById('violation-mark');
            if (!m) return null;
            const r = m.getBoundingClientRect(), v = document.getElementById('view').getBoundingClientRect();
            return [m.textContent, r.left >= v.left && r.right <= v.right + 1 &&
                    r.top >= v.top && r.bottom <= v.bottom + 1]; })()""")
        check(mark is not None and mark[0] == a.violation,
              "the violation is marked %s" % (mark[0] if mark else "nowhere"))
        check(mark is not None and mark[1], "the violation mark is in view")
        det = b.js("document.getElementById('detail').textContent")
        check(a.violation in det and "callback" in det,
              "the violating callback is selected, its details name the violation")

    # a click on the longest bar: its details
    b.js("document.getElementById('zfit').click()")
    pos = b.js("""(() => { let best = null, w = -1;
        for (const r of document.querySelectorAll('rect.bar')) {
            const q = r.getBoundingClientRect(); if (q.width > w) { w = q.width; best = q; } }
        return [best.left + Math.min(best.width / 2, 20), best.top + best.height / 2]; })()""")
    b.mouse("mousePressed", pos[0], pos[1], button="left", buttons=1, clickCount=1)
    b.mouse("mouseReleased", pos[0], pos[1], button="left", buttons=0, clickCount=1)
    det = b.js("document.getElementById('detail').textContent")
    check("callback ->" in det and ("returned" in det or "never returned" in det)
          and ("woken by" in det or "did not wait" in det),
          "a click on a bar shows device, phase, callback, result and who woke it: %s"
          % det[:160].replace("\n", " "))

    if a.screenshot:
        b.mouse("mouseMoved", 1, 1)
        b.js("document.getElementById('zfit').click()")
        if a.violation:
            b.js("document.getElementById('violation-mark').scrollIntoView({block: 'center'})")
        shot = b.send("Page.captureScreenshot", {"format": "png"})
        import base64
        with open(a.screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        size = os.path.getsize(a.screenshot)
        check(size > 5000, "screenshot %s, %d bytes" % (a.screenshot, size))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("chromium")
    p.add_argument("page")
    p.add_argument("--bars", type=int)
    p.add_argument("--violation")
    p.add_argument("--devices", type=int)
    p.add_argument("--widest-within")
    p.add_argument("--screenshot")
    p.add_argument("--text", action="append", default=[])
    p.add_argument("--removals", action="append", default=[])
    p.add_argument("--waits", type=int)
    p.add_argument("--min-waits", type=int, default=0)
    p.add_argument("--trace-json")
    p.add_argument("--wait", action="append", default=[])
    p.add_argument("--size", default="1400,900")
    a = p.parse_args()
    w, h = (int(x) for x in a.size.split(","))
    try:
        b = Browser(a.chromium, w, h)
        b.send("Target.getTargets", session=False, timeout=60)
    except Exception as e:
        print("check_html: chromium does not start (%s), skipped" % e)
        return 77
    try:
        run(b, a)
    except Exception as e:
        check(False, "the page could not be driven: %s" % e)
    finally:
        b.close()
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
