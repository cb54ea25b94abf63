# SPDX-License-Identifier: GPL-2.0-only
"""Scenarios on a real kernel: the test module (vm/module) in a Debian
guest kernel (scripts/vm-images) under QEMU.

run() builds the module for the guest kernel (module_for()) and an
initramfs of busybox, vm/init, the module and one shell file per
scenario, and boots it.  vm/init runs the scenarios one after the other
and prints what each did between DPMVM-* marker lines on the serial
console, which is read here as it comes.  A scenario that hangs is
reported by the module's watchdog (DPMVM-HANG: the blocked tasks' stacks
and the record on the console), or, if that does not come, by the host,
which types SysRq-w through QEMU's monitor.  Either way QEMU is killed and
a new boot runs the scenarios that are left.

  python3 -m tools.vm.guest --release-dir DIR --release R --args ARGS... -o WORKDIR
"""
import codecs
import hashlib
import math
import os
import queue
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_SRC = ROOT / "vm" / "module"
MODULE_FILES = ("dpmvm.c", "Kbuild")
INIT = ROOT / "vm" / "init"
BUSYBOX = "/bin/busybox"

# The guest's command line: the console on the serial port, kept during
# the transition; a log buffer for a whole scenario; pm_test levels
# without their 5 s pause; a panic powers off (-no-reboot); SysRq-w for
# the module's hang report; only warnings and worse on the console (the
# rest is read with dmesg after the scenario).
APPEND = ("console=ttyS0 no_console_suspend log_buf_len=16M suspend.pm_test_delay=0 "
          "panic=-1 sysrq_always_enabled loglevel=4")

BOOT_SILENCE = 60    # seconds without output before the first START: the boot is stuck
HANG_GRACE = 15      # seconds past the timeout before the host declares the hang itself
SYSRQ_WAIT = 3       # seconds of console kept after the host's SysRq-w
REPORT_SILENCE = 15  # seconds without output in the middle of the module's hang report
EXIT_WAIT = 10       # seconds for QEMU to exit after DPMVM-DONE

# busybox prints a failed write as "sh: write error: TEXT", TEXT the C
# library's strerror(); vm/init passes TEXT on in its DPMVM-RC line.
ERRNO_BY_TEXT = {os.strerror(e): e for e in range(1, 134)}

# The console's texts an Outcome keeps.
PARTS = ("record", "dmesg", "ftrace", "stacks")

# vm/init's dump sections: the marker that opens one, its closing marker
# and the Outcome field it fills.
SECTIONS = {"DPMVM-RECORD-BEGIN": ("DPMVM-RECORD-END", "record"),
            "DPMVM-DMESG-BEGIN": ("DPMVM-DMESG-END", "dmesg"),
            "DPMVM-TRACE-BEGIN": ("DPMVM-TRACE-END", "ftrace")}


class GuestError(Exception):
    """Something the scenarios cannot be blamed for: the module does not
    build, the image is incomplete, the guest does not boot."""


@dataclass
class Item:
    """One scenario to run."""
    name: str           # for the caller; the console's markers use the item's index
    args: str           # the module's parameters, e.g. "dev=a,b:parent=a err=b:suspend:-5"
    mode: str = "freeze"
    pm_test: str = "platform"
    pm_async: int = 1
    cycles: int = 1


@dataclass
class Outcome:
    item: Item
    status: str         # 'done', 'hung', 'insmod-failed', or 'lost' (QEMU died or the
                        # console ended without the scenario's end, not a hang)
    rcs: list[int]      # per transition: 0, or the errno its write to /sys/power/state
                        # failed with (-1 for a message that is no strerror() text)
    record: str         # the module's record, one event a line
    dmesg: str
    ftrace: str
    stacks: str         # after a hang: the blocked tasks' stacks (SysRq-w), else ''
    seconds: float      # from the scenario's start to its end, or to the hang report


