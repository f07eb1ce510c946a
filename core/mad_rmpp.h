/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RMPP of kernel RMPP agents (mad_rmpp.c): what its KUnit suite reaches.
 * The hooks the MAD layer calls are declared in mad_priv.h.
 */
#ifndef RDMA_CORE_MAD_RMPP_H
#define RDMA_CORE_MAD_RMPP_H

#include <rdma/ib_mad.h>

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * Called with every active RMPP MAD a kernel RMPP agent receives, before
 * RMPP looks at it; true drops the MAD as if the wire had lost it.
 */
typedef bool (*ib_rmpp_recv_hook_t)(const struct ib_mad_agent *agent,
				    const struct ib_mad_recv_wc *wc);
extern ib_rmpp_recv_hook_t ib_rmpp_recv_hook;
/* How long a stalled reassembly lives, and a finished one is remembered. */
extern unsigned int ib_rmpp_reassembly_ms;
extern unsigned int ib_rmpp_linger_ms;
#endif

#endif /* RDMA_CORE_MAD_RMPP_H */
