#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A program's options: its table in the source, the options its parser
handles, its --help, its --version and its docs, all the same.

  check_options.py --lang c|bash|python --source FILE --doc FILE
                   --section TITLE --version V -- COMMAND...

The option table is read from the source, in the form of its language's
helper (tools/cli.h, scripts/lib/cli.sh, scripts/lib/cli.py), and the
options the parser handles from the code that reads them: the `case
OPT_X:` / `case 'x':` labels of parse_args() (C), the `case "name":`
labels of parse_args() (Python), the ${OPT[name]} reads (bash).  Then:

- every option the parser handles is in the table, and every option of
  the table is handled (an option parsed but not in the table is missing
  from --help and from getopt's table alike);
- COMMAND --help exits 0 and lists exactly the table's options, one line
  each, in order, with the table's help text, then -h/--help and
  --version (the helpers add them), and a line that starts "Exit:";
- COMMAND --version prints "NAME (dpmfuzz) V" (V: CMake's
  PROJECT_VERSION);
- an unknown option is exit 2 with one line on stderr that names --help;
- the first table under the heading TITLE of the doc lists exactly the
  options of --help (its first column: `-x, --name ARG` as --help spells
  it), and the section holds --help's "Exit:" line word for word;
- an alias, the old spelling of a renamed option (the source's
  `aliases[]` rows in C, its cli_alias lines in bash), names an option
  of the table, is in neither --help nor the docs' table, and works as
  the new spelling: COMMAND OLD VALUE --help gives what COMMAND NEW VALUE
  --help gives (exit status, stdout, stderr) after one line on stderr,
  "NAME: OLD is now NEW", with VALUE 1, 5x and '' (an option with a
  value: VALUE is checked, or --help reached, the same way for both);
- an option `-t, --time` takes a time as the shared parser reads it
  (tools/cli.c's cli_duration(), cli.sh's cli_duration, cli.py's
  duration()): COMMAND -t V rejects 5x, -1, and 0 unless the option's
  help text says what 0 means ("0: ..."), each with exit 2 and one line
  on stderr that names -t or --time and the value (a C program with
  --help after it); a C program's
  COMMAND -t V --help takes 90, 90s, 2m and 1h; the script helpers'
  parsers give 90, 90, 120 and 3600 seconds for them and reject the
  others with one line and exit 2.

Exit 0 when all hold, 1 with every difference listed.
"""
import argparse
import re
import shlex
import subprocess
import sys

BUILTIN = ["help", "version"]


def c_table(src):
    m = re.search(r"struct cli_option options\[\] = \{(.*?)\n\};", src, re.S)
    if not m:
        return None, "no 'static const struct cli_option options[] = {' table"
    rows = []
    for r in re.finditer(r'\{\s*"([\w-]+)",\s*(\w+|\'.\'),\s*(NULL|"[^"]*"),\s*"((?:[^"\\]|\\.)*)"\s*\}',
                         m.group(1)):
        key = r.group(2)
        rows.append({"short": key[1] if key.startswith("'") else None, "long": r.group(1),
                     "arg": None if r.group(3) == "NULL" else r.group(3)[1:-1],
                     "help": r.group(4).encode().decode("unicode_escape"), "key": key})
    return rows, None


def c_aliases(src):
    m = re.search(r"struct cli_alias aliases\[\] = \{(.*?)\n\};", src, re.S)
    if not m:
        return []
    return [("--" + r.group(1), r.group(2))
            for r in re.finditer(r'\{\s*"([\w-]+)",\s*"([\w-]+)"\s*\}', m.group(1))]


def sh_aliases(src):
    return [tuple(line.split()) for line in re.findall(r"^cli_alias (\S+ \S+)\s*$", src, re.M)]


def function_body(src, name):
    m = re.search(r"^[^\n]*\b" + name + r"\(.*?\n\{\n(.*?)\n\}\n", src, re.S | re.M)
    return m.group(1) if m else ""


def c_handled(src, rows):
    body = function_body(src, "parse_args")
    return set(re.findall(r"case\s+(OPT_\w+|'.')\s*:", body)), {r["key"]: r["long"] for r in rows}


def py_table(src):
    m = re.search(r"^OPTIONS = \[(.*?)^\]", src, re.S | re.M)
    if not m:
        return None, "no 'OPTIONS = [' table"
    rows = []
    for r in re.finditer(r'\(\s*(None|"\w")\s*,\s*"([\w-]+)"\s*,\s*(None|"[^"]*")\s*,\s*'
                         r'"((?:[^"\\]|\\.)*)"\s*\)', m.group(1)):
        rows.append({"short": None if r.group(1) == "None" else r.group(1)[1:-1], "long": r.group(2),
                     "arg": None if r.group(3) == "None" else r.group(3)[1:-1],
                     "help": r.group(4).encode().decode("unicode_escape"), "key": r.group(2)})
    return rows, None


def py_handled(src, rows):
    m = re.search(r"^def parse_args\(.*?(?=^\S)", src, re.S | re.M)
    body = m.group(0) if m else ""
    return set(re.findall(r'case "([\w-]+)":', body)), {r["key"]: r["long"] for r in rows}


def sh_table(src):
    rows = []
    for line in re.findall(r"^cli_option (.*)$", src, re.M):
        w = shlex.split(line)
        if len(w) != 4:
            return None, f"a cli_option line without 4 words: {line}"
        rows.append({"short": None if w[0] == "-" else w[0], "long": w[1],
                     "arg": None if w[2] == "-" else w[2], "help": w[3], "key": w[1]})
    return rows, None


def sh_handled(src, rows):
    return set(re.findall(r"OPT\[([\w-]+)\]", src)), {r["key"]: r["long"] for r in rows}


LANGS = {"c": (c_table, c_handled), "python": (py_table, py_handled), "bash": (sh_table, sh_handled)}
ALIASES = {"c": c_aliases, "python": lambda src: [], "bash": sh_aliases}
LIB = __import__("pathlib").Path(__file__).resolve().parent.parent / "scripts" / "lib"
TIMES = {"90": 90, "90s": 90, "2m": 120, "1h": 3600}
BAD_TIMES = ["0", "-1", "5x"]


def spec(short, long, arg):
    return (f"-{short}, " if short else "") + f"--{long}" + (f" {arg}" if arg else "")


def parse_help(text):
    """The option lines of --help: (spec, help) in order, or an error."""
    lines = text.splitlines()
    if "Options:" not in lines:
        return None, "--help has no 'Options:' line"
    out = []
    for line in lines[lines.index("Options:") + 1:]:
        if not line.strip():
            break
        m = re.fullmatch(r"  (-\w, |    )--([\w-]+)(?: (\S+))?\s{2,}(\S.*)", line)
        if not m:
            return None, f"--help has an option line not of the form '  -x, --name ARG  help': {line!r}"
        short = m.group(1)[1] if m.group(1).startswith("-") else None
        out.append({"short": short, "long": m.group(2), "arg": m.group(3), "help": m.group(4)})
    return out, None


def doc_section(doc, title):
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(#+)\s+(.*?)\s*$", line)
        if m and m.group(2) == title:
            level, body = len(m.group(1)), []
            for l in lines[i + 1:]:
                h = re.match(r"(#+)\s", l)
                if h and len(h.group(1)) <= level:
                    break
                body.append(l)
            return body
    return None


def doc_specs(body):
    """The first column of the section's first table: the options."""
    out, seen_table = [], False
    for l in body:
        if l.startswith("|"):
            seen_table = True
            # a '|' in a cell is escaped: `det\|threads`
            cell = re.split(r"(?<!\\)\|", l.strip().strip("|"))[0].strip().replace("\\|", "|")
            if re.fullmatch(r"-+", cell) or cell.lower() in ("option", "options"):
                continue
            m = re.match(r"`([^`]+)`", cell)
            out.append(m.group(1).strip() if m else cell)
        elif seen_table:
            break
    return out


def check_aliases(a, src, rows, name, run, helped, documented):
    """Each alias: of a row, hidden, and working as the row's spelling."""
    errors = []
    by_long = {r["long"]: r for r in rows}
    spellings = {f"--{r['long']}" for r in rows} | {f"-{r['short']}" for r in rows if r["short"]}
    for old, now in ALIASES[a.lang](src):
        r = by_long.get(now)
        if not r:
            errors.append(f"alias {old}: --{now} is no option of the table")
            continue
        if old in spellings:
            errors.append(f"alias {old} is an option of the table too")
        if any(re.search(rf"(?<![\w-]){re.escape(old)}(?![\w-])", s) for s in helped + documented):
            errors.append(f"alias {old} is listed (in --help or the docs' table): it is hidden")
        new = f"-{r['short']}" if not old.startswith("--") and r["short"] else f"--{now}"
        note = f"{name}: {old} is now {new}"
        for v in (["1", "5x", ""] if r["arg"] else [None]):
            val = [] if v is None else [v]
            o, n = run(old, *val, "--help"), run(new, *val, "--help")
            said = f"'{' '.join([old] + val)} --help'"
            if o.returncode != n.returncode or o.stdout != n.stdout:
                errors.append(f"{said} exited {o.returncode}, not as with {new} ({n.returncode}), "
                              "or printed other things")
            elif o.stderr.splitlines() != [note] + n.stderr.splitlines():
                errors.append(f"{said} said {o.stderr!r} on stderr, not {note!r} then what {new} says "
                              f"({n.stderr!r})")
    return errors


def check_time(a, rows, name, run):
    """-t, --time: a time with units, read by the shared parser."""
    r = next((r for r in rows if r["long"] == "time"), None)
    if not r:
        return []
    errors = []
    if r["short"] != "t" or not r["arg"]:
        return [f"--time is not '-t, --time TIME'"]
    for v in BAD_TIMES:
        if v == "0" and re.search(r"\b0:", r["help"]):
            continue
        # --help after it: a C program that took the value would print
        # the help, not run (the scripts read the values after --help).
        p = run("-t", v, *(["--help"] if a.lang == "c" else []))
        lines = p.stderr.splitlines()
        if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith(f"{name}: ") \
                or not re.search(r"(^|\s)(-t|--time)\b", lines[0]) or f"'{v}'" not in lines[0]:
            errors.append(f"-t {v} exited {p.returncode} with {p.stderr.strip()[:300]!r}: want exit 2 "
                          f"and one '{name}: ' line that names -t or --time and '{v}'")
    if a.lang == "c":
        for v in TIMES:
            p = run("-t", v, "--help")
            if p.returncode != 0 or p.stderr:
                errors.append(f"-t {v} --help exited {p.returncode} with {p.stderr.strip()[:300]!r}: "
                              "want 0 and nothing on stderr")
        return errors
    # The scripts' shared parser, as a script calls it.
    for v, want in list(TIMES.items()) + [(v, None) for v in BAD_TIMES]:
        if a.lang == "python":
            code = ("import sys; sys.path.insert(0, sys.argv[1]); from cli import Cli; "
                    "print(Cli('x', '', '', []).duration('--time', sys.argv[2], 1, 86400))")
            p = subprocess.run([sys.executable, "-c", code, str(LIB), v], capture_output=True, text=True)
        else:
            code = '. "$1/cli.sh"; cli_program x "" ""; cli_duration --time "$2" 1 86400; echo "$cli_seconds"'
            p = subprocess.run(["bash", "-c", code, "-", str(LIB), v], capture_output=True, text=True)
        if want is not None and (p.returncode != 0 or p.stdout.strip() != str(want)):
            errors.append(f"{LIB}: the {a.lang} time parser gave {p.stdout.strip()!r} (exit {p.returncode}, "
                          f"{p.stderr.strip()!r}) for '{v}', not {want}")
        if want is None and (p.returncode != 2 or len(p.stderr.splitlines()) != 1 or p.stdout):
            errors.append(f"{LIB}: the {a.lang} time parser took '{v}' (exit {p.returncode}, {p.stdout!r}, "
                          f"{p.stderr!r}): want exit 2 and one line")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lang", choices=sorted(LANGS), required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--section", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()
    errors = []
    src = open(a.source).read()
    table_of, handled_of = LANGS[a.lang]
    rows, err = table_of(src)
    if err:
        print(f"check_options: {a.source}: {err}", file=sys.stderr)
        return 1
    handled, names = handled_of(src, rows)
    for k in sorted(handled - set(names)):
        errors.append(f"{a.source}: the parser handles {k}, which is not in the option table "
                      "(so not in --help either)")
    for k in sorted(set(names) - handled):
        errors.append(f"{a.source}: --{names[k]} is in the option table, but the parser does not handle it")

    run = lambda *args: subprocess.run(a.command + list(args), capture_output=True, text=True,
                                       stdin=subprocess.DEVNULL, timeout=60)
    h = run("--help")
    if h.returncode != 0:
        errors.append(f"--help exited {h.returncode}: {h.stderr.strip()[:200]}")
    helped, err = parse_help(h.stdout)
    if err:
        errors.append(err)
        helped = []
    want = [spec(r["short"], r["long"], r["arg"]) for r in rows] + ["-h, --help", "--version"]
    got = [spec(o["short"], o["long"], o["arg"]) for o in helped]
    if got != want:
        errors.append(f"--help lists {got}, the table {want}")
    for r, o in zip(rows, helped):
        if r["long"] == o["long"] and r["help"] != o["help"]:
            errors.append(f"--{r['long']}: --help says {o['help']!r}, the table {r['help']!r}")
    for o in helped:
        if not o["help"].strip():
            errors.append(f"--{o['long']} has no help text")
    exits = [l for l in h.stdout.splitlines() if l.startswith("Exit:")]
    if len(exits) != 1:
        errors.append(f"--help has {len(exits)} 'Exit:' lines, not one")

    name = (h.stdout.split()[1:2] or ["?"])[0]
    v = run("--version")
    if v.returncode != 0 or v.stdout != f"{name} (dpmfuzz) {a.version}\n":
        errors.append(f"--version exited {v.returncode} with {v.stdout!r}, not '{name} (dpmfuzz) {a.version}'")
    u = run("--no-such-option-at-all")
    if u.returncode != 2 or len(u.stderr.splitlines()) != 1 or "--help" not in u.stderr \
            or not u.stderr.startswith(f"{name}: "):
        errors.append(f"an unknown option exited {u.returncode} with {u.stderr!r}: want exit 2 and one "
                      f"'{name}: ' line that points to --help")

    body = doc_section(open(a.doc).read(), a.section)
    if body is None:
        errors.append(f"{a.doc} has no heading '{a.section}'")
    else:
        documented = doc_specs(body)
        for s in got:
            if s not in documented:
                errors.append(f"{a.doc}, '{a.section}': '{s}' is in --help but not in the docs' table")
        for s in documented:
            if s not in got:
                errors.append(f"{a.doc}, '{a.section}': '{s}' is in the docs' table but not in --help")
        words = " ".join(" ".join(body).replace("`", "").split())
        for e in exits:
            if " ".join(e.split()) not in words:
                errors.append(f"{a.doc}, '{a.section}' does not say --help's exit codes: {e!r}")

    if body is not None:
        errors += check_aliases(a, src, rows, name, run, got, documented)
    errors += check_time(a, rows, name, run)

    for e in errors:
        print(f"check_options: {e}", file=sys.stderr)
    if errors:
        return 1
    extra = [f"{len(ALIASES[a.lang](src))} aliases work"] if ALIASES[a.lang](src) else []
    extra += ["-t takes a time"] if any(r["long"] == "time" for r in rows) else []
    print(f"check_options: {name}: {len(rows)} options and --help, --version: table, parser, --help "
          f"and {a.doc} agree" + "".join(f"; {e}" for e in extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())
