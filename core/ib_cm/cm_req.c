// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Setting a connection up, the passive and the active side's first
 * steps: the REQ (sent, and received: the duplicate and stale checks,
 * the listener, the paths the REQ describes), the MRA that asks the peer
 * for more time, and the REJ, whether a consumer sends it, the CM
 * answers a REQ without a listener, or one arrives.
 */

#include <linux/slab.h>

#include "cm_priv.h"
#include "cm_trace.h"

/* Does the REQ carry an alternate path (a non-zero alternate LID)? */
bool cm_req_has_alt_path(const struct cm_msg *req)
{
	return cm_get(req, CMF_PATH_LOCAL_LID(CM_REQ_ALTERNATE)) != 0;
}

static u16 cm_path_lid(__be32 lid)
{
	return be32_to_cpu(lid) & 0xffff;
}

/* One path (primary at @at, or alternate) of a REQ from @path */
static void cm_format_req_path(struct cm_msg *req, unsigned int at,
			       struct sa_path_rec *path,
			       struct sa_path_rec *inbound, u8 ack_delay)
{
	memcpy(cm_ptr(req, CM_PATH_LOCAL_GID_OFF(at)), &path->sgid,
	       sizeof(path->sgid));
	memcpy(cm_ptr(req, CM_PATH_REMOTE_GID_OFF(at)), &path->dgid,
	       sizeof(path->dgid));
	if (path->hop_limit <= 1) {
		cm_set(req, CMF_PATH_LOCAL_LID(at),
		       cm_path_lid(sa_path_get_slid(path)));
		cm_set(req, CMF_PATH_REMOTE_LID(at),
		       cm_path_lid(sa_path_get_dlid(path)));
	} else {
		/*
		 * Routed: the LIDs at the far end are not known here; the
		 * responder takes them from the packet (IBTA 12.6.5).
		 */
		cm_set(req, CMF_PATH_LOCAL_LID(at), inbound ?
		       be16_to_cpu(inbound->ib.dlid) :
		       be16_to_cpu(IB_LID_PERMISSIVE));
		cm_set(req, CMF_PATH_REMOTE_LID(at),
		       be16_to_cpu(IB_LID_PERMISSIVE));
	}
	cm_set(req, CMF_PATH_FLOW_LABEL(at), be32_to_cpu(path->flow_label));
	cm_set(req, CMF_PATH_PACKET_RATE(at), path->rate);
	cm_set(req, CMF_PATH_TRAFFIC_CLASS(at), path->traffic_class);
	cm_set(req, CMF_PATH_HOP_LIMIT(at), path->hop_limit);
	cm_set(req, CMF_PATH_SL(at), path->sl);
	cm_set(req, CMF_PATH_SUBNET_LOCAL(at), path->hop_limit <= 1);
	cm_set(req, CMF_PATH_LOCAL_ACK_TIMEOUT(at),
	       cm_ack_timeout(ack_delay, path->packet_life_time));
}

static void cm_format_req(struct cm_msg *req, struct cm_id_private *priv,
			  struct ib_cm_req_param *param)
{
	u8 ack_delay = priv->av.port->cm_dev->ack_delay;

	cm_format_mad_ece_hdr(&req->hdr, CM_REQ_ATTR_ID, cm_form_tid(priv),
			      param->ece.attr_mod);
	cm_set(req, CMF_LOCAL_COMM_ID, be32_to_cpu(priv->id.local_id));
	cm_set64(req, CM_REQ_SERVICE_ID_OFF, param->service_id);
	cm_set64(req, CM_REQ_LOCAL_CA_GUID_OFF, priv->id.device->node_guid);
	cm_set(req, CMF_REQ_LOCAL_QPN, param->qp_num);
	cm_set(req, CMF_REQ_INITIATOR_DEPTH, param->initiator_depth);
	cm_set(req, CMF_REQ_REMOTE_CM_RESP_TIMEOUT,
	       param->remote_cm_response_timeout);
	cm_req_set_qp_type(req, param->qp_type);
	cm_set(req, CMF_REQ_FLOW_CONTROL, param->flow_control);
	cm_set(req, CMF_REQ_STARTING_PSN, param->starting_psn);
	cm_set(req, CMF_REQ_LOCAL_CM_RESP_TIMEOUT,
	       param->local_cm_response_timeout);
	cm_set(req, CMF_REQ_PKEY, be16_to_cpu(param->primary_path->pkey));
	cm_set(req, CMF_REQ_PATH_MTU, param->primary_path->mtu);
	cm_set(req, CMF_REQ_MAX_CM_RETRIES, param->max_cm_retries);
	if (param->qp_type != IB_QPT_XRC_INI) {
		cm_set(req, CMF_REQ_RESPONDER_RESOURCES,
		       param->responder_resources);
		cm_set(req, CMF_REQ_RETRY_COUNT, param->retry_count);
		cm_set(req, CMF_REQ_RNR_RETRY_COUNT, param->rnr_retry_count);
		cm_set(req, CMF_REQ_SRQ, param->srq);
	}
	cm_format_req_path(req, CM_REQ_PRIMARY, param->primary_path,
			   param->primary_path_inbound, ack_delay);
	if (param->alternate_path)
		cm_format_req_path(req, CM_REQ_ALTERNATE,
				   param->alternate_path, NULL, ack_delay);
	cm_set(req, CMF_REQ_VENDOR_ID, param->ece.vendor_id);
	if (param->private_data && param->private_data_len)
		memcpy(cm_ptr(req, CM_REQ_PRIVATE_OFF), param->private_data,
		       param->private_data_len);
}

