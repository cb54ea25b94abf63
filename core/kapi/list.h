/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Doubly linked circular lists with the kernel's names and meanings, so
 * the model's list walks read like drivers/base/power/main.c.
 */
#ifndef DPM_KAPI_LIST_H
#define DPM_KAPI_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "access.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member) container_of(ptr, type, member)

/* The raw operations, which the exhaustive search does not see: for
 * kapi's own bookkeeping lists, which no task's steps depend on. */
static inline void __list_init(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void __list_link_quiet(struct list_head *n,
				     struct list_head *prev,
				     struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void __list_unlink_quiet(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	KAPI_ACCESS(h, KACC_WRITE);
	__list_init(h);
}

static inline void __list_link(struct list_head *n, struct list_head *prev,
			       struct list_head *next)
{
	KAPI_ACCESS(n, KACC_WRITE);
	KAPI_ACCESS(prev, KACC_WRITE);
	KAPI_ACCESS(next, KACC_WRITE);
	__list_link_quiet(n, prev, next);
}

static inline void list_add_tail_quiet(struct list_head *n,
				       struct list_head *head)
{
	__list_link_quiet(n, head->prev, head);
}

static inline void list_del_init_quiet(struct list_head *e)
{
	__list_unlink_quiet(e);
	__list_init(e);
}

/* The next entry after pos, read by a walk over the list. */
static inline struct list_head *list_next(const struct list_head *pos)
{
	KAPI_ACCESS(pos, KACC_READ);
	return pos->next;
}

static inline struct list_head *list_prev(const struct list_head *pos)
{
	KAPI_ACCESS(pos, KACC_READ);
	return pos->prev;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_link(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_link(n, head->prev, head);
}

static inline void __list_unlink(struct list_head *e)
{
	KAPI_ACCESS(e, KACC_WRITE);
	KAPI_ACCESS(e->next, KACC_WRITE);
	KAPI_ACCESS(e->prev, KACC_WRITE);
	__list_unlink_quiet(e);
}

static inline void list_del_init(struct list_head *e)
{
	__list_unlink(e);
	INIT_LIST_HEAD(e);
}

static inline bool list_empty(const struct list_head *h)
{
	KAPI_ACCESS(h, KACC_READ);
	return h->next == h;
}

static inline void list_move(struct list_head *e, struct list_head *head)
{
	__list_unlink(e);
	list_add(e, head);
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	__list_unlink(e);
	list_add_tail(e, head);
}

/* Insert all of @list after @head; @list itself is left stale. */
static inline void list_splice(struct list_head *list, struct list_head *head)
{
	if (list_empty(list))
		return;
	struct list_head *first = list->next, *last = list->prev;
	struct list_head *at = head->next;

	KAPI_ACCESS(first, KACC_WRITE);
	KAPI_ACCESS(last, KACC_WRITE);
	KAPI_ACCESS(head, KACC_WRITE);
	KAPI_ACCESS(at, KACC_WRITE);
	first->prev = head;
	head->next = first;
	last->next = at;
	at->prev = last;
}

/* list_splice(), then @list is empty again. */
static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	list_splice(list, head);
	INIT_LIST_HEAD(list);
}

#define list_for_each_entry(pos, head, member)                               \
	for (pos = list_entry(list_next(head), __typeof__(*pos), member);     \
	     &pos->member != (head);                                          \
	     pos = list_entry(list_next(&pos->member), __typeof__(*pos), member))

#define list_for_each_entry_reverse(pos, head, member)                       \
	for (pos = list_entry(list_prev(head), __typeof__(*pos), member);     \
	     &pos->member != (head);                                          \
	     pos = list_entry(list_prev(&pos->member), __typeof__(*pos), member))

#endif
