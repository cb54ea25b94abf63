# SPDX-License-Identifier: GPL-2.0-only
"""One renderer for every report dpmfuzz writes (scripts/campaign,
scripts/check-tree, tools/dpmmutate): a report is a list of blocks, and
render_md() and render_html() turn the same list into report.md and
report.html.

A block is a tuple:
  ("h1" | "h2" | "h3", text)
  ("p", text)             `code` and **bold** spans are kept in HTML
  ("code", text)          a preformatted block
  ("diff", text)          a unified diff, its added and removed lines coloured
  ("table", head, rows)   cells of any type; numbers right-aligned in HTML
  ("svg", markup)         HTML only (a chart)
"""
import html
import re

CSS = ("body{font-family:sans-serif;max-width:90em;margin:1em auto;padding:0 1em}"
       "table{border-collapse:collapse;margin:.5em 0}"
       "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}th{background:#eee}"
       "td.num{text-align:right}pre{background:#f4f4f4;padding:6px;overflow-x:auto}"
       "code{background:#f4f4f4}.add{color:#070}.del{color:#a00}")


def render_md(doc):
    out = []
    for b in doc:
        if b[0] in ("h1", "h2", "h3"):
            out.append("#" * int(b[0][1]) + " " + b[1] + "\n")
        elif b[0] == "p":
            out.append(b[1] + "\n")
        elif b[0] in ("code", "diff"):
            out.append("```" + ("diff" if b[0] == "diff" else "") + "\n" + b[1].rstrip("\n") + "\n```\n")
        elif b[0] == "table":
            cell = lambda x: str(x).replace("|", "\\|")
            out.append("| " + " | ".join(cell(x) for x in b[1]) + " |\n|" + "---|" * len(b[1]) + "\n"
                       + "".join("| " + " | ".join(cell(x) for x in r) + " |\n" for r in b[2]))
    return "\n".join(out)


def inline_html(text):
    parts = re.split(r"(`[^`]*`|\*\*[^*]*\*\*)", text)
    out = []
    for s in parts:
        if s.startswith("`") and s.endswith("`") and len(s) > 1:
            out.append(f"<code>{html.escape(s[1:-1])}</code>")
        elif s.startswith("**") and s.endswith("**") and len(s) > 3:
            out.append(f"<b>{html.escape(s[2:-2])}</b>")
        else:
            out.append(html.escape(s))
    return "".join(out)


def _cell(x):
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return f"<td class='num'>{x}</td>"
    return f"<td>{html.escape(str(x))}</td>"


def _diff_html(text):
    e = html.escape
    return "\n".join(f"<span class='add'>{e(l)}</span>" if l.startswith("+") else
                     f"<span class='del'>{e(l)}</span>" if l.startswith("-") else e(l)
                     for l in text.splitlines())


def render_html(doc):
    title = next((b[1] for b in doc if b[0] == "h1"), "report")
    out = ['<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>', html.escape(title),
           f"</title><style>{CSS}</style></head><body>\n"]
    for b in doc:
        if b[0] in ("h1", "h2", "h3"):
            out.append(f"<{b[0]}>{html.escape(b[1])}</{b[0]}>\n")
        elif b[0] == "p":
            out.append(f"<p>{inline_html(b[1])}</p>\n")
        elif b[0] == "code":
            out.append(f"<pre>{html.escape(b[1])}</pre>\n")
        elif b[0] == "diff":
            out.append(f"<pre>{_diff_html(b[1])}</pre>\n")
        elif b[0] == "svg":
            out.append(b[1] + "\n")
        elif b[0] == "table":
            out.append("<table><tr>" + "".join(f"<th>{html.escape(str(x))}</th>" for x in b[1]) + "</tr>\n"
                       + "".join("<tr>" + "".join(_cell(x) for x in r) + "</tr>\n" for r in b[2])
                       + "</table>\n")
    out.append("</body></html>\n")
    return "".join(out)