static int cm_validate_req_param(struct ib_cm_req_param *param)
{
	if (!param->primary_path)
		return -EINVAL;
	if (param->qp_type != IB_QPT_RC && param->qp_type != IB_QPT_UC &&
	    param->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	if (param->private_data &&
	    param->private_data_len > IB_CM_REQ_PRIVATE_DATA_SIZE)
		return -EINVAL;
	if (param->alternate_path &&
	    (param->alternate_path->pkey != param->primary_path->pkey ||
	     param->alternate_path->mtu != param->primary_path->mtu))
		return -EINVAL;
	return 0;
}

/**
 * ib_send_cm_req - ask a service for a connection
 * @cm_id: an IDLE CM ID
 * @param: the service, the paths, the local QP and the terms
 *
 * Sends a REQ along @param->primary_path (whose source GID, or
 * @param->ppath_sgid_attr, names the local port) and waits for the
 * answer: IB_CM_REP_RECEIVED, IB_CM_REJ_RECEIVED, IB_CM_MRA_RECEIVED
 * (more time), or IB_CM_REQ_ERROR when no answer came within twice the
 * path's packet life time plus the remote CM response timeout, after
 * @param->max_cm_retries resends.
 *
 * Context: Process context; may sleep.
 * Return: 0; -EINVAL for a bad @param (no primary path, QP type not RC,
 * UC or XRC initiator, private data too long, an alternate path whose
 * P_Key or MTU differ) or a CM ID not IDLE or no port for the path;
 * -ENOENT when the path's P_Key or SGID is not the port's; -ENOMEM, or
 * the MAD layer's errno.
 */
int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	struct cm_av av = {}, alt_av = {};
	struct ib_mad_send_buf *msg;
	struct cm_timewait_info *tw;
	struct cm_msg *req;
	unsigned long flags;
	int ret;

	ret = cm_validate_req_param(param);
	if (ret)
		return ret;

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_IDLE || WARN_ON(priv->timewait_info)) {
		spin_unlock_irqrestore(&priv->lock, flags);
		return -EINVAL;
	}
	spin_unlock_irqrestore(&priv->lock, flags);

	tw = cm_create_timewait_info(cm_id->local_id);
	if (IS_ERR(tw))
		return PTR_ERR(tw);
	ret = cm_init_av_by_path(param->primary_path, param->ppath_sgid_attr,
				 &av);
	if (ret)
		goto free_tw;
	if (param->alternate_path) {
		ret = cm_init_av_by_path(param->alternate_path, NULL, &alt_av);
		if (ret)
			goto free_av;
	}

	spin_lock_irqsave(&priv->lock, flags);
	if (cm_id->state != IB_CM_IDLE || priv->timewait_info) {
		ret = -EINVAL;
		goto unlock;
	}
	priv->timewait_info = tw;
	tw = NULL;
	cm_id->service_id = param->service_id;
	priv->timeout_ms =
		cm_convert_to_ms(param->primary_path->packet_life_time) * 2 +
		cm_convert_to_ms(param->remote_cm_response_timeout);
	priv->max_cm_retries = param->max_cm_retries;
	priv->initiator_depth = param->initiator_depth;
	priv->responder_resources = param->responder_resources;
	priv->retry_count = param->retry_count;
	priv->path_mtu = param->primary_path->mtu;
	priv->pkey = param->primary_path->pkey;
	priv->qp_type = param->qp_type;
	cm_move_av_from_path(&priv->av, &av);
	if (param->primary_path_outbound)
		priv->av.dlid_datapath =
			be16_to_cpu(param->primary_path_outbound->ib.dlid);
	if (param->alternate_path)
		cm_move_av_from_path(&priv->alt_av, &alt_av);

	msg = cm_alloc_priv_msg(priv, IB_CM_REQ_SENT);
	if (IS_ERR(msg)) {
		ret = PTR_ERR(msg);
		goto forget;
	}
	req = (struct cm_msg *)msg->mad;
	cm_format_req(req, priv, param);
	priv->tid = req->hdr.tid;
	msg->timeout_ms = priv->timeout_ms;
	priv->local_qpn = cpu_to_be32(cm_get(req, CMF_REQ_LOCAL_QPN));
	priv->rq_psn = cpu_to_be32(cm_get(req, CMF_REQ_STARTING_PSN));

	ret = cm_post(msg);
	if (ret) {
		cm_free_priv_msg(msg);
		goto forget;
	}
	cm_set_state(priv, IB_CM_REQ_SENT);
	spin_unlock_irqrestore(&priv->lock, flags);
	return 0;

