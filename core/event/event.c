// SPDX-License-Identifier: GPL-2.0-only
/* The event bus: a short list of listeners, called in order. */
#include "event.h"

#include "../kapi/kapi.h"

static const char *const phase_names[NR_PHASES] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
};

const char *pm_phase_name(enum pm_phase p)
{
	return (unsigned)p < NR_PHASES ? phase_names[p] : "?";
}

static struct {
	dpm_listener_fn fn;
	void *ctx;
} listeners[DPM_MAX_LISTENERS];
static int nlisteners;

void dpm_listen(dpm_listener_fn fn, void *ctx)
{
	if (nlisteners == DPM_MAX_LISTENERS)
		kapi_bug("dpm_listen: too many listeners");
	listeners[nlisteners].fn = fn;
	listeners[nlisteners++].ctx = ctx;
}

void dpm_listen_none(void)
{
	nlisteners = 0;
}

void dpm_publish(const struct dpm_event *ev)
{
	for (int i = 0; i < nlisteners; i++)
		listeners[i].fn(ev, listeners[i].ctx);
}
