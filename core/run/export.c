// SPDX-License-Identifier: GPL-2.0-only
/* Trace export of a logged run: Chrome trace-event JSON and HTML. */
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "../util/esc.h"
#include "../util/xalloc.h"

/* The start event of each end event (same task, device and phase); a
 * start that never ended (the run stopped in it) is marked -2. */
static int *pair_starts(const struct tev *e, int n)
{
	int *start = malloc(sizeof(int) * (size_t)(n ? n : 1));

	if (!start)
		abort();
	for (int i = 0; i < n; i++)
		start[i] = e[i].kind == TEV_START ? -2 : -1;
	for (int i = 0; i < n; i++) {
		if (e[i].kind != TEV_END)
			continue;
		for (int j = i - 1; j >= 0; j--) {
			if (e[j].kind == TEV_START && e[j].dev == e[i].dev &&
			    e[j].phase == e[i].phase && e[j].tid == e[i].tid &&
			    start[j] == -2) {
				start[i] = j;
				start[j] = -1;
				break;
			}
		}
	}
	return start;
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* Time 0 of an export: its first event, wherever the virtual clock
 * stood then; every time written is from there. */
static uint64_t t0;

static void set_t0(const struct tev *e, int n)
{
	t0 = n ? e[0].ts : 0;
	for (int i = 1; i < n; i++)
		if (e[i].ts < t0)
			t0 = e[i].ts;
}

static double at(uint64_t ts)
{
	return us(ts - t0);
}

int export_trace_json(const struct scenario *s, FILE *f)
{
	int n;
	const struct tev *e = run_events(&n);
	int *start = pair_starts(e, n);
	bool first = true;
	int maxtid = -1;

	set_t0(e, n);
	fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
#define SEP() (first ? (first = false, "\n") : ",\n")
	for (int i = 0; i < n; i++) {
		if (e[i].tid > maxtid)
			maxtid = e[i].tid;
		if (e[i].kind == TEV_RELEASE && e[i].err > maxtid)
			maxtid = e[i].err;
	}
	bool *used = calloc((size_t)maxtid + 2, sizeof(*used));

	if (!used)
		abort();
	for (int i = 0; i < n; i++) {
		if (e[i].tid >= 0)
			used[e[i].tid] = true;
		if (e[i].kind == TEV_RELEASE && e[i].err >= 0)
			used[e[i].err] = true;
	}
	for (int t = 0; t <= maxtid; t++) {
		const char *nm = run_task_name(t);
		char fallback[32];

		/* A task that did nothing recorded but was woken, or
		 * reported the violation, still has a name. */
		if (!nm && used[t]) {
			snprintf(fallback, sizeof(fallback), "task %d", t);
			nm = fallback;
		}
		if (!nm)
			continue;
		fprintf(f, "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":",
			SEP(), t);
		dpm_json_str(f, nm, false);
		fprintf(f, "}}");
	}
	free(used);
	int flow = 0;
	int *blocked = malloc(sizeof(int) * (size_t)(maxtid + 2));

	if (!blocked)
		abort();
	for (int t = 0; t <= maxtid; t++)
		blocked[t] = -1;

	for (int i = 0; i < n; i++) {
		const struct tev *v = &e[i];

		if (v->kind == TEV_END && start[i] >= 0) {
			const struct tev *b = &e[start[i]];
			char name[96];

			snprintf(name, sizeof(name), "%s %s", s->dev[v->dev].name,
				 pm_phase_name(v->phase));
			fprintf(f, "%s{\"ph\":\"X\",\"name\":", SEP());
			dpm_json_str(f, name, false);
			fprintf(f, ",\"cat\":\"%s\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"device\":",
				pm_phase_name(v->phase), v->tid, at(b->ts),
				us(v->ts - b->ts));
			dpm_json_str(f, s->dev[v->dev].name, false);
			fprintf(f, ",\"error\":%d}}", v->err);
		} else if (v->kind == TEV_START && start[i] == -2) {
			/* A callback that never ended: an open slice. */
			fprintf(f, "%s{\"ph\":\"B\",\"name\":\"%s %s\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), s->dev[v->dev].name, pm_phase_name(v->phase),
				v->tid, at(v->ts));
		} else if (v->kind == TEV_PHASE_BEGIN || v->kind == TEV_PHASE_END) {
			fprintf(f, "%s{\"ph\":\"i\",\"s\":\"p\",\"name\":\"%s %s\",\"cat\":\"phase\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), pm_phase_name(v->phase),
				v->kind == TEV_PHASE_BEGIN ? "begin" : "end",
				v->tid, at(v->ts));
		} else if (v->kind == TEV_RELEASE) {
			flow++;
			fprintf(f, "%s{\"ph\":\"s\",\"id\":%d,\"name\":\"release\",\"cat\":\"release\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), flow, v->tid, at(v->ts));
			fprintf(f, "%s{\"ph\":\"f\",\"bp\":\"e\",\"id\":%d,\"name\":\"release\",\"cat\":\"release\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), flow, v->err, at(v->ts));
		} else if (v->kind == TEV_VIOLATION) {
			fprintf(f, "%s{\"ph\":\"i\",\"s\":\"g\",\"name\":\"VIOLATION %s\",\"cat\":\"violation\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), inv_name(v->err), v->tid, at(v->ts));
		} else if (v->kind == TEV_BLOCK && v->tid >= 0) {
			blocked[v->tid] = i;
		} else if (v->kind == TEV_UNBLOCK && v->tid >= 0 && blocked[v->tid] >= 0) {
			const struct tev *b = &e[blocked[v->tid]];

			fprintf(f, "%s{\"ph\":\"X\",\"cat\":\"blocked\",\"name\":\"blocked\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"waits_for\":",
				SEP(), v->tid, at(b->ts), us(v->ts - b->ts));
			dpm_json_str(f, b->what ? b->what : "", false);
			fputs("}}", f);
			blocked[v->tid] = -1;
		} else if (v->kind == TEV_REMOVED && v->dev >= 0 && v->dev < s->ndev) {
			char name[64];

			snprintf(name, sizeof(name), "removed %s", s->dev[v->dev].name);
			fprintf(f, "%s{\"ph\":\"i\",\"s\":\"t\",\"name\":", SEP());
			dpm_json_str(f, name, false);
			fprintf(f, ",\"cat\":\"removal\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"args\":{\"device\":",
				v->tid, at(v->ts));
			dpm_json_str(f, s->dev[v->dev].name, false);
			fputs("}}", f);
		}
	}
	/* Blocked when the run ended: an open slice each. */
	for (int t = 0; t <= maxtid; t++) {
		const struct tev *b;

		if (blocked[t] < 0)
			continue;
		b = &e[blocked[t]];
		fprintf(f, "%s{\"ph\":\"B\",\"cat\":\"blocked\",\"name\":\"blocked\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"args\":{\"waits_for\":",
			SEP(), t, at(b->ts));
		dpm_json_str(f, b->what ? b->what : "", false);
		fputs("}}", f);
	}
#undef SEP
	fprintf(f, "\n]}\n");
	free(blocked);
	free(start);
	return ferror(f) ? -1 : 0;
}

/* "1 task", "2 tasks", "0 tasks". */
static void count(FILE *f, int n, const char *one, const char *many)
{
	fprintf(f, "%d %s", n, n == 1 ? one : many);
}

static void html_esc(FILE *f, const char *t)
{
	for (; *t; t++) {
		if (*t == '<')
			fputs("&lt;", f);
		else if (*t == '>')
			fputs("&gt;", f);
		else if (*t == '&')
			fputs("&amp;", f);
		else if (*t == '"')
			fputs("&quot;", f);
		else
			fputc(*t, f);
	}
}
static const char *const phase_colour[NR_PHASES] = {
	"#7fb3d5", "#2e86c1", "#1b4f72", "#5b2c6f",
	"#a569bd", "#45b39d", "#28b463", "#b7950b",
};

/* The device tree as nested lists, children in registration order; a
 * stack on the heap, not recursion, so a chain of any depth is fine. */
static void tree(FILE *f, const struct scenario *s)
{
	int n = s->ndev;
	int *first = dpm_xrealloc(NULL, (size_t)n + 1, sizeof(int));
	int *next = dpm_xrealloc(NULL, (size_t)n + 1, sizeof(int));
	int *stack = dpm_xrealloc(NULL, (size_t)n + 1, sizeof(int));
	int roots = -1, depth = 0;

	/* Child lists in order: link from the last device back. */
	for (int i = 0; i < n; i++)
		first[i] = -1;
	for (int i = n - 1; i >= 0; i--) {
		int *head = s->dev[i].parent >= 0 ? &first[s->dev[i].parent] : &roots;

		next[i] = *head;
		*head = i;
	}
	/* stack[k]: the device whose <li> is open at depth k. */
	int cur = roots;

	if (cur >= 0)
		fputs("<ul>", f);
	while (cur >= 0 || depth) {
		if (cur < 0) {		/* the list at this depth is done */
			fputs("</ul></li>", f);
			cur = next[stack[--depth]];
			continue;
		}
		fprintf(f, "<li data-d=\"%d\">", cur);
		html_esc(f, s->dev[cur].name);
		if (s->dev[cur].async || s->dev[cur].pci)
			fputs(" <i>async</i>", f);
		if (first[cur] >= 0) {
			fputs("<ul>", f);
			stack[depth++] = cur;
			cur = first[cur];
			continue;
		}
		fputs("</li>", f);
		cur = next[cur];
	}
	if (roots >= 0)
		fputs("</ul>", f);
	free(first);
	free(next);
	free(stack);
}

/* The page's script and style (export_html()); the data comes as JSON. */
static const char html_style[] =
	"body{font:13px sans-serif;margin:12px 16px;color:#222}\n"
	"h1{font-size:20px;margin:4px 0}h2{font-size:16px;margin:14px 0 4px}\n"
	"#violation{color:#c0392b;margin:4px 0 8px;white-space:pre-wrap}\n"
	".tools{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:6px 0}\n"
	".tools button{font:12px sans-serif;padding:2px 8px}\n"
	"#span{color:#555;margin:0 8px}\n"
	".legend span{display:inline-block;padding:1px 6px;color:#fff;border-radius:2px;font-size:11px}\n"
	"#view{display:flex;max-height:72vh;overflow:auto;border:1px solid #ccc}\n"
	"#names{flex:none;background:#fafafa;border-right:1px solid #ccc}\n"
	"#names text{font:11px sans-serif;fill:#333}#names text.grp{font-weight:bold}\n"
	"#tlbox{flex:1;min-width:0}\n"
	"#tl{display:block;cursor:grab;user-select:none}\n"
	"#tl text{font:11px sans-serif;pointer-events:none}\n"
	"#tl .tick{fill:#555;font-size:10px}\n"
	"#tl .bandname{font-weight:bold;font-size:11px}\n"
	"rect.bar{stroke:#222;stroke-width:.4;cursor:pointer}\n"
	"rect.bar.err{stroke:#c0392b;stroke-width:1.5}\n"
	"rect.bar.open{stroke-dasharray:3}\n"
	"rect.bar.hi{stroke:#e67e22;stroke-width:2}\n"
	"rect.bar.sel{stroke:#000;stroke-width:2.5}\n"
	"rect.bar:hover{stroke:#f1c40f;stroke-width:2}\n"
	"rect.wait{fill:url(#hatch);stroke:#333;stroke-width:.6}rect.wait.open{stroke-dasharray:3}\n"
	"rect.wait:hover{stroke:#f1c40f;stroke-width:2}\n"
	".removal path{fill:#111;stroke:#fff;stroke-width:.8}.removal line{stroke:#111;stroke-width:1.5}\n"
	"#tl text.rmlbl{font-size:10px;fill:#111}\n"
	".lbl{fill:#222}.lbl.in{fill:#fff}\n"
	".vline{stroke:#c0392b;stroke-width:2}\n"
	".v,.vtxt{fill:#c0392b;color:#c0392b;font-weight:bold}\n"
	"#tl text.v{font-size:13px}\n"
	".wake{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:4 2}\n"
	"#detail{min-height:3em;margin:8px 0;padding:6px 8px;background:#f6f6f6;border:1px solid #ddd}\n"
	"#tree ul{margin:0;padding-left:18px}#tree li{cursor:pointer}#tree i{color:#777}\n"
	".note{color:#555;font-size:11px;margin-left:8px}\n";

static const char html_script[] =
	"\"use strict\";\n"
	"(function () {\n"
	"const D = JSON.parse(document.getElementById(\"data\").textContent);\n"
	"const PH = D.phases_names, COL = D.colours;\n"
	"const svg = document.getElementById(\"tl\"), names = document.getElementById(\"names\");\n"
	"const box = document.getElementById(\"tlbox\"), detail = document.getElementById(\"detail\");\n"
	"const ROW = 16, TOP = 46, MINW = 2, CH = 6.2;\n"
	"const vcb = D.viol ? D.viol.cb : -1;\n"
	"/* x is virtual time, or event order when no virtual time passes (every\n"
	" * callback took 0 us): the order of events is then all there is. */\n"
	"let order = D.tmax < 1;\n"
	"let W = 800, v0 = 0, v1 = 1, sel = -1, hiDev = vcb >= 0 ? D.cbs[vcb][0] : -1;\n"
	"function span() { return order ? D.nev : D.tmax; }\n"
	"function cs(c) { return order ? c[7] : c[3]; }\n"
	"function ce(c) { return c[4] < 0 ? -1 : order ? c[8] + 1 : c[4]; }\n"
	"\n"
	"function X(t) { return (t - v0) / (v1 - v0) * W; }\n"
	"function T(x) { return v0 + x / W * (v1 - v0); }\n"
	"function esc(s) {\n"
	"\treturn String(s).replace(/&/g, \"&amp;\").replace(/</g, \"&lt;\")\n"
	"\t\t.replace(/>/g, \"&gt;\").replace(/\"/g, \"&quot;\");\n"
	"}\n"
	"function ms(us) {\n"
	"\tconst m = us / 1000, a = Math.abs(m);\n"
	"\treturn (a >= 100 ? m.toFixed(1) : a >= 1 ? m.toFixed(3) : m.toFixed(4)) + \" ms\";\n"
	"}\n"
	"function rowY(r) { return TOP + r * ROW; }\n"
	"function taskName(tid) { return D.tasks[tid] ? D.tasks[tid][0] : \"task \" + tid; }\n"
	"function cbName(ph) { return \"->\" + PH[ph] + \"()\"; }\n"
	"\n"
	"/* Ticks: a step of 1, 2 or 5 times a power of ten, about 110 px apart. */\n"
	"function ticks() {\n"
	"\tconst raw = Math.max((v1 - v0) * 110 / W, order ? 1 : 0.001);\n"
	"\tlet step = Math.pow(10, Math.floor(Math.log10(raw)));\n"
	"\tif (raw / step >= 5) step *= 5; else if (raw / step >= 2) step *= 2;\n"
	"\tconst out = [];\n"
	"\tfor (let t = Math.ceil(v0 / step) * step; t <= v1; t += step)\n"
	"\t\tout.push(t);\n"
	"\treturn { step: step, at: out };\n"
	"}\n"
	"function tickLabel(t, step) {\n"
	"\tif (order)\n"
	"\t\treturn \"event \" + Math.round(t);\n"
	"\tconst d = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : step >= 1 ? 3 : 4;\n"
	"\treturn (t / 1000).toFixed(d) + \" ms\";\n"
	"}\n"
	"\n"
	"function bar(i) {\n"
	"\tconst c = D.cbs[i], x0 = X(cs(c)), x1 = ce(c) < 0 ? W + 20 : X(ce(c));\n"
	"\treturn { x: x0, w: Math.max(x1 - x0, MINW), y: rowY(D.tasks[c[2]][1]) + 2 };\n"
	"}\n"
	"\n"
	"/* A blocked wait: from when its task blocked to when it went on (to\n"
	" * the right edge if it never did). */\n"
	"function wbar(j) {\n"
	"\tconst w = D.waits[j], x0 = X(order ? w[5] : w[1]);\n"
	"\tconst x1 = w[2] < 0 ? W + 20 : X(order ? w[6] : w[2]);\n"
	"\treturn { x: x0, w: Math.max(x1 - x0, MINW), y: rowY(D.tasks[w[0]][1]) + 2 };\n"
	"}\n"
	"/* The callback each wait is inside of (same task, by event order), or -1. */\n"
	"const CBT = {};\n"
	"D.cbs.forEach((c, i) => (CBT[c[2]] = CBT[c[2]] || []).push(i));\n"
	"const WCB = D.waits.map(w => (CBT[w[0]] || []).find(i => D.cbs[i][7] < w[5] &&\n"
	"\t(D.cbs[i][8] < 0 || (w[6] >= 0 && w[6] < D.cbs[i][8]))) ?? -1);\n"
	"function waitText(w) {\n"
	"\treturn taskName(w[0]) + \" blocked \" + (w[2] < 0 ?\n"
	"\t\t`from ${ms(w[1])} to the end of the run` :\n"
	"\t\t`${ms(w[2] - w[1])} (${ms(w[1])} to ${ms(w[2])})`) +\n"
	"\t\t\": waits for \" + w[4] +\n"
	"\t\t(w[7] >= 0 ? `; woken by ${taskName(w[7])} at ${ms(w[8])}` : \"\");\n"
	"}\n"
	"\n"
	"function titleOf(c) {\n"
	"\tconst dev = D.devs[c[0]][0];\n"
	"\treturn dev + \" \" + PH[c[1]] + \": \" +\n"
	"\t\t(c[4] < 0 ? \"never returned\" : ms(c[4] - c[3]) + \", returned \" + c[5]) +\n"
	"\t\t\", on \" + taskName(c[2]);\n"
	"}\n"
	"\n"
	"/* Blocked waits, hatched: those between callbacks under the bars (a\n"
	" * bar at its 2 px minimum stays on top), those inside a callback over\n"
	" * its bar (hovering or clicking one is the callback's). */\n"
	"function waits(s, inside) {\n"
	"\tfor (let j = 0; j < D.waits.length; j++) {\n"
	"\t\tconst w = D.waits[j], g = wbar(j), ci = WCB[j];\n"
	"\t\tif ((ci >= 0) !== inside || g.x > W + 2 || g.x + g.w < -2)\n"
	"\t\t\tcontinue;\n"
	"\t\ts.push(`<rect class=\"wait${w[2] < 0 ? \" open\" : \"\"}\" data-w=\"${j}\"${ci >= 0 ? ` data-i=\"${ci}\"` : \"\"} data-task=\"${esc(taskName(w[0]))}\" data-from=\"${w[1]}\" data-to=\"${w[2]}\" x=\"${g.x.toFixed(1)}\" y=\"${g.y}\" width=\"${g.w.toFixed(1)}\" height=\"${ROW - 4}\"><title>${esc(waitText(w))}</title></rect>`);\n"
	"\t}\n"
	"}\n"
	"\n"
	"function render() {\n"
	"\tW = Math.max(box.clientWidth - 4, 200);\n"
	"\tconst rows = D.rows.length, H = rowY(rows) + 8, s = [];\n"
	"\tsvg.setAttribute(\"width\", W);\n"
	"\tsvg.setAttribute(\"height\", H);\n"
	"\tnames.setAttribute(\"height\", H);\n"
	"\t/* phase bands, their names on top */\n"
	"\tfor (const p of D.phase_spans) {\n"
	"\t\tconst a = Math.max(X(order ? p[3] : p[1]), -1), b = Math.min(X(order ? p[4] + 1 : p[2]), W + 1);\n"
	"\t\tif (b < 0 || a > W)\n"
	"\t\t\tcontinue;\n"
	"\t\tconst w = Math.max(b - a, 1), n = PH[p[0]];\n"
	"\t\ts.push(`<rect class=\"band\" data-phase=\"${n}\" x=\"${a.toFixed(1)}\" y=\"14\" width=\"${w.toFixed(1)}\" height=\"${H - 14}\" fill=\"${COL[p[0]]}\" fill-opacity=\"0.13\"><title>${n}: ${ms(p[2] - p[1])}</title></rect>`);\n"
	"\t\tif (w > n.length * CH + 6)\n"
	"\t\t\ts.push(`<text class=\"bandname\" x=\"${(a + 3).toFixed(1)}\" y=\"${TOP - 20}\" fill=\"${COL[p[0]]}\">${n}</text>`);\n"
	"\t}\n"
	"\t/* the time axis */\n"
	"\tconst tk = ticks();\n"
	"\ts.push(`<g class=\"axis\"><rect x=\"0\" y=\"0\" width=\"${W}\" height=\"14\" fill=\"#f4f4f4\"/>`);\n"
	"\tfor (const t of tk.at) {\n"
	"\t\tconst x = X(t).toFixed(1);\n"
	"\t\tconst lbl = tickLabel(t, tk.step);\n"
	"\t\ts.push(`<line x1=\"${x}\" x2=\"${x}\" y1=\"10\" y2=\"${H}\" stroke=\"#ccc\" stroke-width=\"0.5\"/>`);\n"
	"\t\tif (+x + lbl.length * 5.6 < W)\n"
	"\t\t\ts.push(`<text class=\"tick\" x=\"${x}\" y=\"10\">${lbl}</text>`);\n"
	"\t}\n"
	"\ts.push(\"</g>\");\n"
	"\t/* rows */\n"
	"\tfor (let r = 0; r < rows; r++)\n"
	"\t\tif (r % 2)\n"
	"\t\t\ts.push(`<rect x=\"0\" y=\"${rowY(r)}\" width=\"${W}\" height=\"${ROW}\" fill=\"#000\" fill-opacity=\"0.025\"/>`);\n"
	"\twaits(s, false);\n"
	"\t/* bars, then labels inside or beside them where they fit */\n"
	"\tconst byRow = D.rows.map(() => []);\n"
	"\tfor (let i = 0; i < D.cbs.length; i++) {\n"
	"\t\tconst c = D.cbs[i], g = bar(i);\n"
	"\t\tif (g.x > W + 2 || g.x + g.w < -2)\n"
	"\t\t\tcontinue;\n"
	"\t\tconst dev = D.devs[c[0]][0], open = c[4] < 0;\n"
	"\t\tconst cls = \"bar\" + (open ? \" open\" : \"\") + (c[5] ? \" err\" : \"\") +\n"
	"\t\t\t(c[0] === hiDev ? \" hi\" : \"\") + (i === sel ? \" sel\" : \"\");\n"
	"\t\ts.push(`<rect class=\"${cls}\" data-i=\"${i}\" data-dev=\"${esc(dev)}\" data-phase=\"${PH[c[1]]}\" x=\"${g.x.toFixed(1)}\" y=\"${g.y}\" width=\"${g.w.toFixed(1)}\" height=\"${ROW - 4}\" fill=\"${COL[c[1]]}\"><title>${esc(titleOf(c))}</title></rect>`);\n"
	"\t\tbyRow[D.tasks[c[2]][1]].push([g.x, g.x + g.w, dev, g.y]);\n"
	"\t}\n"
	"\twaits(s, true);\n"
	"\tfor (const list of byRow) {\n"
	"\t\tlist.sort((a, b) => a[0] - b[0]);\n"
	"\t\tfor (let k = 0; k < list.length; k++) {\n"
	"\t\t\tconst [a, b, dev, y] = list[k], tw = dev.length * CH + 4;\n"
	"\t\t\tconst next = k + 1 < list.length ? list[k + 1][0] : W;\n"
	"\t\t\tif (b - a >= tw && a >= 0)\n"
	"\t\t\t\ts.push(`<text class=\"lbl in\" x=\"${(a + 2).toFixed(1)}\" y=\"${y + 10}\">${esc(dev)}</text>`);\n"
	"\t\t\telse if (next - b >= tw && b >= 0 && b + tw <= W)\n"
	"\t\t\t\ts.push(`<text class=\"lbl\" x=\"${(b + 2).toFixed(1)}\" y=\"${y + 10}\">${esc(dev)}</text>`);\n"
	"\t\t}\n"
	"\t}\n"
	"\t/* who woke the selected callback's task: arrows from each release */\n"
	"\tif (sel >= 0) {\n"
	"\t\tconst c = D.cbs[sel], g = bar(sel);\n"
	"\t\tfor (const w of c[6]) {\n"
	"\t\t\tconst wx = X(order ? w[4] : w[1]), wy = rowY(D.tasks[w[0]][1]) + ROW / 2;\n"
	"\t\t\ts.push(`<line class=\"wake\" x1=\"${wx.toFixed(1)}\" y1=\"${wy}\" x2=\"${g.x.toFixed(1)}\" y2=\"${g.y + 6}\" marker-end=\"url(#arrow)\"/>`);\n"
	"\t\t}\n"
	"\t}\n"
	"\t/* device removals: a mark on the row of the task that removed the\n"
	"\t * device, named beside it on a row without callbacks (hotplug,\n"
	"\t * release workers) */\n"
	"\tconst busy = new Set(D.cbs.map(c => D.tasks[c[2]][1]));\n"
	"\tconst lastEnd = {};\n"
	"\tfor (const m of D.removals) {\n"
	"\t\tconst x = X(order ? m[3] : m[2]), r = D.tasks[m[1]][1], y = rowY(r);\n"
	"\t\tif (x < -6 || x > W + 6)\n"
	"\t\t\tcontinue;\n"
	"\t\tconst dev = D.devs[m[0]][0], task = taskName(m[1]);\n"
	"\t\ts.push(`<g class=\"removal\" data-dev=\"${esc(dev)}\" data-task=\"${esc(task)}\"><line x1=\"${x.toFixed(1)}\" x2=\"${x.toFixed(1)}\" y1=\"${y + 1}\" y2=\"${y + ROW - 1}\"/><path d=\"M${(x - 5).toFixed(1)},${y}L${(x + 5).toFixed(1)},${y}L${x.toFixed(1)},${y + 8}z\"/><title>${esc(dev)} removed (device_del) by ${esc(task)} at ${ms(m[2])} (event ${m[3]})</title></g>`);\n"
	"\t\tconst lbl = dev + \" removed\", lw = lbl.length * CH;\n"
	"\t\t/* right of the mark, else left of it at the right edge */\n"
	"\t\tconst tx = x + 7 + lw <= W ? x + 7 : x - 7 - lw;\n"
	"\t\tif (!busy.has(r) && tx >= (lastEnd[r] || 0)) {\n"
	"\t\t\ts.push(`<text class=\"rmlbl\" x=\"${tx.toFixed(1)}\" y=\"${y + 11}\">${esc(lbl)}</text>`);\n"
	"\t\t\tlastEnd[r] = Math.max(tx + lw, x) + 4;\n"
	"\t\t}\n"
	"\t}\n"
	"\t/* the violation */\n"
	"\tif (D.viol) {\n"
	"\t\tconst x = X(order ? D.viol.k : D.viol.t), end = x + D.viol.id.length * 8 > W;\n"
	"\t\ts.push(`<line class=\"vline\" x1=\"${x.toFixed(1)}\" x2=\"${x.toFixed(1)}\" y1=\"14\" y2=\"${H}\"/><text class=\"v\" id=\"violation-mark\" x=\"${(end ? x - 4 : x + 4).toFixed(1)}\" y=\"${TOP - 5}\"${end ? ' text-anchor=\"end\"' : \"\"}>${esc(D.viol.id)}</text>`);\n"
	"\t}\n"
	"\tsvg.innerHTML = `<defs><marker id=\"arrow\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0L8,4L0,8z\" fill=\"#c0392b\"/></marker>` +\n"
	"\t\t`<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#888\" fill-opacity=\"0.35\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#333\" stroke-width=\"2\"/></pattern></defs>` + s.join(\"\");\n"
	"\t/* the task names beside the rows */\n"
	"\tconst t = [];\n"
	"\tfor (let r = 0; r < rows; r++)\n"
	"\t\tt.push(`<text x=\"4\" y=\"${rowY(r) + 12}\" class=\"${D.rows[r][1] ? \"grp\" : \"\"}\">${esc(D.rows[r][0])}</text>`);\n"
	"\tnames.innerHTML = t.join(\"\");\n"
	"\tdocument.getElementById(\"span\").textContent = order ?\n"
	"\t\t`x: event order, events ${Math.max(Math.round(v0), 0)} to ${Math.round(v1)} of ${D.nev}` :\n"
	"\t\t`x: virtual time, ${ms(v0)} to ${ms(v1)} (${ms(v1 - v0)} wide)`;\n"
	"\tdocument.getElementById(\"zmode\").textContent = order ? \"x: time\" : \"x: order\";\n"
	"}\n"
	"\n"
	"function show(i) {\n"
	"\tif (i < 0) {\n"
	"\t\tdetail.innerHTML = D.viol && vcb < 0 ?\n"
	"\t\t\t`<b class=\"vtxt\">${esc(D.viol.id)}</b> on task ${esc(taskName(D.viol.tid))} at ${ms(D.viol.t)} (event ${D.viol.k}), in no callback: ${esc(D.viol.msg)}` :\n"
	"\t\t\t\"<i>Hover over a bar for its callback, click to pin it and see who woke its task.</i>\";\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tconst c = D.cbs[i], d = D.devs[c[0]];\n"
	"\tconst par = d[1] >= 0 ? D.devs[d[1]][0] : \"none\";\n"
	"\tlet h = `<b>${esc(d[0])}</b> (parent ${esc(par)}${d[2] ? \", async\" : \"\"}) <b>${PH[c[1]]}</b>, callback ${cbName(c[1])} on task ${esc(taskName(c[2]))}<br>` +\n"
	"\t\t`from ${ms(c[3])} (event ${c[7]}) ` + (c[4] < 0 ? \"and never returned\" :\n"
	"\t\t`to ${ms(c[4])} (event ${c[8]}): <b>${ms(c[4] - c[3])}</b>, returned <b>${c[5]}</b>`);\n"
	"\tif (c[6].length) {\n"
	"\t\th += \"<br>its task waited and was woken by: \" + c[6].map(w =>\n"
	"\t\t\t`${esc(taskName(w[0]))} at ${ms(w[1])}` +\n"
	"\t\t\t(w[2] >= 0 ? ` (after ${esc(D.devs[w[2]][0])} ${PH[w[3]]})` : \"\")).join(\"; \");\n"
	"\t} else {\n"
	"\t\th += \"<br>its task did not wait for anyone before it\";\n"
	"\t}\n"
	"\tfor (let j = 0; j < D.waits.length; j++)\n"
	"\t\tif (WCB[j] === i)\n"
	"\t\t\th += \"<br>inside it \" + esc(waitText(D.waits[j]));\n"
	"\tif (i === vcb)\n"
	"\t\th += `<br><b class=\"vtxt\">${esc(D.viol.id)}</b> as it started: ${esc(D.viol.msg)}`;\n"
	"\tdetail.innerHTML = h;\n"
	"}\n"
	"\n"
	"/* Zoom about x-value t by f (f < 1: in), down to 1 us or 4 events. */\n"
	"function zoom(f, t) {\n"
	"\tconst w = Math.min(Math.max((v1 - v0) * f, order ? 4 : 1), span() * 1.05);\n"
	"\tconst k = (t - v0) / (v1 - v0);\n"
	"\tv0 = t - k * w;\n"
	"\tv1 = v0 + w;\n"
	"\tclamp();\n"
	"\trender();\n"
	"}\n"
	"/* Never before 0, the run's first event. */\n"
	"function clamp() {\n"
	"\tconst w = v1 - v0, lo = 0, hi = span() * 1.03;\n"
	"\tif (v0 < lo) { v0 = lo; v1 = lo + w; }\n"
	"\tif (v1 > hi) { v1 = hi; v0 = Math.max(hi - w, lo); }\n"
	"}\n"
	"function fit() { v0 = 0; v1 = span() * 1.01; render(); }\n"
	"\n"
	"svg.addEventListener(\"wheel\", e => {\n"
	"\te.preventDefault();\n"
	"\tconst r = svg.getBoundingClientRect();\n"
	"\tzoom(Math.exp(e.deltaY * 0.0015), T(e.clientX - r.left));\n"
	"}, { passive: false });\n"
	"let drag = null;\n"
	"svg.addEventListener(\"mousedown\", e => { drag = { x: e.clientX, v0: v0, v1: v1, moved: false }; });\n"
	"window.addEventListener(\"mouseup\", () => { setTimeout(() => { drag = null; }, 0); });\n"
	"window.addEventListener(\"mousemove\", e => {\n"
	"\tif (!drag || !(e.buttons & 1))\n"
	"\t\treturn;\n"
	"\tconst dt = (e.clientX - drag.x) / W * (drag.v1 - drag.v0);\n"
	"\tif (Math.abs(e.clientX - drag.x) > 2)\n"
	"\t\tdrag.moved = true;\n"
	"\tv0 = drag.v0 - dt;\n"
	"\tv1 = drag.v1 - dt;\n"
	"\tclamp();\n"
	"\trender();\n"
	"});\n"
	"svg.addEventListener(\"mouseover\", e => {\n"
	"\tconst ds = e.target.dataset || {};\n"
	"\tif (sel >= 0)\n"
	"\t\treturn;\n"
	"\tif (ds.i !== undefined)\n"
	"\t\tshow(+ds.i);\n"
	"\telse if (ds.w !== undefined)\n"
	"\t\tdetail.textContent = waitText(D.waits[+ds.w]);\n"
	"});\n"
	"svg.addEventListener(\"click\", e => {\n"
	"\tif (drag && drag.moved)\n"
	"\t\treturn;\n"
	"\tconst ds = e.target.dataset || {};\n"
	"\tsel = ds.i === undefined ? -1 : +ds.i;\n"
	"\tshow(sel);\n"
	"\tif (sel < 0 && ds.w !== undefined)\n"
	"\t\tdetail.textContent = waitText(D.waits[+ds.w]);\n"
	"\trender();\n"
	"});\n"
	"svg.addEventListener(\"dblclick\", e => {\n"
	"\tconst i = e.target.dataset ? e.target.dataset.i : undefined;\n"
	"\tif (i === undefined)\n"
	"\t\treturn;\n"
	"\tconst c = D.cbs[+i], e1 = ce(c) < 0 ? span() : ce(c), pad = Math.max((e1 - cs(c)) * 0.3, 5);\n"
	"\tv0 = cs(c) - pad;\n"
	"\tv1 = e1 + pad;\n"
	"\tclamp();\n"
	"\trender();\n"
	"});\n"
	"document.getElementById(\"zin\").onclick = () => zoom(0.5, (v0 + v1) / 2);\n"
	"document.getElementById(\"zout\").onclick = () => zoom(2, (v0 + v1) / 2);\n"
	"document.getElementById(\"zfit\").onclick = fit;\n"
	"document.getElementById(\"zmode\").onclick = () => { order = !order; fit(); };\n"
	"const zv = document.getElementById(\"zviol\");\n"
	"if (D.viol)\n"
	"\tzv.onclick = () => {\n"
	"\t\tconst w = Math.max(span() * 0.02, 20), at = order ? D.viol.k : D.viol.t;\n"
	"\t\tv0 = at - w / 2;\n"
	"\t\tv1 = at + w / 2;\n"
	"\t\tclamp();\n"
	"\t\trender();\n"
	"\t\tdocument.getElementById(\"violation-mark\").scrollIntoView({ block: \"center\", inline: \"center\" });\n"
	"\t};\n"
	"else\n"
	"\tzv.style.display = \"none\";\n"
	"window.addEventListener(\"keydown\", e => {\n"
	"\tif (e.key === \"+\" || e.key === \"=\") zoom(0.5, (v0 + v1) / 2);\n"
	"\telse if (e.key === \"-\") zoom(2, (v0 + v1) / 2);\n"
	"\telse if (e.key === \"0\") fit();\n"
	"});\n"
	"/* the width changes when a scrollbar comes or goes, too */\n"
	"if (window.ResizeObserver)\n"
	"\tnew ResizeObserver(() => { if (box.clientWidth - 4 !== W) render(); }).observe(box);\n"
	"else\n"
	"\twindow.addEventListener(\"resize\", render);\n"
	"for (const li of document.querySelectorAll(\"#tree [data-d]\"))\n"
	"\tli.addEventListener(\"click\", e => {\n"
	"\t\te.stopPropagation();\n"
	"\t\thiDev = +li.dataset.d;\n"
	"\t\trender();\n"
	"\t});\n"
	"fit();\n"
	"show(-1);\n"
	"if (D.viol) {\n"
	"\tif (vcb >= 0) {\n"
	"\t\tsel = vcb;\n"
	"\t\tshow(vcb);\n"
	"\t\trender();\n"
	"\t}\n"
	"\tdocument.getElementById(\"violation-mark\").scrollIntoView({ block: \"center\", inline: \"center\" });\n"
	"}\n"
	"})();\n";

/* Each task's first and last event, and its row on the page. */
struct task_span {
	uint64_t first, last;
	int row;
	bool seen, async;
};

static const struct task_span *sort_spans;

static int by_first(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	uint64_t fx = sort_spans[x].first, fy = sort_spans[y].first;

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return x - y;
}

/*
 * Rows: the PM thread and every other task that is not an async job
 * (hotplug) one each, in task order; the async jobs, short-lived, packed
 * into lanes (the first lane whose last job ended before this one
 * began).  Returns the number of rows; *lanes is how many are async.
 */
static int assign_rows(struct task_span *ts, int nt, int *lanes)
{
	uint64_t *lane_end = malloc(sizeof(*lane_end) * (size_t)(nt ? nt : 1));
	int *order = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
	int rows = 0, nl = 0, no = 0;

	if (!lane_end || !order)
		abort();
	for (int t = 0; t < nt; t++) {
		if (!ts[t].seen)
			continue;
		if (ts[t].async)
			order[no++] = t;
		else
			ts[t].row = rows++;
	}
	/* by first event, then task id */
	sort_spans = ts;
	qsort(order, (size_t)no, sizeof(*order), by_first);
	for (int i = 0; i < no; i++) {
		struct task_span *t = &ts[order[i]];
		int l = 0;

		while (l < nl && lane_end[l] >= t->first)
			l++;
		if (l == nl)
			nl++;
		lane_end[l] = t->last;
		t->row = rows + l;
	}
	free(lane_end);
	free(order);
	*lanes = nl;
	return rows + nl;
}

/* A time of the run, in us from its first event. */
static void json_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%.3f", at(ns));
}

/* One wait of html_waits(): task t blocked at event b, went on at event
 * u (-1: never), woken by the release at event w (-1: none recorded). */
static void put_wait(FILE *f, const struct tev *e, int t, int b, int u,
		     int w, bool first)
{
	fprintf(f, "%s\n[%d,", first ? "" : ",", t);
	json_us(f, e[b].ts);
	fputs(",", f);
	if (u >= 0)
		json_us(f, e[u].ts);
	else
		fputs("-1", f);
	fprintf(f, ",%d,", e[b].err);
	dpm_json_str(f, e[b].what ? e[b].what : "", true);
	fprintf(f, ",%d,%d,%d,", b, u, w >= 0 ? e[w].tid : -1);
	if (w >= 0)
		json_us(f, e[w].ts);
	else
		fputs("-1", f);
	fputs("]", f);
}

/*
 * The blocked waits, each [task, from, to (-1: blocked to the end of
 * the run), wait kind, what it waits for, event from, event to (-1),
 * the task whose release woke it (-1: none recorded), that release's
 * time].
 */
static void html_waits(FILE *f, const struct tev *e, int n,
		       const struct task_span *ts, int nt)
{
	int *open = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
	int *woke = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
	bool first = true;

	if (!open || !woke)
		abort();
	for (int t = 0; t < nt; t++)
		open[t] = woke[t] = -1;
	fputs("\"waits\":[", f);
	for (int i = 0; i < n; i++) {
		const struct tev *v = &e[i];

		if (v->kind == TEV_RELEASE && v->err >= 0 && v->err < nt &&
		    open[v->err] >= 0)
			woke[v->err] = i;
		if (v->tid < 0 || v->tid >= nt || !ts[v->tid].seen)
			continue;
		if (v->kind == TEV_BLOCK) {
			open[v->tid] = i;
			woke[v->tid] = -1;
		} else if (v->kind == TEV_UNBLOCK && open[v->tid] >= 0) {
			put_wait(f, e, v->tid, open[v->tid], i, woke[v->tid], first);
			open[v->tid] = -1;
			first = false;
		}
	}
	/* blocked when the run ended */
	for (int t = 0; t < nt; t++)
		if (open[t] >= 0) {
			put_wait(f, e, t, open[t], -1, woke[t], first);
			first = false;
		}
	fputs("],\n", f);
	free(open);
	free(woke);
}

/*
 * The JSON the script draws: devices, rows, tasks, callbacks (with the
 * releases that woke their task before they started), phases, the
 * violation.
 */
static void html_data(FILE *f, const struct scenario *s, const struct run_result *r,
		      const struct tev *e, int n, const int *start,
		      const struct task_span *ts, int nt, int nrows, int lanes,
		      int nasync)
{
	int *wait_next = malloc(sizeof(int) * (size_t)(n ? n : 1));
	int *pend = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
	int *waits = malloc(sizeof(int) * (size_t)(n ? n : 1));
	int *cur_dev = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
	int *cur_ph = malloc(sizeof(int) * (size_t)(nt ? nt : 1));
	int *rel_dev = malloc(sizeof(int) * (size_t)(n ? n : 1));
	int *rel_ph = malloc(sizeof(int) * (size_t)(n ? n : 1));
	int viol = -1, vcb = -1, first_row = 1;
	uint64_t tmax = t0 + 1;
	bool first;

	if (!wait_next || !pend || !waits || !cur_dev || !cur_ph || !rel_dev || !rel_ph)
		abort();
	for (int t = 0; t < nt; t++)
		pend[t] = cur_dev[t] = cur_ph[t] = -1;
	/* releases waiting for the task they woke to act next */
	for (int i = 0; i < n; i++) {
		const struct tev *v = &e[i];

		waits[i] = -1;
		if (v->ts > tmax)
			tmax = v->ts;
		if (v->tid < 0 || v->tid >= nt)
			continue;
		if (v->kind == TEV_RELEASE) {
			rel_dev[i] = cur_dev[v->tid];
			rel_ph[i] = cur_ph[v->tid];
			if (v->err >= 0 && v->err < nt) {
				wait_next[i] = pend[v->err];
				pend[v->err] = i;
			}
			continue;
		}
		/* A wait's own marks and a removal are not the task's next
		 * step: the releases that woke it stay with what it does. */
		if (v->kind == TEV_BLOCK || v->kind == TEV_UNBLOCK ||
		    v->kind == TEV_REMOVED)
			continue;
		if (v->kind == TEV_START)
			waits[i] = pend[v->tid];
		pend[v->tid] = -1;
		if (v->kind == TEV_START || v->kind == TEV_END) {
			cur_dev[v->tid] = v->dev;
			cur_ph[v->tid] = v->phase;
		}
		if (v->kind == TEV_VIOLATION && viol < 0)
			viol = i;
	}
	fputs("{\"phases_names\":[", f);
	for (int p = 0; p < NR_PHASES; p++)
		fprintf(f, "%s\"%s\"", p ? "," : "", pm_phase_name(p));
	fputs("],\"colours\":[", f);
	for (int p = 0; p < NR_PHASES; p++)
		fprintf(f, "%s\"%s\"", p ? "," : "", phase_colour[p]);
	fputs("],\n\"devs\":[", f);
	for (int i = 0; i < s->ndev; i++) {
		fputs(i ? ",[" : "[", f);
		dpm_json_str(f, s->dev[i].name, true);
		fprintf(f, ",%d,%d]", s->dev[i].parent, s->dev[i].async || s->dev[i].pci);
	}
	fputs("],\n\"rows\":[", f);
	for (int row = 0; row < nrows; row++) {
		int t = 0;

		while (t < nt && !(ts[t].seen && !ts[t].async && ts[t].row == row))
			t++;
		fputs(row ? "," : "", f);
		if (t < nt) {
			fputs("[", f);
			dpm_json_str(f, run_task_name(t), true);
			fputs(",0]", f);
		} else if (first_row) {
			fputs("[\"", f);
			count(f, nasync, "async job", "async jobs");
			fputs(" in ", f);
			count(f, lanes, "lane", "lanes");
			fputs("\",1]", f);
			first_row = 0;
		} else {
			fputs("[\"\",1]", f);
		}
	}
	fputs("],\n\"tasks\":{", f);
	first = true;
	for (int t = 0; t < nt; t++) {
		if (!ts[t].seen)
			continue;
		fprintf(f, "%s\"%d\":[", first ? "" : ",", t);
		dpm_json_str(f, run_task_name(t), true);
		fprintf(f, ",%d]", ts[t].row);
		first = false;
	}
	fputs("},\n\"cbs\":[", f);
	first = true;
	for (int i = 0, k = 0; i < n; i++) {
		const struct tev *v = &e[i];
		const struct tev *b = v;
		int si = i;

		if (v->tid < 0 || v->tid >= nt || !ts[v->tid].seen)
			continue;
		if (v->kind == TEV_END && start[i] >= 0)
			b = &e[si = start[i]];
		else if (!(v->kind == TEV_START && start[i] == -2))
			continue;
		fprintf(f, "%s\n[%d,%d,%d,", first ? "" : ",", v->dev, v->phase, v->tid);
		json_us(f, b->ts);
		fputs(",", f);
		if (v->kind == TEV_END)
			json_us(f, v->ts);
		else
			fputs("-1", f);
		fprintf(f, ",%d,[", v->kind == TEV_END ? v->err : 0);
		for (int w = waits[si], c = 0; w >= 0; w = wait_next[w], c++) {
			fprintf(f, "%s[%d,", c ? "," : "", e[w].tid);
			json_us(f, e[w].ts);
			fprintf(f, ",%d,%d,%d]", rel_dev[w], rel_ph[w], w);
		}
		fprintf(f, "],%d,%d]", si, v->kind == TEV_END ? i : -1);
		/* the violation is found as a callback starts: that one */
		if (viol >= 0 && si < viol && e[si].tid == e[viol].tid &&
		    e[si].ts == e[viol].ts)
			vcb = k;
		first = false;
		k++;
	}
	fputs("],\n\"phase_spans\":[", f);
	first = true;
	for (int i = 0, open = -1; i <= n; i++) {
		/* a phase the run stopped in runs to the end */
		if (i == n) {
			if (open >= 0) {
				fprintf(f, "%s[%d,", first ? "" : ",", e[open].phase);
				json_us(f, e[open].ts);
				fputs(",", f);
				json_us(f, tmax);
				fprintf(f, ",%d,%d]", open, n - 1);
			}
			break;
		}
		if (e[i].kind == TEV_PHASE_BEGIN) {
			open = i;
		} else if (e[i].kind == TEV_PHASE_END && open >= 0 &&
			   e[open].phase == e[i].phase) {
			fprintf(f, "%s[%d,", first ? "" : ",", e[i].phase);
			json_us(f, e[open].ts);
			fputs(",", f);
			json_us(f, e[i].ts);
			fprintf(f, ",%d,%d]", open, i);
			open = -1;
			first = false;
		}
	}
	fputs("],\n", f);
	html_waits(f, e, n, ts, nt);
	fputs("\"removals\":[", f);
	first = true;
	for (int i = 0; i < n; i++) {
		const struct tev *v = &e[i];

		if (v->kind != TEV_REMOVED || v->dev < 0 || v->dev >= s->ndev ||
		    v->tid < 0 || v->tid >= nt || !ts[v->tid].seen)
			continue;
		fprintf(f, "%s[%d,%d,", first ? "" : ",", v->dev, v->tid);
		json_us(f, v->ts);
		fprintf(f, ",%d]", i);
		first = false;
	}
	fputs("],\n\"tmax\":", f);
	json_us(f, tmax);
	fprintf(f, ",\"nev\":%d", n);
	fputs(",\n\"viol\":", f);
	if (viol >= 0 && r->violated) {
		fputs("{\"id\":", f);
		dpm_json_str(f, inv_name(r->id), true);
		fputs(",\"msg\":", f);
		dpm_json_str(f, r->msg, true);
		fputs(",\"t\":", f);
		json_us(f, e[viol].ts);
		fprintf(f, ",\"k\":%d,\"tid\":%d,\"cb\":%d}", viol, e[viol].tid, vcb);
	} else {
		fputs("null", f);
	}
	fputs("}\n", f);
	free(wait_next);
	free(pend);
	free(waits);
	free(cur_dev);
	free(cur_ph);
	free(rel_dev);
	free(rel_ph);
}

int export_html(const struct scenario *s, const struct run_result *r, FILE *f)
{
	int n, nt = 0, nrows, lanes, ncb = 0, nasync = 0, nremoved = 0;
	const struct tev *e = run_events(&n);
	int *start = pair_starts(e, n);
	struct task_span *ts;

	for (int i = 0; i < n; i++)
		if (e[i].tid >= nt)
			nt = e[i].tid + 1;
	ts = calloc((size_t)(nt ? nt : 1), sizeof(*ts));
	if (!ts)
		abort();
	set_t0(e, n);
	for (int i = 0; i < n; i++) {
		struct task_span *t;
		const char *nm;

		if (e[i].tid < 0 || !(nm = run_task_name(e[i].tid)))
			continue;
		t = &ts[e[i].tid];
		if (!t->seen) {
			t->first = e[i].ts;
			t->async = !strncmp(nm, "async", 5);
			nasync += t->async;
		}
		t->seen = true;
		t->last = e[i].ts;
		ncb += (e[i].kind == TEV_END && start[i] >= 0) ||
		       (e[i].kind == TEV_START && start[i] == -2);
		nremoved += e[i].kind == TEV_REMOVED && e[i].dev >= 0 &&
			    e[i].dev < s->ndev;
	}
	nrows = assign_rows(ts, nt, &lanes);
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dpmfuzz timeline</title>\n<style>", f);
	fputs(html_style, f);
	fputs("</style></head><body>\n<h1>dpmfuzz: ", f);
	if (r->violated) {
		fprintf(f, "VIOLATION %s</h1>\n<p id=\"violation\">", inv_name(r->id));
		html_esc(f, r->msg);
		fputs("</p>\n", f);
	} else {
		fputs("no violation</h1>\n", f);
	}
	fputs("<div class=\"tools\"><button id=\"zin\" title=\"zoom in (+, mouse wheel)\">+</button>"
	      "<button id=\"zout\" title=\"zoom out (-, mouse wheel)\">&minus;</button>"
	      "<button id=\"zfit\" title=\"the whole run (0)\">fit</button>"
	      "<button id=\"zmode\" title=\"x: virtual time, or the order of events\">x: order</button>"
	      "<button id=\"zviol\">to the violation</button><span id=\"span\"></span>"
	      "<span class=\"legend\">", f);
	for (int p = 0; p < NR_PHASES; p++)
		fprintf(f, "<span style=\"background:%s\">%s</span> ", phase_colour[p],
			pm_phase_name(p));
	fputs("</span><span class=\"note\">outline: <b class=\"vtxt\">red</b> returned an error, "
	      "<b style=\"color:#e67e22\">orange</b> the violation's device, dashed never returned; "
	      "&#9660; a device removed (device_del), on the task that removed it; "
	      "hatched grey: the task blocked in a wait (a completion, a lock, an async worker)</span>"
	      "</div>\n<div id=\"view\"><svg id=\"names\" width=\"190\" xmlns=\"http://www.w3.org/2000/svg\"></svg>"
	      "<div id=\"tlbox\"><svg id=\"tl\" xmlns=\"http://www.w3.org/2000/svg\"></svg></div></div>\n"
	      "<div id=\"detail\"></div>\n<h2>Device tree</h2>\n<div id=\"tree\">", f);
	tree(f, s);
	fputs("</div>\n<p id=\"summary\">", f);
	count(f, ncb, "callback", "callbacks");
	fputs(" on ", f);
	count(f, nrows - lanes + nasync, "task", "tasks");
	if (nasync) {
		fputs(" (", f);
		count(f, nasync, "async job", "async jobs");
		fputs(" in ", f);
		count(f, lanes, "lane", "lanes");
		fputs(")", f);
	}
	if (nremoved) {
		fputs(", ", f);
		count(f, nremoved, "device", "devices");
		fputs(" removed", f);
	}
	fputs(". x: virtual time (or, when no virtual time passes, the order of events); "
		"bars as long as the callback (at least 2 px); "
		"wheel or buttons zoom, drag pans, a click on a bar shows who woke its task, "
		"a click in the tree marks a device's bars.</p>\n"
		"<script type=\"application/json\" id=\"data\">", f);
	html_data(f, s, r, e, n, start, ts, nt, nrows, lanes, nasync);
	fputs("</script>\n<script>", f);
	fputs(html_script, f);
	fputs("</script>\n</body></html>\n", f);
	free(start);
	free(ts);
	return ferror(f) ? -1 : 0;
}
