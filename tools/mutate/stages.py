# SPDX-License-Identifier: GPL-2.0-only
"""One mutant, stage by stage, in a worker's own tree and build
directories (docs/mutation.md, "How a mutant runs"):

  tce     main.c compiled at -O2 without sanitizers; the same code as the
          original's (objdump of every section, relocations by symbol):
          equivalent.  A compile error: did not build.
  build   the worker's build directory (configured once with the
          worker's tree as its only kernel tree) is reconfigured (main.c's
          hash) and rebuilds the fuzz target: main.c's object and links.
  fuzz    the fuzz target with every knob on, from the shipped corpus,
          for T seconds (T = 0: the corpus only); a violation, a sanitizer
          report, a kapi misuse or a timeout kills the mutant when the
          unmutated tree runs the same input clean, and dpmrepro (built in
          the same directory) replays it.
  tsan    a race operator's survivor: dpmstress on real threads under
          ThreadSanitizer; a violation, the watchdog, or a data race the
          unmutated tree does not show on a line the mutant changed.

Workers never write into the user's tree, and every process they start
runs in its own process group, which stop() ends.
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


def copy_tree_files(src, dst, link_from=None):
    """The files of TREE_FILES from src into dst (a file already there
    with the same bytes is left alone: the build goes by its time); hard
    links to link_from's copies for the files the mutants share when it is
    given."""
    for f in TREE_FILES:
        d = Path(dst) / f
        d.parent.mkdir(parents=True, exist_ok=True)
        data = (Path(src) / f).read_bytes()
        if d.exists() and d.read_bytes() == data:
            continue
        d.unlink(missing_ok=True)
        if link_from and f != MAIN:
            try:
                os.link(Path(link_from) / f, d)
                continue
            except OSError:
                pass
        write_if_changed(d, data)


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
    the same race whatever the line numbers of the file it came from."""
    return tuple(sorted((fn, lines[ln - 1].strip() if 0 < ln <= len(lines) else "?")
                        for fn, ln in accesses))


