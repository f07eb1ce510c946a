// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP of an iWARP connection: bound by number at connect/accept
 * (the driver's iw_get_qp), held with the driver's iw_add_ref until the
 * connection ends, moved to SQD (graceful close) or ERROR (reset,
 * destroy).  The driver moves it to RTS when the stream is up; the
 * consumer's own moves take their attributes from iw_cm_init_qp_attr().
 */
#include <linux/export.h>

#include "iwcm.h"

/**
 * iwcm_qp_bind - find the QP @qpn and bind it to the id
 * @priv: the id, inside a connect or accept call
 * @qpn: the QP number the consumer gave
 *
 * Return: the QP, now held by the id, or NULL when the device has no
 * such QP.
 */
struct ib_qp *iwcm_qp_bind(struct iwcm_id_private *priv, u32 qpn)
{
	struct ib_device *device = priv->id.device;
	unsigned long flags;
	struct ib_qp *qp;

	qp = device->ops.iw_get_qp(device, qpn);
	if (!qp)
		return NULL;
	device->ops.iw_add_ref(qp);
	spin_lock_irqsave(&priv->lock, flags);
	WARN_ON_ONCE(priv->qp);
	priv->qp = qp;
	spin_unlock_irqrestore(&priv->lock, flags);
	return qp;
}

/**
 * iwcm_qp_put - drop a reference the id held on a QP
 * @priv: the id
 * @qp: the QP, already taken out of @priv->qp (or an extra reference)
 */
void iwcm_qp_put(struct iwcm_id_private *priv, struct ib_qp *qp)
{
	priv->id.device->ops.iw_rem_ref(qp);
}

/**
 * iwcm_qp_move - move a connection's QP to another state
 * @qp: the QP
 * @state: IB_QPS_SQD (graceful close) or IB_QPS_ERR (reset)
 *
 * Return: what ib_modify_qp() returned; the callers do not care (the
 * other end may have moved it already).
 */
int iwcm_qp_move(struct ib_qp *qp, enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };

	return ib_modify_qp(qp, &attr, IB_QP_STATE);
}

/**
 * iw_cm_init_qp_attr - attributes for moving a connection's QP
 * @cm_id: the id
 * @qp_attr: @qp_state in: IB_QPS_INIT, IB_QPS_RTR or IB_QPS_RTS; the
 *	attributes out
 * @qp_attr_mask: out: which attributes to give ib_modify_qp()
 *
 * INIT and RTR: the state and the access flags (remote write and
 * read); RTS: nothing (the driver moves the QP itself when the stream
 * is up).  Only for ids in IDLE, CONN_SENT, CONN_RECV or ESTABLISHED.
 *
 * Context: any; takes the id's lock.
 * Return: 0, or -EINVAL for another @qp_state or another id state.
 */
int iw_cm_init_qp_attr(struct iw_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&priv->lock, flags);
	switch (priv->state) {
	case IW_CM_STATE_IDLE:
	case IW_CM_STATE_CONN_SENT:
	case IW_CM_STATE_CONN_RECV:
	case IW_CM_STATE_ESTABLISHED:
		break;
	default:
		ret = -EINVAL;
		goto out;
	}
	switch (qp_attr->qp_state) {
	case IB_QPS_INIT:
	case IB_QPS_RTR:
		*qp_attr_mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS;
		qp_attr->qp_access_flags = IB_ACCESS_REMOTE_WRITE |
					   IB_ACCESS_REMOTE_READ;
		break;
	case IB_QPS_RTS:
		*qp_attr_mask = 0;
		break;
	default:
		ret = -EINVAL;
		break;
	}
out:
	spin_unlock_irqrestore(&priv->lock, flags);
	return ret;
}
EXPORT_SYMBOL(iw_cm_init_qp_attr);
