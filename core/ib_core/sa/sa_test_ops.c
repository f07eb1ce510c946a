// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The test interface of the SA client: what the suites of sa/tests/
 * (and the fake SA of include/kunit/rdma_fake_sa.h) read inside it or
 * unit-test directly, as one table instead of one export per function.
 * Built only into a kernel with KUnit (Kbuild: CONFIG_KUNIT); nothing in
 * the product calls it.  The hooks that change what the SA client does
 * (ib_sa_ls_divert_requests(), ib_sa_mcast_flush(),
 * ib_sa_mcast_timeout_ms) stay beside the code they change.
 */
#include <kunit/visibility.h>

#include "../core_priv.h"
#include "sa_priv.h"

const struct ib_sa_test_ops ib_sa_test = {
	.sm_ah_attr = ib_sa_sm_ah_attr,
	.agent_hi_tid = ib_sa_agent_hi_tid,
	.classport_info_get = ib_sa_classport_info_get,
	.ls_timeout_ms = ib_sa_ls_timeout_ms,
	.ls_pending = ib_sa_ls_pending,
	.ls_resolve_resp = ib_nl_handle_resolve_resp,
	.ls_set_timeout = ib_nl_handle_set_timeout,
	.ls_ip_res_resp = ib_nl_handle_ip_res_resp,
	.pack_mcmember = ib_sa_pack_mcmember,
	.unpack_mcmember = ib_sa_unpack_mcmember,
	.mcmember_rec_query = ib_sa_mcmember_rec_query,
};
EXPORT_SYMBOL_IF_KUNIT(ib_sa_test);