forget:
	/* the CM ID stays IDLE and may try again */
	tw = priv->timewait_info;
	priv->timewait_info = NULL;
unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
	cm_destroy_av(&alt_av);
free_av:
	cm_destroy_av(&av);
free_tw:
	kfree(tw);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_req);

/*
 * Answer @rwc with a REJ that belongs to no CM ID (no listener, a stale
 * connection): the IDs of the received message swapped.
 */
int cm_issue_rej(struct cm_port *port, struct ib_mad_recv_wc *rwc,
		 enum ib_cm_rej_reason reason,
		 enum cm_msg_response msg_rejected, void *ari, u8 ari_length)
{
	struct ib_mad_send_buf *msg = NULL;
	struct cm_msg *rej;
	int ret;

	ret = cm_alloc_stateless_reply(port, rwc, CM_REJ_ATTR_ID, &msg);
	if (ret)
		return ret;
	rej = (struct cm_msg *)msg->mad;
	cm_set(rej, CMF_REJ_MESSAGE_REJECTED, msg_rejected);
	cm_set(rej, CMF_REJ_REASON, reason);
	if (ari && ari_length) {
		cm_set(rej, CMF_REJ_INFO_LENGTH, ari_length);
		memcpy(cm_ptr(rej, CM_REJ_ARI_OFF), ari, ari_length);
	}
	ret = cm_post(msg);
	if (ret)
		cm_free_response_msg(msg);
	return ret;
}

/* One path of a received REQ (at @at), seen from the responder */
static void cm_path_from_req(struct cm_msg *req, unsigned int at,
			     struct sa_path_rec *path, struct ib_wc *wc,
			     bool primary)
{
	memcpy(&path->dgid, cm_ptr(req, CM_PATH_LOCAL_GID_OFF(at)),
	       sizeof(path->dgid));
	memcpy(&path->sgid, cm_ptr(req, CM_PATH_REMOTE_GID_OFF(at)),
	       sizeof(path->sgid));
	path->flow_label = cpu_to_be32(cm_get(req, CMF_PATH_FLOW_LABEL(at)));
	path->hop_limit = cm_get(req, CMF_PATH_HOP_LIMIT(at));
	path->traffic_class = cm_get(req, CMF_PATH_TRAFFIC_CLASS(at));
	path->reversible = 1;
	path->pkey = cpu_to_be16(cm_get(req, CMF_REQ_PKEY));
	path->sl = cm_get(req, CMF_PATH_SL(at));
	path->mtu_selector = IB_SA_EQ;
	path->mtu = cm_get(req, CMF_REQ_PATH_MTU);
	path->rate_selector = IB_SA_EQ;
	path->rate = cm_get(req, CMF_PATH_PACKET_RATE(at));
	path->packet_life_time_selector = IB_SA_EQ;
	/* the local ACK timeout is (about) the life time + 1 */
	path->packet_life_time = cm_get(req, CMF_PATH_LOCAL_ACK_TIMEOUT(at));
	path->packet_life_time -= path->packet_life_time > 0;
	path->service_id = cm_get64(req, CM_REQ_SERVICE_ID_OFF);
	if (sa_path_is_roce(path)) {
		path->roce.route_resolved = false;
		return;
	}
	/* the peer's LID is where the packet came from, for the primary */
	sa_path_set_dlid(path, primary ? wc->slid :
			 cm_get(req, CMF_PATH_LOCAL_LID(at)));
	sa_path_set_slid(path, cm_get(req, CMF_PATH_REMOTE_LID(at)));
}

/*
 * A REQ that crossed subnets names permissive LIDs: the LIDs and SL of
 * the packet replace them.
 */
static void cm_process_routed_req(struct cm_msg *req, struct ib_wc *wc)
{
	static const unsigned int paths[] = { CM_REQ_PRIMARY, CM_REQ_ALTERNATE };
	u16 permissive = be16_to_cpu(IB_LID_PERMISSIVE);
	int i;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		unsigned int at = paths[i];

		if (cm_get(req, CMF_PATH_SUBNET_LOCAL(at)))
			continue;
		if (cm_get(req, CMF_PATH_LOCAL_LID(at)) == permissive) {
			cm_set(req, CMF_PATH_LOCAL_LID(at), wc->slid);
			cm_set(req, CMF_PATH_SL(at), wc->sl);
		}
		if (cm_get(req, CMF_PATH_REMOTE_LID(at)) == permissive)
			cm_set(req, CMF_PATH_REMOTE_LID(at),
			       wc->dlid_path_bits);
	}
}

static void cm_format_req_event(struct cm_work *work,
				struct cm_id_private *priv,
				struct ib_cm_id *listen_id)
{
	struct cm_msg *req = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_cm_req_event_param *param = &work->cm_event.param.req_rcvd;

