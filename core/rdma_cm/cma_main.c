// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module rdma_cm: the RDMA connection manager.  This file holds the life
 * of an id (create, events, destroy), the small per-id options and the
 * module's start and stop.
 *
 * Files of the module:
 *	cma_main.c	ids, states, event delivery, options, module init
 *	cma_ps.c	port spaces per network namespace, rdma_bind_addr()
 *	cma_resolve.c	rdma_resolve_addr(), rdma_resolve_route(), which
 *			device an address belongs to
 *	cma_dev.c	the ib_client (devices coming and going), listeners
 *			across devices, address changes of net devices
 *	cma_conn.c	connect, accept, reject, disconnect, QPs, multicast
 *	cma_iw.c	the iWARP transport (iw_cm)
 *	cma_ib.c	the IB and RoCE transport (IB CM, SA)
 *	(struct cma_transport, cma_priv.h: the calls every transport answers)
 *	cma_configfs.c	/sys/kernel/config/rdma_cm
 *	cma_trace.c	trace events (cma_trace.h, system rdma_cma)
 *
 * Lock order (cma_priv.h says the same at the structures):
 *
 *	rdma_id_private.handler_mutex
 *	  -> cma_lock
 *	    -> rdma_id_private.lock
 *	rdma_id_private.handler_mutex -> rdma_id_private.qp_mutex
 *	rtnl_lock (net device notifier) -> cma_lock
 *
 * Lifetime rules:
 *  - The creator owns one reference.  Everything that may run later on
 *    behalf of an id (queued event work, a transport callback) holds one
 *    more, or is cancelled synchronously by the destroyer (address
 *    resolution: rdma_addr_cancel(); transport ids: their destroy call
 *    returns once no callback runs).  rdma_destroy_id() drops the
 *    creator's reference and waits for the rest, so nothing touches a
 *    freed id.
 *  - Events are delivered under handler_mutex and only while the state is
 *    not RDMA_CM_DESTROYING; the destroyer sets that state under
 *    handler_mutex, so after rdma_destroy_id() has taken the mutex once no
 *    handler runs any more.  A handler that returns non-zero has its id
 *    destroyed by rdma_cm right after it returns.
 *  - An id attached to a device holds a reference on its cma_device; a
 *    device's removal tells every id (DEVICE_REMOVAL) and waits until
 *    their owners destroyed them.  Per-device listeners of a wildcard
 *    listener belong to rdma_cm: whoever unlinks one from its parent's
 *    listen_list under cma_lock destroys it (the parent's destroyer or
 *    the device removal, never both).  Each holds a reference on its
 *    wildcard listener until it is freed: the wildcard's destroyer
 *    waits for those taken by a removal, which it no longer finds.
 */

#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/iw_cm.h>
#include <rdma/rdma_cm.h>

#include "cma_priv.h"
#include "cma_trace.h"

MODULE_AUTHOR("The rdma-next authors");
MODULE_DESCRIPTION("Generic RDMA CM Agent");
MODULE_LICENSE("Dual BSD/GPL");

/*
 * cma_lock protects the device list, the listener lists, every id's
 * device_item/listen_item/bind_list and the port spaces.
 */
DEFINE_MUTEX(cma_lock);

/* Where deferred events run (ordered: one id's events stay in order). */
struct workqueue_struct *cma_wq;

static const char * const cma_events[] = {
	[RDMA_CM_EVENT_ADDR_RESOLVED]	 = "address resolved",
	[RDMA_CM_EVENT_ADDR_ERROR]	 = "address error",
	[RDMA_CM_EVENT_ROUTE_RESOLVED]	 = "route resolved ",
	[RDMA_CM_EVENT_ROUTE_ERROR]	 = "route error",
	[RDMA_CM_EVENT_CONNECT_REQUEST]	 = "connect request",
	[RDMA_CM_EVENT_CONNECT_RESPONSE] = "connect response",
	[RDMA_CM_EVENT_CONNECT_ERROR]	 = "connect error",
	[RDMA_CM_EVENT_UNREACHABLE]	 = "unreachable",
	[RDMA_CM_EVENT_REJECTED]	 = "rejected",
	[RDMA_CM_EVENT_ESTABLISHED]	 = "established",
	[RDMA_CM_EVENT_DISCONNECTED]	 = "disconnected",
	[RDMA_CM_EVENT_DEVICE_REMOVAL]	 = "device removal",
	[RDMA_CM_EVENT_MULTICAST_JOIN]	 = "multicast join",
	[RDMA_CM_EVENT_MULTICAST_ERROR]	 = "multicast error",
	[RDMA_CM_EVENT_ADDR_CHANGE]	 = "address change",
	[RDMA_CM_EVENT_TIMEWAIT_EXIT]	 = "timewait exit",
};

