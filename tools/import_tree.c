// SPDX-License-Identifier: GPL-2.0-only
/*
 * Devices from the logs (tools/import_int.h): who is who, in which order
 * they sit on dpm_list, whose child each is, and their names in the
 * scenario.
 *
 * Identity.  A device is its driver, its name and its parent's name.
 * ftrace and dmesg of 4.x and later print "DRIVER DEVICE", the driver
 * being dev_driver_string() (the driver, else the bus or class; it may
 * be empty), and both may hold blanks: "i8042 kbd 00:04" is the driver
 * "i8042 kbd" and the device "00:04", "platform Fixed MDIO bus.0" the
 * bus "platform" and the device "Fixed MDIO bus.0".  With one blank the
 * split is plain.  With more, in this order:
 *   1. a reading whose device is named as some device's parent, or by a
 *      3.x dmesg (which prints names alone), is taken;
 *   2. else a reading whose driver is a bus or class name: one that
 *      prints alone for three or more other devices ("platform", "pci";
 *      bus and class names have no blanks, and every device without a
 *      driver prints one);
 *   3. else the device is the last word (sleepgraph reads it so too):
 *      device names with blanks are rarer than driver names with them.
 * Each such choice becomes a note in the output.  A 3.x dmesg device
 * (no driver) is the device of the same name and parent from the other
 * log, if there is one.  Two devices of one name stay two devices when
 * their parents or drivers differ.
 *
 * Order.  The resume side (resume, resume_early, resume_noirq) and
 * prepare walk dpm_list forward; suspend, suspend_late, suspend_noirq
 * and complete walk it backwards: the list is the order of the first
 * forward walk that shows a device, then the devices seen only walking
 * back, in reverse.  A stable pass then pulls every parent in just
 * before its first child.
 *
 * Parents.  "parent: P" names the device by name alone.  One device of
 * that name: it.  None: a root device P with no callbacks (a parent
 * only).  Several: first those of the child's bus, else those with a
 * driver of their own, else any but class devices of a P (see
 * parent_tier()); of those the last in dpm_list order before the child
 * (a parent registers before its children).  The output notes it.
 *
 * Names.  Bytes outside 0x21..0x7e and '=', '"', '#' become '_' (one per
 * UTF-8 character), cut to 39 characters; a name already taken gets
 * "~2", "~3"... and a note saying which device it is.
 */
#include <stdlib.h>
#include <string.h>

#include "import_int.h"
#include "scenario/scenario.h"

#define MAX_READINGS 8		/* blanks in "DRIVER DEVICE" worth weighing */

struct tupletab idents;

static bool no_parent(int name)
{
	struct span s = strs.str[name];

	return span_is(s, "") || span_is(s, "none") || span_is(s, "(null)");
}

/* "'i8042 kbd 00:04'" with control bytes shown as '?', for notes. */
static const char *quoted(struct span s, char *buf, size_t n)
{
	size_t len = s.n < n - 8 ? s.n : n - 8;

	snprintf(buf, n, "'%.*s%s'", (int)len, s.p, len < s.n ? "..." : "");
	return buf;
}

/* ---- identity ---- */

/* A growing int array: element i, set to -1 when first made. */
static int *slot_of(int **a, int *cap, int i)
{
	int old = *cap;

	*a = grow(*a, cap, i + 1, sizeof(int));
	for (int k = old; k < *cap; k++)
		(*a)[k] = -1;
	return &(*a)[i];
}


struct reading {
	size_t blank[MAX_READINGS];
	int n;
};

/* The blanks "DRIVER DEVICE" could split at (a leading one: no driver). */
static void readings(struct span who, struct reading *r)
{
	r->n = 0;
	for (size_t i = 0; i < who.n && r->n < MAX_READINGS; i++)
		if (who.p[i] == ' ' && i + 1 < who.n)
			r->blank[r->n++] = i;
}

static void split_at(struct span who, const struct reading *r, int k,
		     int *drv, int *name)
{
	if (!r->n) {
		*drv = st_intern(&strs, empty_span);
		*name = st_intern(&strs, who);
		return;
	}
	*drv = st_intern(&strs, sub(who, 0, r->blank[k]));
	*name = st_intern(&strs, sub(who, r->blank[k] + 1, who.n));
}