def module_for(release_dir: str, release: str, cache: str) -> str:
    """Build vm/module for that release into a cache dir keyed by a hash of
    dpmvm.c+Kbuild and the release (reuse when present); return the .ko
    path.  Raise GuestError with a one-line message if the build fails."""
    key = hashlib.sha256(release.encode())
    for name in MODULE_FILES:
        key.update(b"\0" + name.encode() + b"\0" + (MODULE_SRC / name).read_bytes())
    out = Path(cache) / f"{release}-{key.hexdigest()[:16]}"
    ko = out / "dpmvm.ko"
    if ko.is_file():
        return str(ko)
    headers = Path(release_dir) / "root" / "usr" / "src" / f"linux-headers-{release}"
    if not (headers / "Makefile").is_file():
        raise GuestError(f"no headers to build the module for {release} in {headers}")
    out.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix="build-", dir=out))
    try:
        for name in MODULE_FILES:
            shutil.copy(MODULE_SRC / name, build / name)
        p = subprocess.run(["make", "-C", str(headers), f"M={build}",
                            "CONFIG_DEBUG_INFO_BTF_MODULES=", "modules"],
                           capture_output=True, text=True)
        if p.returncode or not (build / "dpmvm.ko").is_file():
            lines = [x.strip() for x in (p.stderr + p.stdout).splitlines() if x.strip()]
            why = next((x for x in lines if "error" in x.lower()),
                       lines[-1] if lines else f"make exited with {p.returncode}")
            raise GuestError(f"the module does not build for {release}: {why}")
        # A rename, so that a reader never finds half a module.
        os.replace(build / "dpmvm.ko", ko)
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return str(ko)


def _initramfs(root: Path, out: Path, ko: str, scenarios: list[tuple[str, Item]],
               watchdog: int) -> None:
    """Write the initramfs for one boot to out: busybox, vm/init, the module,
    /dev/console and scenarios/NN.sh for each (NN, item)."""
    shutil.rmtree(root, ignore_errors=True)
    for d in ("bin", "dev", "scenarios"):
        (root / d).mkdir(parents=True)
    shutil.copy(BUSYBOX, root / "bin" / "busybox")
    shutil.copy(INIT, root / "init")
    os.chmod(root / "init", 0o755)
    shutil.copy(ko, root / "dpmvm.ko")
    # The console /init opens before it has mounted devtmpfs.
    os.mknod(root / "dev" / "console", stat.S_IFCHR | 0o600, os.makedev(5, 1))
    for nn, it in scenarios:
        (root / "scenarios" / f"{nn}.sh").write_text(
            f'ARGS={shlex.quote(f"{it.args} watchdog={watchdog}")}\n'
            f"MODE={shlex.quote(it.mode)}\n"
            f"PMTEST={shlex.quote(it.pm_test)}\n"
            f"PM_ASYNC={int(it.pm_async)}\n"
            f"CYCLES={int(it.cycles)}\n")
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    with open(out, "wb") as f:
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, check=True,
                       input="\n".join(["."] + names).encode() + b"\n", stdout=f)