	param->listen_id = listen_id;
	param->bth_pkey = cm_get_bth_pkey(work);
	param->port = priv->av.port->port_num;
	param->primary_path = &work->path[0];
	param->alternate_path = cm_req_has_alt_path(req) ? &work->path[1] :
			       NULL;
	param->remote_ca_guid = cm_get64(req, CM_REQ_LOCAL_CA_GUID_OFF);
	param->remote_qkey = cm_get(req, CMF_REQ_LOCAL_Q_KEY);
	param->remote_qpn = cm_get(req, CMF_REQ_LOCAL_QPN);
	param->qp_type = cm_req_qp_type(req);
	param->starting_psn = cm_get(req, CMF_REQ_STARTING_PSN);
	/* the requester's depth is what we respond to, and so on */
	param->responder_resources = cm_get(req, CMF_REQ_INITIATOR_DEPTH);
	param->initiator_depth = cm_get(req, CMF_REQ_RESPONDER_RESOURCES);
	param->local_cm_response_timeout =
		cm_get(req, CMF_REQ_REMOTE_CM_RESP_TIMEOUT);
	param->flow_control = cm_get(req, CMF_REQ_FLOW_CONTROL);
	param->remote_cm_response_timeout =
		cm_get(req, CMF_REQ_LOCAL_CM_RESP_TIMEOUT);
	param->retry_count = cm_get(req, CMF_REQ_RETRY_COUNT);
	param->rnr_retry_count = cm_get(req, CMF_REQ_RNR_RETRY_COUNT);
	param->srq = cm_get(req, CMF_REQ_SRQ);
	param->ppath_sgid_attr = priv->av.ah_attr.grh.sgid_attr;
	param->ece.vendor_id = cm_get(req, CMF_REQ_VENDOR_ID);
	param->ece.attr_mod = be32_to_cpu(req->hdr.attr_mod);
	work->cm_event.private_data = cm_ptr(req, CM_REQ_PRIVATE_OFF);
}

void cm_format_mra(struct cm_msg *mra, struct cm_id_private *priv,
		   enum cm_msg_response msg_mraed, u8 service_timeout,
		   const void *private_data, u8 private_data_len)
{
	cm_format_mad_hdr(&mra->hdr, CM_MRA_ATTR_ID, priv->tid);
	cm_set(mra, CMF_MRA_MESSAGE_MRAED, msg_mraed);
	cm_set(mra, CMF_LOCAL_COMM_ID, be32_to_cpu(priv->id.local_id));
	cm_set(mra, CMF_REMOTE_COMM_ID, be32_to_cpu(priv->id.remote_id));
	cm_set(mra, CMF_MRA_SERVICE_TIMEOUT, service_timeout);
	if (private_data && private_data_len)
		memcpy(cm_ptr(mra, CM_MRA_PRIVATE_OFF), private_data,
		       private_data_len);
}

/*
 * A REJ of @priv, which is (or was, @state) where it rejects from.  A
 * REJ of a REQ received names no local ID (the connection never was).
 */
void cm_format_rej(struct cm_msg *rej, struct cm_id_private *priv,
		   enum ib_cm_rej_reason reason, void *ari, u8 ari_length,
		   const void *private_data, u8 private_data_len,
		   enum ib_cm_state state)
{
	enum cm_msg_response what;
	u32 local_id = be32_to_cpu(priv->id.local_id);

	lockdep_assert_held(&priv->lock);
	cm_format_mad_hdr(&rej->hdr, CM_REJ_ATTR_ID, priv->tid);
	cm_set(rej, CMF_REMOTE_COMM_ID, be32_to_cpu(priv->id.remote_id));
	switch (state) {
	case IB_CM_REQ_RCVD:
		local_id = 0;
		what = CM_MSG_RESPONSE_REQ;
		break;
	case IB_CM_MRA_REQ_SENT:
		what = CM_MSG_RESPONSE_REQ;
		break;
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		what = CM_MSG_RESPONSE_REP;
		break;
	default:
		what = CM_MSG_RESPONSE_OTHER;
		break;
	}
	cm_set(rej, CMF_LOCAL_COMM_ID, local_id);
	cm_set(rej, CMF_REJ_MESSAGE_REJECTED, what);
	cm_set(rej, CMF_REJ_REASON, reason);
	if (ari && ari_length) {
		cm_set(rej, CMF_REJ_INFO_LENGTH, ari_length);
		memcpy(cm_ptr(rej, CM_REJ_ARI_OFF), ari, ari_length);
	}
	if (private_data && private_data_len)
		memcpy(cm_ptr(rej, CM_REJ_PRIVATE_OFF), private_data,
		       private_data_len);
}

/*
 * A REQ for a connection we know already: counted, and answered again
 * when our answer was an MRA (resent) or the connection is in timewait
 * (REJ stale connection).  A REP in flight is resent by the MAD layer.
 */
static void cm_dup_req_handler(struct cm_work *work,
			       struct cm_id_private *priv)
{
	struct ib_mad_send_buf *msg = NULL;

	atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
			[CM_REQ_COUNTER]);

	spin_lock_irq(&priv->lock);
	if (priv->id.state == IB_CM_REQ_RCVD) {
		/* the consumer has not answered yet */
		spin_unlock_irq(&priv->lock);
		return;
	}
	spin_unlock_irq(&priv->lock);

	if (cm_alloc_response_msg(work->port, work->mad_recv_wc, &msg))
		return;

	spin_lock_irq(&priv->lock);
	switch (priv->id.state) {
	case IB_CM_MRA_REQ_SENT:
		cm_format_mra((struct cm_msg *)msg->mad, priv,
			      CM_MSG_RESPONSE_REQ, priv->service_timeout,
			      priv->private_data, priv->private_data_len);
		break;
	case IB_CM_TIMEWAIT:
		cm_format_rej((struct cm_msg *)msg->mad, priv,
			      IB_CM_REJ_STALE_CONN, NULL, 0, NULL, 0,
			      IB_CM_TIMEWAIT);
		break;
	default:
		spin_unlock_irq(&priv->lock);
		cm_free_response_msg(msg);
		return;
	}
	spin_unlock_irq(&priv->lock);
	if (cm_post(msg))
		cm_free_response_msg(msg);
}

/*
 * The listener a new REQ goes to, referenced; NULL when the REQ is a
 * duplicate, comes from a QP we have a connection (or timewait) with
 * (REJ stale connection, and that connection is disconnected), or has
 * no listener (REJ invalid service ID).
 */
static struct cm_id_private *cm_match_req(struct cm_work *work,
					  struct cm_id_private *priv)
{
	struct cm_msg *req = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct cm_id_private *listen, *cur;
	struct cm_timewait_info *tw;

	spin_lock_irq(&ibcm.lock);
	tw = cm_insert_remote_id(priv->timewait_info);
	if (tw) {
		cur = cm_acquire_id(tw->work.local_id, tw->work.remote_id);
		spin_unlock_irq(&ibcm.lock);
		if (cur) {
			cm_dup_req_handler(work, cur);
			cm_deref_id(cur);
		}
		return NULL;
	}

	tw = cm_insert_remote_qpn(priv->timewait_info);
	if (tw) {
		cm_remove_remote(priv);
		cur = cm_acquire_id(tw->work.local_id, tw->work.remote_id);
		spin_unlock_irq(&ibcm.lock);
		cm_issue_rej(work->port, work->mad_recv_wc,
			     IB_CM_REJ_STALE_CONN, CM_MSG_RESPONSE_REQ,
			     NULL, 0);
		if (cur) {
			ib_send_cm_dreq(&cur->id, NULL, 0);
			cm_deref_id(cur);
		}
		return NULL;
	}

	listen = cm_find_listen(priv->id.device,
				cm_get64(req, CM_REQ_SERVICE_ID_OFF));
	if (!listen) {
		cm_remove_remote(priv);
		spin_unlock_irq(&ibcm.lock);
		cm_issue_rej(work->port, work->mad_recv_wc,
			     IB_CM_REJ_INVALID_SERVICE_ID, CM_MSG_RESPONSE_REQ,
			     NULL, 0);
		return NULL;
	}
	spin_unlock_irq(&ibcm.lock);
	return listen;
}

