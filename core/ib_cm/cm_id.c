// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CM IDs: creation, lookup by local ID (an xarray read under RCU), the
 * listeners and the tables that recognise a connection again (by the
 * peer's CA GUID with its CM ID, or with its QP: duplicates and stale
 * connections), timewait, the delivery of events to a CM ID's handler
 * one at a time, and destruction in every state.
 */

#include <linux/slab.h>

#include "cm_priv.h"
#include "cm_trace.h"

/* How long ib_destroy_cm_id() waits before it complains (and waits on) */
#define CM_DESTROY_ID_WAIT_MS	10000

void cm_deref_id(struct cm_id_private *priv)
{
	if (refcount_dec_and_test(&priv->refcount))
		complete(&priv->comp);
}

/* Change @priv's state (under its lock, or before anyone can see it) */
void cm_set_state(struct cm_id_private *priv, enum ib_cm_state state)
{
	if (priv->id.state != state)
		trace_ibcm_state(&priv->id, priv->id.state, state);
	priv->id.state = state;
}

/* The index of @local_id in ibcm.local_id_table */
static u32 cm_local_index(__be32 local_id)
{
	return (__force u32)(local_id ^ ibcm.random_id_operand);
}

/*
 * The CM ID of @local_id whose peer is @remote_id, referenced, or NULL.
 * Any context.
 */
struct cm_id_private *cm_acquire_id(__be32 local_id, __be32 remote_id)
{
	struct cm_id_private *priv;

	rcu_read_lock();
	priv = xa_load(&ibcm.local_id_table, cm_local_index(local_id));
	if (!priv || priv->id.remote_id != remote_id ||
	    !refcount_inc_not_zero(&priv->refcount))
		priv = NULL;
	rcu_read_unlock();
	return priv;
}

/*
 * A new CM ID with a local ID reserved for it; invisible to received
 * messages until cm_finalize_id().
 */
struct cm_id_private *cm_alloc_id_priv(struct ib_device *device,
				       ib_cm_handler handler, void *context)
{
	struct cm_id_private *priv;
	u32 index;
	int ret;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->id.state = IB_CM_IDLE;
	priv->id.device = device;
	priv->id.cm_handler = handler;
	priv->id.context = context;
	priv->id.remote_cm_qpn = 1;
	INIT_HLIST_NODE(&priv->service_node);
	INIT_HLIST_NODE(&priv->sidr_id_node);
	spin_lock_init(&priv->lock);
	init_completion(&priv->comp);
	INIT_LIST_HEAD(&priv->work_list);
	atomic_set(&priv->work_count, -1);
	refcount_set(&priv->refcount, 1);

	ret = xa_alloc_cyclic(&ibcm.local_id_table, &index, NULL, xa_limit_32b,
			      &ibcm.local_id_next, GFP_KERNEL);
	if (ret < 0) {
		kfree(priv);
		return ERR_PTR(ret);
	}
	priv->id.local_id = (__force __be32)index ^ ibcm.random_id_operand;
	return priv;
}

/* Let received messages find @priv */
void cm_finalize_id(struct cm_id_private *priv)
{
	xa_store(&ibcm.local_id_table, cm_local_index(priv->id.local_id), priv,
		 GFP_ATOMIC);
}

/**
 * ib_create_cm_id - make a CM ID
 * @device: the device its connection (or listen) will use
 * @cm_handler: its event handler
 * @context: the consumer's, in @cm_id->context
 *
 * The new CM ID is IDLE: it may listen (ib_cm_listen()), send a REQ or a
 * SIDR REQ.  Its handler is called in process context, one event at a
 * time; it must not destroy its own CM ID but may return non-zero to
 * have it destroyed.
 *
 * Context: Process context; may sleep.
 * Return: the CM ID, or ERR_PTR(-ENOMEM) (or another errno of the local
 * ID's allocation).
 */
struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler, void *context)
{
	struct cm_id_private *priv;

	priv = cm_alloc_id_priv(device, cm_handler, context);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	cm_finalize_id(priv);
	return &priv->id;
}
EXPORT_SYMBOL(ib_create_cm_id);

/* The hash key of a listener */
static u64 cm_listen_key(struct ib_device *device, __be64 service_id)
{
	return (u64)(uintptr_t)device ^ (__force u64)service_id;
}

