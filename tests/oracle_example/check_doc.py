#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""docs/oracle.md, "Adding an invariant", shows the worked example's file
and table line as test_oracle_example builds them: exit 1 naming what
differs."""
import re
import sys

root = sys.argv[1]
doc = open(f"{root}/docs/oracle.md", encoding="utf-8").read()
sec = doc.split("## Adding an invariant", 1)
if len(sec) < 2:
    sys.exit("docs/oracle.md has no section 'Adding an invariant'")
blocks = re.findall(r"```c\n(.*?)```", sec[1].split("\n## ", 1)[0], re.S)
src = open(f"{root}/tests/oracle_example/inv_overlap.c", encoding="utf-8").read()
if src not in blocks:
    sys.exit("docs/oracle.md does not show tests/oracle_example/inv_overlap.c as it is")
line = "INVARIANT(inv_overlap)\n"
if line not in blocks:
    sys.exit("docs/oracle.md does not show the table line " + line.strip())
cm = open(f"{root}/tests/CMakeLists.txt", encoding="utf-8").read()
if line.strip() not in cm:
    sys.exit("tests/CMakeLists.txt does not add the line the document shows")
print("docs/oracle.md shows the example as built")
