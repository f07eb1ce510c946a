// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Service ID resolution for unreliable datagram QPs (IBTA 12.11): the
 * SIDR REQ asks a service for its QP and Q_Key, the SIDR REP answers.
 * No connection results: the passive side's CM ID answers once and is
 * IDLE again, the active side's gets the answer or, after its timeout
 * and retries, IB_CM_SIDR_REQ_ERROR.
 */

#include <linux/slab.h>

#include "cm_priv.h"
#include "cm_trace.h"

/**
 * ib_send_cm_sidr_req - ask a service for its UD QP
 * @cm_id: an IDLE CM ID
 * @param: the path to the service's port, the service ID, how long to
 *	wait for the answer (@param->timeout_ms) and how often to ask
 *	again (@param->max_cm_retries), private data
 *
 * The answer comes as IB_CM_SIDR_REP_RECEIVED, or IB_CM_SIDR_REQ_ERROR
 * when none came.
 *
 * Context: Process context; may sleep.
 * Return: 0; -EINVAL without a path, with private data too long, for a
 * CM ID not IDLE or a path no port has; -ENOENT when the path's P_Key or
 * SGID is not the port's; -ENOMEM; the MAD layer's errno.
 */
int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	struct ib_mad_send_buf *msg;
	struct cm_av av = {};
	struct cm_msg *req;
	unsigned long flags;
	int ret;

	if (!param->path)
		return -EINVAL;
	if (param->private_data &&
	    param->private_data_len > IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE)
		return -EINVAL;
	ret = cm_init_av_by_path(param->path, param->sgid_attr, &av);
	if (ret)
		return ret;

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_IDLE) {
		ret = -EINVAL;
		goto unlock;
	}
	cm_move_av_from_path(&priv->av, &av);
	cm_id->service_id = param->service_id;
	priv->timeout_ms = param->timeout_ms;
	priv->max_cm_retries = param->max_cm_retries;

	msg = cm_alloc_priv_msg(priv, IB_CM_SIDR_REQ_SENT);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto unlock;
	}
	req = (struct cm_msg *)msg->mad;
	cm_format_mad_hdr(&req->hdr, CM_SIDR_REQ_ATTR_ID, cm_form_tid(priv));
	cm_set(req, CMF_SIDR_REQUEST_ID, be32_to_cpu(priv->id.local_id));
	cm_set(req, CMF_SIDR_REQ_PKEY, be16_to_cpu(param->path->pkey));
	cm_set64(req, CM_SIDR_REQ_SERVICE_ID_OFF, param->service_id);
	if (param->private_data && param->private_data_len)
		memcpy(cm_ptr(req, CM_SIDR_REQ_PRIVATE_OFF),
		       param->private_data, param->private_data_len);
	msg->timeout_ms = priv->timeout_ms;
	ret = cm_post(msg);
	if (ret) {
		cm_free_priv_msg(msg);
		goto unlock;
	}
	cm_set_state(priv, IB_CM_SIDR_REQ_SENT);
unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
	cm_destroy_av(&av);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_req);

/*
 * A SIDR REQ arrived: a new CM ID for the listener (whose handler is
 * called here, directly: nothing else can reach the new CM ID), a SIDR
 * REP with status unsupported when nobody listens; a duplicate of a
 * SIDR REQ still being answered is counted and dropped.
 */
int cm_sidr_req_handler(struct cm_work *work)
{
	struct cm_msg *req = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_cm_sidr_req_event_param *param =
		&work->cm_event.param.sidr_req_rcvd;
	struct cm_id_private *priv, *listen;
	int ret;

	priv = cm_alloc_id_priv(work->port->cm_dev->ib_device, NULL, NULL);
	if (IS_ERR(priv))
		return PTR_ERR(priv);
	priv->id.remote_id = cpu_to_be32(cm_get(req, CMF_SIDR_REQUEST_ID));
	priv->id.service_id = cm_get64(req, CM_SIDR_REQ_SERVICE_ID_OFF);
	priv->tid = req->hdr.tid;
	priv->sidr_slid = work->mad_recv_wc->wc->slid;
	ret = cm_init_av_for_response(work->port, work->mad_recv_wc->wc,
				      work->mad_recv_wc->recv_buf.grh,
				      &priv->av);
	if (ret)
		goto out;

	spin_lock_irq(&ibcm.lock);
	if (cm_insert_remote_sidr(priv)) {
		spin_unlock_irq(&ibcm.lock);
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_SIDR_REQ_COUNTER]);
		goto out;
	}
	cm_set_state(priv, IB_CM_SIDR_REQ_RCVD);
	listen = cm_find_listen(priv->id.device, priv->id.service_id);
	if (!listen) {
		spin_unlock_irq(&ibcm.lock);
		ib_send_cm_sidr_rep(&priv->id, &(struct ib_cm_sidr_rep_param){
						.status = IB_SIDR_UNSUPPORTED });
		goto out;
	}
	spin_unlock_irq(&ibcm.lock);

	priv->id.cm_handler = listen->id.cm_handler;
	priv->id.context = listen->id.context;
	/* no message is for this CM ID: it stays out of the xarray */
	param->pkey = cm_get(req, CMF_SIDR_REQ_PKEY);
	param->listen_id = &listen->id;
	param->service_id = priv->id.service_id;
	param->bth_pkey = cm_get_bth_pkey(work);
	param->port = work->port->port_num;
	param->sgid_attr = priv->av.ah_attr.grh.sgid_attr;
	work->cm_event.private_data = cm_ptr(req, CM_SIDR_REQ_PRIVATE_OFF);

	/*
	 * Held across the handler: the consumer may destroy the CM ID from
	 * another task once the handler took it, and that destroy then
	 * waits for us as it waits for any other event's handler.
	 */
	refcount_inc(&priv->refcount);
	ret = priv->id.cm_handler(&priv->id, &work->cm_event);
	trace_ibcm_event(&priv->id, IB_CM_SIDR_REQ_RECEIVED, ret);
	cm_free_work(work);
	/* the event named the listener: it goes after the handler */
	cm_deref_id(listen);
	cm_deref_id(priv);
	if (ret)
		cm_destroy_id(&priv->id, ret);
	return 0;
