// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The multicast groups of a port: created with the SA client's port
 * (sa_client.c), looked up by MGID, told of port events, and stopped when
 * the device goes; the workqueue and the SA client the groups use.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include "sa_mcast.h"
#include "sa_priv.h"

struct workqueue_struct *sa_mcast_wq;
struct ib_sa_client sa_mcast_client;

static void sa_mcast_port_free(struct kref *ref)
{
	kfree(container_of(ref, struct sa_mcast_port, ref));
}

/* Drop a reference to a port's groups. */
void sa_mcast_port_put(struct sa_mcast_port *mport)
{
	kref_put(&mport->ref, sa_mcast_port_free);
}

/* The group of @mgid on @mport, or NULL.  Caller holds @mport->lock. */
static struct sa_mcast_group *sa_mcast_find(struct sa_mcast_port *mport,
					    const union ib_gid *mgid)
{
	struct sa_mcast_group *group;

	list_for_each_entry(group, &mport->groups, node)
		if (!memcmp(&group->rec.mgid, mgid, sizeof(*mgid)))
			return group;
	return NULL;
}

static bool sa_mcast_mgid_zero(const union ib_gid *mgid)
{
	return !mgid->global.subnet_prefix && !mgid->global.interface_id;
}

/**
 * sa_mcast_group_get - the group of an MGID on a port, made if need be
 * @mport: the port
 * @mgid: the MGID; 0 always makes a new group (the SA names it)
 * @gfp_mask: for the allocation
 *
 * Context: Any context @gfp_mask allows; takes @mport->lock.
 * Return: the group, with a reference for the caller;
 * ERR_PTR(-ENODEV) when the device is going; ERR_PTR(-ENOMEM).
 */
struct sa_mcast_group *sa_mcast_group_get(struct sa_mcast_port *mport,
					  const union ib_gid *mgid,
					  gfp_t gfp_mask)
{
	struct sa_mcast_group *group, *found;
	bool zero = sa_mcast_mgid_zero(mgid);
	unsigned long flags;

	group = kzalloc(sizeof(*group), gfp_mask);
	if (!group)
		return ERR_PTR(-ENOMEM);
	group->rec.mgid = *mgid;
	group->port = mport;
	group->pkey_index = SA_MCAST_NO_PKEY_INDEX;
	spin_lock_init(&group->lock);
	INIT_WORK(&group->work, sa_mcast_work);
	INIT_LIST_HEAD(&group->pending);
	INIT_LIST_HEAD(&group->active);
	refcount_set(&group->ref, 1);

	spin_lock_irqsave(&mport->lock, flags);
	if (mport->closing) {
		spin_unlock_irqrestore(&mport->lock, flags);
		kfree(group);
		return ERR_PTR(-ENODEV);
	}
	found = zero ? NULL : sa_mcast_find(mport, mgid);
	if (found) {
		refcount_inc(&found->ref);
		spin_unlock_irqrestore(&mport->lock, flags);
		kfree(group);
		return found;
	}
	kref_get(&mport->ref);
	list_add_tail(&group->node, &mport->groups);
	spin_unlock_irqrestore(&mport->lock, flags);
	return group;
}

/**
 * sa_mcast_group_put - drop a reference to a group
 * @group: the group
 *
 * The last one takes the group off its port and frees it.
 *
 * Context: Any context; takes the port's lock.
 */
void sa_mcast_group_put(struct sa_mcast_group *group)
{
	struct sa_mcast_port *mport = group->port;
	unsigned long flags;

	/* under the lock: a lookup never finds a group going */
	spin_lock_irqsave(&mport->lock, flags);
	if (!refcount_dec_and_test(&group->ref)) {
		spin_unlock_irqrestore(&mport->lock, flags);
		return;
	}
	list_del(&group->node);
	spin_unlock_irqrestore(&mport->lock, flags);
	kfree(group);
	sa_mcast_port_put(mport);
}

/* Have every group of @mport act on @event. */
static void sa_mcast_port_event(struct sa_mcast_port *mport,
				enum sa_mcast_event event)
{
	struct sa_mcast_group *group;
	unsigned long flags;

	spin_lock_irqsave(&mport->lock, flags);
	list_for_each_entry(group, &mport->groups, node) {
		spin_lock(&group->lock);
		group->event = max(group->event, event);
		sa_mcast_group_kick(group);
		spin_unlock(&group->lock);
	}
	spin_unlock_irqrestore(&mport->lock, flags);
}

/**
 * ib_sa_mcast_event - a port event, for the port's groups
 * @mport: the port's groups
 * @event: the event
 *
 * A lost port, a new LID or an SM that asks for re-registration may
 * mean the SA forgot the port's memberships: each joined member gets
 * -ENETRESET and joins again.  A P_Key change does so for the groups
 * whose P_Key moved.
 *
 * Context: Any context (the device's event handler).
 */
