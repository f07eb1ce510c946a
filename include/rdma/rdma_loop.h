/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rdma_loop: what the loopback driver (hw/loop, module rdma_loop) offers
 * other kernel modules.  Loop devices have no connection manager, so
 * their in-kernel users (the KUnit suites, the verbs benchmark) make
 * devices of their own and connect RC and UC QPs by hand with these.
 *
 * This header is not upstream API: there is no rdma_loop upstream.
 */
#ifndef RDMA_LOOP_H
#define RDMA_LOOP_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

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

/* Flags of rdma_loop_add_device_flags() */
enum {
	/* the port waits for a subnet manager: INIT, LID 0, SM LID 0 */
	RDMA_LOOP_MANAGED	= 1 << 0,
	/* memory windows (rdmavt's; for the suites: no provider binds them) */
	RDMA_LOOP_MEM_WINDOWS	= 1 << 1,
};

struct ib_device *rdma_loop_add_device(const char *name);
struct ib_device *rdma_loop_add_device_flags(const char *name,
					     unsigned int flags);
void rdma_loop_remove_device(struct ib_device *dev);
u32 rdma_loop_port_lid(struct ib_device *dev);
u32 rdma_loop_switch_port(struct ib_device *dev);
/* What becomes of a GMP crossing the loop fabric (a KUnit filter's answer) */
enum rdma_loop_gmp_fate {
	RDMA_LOOP_GMP_PASS,
	RDMA_LOOP_GMP_DROP,
	RDMA_LOOP_GMP_DUPLICATE,
};

typedef enum rdma_loop_gmp_fate (*rdma_loop_gmp_filter_t)(void *ctx,
							  struct ib_device *from,
							  const void *mad);

#if IS_ENABLED(CONFIG_KUNIT)
int rdma_loop_set_gmp_filter(rdma_loop_gmp_filter_t fn, void *ctx);
#endif

int rdma_loop_connect_qp(struct ib_qp *qp, const struct rdma_loop_conn *conn,
			 enum ib_qp_state stop);

#endif /* RDMA_LOOP_H */
