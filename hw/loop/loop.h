/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_loop: an RDMA device without hardware whose QPs deliver to QPs of
 * the loop devices of the same host, built on rdmavt.
 */
#ifndef RDMA_LOOP_H
#define RDMA_LOOP_H

#include <rdma/rdma_vt.h>

/**
 * struct loop_dev - one loop device
 * @rdi: the rdmavt device, first
 * @list: entry in the list of loop devices (RCU)
 * @linked: @list is on the list; under the driver's loop_mutex
 * @lid: LID of its single port, unique among the loop devices
 * @port: rdmavt's state of that port (multicast groups)
 * @reap: queued by the dealloc hook; tells module exit when the
 *	device's unregistration, rdmavt's teardown included, is over
 */
struct loop_dev {
	struct rvt_dev_info	rdi;
	struct list_head	list;
	bool			linked;
	u32			lid;
	struct rvt_ibport	port;
	struct work_struct	reap;
};

/**
 * struct rdma_loop_conn - the peer of a connected loop QP and the terms
 * @dqpn: the peer QP's number
 * @dlid: the LID of the peer's port (rdma_loop_port_lid())
 * @access: remote access the peer gets (IB_ACCESS_REMOTE_*)
 * @rd_atomic: RDMA READs and atomics outstanding, each way (0: 1)
 * @rnr_retry: RNR retries, 7 for ever
 * @mtu: path MTU (0: IB_MTU_4096)
 */
struct rdma_loop_conn {
	u32		dqpn;
	u32		dlid;
	int		access;
	u8		rd_atomic;
	u8		rnr_retry;
	enum ib_mtu	mtu;
};

struct loop_dev *rdma_loop_add_device(const char *name);
void rdma_loop_remove_device(struct loop_dev *ldev);
u32 rdma_loop_port_lid(struct ib_device *dev);
int rdma_loop_connect_qp(struct ib_qp *qp, const struct rdma_loop_conn *conn,
			 enum ib_qp_state stop);

#endif /* RDMA_LOOP_H */