/* A REQ arrived: a new CM ID for the listener, or an answer from the CM */
int cm_req_handler(struct cm_work *work)
{
	struct cm_msg *req = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_wc *wc = work->mad_recv_wc->wc;
	struct cm_id_private *priv, *listen;
	const struct ib_global_route *grh;
	const struct ib_gid_attr *gid_attr;
	bool alt = cm_req_has_alt_path(req);
	int ret;

	priv = cm_alloc_id_priv(work->port->cm_dev->ib_device, NULL, NULL);
	if (IS_ERR(priv))
		return PTR_ERR(priv);

	priv->id.remote_id = cpu_to_be32(cm_get(req, CMF_LOCAL_COMM_ID));
	priv->id.service_id = cm_get64(req, CM_REQ_SERVICE_ID_OFF);
	priv->tid = req->hdr.tid;
	priv->timeout_ms =
		cm_convert_to_ms(cm_get(req, CMF_REQ_LOCAL_CM_RESP_TIMEOUT));
	priv->max_cm_retries = cm_get(req, CMF_REQ_MAX_CM_RETRIES);
	priv->remote_qpn = cpu_to_be32(cm_get(req, CMF_REQ_LOCAL_QPN));
	priv->initiator_depth = cm_get(req, CMF_REQ_RESPONDER_RESOURCES);
	priv->responder_resources = cm_get(req, CMF_REQ_INITIATOR_DEPTH);
	priv->path_mtu = cm_get(req, CMF_REQ_PATH_MTU);
	priv->pkey = cpu_to_be16(cm_get(req, CMF_REQ_PKEY));
	priv->sq_psn = cpu_to_be32(cm_get(req, CMF_REQ_STARTING_PSN));
	priv->retry_count = cm_get(req, CMF_REQ_RETRY_COUNT);
	priv->rnr_retry_count = cm_get(req, CMF_REQ_RNR_RETRY_COUNT);
	priv->qp_type = cm_req_qp_type(req);

	ret = cm_init_av_for_response(work->port, wc,
				      work->mad_recv_wc->recv_buf.grh,
				      &priv->av);
	if (ret)
		goto destroy;
	priv->timewait_info = cm_create_timewait_info(priv->id.local_id);
	if (IS_ERR(priv->timewait_info)) {
		ret = PTR_ERR(priv->timewait_info);
		priv->timewait_info = NULL;
		goto destroy;
	}
	priv->timewait_info->work.remote_id = priv->id.remote_id;
	priv->timewait_info->remote_ca_guid =
		cm_get64(req, CM_REQ_LOCAL_CA_GUID_OFF);
	priv->timewait_info->remote_qpn = priv->remote_qpn;

	/* nobody else sees the CM ID yet */
	cm_set_state(priv, IB_CM_REQ_RCVD);

	listen = cm_match_req(work, priv);
	if (!listen) {
		cm_set_state(priv, IB_CM_IDLE);
		ret = -EINVAL;
		goto destroy;
	}

	memset(&work->path[0], 0, sizeof(work->path[0]) * (1 + alt));
	grh = rdma_ah_read_grh(&priv->av.ah_attr);
	gid_attr = grh->sgid_attr;
	if (priv->av.ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE) {
		work->path[0].rec_type =
			sa_conv_gid_to_pathrec_type(gid_attr->gid_type);
	} else {
		cm_process_routed_req(req, wc);
		work->path[0].rec_type = SA_PATH_REC_TYPE_IB;
	}
	if (alt)
		work->path[1].rec_type = work->path[0].rec_type;
	cm_path_from_req(req, CM_REQ_PRIMARY, &work->path[0], wc, true);
	if (alt)
		cm_path_from_req(req, CM_REQ_ALTERNATE, &work->path[1], wc,
				 false);
	if (priv->av.ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE)
		sa_path_set_dmac(&work->path[0], priv->av.ah_attr.roce.dmac);
	work->path[0].hop_limit = grh->hop_limit;

	/* on success this replaces the answer address made above */
	ret = cm_init_av_by_path(&work->path[0], gid_attr, &priv->av);
	if (ret) {
		if (rdma_query_gid(work->port->cm_dev->ib_device,
				   work->port->port_num, 0,
				   &work->path[0].sgid))
			ib_send_cm_rej(&priv->id, IB_CM_REJ_INVALID_GID, NULL,
				       0, NULL, 0);
		else
			ib_send_cm_rej(&priv->id, IB_CM_REJ_INVALID_GID,
				       &work->path[0].sgid,
				       sizeof(work->path[0].sgid), NULL, 0);
		goto rejected;
	}
	if (priv->av.ah_attr.type == RDMA_AH_ATTR_TYPE_IB)
		priv->av.dlid_datapath =
			cm_get(req, CMF_PATH_LOCAL_LID(CM_REQ_PRIMARY));
	if (alt) {
		ret = cm_init_av_by_path(&work->path[1], NULL, &priv->alt_av);
		if (ret) {
			ib_send_cm_rej(&priv->id, IB_CM_REJ_INVALID_ALT_GID,
				       &work->path[0].sgid,
				       sizeof(work->path[0].sgid), NULL, 0);
			goto rejected;
		}
	}

	priv->id.cm_handler = listen->id.cm_handler;
	priv->id.context = listen->id.context;
	cm_format_req_event(work, priv, &listen->id);

	/* from here received messages find the new CM ID */
	spin_lock_irq(&priv->lock);
	cm_finalize_id(priv);
	/* the event's reference, dropped by cm_process_work() */
	refcount_inc(&priv->refcount);
	cm_queue_work_unlock(priv, work);
	/*
	 * Nobody could queue an event before ours: the handler has seen
	 * the listener by now.
	 */
	cm_deref_id(listen);
	return 0;

rejected:
	cm_deref_id(listen);
destroy:
	ib_destroy_cm_id(&priv->id);
	return ret;
}

/**
 * ib_send_cm_mra - ask the peer to wait longer for our answer
 * @cm_id: a CM ID that received a REQ or a REP (or a LAP)
 * @service_timeout: how long the answer may take (4.096 us * 2^x); with
 *	IB_CM_MRA_FLAG_DELAY the MRA is sent only when the peer resends
 *	its message (a duplicate)
 * @private_data: up to IB_CM_MRA_PRIVATE_DATA_SIZE bytes, or NULL
 * @private_data_len: their length
 *
 * The CM ID moves to MRA_REQ_SENT or MRA_REP_SENT; the peer's timer for
 * its message is extended by @service_timeout.  A duplicate REQ or REP
 * is answered with this MRA again.
 *
 * Context: Process context; may sleep (GFP_KERNEL for the private data).
 * Return: 0; -EINVAL when the private data is too long or the CM ID is
 * not in a state that received a REQ, a REP or a LAP; -ENOMEM; the MAD
 * layer's errno.
 */
