// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * iw_cm ids: creation, the references that keep them, the event items
 * each keeps ready, and destruction.  iwcm_main.c has the lifetime
 * rules.
 */
#include <linux/export.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#include "iwcm.h"
#include "iwcm_trace.h"

/* Ids not yet freed, for the leak checks of the KUnit suite. */
atomic_t iwcm_ids_alive = ATOMIC_INIT(0);

/**
 * iwcm_set_state - move an id to another state
 * @priv: the id; its lock is held
 * @state: the new state
 */
void iwcm_set_state(struct iwcm_id_private *priv, enum iw_cm_state state)
{
	lockdep_assert_held(&priv->lock);
	if (priv->state == state)
		return;
	trace_iwcm_state(&priv->id, priv->state, state);
	priv->state = state;
}

static void iwcm_free(struct iwcm_id_private *priv)
{
	struct iwcm_work *w, *tmp;

	/* Nothing can be queued: the delivery work held a reference. */
	WARN_ON_ONCE(!list_empty(&priv->events));
	list_for_each_entry_safe(w, tmp, &priv->free_works, list)
		kfree(w);
	kfree(priv->reject_id);
	kfree(priv);
	atomic_dec(&iwcm_ids_alive);
}

/**
 * iwcm_id_get - take a reference on an id
 * @priv: the id; the caller already holds a reference
 */
void iwcm_id_get(struct iwcm_id_private *priv)
{
	refcount_inc(&priv->refcount);
}

/**
 * iwcm_id_put - drop a reference; the last one frees the id
 * @priv: the id
 *
 * Context: any.
 */
void iwcm_id_put(struct iwcm_id_private *priv)
{
	if (refcount_dec_and_test(&priv->refcount))
		iwcm_free(priv);
}

/* The driver's add_ref / rem_ref of struct iw_cm_id. */
static void iwcm_add_ref(struct iw_cm_id *cm_id)
{
	iwcm_id_get(to_iwcm(cm_id));
}

static void iwcm_rem_ref(struct iw_cm_id *cm_id)
{
	iwcm_id_put(to_iwcm(cm_id));
}

/**
 * iwcm_works_fill - keep at least @count event items ready
 * @priv: the id
 * @count: how many
 *
 * Context: process context, may sleep; takes @priv->lock.
 * Return: 0, or -ENOMEM (the items allocated so far stay).
 */
int iwcm_works_fill(struct iwcm_id_private *priv, unsigned int count)
{
	struct iwcm_work *w;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&priv->lock, flags);
		if (priv->nr_free >= count) {
			spin_unlock_irqrestore(&priv->lock, flags);
			return 0;
		}
		spin_unlock_irqrestore(&priv->lock, flags);
		w = kzalloc(sizeof(*w), GFP_KERNEL);
		if (!w)
			return -ENOMEM;
		spin_lock_irqsave(&priv->lock, flags);
		list_add(&w->list, &priv->free_works);
		priv->nr_free++;
		spin_unlock_irqrestore(&priv->lock, flags);
	}
}

/**
 * iwcm_work_take - an item for a new event
 * @priv: the id; its lock is held
 * @close: the event is a CLOSE, which gets the reserved item
 *
 * Return: an item, or NULL when none is ready and none can be
 * allocated without sleeping.
 */
struct iwcm_work *iwcm_work_take(struct iwcm_id_private *priv, bool close)
{
	struct iwcm_work *w;

	lockdep_assert_held(&priv->lock);
	if (close && !priv->close_busy) {
		priv->close_busy = true;
		return &priv->close_work;
	}
	w = list_first_entry_or_null(&priv->free_works, struct iwcm_work,
				     list);
	if (w) {
		list_del(&w->list);
		priv->nr_free--;
		return w;
	}
	w = kzalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (w)
		w->overflow = true;
	return w;
}

/**
 * iwcm_work_recycle - give an item back after its event was handled
 * @priv: the id; its lock is held
 * @w: the item
 */
void iwcm_work_recycle(struct iwcm_id_private *priv, struct iwcm_work *w)
{
	lockdep_assert_held(&priv->lock);
	if (w == &priv->close_work) {
		priv->close_busy = false;
	} else if (w->overflow) {
		kfree(w);
	} else {
		list_add(&w->list, &priv->free_works);
		priv->nr_free++;
	}
}

static bool iwcm_has_iw_ops(const struct ib_device *device)
{
	const struct ib_device_ops *ops = &device->ops;

	return ops->iw_connect && ops->iw_accept && ops->iw_reject &&
	       ops->iw_create_listen && ops->iw_destroy_listen &&
	       ops->iw_add_ref && ops->iw_rem_ref && ops->iw_get_qp;
}

/**
 * iw_create_cm_id - create an iWARP connection id
 * @device: the iWARP device
 * @cm_handler: the consumer's event callback
 * @context: the consumer's pointer, stored in the id
 *
 * The id starts in state IDLE.  @cm_handler is called in process
 * context (iw_cm's workqueue), one event at a time per id; it may call
 * any iw_cm function on the id except iw_destroy_cm_id() (it returns
 * non-zero instead, and the id is destroyed after it returns).
 *
 * Context: process context, may sleep (GFP_KERNEL).
 * Return: the id, ERR_PTR(-ENOMEM), or ERR_PTR(-EOPNOTSUPP) when
 * @device lacks one of the iw_* driver operations.
 */