def _sysrq(monitor: str, keys: str) -> None:
    """Type Alt-SysRq-KEY on the guest's keyboard for each key, through
    QEMU's monitor."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(2)
        s.connect(monitor)
        for k in keys:
            s.sendall(f"sendkey alt-sysrq-{k}\n".encode())
            time.sleep(0.2)


@dataclass
class _Running:
    """What the console has said so far about the scenario under way."""
    idx: int
    nn: str
    start: float
    status: str = "done"
    rcs: list[int] = field(default_factory=list)
    parts: dict = field(default_factory=lambda: {k: [] for k in PARTS})  # lines of each
    hang_t: float | None = None     # when the hang was reported


class _Boot:
    """One QEMU boot: runs it, reads its console as it comes, and turns
    what vm/init and the module print into the outcomes of the scenarios
    that started."""

    def __init__(self, cmd: list[str], console: Path, monitor: str, items: list[Item],
                 ids: dict[str, int], timeout: float, say):
        self.cmd, self.console_path, self.monitor = cmd, console, monitor
        self.items, self.ids, self.timeout, self.say = items, ids, timeout, say
        self.outcomes: dict[int, Outcome] = {}
        self.boot_seconds: float | None = None  # QEMU's start to DPMVM-INIT
        self.cur: _Running | None = None
        self.section: str | None = None  # a dump, 'hang' (the module's report) or 'sysrq'
        self.closing = ""                # the marker that closes the dump under way
        self.sysrq_t = 0.0
        self.last_end: float | None = None  # the last scenario's END, or None before any
        self.done_t: float | None = None
        self.stop: str | None = None  # why the boot is over, when it is
        self.t0 = self.last_output = 0.0

    def run(self) -> None:
        chunks: queue.Queue = queue.Queue()
        self.t0 = self.last_output = time.monotonic()
        try:
            proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        except OSError as e:
            raise GuestError(f"cannot start QEMU: {e}") from None

        def read():
            while chunk := os.read(proc.stdout.fileno(), 65536):
                chunks.put(chunk)
            chunks.put(None)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        partial = ""
        with open(self.console_path, "w", encoding="utf-8") as console:
            while self.stop is None:
                try:
                    chunk = chunks.get(timeout=0.25)
                except queue.Empty:
                    chunk = b""
                now = time.monotonic()
                if chunk is None:       # QEMU has exited
                    if partial:
                        self._line(partial, now)
                    if self.stop is None:
                        self._eof(now, proc.wait())
                    break
                if chunk:
                    self.last_output = now
                    text = decoder.decode(chunk).replace("\r", "")
                    console.write(text)
                    console.flush()
                    *lines, partial = (partial + text).split("\n")
                    for line in lines:
                        self._line(line, now)
                        if self.stop:
                            break
                self._tick(now)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join()       # the pipe's end, now that QEMU is gone
        proc.stdout.close()

    def _finish(self, status: str, now: float) -> None:
        c = self.cur
        end = c.hang_t if status == "hung" else now

        texts = {k: "".join(x + "\n" for x in c.parts[k]) for k in PARTS}
        self.outcomes[c.idx] = Outcome(self.items[c.idx], status, c.rcs, **texts,
                                       seconds=round(end - c.start, 2))
        self.say(f"{c.nn} ({self.items[c.idx].name}): {status} in {end - c.start:.2f} s")
        self.cur = None
        self.section = None
        self.last_end = now

    def _line(self, raw: str, now: float) -> None:
        """One console line.  In a dump, every line but the closing marker
        is the dump's.  Elsewhere a marker need not start the line: the
        module's follow the kernel's time stamp, and the first one
        follows the firmware's escape sequences."""
        c, sec = self.cur, self.section
        if sec in ("record", "dmesg", "ftrace"):
            if raw == f"{self.closing} {c.nn}":
                self.section = None
            else:
                c.parts[sec].append(raw)
            return
        word, _, rest = raw[max(raw.find("DPMVM-"), 0):].partition(" ")
        if sec in ("hang", "sysrq"):
            if word == "DPMVM-HANG-END":
                self._finish("hung", now)
                self.stop = "hang reported"
            elif word == "DPMVM-REC":
                c.parts["record"].append(rest)
            elif word == "DPMVM-HANG":     # the watchdog after the host's SysRq-w
                self.section = "hang"
            else:
                c.parts["stacks"].append(raw)
        elif word == "DPMVM-INIT":
            self.boot_seconds = now - self.t0
        elif word == "DPMVM-DONE":
            self.done_t = now
        elif word == "DPMVM-START" and rest in self.ids:
            self.cur = _Running(self.ids[rest], rest, now)
        elif c is None:
            pass                            # the kernel's messages between scenarios
        elif word == "DPMVM-HANG":
            self.section = "hang"
            c.hang_t = now
        elif word == "DPMVM-INSMOD-FAILED":
            c.status = "insmod-failed"
        elif word == "DPMVM-RC":
            text = rest.split(" ", 2)[-1]
            c.rcs.append(0 if text == "ok" else ERRNO_BY_TEXT.get(text, -1))
        elif word in SECTIONS and rest == c.nn:
            self.closing, self.section = SECTIONS[word]
        elif word == "DPMVM-RMMOD-FAILED":
            self.say(f"{c.nn}: rmmod failed")
        elif word == "DPMVM-END" and rest == c.nn:
            self._finish(c.status, now)

    def _tick(self, now: float) -> None:
        """The host's time limits, checked whenever the console is quiet
        for a moment or says something."""
        c = self.cur
        if self.stop:
            return
        if c is None:
            if self.done_t is not None:
                if now - self.done_t > EXIT_WAIT:
                    self.stop = "QEMU did not exit after DPMVM-DONE"
            elif self.last_end is None:
                if now - self.last_output > BOOT_SILENCE:
                    self.stop = f"no output for {BOOT_SILENCE} s before the first scenario"
            elif now - self.last_end > self.timeout + HANG_GRACE:
                self.stop = f"no scenario started {self.timeout + HANG_GRACE:.0f} s after the last"
        elif self.section == "hang":
            if now - self.last_output > REPORT_SILENCE:
                self._finish("hung", now)
                self.stop = "the hang report stopped half-way"
        elif self.section == "sysrq":
            if now - self.sysrq_t > SYSRQ_WAIT:
                self._finish("hung", now)
                self.stop = "hang found by the host"
        elif now - c.start > self.timeout + HANG_GRACE:
            # The module's watchdog has not spoken: ask for the stacks
            # (at loglevel 9, since they are info messages) and keep
            # what comes for a while.
            self.say(f"{c.nn}: no end after {now - c.start:.0f} s, no hang report: SysRq-w")
            c.hang_t = self.sysrq_t = now
            self.section = "sysrq"
            try:
                _sysrq(self.monitor, "9w")
            except OSError as e:
                self.say(f"{c.nn}: SysRq through the monitor failed: {e}")

    def _eof(self, now: float, rc: int) -> None:
        if self.cur is not None:
            self._finish("hung" if self.section in ("hang", "sysrq") else "lost", now)
        self.stop = f"QEMU exited ({rc})"