int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	enum cm_msg_response what;
	enum ib_cm_lap_state lap_state;
	struct ib_mad_send_buf *msg;
	enum ib_cm_state state;
	unsigned long flags;
	void *data;
	int ret;

	data = cm_copy_private_data(private_data, private_data_len,
				    IB_CM_MRA_PRIVATE_DATA_SIZE);
	if (IS_ERR(data))
		return PTR_ERR(data);

	spin_lock_irqsave(&priv->lock, flags);
	lap_state = cm_id->lap_state;
	switch (cm_id->state) {
	case IB_CM_REQ_RCVD:
		state = IB_CM_MRA_REQ_SENT;
		what = CM_MSG_RESPONSE_REQ;
		break;
	case IB_CM_REP_RCVD:
		state = IB_CM_MRA_REP_SENT;
		what = CM_MSG_RESPONSE_REP;
		break;
	case IB_CM_ESTABLISHED:
		if (cm_id->lap_state == IB_CM_LAP_RCVD) {
			state = cm_id->state;
			lap_state = IB_CM_MRA_LAP_SENT;
			what = CM_MSG_RESPONSE_OTHER;
			break;
		}
		fallthrough;
	default:
		ret = -EINVAL;
		goto unlock;
	}

	if (!(service_timeout & IB_CM_MRA_FLAG_DELAY)) {
		msg = cm_alloc_msg(priv);
		if (IS_ERR(msg)) {
			ret = PTR_ERR(msg);
			goto unlock;
		}
		cm_format_mra((struct cm_msg *)msg->mad, priv, what,
			      service_timeout, private_data,
			      private_data_len);
		ret = cm_post(msg);
		if (ret) {
			cm_free_msg(msg);
			goto unlock;
		}
	}
	cm_set_state(priv, state);
	cm_id->lap_state = lap_state;
	priv->service_timeout = service_timeout;
	cm_set_private_data(priv, data, private_data_len);
	spin_unlock_irqrestore(&priv->lock, flags);
	return 0;

unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
	kfree(data);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_mra);

/* The CM ID an MRA is for, referenced, or NULL */
static struct cm_id_private *cm_acquire_mraed_id(struct cm_msg *mra)
{
	__be32 local = cpu_to_be32(cm_get(mra, CMF_REMOTE_COMM_ID));

	switch (cm_get(mra, CMF_MRA_MESSAGE_MRAED)) {
	case CM_MSG_RESPONSE_REQ:
		/* the REQ's sender does not know the peer's ID yet */
		return cm_acquire_id(local, 0);
	case CM_MSG_RESPONSE_REP:
	case CM_MSG_RESPONSE_OTHER:
		return cm_acquire_id(local,
				     cpu_to_be32(cm_get(mra,
							CMF_LOCAL_COMM_ID)));
	default:
		return NULL;
	}
}

/* An MRA arrived: the message it names waits longer for its answer */
int cm_mra_handler(struct cm_work *work)
{
	struct cm_msg *mra = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	u32 what = cm_get(mra, CMF_MRA_MESSAGE_MRAED);
	struct cm_id_private *priv;
	int timeout;

	priv = cm_acquire_mraed_id(mra);
	if (!priv)
		return -EINVAL;

	work->cm_event.private_data = cm_ptr(mra, CM_MRA_PRIVATE_OFF);
	work->cm_event.param.mra_rcvd.service_timeout =
		cm_get(mra, CMF_MRA_SERVICE_TIMEOUT);
	timeout = cm_convert_to_ms(cm_get(mra, CMF_MRA_SERVICE_TIMEOUT)) +
		  cm_convert_to_ms(priv->av.timeout);

	spin_lock_irq(&priv->lock);
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
		if (what != CM_MSG_RESPONSE_REQ ||
		    ib_modify_mad(priv->msg, timeout))
			goto out;
		cm_set_state(priv, IB_CM_MRA_REQ_RCVD);
		break;
	case IB_CM_REP_SENT:
		if (what != CM_MSG_RESPONSE_REP ||
		    ib_modify_mad(priv->msg, timeout))
			goto out;
		cm_set_state(priv, IB_CM_MRA_REP_RCVD);
		break;
	case IB_CM_ESTABLISHED:
		if (what != CM_MSG_RESPONSE_OTHER ||
		    priv->id.lap_state != IB_CM_LAP_SENT ||
		    ib_modify_mad(priv->msg, timeout)) {
			if (priv->id.lap_state == IB_CM_MRA_LAP_RCVD)
				atomic_long_inc(&work->port->counters
						[CM_RECV_DUPLICATES]
						[CM_MRA_COUNTER]);
			goto out;
		}
		priv->id.lap_state = IB_CM_MRA_LAP_RCVD;
		break;
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_MRA_REP_RCVD:
		atomic_long_inc(&work->port->counters[CM_RECV_DUPLICATES]
				[CM_MRA_COUNTER]);
		fallthrough;
	default:
		goto out;
	}
	/* a timeout now happens in the new state */
	priv->msg->context[1] = (void *)(unsigned long)priv->id.state;
	cm_queue_work_unlock(priv, work);
	return 0;