/* What decides among readings: names and drivers known for sure. */
struct evidence {
	bool *known_name;	/* [string]: a parent, or a 3.x dmesg name */
	int *drv_count;		/* [string]: plain devices with that driver */
	int nstr;		/* strings when they were counted */
};

/* Rules 1-3 of the header for a "DRIVER DEVICE" with several blanks. */
static int choose_reading(struct span who, const struct reading *r,
			  const struct evidence *ev, const char **why)
{
	for (int k = 0; k < r->n; k++) {
		int id = st_find(&strs, sub(who, r->blank[k] + 1, who.n));

		if (id >= 0 && id < ev->nstr && ev->known_name[id]) {
			*why = "a device of that name is a parent or in the dmesg";
			return k;
		}
	}
	for (int k = 0; k < r->n; k++) {
		int id = st_find(&strs, sub(who, 0, r->blank[k]));

		if (id >= 0 && id < ev->nstr && ev->drv_count[id] >= 3) {
			*why = "the driver part prints alone for other devices: a bus or class";
			return k;
		}
	}
	*why = "nothing else tells: the device is the last word";
	return r->n - 1;
}

struct resolved {
	int drv, name;
};

/*
 * (drv, name) of every identity: plain ones first, so that their drivers
 * and the names of parents can decide the ambiguous ones.
 */
static struct resolved *resolve_idents(void)
{
	struct resolved *res = xrealloc(NULL, ((size_t)idents.n + 1) * sizeof(*res));
	struct evidence ev = { 0 };
	struct reading r;
	int nstr;

	for (int i = 0; i < idents.n; i++) {
		struct span who = strs.str[idents.v[i][0]];

		res[i].drv = -1;
		res[i].name = idents.v[i][0];
		if (!idents.v[i][2])
			continue;
		readings(who, &r);
		if (r.n <= 1)
			split_at(who, &r, 0, &res[i].drv, &res[i].name);
		else
			res[i].name = -1;	/* ambiguous: decided below */
	}
	nstr = ev.nstr = strs.n;
	ev.known_name = xrealloc(NULL, (size_t)nstr + 1);
	ev.drv_count = xrealloc(NULL, ((size_t)nstr + 1) * sizeof(int));
	memset(ev.known_name, 0, (size_t)nstr + 1);
	memset(ev.drv_count, 0, ((size_t)nstr + 1) * sizeof(int));
	for (int i = 0; i < idents.n; i++) {
		ev.known_name[idents.v[i][1]] = true;
		if (!idents.v[i][2])
			ev.known_name[idents.v[i][0]] = true;
		if (res[i].name >= 0 && res[i].drv >= 0)
			ev.drv_count[res[i].drv]++;
	}
	for (int i = 0; i < idents.n; i++) {
		struct span who = strs.str[idents.v[i][0]];
		const char *why;
		char b1[96], b2[96], b3[96];
		int k;

		if (res[i].name >= 0)
			continue;
		readings(who, &r);
		k = choose_reading(who, &r, &ev, &why);
		split_at(who, &r, k, &res[i].drv, &res[i].name);
		note("%s read as driver %s, device %s (%s)", quoted(who, b1, sizeof(b1)),
		     quoted(strs.str[res[i].drv], b2, sizeof(b2)),
		     quoted(strs.str[res[i].name], b3, sizeof(b3)), why);
	}
	free(ev.known_name);
	free(ev.drv_count);
	return res;
}

static int add_dev(struct tree *t, int drv, int name, int parent_name)
{
	struct tdev *d;

	t->dev = grow(t->dev, &t->cap, t->ndev + 1, sizeof(*t->dev));
	d = &t->dev[t->ndev];
	memset(d, 0, sizeof(*d));
	d->drv = drv;
	d->name = name;
	d->parent_name = parent_name;
	d->parent = -1;
	return t->ndev++;
}

