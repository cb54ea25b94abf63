// SPDX-License-Identifier: GPL-2.0-only
/*
 * The registry as every tool relies on it: each variant has a unique
 * name that variant_find() returns it for, a corpus, every hook a run
 * calls (and the model hooks a hand-written model must give), knobs
 * with unique names and a commit and a reason each, and a fuzz_diff
 * partner that exists and has a configuration.  A kernel series names
 * its newest tree.
 */
#include <string.h>

#include "device/device.h"
#include "variants/variant.h"
#include "expect.h"

static void check_hooks(const struct pm_variant *v)
{
	const struct variant_ops *o = v->ops;

	EXPECT_TRUE(o != NULL);
	if (!o)
		return;
	EXPECT_TRUE(o->setup && o->transition && o->unregister &&
		    o->async_store && o->teardown && o->abandon);
	/* A hand-written model runs on the model driver core, which calls
	 * these unconditionally (core/variants/model.c, core/device). */
	if (v->model) {
		const struct model_ops *m = v->model;

		EXPECT_TRUE(m->reset && m->device_pm_init && m->device_pm_add &&
			    m->device_pm_remove && m->suspend_resume &&
			    m->device_enable_async_suspend && m->async_store);
		if (v->features & VF_PM_WAIT)
			EXPECT_TRUE(m->device_pm_wait_for_dev != NULL);
	}
	EXPECT_TRUE((v->model != NULL) != (v->kernel != NULL));
	/* The explorable copy is a kernel tree's, another object than the
	 * tree's own; a build that makes copies makes one for every tree
	 * (else the search would silently take the tree as opaque). */
	EXPECT_TRUE(!v->kernel_explore || (v->kernel && v->kernel_explore != v->kernel));
#ifdef DPM_EXPECT_KERNEL_EXPLORE
	EXPECT_TRUE(!v->kernel || v->kernel_explore);
#endif
}

static void check_knobs(const struct pm_variant *v)
{
	EXPECT_TRUE(v->nknobs >= 0 && v->nknobs <= 64);
	for (int k = 0; k < v->nknobs; k++) {
		const struct knob *a = &v->knobs[k];

		EXPECT_TRUE(a->name && a->name[0] && !strchr(a->name, ','));
		EXPECT_TRUE(a->commit && a->commit[0]);
		EXPECT_TRUE(a->reason && strlen(a->reason) > 20);
		for (int j = 0; j < k; j++)
			EXPECT_TRUE(strcmp(a->name, v->knobs[j].name) != 0);
	}
}

/* Forced and moved knobs are knobs of the variant, never both; a
 * variant whose knobs moved names the variant they went to, which shares
 * the knobs and forces the moved feature knobs; "all" leaves the forced
 * ones out (a run adds them). */
static void check_forced_moved(const struct pm_variant *v)
{
	uint64_t mine = v->nknobs >= 64 ? ~0ULL : (1ULL << v->nknobs) - 1;
	uint64_t all;
	const char *bad;
	size_t bl;

	EXPECT_TRUE(!(v->forced & ~mine) && !(v->moved & ~mine));
	EXPECT_TRUE(!(v->forced & v->moved));
	EXPECT_TRUE(!v->moved == !v->moved_to);
	EXPECT_EQ(knobs_parse(v, "all", &all, &bad, &bl), 0);
	EXPECT_TRUE(!(all & v->forced));
	EXPECT_TRUE(knobs_effective(v, 0) == v->forced);
	if (v->moved_to) {
		const struct pm_variant *w = variant_find(v->moved_to);

		EXPECT_TRUE(w && w != v && w->knobs == v->knobs &&
			    w->model == v->model);
		for (int k = 0; w && k < v->nknobs; k++)
			if (v->moved >> k & 1 && v->knobs[k].feature)
				EXPECT_TRUE(w->forced >> k & 1);
	}
}

static void test_variants(void)
{
	EXPECT_TRUE(pm_nvariants >= 3);
	for (int i = 0; i < pm_nvariants; i++) {
		const struct pm_variant *v = pm_variants[i];

		EXPECT_TRUE(v->name && v->name[0] && v->summary && v->corpus);
		EXPECT_TRUE(variant_find(v->name) == v);
		for (int j = 0; j < i; j++)
			EXPECT_TRUE(strcmp(v->name, pm_variants[j]->name) != 0);
		check_hooks(v);
		check_knobs(v);
		check_forced_moved(v);
		if (v->diff_with) {
			const struct pm_variant *w = variant_find(v->diff_with);

			EXPECT_TRUE(w && w != v && w->diff && v->diff);
		}
	}
	EXPECT_TRUE(variant_find("nope") == NULL);
	EXPECT_TRUE(variant_find("") == NULL);
}

/* "kernel-X.Y" and "kernel" name the newest configured tree of the
 * series; a prefix that is no series names nothing. */
static void test_kernel_series(void)
{
	const struct pm_variant *newest = NULL;

	for (int i = 0; i < pm_nvariants; i++) {
		const struct pm_variant *v = pm_variants[i];
		char series[64];

		if (!v->kernel)
			continue;
		EXPECT_TRUE(!strncmp(v->name, "kernel-", 7));
		/* kernel-6.12.118 -> kernel-6.12 */
		const char *dot = strchr(v->name + 7, '.');

		dot = dot ? strchr(dot + 1, '.') : NULL;
		if (dot) {
			snprintf(series, sizeof(series), "%.*s",
				 (int)(dot - v->name), v->name);
			const struct pm_variant *s = variant_find(series);

			EXPECT_TRUE(s && s->kernel &&
				    !strncmp(s->name, series, strlen(series)) &&
				    s->name[strlen(series)] == '.');
		}
		newest = variant_find("kernel");
		EXPECT_TRUE(newest && newest->kernel);
	}
	EXPECT_TRUE(variant_find("kernel-6.1234") == NULL);
	EXPECT_TRUE(variant_find("kernel-") == NULL);
}

int main(void)
{
	test_variants();
	test_kernel_series();
	return test_summary("test_registry");
}
