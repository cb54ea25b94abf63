/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: notifier chains are not called; base.h embeds one. */
#ifndef _DPMSHIM_LINUX_NOTIFIER_H
#define _DPMSHIM_LINUX_NOTIFIER_H

struct notifier_block;

struct blocking_notifier_head {
	struct notifier_block *head;
};

#endif
