// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The test interface of rdma_rxe: what its suites call inside the module
 * (a device on a net device without netlink), as one table.  Built only
 * into a kernel with KUnit (Kbuild: CONFIG_KUNIT); nothing in the product
 * calls it.  The wire layer needs none of it: the suites build their own
 * copy of rxe_wire.c.
 */
#include <kunit/visibility.h>

#include "rxe.h"
#include "rxe_test.h"

const struct rxe_test_ops rxe_test = {
	.device_add = rxe_device_add,
	.uring_cq_push = rxe_uring_cq_push,
	.uring_recv_take = rxe_uring_recv_take,
	.uring_send_wr = rxe_uring_send_wr,
};
EXPORT_SYMBOL_IF_KUNIT(rxe_test);
