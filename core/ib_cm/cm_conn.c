// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A connection's middle and end: the REP and the RTU (with the
 * duplicate REP rule and the stale check of the active side), the
 * consumer's word that the QP saw traffic (ib_cm_notify()), DREQ and
 * DREP, and the alternate path messages Linux 6.12 still receives (LAP,
 * APR; it sends neither).
 */

#include <linux/slab.h>

#include "cm_priv.h"
#include "cm_trace.h"

static void cm_format_rep(struct cm_msg *rep, struct cm_id_private *priv,
			  struct ib_cm_rep_param *param)
{
	cm_format_mad_ece_hdr(&rep->hdr, CM_REP_ATTR_ID, priv->tid,
			      param->ece.attr_mod);
	cm_set(rep, CMF_LOCAL_COMM_ID, be32_to_cpu(priv->id.local_id));
	cm_set(rep, CMF_REMOTE_COMM_ID, be32_to_cpu(priv->id.remote_id));
	cm_set(rep, CMF_REP_STARTING_PSN, param->starting_psn);
	cm_set(rep, CMF_REP_RESPONDER_RESOURCES, param->responder_resources);
	cm_set(rep, CMF_REP_TARGET_ACK_DELAY, priv->av.port->cm_dev->ack_delay);
	cm_set(rep, CMF_REP_FAILOVER_ACCEPTED, param->failover_accepted);
	cm_set(rep, CMF_REP_RNR_RETRY_COUNT, param->rnr_retry_count);
	cm_set64(rep, CM_REP_LOCAL_CA_GUID_OFF, priv->id.device->node_guid);
	if (priv->qp_type != IB_QPT_XRC_TGT) {
		cm_set(rep, CMF_REP_INITIATOR_DEPTH, param->initiator_depth);
		cm_set(rep, CMF_REP_FLOW_CONTROL, param->flow_control);
		cm_set(rep, CMF_REP_SRQ, param->srq);
		cm_set(rep, CMF_REP_LOCAL_QPN, param->qp_num);
	} else {
		cm_set(rep, CMF_REP_SRQ, 1);
		cm_set(rep, CMF_REP_LOCAL_EECN, param->qp_num);
	}
	cm_set(rep, CMF_REP_VENDOR_ID_L, param->ece.vendor_id & 0xff);
	cm_set(rep, CMF_REP_VENDOR_ID_M, (param->ece.vendor_id >> 8) & 0xff);
	cm_set(rep, CMF_REP_VENDOR_ID_H, (param->ece.vendor_id >> 16) & 0xff);
	if (param->private_data && param->private_data_len)
		memcpy(cm_ptr(rep, CM_REP_PRIVATE_OFF), param->private_data,
		       param->private_data_len);
}

/**
 * ib_send_cm_rep - accept a connection
 * @cm_id: a CM ID that received a REQ (IB_CM_REQ_RECEIVED)
 * @param: the local QP, its starting PSN and the terms
 *
 * Sends a REP and waits for the RTU: IB_CM_RTU_RECEIVED, or
 * IB_CM_REP_ERROR when none came after the requester's CM response
 * timeout and its retries.  Traffic on the QP before the RTU can stand
 * for it (ib_cm_notify() with IB_EVENT_COMM_EST).
 *
 * Context: Any context; takes spinlocks, allocates with GFP_ATOMIC.
 * Return: 0; -EINVAL when the private data is too long or the CM ID did
 * not receive a REQ; -ENOMEM; the MAD layer's errno.
 */
int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	struct ib_mad_send_buf *msg;
	struct cm_msg *rep;
	unsigned long flags;
	int ret;

	if (param->private_data &&
	    param->private_data_len > IB_CM_REP_PRIVATE_DATA_SIZE)
		return -EINVAL;

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_REQ_RCVD &&
	    cm_id->state != IB_CM_MRA_REQ_SENT) {
		ret = -EINVAL;
		goto out;
	}
	msg = cm_alloc_priv_msg(priv, IB_CM_REP_SENT);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto out;
	}
	rep = (struct cm_msg *)msg->mad;
	cm_format_rep(rep, priv, param);
	msg->timeout_ms = priv->timeout_ms;
	ret = cm_post(msg);
	if (ret) {
		cm_free_priv_msg(msg);
		goto out;
	}
	cm_set_state(priv, IB_CM_REP_SENT);
	priv->initiator_depth = param->initiator_depth;
	priv->responder_resources = param->responder_resources;
	priv->rq_psn = cpu_to_be32(cm_get(rep, CMF_REP_STARTING_PSN));
	WARN_ONCE(param->qp_num & 0xff000000,
		  "ib_cm: a QP number has 24 bits, not 0x%x\n", param->qp_num);
	priv->local_qpn = cpu_to_be32(param->qp_num & 0xffffff);
	priv->ece = param->ece;
