/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel tree as a registry entry (kernel/variant.c): the build writes
 * one definition per tree configured,
 *	KERNEL_VARIANT(variant_kernel_6_12_118, "kernel-6.12.118",
 *		       dpmk_tree_6_12_118, "modern");
 * the last argument the model fuzz_diff compares it with, or NULL.
 */
#ifndef DPMK_VARIANT_H
#define DPMK_VARIANT_H

#include "variants/variant.h"

extern const struct variant_ops kernel_variant_ops;
extern const struct diff_config kernel_diff[];
#define KERNEL_NKNOBS 3
extern const struct knob kernel_knobs[KERNEL_NKNOBS];

#define KERNEL_VARIANT(sym, name_, tree, diff_with_)                        \
	extern const struct dpmk_tree tree;                                 \
	const struct pm_variant sym = {                                     \
		.name = name_,                                              \
		.summary = "drivers/base/power/main.c of this kernel tree, unmodified", \
		.corpus = "kernel",                                         \
		.features = VF_LINKS | VF_DIRECT_COMPLETE | VF_PM_WAIT |    \
			    VF_TRANSITIONS | VF_WAKEUP | VF_PM_STACK |     \
			    VF_LATE_ADD | VF_LINK_FLAGS | VF_LATE_EARLY |   \
			    VF_SYSFS_STREQ,                                 \
		.knobs = kernel_knobs,                                      \
		.nknobs = KERNEL_NKNOBS,                                    \
		.diff = kernel_diff,                                        \
		.diff_with = diff_with_,                                    \
		.ops = &kernel_variant_ops,                                 \
		.kernel = &tree,                                            \
	}

#endif