/*
 * Which (name, parent) groups hold devices that exist side by side: two
 * driver strings called back in one phase of one transition.  Else the
 * group's driver strings are one device whose driver changed (unbound
 * in the middle of the transition: "pcieport 0000:02:02.0" suspends,
 * "pci 0000:02:02.0" resumes).
 */
static bool *side_by_side(const struct resolved *res, const struct tupletab *by_np,
			  const int *ident_np, struct call *const *calls,
			  const int *ncalls, int nlists)
{
	bool *both = xrealloc(NULL, (size_t)by_np->n + 1);
	struct tupletab seen = { 0 }, cell = { 0 };
	int *first_drv = NULL, cap = 0;

	memset(both, 0, (size_t)by_np->n + 1);
	for (int l = 0; l < nlists; l++) {
		for (int i = 0; i < ncalls[l]; i++) {
			const struct call *c = &calls[l][i];
			int id = c->ident, np = ident_np[id], when, k, old;

			if (!idents.v[id][2] || both[np])
				continue;
			when = c->cycle * NR_PHASES + c->phase;
			old = seen.n;
			if (tt_intern(&seen, np, when, res[id].drv) != old)
				continue;
			old = cell.n;
			k = tt_intern(&cell, np, when, 0);
			if (k == old)
				*slot_of(&first_drv, &cap, k) = res[id].drv;
			else if (first_drv[k] != res[id].drv)
				both[np] = true;
		}
	}
	tt_free(&seen);
	tt_free(&cell);
	free(first_drv);
	return both;
}

/*
 * Identities to devices: one device per (name, parent) unless the group
 * holds devices side by side (class devices: scsi_disk, scsi_device and
 * bsg 4:0:0:0 under 4:0:0:0), then one per (driver, name, parent).  A
 * 3.x dmesg identity (no driver) is the first device of its name and
 * parent (noted when there are several).
 */
static void make_devices(struct tree *t, struct call *const *calls,
			 const int *ncalls, int nlists)
{
	struct resolved *res = resolve_idents();
	struct tupletab keys = { 0 }, by_np = { 0 };
	int *ident_np = xrealloc(NULL, ((size_t)idents.n + 1) * sizeof(int));
	int *key_dev = NULL, *np_dev = NULL, *np_count = NULL;
	int key_cap = 0, np_cap = 0, cnt_cap = 0;
	bool *both;

	for (int i = 0; i < idents.n; i++)
		ident_np[i] = tt_intern(&by_np, res[i].name, idents.v[i][1], 0);
	both = side_by_side(res, &by_np, ident_np, calls, ncalls, nlists);
	t->ident_dev = xrealloc(NULL, ((size_t)idents.n + 1) * sizeof(int));
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < idents.n; i++) {
			int parent = idents.v[i][1], np = ident_np[i], *d, *cnt;
			char b1[96], b2[96], b3[96];

			if ((idents.v[i][2] != 0) == (pass != 0))
				continue;
			cnt = slot_of(&np_count, &cnt_cap, np);
			d = slot_of(&np_dev, &np_cap, np);
			if (!pass && both[np])
				d = slot_of(&key_dev, &key_cap,
					    tt_intern(&keys, res[i].drv, res[i].name, parent));
			else if (pass && *cnt > 1)
				note("the dmesg's %s under %s is one of %d devices of that name and parent in the ftrace; taken as the first",
				     quoted(strs.str[res[i].name], b1, sizeof(b1)),
				     quoted(strs.str[parent], b2, sizeof(b2)), *cnt);
			else if (!pass && *d >= 0 && t->dev[*d].drv != res[i].drv)
				note("%s under %s is the device of driver %s: never both in one phase, so its driver changed",
				     quoted(strs.str[idents.v[i][0]], b1, sizeof(b1)),
				     quoted(strs.str[parent], b3, sizeof(b3)),
				     quoted(strs.str[t->dev[*d].drv], b2, sizeof(b2)));
			if (*d < 0) {
				*d = add_dev(t, res[i].drv, res[i].name, parent);
				*cnt = *cnt < 0 ? 1 : *cnt + 1;
				if (np_dev[np] < 0)
					np_dev[np] = *d;
			}
			t->ident_dev[i] = *d;
		}
	}
	tt_free(&keys);
	tt_free(&by_np);
	free(ident_np);
	free(both);
	free(key_dev);
	free(np_dev);
	free(np_count);
	free(res);
}

