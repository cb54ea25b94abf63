// SPDX-License-Identifier: GPL-2.0-only
/* The variant table and the knob list syntax. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

const struct pm_variant *pm_variant;
bool pm_variant_explore_copy;
uint64_t dpm_fixes;
bool knobs_moved_noted;

/* Whether knob k is in v's listings: neither forced nor moved. */
static bool knob_listed(const struct pm_variant *v, int k)
{
	return !((v->forced | v->moved) >> k & 1);
}

/* Compares two version strings number by number ("6.12.9" < "6.12.10"). */
static int version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		unsigned long x = strtoul(a, (char **)&a, 10);
		unsigned long y = strtoul(b, (char **)&b, 10);

		if (x != y)
			return x < y ? -1 : 1;
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		if (*a)
			a++, b++;
	}
	return 0;
}

const struct pm_variant *variant_find(const char *name)
{
	const struct pm_variant *best = NULL;
	size_t n = strlen(name);

	for (int i = 0; i < pm_nvariants; i++)
		if (!strcmp(pm_variants[i]->name, name))
			return pm_variants[i];
	/* A kernel's series names its newest tree: "kernel-6.12" the newest
	 * kernel-6.12.x, "kernel" the newest of all (docs/kernel.md); a
	 * tree that shares its version with Debian's (kernel-6.12.118+hash)
	 * only where no other tree of the series is configured. */
	for (int i = 0; i < pm_nvariants; i++) {
		const char *v = pm_variants[i]->name;
		bool local = strchr(v, '+') != NULL;

		if (!pm_variants[i]->kernel || strncmp(v, name, n) ||
		    v[n] != (strcmp(name, "kernel") ? '.' : '-'))
			continue;
		if (!best) {
			best = pm_variants[i];
		} else if (local != (strchr(best->name, '+') != NULL)) {
			if (!local)
				best = pm_variants[i];
		} else if (version_cmp(v + 7, best->name + 7) > 0) {
			best = pm_variants[i];
		}
	}
	return best;
}

const char *variant_names(void)
{
	static char buf[1024];

	if (!buf[0]) {
		size_t at = 0;

		for (int i = 0; i < pm_nvariants && at < sizeof(buf); i++)
			at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s",
					       i ? ", " : "", pm_variants[i]->name);
	}
	return buf;
}

/* The fuzz target of a variant: fuzz_ and its name, '-' as '_'. */
static void target_name(const struct pm_variant *v, char *buf, size_t n)
{
	snprintf(buf, n, "fuzz_%s", v->name);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

void variants_list(FILE *f)
{
	static const char *const feature_names[] = {
		"links", "direct-complete", "pm-wait", "transitions", "wakeup",
		"pm-stack", "late-add", "link-flags", "late-early", "sysfs-streq",
		"leave-suspended", "syscore-parents", "no-pm-async",
		"unfrozen-removal", "no-pm-parents", "suspend-again",
	};

	for (int i = 0; i < pm_nvariants; i++) {
		const struct pm_variant *v = pm_variants[i];
		char target[64];
		const char *sep = "";

		target_name(v, target, sizeof(target));
		fprintf(f, "%s\t%s\t%s\t", v->name, target, v->corpus);
		for (size_t k = 0; k < sizeof(feature_names) / sizeof(feature_names[0]); k++)
			if (v->features & (1u << k)) {
				fprintf(f, "%s%s", sep, feature_names[k]);
				sep = ",";
			}
		fprintf(f, "%s\t", *sep ? "" : "-");
		sep = "";
		for (int k = 0; k < v->nknobs; k++) {
			if (!knob_listed(v, k))
				continue;
			fprintf(f, "%s%s", sep, v->knobs[k].name);
			sep = ",";
		}
		fprintf(f, "%s\t%s\n", *sep ? "" : "-", v->summary);
	}
}

int knobs_parse(const struct pm_variant *v, const char *spec, uint64_t *mask,
		const char **bad, size_t *badlen)
{
	uint64_t m = 0;
	const char *p = spec;

	if (!strcmp(spec, "none") || !*spec) {
		*mask = 0;
		return 0;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		int k;

		if (len == 3 && !strncmp(p, "all", 3)) {
			/* Every fix; a newer scheme only when named. */
			for (k = 0; k < v->nknobs; k++)
				if (!v->knobs[k].feature)
					m |= 1ULL << k;
			goto next;
		}
		for (k = 0; k < v->nknobs; k++)
			if (strlen(v->knobs[k].name) == len &&
			    !strncmp(v->knobs[k].name, p, len))
				break;
		if (k == v->nknobs) {
			*bad = p;
			*badlen = len;
			return -1;
		}
		if (v->moved >> k & 1 && v->knobs[k].feature && v->moved_to &&
		    !knobs_moved_noted) {
			knobs_moved_noted = true;
			fprintf(stderr, "note: knob %s of %s is the variant %s now (--variant %s); running it\n",
				v->knobs[k].name, v->name, v->moved_to,
				v->moved_to);
		}
		m |= 1ULL << k;
next:
		p += len;
		if (*p == ',')
			p++;
	}
	*mask = m & ~v->forced;
	return 0;
}

void knobs_format(const struct pm_variant *v, uint64_t mask, char *buf,
		  size_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int k = 0; k < v->nknobs; k++) {
		if (!(mask & (1ULL << k)) || v->forced >> k & 1)
			continue;
		int w = snprintf(buf + at, n - at, "%s%s", at ? "," : "",
				 v->knobs[k].name);

		if (w < 0 || (size_t)w >= n - at)
			break;
		at += (size_t)w;
	}
	if (!at)
		snprintf(buf, n, "none");
}

void knobs_list(const struct pm_variant *v, FILE *f)
{
	for (int k = 0; k < v->nknobs; k++) {
		if (!knob_listed(v, k))
			continue;
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v->knobs[k].name,
			v->knobs[k].commit, v->knobs[k].reason,
			v->knobs[k].feature ? "feature" :
			v->knobs[k].tolerates ? "waiver" : "fix",
			v->knobs[k].bug ? v->knobs[k].bug : "-",
			v->knobs[k].needs && *v->knobs[k].needs ? v->knobs[k].needs : "-",
			v->knobs[k].detector ? v->knobs[k].detector : "-");
	}
}