/*
 * Put @priv into the listen table.  Returns @priv, NULL when another
 * listener has its device and service ID and cannot be shared, or that
 * listener (referenced, its share count raised) when it can: a listener
 * of ib_cm_insert_listen() with the same @shared_handler.  ibcm.lock is
 * taken here.
 */
static struct cm_id_private *cm_insert_listen(struct cm_id_private *priv,
					      ib_cm_handler shared_handler)
{
	u64 key = cm_listen_key(priv->id.device, priv->id.service_id);
	struct cm_id_private *cur;
	unsigned long flags;

	spin_lock_irqsave(&ibcm.lock, flags);
	hash_for_each_possible(ibcm.listen_table, cur, service_node, key) {
		if (cur->id.device != priv->id.device ||
		    cur->id.service_id != priv->id.service_id)
			continue;
		/* only ib_cm_insert_listen()'s own listeners are shared */
		if (cur->id.cm_handler != shared_handler || cur->id.context ||
		    WARN_ON(!cur->id.cm_handler)) {
			spin_unlock_irqrestore(&ibcm.lock, flags);
			return NULL;
		}
		refcount_inc(&cur->refcount);
		cur->listen_sharecount++;
		spin_unlock_irqrestore(&ibcm.lock, flags);
		return cur;
	}
	priv->listen_sharecount++;
	hash_add(ibcm.listen_table, &priv->service_node, key);
	spin_unlock_irqrestore(&ibcm.lock, flags);
	return priv;
}

/*
 * The listener of @service_id on @device, referenced, or NULL; under
 * ibcm.lock.
 */
struct cm_id_private *cm_find_listen(struct ib_device *device,
				     __be64 service_id)
{
	struct cm_id_private *cur;

	lockdep_assert_held(&ibcm.lock);
	hash_for_each_possible(ibcm.listen_table, cur, service_node,
			       cm_listen_key(device, service_id)) {
		if (cur->id.device == device &&
		    cur->id.service_id == service_id) {
			refcount_inc(&cur->refcount);
			return cur;
		}
	}
	return NULL;
}

static u64 cm_remote_key(__be32 id, __be64 ca_guid)
{
	return (__force u64)ca_guid ^ (__force u32)id;
}

/*
 * Record the connection of @tw by the peer's CM ID and CA GUID.  Returns
 * NULL, or the connection that has them already (a duplicate REQ or
 * REP).  Under ibcm.lock.
 */
struct cm_timewait_info *cm_insert_remote_id(struct cm_timewait_info *tw)
{
	u64 key = cm_remote_key(tw->work.remote_id, tw->remote_ca_guid);
	struct cm_timewait_info *cur;

	lockdep_assert_held(&ibcm.lock);
	hash_for_each_possible(ibcm.remote_id_table, cur, remote_id_node, key)
		if (cur->work.remote_id == tw->work.remote_id &&
		    cur->remote_ca_guid == tw->remote_ca_guid)
			return cur;
	hash_add(ibcm.remote_id_table, &tw->remote_id_node, key);
	tw->inserted_remote_id = true;
	return NULL;
}

/*
 * Record the connection of @tw by the peer's QP and CA GUID.  Returns
 * NULL, or the connection (perhaps in timewait) that has them already:
 * a stale connection.  Under ibcm.lock.
 */
struct cm_timewait_info *cm_insert_remote_qpn(struct cm_timewait_info *tw)
{
	u64 key = cm_remote_key(tw->remote_qpn, tw->remote_ca_guid);
	struct cm_timewait_info *cur;

	lockdep_assert_held(&ibcm.lock);
	hash_for_each_possible(ibcm.remote_qpn_table, cur, remote_qp_node,
			       key)
		if (cur->remote_qpn == tw->remote_qpn &&
		    cur->remote_ca_guid == tw->remote_ca_guid)
			return cur;
	hash_add(ibcm.remote_qpn_table, &tw->remote_qp_node, key);
	tw->inserted_remote_qp = true;
	return NULL;
}

/*
 * The CM ID connected to @remote_id of the CA @remote_ca_guid,
 * referenced, or NULL (a REJ with reason timeout names a connection so).
 */
