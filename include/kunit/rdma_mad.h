/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers for the suites that play a MAD peer (<rdma/ib_mad.h>):
 * an agent that answers what it receives.  A reply goes back along the
 * path the request came (an address handle made from its work
 * completion); the send buffer remembers its address handle in
 * context[0] and marks itself as a reply with context[1], so that the
 * agent's send handler can tell its own replies (kt_mad_is_reply())
 * from the sends of the case and free them (kt_mad_reply_free()).
 */
#ifndef KUNIT_RDMA_MAD_H
#define KUNIT_RDMA_MAD_H

#include <linux/err.h>
#include <linux/string.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

/* KUnit action: unregister the agent @p */
static inline void kt_unregister_agent(void *p)
{
	ib_unregister_mad_agent(p);
}

/* Is @sb a reply made by kt_mad_reply_buf()? */
static inline bool kt_mad_is_reply(const struct ib_mad_send_buf *sb)
{
	return sb->context[1] == sb;
}

/* Free a reply (after its send completed, or when posting it failed) */
static inline void kt_mad_reply_free(struct ib_mad_send_buf *sb)
{
	rdma_destroy_ah(sb->context[0], RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(sb);
}

/*
 * A send buffer on @agent addressed to the sender of @rwc (its QP and
 * P_Key index), with an address handle of its own; the caller fills the
 * MAD and posts it with kt_mad_reply_post().  NULL when either could
 * not be made.
 */
static inline struct ib_mad_send_buf *
kt_mad_reply_buf(struct ib_mad_agent *agent, struct ib_mad_recv_wc *rwc,
		 int rmpp_active, int hdr_len, int data_len)
{
	struct ib_mad_send_buf *sb;
	struct ib_ah *ah;

	ah = ib_create_ah_from_wc(agent->qp->pd, rwc->wc, rwc->recv_buf.grh,
				  agent->port_num);
	if (IS_ERR(ah))
		return NULL;
	sb = ib_create_send_mad(agent, rwc->wc->src_qp, rwc->wc->pkey_index,
				rmpp_active, hdr_len, data_len, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		return NULL;
	}
	sb->ah = ah;
	sb->context[0] = ah;
	sb->context[1] = sb;
	return sb;
}

/* Post a reply; it is freed at once when the post fails */
static inline void kt_mad_reply_post(struct ib_mad_send_buf *sb)
{
	if (ib_post_send_mad(sb, NULL))
		kt_mad_reply_free(sb);
}

/* Answer the Get of @rwc with a GetResp whose first data byte is 0xab */
static inline void kt_mad_answer_get(struct ib_mad_agent *agent,
				     struct ib_mad_recv_wc *rwc)
{
	struct ib_mad_send_buf *sb;
	struct ib_mad *mad;

	sb = kt_mad_reply_buf(agent, rwc, 0, IB_MGMT_MAD_HDR,
			      IB_MGMT_MAD_DATA);
	if (!sb)
		return;
	mad = sb->mad;
	memcpy(mad, rwc->recv_buf.mad, sizeof(*mad));
	mad->mad_hdr.method = IB_MGMT_METHOD_GET_RESP;
	mad->data[0] = 0xab;
	kt_mad_reply_post(sb);
}

#endif /* KUNIT_RDMA_MAD_H */
