/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-QP statistics counters (core/ib_core/counters.c): a counter is a set
 * of hardware counters (struct rdma_hw_stats) that QPs of one port are
 * bound to, automatically by criteria (RDMA_COUNTER_MODE_AUTO) or by the
 * user (RDMA_COUNTER_MODE_MANUAL), through "rdma statistic qp".
 * Documentation/core/counters.rst has the rules.
 */
#ifndef RDMA_COUNTER_H
#define RDMA_COUNTER_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <rdma/restrack.h>
#include <uapi/rdma/rdma_netlink.h>

struct ib_device;
struct ib_qp;
struct netlink_ext_ack;
struct rdma_hw_stats;

/* What an automatic counter's QPs share (enum rdma_nl_counter_mask). */
struct auto_mode_param {
	int qp_type;
};

/**
 * struct rdma_counter_mode - how QPs come to a counter
 * @mode: none, automatic or manual
 * @mask: the criteria of automatic mode (enum rdma_nl_counter_mask)
 * @param: the values of those criteria a counter's QPs have
 */
struct rdma_counter_mode {
	enum rdma_nl_counter_mode mode;
	enum rdma_nl_counter_mask mask;
	struct auto_mode_param param;
};

/**
 * struct rdma_port_counter - the counters of one port
 * @mode: the port's mode; changed under @lock
 * @hstats: what the port's counters that existed counted before they were
 *	freed (added to the port's own values when those are shown), NULL
 *	when the driver has no port counters; its values under @lock
 * @num_counters: counters of the port that exist; under @lock
 * @lock: protects @mode, @num_counters and the values of @hstats
 */
struct rdma_port_counter {
	struct rdma_counter_mode mode;
	struct rdma_hw_stats *hstats;
	unsigned int num_counters;
	struct mutex lock;	/* see above */
};

/**
 * struct rdma_counter - a counter QPs are bound to
 * @res: its restrack entry (type RDMA_RESTRACK_COUNTER), whose ID is @id
 * @device: the device
 * @id: the counter's number on @device
 * @kref: one reference per bound QP (and during a lookup); the last put
 *	frees the counter
 * @mode: how its QPs were bound, with their criteria in automatic mode
 * @lock: serialises the driver's bind, unbind and update ops of the
 *	counter
 * @stats: its values, allocated by ops.counter_alloc_stats
 * @port: the port of its QPs
 */
struct rdma_counter {
	struct rdma_restrack_entry	res;
	struct ib_device		*device;
	u32				id;
	struct kref			kref;
	struct rdma_counter_mode	mode;
	struct mutex			lock;	/* see above */
	struct rdma_hw_stats		*stats;
	u32				port;
};

void rdma_counter_init(struct ib_device *dev);
void rdma_counter_release(struct ib_device *dev);
int rdma_counter_set_auto_mode(struct ib_device *dev, u32 port,
			       enum rdma_nl_counter_mask mask,
			       struct netlink_ext_ack *extack);
int rdma_counter_bind_qp_auto(struct ib_qp *qp, u32 port);
int rdma_counter_unbind_qp(struct ib_qp *qp, bool force);

int rdma_counter_query_stats(struct rdma_counter *counter);
u64 rdma_counter_get_hwstat_value(struct ib_device *dev, u32 port, u32 index);
int rdma_counter_bind_qpn(struct ib_device *dev, u32 port,
			  u32 qp_num, u32 counter_id);
int rdma_counter_bind_qpn_alloc(struct ib_device *dev, u32 port,
				u32 qp_num, u32 *counter_id);
int rdma_counter_unbind_qpn(struct ib_device *dev, u32 port,
			    u32 qp_num, u32 counter_id);
int rdma_counter_get_mode(struct ib_device *dev, u32 port,
			  enum rdma_nl_counter_mode *mode,
			  enum rdma_nl_counter_mask *mask);
int rdma_counter_modify(struct ib_device *dev, u32 port,
			unsigned int index, bool enable);

#endif /* RDMA_COUNTER_H */