/* ---- dpm_list order ---- */

static bool forward_walk(int ph)
{
	return ph == PH_PREPARE || ph == PH_RESUME_NOIRQ ||
	       ph == PH_RESUME_EARLY || ph == PH_RESUME;
}

/*
 * A first guess, the rank: the order of the first forward walk that
 * shows a device (resume, resume_early, resume_noirq, prepare), then the
 * devices seen only walking back (suspend, suspend_late, suspend_noirq,
 * complete) in reverse.
 */
static void rank_devices(struct tree *t, struct call *const *calls,
			 const int *ncalls, int nlists, int *rank)
{
	static const int fwd[] = {
		PH_RESUME, PH_RESUME_EARLY, PH_RESUME_NOIRQ, PH_PREPARE,
	};
	static const int back[] = {
		PH_SUSPEND, PH_SUSPEND_LATE, PH_SUSPEND_NOIRQ, PH_COMPLETE,
	};
	int n = 0;

	for (int d = 0; d < t->ndev; d++)
		rank[d] = -1;
	for (int k = 0; k < 4; k++)
		for (int l = 0; l < nlists; l++)
			for (int i = 0; i < ncalls[l]; i++) {
				int d = t->ident_dev[calls[l][i].ident];

				if (calls[l][i].phase == fwd[k] && rank[d] < 0)
					rank[d] = n++;
			}
	for (int k = 0; k < 4; k++)
		for (int l = 0; l < nlists; l++)
			for (int i = ncalls[l]; i-- > 0;) {
				int d = t->ident_dev[calls[l][i].ident];

				if (calls[l][i].phase == back[k] && rank[d] < 0)
					rank[d] = n++;
			}
	for (int d = 0; d < t->ndev; d++)
		if (rank[d] < 0)
			rank[d] = n++;
}

/* A min-heap of devices by rank. */
struct heap {
	int *v, n;
	const int *rank;
};

