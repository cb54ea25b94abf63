// SPDX-License-Identifier: GPL-2.0-only
/*
 * SET-UP: main.c uses a device's power.completion only once
 * init_completion() has set it up.  The kernel's completion holds a wait
 * queue whose list init_completion() links to itself; one left as the
 * allocator zeroed it has NULL links, and the first complete_all() or
 * wait on it dereferences them: the kernel oopses.  kapi's completion
 * works all zero, so the runtime tells (EV_NOT_SET_UP) what the kernel
 * would have crashed on; only the kernel variants have it.
 */
#include "invariant.h"

static void set_up_check(int id, const struct dpm_event *ev)
{
	oracle_fail(id, "main.c calls %s on the power.completion of '%s', which init_completion() never set up: the kernel would oops on its NULL wait list",
		    ev->what ? ev->what : "a completion operation",
		    ev->dev >= 0 && ev->dev < oracle_ndev() ?
		    oracle_dev_name(ev->dev) : "?");
}

const struct invariant inv_set_up = {
	.name = "SET-UP",
	.meaning = "main.c uses a device's power.completion only once init_completion() has set it up.",
	.events = EVB(EV_NOT_SET_UP),
	/* One event is enough: no state. */
	.reads = 0,
	.writes = 0,
	.check = set_up_check,
};