/**
 * rdma_event_msg - name of an rdma_cm event
 * @event: the event type
 *
 * Context: any.
 * Return: a constant string ("unrecognized event" for unknown values).
 */
const char *__attribute_const__ rdma_event_msg(enum rdma_cm_event_type event)
{
	size_t index = event;

	return (index < ARRAY_SIZE(cma_events) && cma_events[index]) ?
		cma_events[index] : "unrecognized event";
}
EXPORT_SYMBOL(rdma_event_msg);

/* ------------------------------------------------------------------
 * States and references
 */

/* Move from @comp to @exch; false (and nothing changed) if not in @comp. */
bool cma_comp_exch(struct rdma_id_private *id_priv, enum rdma_cm_state comp,
		   enum rdma_cm_state exch)
{
	unsigned long flags;
	bool ret;

	/*
	 * The event is emitted under the lock: an id's changes reach the
	 * trace in the order they were made, whichever CPU made them.
	 */
	spin_lock_irqsave(&id_priv->lock, flags);
	ret = id_priv->state == comp;
	if (ret) {
		id_priv->state = exch;
		trace_cm_state_change(id_priv, comp, exch);
	}
	spin_unlock_irqrestore(&id_priv->lock, flags);
	return ret;
}

/* Move to @exch whatever the state was; returns the old state. */
enum rdma_cm_state cma_exch(struct rdma_id_private *id_priv,
			    enum rdma_cm_state exch)
{
	enum rdma_cm_state old;
	unsigned long flags;

	spin_lock_irqsave(&id_priv->lock, flags);
	old = id_priv->state;
	id_priv->state = exch;
	trace_cm_state_change(id_priv, old, exch);	/* in order: see above */
	spin_unlock_irqrestore(&id_priv->lock, flags);
	return old;
}

void cma_id_get(struct rdma_id_private *id_priv)
{
	refcount_inc(&id_priv->refcount);
}

void cma_id_put(struct rdma_id_private *id_priv)
{
	if (refcount_dec_and_test(&id_priv->refcount))
		complete(&id_priv->comp);
}

void cma_dev_get(struct cma_device *cma_dev)
{
	refcount_inc(&cma_dev->refcount);
}

/**
 * cma_dev_put - drop a reference on a cma_device
 * @cma_dev: the device
 *
 * The last one wakes the device's removal, which waits for it.
 *
 * Context: any.
 * Return: nothing.
 */
void cma_dev_put(struct cma_device *cma_dev)
{
	if (refcount_dec_and_test(&cma_dev->refcount))
		complete(&cma_dev->comp);
}
EXPORT_SYMBOL_IF_KUNIT(cma_dev_put);

/**
 * cma_attach_to_dev - tie an id to a device port
 * @id_priv: the id, not yet attached
 * @cma_dev: the device
 * @port: the port
 *
 * Caller holds cma_lock.  From here on the id shows in restrack.
 */
void cma_attach_to_dev(struct rdma_id_private *id_priv,
		       struct cma_device *cma_dev, u32 port)
{
	struct ib_device *device = cma_dev->device;

	lockdep_assert_held(&cma_lock);
	cma_dev_get(cma_dev);
	id_priv->cma_dev = cma_dev;
	id_priv->id.device = device;
	id_priv->id.port_num = port;
	id_priv->tp = cma_transport_of(device, port);
	id_priv->id.route.addr.dev_addr.transport =
		rdma_node_get_transport(device->node_type);
	list_add_tail(&id_priv->device_item, &cma_dev->id_list);
	if (rdma_protocol_roce(device, port))
		id_priv->gid_type = cma_default_gid_type(cma_dev, port);
	rdma_restrack_add(&id_priv->res);
	trace_cm_id_attach(id_priv, device);
}

/**
 * cma_bind_sgid_attr - give an id the GID entry of its source address
 * @id_priv: the id, without one
 * @sgid_attr: the entry, referenced; the id owns the reference from here
 *	on (cma_release_dev() drops it), NULL for none
 *
 * The id's RoCE GID type becomes the entry's.
 */
void cma_bind_sgid_attr(struct rdma_id_private *id_priv,
			const struct ib_gid_attr *sgid_attr)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;

	if (!sgid_attr)
		return;
	WARN_ON(dev_addr->sgid_attr);
	dev_addr->sgid_attr = sgid_attr;
	id_priv->gid_type = sgid_attr->gid_type;
}

