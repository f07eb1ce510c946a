// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_cm over InfiniBand and RoCE: the IB CM (connections, SIDR) and the
 * SA (IB routes, multicast).  The IB CM does not exist yet in this tree
 * (include/rdma/ib_cm.h declares its API, no module implements it); the
 * SA client does (core/ib_core/sa/sa_*.c: ib_sa_path_rec_get(),
 * ib_sa_join_multicast()), but nothing here calls it yet.  So every call
 * below refuses with -EOPNOTSUPP, in this one file; the IB CM issue fills
 * them in.  What IB and RoCE ids can do without them (binding, address
 * resolution, the RoCE route, QP creation and the INIT attributes) lives
 * in the other files.
 *
 * The texts of the IB CM reject reasons (IBTA 12.6.7.2, Table 112, the
 * values of enum ib_cm_rej_reason) are kept here until the IB CM's
 * ibcm_reject_msg() exists.
 */

#include "cma_priv.h"

int cma_ib_listen(struct rdma_id_private *id_priv)
{
	return -EOPNOTSUPP;
}

int cma_ib_connect(struct rdma_id_private *id_priv,
		   struct rdma_conn_param *conn_param)
{
	return -EOPNOTSUPP;
}

int cma_ib_accept(struct rdma_id_private *id_priv,
		  struct rdma_conn_param *conn_param)
{
	return -EOPNOTSUPP;
}

int cma_ib_reject(struct rdma_id_private *id_priv, const void *private_data,
		  u8 private_data_len, u8 reason)
{
	return -EOPNOTSUPP;
}

int cma_ib_disconnect(struct rdma_id_private *id_priv)
{
	return -EOPNOTSUPP;
}

int cma_ib_notify(struct rdma_id_private *id_priv, enum ib_event_type event)
{
	return -EOPNOTSUPP;
}

int cma_ib_resolve_route(struct rdma_id_private *id_priv,
			 unsigned long timeout_ms)
{
	return -EOPNOTSUPP;
}

int cma_ib_join_multicast(struct rdma_id_private *id_priv,
			  struct sockaddr *addr, u8 join_state, void *context)
{
	return -EOPNOTSUPP;
}

int cma_ib_init_qp_attr_cm(struct rdma_id_private *id_priv,
			   struct ib_qp_attr *qp_attr, int *qp_attr_mask)
{
	return -EOPNOTSUPP;
}

/* Nothing to destroy: no IB CM id is ever made yet. */
void cma_ib_destroy_cm(struct rdma_id_private *id_priv)
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
const char *cma_ib_reject_msg(int reason)
{
	if (reason > 0 && reason < ARRAY_SIZE(cma_ib_rej_reasons) &&
	    cma_ib_rej_reasons[reason])
		return cma_ib_rej_reasons[reason];
	return "unrecognized reason";
}

bool cma_ib_is_consumer_reject(int reason)
{
	return reason == IB_CM_REJ_CONSUMER_DEFINED;
}
