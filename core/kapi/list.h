/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Doubly linked circular lists with the kernel's names and meanings, so
 * the model's list walks read like drivers/base/power/main.c.
 */
#ifndef DPM_KAPI_LIST_H
#define DPM_KAPI_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member) container_of(ptr, type, member)

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void __list_link(struct list_head *n, struct list_head *prev,
			       struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
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
	e->next->prev = e->prev;
	e->prev->next = e->next;
}

static inline void list_del_init(struct list_head *e)
{
	__list_unlink(e);
	INIT_LIST_HEAD(e);
}

static inline bool list_empty(const struct list_head *h)
{
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
	for (pos = list_entry((head)->next, __typeof__(*pos), member);        \
	     &pos->member != (head);                                          \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_reverse(pos, head, member)                       \
	for (pos = list_entry((head)->prev, __typeof__(*pos), member);        \
	     &pos->member != (head);                                          \
	     pos = list_entry(pos->member.prev, __typeof__(*pos), member))

#endif