struct iw_cm_id *iw_create_cm_id(struct ib_device *device,
				 iw_cm_handler cm_handler, void *context)
{
	struct iwcm_id_private *priv;

	if (!iwcm_has_iw_ops(device))
		return ERR_PTR(-EOPNOTSUPP);
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	atomic_inc(&iwcm_ids_alive);

	priv->id.device = device;
	priv->id.cm_handler = cm_handler;
	priv->id.context = context;
	priv->id.event_handler = iwcm_event_handler;
	priv->id.add_ref = iwcm_add_ref;
	priv->id.rem_ref = iwcm_rem_ref;
	spin_lock_init(&priv->lock);
	priv->state = IW_CM_STATE_IDLE;
	refcount_set(&priv->refcount, 1);
	init_waitqueue_head(&priv->wait);
	INIT_WORK(&priv->work, iwcm_deliver_work);
	INIT_LIST_HEAD(&priv->events);
	INIT_LIST_HEAD(&priv->free_works);
	return &priv->id;
}
EXPORT_SYMBOL(iw_create_cm_id);

/**
 * iwcm_end_call - a listen/connect/accept/reject call leaves the driver
 * @priv: the id
 * @connect_done: the connect or accept is over too (it failed)
 */
void iwcm_end_call(struct iwcm_id_private *priv, bool connect_done)
{
	if (connect_done)
		clear_bit(IWCM_F_CONNECT_WAIT, &priv->flags);
	clear_bit(IWCM_F_DOWNCALL, &priv->flags);
	wake_up_all(&priv->wait);
}

/**
 * iwcm_teardown - end whatever the id does; it becomes DESTROYING
 * @priv: the id
 *
 * Drops events from now on, waits for a call inside the driver, then
 * ends the connection as its state requires: a listener stops
 * listening; an unanswered request is rejected; a connection (being set
 * up or established) is cut by moving its QP to ERROR.  The QP and the
 * port mapping are released.  Runs once; later calls return at once.
 *
 * Context: process context, may sleep.
 */
void iwcm_teardown(struct iwcm_id_private *priv)
{
	struct iw_cm_id *cm_id = &priv->id;
	enum iw_cm_state old;
	unsigned long flags;
	struct ib_qp *qp;

	set_bit(IWCM_F_DROP_EVENTS, &priv->flags);
	wait_event(priv->wait, !test_bit(IWCM_F_DOWNCALL, &priv->flags));

	spin_lock_irqsave(&priv->lock, flags);
	old = priv->state;
	qp = priv->qp;
	priv->qp = NULL;
	iwcm_set_state(priv, IW_CM_STATE_DESTROYING);
	spin_unlock_irqrestore(&priv->lock, flags);

	trace_iwcm_destroy(cm_id, old);
	switch (old) {
	case IW_CM_STATE_LISTEN:
		cm_id->device->ops.iw_destroy_listen(cm_id);
		break;
	case IW_CM_STATE_CONN_RECV:
		/* Not accepted yet: refuse it.  Accepted: cut it. */
		if (!qp)
			cm_id->device->ops.iw_reject(cm_id, NULL, 0);
		fallthrough;
	case IW_CM_STATE_CONN_SENT:
	case IW_CM_STATE_ESTABLISHED:
		if (qp)
			iwcm_qp_move(qp, IB_QPS_ERR);
		break;
	case IW_CM_STATE_IDLE:
	case IW_CM_STATE_CLOSING:
	case IW_CM_STATE_DESTROYING:
		break;
	}
	if (qp)
		iwcm_qp_put(priv, qp);
	/* No CONNECT_REPLY / ESTABLISHED will be processed any more. */
	clear_bit(IWCM_F_CONNECT_WAIT, &priv->flags);
	set_bit(IWCM_F_TORN_DOWN, &priv->flags);
	wake_up_all(&priv->wait);
	iwcm_unmap(priv);
}

/**
 * iw_destroy_cm_id - destroy an iWARP connection id
 * @cm_id: the id
 *
 * Ends what the id does (see the state table in
 * Documentation/core/iwcm.rst), waits for a handler of the id's own
 * events that is running and for a call of the id inside the driver,
 * and gives back the consumer's reference.  The CONNECT_REQUEST handler
 * that brought the id runs for the listener and is not waited for; the
 * id's memory stays until it returns.  The memory goes once the driver has
 * dropped its references too.  After this returns the consumer's
 * handler is never called for @cm_id again, and @cm_id must not be
 * used.  Must not be called from @cm_id's own handler (return non-zero
 * there instead).
 *
 * Context: process context, may sleep; takes the id's lock.
 */
void iw_destroy_cm_id(struct iw_cm_id *cm_id)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);

	if (WARN_ON_ONCE(test_and_set_bit(IWCM_F_DESTROYED, &priv->flags)))
		return;
	iwcm_teardown(priv);
	/* Let a handler that runs now finish; later ones see DROP. */
	if (!WARN_ON_ONCE(READ_ONCE(priv->deliverer) == current))
		flush_work(&priv->work);
	iwcm_id_put(priv);
}
EXPORT_SYMBOL(iw_destroy_cm_id);

