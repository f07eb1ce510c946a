// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The consumer's connection calls: listen, connect, accept, reject and
 * disconnect, and the passive side's new id for a connection request.
 * Each call checks the state under the id's lock, moves it, and calls
 * the driver without the lock, with IWCM_F_DOWNCALL set so that a
 * destroy waits for the driver to return.
 */
#include <linux/export.h>
#include <linux/slab.h>
#include <rdma/iw_portmap.h>
#include <rdma/rdma_netlink.h>

#include "iwcm.h"
#include "iwcm_trace.h"

/*
 * Enter a call: the id must be in @from (and not connecting or
 * accepting); it moves to @to and IWCM_F_DOWNCALL is set (and
 * IWCM_F_CONNECT_WAIT with @connect).
 */
static int iwcm_begin_call(struct iwcm_id_private *priv,
			   enum iw_cm_state from, enum iw_cm_state to,
			   bool connect)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->state != from ||
	    test_bit(IWCM_F_CONNECT_WAIT, &priv->flags) ||
	    test_bit(IWCM_F_DOWNCALL, &priv->flags) ||
	    test_bit(IWCM_F_DROP_EVENTS, &priv->flags)) {
		ret = -EINVAL;
	} else {
		set_bit(IWCM_F_DOWNCALL, &priv->flags);
		if (connect)
			set_bit(IWCM_F_CONNECT_WAIT, &priv->flags);
		iwcm_set_state(priv, to);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}

/* A failed call: back to @state, the QP (if bound) released. */
static void iwcm_fail_call(struct iwcm_id_private *priv,
			   enum iw_cm_state state)
{
	unsigned long flags;
	struct ib_qp *qp;

	spin_lock_irqsave(&priv->lock, flags);
	qp = priv->qp;
	priv->qp = NULL;
	iwcm_set_state(priv, state);
	spin_unlock_irqrestore(&priv->lock, flags);
	if (qp)
		iwcm_qp_put(priv, qp);
	iwcm_end_call(priv, true);
}

/* A driver keeps no reference on the id it rejected a request through. */
static void iwcm_reject_id_ref(struct iw_cm_id *cm_id)
{
	WARN_ONCE(1, "iw_cm: the driver took a reference on a reject's id\n");
}

/* Nor does it report events on it. */
static int iwcm_reject_id_event(struct iw_cm_id *cm_id,
				struct iw_cm_event *event)
{
	return -EINVAL;
}

/* A listener's reject_id, made once (process context). */
static int iwcm_reserve_reject_id(struct iwcm_id_private *priv)
{
	struct iw_cm_id *rid;

	if (priv->reject_id)
		return 0;
	rid = kzalloc(sizeof(*rid), GFP_KERNEL);
	if (!rid)
		return -ENOMEM;
	rid->device = priv->id.device;
	rid->event_handler = iwcm_reject_id_event;
	rid->add_ref = iwcm_reject_id_ref;
	rid->rem_ref = iwcm_reject_id_ref;
	priv->reject_id = rid;
	return 0;
}

/*
 * No id could be made for a request of @listener: the driver still gets
 * its answer, a reject, through the listener's reject_id.  From the
 * listener's delivery work only, so one request at a time.
 */
static void iwcm_reject_unmade(struct iwcm_id_private *listener,
			       struct iw_cm_event *ev)
{
	struct iw_cm_id *rid = listener->reject_id;
	int ret;

	if (!rid) {
		/* never listened: the driver had no business reporting it */
		ibdev_warn(listener->id.device,
			   "iw_cm: connection request lost: no listener\n");
		return;
	}
	rid->provider_data = ev->provider_data;
	rid->local_addr = ev->local_addr;
	rid->m_local_addr = ev->local_addr;
	rid->remote_addr = ev->remote_addr;
	rid->m_remote_addr = ev->remote_addr;
	ret = rid->device->ops.iw_reject(rid, NULL, 0);
	rid->provider_data = NULL;
	trace_iwcm_reject(rid, ret);
}

