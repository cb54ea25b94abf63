# SPDX-License-Identifier: GPL-2.0-only
"""main.c through libclang's AST: which functions order devices, and the
mutants of those functions (docs/mutation.md, "Operators").

Every mutant is found on the AST (statements, calls, conditions, jumps,
READ_ONCE/WRITE_ONCE expansions); the file's text is used only to cut
out what a cursor's extent covers and to name a call as it is written
(complete_all() is a macro of the shim, its expansion another name).
A mutant is a list of edits (byte ranges of the original and their new
text); edits keep the number of lines, so that every line the mutant
does not touch keeps its number (WARN_ON()'s __LINE__, TSan reports).
"""
import glob
import hashlib
import os
import re
import shlex
import sys

# The operators, in the order mutants are made: a mutant whose text an
# earlier operator already made is dropped, so the specific operators
# come before the general ones.  (name, race, what it does): race
# operators' survivors also run under ThreadSanitizer on real threads.
OPERATORS = [
    ("delete-call", False, "delete a call statement of the ordering family (completions, waits, references, lists, runtime PM, locks, main.c's ordering helpers)"),
    ("delete-store", False, "delete a store to one of main.c's file-scope variables (async_error, pm_transition)"),
    ("swap-list-call", False, "list_splice_init <-> list_splice, list_move <-> list_move_tail, list_add <-> list_add_tail"),
    ("drop-jump", False, "delete a break, continue or goto inside a loop"),
    ("negate-cond", False, "negate an if or while condition"),
    ("cond-true", False, "replace an if condition with true"),
    ("cond-false", False, "replace an if or while condition with false"),
    ("put-in-lock", False, "move a put_device() into the neighbouring region of a lock (before the unlock above it, or after the lock below it)"),
    ("move-lock", True, "move a lock call after the statement that follows it"),
    ("move-unlock", False, "move an unlock call after the statement that follows it"),
    ("unlock-early", True, "move an unlock call before the statement that precedes it"),
    ("plain-access", True, "replace READ_ONCE(x) with (x) and WRITE_ONCE(x, v) with ((x) = (v))"),
    ("swap-stmts", False, "swap two adjacent statements in a function that touches a completion, a lock or a list"),
]
OPERATOR_NAMES = [o[0] for o in OPERATORS]
RACE_OPERATORS = {o[0] for o in OPERATORS if o[1]}

# Call families, by the name the call is written with in main.c.
COMPLETION = re.compile(r"(complete|complete_all|reinit_completion|init_completion|wait_for_completion\w*)$")
WAIT = re.compile(r"(dpm_wait\w*|async_synchronize_full\w*|device_pm_wait_for_dev|wait_for_completion\w*|wait_for_device_probe)$")
REFS = re.compile(r"(get_device|put_device)$")
LIST = re.compile(r"(list_(move|move_tail|add|add_tail|del|del_init|splice|splice_init|splice_tail\w*)|INIT_LIST_HEAD)$")
RPM = re.compile(r"(__)?pm_runtime_\w+$")
LOCK = re.compile(r"(mutex_lock\w*|device_lock|device_pm_lock|spin_lock\w*)$")
UNLOCK = re.compile(r"(mutex_unlock|device_unlock|device_pm_unlock|spin_unlock\w*|device_links_read_unlock)$")
HELPERS = re.compile(r"(dpm_clear_superiors_direct_complete|dpm_propagate_wakeup_to_parent|dpm_superior_set_must_resume|device_block_probing|device_unblock_probing)$")
DELETABLE = [COMPLETION, WAIT, REFS, LIST, RPM, LOCK, UNLOCK, HELPERS]
LIST_SWAPS = {"list_splice_init": "list_splice", "list_splice": "list_splice_init",
              "list_move": "list_move_tail", "list_move_tail": "list_move",
              "list_add": "list_add_tail", "list_add_tail": "list_add"}
ASYNC = re.compile(r"(async_schedule\w*|dpm_async_fn)$")
DPM_LIST_MTX = "dpm_list_mtx"


class Error(Exception):
    pass