static void heap_push(struct heap *h, int d)
{
	int i = h->n++;

	for (; i && h->rank[h->v[(i - 1) / 2]] > h->rank[d]; i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = d;
}

static int heap_pop(struct heap *h)
{
	int top = h->v[0], last = h->v[--h->n], i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->rank[h->v[c + 1]] < h->rank[h->v[c]])
			c++;
		if (h->rank[h->v[c]] >= h->rank[last])
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

/*
 * dpm_list order: the PM thread runs a phase's synchronous callbacks in
 * list order, forward or backwards, so each two it runs one after the
 * other in a phase say which device comes first.  Those constraints from
 * every phase of every log, sorted topologically, ties (and a cycle,
 * which only a corrupt log makes) broken by rank.  In 4.x and later
 * logs prepare shows every device: the order is exact.
 */
static void order_devices(struct tree *t, struct call *const *calls,
			  const int *ncalls, int nlists, int *pos)
{
	int n = t->ndev, ne = 0, ecap = 0, placed = 0, scan = 0;
	int *rank = xrealloc(NULL, ((size_t)n + 1) * sizeof(int));
	int *by_rank = xrealloc(NULL, ((size_t)n + 1) * sizeof(int));
	int *indeg = xrealloc(NULL, ((size_t)n + 1) * sizeof(int));
	int *start = xrealloc(NULL, ((size_t)n + 2) * sizeof(int));
	int (*edge)[2] = NULL;
	int *adj;
	struct heap h = { xrealloc(NULL, ((size_t)n + 1) * sizeof(int)), 0, rank };

	rank_devices(t, calls, ncalls, nlists, rank);
	for (int l = 0; l < nlists; l++) {
		const struct call *prev = NULL;

		for (int i = 0; i < ncalls[l]; i++) {
			const struct call *c = &calls[l][i];
			int a, b;

			if (c->async)
				continue;
			if (prev && prev->phase == c->phase && prev->cycle == c->cycle) {
				a = t->ident_dev[prev->ident];
				b = t->ident_dev[c->ident];
				if (a != b) {
					edge = grow(edge, &ecap, ne + 1, sizeof(*edge));
					edge[ne][0] = forward_walk(c->phase) ? a : b;
					edge[ne][1] = forward_walk(c->phase) ? b : a;
					ne++;
				}
			}
			prev = c;
		}
	}
	memset(indeg, 0, ((size_t)n + 1) * sizeof(int));
	memset(start, 0, ((size_t)n + 2) * sizeof(int));
	for (int e = 0; e < ne; e++) {
		start[edge[e][0] + 1]++;
		indeg[edge[e][1]]++;
	}
	for (int d = 0; d < n; d++)
		start[d + 1] += start[d];
	adj = xrealloc(NULL, ((size_t)ne + 1) * sizeof(int));
	for (int e = 0; e < ne; e++)
		adj[start[edge[e][0]]++] = edge[e][1];
	for (int d = n; d > 0; d--)
		start[d] = start[d - 1];
	start[0] = 0;
	free(edge);
	for (int d = 0; d < n; d++) {
		by_rank[rank[d]] = d;
		pos[d] = -1;
		if (!indeg[d])
			heap_push(&h, d);
	}
	free(t->order);
	t->order = xrealloc(NULL, ((size_t)n + 1) * sizeof(int));
	while (placed < n) {
		int d;

		if (h.n) {
			d = heap_pop(&h);
			if (pos[d] >= 0)
				continue;
		} else {
			/* a cycle: the first by rank not placed yet */
			while (pos[by_rank[scan]] >= 0)
				scan++;
			d = by_rank[scan];
		}
		pos[d] = placed;
		t->order[placed++] = d;
		for (int k = start[d]; k < start[d + 1]; k++)
			if (--indeg[adj[k]] == 0 && pos[adj[k]] < 0)
				heap_push(&h, adj[k]);
	}
	t->norder = n;
	free(adj);
	free(h.v);
	free(start);
	free(indeg);
	free(by_rank);
	free(rank);
}

/* ---- parents ---- */

/*
 * How likely c, named like d's parent, is it: 0, the same bus as d (a
 * platform device under a platform device); 1, a device with a driver
 * of its own (its children are what its driver made: a battery's
 * power_supply, a button's input); 2, any other; 3, a class device of a
 * device so named (scsi_disk 4:0:0:0 under sd 4:0:0:0), which is never
 * anybody's parent.  A driver string printed by eight or more devices,
 * or by devices under four or more parents, is taken for a bus or class
 * name ("platform", "acpi"): no driver of its own; a driver's devices
 * are few and sit under one or two parents (button, battery).
 */
static int parent_tier(const struct tree *t, int c, int d, const bool *bus)
{
	const struct tdev *p = &t->dev[c], *k = &t->dev[d];

	if (p->parent_name == p->name)
		return 3;
	if (p->drv >= 0 && p->drv == k->drv)
		return 0;
	if (p->drv < 0 || !bus[p->drv])
		return 1;
	return 2;
}

/*
 * The parent of each logged device by name; pos is the dpm_list
 * position.  Devices of one name are chained in list order through
 * next, from first[name].
 */
static void link_parents(struct tree *t, const int *pos)
{
	int nlogged = t->ndev, nstr = strs.n;
	int *first = xrealloc(NULL, ((size_t)nstr + 1) * sizeof(int));
	int *next = xrealloc(NULL, ((size_t)nlogged + 1) * sizeof(int));
	int *only = xrealloc(NULL, ((size_t)nstr + 1) * sizeof(int));

	bool *bus = xrealloc(NULL, (size_t)nstr + 1);
	int *ndevs = xrealloc(NULL, ((size_t)nstr + 1) * sizeof(int));
	int *nparents = xrealloc(NULL, ((size_t)nstr + 1) * sizeof(int));
	struct tupletab pairs = { 0 };

	memset(first, 0xff, ((size_t)nstr + 1) * sizeof(int));
	memset(only, 0xff, ((size_t)nstr + 1) * sizeof(int));
	memset(ndevs, 0, ((size_t)nstr + 1) * sizeof(int));
	memset(nparents, 0, ((size_t)nstr + 1) * sizeof(int));
	for (int d = 0; d < nlogged; d++) {
		const struct tdev *v = &t->dev[d];
		int old = pairs.n;

		if (v->drv < 0)
			continue;
		ndevs[v->drv]++;
		if (tt_intern(&pairs, v->drv, v->parent_name, 0) == old)
			nparents[v->drv]++;
	}
	for (int k = 0; k < nstr; k++)
		bus[k] = ndevs[k] >= 8 || nparents[k] >= 4;
	tt_free(&pairs);
	free(ndevs);
	free(nparents);
	for (int i = t->norder; i-- > 0;) {
		int d = t->order[i];

		next[d] = first[t->dev[d].name];
		first[t->dev[d].name] = d;
	}
	for (int i = 0; i < t->norder; i++) {
		int d = t->order[i], pn = t->dev[d].parent_name, best = -1, n = 0;

		if (no_parent(pn))
			continue;
		for (int c = first[pn]; c >= 0; c = next[c])
			n += c != d;
		for (int tier = 0; tier < 4 && best < 0; tier++) {
			for (int c = first[pn]; c >= 0; c = next[c]) {
				if (c == d || parent_tier(t, c, d, bus) > tier)
					continue;
				if (best < 0 || pos[c] < pos[d])
					best = c;
			}
		}
		if (n > 1)
			t->dev[d].ambiguous_parent = n;
		if (best < 0 && first[pn] < 0) {
			/* Named only as a parent: a root with no callbacks. */
			if (only[pn] < 0)
				only[pn] = add_dev(t, -1, pn, st_intern(&strs, empty_span));
			best = only[pn];
		}
		t->dev[d].parent = best;
	}
	free(first);
	free(next);
	free(only);
	free(bus);
}

/*
 * Place d after its ancestors (a stable topological pass, parents just
 * before their first child).  Iterative: a corrupt log can chain any
 * number of devices.  A cycle, impossible in a sane log, is cut.
 */
static void place(struct tree *t, int d, int *stack, int *out, int *nout)
{
	int top = 0;

	while (!t->dev[d].state) {
		int p = t->dev[d].parent;

		t->dev[d].state = 1;
		stack[top++] = d;
		if (p < 0)
			break;
		if (t->dev[p].state == 1) {
			t->dev[d].parent = -1;
			break;
		}
		d = p;
	}
	while (top) {
		d = stack[--top];
		t->dev[d].state = 2;
		out[(*nout)++] = d;
	}
}

static void place_all(struct tree *t)
{
	int *stack = xrealloc(NULL, ((size_t)t->ndev + 1) * sizeof(int));
	int *out = xrealloc(NULL, ((size_t)t->ndev + 1) * sizeof(int)), n = 0;

	for (int i = 0; i < t->norder; i++)
		place(t, t->order[i], stack, out, &n);
	for (int d = 0; d < t->ndev; d++)
		if (!t->dev[d].state)
			place(t, d, stack, out, &n);
	free(stack);
	free(t->order);
	t->order = out;
	t->norder = n;
}

/* ---- names ---- */

/*
 * Bytes in one UTF-8 character at s, or 1 for a stray byte: the logs are
 * read as UTF-8 with errors replaced, one '_' per character.
 */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t want, i = 1;

	if (c >= 0xc2 && c <= 0xdf)
		want = 2;
	else if (c >= 0xe0 && c <= 0xef)
		want = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		want = 4;
	else
		return 1;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < 2 || s[1] < lo || s[1] > hi)
		return 1;
	for (i = 2; i < want && i < n && (s[i] & 0xc0) == 0x80; i++)
		;
	return i;
}

