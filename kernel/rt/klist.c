// SPDX-License-Identifier: GPL-2.0-only
/*
 * klists as lib/klist.c gives them to the driver core (written for
 * dpmfuzz): a list whose walks survive deletion.
 *
 * Each node has a reference count: one for being on the list, one per
 * iterator standing on it.  Deleting a node marks it dead and drops the
 * list's reference; the node leaves the list only when its count reaches
 * zero, and the list's put hook runs then (for a device's child list,
 * that drops the child device, so a walk standing on a deleted child
 * keeps the child's memory valid).  Walks skip dead nodes.
 */
#include "rt.h"

#define KNODE_DEAD	1UL

static struct klist *knode_klist(struct klist_node *n)
{
	return (struct klist *)((uintptr_t)n->n_klist & ~KNODE_DEAD);
}

static bool knode_dead(struct klist_node *n)
{
	return (uintptr_t)n->n_klist & KNODE_DEAD;
}

void klist_init(struct klist *k, void (*get)(struct klist_node *),
		void (*put)(struct klist_node *))
{
	INIT_LIST_HEAD(&k->k_list);
	spin_lock_init(&k->k_lock);
	k->get = get;
	k->put = put;
}

void klist_add_tail(struct klist_node *n, struct klist *k)
{
	INIT_LIST_HEAD(&n->n_node);
	kref_init(&n->n_ref);
	n->n_klist = k;
	if (k->get)
		k->get(n);
	spin_lock(&k->k_lock);
	list_add_tail(&n->n_node, &k->k_list);
	spin_unlock(&k->k_lock);
}

/* Drop one reference with the list locked; true if the node left. */
static bool knode_put_locked(struct klist_node *n)
{
	if (kref_put_return(&n->n_ref))
		return false;
	list_del(&n->n_node);
	n->n_klist = NULL;
	return true;
}

static void knode_put(struct klist_node *n, bool kill)
{
	struct klist *k = knode_klist(n);
	bool gone;

	spin_lock(&k->k_lock);
	if (kill) {
		if (knode_dead(n))
			printk(KERN_WARNING "klist: node deleted twice\n");
		n->n_klist = (void *)((uintptr_t)n->n_klist | KNODE_DEAD);
	}
	gone = knode_put_locked(n);
	spin_unlock(&k->k_lock);
	if (gone && k->put)
		k->put(n);
}

void klist_del(struct klist_node *n)
{
	knode_put(n, true);
}

int klist_node_attached(struct klist_node *n)
{
	return n->n_klist != NULL;
}

void klist_iter_init_node(struct klist *k, struct klist_iter *i,
			  struct klist_node *n)
{
	i->i_klist = k;
	i->i_cur = NULL;
	if (n && kref_get_unless_zero(&n->n_ref))
		i->i_cur = n;
}

void klist_iter_init(struct klist *k, struct klist_iter *i)
{
	klist_iter_init_node(k, i, NULL);
}

void klist_iter_exit(struct klist_iter *i)
{
	if (i->i_cur) {
		knode_put(i->i_cur, false);
		i->i_cur = NULL;
	}
}

/* Step from the current node (or the list's end) in one direction. */
static struct klist_node *klist_step(struct klist_iter *i, bool forward)
{
	struct klist *k = i->i_klist;
	struct klist_node *last = i->i_cur, *next;
	struct list_head *pos;
	bool last_gone = false;

	spin_lock(&k->k_lock);
	if (last) {
		pos = forward ? last->n_node.next : last->n_node.prev;
		last_gone = knode_put_locked(last);
	} else {
		pos = forward ? k->k_list.next : k->k_list.prev;
	}
	i->i_cur = NULL;
	for (; pos != &k->k_list; pos = forward ? pos->next : pos->prev) {
		next = container_of(pos, struct klist_node, n_node);
		if (knode_dead(next))
			continue;
		kref_get_return(&next->n_ref);
		i->i_cur = next;
		break;
	}
	spin_unlock(&k->k_lock);
	if (last_gone && k->put)
		k->put(last);
	return i->i_cur;
}

struct klist_node *klist_next(struct klist_iter *i)
{
	return klist_step(i, true);
}

struct klist_node *klist_prev(struct klist_iter *i)
{
	return klist_step(i, false);
}