out:
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rep);

static void cm_format_rtu(struct cm_msg *rtu, struct cm_id_private *priv,
			  const void *private_data, u8 private_data_len)
{
	cm_format_mad_hdr(&rtu->hdr, CM_RTU_ATTR_ID, priv->tid);
	cm_set(rtu, CMF_LOCAL_COMM_ID, be32_to_cpu(priv->id.local_id));
	cm_set(rtu, CMF_REMOTE_COMM_ID, be32_to_cpu(priv->id.remote_id));
	if (private_data && private_data_len)
		memcpy(cm_ptr(rtu, CM_RTU_PRIVATE_OFF), private_data,
		       private_data_len);
}

/**
 * ib_send_cm_rtu - confirm an accepted connection
 * @cm_id: a CM ID that received a REP (IB_CM_REP_RECEIVED)
 * @private_data: up to IB_CM_RTU_PRIVATE_DATA_SIZE bytes, or NULL
 * @private_data_len: their length
 *
 * The connection is established on this side; a duplicate REP is
 * answered with this RTU again.
 *
 * Context: Process context; may sleep (GFP_KERNEL for the private data).
 * Return: 0; -EINVAL when the private data is too long or no REP was
 * received; -ENOMEM; the MAD layer's errno.
 */
int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	struct ib_mad_send_buf *msg;
	unsigned long flags;
	void *data;
	int ret;

	data = cm_copy_private_data(private_data, private_data_len,
				    IB_CM_RTU_PRIVATE_DATA_SIZE);
	if (IS_ERR(data))
		return PTR_ERR(data);

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_REP_RCVD &&
	    cm_id->state != IB_CM_MRA_REP_SENT) {
		ret = -EINVAL;
		goto error;
	}
	msg = cm_alloc_msg(priv);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto error;
	}
	cm_format_rtu((struct cm_msg *)msg->mad, priv, private_data,
		      private_data_len);
	ret = cm_post(msg);
	if (ret) {
		spin_unlock_irqrestore(&priv->lock, flags);
		cm_free_msg(msg);
		kfree(data);
		return ret;
	}
	cm_set_state(priv, IB_CM_ESTABLISHED);
	cm_set_private_data(priv, data, private_data_len);
	spin_unlock_irqrestore(&priv->lock, flags);
	return 0;

error:
	spin_unlock_irqrestore(&priv->lock, flags);
	kfree(data);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rtu);

static void cm_format_rep_event(struct cm_work *work, enum ib_qp_type type)
{
	struct cm_msg *rep = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_cm_rep_event_param *param = &work->cm_event.param.rep_rcvd;

	param->remote_ca_guid = cm_get64(rep, CM_REP_LOCAL_CA_GUID_OFF);
	param->remote_qkey = cm_get(rep, CMF_REP_LOCAL_Q_KEY);
	param->remote_qpn = be32_to_cpu(cm_rep_qpn(rep, type));
	param->starting_psn = cm_get(rep, CMF_REP_STARTING_PSN);
	param->responder_resources = cm_get(rep, CMF_REP_INITIATOR_DEPTH);
	param->initiator_depth = cm_get(rep, CMF_REP_RESPONDER_RESOURCES);
	param->target_ack_delay = cm_get(rep, CMF_REP_TARGET_ACK_DELAY);
	param->failover_accepted = cm_get(rep, CMF_REP_FAILOVER_ACCEPTED);
	param->flow_control = cm_get(rep, CMF_REP_FLOW_CONTROL);
	param->rnr_retry_count = cm_get(rep, CMF_REP_RNR_RETRY_COUNT);
	param->srq = cm_get(rep, CMF_REP_SRQ);
	param->ece.vendor_id = cm_get(rep, CMF_REP_VENDOR_ID_H) << 16 |
			       cm_get(rep, CMF_REP_VENDOR_ID_M) << 8 |
			       cm_get(rep, CMF_REP_VENDOR_ID_L);
	param->ece.attr_mod = be32_to_cpu(rep->hdr.attr_mod);
	work->cm_event.private_data = cm_ptr(rep, CM_REP_PRIVATE_OFF);
}

