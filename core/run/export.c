// SPDX-License-Identifier: GPL-2.0-only
/* Trace export of a logged run: Chrome trace-event JSON and HTML. */
#include <stdlib.h>
#include <string.h>

#include "run.h"

static void json_str(FILE *f, const char *t)
{
	fputc('"', f);
	for (; *t; t++) {
		unsigned char c = (unsigned char)*t;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

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

int export_trace_json(const struct scenario *s, FILE *f)
{
	int n;
	const struct tev *e = run_events(&n);
	int *start = pair_starts(e, n);
	bool first = true;
	int maxtid = -1;

	fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
#define SEP() (first ? (first = false, "\n") : ",\n")
	for (int i = 0; i < n; i++)
		if (e[i].tid > maxtid)
			maxtid = e[i].tid;
	for (int t = 0; t <= maxtid; t++) {
		const char *nm = run_task_name(t);

		if (!nm)
			continue;
		fprintf(f, "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":",
			SEP(), t);
		json_str(f, nm);
		fprintf(f, "}}");
	}
	int flow = 0;

	for (int i = 0; i < n; i++) {
		const struct tev *v = &e[i];

		if (v->kind == TEV_END && start[i] >= 0) {
			const struct tev *b = &e[start[i]];
			char name[96];

			snprintf(name, sizeof(name), "%s %s", s->dev[v->dev].name,
				 pm_phase_name(v->phase));
			fprintf(f, "%s{\"ph\":\"X\",\"name\":", SEP());
			json_str(f, name);
			fprintf(f, ",\"cat\":\"%s\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"device\":",
				pm_phase_name(v->phase), v->tid, us(b->ts),
				us(v->ts - b->ts));
			json_str(f, s->dev[v->dev].name);
			fprintf(f, ",\"error\":%d}}", v->err);
		} else if (v->kind == TEV_START && start[i] == -2) {
			/* A callback that never ended: an open slice. */
			fprintf(f, "%s{\"ph\":\"B\",\"name\":\"%s %s\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), s->dev[v->dev].name, pm_phase_name(v->phase),
				v->tid, us(v->ts));
		} else if (v->kind == TEV_PHASE_BEGIN || v->kind == TEV_PHASE_END) {
			fprintf(f, "%s{\"ph\":\"i\",\"s\":\"p\",\"name\":\"%s %s\",\"cat\":\"phase\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), pm_phase_name(v->phase),
				v->kind == TEV_PHASE_BEGIN ? "begin" : "end",
				v->tid, us(v->ts));
		} else if (v->kind == TEV_RELEASE) {
			flow++;
			fprintf(f, "%s{\"ph\":\"s\",\"id\":%d,\"name\":\"release\",\"cat\":\"release\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), flow, v->tid, us(v->ts));
			fprintf(f, "%s{\"ph\":\"f\",\"bp\":\"e\",\"id\":%d,\"name\":\"release\",\"cat\":\"release\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), flow, v->err, us(v->ts));
		} else if (v->kind == TEV_VIOLATION) {
			fprintf(f, "%s{\"ph\":\"i\",\"s\":\"g\",\"name\":\"VIOLATION %s\",\"cat\":\"violation\",\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
				SEP(), inv_name(v->err), v->tid, us(v->ts));
		}
	}
#undef SEP
	fprintf(f, "\n]}\n");
	free(start);
	return ferror(f) ? -1 : 0;
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

static void tree(FILE *f, const struct scenario *s, int parent)
{
	bool open = false;

	for (int i = 0; i < s->ndev; i++) {
		if (s->dev[i].parent != parent)
			continue;
		if (!open)
			fputs("<ul>", f);
		open = true;
		fputs("<li>", f);
		html_esc(f, s->dev[i].name);
		if (s->dev[i].async || s->dev[i].pci)
			fputs(" <i>async</i>", f);
		tree(f, s, i);
		fputs("</li>", f);
	}
	if (open)
		fputs("</ul>", f);
}

int export_html(const struct scenario *s, const struct run_result *r, FILE *f)
{
	int n;
	const struct tev *e = run_events(&n);
	int *start = pair_starts(e, n);
	double *x = malloc(sizeof(double) * (size_t)(n ? n : 1));
	int maxtid = 0, row[4096];
	uint64_t tmax = 1;

	if (!x)
		abort();
	for (int i = 0; i < n; i++) {
		if (e[i].tid > maxtid)
			maxtid = e[i].tid;
		if (e[i].ts > tmax)
			tmax = e[i].ts;
	}
	if (maxtid >= 4096)
		maxtid = 4095;
	/* Positions: by virtual time, but every event at least 4 px after the
	 * one before, so that order shows even when no time passes. */
	double scale = 1200.0 / (double)tmax, last = 0;

	for (int i = 0; i < n; i++) {
		double p = (double)e[i].ts * scale;

		x[i] = p > last + 4 ? p : last + 4;
		last = x[i];
	}
	int rows = 0;

	for (int t = 0; t <= maxtid; t++)
		row[t] = run_task_name(t) ? rows++ : -1;
	double width = last + 200;

	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dpmfuzz timeline</title>\n"
		"<style>body{font:13px sans-serif;margin:16px}rect.bar{stroke:#222;stroke-width:.5}"
		"text{font:11px sans-serif}.v{fill:#c0392b;font-weight:bold}ul{margin:0;padding-left:18px}"
		".legend span{display:inline-block;padding:2px 6px;margin:2px;color:#fff}</style></head><body>\n");
	fprintf(f, "<h1>dpmfuzz: ");
	if (r->violated) {
		fprintf(f, "VIOLATION %s</h1>\n<p id=\"violation\">", inv_name(r->id));
		html_esc(f, r->msg);
		fputs("</p>\n", f);
	} else {
		fputs("no violation</h1>\n", f);
	}
	fputs("<div class=\"legend\">", f);
	for (int p = 0; p < NR_PHASES; p++)
		fprintf(f, "<span style=\"background:%s\">%s</span>", phase_colour[p],
			pm_phase_name(p));
	fputs("</div>\n", f);
	fprintf(f, "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%d\">\n",
		width + 160, 30 + 24 * rows);
	for (int t = 0; t <= maxtid; t++) {
		if (row[t] < 0)
			continue;
		fprintf(f, "<text x=\"4\" y=\"%d\">", 38 + 24 * row[t]);
		html_esc(f, run_task_name(t));
		fputs("</text>\n", f);
	}
	int bars = 0;

	for (int i = 0; i < n; i++) {
		const struct tev *v = &e[i];

		if (v->tid > maxtid || v->tid < 0 || row[v->tid] < 0)
			continue;
		int y = 24 + 24 * row[v->tid];

		if (v->kind == TEV_END && start[i] >= 0) {
			double x0 = x[start[i]], w = x[i] - x0;

			fprintf(f, "<rect class=\"bar\" data-phase=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"><title>",
				pm_phase_name(v->phase), 160 + x0, y, w < 3 ? 3 : w,
				phase_colour[v->phase]);
			html_esc(f, s->dev[v->dev].name);
			fprintf(f, " %s: %.3f ms, returned %d</title></rect>\n",
				pm_phase_name(v->phase),
				(double)(v->ts - e[start[i]].ts) / 1e6, v->err);
			bars++;
		} else if (v->kind == TEV_START && start[i] == -2) {
			/* Started, never ended: drawn open to the right. */
			fprintf(f, "<rect class=\"bar open\" data-phase=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\" stroke-dasharray=\"3\"><title>",
				pm_phase_name(v->phase), 160 + x[i], y,
				last - x[i] + 40, phase_colour[v->phase]);
			html_esc(f, s->dev[v->dev].name);
			fprintf(f, " %s: never returned</title></rect>\n",
				pm_phase_name(v->phase));
			bars++;
		} else if (v->kind == TEV_VIOLATION) {
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%d\" stroke=\"#c0392b\" stroke-width=\"2\"/>"
				"<text class=\"v\" id=\"violation-mark\" x=\"%.1f\" y=\"14\">%s</text>\n",
				160 + x[i], 160 + x[i], 30 + 24 * rows, 164 + x[i],
				inv_name(v->err));
		}
	}
	fputs("</svg>\n<h2>Device tree</h2>\n<div id=\"tree\">", f);
	tree(f, s, -1);
	fprintf(f, "</div>\n<p>%d callbacks on %d tasks; x: virtual time, at least 4 px between events.</p>\n</body></html>\n",
		bars, rows);
	free(start);
	free(x);
	return ferror(f) ? -1 : 0;
}
