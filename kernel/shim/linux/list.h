/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: circular doubly linked lists, with the kernel's
 * names and meanings.  A deleted entry's pointers are poisoned (list_del)
 * or made to point to itself (list_del_init), as the kernel does, so a
 * stale walk crashes instead of going on quietly.
 */
#ifndef _DPMSHIM_LINUX_LIST_H
#define _DPMSHIM_LINUX_LIST_H

#include <linux/types.h>
#include <dpmshim/host.h>

#define LIST_POISON1	((struct list_head *)0x100)
#define LIST_POISON2	((struct list_head *)0x122)

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	WRITE_ONCE(list->prev, list);
}

static inline void __list_add(struct list_head *entry, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	WRITE_ONCE(prev->next, entry);
}

static inline void list_add(struct list_head *entry, struct list_head *head)
{
	DPMK_MAIN_LOCKED("changes a list (list_add)");
	__list_add(entry, head, head->next);
}

static inline void list_add_tail(struct list_head *entry, struct list_head *head)
{
	DPMK_MAIN_LOCKED("changes a list (list_add_tail)");
	__list_add(entry, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void __list_del_entry(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
}

static inline void list_del(struct list_head *entry)
{
	DPMK_MAIN_LOCKED("changes a list (list_del)");
	__list_del_entry(entry);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

static inline void list_del_init(struct list_head *entry)
{
	DPMK_MAIN_LOCKED("changes a list (list_del_init)");
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

static inline void list_move(struct list_head *entry, struct list_head *head)
{
	DPMK_MAIN_LOCKED("changes a list (list_move)");
	DPMK_MAIN_MOVES(entry);
	__list_del_entry(entry);
	list_add(entry, head);
}

static inline void list_move_tail(struct list_head *entry, struct list_head *head)
{
	DPMK_MAIN_LOCKED("changes a list (list_move_tail)");
	DPMK_MAIN_MOVES(entry);
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

static inline int list_empty(const struct list_head *head)
{
	DPMK_MAIN_LOCKED("tests a list (list_empty)");
	return READ_ONCE(head->next) == head;
}

static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev, struct list_head *next)
{
	struct list_head *first = list->next, *last = list->prev;

	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

/* The entries of list go in front of head's first; list is left stale. */
static inline void list_splice(const struct list_head *list, struct list_head *head)
{
	DPMK_MAIN_LOCKED("changes a list (list_splice)");
	if (!list_empty(list))
		__list_splice(list, head, head->next);
}

static inline void list_splice_tail(struct list_head *list, struct list_head *head)
{
	DPMK_MAIN_LOCKED("changes a list (list_splice_tail)");
	if (!list_empty(list))
		__list_splice(list, head->prev, head);
}

static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	DPMK_MAIN_LOCKED("changes a list (list_splice_init)");
	if (!list_empty(list)) {
		__list_splice(list, head, head->next);
		INIT_LIST_HEAD(list);
	}
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member)	(&(pos)->member == (head))

/*
 * main.c walks its lists only holding dpm_list_mtx, as it changes them
 * (LOCKS): each step of a walk is checked, so a lock dropped in the
 * middle of one is seen too.  The RCU walks (rculist.h) are the device
 * links', under their own lock.
 */
#define DPMK_WALK_STEP(cond) \
	(DPMK_MAIN_LOCKED("walks a list (list_for_each*)"), (cond))

#define list_for_each(pos, head) \
	for (pos = (head)->next; DPMK_WALK_STEP(pos != (head)); pos = pos->next)

#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, __typeof__(*pos), member);	\
	     DPMK_WALK_STEP(!list_entry_is_head(pos, head, member));	\
	     pos = list_next_entry(pos, member))

#define list_for_each_entry_reverse(pos, head, member)			\
	for (pos = list_last_entry(head, __typeof__(*pos), member);	\
	     DPMK_WALK_STEP(!list_entry_is_head(pos, head, member));	\
	     pos = list_prev_entry(pos, member))

#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, __typeof__(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     DPMK_WALK_STEP(!list_entry_is_head(pos, head, member));	\
	     pos = n, n = list_next_entry(n, member))

#define list_for_each_entry_safe_reverse(pos, n, head, member)		\
	for (pos = list_last_entry(head, __typeof__(*pos), member),	\
	     n = list_prev_entry(pos, member);				\
	     DPMK_WALK_STEP(!list_entry_is_head(pos, head, member));	\
	     pos = n, n = list_prev_entry(n, member))

#endif