/*
 * A REP for a connection past REQ_SENT: counted; answered with the RTU
 * again when established, or with the MRA again when we sent one.
 */
static void cm_dup_rep_handler(struct cm_work *work)
{
	struct cm_msg *rep = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_mad_send_buf *msg = NULL;
	struct cm_id_private *priv;

	priv = cm_acquire_id(cpu_to_be32(cm_get(rep, CMF_REMOTE_COMM_ID)),
			     cpu_to_be32(cm_get(rep, CMF_LOCAL_COMM_ID)));
	if (!priv)
		return;
	atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
			[CM_REP_COUNTER]);
	if (cm_alloc_response_msg(work->port, work->mad_recv_wc, &msg))
		goto deref;

	spin_lock_irq(&priv->lock);
	if (priv->id.state == IB_CM_ESTABLISHED) {
		cm_format_rtu((struct cm_msg *)msg->mad, priv,
			      priv->private_data, priv->private_data_len);
	} else if (priv->id.state == IB_CM_MRA_REP_SENT) {
		cm_format_mra((struct cm_msg *)msg->mad, priv,
			      CM_MSG_RESPONSE_REP, priv->service_timeout,
			      priv->private_data, priv->private_data_len);
	} else {
		spin_unlock_irq(&priv->lock);
		cm_free_response_msg(msg);
		goto deref;
	}
	spin_unlock_irq(&priv->lock);
	if (cm_post(msg))
		cm_free_response_msg(msg);
deref:
	cm_deref_id(priv);
}

/*
 * A REP arrived for our REQ: the connection's identity is recorded (a
 * second REP is a duplicate; a peer QP we are connected to already is
 * stale: REJ, and that other connection is disconnected).
 */
int cm_rep_handler(struct cm_work *work)
{
	struct cm_msg *rep = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct cm_id_private *priv, *cur;
	struct cm_timewait_info *tw;

	priv = cm_acquire_id(cpu_to_be32(cm_get(rep, CMF_REMOTE_COMM_ID)), 0);
	if (!priv) {
		cm_dup_rep_handler(work);
		return -EINVAL;
	}
	cm_format_rep_event(work, priv->qp_type);

	spin_lock_irq(&priv->lock);
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
		break;
	default:
		spin_unlock_irq(&priv->lock);
		goto error;
	}

	tw = priv->timewait_info;
	tw->work.remote_id = cpu_to_be32(cm_get(rep, CMF_LOCAL_COMM_ID));
	tw->remote_ca_guid = cm_get64(rep, CM_REP_LOCAL_CA_GUID_OFF);
	tw->remote_qpn = cm_rep_qpn(rep, priv->qp_type);

	spin_lock(&ibcm.lock);
	if (cm_insert_remote_id(tw)) {
		spin_unlock(&ibcm.lock);
		spin_unlock_irq(&priv->lock);
		goto error;
	}
	tw = cm_insert_remote_qpn(priv->timewait_info);
	if (tw) {
		cm_remove_remote(priv);
		cur = cm_acquire_id(tw->work.local_id, tw->work.remote_id);
		spin_unlock(&ibcm.lock);
		spin_unlock_irq(&priv->lock);
		cm_issue_rej(work->port, work->mad_recv_wc,
			     IB_CM_REJ_STALE_CONN, CM_MSG_RESPONSE_REP,
			     NULL, 0);
		if (cur) {
			ib_send_cm_dreq(&cur->id, NULL, 0);
			cm_deref_id(cur);
		}
		goto error;
	}
	spin_unlock(&ibcm.lock);

	cm_set_state(priv, IB_CM_REP_RCVD);
	priv->id.remote_id = cpu_to_be32(cm_get(rep, CMF_LOCAL_COMM_ID));
	priv->remote_qpn = cm_rep_qpn(rep, priv->qp_type);
	priv->initiator_depth = cm_get(rep, CMF_REP_RESPONDER_RESOURCES);
	priv->responder_resources = cm_get(rep, CMF_REP_INITIATOR_DEPTH);
	priv->sq_psn = cpu_to_be32(cm_get(rep, CMF_REP_STARTING_PSN));
	priv->rnr_retry_count = cm_get(rep, CMF_REP_RNR_RETRY_COUNT);
	priv->target_ack_delay = cm_get(rep, CMF_REP_TARGET_ACK_DELAY);
	priv->av.timeout = cm_ack_timeout(priv->target_ack_delay,
					  priv->av.timeout - 1);
	priv->alt_av.timeout = cm_ack_timeout(priv->target_ack_delay,
					      priv->alt_av.timeout - 1);
	priv->ece = work->cm_event.param.rep_rcvd.ece;

	ib_cancel_mad(priv->msg);
	cm_queue_work_unlock(priv, work);
	return 0;