/**
 * cma_attach_checked - attach an id unless its device is going away
 * @id_priv: the id, not attached
 * @cma_dev: the device (the caller holds a reference)
 * @port: the port
 * @sgid_attr: the GID entry of the id's source address on a RoCE port,
 *	referenced, or NULL; taken over in every case (bound to the id, or
 *	released on failure)
 *
 * Return: 0, or -ENODEV when the device is being removed.
 */
int cma_attach_checked(struct rdma_id_private *id_priv,
		       struct cma_device *cma_dev, u32 port,
		       const struct ib_gid_attr *sgid_attr)
{
	int ret = 0;

	mutex_lock(&cma_lock);
	if (cma_dev->removing) {
		ret = -ENODEV;
	} else {
		cma_attach_to_dev(id_priv, cma_dev, port);
		cma_bind_sgid_attr(id_priv, sgid_attr);
		sgid_attr = NULL;
	}
	mutex_unlock(&cma_lock);
	if (sgid_attr)
		rdma_put_gid_attr(sgid_attr);
	return ret;
}

/*
 * Undo cma_attach_to_dev(); the id's transport state is gone already.
 * The GID entry goes before the device reference: a removal waiting for
 * that reference finds no entry of the id left in the device's cache.
 */
static void cma_release_dev(struct rdma_id_private *id_priv)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct cma_device *cma_dev = id_priv->cma_dev;

	if (!cma_dev)
		return;
	mutex_lock(&cma_lock);
	list_del_init(&id_priv->device_item);
	mutex_unlock(&cma_lock);
	rdma_restrack_del(&id_priv->res);
	if (dev_addr->sgid_attr) {
		rdma_put_gid_attr(dev_addr->sgid_attr);
		dev_addr->sgid_attr = NULL;
	}
	id_priv->cma_dev = NULL;
	id_priv->id.device = NULL;
	id_priv->id.port_num = 0;
	id_priv->tp = &cma_no_cm_transport;
	cma_dev_put(cma_dev);
}

/* ------------------------------------------------------------------
 * Creating ids
 */

struct rdma_id_private *cma_create_id(struct net *net,
				      rdma_cm_event_handler handler,
				      void *context,
				      enum rdma_ucm_port_space ps,
				      enum ib_qp_type qp_type,
				      const char *caller, bool user)
{
	struct rdma_id_private *id_priv;

	id_priv = kzalloc(sizeof(*id_priv), GFP_KERNEL);
	if (!id_priv)
		return ERR_PTR(-ENOMEM);

	id_priv->state = RDMA_CM_IDLE;
	id_priv->id.context = context;
	id_priv->id.event_handler = handler;
	id_priv->id.ps = ps;
	id_priv->id.qp_type = qp_type;
	id_priv->gid_type = IB_GID_TYPE_IB;
	id_priv->tp = &cma_no_cm_transport;
	spin_lock_init(&id_priv->lock);
	mutex_init(&id_priv->qp_mutex);
	mutex_init(&id_priv->handler_mutex);
	init_completion(&id_priv->comp);
	refcount_set(&id_priv->refcount, 1);
	INIT_LIST_HEAD(&id_priv->device_item);
	INIT_LIST_HEAD(&id_priv->listen_item);
	INIT_LIST_HEAD(&id_priv->listen_list);
	INIT_LIST_HEAD(&id_priv->mc_list);
	INIT_LIST_HEAD(&id_priv->work_list);
	id_priv->seq_num = get_random_u32() & 0xffffff;
	id_priv->id.route.addr.dev_addr.net = get_net(net);

	rdma_restrack_new(&id_priv->res, RDMA_RESTRACK_CM_ID);
	rdma_restrack_set_name(&id_priv->res, user ? NULL : caller);
	return id_priv;
}

static bool cma_ps_valid(enum rdma_ucm_port_space ps)
{
	return ps == RDMA_PS_TCP || ps == RDMA_PS_UDP ||
	       ps == RDMA_PS_IPOIB || ps == RDMA_PS_IB;
}

