/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The test interface of rdma_rxe (rxe_test_ops.c), for its suites only.
 */
#ifndef RXE_TEST_H
#define RXE_TEST_H

#include <linux/netdevice.h>

/**
 * struct rxe_test_ops - what the suites reach inside rdma_rxe
 * @device_add: rxe_device_add(): a device on a net device, as "rdma link
 *	add" makes it
 */
struct rxe_test_ops {
	int (*device_add)(const char *name, struct net_device *ndev);
};

extern const struct rxe_test_ops rxe_test;

#endif /* RXE_TEST_H */
