// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm connections: listen, connect, accept, reject, disconnect, the
 * QP of an id and its attributes, multicast.  What the wire needs is the
 * transport's (struct cma_transport, picked when the id attached to its
 * device): cma_iw.c (iWARP), cma_ib.c (IB and RoCE), and below the one
 * of a port without a connection manager.
 */

#include <linux/slab.h>
#include <rdma/rdma_cm_ib.h>

#include "cma_priv.h"
#include "cma_trace.h"

/**
 * rdma_listen - wait for connection requests
 * @id: a bound id, or an idle one (bound to 0.0.0.0 and any port first)
 * @backlog: how many requests may wait for the owner
 *
 * An id bound to an address of a device listens on that device; a
 * wildcard id listens on every device of its namespace (InfiniBand,
 * RoCE and iWARP alike), also on devices registered later.  On
 * InfiniBand and RoCE the id listens on the IB CM service ID of its
 * port space and port (rdma_get_service_id()), shared with the other
 * listeners of that service on the device.  Requests come as
 * RDMA_CM_EVENT_CONNECT_REQUEST on a new id that carries this id's
 * handler and context.
 *
 * Context: process context; sleeps, takes cma_lock.
 * Return: 0; -EINVAL unless the id is idle or bound; -EADDRINUSE or
 * -EADDRNOTAVAIL when a reuseaddr id shares its port; the transport's
 * error (-ENOSYS on a port without a connection manager, and for a
 * wildcard id when a device's first port has none, as upstream; on IB
 * -EINVAL when another IB CM user listens on the service ID); the errors
 * of rdma_bind_addr().
 */
int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	if (READ_ONCE(id_priv->state) == RDMA_CM_IDLE) {
		ret = cma_bind_any(id_priv, AF_INET);
		if (ret)
			return ret;
	}
	if (!cma_comp_exch(id_priv, RDMA_CM_ADDR_BOUND, RDMA_CM_LISTEN))
		return -EINVAL;

	ret = cma_check_listen_port(id_priv);
	if (ret)
		goto err_state;
	id_priv->backlog = backlog;
	if (id_priv->cma_dev)
		ret = cma_listen_on_bound_dev(id_priv);
	else
		ret = cma_listen_on_all(id_priv);
	if (ret)
		goto err_backlog;
	return 0;

err_backlog:
	id_priv->backlog = 0;
err_state:
	cma_comp_exch(id_priv, RDMA_CM_LISTEN, RDMA_CM_ADDR_BOUND);
	return ret;
}
EXPORT_SYMBOL(rdma_listen);

/**
 * rdma_connect_locked - connect, with the id's handler lock held
 * @id: an id in ROUTE_RESOLVED
 * @conn_param: connection parameters
 *
 * For callers inside the id's own event handler (ROUTE_RESOLVED) or
 * holding rdma_lock_handler().  The outcome comes as an event:
 * ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR; on InfiniBand
 * CONNECT_RESPONSE when the id has no QP (the owner then moves its QP
 * and calls rdma_accept() with no parameters, which sends the RTU).  A
 * UD id on InfiniBand asks the peer's QP and Q_Key with a SIDR REQ
 * (ESTABLISHED with the ud parameters, or UNREACHABLE).
 *
 * On InfiniBand an IP id's request carries rdma_cm's 36-byte header
 * before @conn_param's private data: at most 56 bytes of it fit a REQ,
 * 180 a SIDR REQ (an AF_IB id's: 92 and 216).
 *
 * Context: process context; sleeps; the caller holds the handler lock.
 * Return: 0 when the request is on its way; -EINVAL in the wrong state
 * or for private data too long; -ENOSYS on a port without a connection
 * manager; the transport's errors.
 */
int rdma_connect_locked(struct rdma_cm_id *id,
			struct rdma_conn_param *conn_param)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	lockdep_assert_held(&id_priv->handler_mutex);
	if (!cma_comp_exch(id_priv, RDMA_CM_ROUTE_RESOLVED, RDMA_CM_CONNECT))
		return -EINVAL;
	if (!id->qp) {
		id_priv->qp_num = conn_param->qp_num;
		id_priv->srq = conn_param->srq;
	}
	ret = id_priv->tp->connect(id_priv, conn_param);
	if (ret)
		cma_comp_exch(id_priv, RDMA_CM_CONNECT, RDMA_CM_ROUTE_RESOLVED);
	return ret;
}
EXPORT_SYMBOL(rdma_connect_locked);