error:
	cm_deref_id(priv);
	return -EINVAL;
}

/* The consumer's IB_EVENT_COMM_EST, now on the CM's workqueue */
int cm_establish_handler(struct cm_work *work)
{
	struct cm_id_private *priv;

	priv = cm_acquire_id(work->local_id, work->remote_id);
	if (!priv)
		return -EINVAL;
	spin_lock_irq(&priv->lock);
	if (priv->id.state != IB_CM_ESTABLISHED) {
		spin_unlock_irq(&priv->lock);
		cm_deref_id(priv);
		return -EINVAL;
	}
	ib_cancel_mad(priv->msg);
	cm_queue_work_unlock(priv, work);
	return 0;
}

/* An RTU arrived: the connection is established on the passive side */
int cm_rtu_handler(struct cm_work *work)
{
	struct cm_msg *rtu = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct cm_id_private *priv;

	priv = cm_acquire_id(cpu_to_be32(cm_get(rtu, CMF_REMOTE_COMM_ID)),
			     cpu_to_be32(cm_get(rtu, CMF_LOCAL_COMM_ID)));
	if (!priv)
		return -EINVAL;
	work->cm_event.private_data = cm_ptr(rtu, CM_RTU_PRIVATE_OFF);

	spin_lock_irq(&priv->lock);
	if (priv->id.state != IB_CM_REP_SENT &&
	    priv->id.state != IB_CM_MRA_REP_RCVD) {
		spin_unlock_irq(&priv->lock);
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_RTU_COUNTER]);
		cm_deref_id(priv);
		return -EINVAL;
	}
	cm_set_state(priv, IB_CM_ESTABLISHED);
	ib_cancel_mad(priv->msg);
	cm_queue_work_unlock(priv, work);
	return 0;
}

/*
 * Traffic arrived on the QP before the RTU: established now, and the
 * consumer gets IB_CM_USER_ESTABLISHED from the workqueue (the CM ID is
 * looked up there again: it may be destroyed meanwhile).
 */
static int cm_establish(struct ib_cm_id *cm_id)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	struct cm_device *cm_dev;
	struct cm_work *work;
	unsigned long flags;
	int ret = 0;

	cm_dev = ib_get_client_data(cm_id->device, &cm_client);
	if (!cm_dev)
		return -ENODEV;
	work = kmalloc(sizeof(*work), GFP_ATOMIC);
	if (!work)
		return -ENOMEM;

	spin_lock_irqsave(&priv->lock, flags);
	switch (cm_id->state) {
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		cm_set_state(priv, IB_CM_ESTABLISHED);
		break;
	case IB_CM_ESTABLISHED:
		ret = -EISCONN;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	if (ret) {
		kfree(work);
		return ret;
	}

	INIT_DELAYED_WORK(&work->work, cm_work_handler);
	work->local_id = cm_id->local_id;
	work->remote_id = cm_id->remote_id;
	work->mad_recv_wc = NULL;
	work->cm_event.event = IB_CM_USER_ESTABLISHED;

	spin_lock_irqsave(&ibcm.lock, flags);
	if (!cm_dev->going_down) {
		queue_delayed_work(ibcm.wq, &work->work, 0);
	} else {
		kfree(work);
		ret = -ENODEV;
	}
	spin_unlock_irqrestore(&ibcm.lock, flags);
	return ret;
}

/* The QP migrated to its alternate path: that is the primary now */
static int cm_migrate(struct ib_cm_id *cm_id)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state == IB_CM_ESTABLISHED &&
	    (cm_id->lap_state == IB_CM_LAP_UNINIT ||
	     cm_id->lap_state == IB_CM_LAP_IDLE)) {
		cm_id->lap_state = IB_CM_LAP_IDLE;
		priv->av = priv->alt_av;
	} else {
		ret = -EINVAL;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}