/**
 * __rdma_create_kernel_id - create an id for a kernel user
 * @net: network namespace of its addresses (a reference is taken)
 * @event_handler: the owner's event handler
 * @context: the owner's pointer
 * @ps: port space: RDMA_PS_TCP, _UDP, _IPOIB or _IB
 * @qp_type: QP type of the connection (IB_QPT_RC, IB_QPT_UD, ...)
 * @caller: the owner's module name (restrack shows it)
 *
 * Use the rdma_create_id() macro, which fills in @caller.
 *
 * Context: process context; may sleep.
 * Return: the id, or ERR_PTR(-ENOMEM), or ERR_PTR(-EINVAL) for an
 * unknown port space.
 */
struct rdma_cm_id *
__rdma_create_kernel_id(struct net *net, rdma_cm_event_handler event_handler,
			void *context, enum rdma_ucm_port_space ps,
			enum ib_qp_type qp_type, const char *caller)
{
	struct rdma_id_private *id_priv;

	if (!cma_ps_valid(ps))
		return ERR_PTR(-EINVAL);
	id_priv = cma_create_id(net, event_handler, context, ps, qp_type,
				caller, false);
	if (IS_ERR(id_priv))
		return ERR_CAST(id_priv);
	return &id_priv->id;
}
EXPORT_SYMBOL(__rdma_create_kernel_id);

/**
 * rdma_create_user_id_net - create an id on behalf of user space
 * @net: network namespace of its addresses (a reference is taken)
 * @event_handler: the owner's event handler
 * @context: the owner's pointer
 * @ps: port space
 * @qp_type: QP type of the connection
 *
 * For a character device that serves ids to user space (rdma_ucm): the
 * namespace is the one the device's file was opened in, whichever task
 * asks later.  The id is accounted in restrack to the calling task.
 *
 * Context: process context; may sleep.
 * Return: the id or an ERR_PTR() as __rdma_create_kernel_id().
 */
struct rdma_cm_id *rdma_create_user_id_net(struct net *net,
					   rdma_cm_event_handler event_handler,
					   void *context,
					   enum rdma_ucm_port_space ps,
					   enum ib_qp_type qp_type)
{
	struct rdma_id_private *id_priv;

	if (!cma_ps_valid(ps))
		return ERR_PTR(-EINVAL);
	id_priv = cma_create_id(net, event_handler, context, ps, qp_type,
				NULL, true);
	if (IS_ERR(id_priv))
		return ERR_CAST(id_priv);
	return &id_priv->id;
}
EXPORT_SYMBOL(rdma_create_user_id_net);

/**
 * rdma_create_user_id - create an id on behalf of user space
 * @event_handler: the owner's event handler
 * @context: the owner's pointer
 * @ps: port space
 * @qp_type: QP type of the connection
 *
 * The id lives in the network namespace of the calling task and is
 * accounted to it in restrack (rdma_create_user_id_net() with that
 * namespace).
 *
 * Context: process context; may sleep.
 * Return: the id or an ERR_PTR() as __rdma_create_kernel_id().
 */
struct rdma_cm_id *rdma_create_user_id(rdma_cm_event_handler event_handler,
				       void *context,
				       enum rdma_ucm_port_space ps,
				       enum ib_qp_type qp_type)
{
	return rdma_create_user_id_net(current->nsproxy->net_ns, event_handler,
				       context, ps, qp_type);
}
EXPORT_SYMBOL(rdma_create_user_id);

/* ------------------------------------------------------------------
 * Events
 */

/**
 * cma_deliver_event - hand one event to the owner
 * @id_priv: the id; caller holds its handler_mutex
 * @event: the event
 *
 * Return: the handler's result; non-zero means the caller must destroy
 * the id (cma_destroy_id_handler_unlock()).
 */
int cma_deliver_event(struct rdma_id_private *id_priv,
		      struct rdma_cm_event *event)
{
	int ret;

	lockdep_assert_held(&id_priv->handler_mutex);
	trace_cm_event_handler(id_priv, event);
	ret = id_priv->id.event_handler(&id_priv->id, event);
	trace_cm_event_done(id_priv, event, ret);
	return ret;
}

/**
 * struct cma_work - an event delivered later from cma_wq
 * @work: the work item
 * @list: on the id's work_list until the work starts (id's lock)
 * @id_priv: the id, referenced until the work ran or was cancelled
 * @old: state required for delivery (with @new: the transition made)
 * @new: state after delivery; @old == @new: no transition, any live state
 * @event: the event
 */
struct cma_work {
	struct work_struct	work;
	struct list_head	list;
	struct rdma_id_private	*id_priv;
	enum rdma_cm_state	old;
	enum rdma_cm_state	new;
	struct rdma_cm_event	event;
};