/**
 * rdma_connect - connect to the resolved destination
 * @id: an id in ROUTE_RESOLVED
 * @conn_param: connection parameters
 *
 * As rdma_connect_locked(), taking the handler lock itself: not to be
 * called from the id's own event handler.
 *
 * Context: process context; sleeps; takes the id's handler lock.
 * Return: as rdma_connect_locked().
 */
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	mutex_lock(&id_priv->handler_mutex);
	ret = rdma_connect_locked(id, conn_param);
	mutex_unlock(&id_priv->handler_mutex);
	return ret;
}
EXPORT_SYMBOL(rdma_connect);

/**
 * rdma_connect_ece - connect with Enhanced Connection Establishment data
 * @id: an id in ROUTE_RESOLVED
 * @conn_param: connection parameters
 * @ece: ECE options to offer
 *
 * Context: process context; sleeps; takes the id's handler lock.
 * Return: as rdma_connect().
 */
int rdma_connect_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		     struct rdma_ucm_ece *ece)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	id_priv->ece.vendor_id = ece->vendor_id;
	id_priv->ece.attr_mod = ece->attr_mod;
	return rdma_connect(id, conn_param);
}
EXPORT_SYMBOL(rdma_connect_ece);

/* Move the id's QP to the error state, if it has one. */
void cma_modify_qp_err(struct rdma_id_private *id_priv)
{
	struct ib_qp_attr qp_attr = { .qp_state = IB_QPS_ERR };

	mutex_lock(&id_priv->qp_mutex);
	if (id_priv->id.qp)
		ib_modify_qp(id_priv->id.qp, &qp_attr, IB_QP_STATE);
	mutex_unlock(&id_priv->qp_mutex);
}

/**
 * cma_modify_qp_rtr - bring the id's QP to RTR for a connection
 * @id_priv: the id
 * @conn_param: the connection's parameters (responder resources), or NULL
 *
 * Return: 0 (also without a QP) or the error of ib_modify_qp().
 */
int cma_modify_qp_rtr(struct rdma_id_private *id_priv,
		      struct rdma_conn_param *conn_param)
{
	struct ib_qp_attr qp_attr;
	int qp_attr_mask, ret = 0;

	mutex_lock(&id_priv->qp_mutex);
	if (!id_priv->id.qp)
		goto out;
	qp_attr.qp_state = IB_QPS_INIT;
	ret = rdma_init_qp_attr(&id_priv->id, &qp_attr, &qp_attr_mask);
	if (ret)
		goto out;
	ret = ib_modify_qp(id_priv->id.qp, &qp_attr, qp_attr_mask);
	if (ret)
		goto out;
	qp_attr.qp_state = IB_QPS_RTR;
	ret = rdma_init_qp_attr(&id_priv->id, &qp_attr, &qp_attr_mask);
	if (ret)
		goto out;
	if (conn_param)
		qp_attr.max_dest_rd_atomic = conn_param->responder_resources;
	ret = ib_modify_qp(id_priv->id.qp, &qp_attr, qp_attr_mask);
out:
	mutex_unlock(&id_priv->qp_mutex);
	return ret;
}

/**
 * cma_modify_qp_rts - bring the id's QP to RTS for a connection
 * @id_priv: the id
 * @conn_param: the connection's parameters (initiator depth), or NULL
 *
 * Return: 0 (also without a QP) or the error of ib_modify_qp().
 */
int cma_modify_qp_rts(struct rdma_id_private *id_priv,
		      struct rdma_conn_param *conn_param)
{
	struct ib_qp_attr qp_attr;
	int qp_attr_mask, ret = 0;

	mutex_lock(&id_priv->qp_mutex);
	if (!id_priv->id.qp)
		goto out;
	qp_attr.qp_state = IB_QPS_RTS;
	ret = rdma_init_qp_attr(&id_priv->id, &qp_attr, &qp_attr_mask);
	if (ret)
		goto out;
	if (conn_param)
		qp_attr.max_rd_atomic = conn_param->initiator_depth;
	ret = ib_modify_qp(id_priv->id.qp, &qp_attr, qp_attr_mask);
out:
	mutex_unlock(&id_priv->qp_mutex);
	return ret;
}