struct cm_id_private *cm_find_remote_id(__be64 remote_ca_guid,
					__be32 remote_id)
{
	u64 key = cm_remote_key(remote_id, remote_ca_guid);
	struct cm_id_private *res = NULL;
	struct cm_timewait_info *cur;

	spin_lock_irq(&ibcm.lock);
	hash_for_each_possible(ibcm.remote_id_table, cur, remote_id_node, key)
		if (cur->work.remote_id == remote_id &&
		    cur->remote_ca_guid == remote_ca_guid) {
			res = cm_acquire_id(cur->work.local_id,
					    cur->work.remote_id);
			break;
		}
	spin_unlock_irq(&ibcm.lock);
	return res;
}

/*
 * Record that @priv answers the SIDR REQ of its remote ID from its SLID.
 * Returns NULL, or the CM ID that answers it already (a duplicate).
 * Under ibcm.lock.
 */
struct cm_id_private *cm_insert_remote_sidr(struct cm_id_private *priv)
{
	u64 key = (u64)priv->sidr_slid << 32 | (__force u32)priv->id.remote_id;
	struct cm_id_private *cur;

	lockdep_assert_held(&ibcm.lock);
	hash_for_each_possible(ibcm.remote_sidr_table, cur, sidr_id_node, key)
		if (cur->id.remote_id == priv->id.remote_id &&
		    cur->sidr_slid == priv->sidr_slid)
			return cur;
	hash_add(ibcm.remote_sidr_table, &priv->sidr_id_node, key);
	return NULL;
}

/* Forget @priv's SIDR REQ; under ibcm.lock */
void cm_remove_sidr(struct cm_id_private *priv)
{
	lockdep_assert_held(&ibcm.lock);
	if (!hlist_unhashed(&priv->sidr_id_node))
		hash_del(&priv->sidr_id_node);
}

/* Forget @priv's connection in the remote tables; under ibcm.lock */
void cm_remove_remote(struct cm_id_private *priv)
{
	struct cm_timewait_info *tw = priv->timewait_info;

	lockdep_assert_held(&ibcm.lock);
	if (tw->inserted_remote_id) {
		hash_del(&tw->remote_id_node);
		tw->inserted_remote_id = false;
	}
	if (tw->inserted_remote_qp) {
		hash_del(&tw->remote_qp_node);
		tw->inserted_remote_qp = false;
	}
}

struct cm_timewait_info *cm_create_timewait_info(__be32 local_id)
{
	struct cm_timewait_info *tw;

	tw = kzalloc(sizeof(*tw), GFP_KERNEL);
	if (!tw)
		return ERR_PTR(-ENOMEM);
	tw->work.local_id = local_id;
	INIT_DELAYED_WORK(&tw->work.work, cm_work_handler);
	tw->work.cm_event.event = IB_CM_TIMEWAIT_EXIT;
	return tw;
}

/*
 * The connection of @priv ends: TIMEWAIT for the path's timeout, after
 * which the consumer gets IB_CM_TIMEWAIT_EXIT and the CM ID is IDLE.
 * The connection leaves the remote tables now, as in Linux 6.12: a new
 * REQ from the same peer QP meanwhile is a new connection, not a stale
 * one.  @priv's lock is held.
 */
void cm_enter_timewait(struct cm_id_private *priv)
{
	struct cm_device *cm_dev;
	unsigned long flags;
	int wait_ms;

	lockdep_assert_held(&priv->lock);
	cm_dev = ib_get_client_data(priv->id.device, &cm_client);
	if (!cm_dev)
		return;

	spin_lock_irqsave(&ibcm.lock, flags);
	cm_remove_remote(priv);
	list_add_tail(&priv->timewait_info->list, &ibcm.timewait_list);
	spin_unlock_irqrestore(&ibcm.lock, flags);

	/*
	 * The consumer may destroy the CM ID before timewait ends: the work
	 * looks its CM ID up again by local ID.
	 */
	cm_set_state(priv, IB_CM_TIMEWAIT);
	wait_ms = cm_convert_to_ms(priv->av.timeout);

	spin_lock_irqsave(&ibcm.lock, flags);
	if (!cm_dev->going_down)
		queue_delayed_work(ibcm.wq, &priv->timewait_info->work.work,
				   msecs_to_jiffies(wait_ms));
	spin_unlock_irqrestore(&ibcm.lock, flags);

	/* the work frees the timewait info (cm_free_work()) */
	BUILD_BUG_ON(offsetof(struct cm_timewait_info, work) != 0);
	priv->timewait_info = NULL;
}

