// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm connections: listen, connect, accept, reject, disconnect, the
 * QP of an id and its attributes, multicast.  What the wire needs is the
 * transport's: cma_iw.c (iWARP), cma_ib.c (IB and RoCE).
 */

#include <linux/slab.h>
#include <rdma/iw_cm.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/ib_cache.h>

#include "cma_priv.h"
#include "cma_trace.h"

/**
 * rdma_listen - wait for connection requests
 * @id: a bound id, or an idle one (bound to 0.0.0.0 and any port first)
 * @backlog: how many requests may wait for the owner
 *
 * An id bound to an address of a device listens on that device; a
 * wildcard id listens on every device of its namespace, also on devices
 * registered later.  Requests come as RDMA_CM_EVENT_CONNECT_REQUEST on a
 * new id that carries this id's handler and context.
 *
 * Context: process context; sleeps, takes cma_lock.
 * Return: 0; -EINVAL unless the id is idle or bound; -EADDRINUSE or
 * -EADDRNOTAVAIL when a reuseaddr id shares its port; the transport's
 * error (-EOPNOTSUPP: listening on an IB or RoCE device needs the IB CM,
 * not there yet); the errors of rdma_bind_addr().
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
 * ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR.
 *
 * Context: process context; sleeps; the caller holds the handler lock.
 * Return: 0 when the request is on its way; -EINVAL in the wrong state;
 * -EOPNOTSUPP on IB and RoCE (needs the IB CM, not there yet) and on
 * iWARP until iw_cm is built in; the transport's errors.
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
	if (rdma_cap_iw_cm(id->device, id->port_num))
		ret = cma_iw_connect(id_priv, conn_param);
	else if (rdma_cap_ib_cm(id->device, id->port_num))
		ret = cma_ib_connect(id_priv, conn_param);
	else
		ret = -EOPNOTSUPP;
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
static void cma_modify_qp_err(struct rdma_id_private *id_priv)
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
 * rdma_accept - accept a connection request
 * @id: the new id of a CONNECT_REQUEST event
 * @conn_param: reply parameters; NULL on IB for a request whose QP the
 *	owner brings up itself
 *
 * Called from the CONNECT_REQUEST handler of @id or with its handler lock
 * held (rdma_lock_handler()).  On failure the request is rejected.
 *
 * Context: process context; sleeps; the caller holds the handler lock.
 * Return: 0; -EINVAL when @id has no request to answer; the transport's
 * errors (-EOPNOTSUPP on IB and RoCE for now).
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
	if (rdma_cap_iw_cm(id->device, id->port_num))
		ret = cma_iw_accept(id_priv, conn_param);
	else if (rdma_cap_ib_cm(id->device, id->port_num))
		ret = cma_ib_accept(id_priv, conn_param);
	else
		ret = -EOPNOTSUPP;
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
 * @private_data_len: its length
 * @reason: IB CM reject reason (ignored on iWARP)
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL when @id has no transport connection to refuse;
 * the transport's errors.
 */
int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		u8 private_data_len, u8 reason)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (!id_priv->cm_id.iw)
		return -EINVAL;
	trace_cm_send_rej(id_priv);
	if (rdma_cap_iw_cm(id->device, id->port_num))
		return cma_iw_reject(id_priv, private_data, private_data_len);
	if (rdma_cap_ib_cm(id->device, id->port_num))
		return cma_ib_reject(id_priv, private_data, private_data_len,
				     reason);
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(rdma_reject);

/**
 * rdma_disconnect - tear a connection down
 * @id: a connected id
 *
 * The QP goes to the error state; RDMA_CM_EVENT_DISCONNECTED follows.
 *
 * Context: process context; sleeps.
 * Return: 0; -EINVAL when @id has no connection; the transport's errors.
 */
int rdma_disconnect(struct rdma_cm_id *id)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (!id_priv->cm_id.iw)
		return -EINVAL;
	trace_cm_disconnect(id_priv);
	if (rdma_cap_iw_cm(id->device, id->port_num))
		return cma_iw_disconnect(id_priv);
	if (rdma_cap_ib_cm(id->device, id->port_num)) {
		cma_modify_qp_err(id_priv);
		return cma_ib_disconnect(id_priv);
	}
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(rdma_disconnect);

/**
 * rdma_notify - pass a QP's asynchronous event to the connection manager
 * @id: a connected id
 * @event: the event (IB_EVENT_COMM_EST matters on IB)
 *
 * Context: any; does not sleep.
 * Return: 0; -EINVAL when @id has no connection.
 */
int rdma_notify(struct rdma_cm_id *id, enum ib_event_type event)
{
	struct rdma_id_private *id_priv = to_id_priv(id);

	if (!id_priv->cm_id.iw)
		return -EINVAL;
	if (id->device->node_type == RDMA_NODE_IB_CA)
		return cma_ib_notify(id_priv, event);
	return 0;
}
EXPORT_SYMBOL(rdma_notify);

/* ------------------------------------------------------------------
 * The QP
 */

