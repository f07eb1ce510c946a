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
 */
struct loop_dev {
	struct rvt_dev_info	rdi;
	struct list_head	list;
	bool			linked;
	u32			lid;
	struct rvt_ibport	port;
};

struct loop_dev *rdma_loop_add_device(const char *name);
void rdma_loop_remove_device(struct loop_dev *ldev);

#endif /* RDMA_LOOP_H */