/**
 * ib_cm_notify - tell the CM what the connection's QP saw
 * @cm_id: the connection's CM ID
 * @event: IB_EVENT_COMM_EST (the QP received before the RTU: the
 *	connection is established, as if the RTU had come) or
 *	IB_EVENT_PATH_MIG (the QP moved to its alternate path)
 *
 * Context: Any context (a QP's event handler may call it): takes
 * spinlocks, allocates with GFP_ATOMIC.
 * Return: 0; -EISCONN when already established; -EINVAL for another
 * event or a CM ID in the wrong state; -ENODEV when the device goes;
 * -ENOMEM.
 */
int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event)
{
	switch (event) {
	case IB_EVENT_COMM_EST:
		return cm_establish(cm_id);
	case IB_EVENT_PATH_MIG:
		return cm_migrate(cm_id);
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL(ib_cm_notify);

static void cm_format_dreq(struct cm_msg *dreq, struct cm_id_private *priv,
			   const void *private_data, u8 private_data_len)
{
	cm_format_mad_hdr(&dreq->hdr, CM_DREQ_ATTR_ID, cm_form_tid(priv));
	cm_set(dreq, CMF_LOCAL_COMM_ID, be32_to_cpu(priv->id.local_id));
	cm_set(dreq, CMF_REMOTE_COMM_ID, be32_to_cpu(priv->id.remote_id));
	cm_set(dreq, CMF_DREQ_REMOTE_QPN, be32_to_cpu(priv->remote_qpn));
	if (private_data && private_data_len)
		memcpy(cm_ptr(dreq, CM_DREQ_PRIVATE_OFF), private_data,
		       private_data_len);
}

/*
 * Send a DREQ from ESTABLISHED; the lock of @priv is held.  When it
 * cannot be sent the connection goes to timewait at once.
 */
int cm_send_dreq_locked(struct cm_id_private *priv, const void *private_data,
			u8 private_data_len)
{
	struct ib_mad_send_buf *msg;
	int ret;

	lockdep_assert_held(&priv->lock);
	if (private_data && private_data_len > IB_CM_DREQ_PRIVATE_DATA_SIZE)
		return -EINVAL;
	if (priv->id.state != IB_CM_ESTABLISHED)
		return -EINVAL;
	if (priv->id.lap_state == IB_CM_LAP_SENT ||
	    priv->id.lap_state == IB_CM_MRA_LAP_RCVD)
		ib_cancel_mad(priv->msg);

	msg = cm_alloc_priv_msg(priv, IB_CM_DREQ_SENT);
	if (IS_ERR(msg)) {
		cm_enter_timewait(priv);
		return PTR_ERR(msg);
	}
	cm_format_dreq((struct cm_msg *)msg->mad, priv, private_data,
		       private_data_len);
	msg->timeout_ms = priv->timeout_ms;
	ret = cm_post(msg);
	if (ret) {
		cm_enter_timewait(priv);
		cm_free_priv_msg(msg);
		return ret;
	}
	cm_set_state(priv, IB_CM_DREQ_SENT);
	return 0;
}

/**
 * ib_send_cm_dreq - disconnect
 * @cm_id: an established connection
 * @private_data: up to IB_CM_DREQ_PRIVATE_DATA_SIZE bytes, or NULL
 * @private_data_len: their length
 *
 * Sends a DREQ and waits for the DREP (IB_CM_DREP_RECEIVED) or, after
 * the timeout and retries, IB_CM_DREQ_ERROR; either way the CM ID then
 * enters timewait and reports IB_CM_TIMEWAIT_EXIT when it ends.
 *
 * Context: Any context; takes spinlocks, allocates with GFP_ATOMIC.
 * Return: 0; -EINVAL when the private data is too long or the
 * connection is not established; -ENOMEM or the MAD layer's errno (the
 * connection is then in timewait without a DREQ sent).
 */
int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_send_dreq_locked(priv, private_data, private_data_len);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_dreq);

static void cm_format_drep(struct cm_msg *drep, struct cm_id_private *priv,
			   const void *private_data, u8 private_data_len)
{
	cm_format_mad_hdr(&drep->hdr, CM_DREP_ATTR_ID, priv->tid);
	cm_set(drep, CMF_LOCAL_COMM_ID, be32_to_cpu(priv->id.local_id));
	cm_set(drep, CMF_REMOTE_COMM_ID, be32_to_cpu(priv->id.remote_id));
	if (private_data && private_data_len)
		memcpy(cm_ptr(drep, CM_DREP_PRIVATE_OFF), private_data,
		       private_data_len);
}

/*
 * Answer a DREQ received; @private_data (from cm_copy_private_data())
 * is kept for a duplicate DREQ's answer.  The connection enters
 * timewait.  The lock of @priv is held.
 */
int cm_send_drep_locked(struct cm_id_private *priv, void *private_data,
			u8 private_data_len)
{
	struct ib_mad_send_buf *msg;
	int ret;

	lockdep_assert_held(&priv->lock);
	if (priv->id.state != IB_CM_DREQ_RCVD) {
		kfree(private_data);
		return -EINVAL;
	}
	cm_set_private_data(priv, private_data, private_data_len);
	cm_enter_timewait(priv);

	msg = cm_alloc_msg(priv);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	cm_format_drep((struct cm_msg *)msg->mad, priv, private_data,
		       private_data_len);
	ret = cm_post(msg);
	if (ret) {
		cm_free_msg(msg);
		return ret;
	}
	return 0;
}

/**
 * ib_send_cm_drep - answer a disconnect
 * @cm_id: a CM ID that received a DREQ (IB_CM_DREQ_RECEIVED)
 * @private_data: up to IB_CM_DREP_PRIVATE_DATA_SIZE bytes, or NULL
 * @private_data_len: their length
 *
 * The CM ID enters timewait (IB_CM_TIMEWAIT_EXIT follows).  A duplicate
 * DREQ is answered with this DREP again.
 *
 * Context: Process context; may sleep (GFP_KERNEL for the private data).
 * Return: 0; -EINVAL when the private data is too long or no DREQ was
 * received; -ENOMEM; the MAD layer's errno (timewait is entered anyway).
 */
int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	unsigned long flags;
	void *data;
	int ret;

	data = cm_copy_private_data(private_data, private_data_len,
				    IB_CM_DREP_PRIVATE_DATA_SIZE);
	if (IS_ERR(data))
		return PTR_ERR(data);
	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_send_drep_locked(priv, data, private_data_len);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_drep);