/**
 * rdma_accept - accept a connection request
 * @id: the new id of a CONNECT_REQUEST event
 * @conn_param: reply parameters; NULL on InfiniBand on the active side
 *	of an id without a QP, after CONNECT_RESPONSE: the owner moved its
 *	QP, rdma_cm sends the RTU
 *
 * Called from the CONNECT_REQUEST handler of @id or with its handler lock
 * held (rdma_lock_handler()).  On InfiniBand the QP goes to RTR and RTS
 * and the REP follows (at most 196 bytes of private data); the passive
 * side's ESTABLISHED comes with the RTU, or earlier when the owner passes
 * the QP's IB_EVENT_COMM_EST on with rdma_notify().  A UD id answers the
 * SIDR REQ with its QP number and Q_Key (@conn_param->qkey, else its
 * port space's).  On failure the QP goes to error and the request is
 * rejected.
 *
 * Context: process context; sleeps; the caller holds the handler lock.
 * Return: 0; -EINVAL when @id has no request to answer or the private
 * data is too long; the transport's errors (-ENOSYS without a CM).
 */
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	lockdep_assert_held(&id_priv->handler_mutex);
	if (READ_ONCE(id_priv->state) != RDMA_CM_CONNECT)
		return -EINVAL;
	if (!id->qp && conn_param) {
		id_priv->qp_num = conn_param->qp_num;
		id_priv->srq = conn_param->srq;
	}
	ret = id_priv->tp->accept(id_priv, conn_param);
	if (ret) {
		cma_modify_qp_err(id_priv);
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	}
	return ret;
}
EXPORT_SYMBOL(rdma_accept);

/**
 * rdma_accept_ece - accept with Enhanced Connection Establishment data
 * @id: the new id of a CONNECT_REQUEST event
 * @conn_param: reply parameters
 * @ece: ECE options agreed to
 *
 * Context: as rdma_accept().
 * Return: as rdma_accept().
 */
int rdma_accept_ece(struct rdma_cm_id *id, struct rdma_conn_param *conn_param,
		    struct rdma_ucm_ece *ece)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	id_priv->ece.vendor_id = ece->vendor_id;
	id_priv->ece.attr_mod = ece->attr_mod;
	return rdma_accept(id, conn_param);
}
EXPORT_SYMBOL(rdma_accept_ece);

/**
 * rdma_reject - refuse a connection request
 * @id: the new id of a CONNECT_REQUEST event
 * @private_data: data for the peer, or NULL
 * @private_data_len: its length (at most 148 bytes on InfiniBand, 136 for
 *	a UD id's SIDR REP)
 * @reason: IB CM reject reason, IB_CM_REJ_CONSUMER_DEFINED for the
 *	owner's own (ignored on iWARP and for UD ids)
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL when @id has no transport connection to refuse;
 * the transport's errors.
 */
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (!cma_has_cm_id(id_priv))
		return -EINVAL;
	trace_cm_send_rej(id_priv);
	return id_priv->tp->reject(id_priv, private_data, private_data_len,
				   reason);
}
EXPORT_SYMBOL(rdma_reject);

/**
 * rdma_disconnect - tear a connection down
 * @id: a connected id
 *
 * The QP goes to the error state; RDMA_CM_EVENT_DISCONNECTED follows.
 * On InfiniBand a DREQ goes out (a DREP when the peer's DREQ came
 * first); DISCONNECTED comes with the DREP (or the DREQ's timeout), and
 * RDMA_CM_EVENT_TIMEWAIT_EXIT once the connection's time wait ended.
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL when @id has no connection; the transport's errors.
 */
int rdma_disconnect(struct rdma_cm_id *id)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (!cma_has_cm_id(id_priv))
		return -EINVAL;
	trace_cm_disconnect(id_priv);
	return id_priv->tp->disconnect(id_priv);
}
EXPORT_SYMBOL(rdma_disconnect);

/**
 * rdma_notify - pass a QP's asynchronous event to the connection manager
 * @id: a connected id
 * @event: the event (IB_EVENT_COMM_EST matters on IB: data came before the
 *	RTU, the connection is established)
 *
 * Context: any; does not sleep.
 * Return: 0; -EINVAL when @id has no connection.
 */
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (!cma_has_cm_id(id_priv))
		return -EINVAL;
	return id_priv->tp->notify(id_priv, event);
}
EXPORT_SYMBOL(rdma_notify);

/* ------------------------------------------------------------------
 * The QP
 */

