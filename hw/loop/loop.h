/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_loop: an RDMA device without hardware whose QPs deliver to QPs of
 * the loop devices of the same host, built on rdmavt.  The driver's own
 * header; what other modules use is in <rdma/rdma_loop.h>.
 */
#ifndef RDMA_LOOP_LOOP_H
#define RDMA_LOOP_LOOP_H

#include <rdma/rdma_loop.h>
#include <rdma/rdma_vt.h>

/**
 * struct loop_dev - one loop device
 * @rdi: the rdmavt device, first
 * @list: entry in the list of loop devices (RCU)
 * @linked: @list is on the list; under the driver's loop_mutex
 * @lid: the LID the driver gave its single port, unique among the loop
 *	devices: the port's LID while no subnet manager assigns another
 *	(and the node GUID's middle bits)
 * @port: rdmavt's state of that port (management state, multicast
 *	groups)
 * @reap: queued by the dealloc hook; tells module exit when the
 *	device's unregistration, rdmavt's teardown included, is over
 * @sw_port: the switch port that port 1 is cabled to, 0 for none; set
 *	before registration and cleared in the dealloc hook, under
 *	loop_mutex
 */
struct loop_dev {
	struct rvt_dev_info	rdi;
	struct list_head	list;
	bool			linked;
	u32			lid;
	struct rvt_ibport	port;
	struct work_struct	reap;
	u32			sw_port;
};

#if IS_ENABLED(CONFIG_KUNIT)
/* loop.c, for the KUnit suite of the switch */
void rdma_loop_switch_reset(void);
#endif

#endif /* RDMA_LOOP_LOOP_H */