static void cma_work_handler(struct work_struct *_work)
{
	struct cma_work *work = container_of(_work, struct cma_work, work);
	struct rdma_id_private *id_priv = work->id_priv;
	enum rdma_cm_state state;
	unsigned long flags;

	/* started: the destroyer can no longer cancel us (cma_cancel_work) */
	spin_lock_irqsave(&id_priv->lock, flags);
	list_del_init(&work->list);
	spin_unlock_irqrestore(&id_priv->lock, flags);

	mutex_lock(&id_priv->handler_mutex);
	state = READ_ONCE(id_priv->state);
	if (state == RDMA_CM_DESTROYING || state == RDMA_CM_DEVICE_REMOVAL)
		goto out_unlock;
	if (work->old != work->new &&
	    !cma_comp_exch(id_priv, work->old, work->new))
		goto out_unlock;
	if (cma_deliver_event(id_priv, &work->event)) {
		cma_id_put(id_priv);
		cma_destroy_id_handler_unlock(id_priv);
		goto out_free;
	}
out_unlock:
	mutex_unlock(&id_priv->handler_mutex);
	cma_id_put(id_priv);
out_free:
	kfree(work);
}

/**
 * cma_work_alloc - an event work for an id, to queue later
 * @id_priv: the id
 *
 * For events whose cause runs where it may not allocate (an SA
 * callback): the work is made beforehand, then queued with
 * cma_work_queue() or given back with cma_work_free().
 *
 * Context: process context; may sleep.
 * Return: the work, or NULL without memory.
 */
struct cma_work *cma_work_alloc(struct rdma_id_private *id_priv)
{
	struct cma_work *work = kzalloc(sizeof(*work), GFP_KERNEL);

	if (!work)
		return NULL;
	INIT_WORK(&work->work, cma_work_handler);
	INIT_LIST_HEAD(&work->list);
	work->id_priv = id_priv;
	return work;
}

/* Give back a work of cma_work_alloc() that was never queued. */
void cma_work_free(struct cma_work *work)
{
	kfree(work);
}

/**
 * cma_work_queue - deliver an event later, from cma_wq, with a made work
 * @work: from cma_work_alloc(); owned by rdma_cm from here on
 * @old: state the id must be in at delivery (moved to @new then)
 * @new: see @old; pass @old == @new to deliver in any live state
 * @event: the event (copied)
 *
 * Nothing is queued for an id being destroyed (it would hear nothing):
 * the work is freed.
 *
 * Context: any; takes the id's lock with interrupts off.
 */
void cma_work_queue(struct cma_work *work, enum rdma_cm_state old,
		    enum rdma_cm_state new, const struct rdma_cm_event *event)
{
	struct rdma_id_private *id_priv = work->id_priv;
	unsigned long flags;

	work->old = old;
	work->new = new;
	work->event = *event;
	spin_lock_irqsave(&id_priv->lock, flags);
	/* no event for an id being destroyed: its destroyer cancelled them */
	if (id_priv->state == RDMA_CM_DESTROYING) {
		spin_unlock_irqrestore(&id_priv->lock, flags);
		kfree(work);
		return;
	}
	cma_id_get(id_priv);
	list_add_tail(&work->list, &id_priv->work_list);
	queue_work(cma_wq, &work->work);
	spin_unlock_irqrestore(&id_priv->lock, flags);
}

/**
 * cma_queue_event - deliver an event later, from cma_wq
 * @id_priv: the id
 * @old: state the id must be in at delivery (moved to @new then)
 * @new: see @old; pass @old == @new to deliver in any live state
 * @event: the event (copied)
 *
 * Nothing is queued for an id being destroyed (it would hear nothing).
 *
 * Return: 0, or -ENOMEM.
 */
int cma_queue_event(struct rdma_id_private *id_priv,
		    enum rdma_cm_state old, enum rdma_cm_state new,
		    const struct rdma_cm_event *event)
{
	struct cma_work *work = cma_work_alloc(id_priv);

	if (!work)
		return -ENOMEM;
	cma_work_queue(work, old, new, event);
	return 0;
}

/*
 * Cancel the id's events still waiting on cma_wq, with their references.
 * The destroyer must not wait for them: it may run from cma_wq itself
 * (a handler refusing an event of cma_work_handler()), and cma_wq runs
 * one work at a time, so a work of the id queued behind the running one
 * would never run.  One that started already drops its reference itself
 * (it finds the id DESTROYING).
 */