/**
 * rdma_init_qp_attr - the attributes to move an id's QP to a state
 * @id: the id, attached to a device
 * @qp_attr: in: qp_state, the state wanted; out: the attributes
 * @qp_attr_mask: out: which attributes to pass to ib_modify_qp()
 *
 * Before a connection exists the attributes are those of INIT.  The
 * options rdma_set_ack_timeout() and rdma_set_min_rnr_timer() apply.
 *
 * Context: process context.
 * Return: 0; -EINVAL without a device; -ENOSYS for a port without a
 * connection manager (as upstream); the transport's errors.
 */
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	if (!id->device)
		return -EINVAL;
	ret = id_priv->tp->init_qp_attr(id_priv, qp_attr, qp_attr_mask);
	if (ret)
		return ret;
	if ((*qp_attr_mask & IB_QP_TIMEOUT) && id_priv->timeout_set)
		qp_attr->timeout = id_priv->timeout;
	if ((*qp_attr_mask & IB_QP_MIN_RNR_TIMER) &&
	    id_priv->min_rnr_timer_set)
		qp_attr->min_rnr_timer = id_priv->min_rnr_timer;
	return 0;
}
EXPORT_SYMBOL(rdma_init_qp_attr);

static int cma_init_ud_qp(struct rdma_id_private *id_priv, struct ib_qp *qp)
{
	struct ib_qp_attr qp_attr;
	int qp_attr_mask, ret;

	qp_attr.qp_state = IB_QPS_INIT;
	ret = rdma_init_qp_attr(&id_priv->id, &qp_attr, &qp_attr_mask);
	if (ret)
		return ret;
	ret = ib_modify_qp(qp, &qp_attr, qp_attr_mask);
	if (ret)
		return ret;
	qp_attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &qp_attr, IB_QP_STATE);
	if (ret)
		return ret;
	qp_attr.qp_state = IB_QPS_RTS;
	qp_attr.sq_psn = 0;
	return ib_modify_qp(qp, &qp_attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

static int cma_init_conn_qp(struct rdma_id_private *id_priv, struct ib_qp *qp)
{
	struct ib_qp_attr qp_attr;
	int qp_attr_mask, ret;

	qp_attr.qp_state = IB_QPS_INIT;
	ret = rdma_init_qp_attr(&id_priv->id, &qp_attr, &qp_attr_mask);
	if (ret)
		return ret;
	return ib_modify_qp(qp, &qp_attr, qp_attr_mask);
}

/**
 * rdma_create_qp - create the QP of an id's connection
 * @id: an id attached to a device
 * @pd: protection domain of that device
 * @qp_init_attr: QP attributes (port_num is set from @id)
 *
 * The QP is brought to INIT (UD: to RTS); rdma_cm moves it on as the
 * connection proceeds.
 *
 * Context: process context; sleeps; takes the id's qp_mutex.
 * Return: 0; -EINVAL when @pd is of another device (or the id has
 * none); the errors of QP creation and modification.
 */
int rdma_create_qp(struct rdma_cm_id *id, struct ib_pd *pd,
		   struct ib_qp_init_attr *qp_init_attr)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	struct ib_qp *qp;
	int ret;

	if (!id->device || id->device != pd->device)
		return -EINVAL;
	qp_init_attr->port_num = id->port_num;
	qp = ib_create_qp(pd, qp_init_attr);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto err;
	}
	if (id->qp_type == IB_QPT_UD)
		ret = cma_init_ud_qp(id_priv, qp);
	else
		ret = cma_init_conn_qp(id_priv, qp);
	if (ret)
		goto err_destroy;

	mutex_lock(&id_priv->qp_mutex);
	id->qp = qp;
	id_priv->qp_num = qp->qp_num;
	id_priv->srq = !!qp->srq;
	mutex_unlock(&id_priv->qp_mutex);
	trace_cm_qp_create(id_priv, 0);
	return 0;

err_destroy:
	ib_destroy_qp(qp);
err:
	trace_cm_qp_create(id_priv, ret);
	return ret;
}
EXPORT_SYMBOL(rdma_create_qp);

/**
 * rdma_destroy_qp - destroy the QP made by rdma_create_qp()
 * @id: the id
 *
 * Context: process context; sleeps; takes the id's qp_mutex.
 * Return: nothing.
 */
void rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	mutex_lock(&id_priv->qp_mutex);
	trace_cm_qp_destroy(id_priv);
	if (id->qp)
		ib_destroy_qp(id->qp);
	id->qp = NULL;
	mutex_unlock(&id_priv->qp_mutex);
}
EXPORT_SYMBOL(rdma_destroy_qp);

/* ------------------------------------------------------------------
 * Reject reasons
 */