/* @priv back to IDLE, its connection forgotten; its lock is held */
void cm_reset_to_idle(struct cm_id_private *priv)
{
	unsigned long flags;

	lockdep_assert_held(&priv->lock);
	cm_set_state(priv, IB_CM_IDLE);
	if (priv->timewait_info) {
		spin_lock_irqsave(&ibcm.lock, flags);
		cm_remove_remote(priv);
		spin_unlock_irqrestore(&ibcm.lock, flags);
		kfree(priv->timewait_info);
		priv->timewait_info = NULL;
	}
}

/* A timewait ended: the consumer hears of it if the CM ID is still there */
int cm_timewait_handler(struct cm_work *work)
{
	struct cm_timewait_info *tw =
		container_of(work, struct cm_timewait_info, work);
	struct cm_id_private *priv;

	spin_lock_irq(&ibcm.lock);
	list_del(&tw->list);
	spin_unlock_irq(&ibcm.lock);

	priv = cm_acquire_id(tw->work.local_id, tw->work.remote_id);
	if (!priv)
		return -EINVAL;
	spin_lock_irq(&priv->lock);
	if (priv->id.state != IB_CM_TIMEWAIT ||
	    priv->remote_qpn != tw->remote_qpn) {
		spin_unlock_irq(&priv->lock);
		cm_deref_id(priv);
		return -EINVAL;
	}
	cm_set_state(priv, IB_CM_IDLE);
	cm_queue_work_unlock(priv, work);
	return 0;
}

void cm_free_work(struct cm_work *work)
{
	if (work->mad_recv_wc)
		ib_free_recv_mad(work->mad_recv_wc);
	kfree(work);
}

static struct cm_work *cm_dequeue_work(struct cm_id_private *priv)
{
	struct cm_work *work;

	work = list_first_entry_or_null(&priv->work_list, struct cm_work,
					list);
	if (work)
		list_del(&work->list);
	return work;
}

/*
 * Give @work's event to @priv's handler, then the events queued behind
 * it meanwhile; a non-zero return destroys the CM ID (and drops the rest).
 * Consumes the reference the first event came with.
 */
void cm_process_work(struct cm_id_private *priv, struct cm_work *work)
{
	int ret;

	ret = priv->id.cm_handler(&priv->id, &work->cm_event);
	trace_ibcm_event(&priv->id, work->cm_event.event, ret);
	cm_free_work(work);

	while (!ret && !atomic_add_negative(-1, &priv->work_count)) {
		spin_lock_irq(&priv->lock);
		work = cm_dequeue_work(priv);
		spin_unlock_irq(&priv->lock);
		if (!work)
			return;
		ret = priv->id.cm_handler(&priv->id, &work->cm_event);
		trace_ibcm_event(&priv->id, work->cm_event.event, ret);
		cm_free_work(work);
	}
	cm_deref_id(priv);
	if (ret)
		cm_destroy_id(&priv->id, ret);
}

/*
 * Deliver @work to @priv, whose lock is held (and released here): at
 * once when its handler is idle, else after the events before it (the
 * caller's reference then goes, the running delivery holds one).
 */
void cm_queue_work_unlock(struct cm_id_private *priv, struct cm_work *work)
	__releases(&priv->lock)
{
	bool now = atomic_inc_and_test(&priv->work_count);

	if (!now) {
		list_add_tail(&work->list, &priv->work_list);
		cm_deref_id(priv);
	}
	spin_unlock_irq(&priv->lock);
	if (now)
		cm_process_work(priv, work);
}

static noinline void cm_destroy_id_wait_timeout(struct cm_id_private *priv,
						enum ib_cm_state old_state)
{
	ibdev_err_ratelimited(priv->id.device,
			      "ib_cm: CM ID 0x%08x still referenced after %d ms (state %d, was %d, refcount %u)\n",
			      be32_to_cpu(priv->id.local_id),
			      CM_DESTROY_ID_WAIT_MS, priv->id.state, old_state,
			      refcount_read(&priv->refcount));
}

/*
 * Destroy a CM ID from any state, telling the peer what the state asks
 * for (REJ, DREQ, DREP, SIDR REP), then wait until nobody holds it.
 * @err is the handler's return when the handler asked for it: -ENOMEM
 * for a REQ leaves the peer free to retry (no REJ).
 */
