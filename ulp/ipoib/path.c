// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The unicast path table: one entry per destination GID, with the
 * address handle made from the SA's path record and, until then, the
 * packets waiting for it.  The callers hold priv->lock; nothing here
 * sleeps or talks to the SA (main.c does).  And the address handles
 * shared between a path or group and the sends in flight.
 */

#include <kunit/visibility.h>

#include "ipoib.h"

/**
 * ipoib_ah_wrap - share an address handle
 * @ah: the address handle (NULL allowed: nothing to destroy)
 * @gfp: for the allocation
 *
 * Context: Any context @gfp allows.
 * Return: the shared handle with one reference, or NULL.
 */
struct ipoib_ah *ipoib_ah_wrap(struct ib_ah *ah, gfp_t gfp)
{
	struct ipoib_ah *iah = kzalloc(sizeof(*iah), gfp);

	if (!iah)
		return NULL;
	kref_init(&iah->ref);
	iah->ah = ah;
	return iah;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_ah_wrap);

/**
 * ipoib_ah_get - one more reference
 * @ah: a shared address handle
 *
 * Context: Any context.
 * Return: @ah.
 */
struct ipoib_ah *ipoib_ah_get(struct ipoib_ah *ah)
{
	kref_get(&ah->ref);
	return ah;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_ah_get);

static void ipoib_ah_release(struct kref *ref)
{
	struct ipoib_ah *iah = container_of(ref, struct ipoib_ah, ref);

	/* any context: the last send may complete in softirq */
	if (iah->ah)
		rdma_destroy_ah(iah->ah, 0);
	kfree(iah);
}

/**
 * ipoib_ah_put - drop a reference; the last destroys the address handle
 * @ah: a shared address handle, or NULL
 *
 * Context: Any context (the handle is destroyed without sleeping).
 */
void ipoib_ah_put(struct ipoib_ah *ah)
{
	if (ah)
		kref_put(&ah->ref, ipoib_ah_release);
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_ah_put);

/**
 * ipoib_path_table_init - an empty path table
 * @t: the table
 *
 * Context: Any context.
 */
void ipoib_path_table_init(struct ipoib_path_table *t)
{
	t->root = RB_ROOT;
	t->count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_path_table_init);

/**
 * ipoib_path_find - the path to a GID
 * @t: the table
 * @gid: the destination
 *
 * Context: Any context; the caller holds the table's lock.
 * Return: the path or NULL.
 */
struct ipoib_path *ipoib_path_find(struct ipoib_path_table *t,
				   const union ib_gid *gid)
{
	struct rb_node *n = t->root.rb_node;

	while (n) {
		struct ipoib_path *p = rb_entry(n, struct ipoib_path, node);
		int c = memcmp(gid->raw, p->dgid.raw, sizeof(gid->raw));

		if (c < 0)
			n = n->rb_left;
		else if (c > 0)
			n = n->rb_right;
		else
			return p;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_path_find);

/**
 * ipoib_path_add - a new path to @gid, without an address handle
 * @t: the table
 * @gid: the destination (not in @t yet)
 * @gfp: for the allocation
 *
 * The path asks for a query (@pending).
 *
 * Context: Any context @gfp allows; the caller holds the table's lock.
 * Return: the path, NULL without memory or when @gid is there already.
 */
struct ipoib_path *ipoib_path_add(struct ipoib_path_table *t,
				  const union ib_gid *gid, gfp_t gfp)
{
	struct rb_node **link = &t->root.rb_node, *parent = NULL;
	struct ipoib_path *path;

	while (*link) {
		struct ipoib_path *p = rb_entry(*link, struct ipoib_path, node);
		int c = memcmp(gid->raw, p->dgid.raw, sizeof(gid->raw));

		parent = *link;
		if (c < 0)
			link = &(*link)->rb_left;
		else if (c > 0)
			link = &(*link)->rb_right;
		else
			return NULL;
	}
	path = kzalloc(sizeof(*path), gfp);
	if (!path)
		return NULL;
	path->dgid = *gid;
	path->pending = true;
	path->table = t;
	skb_queue_head_init(&path->queue);
	init_completion(&path->done);
	complete(&path->done);
	rb_link_node(&path->node, parent, link);
	rb_insert_color(&path->node, &t->root);
	t->count++;
	return path;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_path_add);

/**
 * ipoib_path_del - take a path out of its table and free it
 * @t: the table
 * @path: no query in flight
 *
 * Its waiting packets are dropped and its address handle reference put
 * (sends in flight hold their own).
 *
 * Context: Any context; the caller holds the table's lock.
 */
void ipoib_path_del(struct ipoib_path_table *t, struct ipoib_path *path)
{
	rb_erase(&path->node, &t->root);
	t->count--;
	__skb_queue_purge(&path->queue);
	ipoib_ah_put(path->ah);
	kfree(path);
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_path_del);

/**
 * ipoib_path_enqueue - hold a packet until the path is resolved
 * @path: the path
 * @skb: the packet, pseudo-header still on
 *
 * Context: Any context; the caller holds the table's lock.
 * Return: true if queued; false when the queue is full (the caller
 * drops @skb).
 */
bool ipoib_path_enqueue(struct ipoib_path *path, struct sk_buff *skb)
{
	if (skb_queue_len(&path->queue) >= IPOIB_PATH_QUEUE_MAX)
		return false;
	__skb_queue_tail(&path->queue, skb);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_path_enqueue);

/**
 * ipoib_path_first - the path of the lowest GID
 * @t: the table
 *
 * Context: Any context; the caller holds the table's lock.
 * Return: the path or NULL when the table is empty.
 */
struct ipoib_path *ipoib_path_first(struct ipoib_path_table *t)
{
	struct rb_node *n = rb_first(&t->root);

	return n ? rb_entry(n, struct ipoib_path, node) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ipoib_path_first);