/**
 * rdma_reject_msg - the text of a REJECTED event's reason
 * @id: the id of the event
 * @reason: the event's status
 *
 * Context: any.
 * Return: a constant string, by transport.
 */
const char *__attribute_const__ rdma_reject_msg(struct rdma_cm_id *id,
						int reason)
{
	return to_id_priv(id)->tp->reject_msg(reason);
}
EXPORT_SYMBOL(rdma_reject_msg);

static bool cma_is_consumer_reject(struct rdma_cm_id *id, int reason)
{
	return to_id_priv(id)->tp->consumer_reject(reason);
}

/**
 * rdma_consumer_reject_data - private data of a peer's rejection
 * @id: the id of the event
 * @ev: a RDMA_CM_EVENT_REJECTED event
 * @data_len: out: the data's length (0 without data)
 *
 * Only a rejection by the peer's owner (not by its transport) carries
 * the owner's data.
 *
 * Context: any.
 * Return: the data, or NULL.
 */
const void *rdma_consumer_reject_data(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev, u8 *data_len)
{
	if (cma_is_consumer_reject(id, ev->status)) {
		*data_len = ev->param.conn.private_data_len;
		return ev->param.conn.private_data;
	}
	*data_len = 0;
	return NULL;
}
EXPORT_SYMBOL(rdma_consumer_reject_data);

/* ------------------------------------------------------------------
 * Multicast
 */

/**
 * rdma_join_multicast - join a multicast group
 * @id: a UD id, bound or address-resolved, attached to a device
 * @addr: the group's address: IPv4 or IPv6 (mapped to an MGID as
 *	upstream; an IPv6 address that is an SA-assigned MGID is taken as
 *	it is), or AF_IB with the MGID itself
 * @join_state: BIT(FULLMEMBER_JOIN) or BIT(SENDONLY_FULLMEMBER_JOIN)
 *	(InfiniBand also takes the other JoinState bits as the SA does)
 * @context: handed back in the event's ud.private_data
 *
 * The outcome comes as RDMA_CM_EVENT_MULTICAST_JOIN (ud param: the
 * group's address handle attributes, QPN 0xffffff and the Q_Key) or
 * RDMA_CM_EVENT_MULTICAST_ERROR; a membership the SA later loses gives
 * MULTICAST_ERROR too.  The owner attaches its QP to the group itself.
 *
 * Context: process context; sleeps.
 * Return: 0 when the join started; -EINVAL without a device, in another
 * state, for a QP type other than UD or for an id whose QP rdma_cm made;
 * -ENOMEM; the transport's errors: on InfiniBand those of
 * ib_sa_join_multicast() and of reading the IPoIB broadcast group
 * (RDMA_PS_IPOIB); -EOPNOTSUPP on RoCE (the IGMP join is not written
 * yet); -ENOSYS on iWARP, which has no multicast, and on a port without
 * a connection manager (as upstream).
 */
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	enum rdma_cm_state state = READ_ONCE(id_priv->state);
	struct cma_multicast *mc;
	int ret;

	if (id->qp || !id->device ||
	    (state != RDMA_CM_ADDR_BOUND && state != RDMA_CM_ADDR_RESOLVED) ||
	    id->qp_type != IB_QPT_UD)
		return -EINVAL;
	if (!rdma_addr_size(addr))
		return -EINVAL;

	mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc)
		return -ENOMEM;
	memcpy(&mc->addr, addr, rdma_addr_size(addr));
	mc->context = context;
	mc->id_priv = id_priv;
	mc->join_state = join_state;
	INIT_LIST_HEAD(&mc->list);
	ret = id_priv->tp->join_multicast(id_priv, mc);
	if (ret) {
		kfree(mc);
		return ret;
	}
	spin_lock_irq(&id_priv->lock);
	list_add(&mc->list, &id_priv->mc_list);
	spin_unlock_irq(&id_priv->lock);
	return 0;
}
EXPORT_SYMBOL(rdma_join_multicast);