void cm_destroy_id(struct ib_cm_id *cm_id, int err)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	enum ib_cm_state old_state;
	struct cm_work *work;
	unsigned long wait;

	spin_lock_irq(&priv->lock);
	old_state = cm_id->state;
retest:
	switch (cm_id->state) {
	case IB_CM_LISTEN:
		spin_lock(&ibcm.lock);
		if (--priv->listen_sharecount > 0) {
			/* others share it still */
			WARN_ON(refcount_read(&priv->refcount) == 1);
			spin_unlock(&ibcm.lock);
			spin_unlock_irq(&priv->lock);
			cm_deref_id(priv);
			return;
		}
		cm_set_state(priv, IB_CM_IDLE);
		hash_del(&priv->service_node);
		spin_unlock(&ibcm.lock);
		break;
	case IB_CM_SIDR_REQ_SENT:
		cm_set_state(priv, IB_CM_IDLE);
		ib_cancel_mad(priv->msg);
		break;
	case IB_CM_SIDR_REQ_RCVD:
		cm_send_sidr_rep_locked(priv, &(struct ib_cm_sidr_rep_param){
						.status = IB_SIDR_REJECT });
		/* IDLE even when the SIDR REP could not be sent */
		cm_set_state(priv, IB_CM_IDLE);
		break;
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		ib_cancel_mad(priv->msg);
		cm_send_rej_locked(priv, IB_CM_REJ_TIMEOUT,
				   &cm_id->device->node_guid,
				   sizeof(cm_id->device->node_guid), NULL, 0);
		break;
	case IB_CM_REQ_RCVD:
		if (err == -ENOMEM)
			cm_reset_to_idle(priv);
		else
			cm_send_rej_locked(priv, IB_CM_REJ_CONSUMER_DEFINED,
					   NULL, 0, NULL, 0);
		break;
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		ib_cancel_mad(priv->msg);
		cm_send_rej_locked(priv, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
				   NULL, 0);
		goto retest;
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		cm_send_rej_locked(priv, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
				   NULL, 0);
		break;
	case IB_CM_ESTABLISHED:
		if (priv->qp_type == IB_QPT_XRC_TGT) {
			cm_set_state(priv, IB_CM_IDLE);
			break;
		}
		cm_send_dreq_locked(priv, NULL, 0);
		goto retest;
	case IB_CM_DREQ_SENT:
		ib_cancel_mad(priv->msg);
		cm_enter_timewait(priv);
		goto retest;
	case IB_CM_DREQ_RCVD:
		cm_send_drep_locked(priv, NULL, 0);
		WARN_ON(cm_id->state != IB_CM_TIMEWAIT);
		goto retest;
	case IB_CM_TIMEWAIT:
		/* the timewait work will not find the CM ID any more */
		cm_set_state(priv, IB_CM_IDLE);
		break;
	case IB_CM_IDLE:
		break;
	}
	WARN_ON(cm_id->state != IB_CM_IDLE);

	spin_lock(&ibcm.lock);
	/* a REQ handler that failed leaves its timewait info here */
	if (priv->timewait_info) {
		cm_remove_remote(priv);
		kfree(priv->timewait_info);
		priv->timewait_info = NULL;
	}
	WARN_ON(priv->listen_sharecount);
	WARN_ON(!hlist_unhashed(&priv->service_node));
	cm_remove_sidr(priv);
	spin_unlock(&ibcm.lock);
	spin_unlock_irq(&priv->lock);

	xa_erase(&ibcm.local_id_table, cm_local_index(cm_id->local_id));
	cm_deref_id(priv);
	wait = msecs_to_jiffies(CM_DESTROY_ID_WAIT_MS);
	while (!wait_for_completion_timeout(&priv->comp, wait))
		cm_destroy_id_wait_timeout(priv, old_state);

	while ((work = cm_dequeue_work(priv)))
		cm_free_work(work);
	cm_destroy_av(&priv->av);
	cm_destroy_av(&priv->alt_av);
	kfree(priv->private_data);
	kfree_rcu(priv, rcu);
}

