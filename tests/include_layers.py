#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""No include cycle between the folders of core/ (and kernel/kabi.h).

Reads every #include "..." of core/*/*.[ch], resolves it to a folder,
and fails with the cycle it finds, printed as a path of folders and the
includes that make each step.  Also checks the rules that make the oracle
one that only listens: core/oracle includes no model folder (device,
variants, scenario, run), and no model folder includes core/oracle.

  tests/include_layers.py [REPO]
"""
import re
import sys
from pathlib import Path

repo = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent.parent)
core = repo / "core"
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

edges = {}      # folder -> {folder: "file includes path"}
for f in sorted(core.glob("*/*.[ch]")):
    src = f.parent.name
    for inc in INC.findall(f.read_text()):
        target = (f.parent / inc).resolve()
        if not target.exists():
            # "run/run.h" style, relative to core/
            target = (core / inc).resolve()
        try:
            rel = target.relative_to(core.resolve())
        except ValueError:
            continue
        dst = rel.parts[0]
        if dst != src and len(rel.parts) > 1:
            edges.setdefault(src, {}).setdefault(dst, f"{f.relative_to(repo)} includes {inc}")

bad = []
model = {"device", "variants", "scenario", "run"}
for d in edges.get("oracle", {}):
    if d in model:
        bad.append(f"core/oracle must not include core/{d}: {edges['oracle'][d]}")
for m in model:
    if "oracle" in edges.get(m, {}) and m != "run":
        bad.append(f"core/{m} must not include core/oracle: {edges[m]['oracle']}")

# Cycle search (DFS, colours).
colour, stack = {}, []


def dfs(n):
    colour[n] = 1
    stack.append(n)
    for m in sorted(edges.get(n, {})):
        if colour.get(m) == 1:
            cyc = stack[stack.index(m):] + [m]
            steps = [edges[a][b] for a, b in zip(cyc, cyc[1:])]
            bad.append("include cycle " + " -> ".join(cyc) + ": " + "; ".join(steps))
        elif not colour.get(m):
            dfs(m)
    stack.pop()
    colour[n] = 2


for n in sorted(edges):
    if not colour.get(n):
        dfs(n)
for b in bad:
    print(f"include_layers: {b}")
if bad:
    sys.exit(1)
order = []
seen = set()


def topo(n):
    if n in seen:
        return
    seen.add(n)
    for m in sorted(edges.get(n, {})):
        topo(m)
    order.append(n)


for n in sorted(edges):
    topo(n)
print("include_layers: no cycle; from the bottom: " + ", ".join(order))
