// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Resource tracking: a table per device and object type of every verbs
 * object, with the owner's name, for the netlink resource dumps.
 *
 * An entry goes through rdma_restrack_new() (type, one reference),
 * rdma_restrack_set_name() (owner), rdma_restrack_add() once the driver
 * created the object (gets an ID and becomes visible), and
 * rdma_restrack_del() before the driver destroys it: del hides it, drops
 * the initial reference and waits until every rdma_restrack_get() user
 * has put it.
 */

#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <rdma/ib_verbs.h>

#include "../rdma_cm/cma_priv.h"
#include "core_priv.h"
#include "restrack.h"

/**
 * rdma_restrack_init - allocate the tables of a device
 * @dev: the device
 *
 * Return: 0 or -ENOMEM.
 */
int rdma_restrack_init(struct ib_device *dev)
{
	struct rdma_restrack_root *rt;
	int i;

	dev->res = kcalloc(RDMA_RESTRACK_MAX, sizeof(*rt), GFP_KERNEL);
	if (!dev->res)
		return -ENOMEM;
	rt = dev->res;
	for (i = 0; i < RDMA_RESTRACK_MAX; i++)
		xa_init_flags(&rt[i].xa, XA_FLAGS_ALLOC);
	return 0;
}

static const char *type2str(enum rdma_restrack_type type)
{
	static const char * const names[RDMA_RESTRACK_MAX] = {
		[RDMA_RESTRACK_PD] = "PD",
		[RDMA_RESTRACK_CQ] = "CQ",
		[RDMA_RESTRACK_QP] = "QP",
		[RDMA_RESTRACK_CM_ID] = "CM_ID",
		[RDMA_RESTRACK_MR] = "MR",
		[RDMA_RESTRACK_CTX] = "CTX",
		[RDMA_RESTRACK_COUNTER] = "COUNTER",
		[RDMA_RESTRACK_SRQ] = "SRQ",
	};

	return names[type];
}

/**
 * rdma_restrack_clean - free the tables of a device
 * @dev: the device
 *
 * Objects still tracked at this point leaked: each one is reported.
 */
void rdma_restrack_clean(struct ib_device *dev)
{
	struct rdma_restrack_root *rt = dev->res;
	struct rdma_restrack_entry *e;
	unsigned long index;
	int i;

	if (!rt)
		return;
	for (i = 0; i < RDMA_RESTRACK_MAX; i++) {
		xa_for_each(&rt[i].xa, index, e)
			pr_err("restrack: %s: %s %lu of %s was never destroyed\n",
			       dev_name(&dev->dev), type2str(i), index,
			       e->user ? "user space" :
			       (e->kern_name ?: "unknown"));
		WARN_ON(!xa_empty(&rt[i].xa));
		xa_destroy(&rt[i].xa);
	}
	kfree(rt);
	dev->res = NULL;
}

/**
 * rdma_restrack_count - number of tracked objects of a type
 * @dev: the device
 * @type: the type
 * @show_details: count objects with driver details only (RESTRACK_DD)
 *
 * Context: Process context; does not sleep. Takes the table's xa_lock (a plain
 * spinlock, not taken from interrupts anywhere), so not from interrupt
 * context.
 *
 * Return: how many objects of @type are in @dev's table.
 */
int rdma_restrack_count(struct ib_device *dev, enum rdma_restrack_type type,
			bool show_details)
{
	struct rdma_restrack_root *rt = &dev->res[type];
	struct rdma_restrack_entry *e;
	XA_STATE(xas, &rt->xa, 0);
	u32 cnt = 0;

	xa_lock(&rt->xa);
	xas_for_each(&xas, e, U32_MAX) {
		/* a QP being destroyed (rdma_restrack_begin_del()) */
		if (xa_is_zero(e))
			continue;
		if (show_details && !xa_get_mark(&rt->xa, e->id, RESTRACK_DD))
			continue;
		cnt++;
	}
	xa_unlock(&rt->xa);
	return cnt;
}
EXPORT_SYMBOL(rdma_restrack_count);

static struct ib_device *res_to_dev(struct rdma_restrack_entry *res)
{
	switch (res->type) {
	case RDMA_RESTRACK_PD:
		return container_of(res, struct ib_pd, res)->device;
	case RDMA_RESTRACK_CQ:
		return container_of(res, struct ib_cq, res)->device;
	case RDMA_RESTRACK_QP:
		return container_of(res, struct ib_qp, res)->device;
	case RDMA_RESTRACK_MR:
		return container_of(res, struct ib_mr, res)->device;
	case RDMA_RESTRACK_SRQ:
		return container_of(res, struct ib_srq, res)->device;
	case RDMA_RESTRACK_COUNTER:
		return container_of(res, struct rdma_counter, res)->device;
	case RDMA_RESTRACK_CTX:
		return container_of(res, struct ib_ucontext, res)->device;
	case RDMA_RESTRACK_CM_ID:
		/* rdma_cm adds an ID once it is attached to a device */
		return container_of(res, struct rdma_id_private, res)->id.device;
	default:
		WARN_ONCE(true, "restrack: no device for type %d\n", res->type);
		return NULL;
	}
}