out:
	spin_unlock_irq(&priv->lock);
	cm_deref_id(priv);
	return -EINVAL;
}

/* Send a REJ from @priv's state; its lock is held */
int cm_send_rej_locked(struct cm_id_private *priv,
		       enum ib_cm_rej_reason reason, void *ari, u8 ari_length,
		       const void *private_data, u8 private_data_len)
{
	enum ib_cm_state state = priv->id.state;
	struct ib_mad_send_buf *msg;
	int ret;

	lockdep_assert_held(&priv->lock);
	if ((private_data && private_data_len > IB_CM_REJ_PRIVATE_DATA_SIZE) ||
	    (ari && ari_length > IB_CM_REJ_ARI_LENGTH))
		return -EINVAL;

	switch (state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		cm_reset_to_idle(priv);
		break;
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		cm_enter_timewait(priv);
		break;
	default:
		return -EINVAL;
	}
	msg = cm_alloc_msg(priv);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	cm_format_rej((struct cm_msg *)msg->mad, priv, reason, ari, ari_length,
		      private_data, private_data_len, state);
	ret = cm_post(msg);
	if (ret)
		cm_free_msg(msg);
	return ret;
}

/**
 * ib_send_cm_rej - refuse a connection
 * @cm_id: a CM ID setting a connection up (a REQ or REP sent or
 *	received)
 * @reason: why (enum ib_cm_rej_reason)
 * @ari: additional rejection information, up to IB_CM_REJ_ARI_LENGTH
 *	bytes, or NULL
 * @ari_length: its length
 * @private_data: up to IB_CM_REJ_PRIVATE_DATA_SIZE bytes, or NULL
 * @private_data_len: their length
 *
 * The CM ID becomes IDLE, or enters timewait when its REP was sent (the
 * peer's QP may have seen ours).
 *
 * Context: Any context; takes spinlocks, allocates with GFP_ATOMIC.
 * Return: 0; -EINVAL when the CM ID is established or idle, or the ARI
 * or private data are too long; -ENOMEM; the MAD layer's errno.
 */
int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&priv->lock, flags);
	ret = cm_send_rej_locked(priv, reason, ari, ari_length, private_data,
				 private_data_len);
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rej);

/*
 * The CM ID a REJ is for, referenced, or NULL.  A REJ with reason
 * timeout names the rejected connection by our CA GUID in its ARI and
 * the peer's ID; a REJ of our REQ does not know our peer's ID yet.
 */
static struct cm_id_private *cm_acquire_rejected_id(struct cm_msg *rej)
{
	__be32 remote_id = cpu_to_be32(cm_get(rej, CMF_LOCAL_COMM_ID));
	__be32 local_id = cpu_to_be32(cm_get(rej, CMF_REMOTE_COMM_ID));

	if (cm_get(rej, CMF_REJ_REASON) == IB_CM_REJ_TIMEOUT)
		return cm_find_remote_id(cm_get64(rej, CM_REJ_ARI_OFF),
					 remote_id);
	if (cm_get(rej, CMF_REJ_MESSAGE_REJECTED) == CM_MSG_RESPONSE_REQ)
		return cm_acquire_id(local_id, 0);
	return cm_acquire_id(local_id, remote_id);
}

/* A REJ arrived; one for no connection of ours is ignored */
int cm_rej_handler(struct cm_work *work)
{
	struct cm_msg *rej = (struct cm_msg *)work->mad_recv_wc->recv_buf.mad;
	struct ib_cm_rej_event_param *param = &work->cm_event.param.rej_rcvd;
	struct cm_id_private *priv;

	priv = cm_acquire_rejected_id(rej);
	if (!priv)
		return -EINVAL;

	param->ari = cm_ptr(rej, CM_REJ_ARI_OFF);
	param->ari_length = cm_get(rej, CMF_REJ_INFO_LENGTH);
	param->reason = cm_get(rej, CMF_REJ_REASON);
	work->cm_event.private_data = cm_ptr(rej, CM_REJ_PRIVATE_OFF);

	spin_lock_irq(&priv->lock);
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
		ib_cancel_mad(priv->msg);
		fallthrough;
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
		if (param->reason == IB_CM_REJ_STALE_CONN)
			cm_enter_timewait(priv);
		else
			cm_reset_to_idle(priv);
		break;
	case IB_CM_DREQ_SENT:
		ib_cancel_mad(priv->msg);
		fallthrough;
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
		cm_enter_timewait(priv);
		break;
	case IB_CM_ESTABLISHED:
		if (priv->id.lap_state == IB_CM_LAP_UNINIT ||
		    priv->id.lap_state == IB_CM_LAP_SENT) {
			if (priv->id.lap_state == IB_CM_LAP_SENT)
				ib_cancel_mad(priv->msg);
			cm_enter_timewait(priv);
			break;
		}
		fallthrough;
	default:
		spin_unlock_irq(&priv->lock);
		cm_deref_id(priv);
		return -EINVAL;
	}
	cm_queue_work_unlock(priv, work);
	return 0;
}
