/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The test interface of rdma_rxe (rxe_test_ops.c), for its suites only.
 */
#ifndef RXE_TEST_H
#define RXE_TEST_H

#include <linux/netdevice.h>
#include <rdma/rdma_vt.h>
#include <rdma/rdma_user_rxe.h>

struct rxe_uring;

/**
 * struct rxe_test_ops - what the suites reach inside rdma_rxe
 * @device_add: rxe_device_add(): a device on a net device, as "rdma link
 *	add" makes it
 * @uring_cq_push: rxe_uring_cq_push(): a completion into a user CQ's
 *	queue
 * @uring_recv_take: rxe_uring_recv_take(): the oldest entry of a user
 *	receive queue
 * @uring_send_wr: rxe_uring_send_wr(): a user send entry as a request
 *	for rdmavt
 */
struct rxe_test_ops {
	int (*device_add)(const char *name, struct net_device *ndev);
	bool (*uring_cq_push)(struct rxe_uring *r, const struct ib_wc *wc);
	bool (*uring_recv_take)(struct rxe_uring *r, u32 max_sge,
				struct rvt_rwqe *wqe);
	void (*uring_send_wr)(const struct rxe_send_wqe *w, u32 max_sge,
			      u32 max_inline, struct rvt_ring_wr *rwr,
			      struct ib_sge *sges);
};

extern const struct rxe_test_ops rxe_test;

#endif /* RXE_TEST_H */