def load_clang():
    """clang.cindex, from python3-clang-14 (Debian puts it in the system
    Python's dist-packages, which another python3 may not search), with
    libclang found where LLVM's packages install it."""
    try:
        import clang.cindex as ci
    except ImportError:
        for d in sorted(glob.glob("/usr/lib/python3/dist-packages")) + \
                sorted(glob.glob("/usr/lib/llvm-*/lib/python3*/site-packages")):
            if os.path.isdir(os.path.join(d, "clang")):
                sys.path.append(d)
                break
        try:
            import clang.cindex as ci
        except ImportError:
            raise Error("no Python module clang.cindex (Debian: apt-get install python3-clang-14)")
    if not ci.Config.loaded:
        libs = [os.environ.get("LIBCLANG_PATH", "")] + \
            sorted(glob.glob("/usr/lib/llvm-*/lib/libclang.so.1"), reverse=True) + \
            sorted(glob.glob("/usr/lib/*/libclang-*.so.1"), reverse=True)
        for lib in libs:
            if lib and os.path.exists(lib):
                ci.Config.set_library_file(lib)
                break
    return ci


def parse_flags(command, source):
    """The compiler flags of main.c's compile command that matter to the
    front end (macros, include directories, the language).  Not
    DPMK_IN_MAIN_C: under it the shim wraps waits and list changes in the
    runtime's LOCKS checks (kernel/shim/dpmshim/host.h), and a wait
    statement would no longer read as a call; mutants are found on main.c
    as written."""
    words = shlex.split(command)[1:]
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
            continue
        if w in ("-o", "-c"):
            skip = True
            continue
        if w == source or w.startswith(("-fsanitize", "-fno-sanitize", "-O", "-g", "-fprofile",
                                        "-fcoverage", "-W")):
            continue
        if w.startswith("-DDPMK_IN_MAIN_C"):
            continue
        out.append(w)
    return out