def run(release_dir: str, release: str, items: list[Item], timeout: float, workdir: str,
        log=None) -> tuple[list[Outcome], dict]:
    """Run every item, as many as possible per boot.  timeout: seconds a
    scenario may take (from its START marker) before it is a hang.  The
    module gets watchdog=max(1, timeout-1) so the guest reports the hang
    itself (the watchdog counts from the transition's begin mark, just
    after the START, and fires up to an eighth late: its timer is rounded
    up to the timer wheel's granularity); the host takes SysRq-w itself
    and kills QEMU if no END nor hang report comes timeout+15 s after the
    START.  After a hang (or 'lost'), QEMU is killed and a new boot
    runs the remaining items.  Returns the outcomes in item order and
    stats {'boots': n, 'boot_seconds': [time from QEMU start to
    DPMVM-INIT line, per boot], 'wall': total, the module's build left
    out}.  Keeps the raw console of
    each boot in workdir/console-N.txt.  log: called with a line of text
    on each boot and scenario."""
    t_start = time.monotonic()
    say = log or (lambda msg: None)
    work = Path(workdir)
    work.mkdir(parents=True, exist_ok=True)
    kernel = Path(release_dir) / "root" / "boot" / f"vmlinuz-{release}"
    if not kernel.is_file():
        raise GuestError(f"no kernel image {kernel}")
    # Beside the image in the cache, which scripts/vm-images replaces as a whole.
    ko = module_for(release_dir, release, str(Path(release_dir) / "dpmvm-ko"))
    t_start = time.monotonic()     # the guest's time, not the module's build
    width = max(2, len(str(len(items))))
    nns = [f"{i + 1:0{width}d}" for i in range(len(items))]
    ids = {nn: i for i, nn in enumerate(nns)}
    # A second less than the timeout leaves the time of insmod.
    watchdog = max(1, math.floor(timeout) - 1)
    accel = "kvm" if os.access("/dev/kvm", os.R_OK | os.W_OK) else "tcg"
    outcomes: list[Outcome | None] = [None] * len(items)
    stats = {"boots": 0, "boot_seconds": []}
    todo = list(range(len(items)))
    # A unix socket's path is short: the monitor's lives in /tmp.
    with tempfile.TemporaryDirectory(prefix="dpmvm-") as sockdir:
        while todo:
            stats["boots"] += 1
            n = stats["boots"]
            initrd = work / "initrd.cpio"
            try:
                _initramfs(work / "initramfs", initrd, ko,
                           [(nns[i], items[i]) for i in todo], watchdog)
            except (OSError, subprocess.CalledProcessError) as e:
                raise GuestError(f"cannot build the initramfs: {e}") from None
            monitor = os.path.join(sockdir, f"monitor-{n}")
            cmd = ["qemu-system-x86_64", "-nographic", "-accel", accel, "-m", "1024",
                   "-smp", "2", "-no-reboot", "-kernel", str(kernel), "-initrd", str(initrd),
                   "-append", APPEND, "-monitor", f"unix:{monitor},server,nowait"]
            say(f"boot {n}: {len(todo)} scenarios from {nns[todo[0]]} on {release} ({accel})")
            boot = _Boot(cmd, work / f"console-{n}.txt", monitor, items, ids, timeout, say)
            boot.run()
            say(f"boot {n}: over: {boot.stop}")
            if boot.boot_seconds is None and n == 1:
                raise GuestError(f"{release} did not reach /init ({boot.stop}): "
                                 f"see {work}/console-1.txt")
            if boot.boot_seconds is not None:
                stats["boot_seconds"].append(round(boot.boot_seconds, 2))
            for i, out in boot.outcomes.items():
                outcomes[i] = out
            if not boot.outcomes:
                # Nothing started: a new boot would do no better.
                for i in todo:
                    outcomes[i] = Outcome(items[i], "lost", [], "", "", "", "", 0.0)
            todo = [i for i in todo if outcomes[i] is None]
    stats["wall"] = round(time.monotonic() - t_start, 2)
    return outcomes, stats


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT / "scripts" / "lib"))
    from cli import Cli

    options = [
        (None, "release-dir", "DIR", "the image's directory (scripts/vm-images --installed)"),
        (None, "release", "RELEASE", "its kernel release"),
        (None, "args", "ARGS", "one scenario: the module's parameters (repeat for more)"),
        (None, "mode", "MODE", "freeze (default) or mem, for every scenario"),
        (None, "pm-test", "LEVEL", "/sys/power/pm_test for every scenario (default platform)"),
        (None, "pm-async", "0|1", "/sys/power/pm_async for every scenario (default 1)"),
        (None, "cycles", "N", "transitions per scenario (default 1)"),
        ("T", "timeout", "SECONDS", "seconds a scenario may take before it is a hang (default 60)"),
        ("o", "output", "DIR", "the work directory (default: a new one in /tmp); each "
         "outcome's record, dmesg, ftrace and stacks go to DIR/NN/"),
    ]
    cli = Cli("guest", "--release-dir DIR --release RELEASE --args ARGS... [OPTION]...",
              "Run test module scenarios in a guest kernel under QEMU; print each outcome.",
              options, "Exit: 0 every scenario ran (whatever its outcome); 1 the module, "
              "the image or the guest failed (one line on stderr); 2 bad usage.")
    rdir = release = out = None
    args, common, timeout = [], {}, 60.0
    for key, val in cli.parse(argv):
        match key:
            case "release-dir":
                rdir = val
            case "release":
                release = val
            case "args":
                args.append(val)
            case "mode":
                common["mode"] = val
            case "pm-test":
                common["pm_test"] = val
            case "pm-async" | "cycles":
                if not val.isdigit():
                    cli.fail(f"--{key} takes a number, not {val!r}")
                common[key.replace("-", "_")] = int(val)
            case "timeout":
                try:
                    timeout = float(val)
                except ValueError:
                    cli.fail(f"--timeout takes seconds, not {val!r}")
            case "output":
                out = val
            case _:
                cli.fail(f"unexpected argument '{val}'")
    if not (rdir and release and args):
        cli.fail("--release-dir, --release and at least one --args are needed")
    out = out or tempfile.mkdtemp(prefix="dpmvm-guest-")
    items = [Item(f"{i + 1:02d}", a, **common) for i, a in enumerate(args)]
    try:
        outcomes, stats = run(rdir, release, items, timeout, out,
                              log=lambda m: print(f"guest: {m}", file=sys.stderr, flush=True))
    except GuestError as e:
        print(f"guest: {e}", file=sys.stderr)
        return 1
    for o in outcomes:
        d = Path(out) / o.item.name
        d.mkdir(exist_ok=True)
        for k in PARTS:
            (d / f"{k}.txt").write_text(getattr(o, k))
        print(f"{o.item.name}: {o.status} rcs={o.rcs} record={o.record.count(chr(10))} lines "
              f"seconds={o.seconds:.2f}")
    print(f"boots={stats['boots']} boot_seconds={stats['boot_seconds']} wall={stats['wall']:.2f}"
          f" ({out})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
