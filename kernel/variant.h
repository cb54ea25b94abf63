/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel tree as a registry entry (kernel/variant.c): the build writes
 * one definition per tree configured,
 *	KERNEL_VARIANT(variant_kernel_6_12_118, "kernel-6.12.118",
 *		       dpmk_tree_6_12_118, "modern", kernel_knobs, KERNEL_NKNOBS, 0);
 * "modern" the model fuzz_diff compares it with, or NULL; the knobs are
 * kernel_knobs_inline for a tree whose async jobs may run inline; the
 * last, features only some trees have (VF_LEAVE_SUSPENDED).
 */
#ifndef DPMK_VARIANT_H
#define DPMK_VARIANT_H

#include "variants/variant.h"

extern const struct variant_ops kernel_variant_ops;
extern const struct diff_config kernel_diff[];
#define KERNEL_NKNOBS 2
extern const struct knob kernel_knobs[KERNEL_NKNOBS];
/* The same and "nocall", for trees whose jobs may run inline. */
#define KERNEL_NKNOBS_INLINE 3
extern const struct knob kernel_knobs_inline[KERNEL_NKNOBS_INLINE];

#define KERNEL_VARIANT(sym, name_, tree, diff_with_, knobs_, nknobs_, feat_) \
	extern const struct dpmk_tree tree;                                 \
	const struct pm_variant sym = {                                     \
		.name = name_,                                              \
		.summary = "drivers/base/power/main.c of this kernel tree, unmodified", \
		.corpus = "kernel",                                         \
		.features = VF_LINKS | VF_DIRECT_COMPLETE | VF_PM_WAIT |    \
			    VF_TRANSITIONS | VF_WAKEUP | VF_PM_STACK |     \
			    VF_LATE_ADD | VF_LINK_FLAGS | VF_LATE_EARLY |   \
			    VF_SYSFS_STREQ | (feat_),                       \
		.knobs = knobs_,                                            \
		.nknobs = nknobs_,                                          \
		.diff = kernel_diff,                                        \
		.diff_with = diff_with_,                                    \
		.ops = &kernel_variant_ops,                                 \
		.kernel = &tree,                                            \
	}

#endif
