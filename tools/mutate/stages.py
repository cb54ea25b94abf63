# SPDX-License-Identifier: GPL-2.0-only
"""The stages that kill mutants, cheapest first (docs/mutation.md, "How
a mutant runs"), on builds whose main.c holds every mutant behind a
run-time id (schemata.py), or, for a mutant the schemata cannot express,
on a build of its own (its id there is 0):

  corpus      dpmmutant: the shipped corpus, every knob on, many mutants
              a process (a forked child each)
  check       the tree's shipped regressions (dpmrepro --check-regression,
              stage "regressions"), then dpmcheck's exhaustive search at
              N <= 2, every knob on, both in a plain (dev) build
  fuzz        libFuzzer from the corpus for T seconds; an input counts
              when the unmutated code (id 0 of the same binary) runs it
              clean
  tsan        a race operator's survivor: dpmstress on real threads under
              ThreadSanitizer; a violation, the watchdog, or a data race
              the unmutated code does not show on a line the mutant changed

Nothing is written into the user's tree, and every process started runs
in its own process group, which Procs.stop() ends.
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
import zlib
from pathlib import Path

from schemata import base_name

# The files of a tree the kernel variant's build reads (kernel/CMakeLists.txt:
# the Makefile for the version; main.c with its base.h and power.h, which
# kernel/rt includes too).
TREE_FILES = ["Makefile", "drivers/base/power/main.c", "drivers/base/power/power.h",
              "drivers/base/base.h"]
MAIN = "drivers/base/power/main.c"
# Seconds a fuzz run may take beyond T (loading the corpus under ASan takes
# 10-20 s on a loaded machine) before the mutant counts as timed out.
SLACK = 240
# A racing access's frames that count as the access's own: the first two
# outside the sanitizer runtime (kernel/test/tsan_threads.sh's rule).
TSAN_FRAMES = 2


class Failure(Exception):
    """The campaign cannot go on (exit 1)."""


class Stopped(Exception):
    """The campaign is stopping (SIGINT/SIGTERM)."""


class Procs:
    """The process groups the workers started, to end on a stop."""

    def __init__(self):
        self.lock = threading.Lock()
        self.groups = set()
        self.stopping = False

    def run(self, cmd, log, cwd=None, env=None, timeout=None, poll=None):
        """Run cmd (output appended to log), in its own process group.
        poll, if given, is called every second while it runs; when it
        returns true the group is ended.  Returns (exit code, seconds,
        timed out)."""
        if self.stopping:
            raise Stopped()
        with open(log, "ab") as lf:
            lf.write(("$ " + " ".join(shlex.quote(str(c)) for c in cmd) + "\n").encode())
            lf.flush()
            t0 = time.monotonic()
            p = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, stdout=lf,
                                 stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 start_new_session=True)
            with self.lock:
                self.groups.add(p.pid)
            timed_out = False
            try:
                while True:
                    try:
                        p.wait(timeout=1)
                        break
                    except subprocess.TimeoutExpired:
                        pass
                    if timeout is not None and time.monotonic() - t0 > timeout:
                        timed_out = True
                    if timed_out or self.stopping or poll and poll():
                        self.kill(p.pid)
                        p.wait()
                        break
            finally:
                with self.lock:
                    self.groups.discard(p.pid)
            # Strays of the group (libFuzzer's fork jobs) go with it.
            self.kill(p.pid)
            if self.stopping:
                raise Stopped()
            return p.returncode, time.monotonic() - t0, timed_out

    @staticmethod
    def kill(pgid):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop(self):
        self.stopping = True
        with self.lock:
            for g in list(self.groups):
                self.kill(g)


def tail(path, n=30):
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""


def copy_tree_files(src, dst, but=()):
    """The files of TREE_FILES from src into dst, but those named in but
    (a file already there with the same bytes is left alone: the build
    goes by its time)."""
    for f in TREE_FILES:
        if f in but:
            continue
        d = Path(dst) / f
        d.parent.mkdir(parents=True, exist_ok=True)
        write_if_changed(d, (Path(src) / f).read_bytes())


def write_if_changed(path, data):
    p = Path(path)
    if p.exists() and p.read_bytes() == data:
        return
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(p)


# What a run's output says, first match wins: (pattern, what killed it).
KILLERS = [
    (re.compile(r"dpmfuzz: VIOLATION (\S+): ?(.*)"), lambda m: (m.group(1), m.group(2))),
    (re.compile(r"dpmfuzz: kapi misuse: (.*)"), lambda m: ("KAPI-MISUSE", m.group(1))),
    (re.compile(r"ERROR: AddressSanitizer: (\S+)(.*)"), lambda m: ("ASAN " + m.group(1), m.group(2).strip())),
    (re.compile(r"ERROR: LeakSanitizer: (.*)"), lambda m: ("LSAN leak", m.group(1))),
    (re.compile(r"runtime error: (.*)"), lambda m: ("UBSAN", m.group(1))),
    (re.compile(r"ERROR: libFuzzer: (out-of-memory.*)"), lambda m: ("OOM", m.group(1))),
    (re.compile(r"ERROR: libFuzzer: timeout(.*)"), lambda m: ("TIMEOUT", "an input ran longer than libFuzzer's -timeout" + m.group(1))),
    (re.compile(r"replay: timeout on an input"), lambda m: ("TIMEOUT", "an input ran longer than the replay driver's alarm")),
    (re.compile(r"ERROR: libFuzzer: deadly signal"), lambda m: ("CRASH", "a deadly signal")),
]


def killer(text):
    for pat, what in KILLERS:
        m = pat.search(text)
        if m:
            return what(m)
    return None


def tsan_reports(text, main_path):
    """ThreadSanitizer's race reports in a log: for each, the accesses
    main.c makes ((function, line) of the access's own frames in main.c,
    kernel/test/tsan_threads.sh's rule)."""
    out = []
    for r in text.split("WARNING: ThreadSanitizer:")[1:]:
        body = r.split("SUMMARY")[0].split("Location is")[0]
        blocks = re.split(r"\n  (?=(?:Previous )?(?:[Aa]tomic )?(?:[Rr]ead|[Ww]rite) of size)", body)[1:3]
        accesses = []
        for b in blocks:
            frames = [(fn, loc) for fn, loc in re.findall(r"#\d+ (\S+) (\S+)", b)
                      if "compiler-rt" not in loc and loc != "<null>"][:TSAN_FRAMES]
            for fn, loc in frames:
                m = re.match(r"(.*):(\d+)(?::\d+)?$", loc)
                if m and os.path.realpath(m.group(1)) == main_path:
                    accesses.append((fn, int(m.group(2))))
                    break
        if accesses:
            out.append(accesses)
    return out


def race_signature(accesses, lines):
    """A race as the functions and the source text of main.c's accesses:
    the same race whatever the line numbers of the file it came from, and
    whichever copy of a function in a schemata build made it."""
    return tuple(sorted((base_name(fn), lines[ln - 1].strip() if 0 < ln <= len(lines) else "?")
                        for fn, ln in accesses))




STAGES = ["corpus", "check", "fuzz", "tsan"]


class Build:
    """One build directory of one preset over one tree (the schemata's, or
    a mutant's own), configured with that tree as its only kernel tree."""

    def __init__(self, camp, tree, preset, path):
        self.c = camp
        self.tree = Path(tree)
        self.preset = preset
        self.dir = Path(path)
        self.log = self.dir.parent / f"{self.dir.name}.log"
        self.lock = threading.Lock()
        self.built = set()

    def run(self, cmd, **kw):
        return self.c.procs.run(cmd, self.log, **kw)

    def configure(self):
        if (self.dir / "CMakeCache.txt").exists():
            cmd = ["cmake", self.dir]
        else:
            cmd = ["cmake", "--preset", self.preset, "-S", self.c.repo, "-B", self.dir,
                   f"-DDPMFUZZ_KERNEL_TREES={self.tree}"]
        rc, _, _ = self.run(cmd, cwd=self.c.repo)
        return rc == 0

    def make(self, targets, jobs=1):
        """Configure (main.c's hash is part of the configuration) and build
        targets; once per session for each target."""
        with self.lock:
            want = [t for t in targets if t not in self.built]
            if not want:
                return True
            if not self.configure():
                return False
            rc, _, _ = self.run(["cmake", "--build", self.dir, "-j", str(jobs), "--target"] + want)
            if rc:
                return False
            self.built.update(want)
            return True

    def bin(self, name):
        for sub in ("fuzzers", "tools", "stress"):
            if (self.dir / sub / name).exists():
                return self.dir / sub / name
        return self.dir / "tools" / name

    def main(self):
        return os.path.realpath(self.tree / MAIN)

    def compile_command(self):
        db = json.loads((self.dir / "compile_commands.json").read_text())
        for e in db:
            if os.path.realpath(e["file"]) == self.main():
                return e
        raise RuntimeError(f"no compile command for {self.main()} in {self.dir}")


def tce_compile(build, source, obj, log, procs):
    """source compiled as build compiles main.c, at -O2, without debug
    information, sanitizers or coverage, a section per function and no
    jump tables (a copy's code then compares with another's).  Returns
    (ok, objdump text or the first errors)."""
    e = build.compile_command()
    words, out, skip = shlex.split(e["command"]), [], False
    for w in words:
        if skip:
            skip = False
            continue
        if w == "-o":
            skip = True
            continue
        if w.startswith(("-fsanitize", "-fno-sanitize", "-O", "-g", "-fprofile", "-fcoverage")):
            continue
        out.append(str(source) if os.path.realpath(w) == build.main() else w)
    out += ["-O2", "-g0", "-w", "-ffunction-sections", "-fno-jump-tables",
            "-fno-asynchronous-unwind-tables", "-o", str(obj)]
    Path(log).write_text("")
    rc, _, _ = procs.run(out, log, cwd=e["directory"])
    if rc:
        errs = [l for l in Path(log).read_text(errors="replace").splitlines() if "error:" in l]
        return False, "\n".join(errs[:3]) or tail(log, 5)
    p = subprocess.run(["objdump", "-d", "-r", "-w", str(obj)], capture_output=True, text=True)
    return True, p.stdout


def function_code(dump):
    """objdump's text of an object built by tce_compile(): each function's
    code, its own name written SELF."""
    secs, cur = {}, None
    for line in dump.splitlines():
        m = re.match(r"Disassembly of section \.text\.(\S+):", line)
        if m:
            cur = m.group(1)
            secs[cur] = []
            continue
        if cur and line.strip():
            secs[cur].append(line)
    return {name: "\n".join(re.sub(re.escape(name) + r"\b", "SELF", l) for l in lines)
            for name, lines in secs.items()}


class Stages:
    """The stages, on the campaign's builds; thread-safe (each call runs
    its own processes and writes only its mutant's directory)."""

    def __init__(self, camp):
        self.c = camp
        self.tsan_base = None
        self.tsan_lock = threading.Lock()

    def env(self, num, symbolize=False):
        """Every knob on and the mutant switched on (num None: left to the
        program, dpmmutant); stacks are not symbolised while fuzzing (the
        kill's own run is)."""
        env = dict(os.environ, DPMFUZZ_FIX="all", TMPDIR=str(self.c.out / "tmp"))
        env.pop("DPMFUZZ_MUTANT", None)
        if num is not None:
            env["DPMFUZZ_MUTANT"] = str(num)
        if not symbolize:
            env["ASAN_OPTIONS"] = "symbolize=0:" + os.environ.get("ASAN_OPTIONS", "")
        return env

    def run(self, cmd, log, **kw):
        return self.c.procs.run(cmd, log, **kw)

    # -- corpus -----------------------------------------------------------

    def corpus(self, build, nums, logdir):
        """dpmmutant over the corpus for the mutant numbers nums: {num:
        (kind, input, what)} with kind clean, violation, timeout or died."""
        logdir.mkdir(parents=True, exist_ok=True)
        out = logdir / f"batch-{nums[0]}.out"
        cmd = [build.bin("dpmmutant"), "--variant", self.c.variant, "--fix", "all", "--timeout",
               str(self.c.input_timeout), "--log", logdir, ",".join(str(n) for n in nums), self.c.corpus]
        env = self.env(None)
        with open(out, "w") as f:
            f.write("")
        rc, _, timed_out = self.run(cmd, out, env=env, timeout=SLACK + len(nums) * 4 * self.c.input_timeout)
        if rc == 2:
            # Bad usage: a build that does not hold these mutants (its
            # main.c is not the schemata), never a kill.
            raise Failure(f"dpmmutant refused to run ({out}):\n{tail(out, 5)}")
        res = {}
        for line in out.read_text(errors="replace").splitlines():
            w = line.split()
            if len(w) < 2 or not w[0].isdigit():
                continue
            if w[1] == "clean":
                res[int(w[0])] = ("clean", "-", "")
            elif w[1] == "violation" and len(w) == 4:
                res[int(w[0])] = ("violation", w[3], w[2])
            elif w[1] == "timeout" and len(w) == 3:
                res[int(w[0])] = ("timeout", w[2], "")
            elif w[1] == "died" and len(w) == 4:
                res[int(w[0])] = ("died", w[2], w[3])
        return res

    def corpus_result(self, build, num, kind, inp, what, logdir, mdir):
        """A result from dpmmutant's line for a mutant."""
        res = {"stage": "corpus"}
        log = logdir / f"{num}.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        if log.exists():
            shutil.move(str(log), mdir / "corpus.log")
        if kind == "timeout":
            res.update(status="timed-out", by="TIMEOUT",
                       message=f"an input ran longer than {self.c.input_timeout} s")
        elif kind == "violation":
            k = killer(text) or (what, "")
            res.update(status="killed", by=what, message=k[1][:300])
        else:
            k = killer(text) or ("LSAN leak" if what == "exit-23" else "CRASH", what)
            res.update(status="killed", by=k[0], message=k[1][:300])
        if inp != "-" and Path(inp).exists():
            kept = mdir / ("input-" + Path(inp).name)
            shutil.copyfile(inp, kept)
            res["input"] = str(kept)
            self.reproduce(build, num, kept, mdir, res)
        else:
            res["reproduced"] = None
        return res

    def regressions(self, build, num, mdir):
        """The tree's shipped regressions (those whose '# Holds on:' names
        its series), each on its own schedule and 200 others with every
        knob on, as the corpus runs: None when all run clean.  (Their
        ctests also want the finding each shows without its knob; a
        mutant that only hides a known finding changes that verdict, but
        is no bug anyone would be told of: it does not count.)"""
        for f in self.c.regressions:
            log = mdir / "regression.log"
            cmd = [build.bin("dpmrepro"), "--variant", self.c.variant, "--fix", "all",
                   "--schedules", "200", "--tail", "40", f]
            log.write_text("")
            rc, secs, timed_out = self.run(cmd, log, env=self.env(num), timeout=SLACK)
            if rc == 0 and not timed_out:
                continue
            text = log.read_text(errors="replace")
            k = killer(text)
            name = Path(f).name
            last = [l for l in text.splitlines() if l.strip() and not l.startswith("$ ")]
            msg = f"corpus/regressions: {name}: " + (k[1] if k else (last[-1] if last else f"exit {rc}"))
            status = "timed-out" if timed_out else "killed"
            return {"status": status, "by": "TIMEOUT" if timed_out else (k[0] if k else "REGRESSION"),
                    "stage": "regressions", "message": msg[:300], "reproduced": True,
                    "repro": self.command(num, cmd)}
        return None

    def command(self, num, cmd):
        return f"DPMFUZZ_MUTANT={num} DPMFUZZ_FIX=all " + " ".join(shlex.quote(str(w)) for w in cmd)

    def reproduce(self, build, num, crash, mdir, res):
        """dpmrepro of the same build replays the input with the mutant on:
        the same invariant or sanitizer report."""
        cmd = [build.bin("dpmrepro"), "--variant", self.c.variant, "--fix", "all", "--bytes", crash]
        res["repro"] = self.command(num, cmd)
        if res["by"] == "TIMEOUT":
            res["reproduced"] = None
            return
        log = mdir / "dpmrepro.log"
        log.write_text("")
        rc, _, timed_out = self.run(cmd + ["--tail", "40"], log, env=self.env(num, True), timeout=300)
        k = killer(log.read_text(errors="replace"))
        res["reproduced"] = bool(not timed_out and rc != 0 and k and k[0] == res["by"])

    # -- check ------------------------------------------------------------

    def check(self, build, num, mdir):
        """dpmcheck at N <= check_devices, every knob on: None when clean."""
        out = mdir / "check"
        shutil.rmtree(out, ignore_errors=True)
        log = mdir / "check.log"
        log.write_text("")
        cmd = [build.bin("dpmcheck"), "--variant", self.c.variant, "--fix", "all", "-n",
               str(self.c.check_devices), "--json", "-q", "-o", out]
        rc, secs, timed_out = self.run(cmd, log, env=self.env(num), timeout=self.c.check_timeout)
        text = log.read_text(errors="replace")
        if timed_out:
            return {"status": "timed-out", "by": "TIMEOUT", "stage": "check", "check_seconds": round(secs, 1),
                    "message": f"dpmcheck -n {self.c.check_devices} outlived {self.c.check_timeout} s"}
        found = {}
        for line in text.splitlines():
            if line.startswith("{"):
                try:
                    found = json.loads(line).get("smallest", {})
                except ValueError:
                    pass
        k = killer(text)
        if rc == 0 or rc == 3 and not found and not k:
            # 3 without a find: not exhaustive (the mutant made some runs
            # replay differently, "nondet"); nothing was found.
            return None
        if found:
            inv = sorted(found)[0]
            what = found[inv] if isinstance(found[inv], dict) else {}
            by, msg = inv, f"dpmcheck -n {self.c.check_devices}: the smallest scenario has {what.get('devices', '?')} device(s)"
        elif k:
            by, msg = k
        else:
            by, msg = "CRASH", f"dpmcheck exit {rc}"
        files = sorted(out.glob("*.scenario")) if out.exists() else []
        res = {"status": "killed", "by": by, "stage": "check", "message": str(msg)[:300],
               "check_seconds": round(secs, 1), "reproduced": rc == 1,
               "repro": self.command(num, cmd[:-2] + ["-o", "DIR"])}
        files = [f for f in files if f.name.endswith(f"-{by}.scenario")] or files
        if files:
            res["input"] = str(files[0])
            res["repro"] = self.command(num, [build.bin("dpmrepro"), files[0]])
        return res

    # -- fuzz -------------------------------------------------------------

    def fuzz(self, build, num, mid, mdir):
        """T seconds of libFuzzer in fork mode from the corpus (which goes
        on after a crash); each input it saves runs with the mutant off,
        and the first that runs clean so kills it (the others are the
        harness's own findings, counted apart).  None when it survives."""
        c = self.c
        art = mdir / "artifacts"
        scratch = mdir / "fuzz-corpus"
        for d in (art, scratch):
            shutil.rmtree(d, ignore_errors=True)
            d.mkdir(parents=True)
        target = build.bin(c.target)
        seed = 1 + zlib.crc32(mid.encode()) % (1 << 30)
        cmd = [target, "-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1",
               f"-artifact_prefix={art}/", "-rss_limit_mb=2048", f"-seed={seed}",
               f"-max_total_time={c.time}"] + c.fuzz_flags + [scratch, c.corpus]
        log = mdir / "fuzz.log"
        log.write_text("")
        seen, found, baseline = set(), [], []
        t0 = time.monotonic()

        def poll():
            for f in sorted(art.glob("*")):
                if f.name in seen or f.name.endswith(".tmp"):
                    continue
                seen.add(f.name)
                rc, _, timed_out = self.run([target] + SINGLE + [f], mdir / "orig.log", env=self.env(0),
                                            timeout=120)
                if rc == 0 and not timed_out:
                    found.append((f, time.monotonic() - t0))
                    return True
                baseline.append(f.name)
            return False
        self.run(cmd, log, env=self.env(num), timeout=c.time + SLACK, poll=poll)
        if not found:
            poll()
        res = {"fuzz_seconds": round(time.monotonic() - t0, 1)}
        if baseline:
            kept = []
            for name in baseline[:3]:
                shutil.copyfile(art / name, mdir / ("baseline-" + name))
                kept.append(str(mdir / ("baseline-" + name)))
            res.update(baseline_inputs=len(baseline), baseline_examples=kept)
        shutil.rmtree(scratch, ignore_errors=True)
        if not found:
            return None, res
        crash, when = found[0]
        kept = mdir / ("input-" + crash.name)
        shutil.copyfile(crash, kept)
        klog = mdir / "kill.log"
        klog.write_text("")
        self.run([target] + SINGLE + [kept], klog, env=self.env(num, True), timeout=120)
        by, msg = killer(klog.read_text(errors="replace")) or ("CRASH", "a crash in fork mode")
        res.update(status="timed-out" if by == "TIMEOUT" else "killed", by=by, message=msg[:300],
                   stage="fuzz", input=str(kept), fuzz_seconds=round(when, 1))
        self.reproduce(build, num, kept, mdir, res)
        return res, res

    # -- tsan -------------------------------------------------------------

    def tsan_command(self, build, out):
        c = self.c
        return [build.bin("dpmstress"), "--variant", c.variant, "--engine", "threads",
                "--fix", "all", "--iterations", str(c.tsan_iterations), "--seed", "1",
                "--search", "0", "--out", out]

    def tsan_env(self, num):
        return dict(self.env(num), TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 "
                    + os.environ.get("TSAN_OPTIONS", ""))

    def signatures(self, build, text, main_text):
        lines = main_text.decode("utf-8", "replace").splitlines()
        return {race_signature(a, lines) for a in tsan_reports(text, build.main())}

    def tsan_baseline(self, build):
        """The races the unmutated code shows with the same command (three
        runs), as (function, line text) pairs."""
        with self.tsan_lock:
            if self.tsan_base is None:
                sigs = set()
                d = self.c.out / "tsan-baseline"
                d.mkdir(parents=True, exist_ok=True)
                for i in range(3):
                    log = d / f"run-{i}.log"
                    log.write_text("")
                    self.run(self.tsan_command(build, d / "out"), log, env=self.tsan_env(0), timeout=1800)
                    sigs |= self.signatures(build, log.read_text(errors="replace"), self.c.source_text)
                self.tsan_base = sigs
            return self.tsan_base

    def tsan(self, build, num, rec, text, mdir):
        """None when it survives."""
        base = self.tsan_baseline(build)
        log = mdir / "tsan.log"
        log.write_text("")
        out = mdir / "tsan-out"
        out.mkdir(exist_ok=True)
        cmd = self.tsan_command(build, out)
        rc, secs, timed_out = self.run(cmd, log, env=self.tsan_env(num), timeout=1800)
        out_text = log.read_text(errors="replace")
        repro = self.command(num, cmd)
        k = killer(out_text)
        res = {"tsan_seconds": round(secs, 1), "stage": "tsan", "repro": repro, "reproduced": None}
        if timed_out or rc == 3 or k:
            by, msg = ("LIVENESS", "the threads watchdog ended a run") if rc == 3 or timed_out else k
            res.update(status="killed", by=by, message=msg[:300])
            return res
        changed = set(rec["changed_lines"])
        lines = text.decode("utf-8", "replace").splitlines()
        reports = tsan_reports(out_text, build.main())
        for accesses in reports:
            sig = race_signature(accesses, lines)
            if sig in base or not any(ln in changed for _, ln in accesses):
                continue
            where = ", ".join(f"{fn}() main.c:{ln}" for fn, ln in accesses)
            res.update(status="killed", by="TSAN data race",
                       message=f"a data race the unmutated code does not show: {where}")
            return res
        return None


SINGLE = ["-timeout=60", "-rss_limit_mb=2048", "-runs=1"]