void ib_sa_mcast_event(struct sa_mcast_port *mport, enum ib_event_type event)
{
	switch (event) {
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
		sa_mcast_port_event(mport, SA_MCAST_EV_RESET);
		break;
	case IB_EVENT_PKEY_CHANGE:
		sa_mcast_port_event(mport, SA_MCAST_EV_PKEY);
		break;
	default:
		break;
	}
}

/**
 * ib_sa_mcast_port_new - the groups of a port of a new device
 * @device: the device
 * @port_num: the port
 *
 * Context: Process context.
 * Return: the port's groups, or NULL when out of memory.
 */
struct sa_mcast_port *ib_sa_mcast_port_new(struct ib_device *device,
					   u32 port_num)
{
	struct sa_mcast_port *mport = kzalloc(sizeof(*mport), GFP_KERNEL);

	if (!mport)
		return NULL;
	kref_init(&mport->ref);
	spin_lock_init(&mport->lock);
	INIT_LIST_HEAD(&mport->groups);
	mport->device = device;
	mport->port_num = port_num;
	return mport;
}

/**
 * ib_sa_mcast_port_stop - the device is going: stop the port's groups
 * @mport: the port's groups
 *
 * No new join; every group loses its members as on a port error (they
 * get -ENETRESET), pending joins fail with -ENODEV, nothing more goes
 * to the SA.  The SA client's agent goes next, flushing the queries out
 * (their joins fail with -EINTR); ib_sa_mcast_port_gone() then finishes.
 *
 * Context: Process context; sleeps (flushes sa_mcast_wq).
 */
void ib_sa_mcast_port_stop(struct sa_mcast_port *mport)
{
	spin_lock_irq(&mport->lock);
	mport->closing = true;
	spin_unlock_irq(&mport->lock);
	sa_mcast_port_event(mport, SA_MCAST_EV_RESET);
	flush_workqueue(sa_mcast_wq);
}

/**
 * ib_sa_mcast_port_gone - the device's agent is gone: let the port go
 * @mport: the port's groups, stopped
 *
 * The groups ULPs still hold members of stay (without the device) until
 * they free them.
 *
 * Context: Process context; sleeps (flushes sa_mcast_wq).
 */
void ib_sa_mcast_port_gone(struct sa_mcast_port *mport)
{
	flush_workqueue(sa_mcast_wq);
	sa_mcast_port_put(mport);
}

/**
 * ib_sa_get_mcmember_rec - the record of a group the port joined
 * @device: the device
 * @port_num: the port
 * @mgid: the group's MGID
 * @rec: set to the group's record (the SA's, with the port's join
 *	states)
 *
 * Context: Any context; takes the port's groups' lock.
 * Return: 0; -ENODEV when the port has no SA; -EADDRNOTAVAIL when the
 * port has no group of @mgid.
 */
int ib_sa_get_mcmember_rec(struct ib_device *device, u32 port_num,
			   union ib_gid *mgid, struct ib_sa_mcmember_rec *rec)
{
	struct ib_sa_port *port = ib_sa_find_port(device, port_num);
	struct sa_mcast_group *group;
	unsigned long flags;
	int ret = -EADDRNOTAVAIL;

	if (!port || !port->mcast)
		return -ENODEV;
	spin_lock_irqsave(&port->mcast->lock, flags);
	group = sa_mcast_find(port->mcast, mgid);
	if (group) {
		spin_lock(&group->lock);
		*rec = group->rec;
		spin_unlock(&group->lock);
		ret = 0;
	}
	spin_unlock_irqrestore(&port->mcast->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_sa_get_mcmember_rec);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * ib_sa_mcast_kunit_flush - wait until the groups' work queued so far ran
 *
 * What a group decided by then (a callback, a Set or a Delete posted)
 * has happened when this returns.
 *
 * Context: Process context; sleeps (flushes sa_mcast_wq).
 */
void ib_sa_mcast_kunit_flush(void)
{
	flush_workqueue(sa_mcast_wq);
}
EXPORT_SYMBOL_IF_KUNIT(ib_sa_mcast_kunit_flush);
#endif

/**
 * ib_sa_mcast_init - the workqueue and SA client of the joins
 *
 * Context: Process context (module init).
 * Return: 0 or -ENOMEM.
 */
int ib_sa_mcast_init(void)
{
	sa_mcast_wq = alloc_ordered_workqueue("ib_sa_mcast", WQ_MEM_RECLAIM);
	if (!sa_mcast_wq)
		return -ENOMEM;
	ib_sa_register_client(&sa_mcast_client);
	return 0;
}

/**
 * ib_sa_mcast_cleanup - undo ib_sa_mcast_init()
 *
 * Context: Process context (module exit); sleeps.
 */
void ib_sa_mcast_cleanup(void)
{
	ib_sa_unregister_client(&sa_mcast_client);
	destroy_workqueue(sa_mcast_wq);
}