static void cma_cancel_work(struct rdma_id_private *id_priv)
{
	struct cma_work *work, *tmp;
	unsigned long flags;
	LIST_HEAD(cancelled);

	spin_lock_irqsave(&id_priv->lock, flags);
	list_for_each_entry_safe(work, tmp, &id_priv->work_list, list) {
		list_del_init(&work->list);
		if (cancel_work(&work->work))
			list_add_tail(&work->list, &cancelled);
	}
	spin_unlock_irqrestore(&id_priv->lock, flags);

	list_for_each_entry_safe(work, tmp, &cancelled, list) {
		cma_id_put(id_priv);
		kfree(work);
	}
}

/* ------------------------------------------------------------------
 * Destroying ids
 */

/* Free what the id still holds once nobody else can reach it. */
static void cma_destroy(struct rdma_id_private *id_priv,
			enum rdma_cm_state state)
{
	/*
	 * No address resolution calls back after this.  Not from inside
	 * the callback (it cleared addr_pending): rdma_addr_cancel() would
	 * wait for the work we run in.
	 */
	if (READ_ONCE(id_priv->addr_pending))
		rdma_addr_cancel(&id_priv->id.route.addr.dev_addr);
	if (state == RDMA_CM_LISTEN)
		cma_cancel_listens(id_priv);
	cma_leave_all_mc(id_priv);

	/* The transport calls back no more after this. */
	id_priv->tp->destroy(id_priv);

	/* Queued work and callbacks in flight hold references. */
	cma_cancel_work(id_priv);
	cma_id_put(id_priv);
	wait_for_completion(&id_priv->comp);

	cma_release_port(id_priv);
	cma_release_dev(id_priv);
	/* Never attached: restrack only holds the owner's task. */
	rdma_restrack_del(&id_priv->res);
	/* A per-device listener is gone: its wildcard listener may go. */
	if (id_priv->parent)
		cma_id_put(id_priv->parent);

	kfree(id_priv->id.route.path_rec);
	kfree(id_priv->id.route.path_rec_inbound);
	kfree(id_priv->id.route.path_rec_outbound);
	put_net(id_priv->id.route.addr.dev_addr.net);
	kfree(id_priv);
}

/**
 * cma_destroy_id_handler_unlock - destroy an id whose handler_mutex we hold
 * @id_priv: the id; the caller's reference is the creator's (or owned)
 *
 * Marks the id DESTROYING (no event after this), drops handler_mutex and
 * frees the id.
 */
void cma_destroy_id_handler_unlock(struct rdma_id_private *id_priv)
{
	enum rdma_cm_state state;

	lockdep_assert_held(&id_priv->handler_mutex);
	trace_cm_id_destroy(id_priv);
	state = cma_exch(id_priv, RDMA_CM_DESTROYING);
	mutex_unlock(&id_priv->handler_mutex);
	cma_destroy(id_priv, state);
}

/**
 * rdma_destroy_id - destroy an id
 * @id: the id
 *
 * Cancels whatever the id has in flight (address and route resolution,
 * listens, the connection: an established one is torn down, the QP is not
 * destroyed), waits until no event handler runs or will run for it, and
 * frees it.  Must not be called from the id's own event handler (return
 * non-zero there instead) nor with its handler lock held.
 *
 * Context: process context; sleeps.  Takes the id's handler_mutex and
 * cma_lock.
 * Return: nothing.
 */
void rdma_destroy_id(struct rdma_cm_id *id)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	mutex_lock(&id_priv->handler_mutex);
	cma_destroy_id_handler_unlock(id_priv);
}
EXPORT_SYMBOL(rdma_destroy_id);

/* ------------------------------------------------------------------
 * Small things
 */

/**
 * rdma_lock_handler - keep an id's event handler from running
 * @id: the id
 *
 * Between this and rdma_unlock_handler() no event of @id is delivered;
 * calls documented as needing the handler lock (rdma_connect_locked())
 * may be made.
 *
 * Context: process context; sleeps (takes the id's handler_mutex).
 * Return: nothing.
 */
void rdma_lock_handler(struct rdma_cm_id *id)
{
	mutex_lock(&to_id_priv(id)->handler_mutex);
}
EXPORT_SYMBOL(rdma_lock_handler);

/**
 * rdma_unlock_handler - undo rdma_lock_handler()
 * @id: the id
 *
 * Context: the caller holds the handler lock of @id.
 * Return: nothing.
 */
void rdma_unlock_handler(struct rdma_cm_id *id)
{
	mutex_unlock(&to_id_priv(id)->handler_mutex);
}
EXPORT_SYMBOL(rdma_unlock_handler);

