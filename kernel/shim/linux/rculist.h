/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: RCU list walks.  A reader follows ->next with a
 * marked load; a deleted entry keeps its ->next so a reader standing on
 * it can go on, and its memory is freed only after every reader left
 * (the device links' SRCU, kernel/rt/links.c).  The lockdep condition
 * argument is accepted and not evaluated, as without
 * CONFIG_PROVE_RCU_LIST.
 */
#ifndef _DPMSHIM_LINUX_RCULIST_H
#define _DPMSHIM_LINUX_RCULIST_H

#include <linux/list.h>

#define list_next_rcu_entry(pos, member) \
	list_entry(READ_ONCE((pos)->member.next), __typeof__(*(pos)), member)

/* The SRCU form (device links' walks from 7.x on): the same walk; the
 * reader's lock is the caller's (device_links_read_lock()). */
#define list_for_each_entry_srcu(pos, head, member, cond)		\
	list_for_each_entry_rcu(pos, head, member)

#define list_for_each_entry_rcu(pos, head, member, cond...)			\
	for (pos = list_entry(READ_ONCE((head)->next), __typeof__(*pos), member); \
	     !list_entry_is_head(pos, head, member);				\
	     pos = list_next_rcu_entry(pos, member))

static inline void list_add_tail_rcu(struct list_head *entry, struct list_head *head)
{
	struct list_head *prev = head->prev;

	entry->next = head;
	entry->prev = prev;
	/* Publish the entry only when it is complete. */
	__atomic_store_n(&prev->next, entry, __ATOMIC_RELEASE);
	head->prev = entry;
}

static inline void list_del_rcu(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->prev = LIST_POISON2;
}

#endif