/* IB and RoCE before the IB CM took over: the INIT attributes. */
static int cma_ib_init_qp_attr(struct rdma_id_private *id_priv,
			       struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	struct rdma_dev_addr *dev_addr = &id_priv->id.route.addr.dev_addr;
	struct rdma_cm_id *id = &id_priv->id;
	u16 pkey = 0xffff;
	int ret;

	if (!rdma_protocol_roce(id->device, id->port_num) &&
	    dev_addr->dev_type == ARPHRD_INFINIBAND)
		pkey = (dev_addr->broadcast[8] << 8) | dev_addr->broadcast[9];
	ret = ib_find_cached_pkey(id->device, id->port_num, pkey,
				  &qp_attr->pkey_index);
	if (ret)
		return ret;
	qp_attr->port_num = id->port_num;
	*qp_attr_mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT;
	if (id->qp_type == IB_QPT_UD) {
		if (!id_priv->qkey && id->ps == RDMA_PS_UDP)
			id_priv->qkey = RDMA_UDP_QKEY;
		qp_attr->qkey = id_priv->qkey;
		*qp_attr_mask |= IB_QP_QKEY;
	} else {
		qp_attr->qp_access_flags = 0;
		*qp_attr_mask |= IB_QP_ACCESS_FLAGS;
	}
	return 0;
}

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
 * Return: 0; -EINVAL without a device; -EOPNOTSUPP for a port without a
 * connection manager; the transport's errors.
 */
int rdma_init_qp_attr(struct rdma_cm_id *id, struct ib_qp_attr *qp_attr,
		      int *qp_attr_mask)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	int ret;

	if (!id->device)
		return -EINVAL;
	if (rdma_cap_ib_cm(id->device, id->port_num)) {
		if (!id_priv->cm_id.iw || id->qp_type == IB_QPT_UD)
			ret = cma_ib_init_qp_attr(id_priv, qp_attr,
						  qp_attr_mask);
		else
			ret = cma_ib_init_qp_attr_cm(id_priv, qp_attr,
						     qp_attr_mask);
		if (qp_attr->qp_state == IB_QPS_RTR)
			qp_attr->rq_psn = id_priv->seq_num;
	} else if (rdma_cap_iw_cm(id->device, id->port_num)) {
		if (!id_priv->cm_id.iw) {
			qp_attr->qp_access_flags = 0;
			*qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
			ret = 0;
		} else {
			ret = cma_iw_init_qp_attr(id_priv, qp_attr,
						  qp_attr_mask);
		}
		qp_attr->port_num = id->port_num;
		*qp_attr_mask |= IB_QP_PORT;
	} else {
		ret = -EOPNOTSUPP;
	}
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
	if (id->device && rdma_ib_or_roce(id->device, id->port_num))
		return cma_ib_reject_msg(reason);
	if (id->device && rdma_protocol_iwarp(id->device, id->port_num))
		return cma_iw_reject_msg(reason);
	return "unrecognized transport";
}
EXPORT_SYMBOL(rdma_reject_msg);

static bool cma_is_consumer_reject(struct rdma_cm_id *id, int reason)
{
	if (!id->device)
		return false;
	if (rdma_ib_or_roce(id->device, id->port_num))
		return cma_ib_is_consumer_reject(reason);
	if (rdma_protocol_iwarp(id->device, id->port_num))
		return reason == -ECONNREFUSED;
	return false;
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
 * @addr: the group's IP address
 * @join_state: FULLMEMBER or SENDONLY_FULLMEMBER (BIT() of the enum)
 * @context: handed back in the event's ud param
 *
 * Context: process context; sleeps.
 * Return: -EINVAL without a device, in another state, for a QP type
 * other than UD or for an id whose QP rdma_cm made; -EOPNOTSUPP on IB
 * (the SA's ib_sa_join_multicast() is not called from here yet) and RoCE
 * (the IGMP join is not written yet); -EOPNOTSUPP on iWARP, which has no
 * multicast (upstream: -ENOSYS).
 */
int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
			u8 join_state, void *context)
{
	struct rdma_id_private *id_priv = to_id_priv(id);
	enum rdma_cm_state state = READ_ONCE(id_priv->state);

	if (id->qp || !id->device ||
	    (state != RDMA_CM_ADDR_BOUND && state != RDMA_CM_ADDR_RESOLVED) ||
	    id->qp_type != IB_QPT_UD)
		return -EINVAL;
	if (rdma_ib_or_roce(id->device, id->port_num))
		return cma_ib_join_multicast(id_priv, addr, join_state,
					     context);
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(rdma_join_multicast);

/**
 * rdma_leave_multicast - leave a group joined by rdma_join_multicast()
 * @id: the id
 * @addr: the group's address
 *
 * Leaving a group never joined does nothing.
 *
 * Context: process context; sleeps.
 * Return: nothing.
 */
void rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	/* No transport joins groups yet, so there is nothing to leave. */
}
EXPORT_SYMBOL(rdma_leave_multicast);

/* Leave every group of a destroyed id (none can be joined yet). */
void cma_leave_all_mc(struct rdma_id_private *id_priv)
{
	WARN_ON_ONCE(!list_empty(&id_priv->mc_list));
}