/**
 * rdma_res_to_id - the id of a restrack CM ID entry
 * @res: an entry of type RDMA_RESTRACK_CM_ID
 *
 * Context: any; the caller holds a reference on @res.
 * Return: the id.
 */
struct rdma_cm_id *rdma_res_to_id(struct rdma_restrack_entry *res)
{
	return &container_of(res, struct rdma_id_private, res)->id;
}
EXPORT_SYMBOL(rdma_res_to_id);

/**
 * rdma_iw_cm_id - the iw_cm id under an rdma_cm id
 * @cm_id: the id
 *
 * Context: any.
 * Return: the iw_cm_id of a connection on an iWARP device, else NULL.
 */
struct iw_cm_id *rdma_iw_cm_id(struct rdma_cm_id *cm_id)
{
	struct rdma_id_private *id_priv = to_id_priv(cm_id);

	if (cm_id->device && cm_id->device->node_type == RDMA_NODE_RNIC)
		return id_priv->cm_id.iw;
	return NULL;
}
EXPORT_SYMBOL(rdma_iw_cm_id);

/**
 * rdma_set_service_type - set the IP type of service of a connection
 * @id: the id
 * @tos: the ToS byte
 *
 * Takes effect for a route resolved and a connection made afterwards.
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: nothing.
 */
void rdma_set_service_type(struct rdma_cm_id *id, int tos)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	mutex_lock(&id_priv->qp_mutex);
	id_priv->tos = (u8)tos;
	id_priv->tos_set = true;
	mutex_unlock(&id_priv->qp_mutex);
}
EXPORT_SYMBOL(rdma_set_service_type);

/**
 * rdma_set_reuseaddr - allow the id's port to be shared
 * @id: the id
 * @reuse: non-zero to allow sharing
 *
 * Ids that all set it may bind the same address and port, as long as
 * none of them listens.
 *
 * Context: any; takes the id's lock.
 * Return: 0, or -EINVAL when set on a listener, or cleared on an id that
 * is not idle.
 */
int rdma_set_reuseaddr(struct rdma_cm_id *id, int reuse)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	unsigned long flags;
	int ret = -EINVAL;

	spin_lock_irqsave(&id_priv->lock, flags);
	if ((reuse && id_priv->state != RDMA_CM_LISTEN) ||
	    id_priv->state == RDMA_CM_IDLE) {
		id_priv->reuseaddr = !!reuse;
		ret = 0;
	}
	spin_unlock_irqrestore(&id_priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_set_reuseaddr);

/**
 * rdma_set_afonly - whether an IPv6 wildcard id takes IPv6 only
 * @id: the id
 * @afonly: non-zero: IPv6 only; zero: IPv4 too
 *
 * Without this call an IPv6 id follows the namespace's bindv6only sysctl.
 *
 * Context: any; takes the id's lock.
 * Return: 0, or -EINVAL unless the id is idle or just bound.
 */
int rdma_set_afonly(struct rdma_cm_id *id, int afonly)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	unsigned long flags;
	int ret = -EINVAL;

	spin_lock_irqsave(&id_priv->lock, flags);
	if (id_priv->state == RDMA_CM_IDLE ||
	    id_priv->state == RDMA_CM_ADDR_BOUND) {
		id_priv->options |= BIT(CMA_OPTION_AFONLY);
		id_priv->afonly = !!afonly;
		ret = 0;
	}
	spin_unlock_irqrestore(&id_priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(rdma_set_afonly);

/**
 * rdma_set_ack_timeout - set the QP's local ACK timeout
 * @id: an RC or XRC initiator id
 * @timeout: 4.096 us * 2^@timeout
 *
 * Used by rdma_init_qp_attr() when it fills IB_QP_TIMEOUT; on RoCE, set
 * before rdma_resolve_route(), it also gives the path's packet life time
 * (@timeout - 1: IBTA 12.7.34 with a negligible ACK delay, as upstream).
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: 0, or -EINVAL for other QP types.
 */
int rdma_set_ack_timeout(struct rdma_cm_id *id, u8 timeout)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	mutex_lock(&id_priv->qp_mutex);
	id_priv->timeout = timeout;
	id_priv->timeout_set = true;
	mutex_unlock(&id_priv->qp_mutex);
	return 0;
}
EXPORT_SYMBOL(rdma_set_ack_timeout);