/* A DREP to a DREQ whose connection we do not know (any more) */
static int cm_issue_drep(struct cm_port *port, struct ib_mad_recv_wc *rwc)
{
	struct ib_mad_send_buf *msg = NULL;
	int ret;

	ret = cm_alloc_stateless_reply(port, rwc, CM_DREP_ATTR_ID, &msg);
	if (ret)
		return ret;
	ret = cm_post(msg);
	if (ret)
		cm_free_response_msg(msg);
	return ret;
}

/*
 * A DREQ arrived.  For an unknown connection a DREP goes back; in
 * timewait the DREP is resent; a second DREQ while the consumer has not
 * answered is counted and dropped.
 */
int cm_dreq_handler(struct cm_work *work)
{
	struct cm_msg *dreq = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_mad_send_buf *msg;
	struct cm_id_private *priv;

	priv = cm_acquire_id(cpu_to_be32(cm_get(dreq, CMF_REMOTE_COMM_ID)),
			     cpu_to_be32(cm_get(dreq, CMF_LOCAL_COMM_ID)));
	if (!priv) {
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_DREQ_COUNTER]);
		cm_issue_drep(work->port, work->mad_recv_wc);
		return -EINVAL;
	}
	work->cm_event.private_data = cm_ptr(dreq, CM_DREQ_PRIVATE_OFF);

	spin_lock_irq(&priv->lock);
	if (priv->local_qpn != cpu_to_be32(cm_get(dreq, CMF_DREQ_REMOTE_QPN)))
		goto unlock;

	switch (priv->id.state) {
	case IB_CM_REP_SENT:
	case IB_CM_DREQ_SENT:
	case IB_CM_MRA_REP_RCVD:
		ib_cancel_mad(priv->msg);
		break;
	case IB_CM_ESTABLISHED:
		if (priv->id.lap_state == IB_CM_LAP_SENT ||
		    priv->id.lap_state == IB_CM_MRA_LAP_RCVD)
			ib_cancel_mad(priv->msg);
		break;
	case IB_CM_TIMEWAIT:
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_DREQ_COUNTER]);
		msg = cm_alloc_response_msg_no_ah(work->port,
						  work->mad_recv_wc);
		if (IS_ERR(msg))
			goto unlock;
		cm_format_drep((struct cm_msg *)msg->mad, priv,
			       priv->private_data, priv->private_data_len);
		spin_unlock_irq(&priv->lock);
		if (cm_create_response_msg_ah(work->port, work->mad_recv_wc,
					      msg) ||
		    cm_post(msg))
			cm_free_response_msg(msg);
		goto deref;
	case IB_CM_DREQ_RCVD:
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_DREQ_COUNTER]);
		goto unlock;
	default:
		goto unlock;
	}
	cm_set_state(priv, IB_CM_DREQ_RCVD);
	priv->tid = dreq->hdr.tid;
	cm_queue_work_unlock(priv, work);
	return 0;

