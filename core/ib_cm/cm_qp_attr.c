// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP attributes a connection asks for, for each step of the QP to
 * RTS: what the REQ and REP agreed (QP numbers, PSNs, depths, retries)
 * and the paths (address, MTU, timeouts) the CM ID holds.
 */

#include "cm_priv.h"

/* INIT: port, P_Key index and remote access */
static int cm_init_qp_init_attr(struct cm_id_private *priv,
				struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	struct ib_device *dev = priv->id.device;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&priv->lock, flags);
	switch (priv->id.state) {
	case IB_CM_REQ_SENT:
	case IB_CM_MRA_REQ_RCVD:
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
	case IB_CM_ESTABLISHED:
		*qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS |
				IB_QP_PKEY_INDEX | IB_QP_PORT;
		qp_attr->qp_access_flags = IB_ACCESS_REMOTE_WRITE;
		if (priv->responder_resources) {
			qp_attr->qp_access_flags |= IB_ACCESS_REMOTE_READ |
						    IB_ACCESS_REMOTE_ATOMIC;
			if (dev->attrs.device_cap_flags &
			    (IB_DEVICE_FLUSH_GLOBAL |
			     IB_DEVICE_FLUSH_PERSISTENT))
				qp_attr->qp_access_flags |=
					IB_ACCESS_FLUSH_GLOBAL |
					IB_ACCESS_FLUSH_PERSISTENT;
		}
		qp_attr->pkey_index = priv->av.pkey_index;
		if (priv->av.port)
			qp_attr->port_num = priv->av.port->port_num;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}

/*
 * The alternate path into @qp_attr (its port only when the path has one:
 * a LAP's path may come without).  Called under priv->lock.
 */
static void cm_copy_alt_path(const struct cm_id_private *priv,
			     struct ib_qp_attr *qp_attr)
{
	if (priv->alt_av.port)
		qp_attr->alt_port_num = priv->alt_av.port->port_num;
	qp_attr->alt_pkey_index = priv->alt_av.pkey_index;
	qp_attr->alt_timeout = priv->alt_av.timeout;
	qp_attr->alt_ah_attr = priv->alt_av.ah_attr;
}

/* RTR: the peer's address and QP, our receive PSN, the path MTU */
static int cm_init_qp_rtr_attr(struct cm_id_private *priv,
			       struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&priv->lock, flags);
	switch (priv->id.state) {
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
	case IB_CM_ESTABLISHED:
		*qp_attr_mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
				IB_QP_DEST_QPN | IB_QP_RQ_PSN;
		/* a copy without a reference of its own, as upstream's */
		qp_attr->ah_attr = priv->av.ah_attr;
		if (qp_attr->ah_attr.type == RDMA_AH_ATTR_TYPE_IB &&
		    priv->av.dlid_datapath &&
		    priv->av.dlid_datapath != 0xffff)
			qp_attr->ah_attr.ib.dlid = priv->av.dlid_datapath;
		qp_attr->path_mtu = priv->path_mtu;
		qp_attr->dest_qp_num = be32_to_cpu(priv->remote_qpn);
		qp_attr->rq_psn = be32_to_cpu(priv->rq_psn);
		if (priv->qp_type == IB_QPT_RC ||
		    priv->qp_type == IB_QPT_XRC_TGT) {
			*qp_attr_mask |= IB_QP_MAX_DEST_RD_ATOMIC |
					 IB_QP_MIN_RNR_TIMER;
			qp_attr->max_dest_rd_atomic =
				priv->responder_resources;
			qp_attr->min_rnr_timer = 0;
		}
		if (rdma_ah_get_dlid(&priv->alt_av.ah_attr) &&
		    priv->alt_av.port) {
			*qp_attr_mask |= IB_QP_ALT_PATH;
			cm_copy_alt_path(priv, qp_attr);
		}
		break;
	default:
		ret = -EINVAL;
		break;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}

/* RTS: our send PSN, the ACK timeout and retries, the initiator depth */
static int cm_init_qp_rts_attr(struct cm_id_private *priv,
			       struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&priv->lock, flags);
	switch (priv->id.state) {
	/* the passive side may go to RTS before it sends its REP */
	case IB_CM_REQ_RCVD:
	case IB_CM_MRA_REQ_SENT:
	case IB_CM_REP_RCVD:
	case IB_CM_MRA_REP_SENT:
	case IB_CM_REP_SENT:
	case IB_CM_MRA_REP_RCVD:
	case IB_CM_ESTABLISHED:
		if (priv->id.lap_state != IB_CM_LAP_UNINIT) {
			/* a LAP was taken: only the alternate path changes */
			*qp_attr_mask = IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE;
			cm_copy_alt_path(priv, qp_attr);
			qp_attr->path_mig_state = IB_MIG_REARM;
			break;
		}
		*qp_attr_mask = IB_QP_STATE | IB_QP_SQ_PSN;
		qp_attr->sq_psn = be32_to_cpu(priv->sq_psn);
		switch (priv->qp_type) {
		case IB_QPT_RC:
		case IB_QPT_XRC_INI:
			*qp_attr_mask |= IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
					 IB_QP_MAX_QP_RD_ATOMIC;
			qp_attr->retry_cnt = priv->retry_count;
			qp_attr->rnr_retry = priv->rnr_retry_count;
			qp_attr->max_rd_atomic = priv->initiator_depth;
			fallthrough;
		case IB_QPT_XRC_TGT:
			*qp_attr_mask |= IB_QP_TIMEOUT;
			qp_attr->timeout = priv->av.timeout;
			break;
		default:
			break;
		}
		if (rdma_ah_get_dlid(&priv->alt_av.ah_attr)) {
			*qp_attr_mask |= IB_QP_PATH_MIG_STATE;
			qp_attr->path_mig_state = IB_MIG_REARM;
		}
		break;
	default:
		ret = -EINVAL;
		break;
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}

/**
 * ib_cm_init_qp_attr - the QP attributes for the next step to RTS
 * @cm_id: a CM ID in a connection (REQ sent or received, or later)
 * @qp_attr: @qp_attr->qp_state says which step (IB_QPS_INIT, IB_QPS_RTR
 *	or IB_QPS_RTS); the attributes of that step are filled in
 * @qp_attr_mask: set to the mask to pass to ib_modify_qp() with
 *	@qp_attr
 *
 * INIT: port, P_Key index and remote access (reads and atomics when the
 * peer may issue them).  RTR: the primary path's address, the path MTU,
 * the peer's QP, the receive PSN and, for RC, the responder resources;
 * the alternate path when there is one.  RTS: the send PSN and, for RC,
 * the ACK timeout, retry counts and initiator depth.  The address in
 * RTR's @qp_attr->ah_attr holds no reference of its own: use it before
 * the CM ID goes.
 *
 * Context: Any context; takes the CM ID's spinlock.
 * Return: 0; -EINVAL for another QP state, or a CM ID whose state does
 * not allow the step (RTR and RTS need the peer's REQ or REP).
 */
int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	struct cm_id_private *priv = container_of(cm_id, struct cm_id_private,
						  id);

	switch (qp_attr->qp_state) {
	case IB_QPS_INIT:
		return cm_init_qp_init_attr(priv, qp_attr, qp_attr_mask);
	case IB_QPS_RTR:
		return cm_init_qp_rtr_attr(priv, qp_attr, qp_attr_mask);
	case IB_QPS_RTS:
		return cm_init_qp_rts_attr(priv, qp_attr, qp_attr_mask);
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL(ib_cm_init_qp_attr);