/**
 * rdma_restrack_new - start tracking an object
 * @res: its entry
 * @type: what it is
 *
 * Context: any.
 * Return: nothing.
 */
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type)
{
	kref_init(&res->kref);
	init_completion(&res->comp);
	res->type = type;
}
EXPORT_SYMBOL(rdma_restrack_new);

/**
 * rdma_restrack_set_name - record the owner of an object
 * @res: its entry
 * @caller: module name of a kernel owner, or NULL for the current task
 *	(user objects)
 *
 * Context: process context (takes a reference on the current task).
 * Return: nothing.
 */
void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller)
{
	if (caller) {
		res->kern_name = caller;
		return;
	}
	if (res->task)
		put_task_struct(res->task);
	get_task_struct(current);
	res->task = current;
	res->user = true;
}
EXPORT_SYMBOL(rdma_restrack_set_name);

/**
 * rdma_restrack_parent_name - give an object the owner of another
 * @dst: the new object's entry
 * @parent: the entry whose owner it inherits
 *
 * Context: any.
 * Return: nothing.
 */
void rdma_restrack_parent_name(struct rdma_restrack_entry *dst,
			       const struct rdma_restrack_entry *parent)
{
	if (rdma_is_kernel_res(parent)) {
		dst->kern_name = parent->kern_name;
		return;
	}
	if (dst->task)
		put_task_struct(dst->task);
	get_task_struct(parent->task);
	dst->task = parent->task;
	dst->user = true;
}
EXPORT_SYMBOL(rdma_restrack_parent_name);

/**
 * rdma_restrack_add - make a created object visible
 * @res: its entry
 *
 * Errors are not fatal: an object that cannot be tracked works anyway
 * and is only missing from the dumps.
 *
 * Context: process context; may sleep (allocates).
 * Return: nothing.
 */
void rdma_restrack_add(struct rdma_restrack_entry *res)
{
	struct ib_device *dev = res_to_dev(res);
	struct rdma_restrack_root *rt;
	int ret;

	if (!dev || res->no_track)
		return;
	rt = &dev->res[res->type];
	if (res->type == RDMA_RESTRACK_QP) {
		struct ib_qp *qp = container_of(res, struct ib_qp, res);

		/* QP numbers are the IDs; only QP0 and QP1 repeat per port */
		res->id = qp->qp_num;
		if (qp->qp_type == IB_QPT_SMI || qp->qp_type == IB_QPT_GSI)
			res->id = 0;
		ret = xa_insert(&rt->xa, res->id, res, GFP_KERNEL);
		if (ret && (qp->qp_type == IB_QPT_SMI ||
			    qp->qp_type == IB_QPT_GSI))
			ret = xa_alloc_cyclic(&rt->xa, &res->id, res,
					      xa_limit_32b, &rt->next_id,
					      GFP_KERNEL);
	} else if (res->type == RDMA_RESTRACK_COUNTER) {
		struct rdma_counter *counter =
			container_of(res, struct rdma_counter, res);

		/*
		 * A driver may have numbered the counter (a hardware counter
		 * set); otherwise it gets the next free number from 1 on.
		 */
		if (counter->id) {
			res->id = counter->id;
			ret = xa_insert(&rt->xa, res->id, res, GFP_KERNEL);
		} else {
			ret = xa_alloc_cyclic(&rt->xa, &res->id, res,
					      XA_LIMIT(1, U32_MAX),
					      &rt->next_id, GFP_KERNEL);
			if (ret >= 0)
				counter->id = res->id;
		}
	} else {
		ret = xa_alloc_cyclic(&rt->xa, &res->id, res, xa_limit_32b,
				      &rt->next_id, GFP_KERNEL);
	}
	if (ret >= 0)
		res->valid = true;
}
EXPORT_SYMBOL(rdma_restrack_add);

/**
 * rdma_restrack_get - take a reference on a tracked object
 * @res: its entry
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: 1 on success, 0 when the object is going away.
 */
int __must_check rdma_restrack_get(struct rdma_restrack_entry *res)
{
	return kref_get_unless_zero(&res->kref);
}
EXPORT_SYMBOL(rdma_restrack_get);

/**
 * rdma_restrack_get_byid - find a tracked object and reference it
 * @dev: the device
 * @type: its type
 * @id: its ID
 *
 * Context: Process context; does not sleep. Takes the table's xa_lock (a plain
 * spinlock), so not from interrupt context.
 *
 * Return: the entry, referenced (rdma_restrack_put() it), or
 * ERR_PTR(-ENOENT).
 */
struct rdma_restrack_entry *rdma_restrack_get_byid(struct ib_device *dev,
						   enum rdma_restrack_type type,
						   u32 id)
{
	struct rdma_restrack_root *rt = &dev->res[type];
	struct rdma_restrack_entry *res;

	xa_lock(&rt->xa);
	res = xa_load(&rt->xa, id);
	if (!res || !rdma_restrack_get(res))
		res = ERR_PTR(-ENOENT);
	xa_unlock(&rt->xa);
	return res;
}
EXPORT_SYMBOL(rdma_restrack_get_byid);