out:
	ib_destroy_cm_id(&priv->id);
	return -EINVAL;
}

/* Send the SIDR REP of @priv; its lock is held */
int cm_send_sidr_rep_locked(struct cm_id_private *priv,
			    struct ib_cm_sidr_rep_param *param)
{
	struct ib_mad_send_buf *msg;
	struct cm_msg *rep;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&priv->lock);
	if ((param->info && param->info_length > IB_CM_SIDR_REP_INFO_LENGTH) ||
	    (param->private_data &&
	     param->private_data_len > IB_CM_SIDR_REP_PRIVATE_DATA_SIZE))
		return -EINVAL;
	if (priv->id.state != IB_CM_SIDR_REQ_RCVD)
		return -EINVAL;

	msg = cm_alloc_msg(priv);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	rep = (struct cm_msg *)msg->mad;
	cm_format_mad_ece_hdr(&rep->hdr, CM_SIDR_REP_ATTR_ID, priv->tid,
			      param->ece.attr_mod);
	cm_set(rep, CMF_SIDR_REQUEST_ID, be32_to_cpu(priv->id.remote_id));
	cm_set(rep, CMF_SIDR_REP_STATUS, param->status);
	cm_set(rep, CMF_SIDR_REP_QPN, param->qp_num);
	cm_set64(rep, CM_SIDR_REP_SERVICE_ID_OFF, priv->id.service_id);
	cm_set(rep, CMF_SIDR_REP_Q_KEY, param->qkey);
	cm_set(rep, CMF_SIDR_REP_VENDOR_ID_L, param->ece.vendor_id & 0xff);
	cm_set(rep, CMF_SIDR_REP_VENDOR_ID_H,
	       (param->ece.vendor_id >> 8) & 0xff);
	if (param->info && param->info_length) {
		cm_set(rep, CMF_SIDR_REP_INFO_LENGTH, param->info_length);
		memcpy(cm_ptr(rep, CM_SIDR_REP_INFO_OFF), param->info,
		       param->info_length);
	}
	if (param->private_data && param->private_data_len)
		memcpy(cm_ptr(rep, CM_SIDR_REP_PRIVATE_OFF),
		       param->private_data, param->private_data_len);
	ret = cm_post(msg);
	if (ret) {
		cm_free_msg(msg);
		return ret;
	}
	cm_set_state(priv, IB_CM_IDLE);
	spin_lock_irqsave(&ibcm.lock, flags);
	cm_remove_sidr(priv);
	spin_unlock_irqrestore(&ibcm.lock, flags);
	return 0;
}

/**
 * ib_send_cm_sidr_rep - answer a SIDR REQ
 * @cm_id: a CM ID that received a SIDR REQ (IB_CM_SIDR_REQ_RECEIVED)
 * @param: the status and, on success, the QP and its Q_Key; additional
 *	information (up to IB_CM_SIDR_REP_INFO_LENGTH bytes) and private
 *	data (up to IB_CM_SIDR_REP_PRIVATE_DATA_SIZE)
 *
 * The CM ID is IDLE again afterwards.
 *
 * Context: Any context; takes spinlocks, allocates with GFP_ATOMIC.
 * Return: 0; -EINVAL when the information or private data are too long
 * or no SIDR REQ waits for an answer; -ENOMEM; the MAD layer's errno.
 */
int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_send_sidr_rep_locked(priv, param);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_rep);

/* A SIDR REP arrived for our SIDR REQ */
int cm_sidr_rep_handler(struct cm_work *work)
{
	struct cm_msg *rep = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_cm_sidr_rep_event_param *param =
		&work->cm_event.param.sidr_rep_rcvd;
	struct cm_id_private *priv;

	priv = cm_acquire_id(cpu_to_be32(cm_get(rep, CMF_SIDR_REQUEST_ID)), 0);
	if (!priv)
		return -EINVAL;
	spin_lock_irq(&priv->lock);
	if (priv->id.state != IB_CM_SIDR_REQ_SENT) {
		spin_unlock_irq(&priv->lock);
		cm_deref_id(priv);
		return -EINVAL;
	}
	cm_set_state(priv, IB_CM_IDLE);
	ib_cancel_mad(priv->msg);
	spin_unlock_irq(&priv->lock);

	param->status = cm_get(rep, CMF_SIDR_REP_STATUS);
	param->qkey = cm_get(rep, CMF_SIDR_REP_Q_KEY);
	param->qpn = cm_get(rep, CMF_SIDR_REP_QPN);
	param->info = cm_ptr(rep, CM_SIDR_REP_INFO_OFF);
	param->info_len = cm_get(rep, CMF_SIDR_REP_INFO_LENGTH);
	param->sgid_attr = priv->av.ah_attr.grh.sgid_attr;
	work->cm_event.private_data = cm_ptr(rep, CM_SIDR_REP_PRIVATE_OFF);
	cm_process_work(priv, work);
	return 0;
}