/**
 * rdma_leave_multicast - leave a group joined by rdma_join_multicast()
 * @id: the id
 * @addr: the group's address, as given to the join
 *
 * Leaving a group never joined does nothing.  No event of the group is
 * delivered after this returned; it waits for one being delivered, so
 * it must not be called from the id's own event handler.
 *
 * Context: process context; sleeps.
 * Return: nothing.
 */
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	struct cma_multicast *mc, *found = NULL;
	int len = rdma_addr_size(addr);

	if (!len)
		return;
	spin_lock_irq(&id_priv->lock);
	list_for_each_entry(mc, &id_priv->mc_list, list) {
		if (!memcmp(&mc->addr, addr, len)) {
			list_del_init(&mc->list);
			found = mc;
			break;
		}
	}
	spin_unlock_irq(&id_priv->lock);
	if (!found)
		return;
	id_priv->tp->leave_multicast(id_priv, found);
	kfree(found);
}
EXPORT_SYMBOL(rdma_leave_multicast);

/* Leave every group of an id being destroyed (DESTROYING, no handler). */
void cma_leave_all_mc(struct rdma_id_private *id_priv)
{
	struct cma_multicast *mc;

	for (;;) {
		spin_lock_irq(&id_priv->lock);
		mc = list_first_entry_or_null(&id_priv->mc_list,
					      struct cma_multicast, list);
		if (mc)
			list_del_init(&mc->list);
		spin_unlock_irq(&id_priv->lock);
		if (!mc)
			return;
		id_priv->tp->leave_multicast(id_priv, mc);
		kfree(mc);
	}
}

/* ------------------------------------------------------------------
 * A port without a connection manager: upstream's answers (-ENOSYS)
 */

static int cma_no_cm_listen(struct rdma_id_private *id_priv)
{
	return -ENOSYS;
}

static int cma_no_cm_conn(struct rdma_id_private *id_priv,
			  struct rdma_conn_param *conn_param)
{
	return -ENOSYS;
}

static int cma_no_cm_reject(struct rdma_id_private *id_priv,
			    const void *private_data, u8 private_data_len,
			    u8 reason)
{
	return -ENOSYS;
}

/* no connection to tear down */
static int cma_no_cm_disconnect(struct rdma_id_private *id_priv)
{
	return -EINVAL;
}

static int cma_no_cm_init_qp_attr(struct rdma_id_private *id_priv,
				  struct ib_qp_attr *qp_attr,
				  int *qp_attr_mask)
{
	return -ENOSYS;
}

static int cma_no_cm_notify(struct rdma_id_private *id_priv,
			    enum ib_event_type event)
{
	return 0;
}

static void cma_no_cm_destroy(struct rdma_id_private *id_priv)
{
}

/* A RoCE route needs no connection manager: it is computed locally. */
static int cma_no_cm_resolve_route(struct rdma_id_private *id_priv,
				   unsigned long timeout_ms)
{
	struct rdma_cm_id *id = &id_priv->id;

	if (id->device && rdma_protocol_roce(id->device, id->port_num))
		return cma_roce_resolve_route(id_priv);
	return -ENOSYS;
}

static int cma_no_cm_join_multicast(struct rdma_id_private *id_priv,
				    struct cma_multicast *mc)
{
	return -ENOSYS;
}

/* never joined */
static void cma_no_cm_leave_multicast(struct rdma_id_private *id_priv,
				      struct cma_multicast *mc)
{
}

static const char *cma_no_cm_reject_msg(int reason)
{
	return "unrecognized transport";
}

static bool cma_no_cm_consumer_reject(int reason)
{
	return false;
}

const struct cma_transport cma_no_cm_transport = {
	.name		 = "none",
	.listen		 = cma_no_cm_listen,
	.connect	 = cma_no_cm_conn,
	.accept		 = cma_no_cm_conn,
	.reject		 = cma_no_cm_reject,
	.disconnect	 = cma_no_cm_disconnect,
	.init_qp_attr	 = cma_no_cm_init_qp_attr,
	.notify		 = cma_no_cm_notify,
	.destroy	 = cma_no_cm_destroy,
	.resolve_route	 = cma_no_cm_resolve_route,
	.join_multicast	 = cma_no_cm_join_multicast,
	.leave_multicast = cma_no_cm_leave_multicast,
	.reject_msg	 = cma_no_cm_reject_msg,
	.consumer_reject = cma_no_cm_consumer_reject,
};

/**
 * cma_transport_of - the connection manager of a device port
 * @device: the device
 * @port: the port
 *
 * Return: iWARP's, IB's (InfiniBand and RoCE) or cma_no_cm_transport.
 */
const struct cma_transport *cma_transport_of(struct ib_device *device,
					     u32 port)
{
	if (rdma_cap_iw_cm(device, port))
		return &cma_iw_transport;
	if (rdma_cap_ib_cm(device, port))
		return &cma_ib_transport;
	return &cma_no_cm_transport;
}
