#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""How every program ends when the world goes wrong (docs/robustness.md).

  robust_test.py BIN_DIR PROGRAM CASE

PROGRAM is dpmrepro, dpmstress or dpmimport; CASE one of
  sigint, sigterm  the signal while it runs (dpmimport: while it waits
                   for its capture, a FIFO): exit 130 / 143, one line
                   (dpmstress: its summary, marked interrupted), no
                   output file, no worker left (dpmstress --jobs 2)
  devfull          standard output is /dev/full: exit 2, one line
  unwritable       the output file's directory cannot be written (a
                   regular file stands in its path, so it holds for root
                   too): exit 2, one line, nothing created
  fulldisk         the disk fills while the output file is written
                   (RLIMIT_FSIZE, SIGXFSZ ignored: each write past the
                   limit fails, EFBIG, as ENOSPC would on a full disk): exit
                   2, one line, nothing left (the temporary file removed)
One line means: stderr holds exactly one line, printable ASCII.  Exit 0
the program kept its contract, 1 it did not (what is wrong on stderr).
"""
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time

DMESG = (
    "# suspend-061314-132459 box mem 3.15.0-latest\n"
    "[  550.850408] calling  7-0061+ @ 4122, parent: i2c-7\n"
    "[  550.850410] call 7-0061+ returned 0 after 1000 usecs\n"
    "[  550.850411] calling  usb1+ @ 77, parent: 0000:00:14.0\n"
    "[  550.850413] calling  i2c-7+ @ 4122, parent: none\n"
    "[  550.850414] call i2c-7+ returned 0 after 2000 usecs\n"
    "[  550.850415] call usb1+ returned -16 after 10 usecs\n"
    "[  551.000000] PM: suspend of devices complete after 150.000 msecs\n"
    "[  551.100000] calling  i2c-7+ @ 4122, parent: none\n"
    "[  551.100001] call i2c-7+ returned 0 after 3000 usecs\n"
    "[  551.200000] PM: resume of devices complete after 100.000 msecs\n")

errors = []


def check(cond, what):
    if not cond:
        errors.append(what)
    return cond


def star(path, n):
    """A star of n devices, half async, on modern with every fix on: clean,
    and each run long enough that a schedule search takes minutes."""
    rng = random.Random(1)
    with open(path, "w") as f:
        f.write("dpmfuzz-scenario 1\nvariant modern\nfix all\n")
        for i in range(n):
            attrs = " parent=d0" if i else ""
            if rng.randrange(2):
                attrs += " async"
            f.write(f"device d{i}{attrs}\n")


def fsize_limit(limit):
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def one_line(err, what):
    lines = err.splitlines()
    ok = check(len(lines) == 1, f"{what}: stderr has {len(lines)} lines, not one: {err!r}")
    if ok:
        check(all(32 <= ord(c) < 127 for c in lines[0]),
              f"{what}: stderr's line is not printable ASCII: {lines[0]!r}")
    return lines[0] if lines else ""


def left(d, keep):
    """Files in d but those in keep."""
    return sorted(set(os.listdir(d)) - set(keep))


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def run(cmd, stdout=subprocess.PIPE, preexec_fn=None, timeout=120):
    p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True,
                       errors="replace", preexec_fn=preexec_fn, timeout=timeout)
    return p.returncode, p.stdout or "", p.stderr


def signalled(cmd, sig, wait, tmp, keep, want_line, fifo=None):
    """cmd, sig after wait seconds; its exit, lines, files and workers."""
    status = 128 + sig
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, errors="replace")
    time.sleep(wait)
    if not check(p.poll() is None, f"it ended before the signal (exit {p.returncode})"):
        return
    kids = children(p.pid)
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        check(False, f"still running 30 s after {signal.Signals(sig).name}")
    check(p.returncode == status, f"exit {p.returncode}, not {status}")
    name = signal.Signals(sig).name
    if want_line == "summary":
        last = out.splitlines()[-1] if out.strip() else ""
        check(f"(interrupted by {name})" in last,
              f"the summary does not say it was interrupted: {last!r}")
        check(len(err.splitlines()) <= 1, f"stderr has more than one line: {err!r}")
    else:
        line = one_line(err, name)
        check(f"interrupted by {name}" in line, f"the line does not say {name}: {line!r}")
    time.sleep(0.3)
    for k in kids:
        check(not alive(k), f"worker {k} still running after the parent exited")
        if alive(k):
            os.kill(k, signal.SIGKILL)
    check(not left(tmp, keep), f"files left behind: {left(tmp, keep)}")
    if fifo:
        os.unlink(fifo)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    bindir, prog, case = sys.argv[1:]
    exe = {"dpmrepro": f"{bindir}/tools/dpmrepro",
           "dpmstress": f"{bindir}/stress/dpmstress",
           "dpmimport": f"{bindir}/tools/dpmimport"}[prog]
    tmp = tempfile.mkdtemp(prefix=f"robust-{prog}-{case}-")
    scn = os.path.join(tmp, "star.scenario")
    star(scn, 3000)
    small = os.path.join(tmp, "small.scenario")
    star(small, 40)
    dmesg = os.path.join(tmp, "dmesg.txt")
    with open(dmesg, "w") as f:
        f.write(DMESG)
    blocker = os.path.join(tmp, "afile")	# a file where a directory should be
    with open(blocker, "w") as f:
        f.write("x\n")
    keep = ["star.scenario", "small.scenario", "dmesg.txt", "afile"]
    out = os.path.join(tmp, "out")

    if case in ("sigint", "sigterm"):
        sig = signal.SIGINT if case == "sigint" else signal.SIGTERM
        if prog == "dpmrepro":
            signalled([exe, "--schedules", "1000000", "--html", out + ".html", scn],
                      sig, 1.5, tmp, keep, "line")
        elif prog == "dpmstress":
            # det on SIGINT, threads on SIGTERM: both engines' stops.
            engine = "det" if sig == signal.SIGINT else "threads"
            signalled([exe, "--variant", "modern", "--fix", "all", "--engine", engine,
                       "--iterations", "100000000", "--jobs", "2", "--out", tmp],
                      sig, 1.5, tmp, keep, "summary")
        else:
            fifo = os.path.join(tmp, "fifo")
            os.mkfifo(fifo)
            signalled([exe, "--dmesg", fifo, "-o", out + ".scenario"], sig, 0.5,
                      tmp, keep + ["fifo"], "line", fifo)
    elif case == "devfull":
        cmd = {"dpmrepro": [exe, small],
               "dpmstress": [exe, "--variant", "modern", "--fix", "all", "--engine", "det",
                             "--iterations", "3", "--out", tmp],
               "dpmimport": [exe, "--dmesg", dmesg]}[prog]
        with open("/dev/full", "w") as full:
            rc, _, err = run(cmd, stdout=full)
        check(rc == 2, f"exit {rc}, not 2")
        line = one_line(err, "/dev/full")
        check("cannot write to standard output" in line, f"the line does not say why: {line!r}")
    elif case in ("unwritable", "fulldisk"):
        target = os.path.join(blocker, "out") if case == "unwritable" else tmp
        pre = fsize_limit(256) if case == "fulldisk" else None
        cmd = {"dpmrepro": [exe, "--html", os.path.join(target, "out.html"), small],
               "dpmstress": [exe, "--engine", "det", "--iterations", "200",
                             "--out", target],
               "dpmimport": [exe, "--dmesg", dmesg, "-o",
                             os.path.join(target, "out.scenario")]}[prog]
        if prog == "dpmstress" and case == "unwritable":
            cmd[-1] = blocker	# --out is a directory
        rc, _, err = run(cmd, preexec_fn=pre)
        check(rc == 2, f"exit {rc}, not 2")
        line = one_line(err, case)
        check("cannot write" in line or "not a directory it can write to" in line,
              f"the line does not say it could not write: {line!r}")
        check(not left(tmp, keep), f"files left behind: {left(tmp, keep)}")
    else:
        print(f"robust_test: no case {case!r}", file=sys.stderr)
        return 2

    for f in left(tmp, keep):
        os.unlink(os.path.join(tmp, f))
    for f in keep:
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    for e in errors:
        print(f"robust_test: {prog} {case}: {e}", file=sys.stderr)
    if not errors:
        print(f"robust_test: {prog} {case}: as documented")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
