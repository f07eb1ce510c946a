// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm over InfiniBand and RoCE: the IB CM (connections, SIDR) and the
 * SA (IB routes, multicast), as struct cma_transport cma_ib_transport.
 * The IB CM does not exist yet in this tree (include/rdma/ib_cm.h
 * declares its API, no module implements it); the SA client does
 * (core/ib_core/sa/sa_*.c: ib_sa_path_rec_get(), ib_sa_join_multicast()),
 * but nothing here calls it yet.  So every connection call below refuses
 * with -EOPNOTSUPP, in this one file; the IB CM issue fills them in.
 * What IB and RoCE ids can do without them: binding, address resolution,
 * the RoCE route (cma_roce_resolve_route(), cma_resolve.c), QP creation
 * and the INIT attributes (here).
 *
 * The texts of the IB CM reject reasons (IBTA 12.6.7.2, Table 112, the
 * values of enum ib_cm_rej_reason) are kept here until the IB CM's
 * ibcm_reject_msg() exists.
 */

#include <linux/if_arp.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_cm_ib.h>

#include "cma_priv.h"

static int cma_ib_listen(struct rdma_id_private *id_priv)
{
	return -EOPNOTSUPP;
}

static int cma_ib_connect(struct rdma_id_private *id_priv,
			  struct rdma_conn_param *conn_param)
{
	return -EOPNOTSUPP;
}

static int cma_ib_accept(struct rdma_id_private *id_priv,
			 struct rdma_conn_param *conn_param)
{
	return -EOPNOTSUPP;
}

static int cma_ib_reject(struct rdma_id_private *id_priv,
			 const void *private_data, u8 private_data_len,
			 u8 reason)
{
	return -EOPNOTSUPP;
}

/* The QP goes to the error state first, then the DREQ (or DREP). */
static int cma_ib_disconnect(struct rdma_id_private *id_priv)
{
	cma_modify_qp_err(id_priv);
	return -EOPNOTSUPP;
}

static int cma_ib_notify(struct rdma_id_private *id_priv,
			 enum ib_event_type event)
{
	return -EOPNOTSUPP;
}

/* RoCE: computed from the resolved address; IB: a path record query. */
static int cma_ib_resolve_route(struct rdma_id_private *id_priv,
				unsigned long timeout_ms)
{
	struct rdma_cm_id *id = &id_priv->id;

	if (rdma_protocol_roce(id->device, id->port_num))
		return cma_roce_resolve_route(id_priv);
	return -EOPNOTSUPP;
}

static int cma_ib_join_multicast(struct rdma_id_private *id_priv,
				 struct sockaddr *addr, u8 join_state,
				 void *context)
{
	return -EOPNOTSUPP;
}

/* Before the IB CM took over (or for UD): the INIT attributes. */
static int cma_ib_init_qp_attr_noconn(struct rdma_id_private *id_priv,
				      struct ib_qp_attr *qp_attr,
				      int *qp_attr_mask)
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

static int cma_ib_init_qp_attr(struct rdma_id_private *id_priv,
			       struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	int ret;

	if (!id_priv->cm_id.iw || id_priv->id.qp_type == IB_QPT_UD)
		ret = cma_ib_init_qp_attr_noconn(id_priv, qp_attr,
						 qp_attr_mask);
	else
		ret = -EOPNOTSUPP;	/* ib_cm_init_qp_attr() */
	if (qp_attr->qp_state == IB_QPS_RTR)
		qp_attr->rq_psn = id_priv->seq_num;
	return ret;
}

/* Nothing to destroy: no IB CM id is ever made yet. */
static void cma_ib_destroy(struct rdma_id_private *id_priv)
{
}

static const char * const cma_ib_rej_reasons[] = {
	[1]  = "no QP",
	[2]  = "no EEC",
	[3]  = "no resources",
	[4]  = "timeout",
	[5]  = "unsupported request",
	[6]  = "invalid comm ID",
	[7]  = "invalid comm instance",
	[8]  = "invalid service ID",
	[9]  = "invalid transport type",
	[10] = "stale connection",
	[11] = "RDC does not exist",
	[12] = "invalid GID",
	[13] = "invalid LID",
	[14] = "invalid SL",
	[15] = "invalid traffic class",
	[16] = "invalid hop limit",
	[17] = "invalid packet rate",
	[18] = "invalid alternate GID",
	[19] = "invalid alternate LID",
	[20] = "invalid alternate SL",
	[21] = "invalid alternate traffic class",
	[22] = "invalid alternate hop limit",
	[23] = "invalid alternate packet rate",
	[24] = "port CM redirect",
	[25] = "port redirect",
	[26] = "invalid MTU",
	[27] = "insufficient responder resources",
	[28] = "consumer defined",
	[29] = "invalid RNR retry",
	[30] = "duplicate local comm ID",
	[31] = "invalid class version",
	[32] = "invalid flow label",
	[33] = "invalid alternate flow label",
	[35] = "vendor option not supported",
};

/* The text of an IB CM reject reason (ibcm_reject_msg() until merge). */
static const char *cma_ib_reject_msg(int reason)
{
	if (reason > 0 && reason < ARRAY_SIZE(cma_ib_rej_reasons) &&
	    cma_ib_rej_reasons[reason])
		return cma_ib_rej_reasons[reason];
	return "unrecognized reason";
}

static bool cma_ib_consumer_reject(int reason)
{
	return reason == IB_CM_REJ_CONSUMER_DEFINED;
}

const struct cma_transport cma_ib_transport = {
	.name		 = "ib_cm",
	.listen		 = cma_ib_listen,
	.connect	 = cma_ib_connect,
	.accept		 = cma_ib_accept,
	.reject		 = cma_ib_reject,
	.disconnect	 = cma_ib_disconnect,
	.init_qp_attr	 = cma_ib_init_qp_attr,
	.notify		 = cma_ib_notify,
	.destroy	 = cma_ib_destroy,
	.resolve_route	 = cma_ib_resolve_route,
	.join_multicast	 = cma_ib_join_multicast,
	.reject_msg	 = cma_ib_reject_msg,
	.consumer_reject = cma_ib_consumer_reject,
};