/**
 * iw_cm_listen - listen for connection requests
 * @cm_id: an IDLE id whose @local_addr is set
 * @backlog: connection requests that may wait for the consumer; 0 (or
 *	less) takes net.iw_cm.default_backlog
 *
 * Maps @local_addr through the port mapper (see iw_cm_connect()) and
 * asks the driver to listen on @m_local_addr.  Each request then comes
 * as a CONNECT_REQUEST event on a new id.
 *
 * Context: process context, may sleep (allocation, port mapper).
 * Return: 0; -EINVAL when @cm_id is not IDLE; -ENOMEM; the port
 * mapper's or the driver's error (the id is IDLE again).
 */
int iw_cm_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);
	int ret;

	if (backlog <= 0)
		backlog = READ_ONCE(iwcm_default_backlog);
	ret = iwcm_begin_call(priv, IW_CM_STATE_IDLE, IW_CM_STATE_LISTEN,
			      false);
	if (ret)
		goto out;
	ret = iwcm_works_fill(priv, backlog);
	if (!ret)
		ret = iwcm_reserve_reject_id(priv);
	if (!ret)
		ret = iwcm_map(priv, false);
	if (!ret) {
		ret = cm_id->device->ops.iw_create_listen(cm_id, backlog);
		if (ret)
			iwcm_unmap(priv);
	}
	if (ret)
		iwcm_fail_call(priv, IW_CM_STATE_IDLE);
	else
		iwcm_end_call(priv, false);
out:
	trace_iwcm_listen(cm_id, ret);
	return ret;
}
EXPORT_SYMBOL(iw_cm_listen);

/**
 * iw_cm_connect - connect to a listening peer
 * @cm_id: an IDLE id with @local_addr and @remote_addr set
 * @iw_param: private data, ord/ird, and the QP (by number) to bind
 *
 * For a device that wants port mapping (every iWARP device: with
 * IW_F_NO_PORT_MAP the mapped port is the real one) the port mapper
 * maps @local_addr and tells the remote's mapped address; the driver
 * then connects @m_local_addr to @m_remote_addr.  Without a port mapper
 * both are the unmapped addresses.  The id holds a reference on the QP
 * (the driver's iw_add_ref) until the connection ends.  The outcome
 * comes as a CONNECT_REPLY event; until it is delivered
 * iw_cm_disconnect() waits for it.
 *
 * Context: process context, may sleep (allocation, port mapper).
 * Return: 0; -EINVAL when @cm_id is not IDLE, @iw_param is NULL or names
 * no QP of the device; -ENOMEM; the port mapper's or the driver's error
 * (the id is IDLE again, the QP released).
 */
int iw_cm_connect(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);
	int ret;

	if (!iw_param) {
		ret = -EINVAL;
		goto out;
	}
	ret = iwcm_works_fill(priv, IWCM_ACTIVE_WORKS);
	if (ret)
		goto out;
	ret = iwcm_begin_call(priv, IW_CM_STATE_IDLE, IW_CM_STATE_CONN_SENT,
			      true);
	if (ret)
		goto out;
	if (!iwcm_qp_bind(priv, iw_param->qpn)) {
		ret = -EINVAL;
		goto fail;
	}
	ret = iwcm_map(priv, true);
	if (ret)
		goto fail;
	ret = cm_id->device->ops.iw_connect(cm_id, iw_param);
	if (ret) {
		iwcm_unmap(priv);
		goto fail;
	}
	iwcm_end_call(priv, false);
	goto out;
fail:
	iwcm_fail_call(priv, IW_CM_STATE_IDLE);
out:
	trace_iwcm_connect(cm_id, ret);
	return ret;
}
EXPORT_SYMBOL(iw_cm_connect);

/**
 * iw_cm_accept - accept a connection request
 * @cm_id: the id of a CONNECT_REQUEST, in CONN_RECV
 * @iw_param: private data, ord/ird, and the QP (by number) to bind
 *
 * The id keeps a reference on the QP until the connection ends.  The
 * ESTABLISHED event follows; until it is delivered iw_cm_disconnect()
 * waits for it.
 *
 * Context: process context, may sleep; may be called from the id's
 * CONNECT_REQUEST handler.
 * Return: 0; -EINVAL when @cm_id is not an unanswered request,
 * @iw_param is NULL or names no QP of the device; the driver's error
 * (the id is IDLE, the QP released).
 */