unlock:
	spin_unlock_irq(&priv->lock);
deref:
	cm_deref_id(priv);
	return -EINVAL;
}

/* A DREP arrived: the connection enters timewait */
int cm_drep_handler(struct cm_work *work)
{
	struct cm_msg *drep = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct cm_id_private *priv;

	priv = cm_acquire_id(cpu_to_be32(cm_get(drep, CMF_REMOTE_COMM_ID)),
			     cpu_to_be32(cm_get(drep, CMF_LOCAL_COMM_ID)));
	if (!priv)
		return -EINVAL;
	work->cm_event.private_data = cm_ptr(drep, CM_DREP_PRIVATE_OFF);

	spin_lock_irq(&priv->lock);
	if (priv->id.state != IB_CM_DREQ_SENT &&
	    priv->id.state != IB_CM_DREQ_RCVD) {
		spin_unlock_irq(&priv->lock);
		cm_deref_id(priv);
		return -EINVAL;
	}
	cm_enter_timewait(priv);
	ib_cancel_mad(priv->msg);
	cm_queue_work_unlock(priv, work);
	return 0;
}

/* The alternate path a LAP proposes, seen from here */
static void cm_path_from_lap(struct cm_id_private *priv,
			     struct sa_path_rec *path, struct cm_msg *lap)
{
	memcpy(&path->dgid, cm_ptr(lap, CM_LAP_ALT_LOCAL_GID_OFF),
	       sizeof(path->dgid));
	memcpy(&path->sgid, cm_ptr(lap, CM_LAP_ALT_REMOTE_GID_OFF),
	       sizeof(path->sgid));
	path->flow_label = cpu_to_be32(cm_get(lap, CMF_LAP_ALT_FLOW_LABEL));
	path->hop_limit = cm_get(lap, CMF_LAP_ALT_HOP_LIMIT);
	path->traffic_class = cm_get(lap, CMF_LAP_ALT_TRAFFIC_CLASS);
	path->reversible = 1;
	path->pkey = priv->pkey;
	path->sl = cm_get(lap, CMF_LAP_ALT_SL);
	path->mtu_selector = IB_SA_EQ;
	path->mtu = priv->path_mtu;
	path->rate_selector = IB_SA_EQ;
	path->rate = cm_get(lap, CMF_LAP_ALT_PACKET_RATE);
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = cm_get(lap, CMF_LAP_ALT_LOCAL_ACK_TIMEOUT);
	path->packet_life_time -= path->packet_life_time > 0;
	sa_path_set_dlid(path, cm_get(lap, CMF_LAP_ALT_LOCAL_LID));
	sa_path_set_slid(path, cm_get(lap, CMF_LAP_ALT_REMOTE_LID));
}

/*
 * A LAP arrived on an established IB connection: its alternate path
 * becomes the CM ID's and the consumer gets IB_CM_LAP_RECEIVED.  Linux
 * 6.12 offers no way to answer it (no APR is sent); a duplicate is
 * answered with our MRA again if we sent one.
 */
