// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seed: asynchronous suspend and resume as the patches of December
 * 2009 post it (shared/seeds/002-006, PCI devices async as in 011), on
 * top of the 2.6.33 drivers/base/power/main.c they apply to.  Function
 * names are the kernel's so this file reads beside that main.c; where
 * the seeds are silent, docs/model.md says what was assumed.  This file
 * has the completions, how a device waits for the others; dpm_common.c
 * has the rest of main.c.
 *
 * Each later kernel fix that changes this behaviour is a knob, off by
 * default: the default is the code as posted.
 */
#include "model.h"
#include "dpm_common.h"
#include "dpm_wait.h"
#include "variant.h"

enum {
	FIX_COMPLETION_INIT,
	FIX_ASYNC_ERROR_ORDER,
	FIX_RESUME_DELETED,
	FIX_ASYNC_ERROR_ONCE,
	NR_SEED_FIX
};

static const struct knob seed_knobs[NR_SEED_FIX] = {
	[FIX_COMPLETION_INIT] = {
		"completion-init", "013b99631422",
		"start every power.completion done, so nobody waits for a device suspend never reached",
		.bug = "LIVENESS", .needs = "", .detector = "fuzz",
	},
	[FIX_ASYNC_ERROR_ORDER] = DPM_KNOB_ASYNC_ERROR_ORDER,
	[FIX_RESUME_DELETED] = {
		"resume-deleted", "0552e05fdfea",
		"pin the parent while waiting for it and skip a device deleted meanwhile",
		.bug = "REMOVED", .needs = "", .detector = "fuzz",
	},
	[FIX_ASYNC_ERROR_ONCE] = DPM_KNOB_ASYNC_ERROR_ONCE,
};

static void dpm_reset_completion(struct device *dev);
static int __device_suspend(struct device *dev, bool async);
static int __device_resume(struct device *dev, bool async);

/* Each step starts by resetting the device's completion. */
static const struct dpm_async_ops seed_ops = {
	.suspend_start = dpm_reset_completion,
	.__device_suspend = __device_suspend,
	.resume_start = dpm_reset_completion,
	.__device_resume = __device_resume,
};

static void seed_reset(void)
{
	dpm_common_reset(&seed_ops, fix_on(FIX_ASYNC_ERROR_ORDER),
			 fix_on(FIX_ASYNC_ERROR_ONCE));
}

static void dpm_reset_completion(struct device *dev)
{
	INIT_COMPLETION(power(dev)->completion);
}

/* complete_all() on a device's completion, with a trace line. */
static void dpm_complete_dev(struct device *dev)
{
	pr_debug("%s: complete_all(power.completion)", dev_name(dev));
	complete_all(&power(dev)->completion);
}

/* ---- driver-core hooks ---- */

static void seed_device_pm_init(struct device *dev)
{
	power(dev)->status = DPM_ON;
	init_completion(&power(dev)->completion);
	if (fix_on(FIX_COMPLETION_INIT))
		complete_all(&power(dev)->completion);
}

static void seed_device_pm_remove(struct device *dev)
{
	dpm_complete_dev(dev);
	dpm_list_del(dev);
}

/* ---- waiting for other devices ---- */




/* ---- resume ---- */

/*
 * With the fix: is the device still on the PM list?  The fix reads a flag
 * kept beside the list entry (power.in_dpm_list), once under the mutex
 * and once without: the list pointers themselves change under the mutex
 * whenever a neighbour moves.  The unlocked read is modelled as a
 * relaxed atomic (docs/model.md).
 */
static bool device_pm_initialized(struct device *dev)
{
	KAPI_ACCESS(&power(dev)->in_dpm_list, KACC_READ);
	return __atomic_load_n(&power(dev)->in_dpm_list, __ATOMIC_RELAXED);
}

static int __device_resume(struct device *dev, bool async)
{
	int error = 0;

	if (fix_on(FIX_RESUME_DELETED)) {
		struct device *parent;

		mutex_lock(&dpm_list_mtx);
		if (!device_pm_initialized(dev)) {
			mutex_unlock(&dpm_list_mtx);
			goto Complete;
		}
		parent = get_device(dev->parent);
		mutex_unlock(&dpm_list_mtx);
		dpm_wait(parent, async);
		put_device(parent);
		if (!device_pm_initialized(dev))
			goto Complete;
	} else {
		dpm_wait(dev->parent, async);
	}
	down(&dev->sem);
	error = dpm_run_callback(dev, PH_RESUME);
	up(&dev->sem);
Complete:
	dpm_complete_dev(dev);
	return error;
}

/* ---- suspend ---- */

static int __device_suspend(struct device *dev, bool async)
{
	int error;

	dpm_wait_for_children(dev, async);
	error = dpm_suspend_callback(dev);
	dpm_complete_dev(dev);
	return error;
}

static const char *seed_describe(struct device *dev, const void *obj,
				 char *buf, size_t n, int *why)
{
	return dpm_describe_completion(dev, obj, buf, n, why);
}

static const struct model_ops seed_model = {
	.dev_state_size = sizeof(struct dpm_pm_info),
	.reset = seed_reset,
	.device_pm_init = seed_device_pm_init,
	.device_pm_add = dpm_device_pm_add,
	.device_pm_remove = seed_device_pm_remove,
	.suspend_resume = dpm_suspend_resume,
	.device_enable_async_suspend = dpm_device_enable_async_suspend,
	.async_store = dpm_async_store,
	.describe = seed_describe,
};

static const struct diff_config seed_diff[] = { { .fixes = "all" }, { 0 } };

const struct pm_variant variant_seed = {
	.name = "seed",
	.summary = "Linux 2.6.33's async suspend/resume as the December 2009 patches post it",
	.corpus = "seed",
	.knobs = seed_knobs,
	.nknobs = NR_SEED_FIX,
	.diff = seed_diff,
	.ops = &model_variant_ops,
	.model = &seed_model,
};
