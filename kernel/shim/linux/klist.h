/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: klists, lists whose walks survive removal
 * (kernel/rt/klist.c).  A node holds a reference for the list and one
 * per iterator standing on it; klist_del() marks it dead and drops the
 * list's; the node leaves the list when its last reference goes, and the
 * list's put hook then runs (the child list's drops the child device).
 */
#ifndef _DPMSHIM_LINUX_KLIST_H
#define _DPMSHIM_LINUX_KLIST_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/kref.h>
#include <linux/spinlock.h>

struct klist_node;

struct klist {
	spinlock_t		k_lock;
	struct list_head	k_list;
	void			(*get)(struct klist_node *);
	void			(*put)(struct klist_node *);
};

struct klist_node {
	void			*n_klist;	/* the klist; low bit: dead */
	struct list_head	n_node;
	struct kref		n_ref;
};

struct klist_iter {
	struct klist		*i_klist;
	struct klist_node	*i_cur;
};

void klist_init(struct klist *k, void (*get)(struct klist_node *),
		void (*put)(struct klist_node *));
void klist_add_tail(struct klist_node *n, struct klist *k);
void klist_del(struct klist_node *n);
int klist_node_attached(struct klist_node *n);
void klist_iter_init(struct klist *k, struct klist_iter *i);
void klist_iter_init_node(struct klist *k, struct klist_iter *i,
			  struct klist_node *n);
struct klist_node *klist_next(struct klist_iter *i);
struct klist_node *klist_prev(struct klist_iter *i);
void klist_iter_exit(struct klist_iter *i);

#endif