int cm_lap_handler(struct cm_work *work)
{
	struct cm_msg *lap = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_mad_recv_wc *rwc = work->mad_recv_wc;
	struct ib_mad_send_buf *msg;
	struct cm_id_private *priv;
	struct rdma_ah_attr ah_attr;
	struct cm_av alt_av = {};
	int ret;

	if (rdma_protocol_roce(work->port->cm_dev->ib_device,
			       work->port->port_num))
		return -EINVAL;
	priv = cm_acquire_id(cpu_to_be32(cm_get(lap, CMF_REMOTE_COMM_ID)),
			     cpu_to_be32(cm_get(lap, CMF_LOCAL_COMM_ID)));
	if (!priv)
		return -EINVAL;

	memset(&work->path[0], 0, sizeof(work->path[0]));
	work->path[0].rec_type = SA_PATH_REC_TYPE_IB;
	cm_path_from_lap(priv, &work->path[0], lap);
	work->cm_event.param.lap_rcvd.alternate_path = &work->path[0];
	work->cm_event.private_data = cm_ptr(lap, CM_LAP_PRIVATE_OFF);

	ret = ib_init_ah_attr_from_wc(work->port->cm_dev->ib_device,
				      work->port->port_num, rwc->wc,
				      rwc->recv_buf.grh, &ah_attr);
	if (ret)
		goto deref;
	ret = cm_init_av_by_path(&work->path[0], NULL, &alt_av);
	if (ret) {
		rdma_destroy_ah_attr(&ah_attr);
		goto deref;
	}

	spin_lock_irq(&priv->lock);
	/* answers go back where the LAP came from */
	cm_set_av_port(&priv->av, work->port);
	priv->av.pkey_index = rwc->wc->pkey_index;
	rdma_move_ah_attr(&priv->av.ah_attr, &ah_attr);
	cm_move_av_from_path(&priv->alt_av, &alt_av);

	if (priv->id.state != IB_CM_ESTABLISHED)
		goto unlock;
	switch (priv->id.lap_state) {
	case IB_CM_LAP_UNINIT:
	case IB_CM_LAP_IDLE:
		break;
	case IB_CM_MRA_LAP_SENT:
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_LAP_COUNTER]);
		msg = cm_alloc_response_msg_no_ah(work->port, rwc);
		if (IS_ERR(msg))
			goto unlock;
		cm_format_mra((struct cm_msg *)msg->mad, priv,
			      CM_MSG_RESPONSE_OTHER, priv->service_timeout,
			      priv->private_data, priv->private_data_len);
		spin_unlock_irq(&priv->lock);
		if (cm_create_response_msg_ah(work->port, rwc, msg) ||
		    cm_post(msg))
			cm_free_response_msg(msg);
		goto deref;
	case IB_CM_LAP_RCVD:
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_LAP_COUNTER]);
		goto unlock;
	default:
		goto unlock;
	}
	priv->id.lap_state = IB_CM_LAP_RCVD;
	priv->tid = lap->hdr.tid;
	cm_queue_work_unlock(priv, work);
	return 0;

unlock:
	spin_unlock_irq(&priv->lock);
deref:
	cm_destroy_av(&alt_av);
	cm_deref_id(priv);
	return -EINVAL;
}

/*
 * An APR arrived.  It answers a LAP, which Linux 6.12 never sends: it is
 * taken only by a CM ID whose LAP is outstanding, so in practice never.
 */
int cm_apr_handler(struct cm_work *work)
{
	struct cm_msg *apr = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_cm_apr_event_param *param = &work->cm_event.param.apr_rcvd;
	struct cm_id_private *priv;

	if (rdma_protocol_roce(work->port->cm_dev->ib_device,
			       work->port->port_num))
		return -EINVAL;
	priv = cm_acquire_id(cpu_to_be32(cm_get(apr, CMF_REMOTE_COMM_ID)),
			     cpu_to_be32(cm_get(apr, CMF_LOCAL_COMM_ID)));
	if (!priv)
		return -EINVAL;
	param->ap_status = cm_get(apr, CMF_APR_STATUS);
	param->apr_info = cm_ptr(apr, CM_APR_INFO_OFF);
	param->info_len = cm_get(apr, CMF_APR_INFO_LENGTH);
	work->cm_event.private_data = cm_ptr(apr, CM_APR_PRIVATE_OFF);

	spin_lock_irq(&priv->lock);
	if (priv->id.state != IB_CM_ESTABLISHED ||
	    (priv->id.lap_state != IB_CM_LAP_SENT &&
	     priv->id.lap_state != IB_CM_MRA_LAP_RCVD)) {
		spin_unlock_irq(&priv->lock);
		cm_deref_id(priv);
		return -EINVAL;
	}
	priv->id.lap_state = IB_CM_LAP_IDLE;
	ib_cancel_mad(priv->msg);
	cm_queue_work_unlock(priv, work);
	return 0;
}