/**
 * rdma_restrack_get_next - the next tracked object of a type, referenced
 * @dev: the device
 * @type: its type
 * @id: in: the lowest ID wanted; out: the ID of the object returned
 * @show_details: include objects marked RESTRACK_DD
 *
 * Walks a table without holding its lock between objects: the caller
 * uses the object, rdma_restrack_put()s it and asks again from *@id + 1.
 * Objects being destroyed (reference count already zero) are skipped, so
 * a destroyer waiting in rdma_restrack_del() is never held up for long.
 *
 * Return: the entry with a reference, or NULL when none is left.
 */
struct rdma_restrack_entry *
rdma_restrack_get_next(struct ib_device *dev, enum rdma_restrack_type type,
		       unsigned long *id, bool show_details)
{
	struct rdma_restrack_root *rt = &dev->res[type];
	struct rdma_restrack_entry *res;
	unsigned long index = *id;

	xa_lock(&rt->xa);
	for (res = xa_find(&rt->xa, &index, U32_MAX, XA_PRESENT); res;
	     res = xa_find_after(&rt->xa, &index, U32_MAX, XA_PRESENT)) {
		if (!show_details && xa_get_mark(&rt->xa, index, RESTRACK_DD))
			continue;
		if (rdma_restrack_get(res))
			break;
	}
	xa_unlock(&rt->xa);
	if (res)
		*id = index;
	return res;
}

static void restrack_release(struct kref *kref)
{
	struct rdma_restrack_entry *res =
		container_of(kref, struct rdma_restrack_entry, kref);

	complete(&res->comp);
}

/**
 * rdma_restrack_put - drop a reference taken by rdma_restrack_get()
 * @res: the entry
 *
 * Context: Any context; does not sleep. The last put wakes the
 * rdma_restrack_del() (or rdma_restrack_begin_del()) waiting for it.
 *
 * Return: 1 when this was the last reference, else 0.
 */
int rdma_restrack_put(struct rdma_restrack_entry *res)
{
	return kref_put(&res->kref, restrack_release);
}
EXPORT_SYMBOL(rdma_restrack_put);

/**
 * rdma_restrack_del - stop tracking an object
 * @res: its entry
 *
 * Hides the object, then waits until nobody uses the entry.  Also drops
 * the owner's task reference of an object that was never added.
 *
 * Context: process context; sleeps until dumps using the entry are done.
 * Return: nothing.
 */
void rdma_restrack_del(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_entry *old;
	struct rdma_restrack_root *rt;
	struct ib_device *dev;

	if (!res->valid)
		goto out;

	dev = res_to_dev(res);
	if (WARN_ON(!dev))
		return;
	rt = &dev->res[res->type];
	old = xa_erase(&rt->xa, res->id);
	res->valid = false;
	if (res->hidden) {
		/* rdma_restrack_begin_del() waited for the users already */
		res->hidden = false;
		goto out;
	}
	WARN_ON(old != res);

	rdma_restrack_put(res);
	wait_for_completion(&res->comp);
out:
	if (res->task) {
		put_task_struct(res->task);
		res->task = NULL;
	}
}
EXPORT_SYMBOL(rdma_restrack_del);

/*
 * rdma_restrack_begin_del - hide an object from lookups before its
 * destruction and wait until nobody who found it uses it; its ID stays
 * taken.  rdma_restrack_del() ends the deletion, rdma_restrack_abort_del()
 * makes the object visible again when the destruction failed.  For the
 * core only (QPs, whose lookups bind counters to them).
 *
 * Context: process context; sleeps until dumps using the entry are done.
 */
void rdma_restrack_begin_del(struct rdma_restrack_entry *res)
{
	struct rdma_restrack_entry *old;
	struct ib_device *dev;

	if (!res->valid || res->hidden)
		return;
	dev = res_to_dev(res);
	if (WARN_ON(!dev))
		return;
	/* a zero entry keeps the ID and is skipped by every lookup */
	old = xa_cmpxchg(&dev->res[res->type].xa, res->id, res, XA_ZERO_ENTRY,
			 GFP_KERNEL);
	if (WARN_ON(old != res))
		return;
	res->hidden = true;
	rdma_restrack_put(res);
	wait_for_completion(&res->comp);
}

/*
 * rdma_restrack_abort_del - undo rdma_restrack_begin_del(): the object is
 * found again, with one reference as after rdma_restrack_new().
 *
 * Context: process context; may sleep (allocates).
 */
void rdma_restrack_abort_del(struct rdma_restrack_entry *res)
{
	struct ib_device *dev;

	if (!res->valid || !res->hidden)
		return;
	dev = res_to_dev(res);
	if (WARN_ON(!dev))
		return;
	kref_init(&res->kref);
	reinit_completion(&res->comp);
	res->hidden = false;
	if (xa_err(xa_store(&dev->res[res->type].xa, res->id, res,
			    GFP_KERNEL)))
		/* not found any more, but works: as if never tracked */
		xa_erase(&dev->res[res->type].xa, res->id);
}
