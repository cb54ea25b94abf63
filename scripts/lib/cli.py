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


class Cli:
    def __init__(self, name, usage, about, options, footer=""):
        self.name, self.usage, self.about, self.footer = name, usage, about, footer
        self.options = list(options) + BUILTIN

    def fail(self, msg):
        print(f"{self.name}: {msg}", file=sys.stderr)
        sys.exit(2)

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
