# SPDX-License-Identifier: GPL-2.0-only
"""Mutant schemata: one generated main.c holding every mutant of a tree,
each behind a mutant id chosen at run time (docs/mutation.md, "One build
per tree").

For a mutated function F the generated file keeps F where it is, with one
statement put in front of its body, on the line of its opening brace:

    { int m_ = dpmk_host_mutant(); if (m_) switch (m_) { case 12: return F__dpm_m12(a, b); ... } }

Each of F's mutants is a whole copy of F, renamed F__dpm_mID, with that
one mutant's edits, placed after F under #line directives that give each
of its lines the number it has in main.c (a report, a trace or a data race
names main.c's lines, whichever copy ran).  The copies' prototypes go in
front of F, on F's first line; nothing else changes a line's number.  Id 0
(DPMFUZZ_MUTANT unset) runs the unmutated code.

A function whose copy would not mean the same as F (a static local, a
variadic function, an unnamed parameter, a header a one-line prototype
cannot repeat) is not made into schemata: its mutants are listed as
needing a build of their own.

With tce=True every mutated function also gets an unmutated copy,
F__dpm_m0, and every copy is kept (used) and never inlined: the -O2
object then holds each mutant's code beside the original's, for the
compiled-code comparison (stages.tce_schemata()).
"""
import re

SUFFIX = "__dpm_m"


def copy_name(fname, num):
    return f"{fname}{SUFFIX}{num}"


def base_name(symbol):
    """The function a copy's symbol stands for."""
    return re.sub(re.escape(SUFFIX) + r"\d+$", "", symbol)


class Function:
    """What the schemata need of one function definition."""

    def __init__(self, source, fn):
        K = source.K
        self.name = fn.spelling
        self.start, self.end = source.span(fn)
        self.name_at = fn.location.offset
        body = [c for c in fn.get_children() if c.kind == K.COMPOUND_STMT]
        self.why_not = None
        if not body:
            self.why_not = "no body"
            return
        self.body = body[-1].extent.start.offset
        self.params = [a.spelling for a in fn.get_arguments()]
        self.void = fn.result_type.kind == source.ci.TypeKind.VOID
        header = source.text[self.start:self.body]
        if fn.type.is_function_variadic():
            self.why_not = "variadic"
        elif any(not p for p in self.params):
            self.why_not = "an unnamed parameter"
        elif b"//" in header or b"/*" in header or b"#" in header or b"always_inline" in header:
            self.why_not = "its header has a comment, a directive or always_inline"
        elif not (self.start <= self.name_at < self.body) or \
                source.text[self.name_at:self.name_at + len(self.name)] != self.name.encode():
            self.why_not = "its name is not written in its header"
        elif source.text[self.body:self.body + 1] != b"{":
            self.why_not = "its body is made by a macro"
        else:
            for c in fn.walk_preorder():
                if c.kind == K.VAR_DECL and c.storage_class == source.ci.StorageClass.STATIC:
                    self.why_not = f"a static local ({c.spelling})"
                    break
        self.line = source.line(self.start)
        self.end_line = source.line(self.end - 1)

    def proto(self, text, num):
        """The copy's prototype, on one line."""
        h = text[self.start:self.name_at] + copy_name(self.name, num).encode() + \
            text[self.name_at + len(self.name):self.body]
        return b" ".join(h.split()) + b" __attribute__((__noinline__));"

    def call(self, num):
        args = ", ".join(self.params)
        c = f"{copy_name(self.name, num)}({args})"
        return f"{c}; return;" if self.void else f"return {c};"

    def copy(self, text, num, edits):
        """The function's text with edits (offsets into main.c) applied and
        its name and __func__ made the copy's."""
        out, pos = [], self.start
        ordered = sorted(list(edits) + [(self.name_at, self.name_at + len(self.name),
                                         copy_name(self.name, num).encode())])
        for a, b, new in ordered:
            if not (self.start <= a <= b <= self.end):
                raise ValueError(f"an edit at {a} outside {self.name}")
            new = new.encode() if isinstance(new, str) else new
            old = text[a:b]
            pad = old.count(b"\n") - new.count(b"\n")
            out += [text[pos:a], new + b"\n" * max(pad, 0)]
            pos = b
        out.append(text[pos:self.end])
        body = b"".join(out)
        return re.sub(rb"\b(__func__|__FUNCTION__)\b", b'"' + self.name.encode() + b'"', body)


def generate(source, mutants, ids, tce=False):
    """The schemata text of main.c.  mutants: Mutant objects; ids: their
    numbers (mutant id -> int >= 1).  Returns (text, {mutant id: why it
    needs a build of its own}) for the mutants left out."""
    text = source.text
    by_fn, left_out, fns = {}, {}, {}
    for m in mutants:
        if m.function not in fns:
            fns[m.function] = Function(source, source.functions[m.function])
        f = fns[m.function]
        if f.why_not:
            left_out[m.id] = f.why_not
            continue
        by_fn.setdefault(m.function, []).append(m)
    # (offset, kind, bytes), applied back to front; at one offset the
    # copies of a function (kind 0) end up before the next one's
    # prototypes (kind 1), so that their #line starts a line.
    inserts = []
    for fname, ms in by_fn.items():
        f = fns[fname]
        nums = [ids[m.id] for m in ms] + ([0] if tce else [])
        attr = b" __attribute__((__used__))" if tce else b""
        protos = b" ".join(f.proto(text, n)[:-1] + attr + b";" for n in nums) + b" "
        inserts.append((f.start, 1, protos))
        cases = " ".join(f"case {ids[m.id]}: {f.call(ids[m.id])}" for m in ms)
        disp = (" { int m_ = dpmk_host_mutant(); if (__builtin_expect(m_ != 0, 0)) "
                f"switch (m_) {{ {cases} default: break; }} }}")
        inserts.append((f.body + 1, 1, disp.encode()))
        # The copies after the end of F's last line.
        eol = text.find(b"\n", f.end)
        eol = len(text) if eol < 0 else eol + 1
        chunks = []
        for m in ms + ([None] if tce else []):
            num = ids[m.id] if m else 0
            chunks.append(b"#line %d\n" % f.line + f.copy(text, num, m.edits if m else []) + b"\n")
        chunks.append(b"#line %d\n" % (f.end_line + 1))
        inserts.append((eol, 0, b"".join(chunks)))
    out = bytearray(text)
    for at, _, data in sorted(inserts, key=lambda x: (x[0], x[1]), reverse=True):
        out[at:at] = data
    # The host's switch, declared on main.c's first line.
    last = max((ids[m.id] for m in mutants if m.id not in left_out), default=0)
    head = b"int dpmk_host_mutant(void); extern const int dpmk_schemata_last; const int dpmk_schemata_last = %d; " % last
    return head + bytes(out), left_out
