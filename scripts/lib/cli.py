# SPDX-License-Identifier: GPL-2.0-only
"""The command line of the project's Python scripts, as tools/cli.c is
the C programs' and scripts/lib/cli.sh the bash scripts': one option
table per script, from which the parser, --help and --version come.

  OPTIONS = [(SHORT, LONG, ARG, HELP), ...]    SHORT a letter or None,
                                               ARG the value's name or
                                               None for a flag
  cli = Cli(NAME, USAGE, ABOUT, OPTIONS, FOOTER)
  for key, value in cli.parse(argv):           key: LONG, or None for an
      match key:                               argument that is no option
          case "time": ...

cli.duration(OPT, TEXT, LO, HI) reads a time (90, 90s, 2m, 1h) as the
C programs' cli_duration() and cli.sh's cli_duration do.

Long options may be abbreviated while unique; --name=VALUE, -x VALUE
and -xVALUE work; -- ends the options.  A bad command line is one line
on stderr and exit 2 (cli.fail()); -h/--help and --version print and
exit 0.  tests/check_options.py compares a script's OPTIONS with the
keys its parse loop handles, its --help and its docs.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BUILTIN = [("h", "help", None, "print this help and exit"),
           (None, "version", None, "print the script's name and dpmfuzz's version and exit")]


def project_version():
    """project(dpmfuzz VERSION ...) of the top CMakeLists.txt, which the C
    programs get through CMake."""
    m = re.search(r"^project\(dpmfuzz VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text(), re.M)
    return m.group(1) if m else "unknown"


def spell_time(x):
    """90s, 2m, 1h: x seconds in the largest unit that divides them."""
    return f"{x // 3600}h" if x and x % 3600 == 0 else f"{x // 60}m" if x and x % 60 == 0 else f"{x}s"


def parse_duration(opt, text, lo, hi):
    """Seconds from text, a whole number of seconds or one with s, m or
    h, from lo to hi; ValueError with the one-line message otherwise."""
    m = re.fullmatch(r"([0-9]{1,12})([smh]?)", text)
    x = int(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)] if m else None
    if x is None or not lo <= x <= hi:
        raise ValueError(f"{opt} wants a time from {spell_time(lo)} to {spell_time(hi)}: seconds, "
                         f"or with s, m or h (90, 90s, 2m, 1h), not '{text}'")
    return x


class Cli:
    def __init__(self, name, usage, about, options, footer=""):
        self.name, self.usage, self.about, self.footer = name, usage, about, footer
        self.options = list(options) + BUILTIN

    def fail(self, msg):
        print(f"{self.name}: {msg}", file=sys.stderr)
        sys.exit(2)

    def duration(self, opt, text, lo, hi):
        """parse_duration(), or one line and exit 2."""
        try:
            return parse_duration(opt, text, lo, hi)
        except ValueError as e:
            self.fail(str(e))

    def help(self):
        out = []
        for k, form in enumerate(self.usage.split("\n")):
            out.append(f"{'usage:' if k == 0 else '      '} {self.name}{' ' + form if form else ''}")
        out += [self.about, "", "Options:"]
        for short, long, arg, text in self.options:
            spec = (f"-{short}, " if short else "    ") + f"--{long}" + (f" {arg}" if arg else "")
            out.append(f"  {spec:<28}{text}" if len(spec) <= 26 else f"  {spec}  {text}")
        if self.footer:
            out += ["", self.footer]
        try:
            print("\n".join(out))
        except BrokenPipeError:
            pass

    def find(self, name):
        if name.startswith("--"):
            exact = [o for o in self.options if o[1] == name[2:]]
            hits = exact or [o for o in self.options if o[1].startswith(name[2:])]
        else:
            hits = [o for o in self.options if o[0] and f"-{o[0]}" == name]
        if len(hits) > 1:
            self.fail(f"ambiguous option '{name}' ({self.name} --help lists the options)")
        if not hits:
            self.fail(f"unknown option '{name}' ({self.name} --help lists the options)")
        return hits[0]

    def parse(self, argv):
        """(key, value) pairs in order: an option's long name and its value
        (True for a flag), or None and an argument that is no option."""
        out, i = [], 0
        while i < len(argv):
            a = argv[i]
            i += 1
            if a == "--":
                out += [(None, x) for x in argv[i:]]
                break
            if a.startswith("--") and len(a) > 2:
                name, has, val = a.partition("=")
            elif a.startswith("-") and len(a) > 1:
                name, val = a[:2], a[2:]
                has = bool(val)
            else:
                out.append((None, a))
                continue
            _, long, arg, _ = self.find(name)
            if long == "help":
                self.help()
                sys.exit(0)
            if long == "version":
                print(f"{self.name} (dpmfuzz) {project_version()}")
                sys.exit(0)
            if not arg:
                if has:
                    self.fail(f"{name} takes no value, not '{a}' ({self.name} --help lists the options)")
                val = True
            elif not has:
                if i >= len(argv):
                    self.fail(f"{name} needs a value ({arg})")
                val = argv[i]
                i += 1
            out.append((long, val))
        return out