/**
 * ib_destroy_cm_id - destroy a CM ID
 * @cm_id: the CM ID, not to be used any more
 *
 * The peer is told what the CM ID's state asks for: a REJ while a
 * connection is being set up (reason timeout for a REQ not yet
 * answered, consumer-defined otherwise), a DREQ for an established
 * connection, a DREP for a DREQ received, a SIDR REP with status reject
 * for a SIDR REQ received.  A listener shared through
 * ib_cm_insert_listen() goes with its last user.  Returns after the
 * handler has run for the last time and no message refers to @cm_id.
 * It must not be called from @cm_id's own handler (return non-zero
 * there instead).
 *
 * Context: Process context; sleeps.
 * Return: nothing.
 */
void ib_destroy_cm_id(struct ib_cm_id *cm_id)
{
	cm_destroy_id(cm_id, 0);
}
EXPORT_SYMBOL(ib_destroy_cm_id);

/* The service ID a listener asks for, or one assigned to it */
static int cm_init_listen(struct cm_id_private *priv, __be64 service_id)
{
	unsigned long flags;

	if ((service_id & IB_SERVICE_ID_AGN_MASK) == IB_CM_ASSIGN_SERVICE_ID &&
	    service_id != IB_CM_ASSIGN_SERVICE_ID)
		return -EINVAL;
	if (service_id == IB_CM_ASSIGN_SERVICE_ID) {
		spin_lock_irqsave(&ibcm.lock, flags);
		priv->id.service_id = cpu_to_be64(ibcm.listen_service_id++);
		spin_unlock_irqrestore(&ibcm.lock, flags);
	} else {
		priv->id.service_id = service_id;
	}
	return 0;
}

/**
 * ib_cm_listen - take the REQs and SIDR REQs for a service
 * @cm_id: an IDLE CM ID
 * @service_id: the service ID (network order) that incoming requests on
 *	@cm_id's device must name exactly, or IB_CM_ASSIGN_SERVICE_ID for
 *	one the CM assigns (found in @cm_id->service_id afterwards)
 *
 * Each matching REQ or SIDR REQ makes a new CM ID that reaches
 * @cm_id's handler with IB_CM_REQ_RECEIVED or IB_CM_SIDR_REQ_RECEIVED.
 * Linux 6.12 has no service ID mask: the match is exact.
 *
 * Context: Any context; takes spinlocks.
 * Return: 0; -EINVAL when @cm_id is not IDLE or @service_id lies in the
 * range the CM assigns from; -EBUSY when another CM ID listens on it on
 * the same device.
 */
int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	ret = cm_init_listen(priv, service_id);
	if (ret)
		goto out;
	if (!cm_insert_listen(priv, NULL)) {
		ret = -EBUSY;
		goto out;
	}
	cm_set_state(priv, IB_CM_LISTEN);
out:
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_cm_listen);

/**
 * ib_cm_insert_listen - a listener of a service, shared by its users
 * @device: the device
 * @cm_handler: the handler of the REQs; a listener of @service_id made
 *	by this call with the same handler is shared
 * @service_id: as for ib_cm_listen()
 *
 * Returns the existing listener of @service_id on @device when this
 * function made it with the same @cm_handler (its users are counted:
 * each calls ib_destroy_cm_id() once), else a new listener.  Its
 * context is NULL.
 *
 * Context: Process context; may sleep.
 * Return: the listening CM ID; ERR_PTR(-EINVAL) when another listener
 * (another handler, or one of ib_cm_listen()) has the service ID or the
 * service ID is in the range the CM assigns from; ERR_PTR(-ENOMEM).
 */
struct ib_cm_id *ib_cm_insert_listen(struct ib_device *device,
				     ib_cm_handler cm_handler,
				     __be64 service_id)
{
	struct cm_id_private *priv, *listen;
	int err;

	priv = cm_alloc_id_priv(device, cm_handler, NULL);
	if (IS_ERR(priv))
		return ERR_CAST(priv);
	err = cm_init_listen(priv, service_id);
	if (err) {
		ib_destroy_cm_id(&priv->id);
		return ERR_PTR(err);
	}

	spin_lock_irq(&priv->lock);
	listen = cm_insert_listen(priv, cm_handler);
	if (listen != priv) {
		spin_unlock_irq(&priv->lock);
		ib_destroy_cm_id(&priv->id);
		return listen ? &listen->id : ERR_PTR(-EINVAL);
	}
	cm_set_state(priv, IB_CM_LISTEN);
	spin_unlock_irq(&priv->lock);
	/* a listener receives no message: it stays out of the xarray */
	return &priv->id;
}
EXPORT_SYMBOL(ib_cm_insert_listen);