int iw_cm_accept(struct iw_cm_id *cm_id, struct iw_cm_conn_param *iw_param)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);
	int ret;

	if (!iw_param) {
		ret = -EINVAL;
		goto out;
	}
	ret = iwcm_begin_call(priv, IW_CM_STATE_CONN_RECV,
			      IW_CM_STATE_CONN_RECV, true);
	if (ret)
		goto out;
	if (!iwcm_qp_bind(priv, iw_param->qpn)) {
		/* Nothing happened: the request may still be answered. */
		iwcm_end_call(priv, true);
		ret = -EINVAL;
		goto out;
	}
	ret = cm_id->device->ops.iw_accept(cm_id, iw_param);
	if (ret)
		iwcm_fail_call(priv, IW_CM_STATE_IDLE);
	else
		iwcm_end_call(priv, false);
out:
	trace_iwcm_accept(cm_id, ret);
	return ret;
}
EXPORT_SYMBOL(iw_cm_accept);

/**
 * iw_cm_reject - refuse a connection request
 * @cm_id: the id of a CONNECT_REQUEST, in CONN_RECV
 * @private_data: MPA private data for the peer, or NULL
 * @private_data_len: its length
 *
 * The id becomes IDLE; no event follows.
 *
 * Context: process context, may sleep; may be called from the id's
 * CONNECT_REQUEST handler.
 * Return: 0; -EINVAL when @cm_id is not an unanswered request (also
 * after an accept) or @private_data_len comes without @private_data;
 * the driver's error.
 */
int iw_cm_reject(struct iw_cm_id *cm_id, const void *private_data,
		 u8 private_data_len)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);
	int ret;

	if (private_data_len && !private_data) {
		ret = -EINVAL;
		goto out;
	}
	ret = iwcm_begin_call(priv, IW_CM_STATE_CONN_RECV, IW_CM_STATE_IDLE,
			      false);
	if (ret)
		goto out;
	ret = cm_id->device->ops.iw_reject(cm_id, private_data,
					   private_data_len);
	iwcm_end_call(priv, false);
out:
	trace_iwcm_reject(cm_id, ret);
	return ret;
}
EXPORT_SYMBOL(iw_cm_reject);

/**
 * iw_cm_disconnect - close a connection
 * @cm_id: the id
 * @abrupt: non-zero: reset (QP to ERROR); zero: graceful close (QP to
 *	SQD, the driver sends its FIN after what is queued)
 *
 * Waits for a connect or accept under way to complete (its
 * CONNECT_REPLY / ESTABLISHED to be delivered).  An ESTABLISHED id moves
 * to CLOSING; the CLOSE event follows.  An id already closing, IDLE, or
 * a request not yet answered is left alone.
 *
 * Context: process context, may sleep; may be called from the id's
 * handler.
 * Return: 0; -EINVAL for a listener, an id being destroyed, or an
 * ESTABLISHED id without a kernel QP (it still moves to CLOSING).
 */
int iw_cm_disconnect(struct iw_cm_id *cm_id, int abrupt)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);
	struct ib_qp *qp = NULL;
	unsigned long flags;
	int ret = 0;

	wait_event(priv->wait, !test_bit(IWCM_F_CONNECT_WAIT, &priv->flags));

	spin_lock_irqsave(&priv->lock, flags);
	switch (priv->state) {
	case IW_CM_STATE_ESTABLISHED:
		iwcm_set_state(priv, IW_CM_STATE_CLOSING);
		qp = priv->qp;
		/* A CLOSE may release the id's reference meanwhile. */
		if (qp)
			cm_id->device->ops.iw_add_ref(qp);
		else
			ret = -EINVAL;
		break;
	case IW_CM_STATE_LISTEN:
	case IW_CM_STATE_DESTROYING:
	case IW_CM_STATE_CONN_SENT:	/* only with CONNECT_WAIT, waited */
		ret = -EINVAL;
		break;
	case IW_CM_STATE_CLOSING:
	case IW_CM_STATE_IDLE:
	case IW_CM_STATE_CONN_RECV:
		break;
	}
	spin_unlock_irqrestore(&priv->lock, flags);

	if (qp) {
		/* Both ends may close at once: the QP may be there already. */
		iwcm_qp_move(qp, abrupt ? IB_QPS_ERR : IB_QPS_SQD);
		iwcm_qp_put(priv, qp);
	}
	trace_iwcm_disconnect(cm_id, ret);
	return ret;
}
EXPORT_SYMBOL(iw_cm_disconnect);