static void sanitize(struct span raw, char *out)
{
	const unsigned char *p = (const unsigned char *)raw.p;
	size_t n = 0;

	for (size_t i = 0; i < raw.n && n < SCN_NAME_MAX;) {
		if (p[i] < 0x80) {
			out[n++] = scenario_name_char_ok(p[i]) ? (char)p[i] : '_';
			i++;
		} else {
			out[n++] = '_';
			i += utf8_len(p + i, raw.n - i);
		}
	}
	if (!n)
		out[n++] = '_';
	out[n] = '\0';
}

/* "driver 'usb', parent '1-1'" for notes (cut to n: notes are one line). */
static void describe(const struct tree *t, int d, char *buf, size_t n)
{
	const struct tdev *v = &t->dev[d];
	char b1[96], b2[96];


	if (v->drv >= 0)
		snprintf(buf, n, "driver %s, parent %s",
			 quoted(strs.str[v->drv], b1, sizeof(b1)),
			 quoted(strs.str[v->parent_name], b2, sizeof(b2)));
	else
		snprintf(buf, n, "parent %s",
			 quoted(strs.str[v->parent_name], b2, sizeof(b2)));
}

/*
 * Unique names in output order: a taken name gets "~2", "~3"...  The
 * next number to try is kept per base name, which keeps it linear.
 */
