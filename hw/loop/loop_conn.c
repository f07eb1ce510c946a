// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_loop: connecting QPs of loop devices for tests and benchmarks.
 *
 * Loop devices have no connection manager yet, so the KUnit suites that
 * use the loop fabric move their RC and UC QPs through INIT, RTR and RTS
 * by hand; this is the one place that knows which attributes each step
 * needs.  (The verbs benchmark does the same with the public API only,
 * so that one source runs on upstream's stack too.)
 */

#include <rdma/ib_verbs.h>

#include "loop.h"

/**
 * rdma_loop_port_lid - the current LID of port 1 of a device
 * @dev: the device
 *
 * Context: Process context; may sleep (ib_query_port()).
 *
 * Return: the port's base LID (the driver's, or what a subnet manager
 * set), or 0 when the port has none yet or cannot be queried.
 */
u32 rdma_loop_port_lid(struct ib_device *dev)
{
	struct ib_port_attr pa;

	if (ib_query_port(dev, 1, &pa))
		return 0;
	return pa.lid;
}
EXPORT_SYMBOL(rdma_loop_port_lid);

/**
 * rdma_loop_connect_qp - move a connected QP towards its peer
 * @qp: an RC or UC QP in RESET, on port 1
 * @conn: the peer and the connection's parameters
 * @stop: the state to stop in: IB_QPS_INIT, IB_QPS_RTR or IB_QPS_RTS
 *
 * RC-only attributes (RDMA READ and atomic depths, timeouts, retries)
 * are left out for UC QPs.  A zero @conn->rd_atomic means 1 and a zero
 * @conn->mtu means IB_MTU_4096.
 *
 * Context: Process context; sleeps (up to three ib_modify_qp() calls). The
 * caller serialises modifications of @qp.
 *
 * Return: 0 or the error of the ib_modify_qp() that failed.
 */
int rdma_loop_connect_qp(struct ib_qp *qp, const struct rdma_loop_conn *conn,
			 enum ib_qp_state stop)
{
	bool rc = qp->qp_type == IB_QPT_RC;
	u8 depth = conn->rd_atomic ?: 1;
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = conn->access,
	};
	int ret;

	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret || stop == IB_QPS_INIT)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = conn->mtu ?: IB_MTU_4096;
	a.dest_qp_num = conn->dqpn;
	a.max_dest_rd_atomic = depth;
	a.min_rnr_timer = 1;
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&a.ah_attr, conn->dlid);
	rdma_ah_set_port_num(&a.ah_attr, 1);
	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   (rc ? IB_QP_MAX_DEST_RD_ATOMIC |
				 IB_QP_MIN_RNR_TIMER : 0));
	if (ret || stop == IB_QPS_RTR)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = conn->rnr_retry;
	a.max_rd_atomic = depth;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_SQ_PSN |
			    (rc ? IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
				  IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC :
				  0));
}
EXPORT_SYMBOL(rdma_loop_connect_qp);
