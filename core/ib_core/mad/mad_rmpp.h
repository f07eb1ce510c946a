/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RMPP of kernel RMPP agents (mad_rmpp.c, mad_rmpp_recv.c): what the two
 * files share, and what the KUnit suite reaches.  The hooks the MAD layer
 * calls are declared in mad_priv.h.
 */
#ifndef RDMA_CORE_MAD_RMPP_H
#define RDMA_CORE_MAD_RMPP_H

#include <rdma/ib_mad.h>

struct ib_mad_agent_private;
struct ib_mad_send_wr_private;
struct rmpp_recv;

static inline struct ib_rmpp_hdr *rmpp_hdr_of(const struct ib_mad_recv_buf *buf)
{
	return &((struct ib_rmpp_mad *)buf->mad)->rmpp_hdr;
}

/* mad_rmpp.c: the layer's own RMPP packets */
struct ib_mad_send_buf *ib_rmpp_answer_alloc(struct ib_mad_agent *agent,
					     struct ib_mad_recv_wc *wc,
					     struct ib_ah *ah);
void ib_rmpp_answer_post(struct ib_mad_send_buf *msg);
void ib_rmpp_nack(struct ib_mad_agent_private *priv,
		  struct ib_mad_recv_wc *wc, u8 status);

/* mad_rmpp_recv.c: transfers being received */
struct ib_mad_recv_wc *ib_rmpp_recv_data(struct ib_mad_agent_private *priv,
					 struct ib_mad_recv_wc *wc);
void ib_rmpp_recv_put(struct rmpp_recv *rr);
void ib_rmpp_set_repwin(struct ib_mad_agent_private *priv,
			struct ib_mad_recv_wc *wc, int newwin);
int ib_rmpp_first_window(struct ib_mad_send_wr_private *wr);

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
/* How long a sender waits for an ACK before it resends. */
extern unsigned int ib_rmpp_ack_wait_ms;
#endif

#endif /* RDMA_CORE_MAD_RMPP_H */