class Source:
    """One parse of main.c: its bytes, its functions and their facts."""

    def __init__(self, path, flags):
        self.ci = load_clang()
        self.path = os.path.realpath(path)
        with open(self.path, "rb") as f:
            self.text = f.read()
        ci = self.ci
        idx = ci.Index.create()
        self.tu = idx.parse(self.path, args=flags,
                            options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
        errors = [d for d in self.tu.diagnostics if d.severity >= ci.Diagnostic.Error]
        if errors:
            raise Error(f"libclang cannot parse {path}: {errors[0]}")
        K = ci.CursorKind
        self.K = K
        self.functions = {}
        self.globals = set()
        self.macros = []
        for c in self.tu.cursor.get_children():
            if not self.in_file(c):
                continue
            if c.kind == K.FUNCTION_DECL and c.is_definition():
                self.functions[c.spelling] = c
            elif c.kind == K.VAR_DECL:
                self.globals.add(c.spelling)
            elif c.kind == K.MACRO_INSTANTIATION and c.spelling in ("READ_ONCE", "WRITE_ONCE"):
                self.macros.append(c)
        self.line_starts = [0] + [m.end() for m in re.finditer(rb"\n", self.text)]

    # -- text of cursors ------------------------------------------------

    def in_file(self, c):
        f = c.extent.start.file
        return f is not None and os.path.realpath(f.name) == self.path and \
            c.extent.end.file is not None

    def span(self, c):
        return c.extent.start.offset, c.extent.end.offset

    def src(self, a, b):
        return self.text[a:b].decode("utf-8", "replace")

    def words(self, c):
        a, b = self.span(c)
        return self.src(a, b)

    def line(self, offset):
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def stmt_span(self, c):
        """A statement's bytes with its semicolon (an expression statement's
        extent, a jump's or a return's ends before it)."""
        a, b = self.span(c)
        j = b
        while j < len(self.text) and self.text[j:j + 1] in (b" ", b"\t", b"\n"):
            j += 1
        if self.text[j:j + 1] == b";" and not self.text[a:b].rstrip().endswith(b"}"):
            return a, j + 1
        return a, b

    def call_name(self, c):
        """The name a call is written with: the identifier before its '('."""
        m = re.match(r"([A-Za-z_]\w*)\s*\(", self.words(c))
        return m.group(1) if m else None

    def keyword(self, c, word):
        """The cursor is written with this keyword in main.c, not made by a
        macro's expansion (list_for_each_entry() is a for loop)."""
        return re.match(word + r"\b", self.words(c)) is not None

    # -- facts ----------------------------------------------------------

    def statement_call(self, s):
        """The call a statement consists of (its name as written), or None."""
        K = self.K
        if s.kind == K.CALL_EXPR and self.in_file(s):
            return self.call_name(s)
        return None

    def calls(self, fn):
        out = []
        for c in fn.walk_preorder():
            if c.kind == self.K.CALL_EXPR and self.in_file(c):
                n = self.call_name(c)
                if n:
                    out.append(n)
        return out

    def facts(self):
        """For each function of main.c what it does of the four: takes
        dpm_list_mtx, waits, completes, schedules async work; each
        directly (the call that does it) or through a function of main.c
        that does.  Returns {function: {fact: reason}}."""
        direct, callees = {}, {}
        for name, fn in self.functions.items():
            d = {}
            for c in fn.walk_preorder():
                if c.kind != self.K.CALL_EXPR or not self.in_file(c):
                    continue
                n = self.call_name(c)
                if n is None:
                    continue
                if re.match(r"mutex_lock\w*$", n) and DPM_LIST_MTX in self.words(c):
                    d.setdefault("takes dpm_list_mtx", n)
                if re.match(r"(wait_for_completion\w*|async_synchronize_full\w*)$", n):
                    d.setdefault("waits", n)
                if re.match(r"complete(_all)?$", n):
                    d.setdefault("completes", n)
                if re.match(r"async_schedule\w*$", n):
                    d.setdefault("schedules async work", n)
            direct[name] = d
            # A function of main.c called, or handed over to be called
            # (dpm_wait_fn to device_for_each_child(), async_suspend to
            # dpm_async_fn()).
            refs = [c.spelling for c in fn.walk_preorder() if c.kind == self.K.DECL_REF_EXPR]
            callees[name] = [n for n in self.calls(fn) + refs if n in self.functions and n != name]
        facts = {n: dict(d) for n, d in direct.items()}
        changed = True
        while changed:
            changed = False
            for n in facts:
                for callee in callees[n]:
                    for k in facts[callee]:
                        if k not in facts[n]:
                            facts[n][k] = f"{callee}()"
                            changed = True
        return facts

    def ordering_functions(self):
        """The functions to mutate by default, in file order, with why."""
        f = self.facts()
        order = sorted(self.functions, key=lambda n: self.functions[n].extent.start.offset)
        return [(n, f[n]) for n in order if f[n]]

    def touches_sync(self, fn):
        """The function touches a completion, a lock or a list."""
        for n in self.calls(fn):
            if COMPLETION.match(n) or LOCK.match(n) or UNLOCK.match(n) or LIST.match(n) \
                    or n.startswith("list_") or n.startswith("dpm_wait"):
                return True
        return False


class Mutant:
    def __init__(self, mid, function, operator, edits, line, what):
        self.id = mid
        self.function = function
        self.operator = operator
        self.edits = sorted(edits)
        self.line = line
        self.what = what

    def apply(self, text):
        out, pos = [], 0
        for a, b, new in self.edits:
            old = text[a:b]
            new = new.encode() if isinstance(new, str) else new
            pad = old.count(b"\n") - new.count(b"\n")
            out += [text[pos:a], new + b"\n" * max(pad, 0)]
            pos = b
        out.append(text[pos:])
        return b"".join(out)

    def record(self):
        return {"id": self.id, "function": self.function, "operator": self.operator,
                "line": self.line, "what": self.what, "race": self.operator in RACE_OPERATORS
                or (self.operator == "delete-call" and (" lock" in self.what or "unlock" in self.what))}


class Maker:
    """The mutants of one function."""

    JUMPS = ("BREAK_STMT", "CONTINUE_STMT", "GOTO_STMT", "RETURN_STMT")

    def __init__(self, source, fname):
        self.s = source
        self.K = source.K
        self.fname = fname
        self.fn = source.functions[fname]
        self.out = []
        self.seen_keys = {}
        self.sync = source.touches_sync(self.fn)
        # The statements of its blocks ({...}), and the statements that are
        # the body of an if, else or loop without braces.
        self.blocks = []        # (compound statement, [its statements])
        self.bodies = []        # statements without a block of their own
        self.parents = {}       # cursor hash -> enclosing cursors, innermost first
        self.labelled = set()   # statements with a label
        self._collect(self.fn, [])
        self.call_index = {}
        counts = {}
        calls = [st for _, stmts in self.blocks for st in stmts] + self.bodies
        for st in sorted(calls, key=lambda c: c.extent.start.offset):
            n = source.statement_call(st)
            if n:
                counts[n] = counts.get(n, 0) + 1
                self.call_index[st.hash] = (n, counts[n])
        self.call_count = counts

    def _collect(self, c, path):
        K = self.K
        kids = list(c.get_children())
        for i, k in enumerate(kids):
            self.parents[k.hash] = [c] + path
            if not self.s.in_file(k):
                pass
            elif k.kind == K.COMPOUND_STMT and self.s.words(k).startswith("{"):
                self.blocks.append((k, [self._unlabel(x) for x in k.get_children() if self.s.in_file(x)]))
            elif k.kind != K.COMPOUND_STMT and (
                    c.kind == K.IF_STMT and i >= 1 or c.kind == K.WHILE_STMT and i == 1 or
                    c.kind == K.FOR_STMT and i == len(kids) - 1 or c.kind == K.DO_STMT and i == 0):
                self.bodies.append(k)
            self._collect(k, [c] + path)

    def _unlabel(self, st):
        """A labelled statement stands in its block for itself; it stays
        where it is (the label with it) but its call can go."""
        while st.kind == self.K.LABEL_STMT:
            kids = list(st.get_children())
            if not kids:
                break
            st = kids[0]
            self.labelled.add(st.hash)
        return st

    # -- helpers ----------------------------------------------------------

    def add(self, operator, key, edits, at, what):
        mid = f"{self.fname}.{operator}.{key}"
        self.out.append(Mutant(mid, self.fname, operator, edits, self.s.line(at), what))

    def call_key(self, st):
        n, i = self.call_index[st.hash]
        return n if self.call_count[n] == 1 else f"{n}-{i}"

    def stmt(self, st):
        a, b = self.s.stmt_span(st)
        return a, b, self.s.text[a:b]

    def swap(self, x, y):
        """Edits that swap two adjacent statements x (first) and y."""
        xa, xb, xt = self.stmt(x)
        ya, yb, yt = self.stmt(y)
        return [(xa, yb, yt + self.s.text[xb:ya] + xt)]

    def kind(self, st):
        return st.kind.name

    def brief(self, st, limit=60):
        t = " ".join(self.s.src(*self.s.stmt_span(st)).split())
        return t if len(t) <= limit else t[:limit - 3] + "..."

    def loops_around(self, c):
        """The statements enclosing c inside the function, innermost first."""
        return self.parents.get(c.hash, [])

    # -- operators --------------------------------------------------------

    def make(self, operators):
        for op in operators:
            getattr(self, "op_" + op.replace("-", "_"))()
        return self.out

    def call_statements(self):
        """(its block's statements or None, index, statement, name) of every
        call statement, in order."""
        where = {}
        for _, stmts in self.blocks:
            for i, st in enumerate(stmts):
                where[st.hash] = (stmts, i, st)
        for st in self.bodies:
            where[st.hash] = (None, 0, st)
        for h, (stmts, i, st) in sorted(where.items(), key=lambda kv: kv[1][2].extent.start.offset):
            if h in self.call_index:
                yield stmts, i, st, self.call_index[h][0]

    def op_delete_call(self):
        for _, _, st, n in self.call_statements():
            if any(p.match(n) for p in DELETABLE):
                a, b, t = self.stmt(st)
                self.add("delete-call", self.call_key(st), [(a, b, ";")], a,
                         f"delete the call of {n}() (`{self.brief(st)}`)")

    def op_delete_store(self):
        counts = {}
        stmts = [st for _, b in self.blocks for st in b] + self.bodies
        for st in sorted(stmts, key=lambda c: c.extent.start.offset):
            self._store(st, counts)

    def _store(self, st, counts):
        if st.kind != self.K.BINARY_OPERATOR:
            return
        kids = list(st.get_children())
        toks = [t.spelling for t in st.get_tokens()]
        if len(kids) != 2 or kids[0].kind != self.K.DECL_REF_EXPR or "=" not in toks:
            return
        var = kids[0].spelling
        lhs_end = kids[0].extent.end.offset
        if var not in self.s.globals or self.s.text[lhs_end:kids[1].extent.start.offset].strip() != b"=":
            return
        counts[var] = counts.get(var, 0) + 1
        a, b, t = self.stmt(st)
        self.add("delete-store", f"{var}-{counts[var]}", [(a, b, ";")], a,
                 f"delete the store `{self.brief(st)}`")

    def op_swap_list_call(self):
        for _, _, st, n in self.call_statements():
            if n in LIST_SWAPS:
                a = st.extent.start.offset
                self.add("swap-list-call", self.call_key(st), [(a, a + len(n), LIST_SWAPS[n])], a,
                         f"{n}() becomes {LIST_SWAPS[n]}() (`{self.brief(st)}`)")

    def op_drop_jump(self):
        K = self.K
        counts = {}
        for c in self.fn.walk_preorder():
            if c.kind not in (K.BREAK_STMT, K.CONTINUE_STMT, K.GOTO_STMT) or not self.s.in_file(c):
                continue
            word = {K.BREAK_STMT: "break", K.CONTINUE_STMT: "continue", K.GOTO_STMT: "goto"}[c.kind]
            if not self.s.keyword(c, word):
                continue
            inner = None
            for p in self.loops_around(c):
                if p.kind in (K.FOR_STMT, K.WHILE_STMT, K.SWITCH_STMT) or \
                        (p.kind == K.DO_STMT and self.s.keyword(p, "do")):
                    inner = p
                    break
            if inner is None or inner.kind == K.SWITCH_STMT and word != "goto":
                continue
            if word == "goto":
                word = "goto-" + self.s.words(c).split()[-1]
            counts[word] = counts.get(word, 0) + 1
            a, b = self.s.span(c)
            self.add("drop-jump", f"{word}-{counts[word]}", [(a, b, "")], a,
                     f"delete `{self.s.words(c)};` in a loop")

    def conditions(self):
        """(kind, index, condition cursor) of the function's if and while
        statements written in main.c, in order."""
        K = self.K
        n = {"if": 0, "while": 0}
        for c in self.fn.walk_preorder():
            if not self.s.in_file(c):
                continue
            word = "if" if c.kind == K.IF_STMT else "while" if c.kind == K.WHILE_STMT else None
            if word is None or not self.s.keyword(c, word):
                continue
            n[word] += 1
            cond = next(iter(c.get_children()), None)
            if cond is None or not self.s.in_file(cond):
                continue
            a, b = self.s.span(cond)
            head = self.s.text[c.extent.start.offset:a]
            if not head.rstrip().endswith(b"(") or a >= b:
                continue
            yield word, n[word], cond

    def op_negate_cond(self):
        for word, i, cond in self.conditions():
            a, b = self.s.span(cond)
            self.add("negate-cond", f"{word}-{i}", [(a, b, "!(" + self.s.src(a, b) + ")")], a,
                     f"negate the condition of {word} #{i} (`{self.brief(cond)}`)")

    def op_cond_true(self):
        for word, i, cond in self.conditions():
            if word == "if":
                a, b = self.s.span(cond)
                self.add("cond-true", f"{word}-{i}", [(a, b, "1")], a,
                         f"the condition of {word} #{i} (`{self.brief(cond)}`) becomes true")

    def op_cond_false(self):
        for word, i, cond in self.conditions():
            a, b = self.s.span(cond)
            self.add("cond-false", f"{word}-{i}", [(a, b, "0")], a,
                     f"the condition of {word} #{i} (`{self.brief(cond)}`) becomes false")

    def movable(self, st):
        """A statement a lock or a put_device() may trade places with."""
        K = self.K
        return st.kind not in (K.DECL_STMT, K.LABEL_STMT, K.NULL_STMT) and \
            self.kind(st) not in self.JUMPS and st.hash not in self.labelled

    def op_put_in_lock(self):
        for stmts, i, st, n in self.call_statements():
            if n != "put_device" or stmts is None:
                continue
            key = self.call_key(st)
            for j in range(i - 1, -1, -1):
                m = self.s.statement_call(stmts[j])
                if m and LOCK.match(m) or not self.movable(stmts[j]):
                    break
                if m and UNLOCK.match(m):
                    edits = self._move(stmts, i, j)
                    self.add("put-in-lock", key + "-before-unlock", edits, stmts[j].extent.start.offset,
                             f"put_device() (`{self.brief(st)}`) moved before {m}()")
                    break
            for j in range(i + 1, len(stmts)):
                m = self.s.statement_call(stmts[j])
                if m and UNLOCK.match(m) or not self.movable(stmts[j]):
                    break
                if m and LOCK.match(m):
                    edits = self._move(stmts, i, j)
                    self.add("put-in-lock", key + "-after-lock", edits, st.extent.start.offset,
                             f"put_device() (`{self.brief(st)}`) moved after {m}()")
                    break

    def _move(self, stmts, i, j):
        """Edits that move statement i to the place of statement j (before
        it when j < i, after it when j > i), the others keeping order."""
        lo, hi = min(i, j), max(i, j)
        a, _, _ = self.stmt(stmts[lo])
        _, b, _ = self.stmt(stmts[hi])
        pieces = [self.stmt(stmts[k])[2] for k in range(lo, hi + 1)]
        gaps = [self.s.text[self.stmt(stmts[k])[1]:self.stmt(stmts[k + 1])[0]] for k in range(lo, hi)]
        order = list(range(lo, hi + 1))
        order.remove(i)
        order.insert(0 if j < i else len(order), i)
        text = pieces[order[0] - lo]
        for g, k in zip(gaps, order[1:]):
            text += g + pieces[k - lo]
        return [(a, b, text)]

    def _neighbours(self, operator, pattern, step):
        for stmts, i, st, n in self.call_statements():
            if stmts is None or not pattern.match(n) or n == "device_links_read_unlock":
                continue
            j = i + step
            if not 0 <= j < len(stmts) or not self.movable(stmts[j]):
                continue
            edits = self.swap(st, stmts[j]) if step > 0 else self.swap(stmts[j], st)
            where = "after" if step > 0 else "before"
            self.add(operator, self.call_key(st), edits, st.extent.start.offset,
                     f"{n}() (`{self.brief(st)}`) moved {where} `{self.brief(stmts[j])}`")

    def op_move_lock(self):
        self._neighbours("move-lock", LOCK, 1)

    def op_move_unlock(self):
        self._neighbours("move-unlock", UNLOCK, 1)

    def op_unlock_early(self):
        self._neighbours("unlock-early", UNLOCK, -1)

    def op_plain_access(self):
        a0, b0 = self.s.span(self.fn)
        n = {}
        for m in self.s.macros:
            a, b = self.s.span(m)
            if not a0 <= a < b0:
                continue
            name = m.spelling
            toks = list(self.s.tu.get_tokens(extent=self.s.tu.get_extent(
                self.s.path, (a, self._macro_end(a)))))
            args = self._macro_args(toks)
            if args is None:
                continue
            end = toks[-1].extent.end.offset
            if name == "READ_ONCE" and len(args) == 1:
                new = "(" + args[0] + ")"
            elif name == "WRITE_ONCE" and len(args) == 2:
                new = f"(({args[0]}) = ({args[1]}))"
            else:
                continue
            n[name] = n.get(name, 0) + 1
            self.add("plain-access", f"{name}-{n[name]}", [(a, end, new)], a,
                     f"{self.s.src(a, end)} becomes a plain access {new}")

    def _macro_end(self, a):
        """The offset after the ')' closing the macro call at a (the
        extent libclang gives a macro instantiation ends at its name)."""
        depth, j = 0, a
        while j < len(self.s.text):
            ch = self.s.text[j:j + 1]
            if ch == b"(":
                depth += 1
            elif ch == b")":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return j

    def _macro_args(self, toks):
        """The macro call's arguments as written, split at its top-level
        commas (from the lexer's tokens)."""
        if len(toks) < 3 or toks[1].spelling != "(" or toks[-1].spelling != ")":
            return None
        args, cur, depth = [], [], 0
        for t in toks[2:-1]:
            if t.spelling in ("(", "[", "{"):
                depth += 1
            elif t.spelling in (")", "]", "}"):
                depth -= 1
            if t.spelling == "," and depth == 0:
                args.append(cur)
                cur = []
            else:
                cur.append(t)
        args.append(cur)
        if any(not a for a in args):
            return None
        return [self.s.src(a[0].extent.start.offset, a[-1].extent.end.offset) for a in args]

    def op_swap_stmts(self):
        if not self.sync:
            return
        n = 0
        for parent, stmts in self.blocks:
            for i in range(len(stmts) - 1):
                x, y = stmts[i], stmts[i + 1]
                if not self.movable(x) or not self.movable(y):
                    continue
                if self.stmt(x)[2] == self.stmt(y)[2]:
                    continue
                n += 1
                self.add("swap-stmts", str(n), self.swap(x, y), x.extent.start.offset,
                         f"swap `{self.brief(x, 40)}` and `{self.brief(y, 40)}`")


def make_mutants(source, functions, operators):
    """Every mutant of the functions, deduplicated by the text it makes
    (the first operator to make a text keeps it).  Returns (mutants,
    number of duplicates dropped)."""
    seen, out, dups = {hashlib.sha256(source.text).digest()}, [], 0
    for fname in functions:
        for m in Maker(source, fname).make(operators):
            text = m.apply(source.text)
            h = hashlib.sha256(text).digest()
            if h in seen:
                dups += 1
                continue
            seen.add(h)
            out.append(m)
    ids = [m.id for m in out]
    if len(set(ids)) != len(ids):
        raise Error("two mutants with one id: " + ", ".join(sorted({i for i in ids if ids.count(i) > 1})))
    return out, dups