class Worker:
    """A worker: its tree (the files the build reads, main.c replaced by
    each mutant's), its build directories, its logs."""

    def __init__(self, n, camp):
        self.n = n
        self.c = camp
        self.dir = camp.out / "workers" / str(n)
        self.tree = self.dir / "tree"
        self.main = self.tree / MAIN
        self.build = self.dir / ("build-" + camp.preset)
        self.tsan = self.dir / "build-tsan"
        self.log = self.dir / "worker.log"
        self.ready = False
        self.tsan_ready = False
        self.tce_flags = None
        self.tce_base = None
        self.tsan_base = None

    # -- set-up -----------------------------------------------------------

    def run(self, cmd, log=None, **kw):
        return self.c.procs.run(cmd, log or self.log, **kw)

    def configure(self, build, preset):
        """Configure build with preset and the worker's tree as the only
        kernel tree (again after main.c changed: its hash is configured)."""
        if (build / "CMakeCache.txt").exists():
            cmd = ["cmake", build]
        else:
            cmd = ["cmake", "--preset", preset, "-S", self.c.repo, "-B", build,
                   f"-DDPMFUZZ_KERNEL_TREES={self.tree}"]
        rc, _, _ = self.run(cmd, cwd=self.c.repo)
        return rc == 0

    def make(self, build, targets):
        rc, _, _ = self.run(["cmake", "--build", build, "-j", "1", "--target"] + targets)
        return rc == 0

    def setup(self):
        """The worker's tree with the original main.c, its build, the
        original's fuzz target kept aside (to run a killing input on the
        unmutated tree), and the original's -O2 object for TCE."""
        if self.ready:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        copy_tree_files(self.c.pristine, self.tree)
        write_if_changed(self.main, self.c.source_text)
        if not self.configure(self.build, self.c.preset) or \
                not self.make(self.build, [self.c.target, "dpmrepro"]):
            raise RuntimeError(f"worker {self.n}: the unmutated tree does not build ({self.log}):\n"
                               + tail(self.log))
        orig = self.dir / "orig"
        orig.mkdir(exist_ok=True)
        shutil.copy2(self.target_bin(), orig / self.c.target)
        self.tce_flags = self.tce_command()
        ok, dump = self.tce_dump()
        if not ok:
            raise RuntimeError(f"worker {self.n}: the unmutated main.c does not compile for TCE:\n{dump}")
        self.tce_base = dump
        self.ready = True

    def target_bin(self):
        return self.build / "fuzzers" / self.c.target

    def compile_command(self, build):
        db = json.loads((build / "compile_commands.json").read_text())
        for e in db:
            if os.path.realpath(e["file"]) == os.path.realpath(self.main):
                return e
        raise RuntimeError(f"no compile command for {self.main} in {build}")

    def tce_command(self):
        """main.c's compile command as the build has it, at -O2, without
        debug information, sanitizers or coverage."""
        e = self.compile_command(self.build)
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
            out.append(w)
        return out + ["-O2", "-g0", "-w", "-o", str(self.dir / "tce.o")], e["directory"]

    def tce_dump(self):
        cmd, cwd = self.tce_flags
        log = self.dir / "tce.log"
        log.write_text("")
        rc, _, _ = self.run(cmd, log=log, cwd=cwd)
        if rc:
            errs = [l for l in log.read_text(errors="replace").splitlines() if "error:" in l]
            return False, "\n".join(errs[:3]) or tail(log, 5)
        p = subprocess.run(["objdump", "-d", "-r", "-s", "-w", str(self.dir / "tce.o")],
                           capture_output=True, text=True)
        return True, "\n".join(l for l in p.stdout.splitlines()[2:])

    # -- one mutant -------------------------------------------------------

    def mutant(self, m, text, mdir):
        """Run mutant m (its main.c text; its directory mdir); returns the
        result fields for the state."""
        res = {"started": time.strftime("%Y-%m-%dT%H:%M:%S")}
        t0 = time.monotonic()
        try:
            write_if_changed(self.main, text)
            ok, dump = self.tce_dump()
            if not ok:
                res.update(status="did-not-build", by="compile error", message=dump)
                return res
            if dump == self.tce_base:
                res.update(status="equivalent", by="TCE",
                           message="the same -O2 object code as the unmutated main.c")
                return res
            if not self.configure(self.build, self.c.preset) or not self.make(self.build, [self.c.target]):
                res.update(status="did-not-build", by="build", message=tail(self.log, 5))
                return res
            self.fuzz(m, mdir, res)
            if res["status"] == "survived" and m["race"] and self.c.tsan_iterations:
                self.tsan_stage(m, mdir, text, res)
            return res
        finally:
            res["seconds"] = round(time.monotonic() - t0, 1)

    def fuzz(self, m, mdir, res):
        """The corpus, then T seconds of fuzzing; res gets the outcome."""
        c = self.c
        art = self.dir / "artifacts"
        shutil.rmtree(art, ignore_errors=True)
        art.mkdir(parents=True)
        log = mdir / "fuzz.log"
        t0 = time.monotonic()
        # The corpus: every input once; the first that fails stops it.
        if c.libfuzzer:
            cmd = [self.target_bin(), f"-artifact_prefix={art}/", "-rss_limit_mb=2048", "-runs=0"] \
                + c.fuzz_flags + [c.corpus]
        else:
            cmd = [self.target_bin(), c.corpus]
        rc, secs, timed_out = self.run(cmd, log=log, env=self.env(), timeout=SLACK)
        res["fuzz_seconds"] = round(secs, 1)
        text = log.read_text(errors="replace")
        if timed_out:
            res.update(status="timed-out", by="TIMEOUT", stage="corpus",
                       message=f"the corpus run outlived {SLACK} s")
            return
        k = killer(text)
        if rc or k:
            crash = self.artifact(art, text)
            self.judge(crash, k or ("CRASH", f"exit {rc}"), "corpus", mdir, res)
            return
        if not c.libfuzzer or c.time == 0:
            res.update(status="survived")
            return
        self.fuzz_fork(m, mdir, res, t0)

    def env(self, symbolize=False):
        """The fuzz target's environment: every knob on; stacks are not
        symbolised while fuzzing (the report's ID and the sanitizer's
        first line say what killed), only in the kill's own run."""
        env = dict(os.environ, DPMFUZZ_FIX="all", TMPDIR=str(self.dir))
        if not symbolize:
            env["ASAN_OPTIONS"] = "symbolize=0:" + os.environ.get("ASAN_OPTIONS", "")
        return env

    def fuzz_fork(self, m, mdir, res, t0):
        """T seconds of libFuzzer in fork mode, which goes on after a
        crash: each input it saves runs on the unmutated tree at once, and
        the first that runs clean there kills the mutant (the others are
        the harness's own findings, counted apart)."""
        c = self.c
        art = self.dir / "artifacts"
        shutil.rmtree(art, ignore_errors=True)
        art.mkdir(parents=True)
        scratch = self.dir / "corpus"
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir()
        seed = 1 + zlib.crc32(m["id"].encode()) % (1 << 30)
        cmd = [self.target_bin(), "-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1",
               f"-artifact_prefix={art}/", "-rss_limit_mb=2048", f"-seed={seed}",
               f"-max_total_time={c.time}"] + c.fuzz_flags + [scratch, c.corpus]
        log = mdir / "fuzz.log"
        seen, found, baseline = set(), [], []

        def poll():
            for f in sorted(art.glob("*")):
                if f.name in seen or f.name.endswith(".tmp"):
                    continue
                seen.add(f.name)
                if self.clean_on_orig(f, mdir):
                    found.append((f, time.monotonic() - t0))
                    return True
                baseline.append(f.name)
            return False
        rc, secs, timed_out = self.run(cmd, log=log, env=self.env(), timeout=c.time + SLACK, poll=poll)
        if not found:
            poll()
        res["fuzz_seconds"] = round(time.monotonic() - t0, 1)
        if baseline:
            kept = []
            for name in baseline[:3]:
                shutil.copyfile(art / name, mdir / ("baseline-" + name))
                kept.append(str(mdir / ("baseline-" + name)))
            res.update(baseline_inputs=len(baseline), baseline_examples=kept)
        if not found:
            res.update(status="survived")
            return
        crash, when = found[0]
        # The mutant's own report of the input (fork mode keeps it in a
        # job's log): one more run.
        klog = mdir / "kill.log"
        self.run([self.target_bin()] + self.single_flags() + [crash], log=klog, env=self.env(True),
                 timeout=120)
        k = killer(klog.read_text(errors="replace")) or ("CRASH", "a crash in fork mode")
        self.judge(crash, k, "fuzz", mdir, res, checked=True)
        res["fuzz_seconds"] = round(when, 1)

    def clean_on_orig(self, f, mdir):
        rc, _, timed_out = self.run([self.dir / "orig" / self.c.target] + self.single_flags() + [f],
                                    log=mdir / "orig.log", env=self.env(), timeout=120)
        return rc == 0 and not timed_out

    def judge(self, crash, k, stage, mdir, res, checked=False):
        """A failing input: the mutant's, if the unmutated tree runs it
        clean; then dpmrepro replays it."""
        by, msg = k
        res.update(by=by, message=msg[:300], stage=stage)
        if crash is None:
            res.update(status="killed", reproduced=False, note="no input was saved")
            return
        kept = mdir / ("input-" + crash.name)
        shutil.copyfile(crash, kept)
        res["input"] = str(kept)
        if not checked and not self.clean_on_orig(kept, mdir):
            res.update(status="baseline-fails",
                       message=f"the unmutated tree fails on this input too ({mdir / 'orig.log'})")
            return
        res["status"] = "timed-out" if by == "TIMEOUT" else "killed"
        self.reproduce(kept, mdir, res)

    def single_flags(self):
        return ["-timeout=60", "-rss_limit_mb=2048", "-runs=1"] if self.c.libfuzzer else []

    def artifact(self, art, text):
        """The input that failed: libFuzzer's artifact, or the replay
        driver's last 'Running:' input."""
        files = sorted(art.glob("*"))
        if files:
            return files[0]
        runs = re.findall(r"^Running: (.*)$", text, re.M)
        return Path(runs[-1]) if runs else None

    def reproduce(self, crash, mdir, res):
        """dpmrepro, built in the same directory, replays the input: the
        same invariant (or sanitizer report)."""
        c = self.c
        cmd = ["dpmrepro", "--variant", c.variant, "--fix", "all", "--bytes", str(crash)]
        res["repro"] = (f"cmake --preset {c.preset} -B BUILD -DDPMFUZZ_KERNEL_TREES={mdir / 'tree'} && "
                        f"cmake --build BUILD --target dpmrepro && BUILD/tools/"
                        + " ".join(shlex.quote(w) for w in cmd))
        if res["by"] == "TIMEOUT":
            res["reproduced"] = None
            return
        if not self.make(self.build, ["dpmrepro"]):
            res["reproduced"] = False
            return
        log = mdir / "dpmrepro.log"
        rc, _, timed_out = self.run([self.build / "tools" / "dpmrepro"] + cmd[1:] + ["--tail", "40"],
                                    log=log, timeout=300)
        k = killer(log.read_text(errors="replace"))
        res["reproduced"] = bool(not timed_out and rc != 0 and k and k[0] == res["by"])

    # -- ThreadSanitizer --------------------------------------------------

    def tsan_command(self, out):
        c = self.c
        return [self.tsan / "stress" / "dpmstress", "--variant", c.variant, "--engine", "threads",
                "--fix", "all", "--iterations", str(c.tsan_iterations), "--seed", "1",
                "--search", "0", "--out", out]

    def tsan_env(self):
        return dict(os.environ, TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1 "
                    + os.environ.get("TSAN_OPTIONS", ""))

    def tsan_build(self):
        return self.configure(self.tsan, "tsan") and self.make(self.tsan, ["dpmstress"])

    def tsan_baseline(self):
        """The races the unmutated tree shows with the same command (three
        runs), as (function, line text) pairs."""
        if self.tsan_base is not None:
            return self.tsan_base
        write_if_changed(self.main, self.c.source_text)
        if not self.tsan_build():
            raise RuntimeError(f"worker {self.n}: the tsan build failed ({self.log})")
        sigs = set()
        for i in range(3):
            log = self.dir / f"tsan-baseline-{i}.log"
            log.write_text("")
            self.run(self.tsan_command(self.dir / "tsan-out"), log=log, env=self.tsan_env(),
                     timeout=1800)
            sigs |= self.signatures(log.read_text(errors="replace"), self.c.source_text)
        self.tsan_base = sigs
        return sigs

    def signatures(self, text, main_text):
        lines = main_text.decode("utf-8", "replace").splitlines()
        return {race_signature(a, lines) for a in tsan_reports(text, os.path.realpath(self.main))}

    def tsan_stage(self, m, mdir, text, res):
        base = self.tsan_baseline()
        write_if_changed(self.main, text)
        if not self.tsan_build():
            res.update(status="did-not-build", by="tsan build", message=tail(self.log, 5))
            return
        log = mdir / "tsan.log"
        out = mdir / "tsan-out"
        out.mkdir(exist_ok=True)
        cmd = self.tsan_command(out)
        rc, secs, timed_out = self.run(cmd, log=log, env=self.tsan_env(), timeout=1800)
        res["tsan_seconds"] = round(secs, 1)
        out_text = log.read_text(errors="replace")
        repro = (f"cmake --preset tsan -B BUILD -DDPMFUZZ_KERNEL_TREES={mdir / 'tree'} && "
                 f"cmake --build BUILD --target dpmstress && BUILD/stress/"
                 + " ".join(shlex.quote(str(w)) for w in cmd[1:]))
        k = killer(out_text)
        if timed_out or rc == 3 or k:
            by, msg = ("LIVENESS", "the threads watchdog ended a run") if rc == 3 or timed_out \
                else k
            res.update(status="killed", by=by, message=msg[:300], stage="tsan", repro=repro,
                       reproduced=None)
            return
        changed = set(m["changed_lines"])
        lines = text.decode("utf-8", "replace").splitlines()
        reports = tsan_reports(out_text, os.path.realpath(self.main))
        res["tsan_races"] = len(reports)
        for accesses in reports:
            sig = race_signature(accesses, lines)
            if sig in base or not any(ln in changed for _, ln in accesses):
                continue
            where = ", ".join(f"{fn}() main.c:{ln}" for fn, ln in accesses)
            res.update(status="killed", by="TSAN data race", stage="tsan", repro=repro,
                       message=f"a data race the unmutated tree does not show: {where}",
                       reproduced=None)
            return