static void name_devices(struct tree *t)
{
	struct strtab used = { 0 }, bases = { 0 };
	int *next = NULL, next_cap = 0, *owner = NULL, owner_cap = 0;

	for (int i = 0; i < t->norder; i++) {
		struct tdev *d = &t->dev[t->order[i]];
		const char *base = d->base;
		int bi, n, u;

		sanitize(strs.str[d->name], d->base);
		bi = st_intern(&bases, cstr(d->base));
		if (bi >= next_cap) {
			int old = next_cap;

			next = grow(next, &next_cap, bi + 1, sizeof(int));
			for (int k = old; k < next_cap; k++)
				next[k] = 1;
		}
		strcpy(d->out, base);
		for (n = next[bi]; st_find(&used, cstr(d->out)) >= 0;) {
			char suf[16];
			int len = snprintf(suf, sizeof(suf), "~%d", ++n);

			snprintf(d->out, sizeof(d->out), "%.*s%s",
				 (int)(SCN_NAME_MAX - len), base, suf);
		}
		next[bi] = n;
		/* the keys point into d->out, which stays put from here */
		u = st_intern(&used, cstr(d->out));
		*slot_of(&owner, &owner_cap, u) = t->order[i];
		if (strcmp(d->out, base)) {
			int o = owner[st_find(&used, cstr(base))];
			char b1[256], b2[256];

			describe(t, t->order[i], b1, sizeof(b1));
			describe(t, o, b2, sizeof(b2));
			note("%s is the device named %s with %s (%s has %s)", d->out,
			     base, b1, base, b2);
		}
	}
	free(next);
	free(owner);
	st_free(&used);
	st_free(&bases);
}

/* Notes for the parents picked among several of one name. */
static void note_parents(const struct tree *t)
{
	for (int d = 0; d < t->ndev; d++) {
		const struct tdev *v = &t->dev[d];

		if (v->ambiguous_parent > 1 && v->parent >= 0)
			note("%s: %d devices are named like its parent; took %s (same bus, else a driver of its own, not a class device; the last in dpm_list before it)",
			     v->out, v->ambiguous_parent, t->dev[v->parent].out);
	}
}

void tree_build(struct tree *t, struct call *const *calls, const int *ncalls,
		int nlists)
{
	int *pos;

	make_devices(t, calls, ncalls, nlists);
	pos = xrealloc(NULL, ((size_t)t->ndev + 1) * sizeof(int));
	order_devices(t, calls, ncalls, nlists, pos);
	for (int l = 0; l < nlists; l++)
		for (int i = 0; i < ncalls[l]; i++)
			t->dev[t->ident_dev[calls[l][i].ident]].async |=
				calls[l][i].async;
	link_parents(t, pos);
	free(pos);
	place_all(t);
	name_devices(t);
	note_parents(t);
}

void tree_free(struct tree *t)
{
	free(t->dev);
	free(t->ident_dev);
	free(t->order);
	memset(t, 0, sizeof(*t));
}