/**
 * iwcm_conn_request - a new id for a CONNECT_REQUEST of a listener
 * @listener: the listening id
 * @ev: the event; its addresses become the consumer's view
 *
 * The new id inherits the listener's handler and context, starts in
 * CONN_RECV and goes to the handler with @ev.  The real remote address
 * comes from the port mapper's REMOTE_INFO when there is one.  When the
 * listener stopped listening or the handler returns non-zero, the
 * request is rejected and the id destroyed; when the id cannot be made,
 * the request is rejected through the listener's reject_id.  The new
 * id is held across the handler: the consumer may destroy it from
 * another task as soon as the handler took it.
 */
void iwcm_conn_request(struct iwcm_id_private *listener,
		       struct iw_cm_event *ev)
{
	struct iw_cm_id *lid = &listener->id;
	struct iwcm_id_private *priv;
	struct iw_cm_id *cm_id;
	unsigned long flags;
	bool listening;
	int ret;

	cm_id = iw_create_cm_id(lid->device, lid->cm_handler, lid->context);
	if (IS_ERR(cm_id)) {
		ibdev_dbg(lid->device, "iw_cm: connection request refused: %pe\n",
			  cm_id);
		iwcm_reject_unmade(listener, ev);
		return;
	}
	priv = to_iwcm(cm_id);
	cm_id->provider_data = ev->provider_data;
	cm_id->m_local_addr = ev->local_addr;
	cm_id->m_remote_addr = ev->remote_addr;
	cm_id->local_addr = lid->local_addr;
	cm_id->tos = lid->tos;
	cm_id->tos_set = lid->tos_set;
	cm_id->afonly = lid->afonly;
	if (iwpm_get_remote_info(&lid->m_local_addr, &ev->remote_addr,
				 &cm_id->remote_addr, RDMA_NL_IWCM)) {
		cm_id->remote_addr = ev->remote_addr;
	} else {
		/* A wildcard listener: the connection's own local IP. */
		iwcm_wildcard_fix(&lid->m_local_addr, &ev->local_addr,
				  &cm_id->local_addr);
		ev->local_addr = cm_id->local_addr;
		ev->remote_addr = cm_id->remote_addr;
	}
	spin_lock_irqsave(&priv->lock, flags);
	iwcm_set_state(priv, IW_CM_STATE_CONN_RECV);
	spin_unlock_irqrestore(&priv->lock, flags);

	spin_lock_irqsave(&listener->lock, flags);
	listening = listener->state == IW_CM_STATE_LISTEN &&
		    !test_bit(IWCM_F_DROP_EVENTS, &listener->flags);
	spin_unlock_irqrestore(&listener->lock, flags);

	ret = listening ? iwcm_works_fill(priv, IWCM_PASSIVE_WORKS) : -EINVAL;
	/*
	 * Once the handler took the id, the consumer may destroy it from
	 * another task before the handler returns (its own events run on
	 * its own work): ours keeps the memory until we are done with it.
	 */
	iwcm_id_get(priv);
	if (!ret) {
		WRITE_ONCE(priv->deliverer, current);
		ret = cm_id->cm_handler(cm_id, ev);
		WRITE_ONCE(priv->deliverer, NULL);
	}
	trace_iwcm_event_done(cm_id, IW_CM_EVENT_CONNECT_REQUEST, 0,
			      READ_ONCE(priv->state),
			      listening ? IWCM_EV_DELIVERED : IWCM_EV_REFUSED,
			      ret);
	/* In CONN_RECV, destroy rejects the request. */
	if (ret)
		iw_destroy_cm_id(cm_id);
	iwcm_id_put(priv);
}
