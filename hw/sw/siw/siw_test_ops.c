// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The test interface of siw: what the siw_qp and siw_cm suites call
 * inside the module (a device on a net device without netlink, a QP's
 * data path bound to a socket the suite connected itself, the counters
 * of a QP's stream, a reference on a connection endpoint), as one table
 * instead of one export per function.  Built only into a kernel with
 * KUnit (Kbuild: CONFIG_KUNIT); nothing in the product calls it.  The
 * protocol layer needs none of it: the suites build their own copy
 * (tests/Kbuild).
 */
#include <kunit/visibility.h>

#include "siw.h"
#include "siw_cm.h"
#include "siw_qp.h"

const struct siw_test_ops siw_test = {
	.device_add = siw_device_add,
	.qp_stream_start = siw_qp_stream_start,
	.qp_stream_stop = siw_qp_stream_stop,
	.qp_stream_receive = siw_qp_stream_receive,
	.qp_mulpdu = siw_qp_mulpdu,
	.qp_terms = siw_qp_terms,
	.tx_direct = siw_tx_direct,
	.cep_get = siw_cep_get,
	.cep_put = siw_cep_put,
	.uring_send_wr = siw_uring_send_wr,
	.uring_cqe_fill = siw_uring_cqe_fill,
};
EXPORT_SYMBOL_IF_KUNIT(siw_test);