/**
 * rdma_set_min_rnr_timer - set the QP's minimum RNR NAK timer
 * @id: an RC or XRC target id
 * @min_rnr_timer: IB_RNR_TIMER_* value (5 bits)
 *
 * Used by rdma_init_qp_attr() when it fills IB_QP_MIN_RNR_TIMER.
 *
 * Context: process context; takes the id's qp_mutex.
 * Return: 0, or -EINVAL for a value over 5 bits or other QP types.
 */
int rdma_set_min_rnr_timer(struct rdma_cm_id *id, u8 min_rnr_timer)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (min_rnr_timer & 0xe0)
		return -EINVAL;
	if (id->qp_type != IB_QPT_RC && id->qp_type != IB_QPT_XRC_TGT)
		return -EINVAL;
	mutex_lock(&id_priv->qp_mutex);
	id_priv->min_rnr_timer = min_rnr_timer;
	id_priv->min_rnr_timer_set = true;
	mutex_unlock(&id_priv->qp_mutex);
	return 0;
}
EXPORT_SYMBOL(rdma_set_min_rnr_timer);

/**
 * rdma_read_gids - the source and destination GIDs of an id
 * @cm_id: the id
 * @sgid: where the source GID goes, or NULL
 * @dgid: where the destination GID goes, or NULL
 *
 * On RoCE the GIDs are the IP addresses; elsewhere they come from the
 * link-layer addresses (an IPoIB hardware address holds the port GID
 * after its QPN; an AF_IB id's are the GIDs of its addresses).  An id
 * without a device gets zero GIDs.
 *
 * Context: any.
 * Return: nothing.
 */
void rdma_read_gids(struct rdma_cm_id *cm_id, union ib_gid *sgid,
		    union ib_gid *dgid)
{
	struct rdma_addr *addr = &cm_id->route.addr;

	if (!cm_id->device) {
		if (sgid)
			memset(sgid, 0, sizeof(*sgid));
		if (dgid)
			memset(dgid, 0, sizeof(*dgid));
		return;
	}
	if (rdma_protocol_roce(cm_id->device, cm_id->port_num)) {
		if (sgid)
			rdma_ip2gid((struct sockaddr *)&addr->src_addr, sgid);
		if (dgid)
			rdma_ip2gid((struct sockaddr *)&addr->dst_addr, dgid);
		return;
	}
	if (sgid)
		rdma_addr_get_sgid(&addr->dev_addr, sgid);
	if (dgid)
		rdma_addr_get_dgid(&addr->dev_addr, dgid);
}
EXPORT_SYMBOL(rdma_read_gids);

/**
 * rdma_get_service_id - the IB service ID of an address in an id's space
 * @id: the id (its port space)
 * @addr: an IPv4 or IPv6 address with port, or an AF_IB address
 *
 * Context: any.
 * Return: the service ID, big endian: port space << 16 | port for IP
 * addresses (IBTA Annex A11), the address's own sib_sid for AF_IB.
 */
__be64 rdma_get_service_id(struct rdma_cm_id *id, struct sockaddr *addr)
{
	if (addr->sa_family == AF_IB)
		return ((struct sockaddr_ib *)addr)->sib_sid;
	return cpu_to_be64(((u64)id->ps << 16) + be16_to_cpu(cma_port(addr)));
}
EXPORT_SYMBOL(rdma_get_service_id);

/* ------------------------------------------------------------------
 * Module
 */

static int __init cma_init(void)
{
	int ret;

	cma_wq = alloc_ordered_workqueue("rdma_cm", WQ_MEM_RECLAIM);
	if (!cma_wq)
		return -ENOMEM;
	ib_sa_register_client(&cma_sa_client);
	ret = cma_net_init();
	if (ret)
		goto err_wq;
	ret = cma_netdev_notifier_register();
	if (ret)
		goto err_net;
	ret = ib_register_client(&cma_client);
	if (ret)
		goto err_notifier;
	ret = cma_configfs_init();
	if (ret)
		goto err_client;
	return 0;

err_client:
	ib_unregister_client(&cma_client);
err_notifier:
	cma_netdev_notifier_unregister();
err_net:
	cma_net_exit();
err_wq:
	ib_sa_unregister_client(&cma_sa_client);
	destroy_workqueue(cma_wq);
	return ret;
}

static void __exit cma_cleanup(void)
{
	cma_configfs_exit();
	ib_unregister_client(&cma_client);
	cma_netdev_notifier_unregister();
	cma_net_exit();
	ib_sa_unregister_client(&cma_sa_client);
	destroy_workqueue(cma_wq);
}

module_init(cma_init);
module_exit(cma_cleanup);
