// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RMPP (IBTA 13.6): segmented transfers of the agents registered with an
 * RMPP version that leave RMPP to the MAD layer (no IB_MAD_USER_RMPP).
 * This file sends, and takes what comes in; mad_rmpp_recv.c gathers the
 * segments received.
 *
 * Sending: the data of a send buffer lives in segments; segment n goes
 * out as the buffer's headers with SegmentNumber n (PayloadLength in the
 * first and the last one).  The receiver's ACKs move the window; the
 * send waits for the ACK of its last segment (and then, if the sender
 * asked for one, for the response).  A timeout resends from the last
 * segment acknowledged.  A STOP or ABORT of the receiver ends the send;
 * whatever is malformed is answered with an ABORT.
 *
 * Everything here runs in process context (the CQ's work, the port's
 * workqueue, a sender's call), or under the agent's lock for the hooks
 * the send path calls; the state of sends is under the agent's lock.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mad_priv.h"
#include "mad_rmpp.h"

/* The packet lifetime is nobody's to tell: an ACK is awaited this long. */
VISIBLE_IF_KUNIT unsigned int ib_rmpp_ack_wait_ms = 2000;
EXPORT_SYMBOL_IF_KUNIT(ib_rmpp_ack_wait_ms);

#if IS_ENABLED(CONFIG_KUNIT)
ib_rmpp_recv_hook_t ib_rmpp_recv_hook;
EXPORT_SYMBOL_IF_KUNIT(ib_rmpp_recv_hook);

static bool rmpp_lost(struct ib_mad_agent_private *priv,
		      const struct ib_mad_recv_wc *wc)
{
	ib_rmpp_recv_hook_t hook = READ_ONCE(ib_rmpp_recv_hook);

	return hook && hook(&priv->agent, wc);
}
#else
static bool rmpp_lost(struct ib_mad_agent_private *priv,
		      const struct ib_mad_recv_wc *wc)
{
	return false;
}
#endif

static struct ib_rmpp_hdr *send_rmpp_hdr(struct ib_mad_send_wr_private *wr)
{
	return &((struct ib_rmpp_mad *)wr->send_buf.mad)->rmpp_hdr;
}

/**
 * ib_rmpp_send_handler - the end of an RMPP packet of the layer's own
 * @mad_send_wc: the completion of an ACK, STOP or ABORT
 *
 * Context: Process context.
 */
void ib_rmpp_send_handler(struct ib_mad_send_wc *mad_send_wc)
{
	struct ib_mad_send_buf *msg = mad_send_wc->send_buf;

	/* context[0]: an AH of the packet's own; [1]: the receive's ACK */
	if (msg->context[0])
		rdma_destroy_ah(msg->context[0], RDMA_DESTROY_AH_SLEEPABLE);
	if (msg->context[1])
		ib_rmpp_recv_put(msg->context[1]);
	ib_free_send_mad(msg);
}

/**
 * ib_rmpp_answer_alloc - an RMPP packet answering a received one
 * @agent: the agent that sends it
 * @wc: the packet answered: its headers are copied, the method turned
 *	around, the RMPP Active flag set
 * @ah: the way back
 *
 * Context: Process context; sleeps.
 * Return: the send buffer, or an ERR_PTR().
 */
struct ib_mad_send_buf *ib_rmpp_answer_alloc(struct ib_mad_agent *agent,
					     struct ib_mad_recv_wc *wc,
					     struct ib_ah *ah)
{
	struct ib_mad_send_buf *msg;
	struct ib_rmpp_mad *mad;
	int hdr_len;

	hdr_len = ib_get_mad_data_offset(wc->recv_buf.mad->mad_hdr.mgmt_class);
	msg = ib_create_send_mad(agent, wc->wc->src_qp, wc->wc->pkey_index, 1,
				 hdr_len, 0, GFP_KERNEL, IB_MGMT_BASE_VERSION);
	if (IS_ERR(msg))
		return msg;
	mad = msg->mad;
	memcpy(mad, wc->recv_buf.mad, hdr_len);
	mad->mad_hdr.method ^= IB_MGMT_METHOD_RESP;
	ib_set_rmpp_flags(&mad->rmpp_hdr, IB_MGMT_RMPP_FLAG_ACTIVE);
	msg->ah = ah;
	return msg;
}

/**
 * ib_rmpp_answer_post - send a packet of ours, or free it if it cannot go
 * @msg: from ib_rmpp_answer_alloc()
 *
 * Context: Process context.
 */
void ib_rmpp_answer_post(struct ib_mad_send_buf *msg)
{
	struct ib_mad_send_wc wc = { .send_buf = msg };

	if (ib_post_send_mad(msg, NULL))
		ib_rmpp_send_handler(&wc);
}

/* An answer to @wc by an AH of its own (the sender may be unknown). */
static struct ib_mad_send_buf *rmpp_answer(struct ib_mad_agent_private *priv,
					   struct ib_mad_recv_wc *wc)
{
	struct ib_mad_agent *agent = &priv->agent;
	struct ib_mad_send_buf *msg;
	struct ib_ah *ah;

	ah = ib_create_ah_from_wc(agent->qp->pd, wc->wc, wc->recv_buf.grh,
				  agent->port_num);
	if (IS_ERR(ah))
		return ERR_CAST(ah);
	msg = ib_rmpp_answer_alloc(agent, wc, ah);
	if (IS_ERR(msg))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	else
		msg->context[0] = ah;
	return msg;
}

/**
 * ib_rmpp_nack - ABORT the transfer a received packet belongs to
 * @priv: the agent
 * @wc: the packet
 * @status: the RMPP status of the ABORT
 *
 * Context: Process context; sleeps.
 */
void ib_rmpp_nack(struct ib_mad_agent_private *priv,
		  struct ib_mad_recv_wc *wc, u8 status)
{
	struct ib_mad_send_buf *msg = rmpp_answer(priv, wc);
	struct ib_rmpp_hdr *hdr;

	if (IS_ERR(msg))
		return;
	hdr = &((struct ib_rmpp_mad *)msg->mad)->rmpp_hdr;
	hdr->rmpp_version = IB_MGMT_RMPP_VERSION;
	hdr->rmpp_type = IB_MGMT_RMPP_TYPE_ABORT;
	hdr->rmpp_status = status;
	hdr->seg_num = 0;
	hdr->paylen_newwin = 0;
	ib_rmpp_answer_post(msg);
}

/*
 * Answer an ACK of our request's last segment: segment 0, a window of
 * one, the window the response may use.
 */
static void rmpp_ack_ds_ack(struct ib_mad_agent_private *priv,
			    struct ib_mad_recv_wc *wc)
{
	struct ib_mad_send_buf *msg = rmpp_answer(priv, wc);
	struct ib_rmpp_hdr *hdr;

	if (IS_ERR(msg))
		return;
	hdr = &((struct ib_rmpp_mad *)msg->mad)->rmpp_hdr;
	hdr->seg_num = 0;
	hdr->paylen_newwin = cpu_to_be32(1);
	ib_rmpp_answer_post(msg);
}

/* Send segment seg_num + 1 of a send.  Agent lock, or not yet posted. */
static int rmpp_send_next(struct ib_mad_send_wr_private *wr)
{
	struct ib_rmpp_hdr *hdr = send_rmpp_hdr(wr);
	struct ib_mad_send_buf *sb = &wr->send_buf;
	u32 paylen = 0;

	ib_set_rmpp_flags(hdr, IB_MGMT_RMPP_FLAG_ACTIVE);
	hdr->seg_num = cpu_to_be32(++wr->seg_num);
	if (wr->seg_num == 1) {
		/* the first segment tells the length of it all */
		hdr->rmpp_rtime_flags |= IB_MGMT_RMPP_FLAG_FIRST;
		paylen = sb->seg_count * sb->seg_rmpp_size - wr->pad;
	}
	if (wr->seg_num == sb->seg_count) {
		/* the last one what it carries */
		hdr->rmpp_rtime_flags |= IB_MGMT_RMPP_FLAG_LAST;
		paylen = sb->seg_rmpp_size - wr->pad;
	}
	hdr->paylen_newwin = cpu_to_be32(paylen);

	/* an ACK is waited for at most ib_rmpp_ack_wait_ms */
	if (!sb->timeout_ms || sb->timeout_ms > ib_rmpp_ack_wait_ms)
		wr->timeout = msecs_to_jiffies(ib_rmpp_ack_wait_ms);
	return ib_send_mad(wr);
}

/* The sender's partner stopped the send: it ends with @rmpp_status. */
static void rmpp_abort_send(struct ib_mad_agent_private *priv,
			    struct ib_mad_recv_wc *wc, u8 rmpp_status)
{
	struct ib_mad_send_wr_private *wr;
	struct ib_mad_send_wc swc;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	wr = ib_find_send_mad(priv, wc);
	/* not ours, or all sent and acknowledged, or over already */
	if (!wr || wr->last_ack == wr->send_buf.seg_count || !wr->timeout ||
	    wr->status != IB_WC_SUCCESS) {
		spin_unlock_irqrestore(&priv->lock, flags);
		return;
	}
	ib_mark_mad_done(wr);
	spin_unlock_irqrestore(&priv->lock, flags);

	swc.status = IB_WC_REM_ABORT_ERR;
	swc.vendor_err = rmpp_status;
	swc.send_buf = &wr->send_buf;
	ib_mad_complete_send_wr(wr, &swc);
}

/* Both ends of a bad transfer: our send stops, the peer gets an ABORT. */
static void rmpp_abort_both(struct ib_mad_agent_private *priv,
			    struct ib_mad_recv_wc *wc, u8 rmpp_status)
{
	rmpp_abort_send(priv, wc, rmpp_status);
	ib_rmpp_nack(priv, wc, rmpp_status);
}

/* Move the send's acknowledged mark to segment @seg_num.  Agent lock. */
static void rmpp_set_last_ack(struct ib_mad_send_wr_private *wr, int seg_num)
{
	struct ib_rmpp_segment *seg = wr->last_ack_seg;

	wr->last_ack = seg_num;
	while (seg->num < seg_num && !list_is_last(&seg->list, &wr->rmpp_list))
		seg = list_next_entry(seg, list);
	wr->last_ack_seg = seg;
}

/* The last segment is acknowledged and no response is awaited. */
static void rmpp_send_acked(struct ib_mad_send_wr_private *wr,
			    unsigned long flags)
	__releases(&wr->mad_agent_priv->lock)
{
	struct ib_mad_send_wc swc = {
		.status = IB_WC_SUCCESS,
		.send_buf = &wr->send_buf,
	};

	ib_mark_mad_done(wr);
	spin_unlock_irqrestore(&wr->mad_agent_priv->lock, flags);
	ib_mad_complete_send_wr(wr, &swc);
}

static void rmpp_process_ack(struct ib_mad_agent_private *priv,
			     struct ib_mad_recv_wc *wc)
{
	struct ib_rmpp_hdr *hdr = rmpp_hdr_of(&wc->recv_buf);
	struct ib_mad_send_wr_private *wr;
	int seg_num, newwin;
	unsigned long flags;

	if (hdr->rmpp_status) {
		rmpp_abort_both(priv, wc, IB_MGMT_RMPP_STATUS_BAD_STATUS);
		return;
	}
	seg_num = be32_to_cpu(hdr->seg_num);
	newwin = be32_to_cpu(hdr->paylen_newwin);
	if (newwin < seg_num) {
		rmpp_abort_both(priv, wc, IB_MGMT_RMPP_STATUS_W2S);
		return;
	}

	spin_lock_irqsave(&priv->lock, flags);
	wr = ib_find_send_mad(priv, wc);
	if (!wr) {
		/* the requester's ACK of our receive's last ACK */
		if (!seg_num)
			ib_rmpp_set_repwin(priv, wc, newwin);
		goto unlock;
	}
	if (wr->last_ack == wr->send_buf.seg_count && wr->timeout) {
		/* the final ACK again: the peer missed our answer to it */
		spin_unlock_irqrestore(&priv->lock, flags);
		rmpp_ack_ds_ack(priv, wc);
		return;
	}
	if (wr->last_ack == wr->send_buf.seg_count || !wr->timeout ||
	    wr->status != IB_WC_SUCCESS)
		goto unlock;	/* over already */
	if (seg_num > wr->send_buf.seg_count || seg_num > wr->newwin) {
		spin_unlock_irqrestore(&priv->lock, flags);
		rmpp_abort_both(priv, wc, IB_MGMT_RMPP_STATUS_S2B);
		return;
	}
	if (newwin < wr->newwin || seg_num < wr->last_ack)
		goto unlock;	/* an old ACK, overtaken */

	if (seg_num > wr->last_ack) {
		rmpp_set_last_ack(wr, seg_num);
		/* progress: the retries start over */
		wr->retries_left = wr->max_retries;
	}
	wr->newwin = newwin;
	if (wr->last_ack == wr->send_buf.seg_count) {
		if (!wr->send_buf.timeout_ms) {
			rmpp_send_acked(wr, flags);
			return;
		}
		/* now the response is waited for */
		if (wr->pending == 1)
			ib_reset_mad_timeout(wr, wr->send_buf.timeout_ms);
		spin_unlock_irqrestore(&priv->lock, flags);
		rmpp_ack_ds_ack(priv, wc);
		return;
	}
	/* the QP is idle for this send (waiting for this ACK): go on */
	if (wr->pending == 1 && wr->seg_num < wr->newwin &&
	    wr->seg_num < wr->send_buf.seg_count) {
		/* if it cannot go, the timeout resends it */
		if (!rmpp_send_next(wr)) {
			wr->pending++;
			list_move_tail(&wr->agent_list, &priv->send_list);
		}
	}
unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
}

/* Is @wc a segment of a response that answers none of our requests? */
static bool rmpp_unsolicited_response(struct ib_mad_agent_private *priv,
				      struct ib_mad_recv_wc *wc)
{
	unsigned long flags;
	bool found;

	if (!ib_response_mad(&wc->recv_buf.mad->mad_hdr))
		return false;
	spin_lock_irqsave(&priv->lock, flags);
	found = ib_find_send_mad(priv, wc);
	spin_unlock_irqrestore(&priv->lock, flags);
	return !found;
}

/**
 * ib_process_rmpp_recv_wc - what RMPP makes of a received MAD
 * @priv: the agent (a kernel RMPP agent)
 * @mad_recv_wc: the MAD; this function owns it
 *
 * A MAD that is not active RMPP comes back as it is.  DATA segments are
 * gathered; ACK, STOP and ABORT drive the agent's sends.  Whatever is
 * malformed is answered with an ABORT.
 *
 * Context: Process context; sleeps.  Takes the agent's lock.
 * Return: the MAD to deliver (a whole RMPP message once its last segment
 * is in), or NULL when there is nothing to deliver (@mad_recv_wc was
 * consumed or freed).
 */
struct ib_mad_recv_wc *
ib_process_rmpp_recv_wc(struct ib_mad_agent_private *priv,
			struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ib_rmpp_hdr *hdr = rmpp_hdr_of(&mad_recv_wc->recv_buf);

	if (!(ib_get_rmpp_flags(hdr) & IB_MGMT_RMPP_FLAG_ACTIVE))
		return mad_recv_wc;
	if (rmpp_lost(priv, mad_recv_wc))
		goto free;
	/* segments of a response nobody asked for go no further */
	if (hdr->rmpp_type == IB_MGMT_RMPP_TYPE_DATA &&
	    rmpp_unsolicited_response(priv, mad_recv_wc))
		goto free;

	if (hdr->rmpp_version != IB_MGMT_RMPP_VERSION) {
		rmpp_abort_both(priv, mad_recv_wc, IB_MGMT_RMPP_STATUS_UNV);
		goto free;
	}
	switch (hdr->rmpp_type) {
	case IB_MGMT_RMPP_TYPE_DATA:
		return ib_rmpp_recv_data(priv, mad_recv_wc);
	case IB_MGMT_RMPP_TYPE_ACK:
		rmpp_process_ack(priv, mad_recv_wc);
		break;
	case IB_MGMT_RMPP_TYPE_STOP:
		/* STOP asks for nothing but a resource exhaustion */
		if (hdr->rmpp_status != IB_MGMT_RMPP_STATUS_RESX)
			rmpp_abort_both(priv, mad_recv_wc,
					IB_MGMT_RMPP_STATUS_BAD_STATUS);
		else
			rmpp_abort_send(priv, mad_recv_wc, hdr->rmpp_status);
		break;
	case IB_MGMT_RMPP_TYPE_ABORT:
		if (hdr->rmpp_status < IB_MGMT_RMPP_STATUS_ABORT_MIN ||
		    hdr->rmpp_status > IB_MGMT_RMPP_STATUS_ABORT_MAX)
			rmpp_abort_both(priv, mad_recv_wc,
					IB_MGMT_RMPP_STATUS_BAD_STATUS);
		else
			rmpp_abort_send(priv, mad_recv_wc, hdr->rmpp_status);
		break;
	default:
		rmpp_abort_both(priv, mad_recv_wc, IB_MGMT_RMPP_STATUS_BADT);
		break;
	}
free:
	ib_free_recv_mad(mad_recv_wc);
	return NULL;
}

/**
 * ib_send_rmpp_mad - start sending a MAD of a kernel RMPP agent
 * @mad_send_wr: the send, on the agent's send list
 *
 * Context: Any context the post was made in; takes the agent's lock.
 * Return: IB_RMPP_RESULT_UNHANDLED for a MAD without RMPP,
 * IB_RMPP_RESULT_INTERNAL for an ACK, STOP or ABORT (the caller sends
 * it), IB_RMPP_RESULT_CONSUMED when the first segment went, or the
 * errno of sending it.
 */
int ib_send_rmpp_mad(struct ib_mad_send_wr_private *mad_send_wr)
{
	struct ib_mad_send_wr_private *wr = mad_send_wr;
	struct ib_rmpp_hdr *hdr = send_rmpp_hdr(wr);
	int ret;

	if (!(ib_get_rmpp_flags(hdr) & IB_MGMT_RMPP_FLAG_ACTIVE))
		return IB_RMPP_RESULT_UNHANDLED;
	if (hdr->rmpp_type != IB_MGMT_RMPP_TYPE_DATA) {
		wr->seg_num = 1;
		return IB_RMPP_RESULT_INTERNAL;
	}

	wr->newwin = ib_rmpp_first_window(wr);
	/* even without a response, the last ACK is waited for */
	wr->pending += !wr->timeout;
	ret = rmpp_send_next(wr);
	return ret ? ret : IB_RMPP_RESULT_CONSUMED;
}

/**
 * ib_process_rmpp_send_wc - the QP sent a segment of an RMPP send
 * @mad_send_wr: the send
 * @mad_send_wc: the QP's completion; its status may be changed
 *
 * The next segment of the window goes out in place of the completion.
 *
 * Context: The caller holds the agent's lock.
 * Return: IB_RMPP_RESULT_CONSUMED when the next segment went,
 * IB_RMPP_RESULT_PROCESSED when the completion counts (the window is
 * sent, or the send ended), IB_RMPP_RESULT_INTERNAL for a packet of the
 * layer's own, IB_RMPP_RESULT_UNHANDLED without RMPP.
 */
int ib_process_rmpp_send_wc(struct ib_mad_send_wr_private *mad_send_wr,
			    struct ib_mad_send_wc *mad_send_wc)
{
	struct ib_mad_send_wr_private *wr = mad_send_wr;
	struct ib_rmpp_hdr *hdr = send_rmpp_hdr(wr);

	if (!(ib_get_rmpp_flags(hdr) & IB_MGMT_RMPP_FLAG_ACTIVE))
		return IB_RMPP_RESULT_UNHANDLED;
	if (hdr->rmpp_type != IB_MGMT_RMPP_TYPE_DATA)
		return IB_RMPP_RESULT_INTERNAL;
	/* failed, cancelled, or answered already */
	if (mad_send_wc->status != IB_WC_SUCCESS ||
	    wr->status != IB_WC_SUCCESS || !wr->timeout)
		return IB_RMPP_RESULT_PROCESSED;
	if (wr->last_ack == wr->send_buf.seg_count) {
		/* all acknowledged: the response's wait starts */
		wr->timeout = msecs_to_jiffies(wr->send_buf.timeout_ms);
		return IB_RMPP_RESULT_PROCESSED;
	}
	if (wr->seg_num == wr->newwin ||
	    wr->seg_num == wr->send_buf.seg_count)
		return IB_RMPP_RESULT_PROCESSED;	/* an ACK is due */

	if (rmpp_send_next(wr)) {
		mad_send_wc->status = IB_WC_GENERAL_ERR;
		return IB_RMPP_RESULT_PROCESSED;
	}
	return IB_RMPP_RESULT_CONSUMED;
}

/**
 * ib_retry_rmpp - resend an RMPP send whose ACK is late
 * @mad_send_wr: the send
 *
 * It goes again from the segment after the last one acknowledged.
 *
 * Context: The caller holds the agent's lock.
 * Return: IB_RMPP_RESULT_CONSUMED when a segment went,
 * IB_RMPP_RESULT_PROCESSED when nothing is to be resent (all was
 * acknowledged: it is the response that is late) or sending failed,
 * IB_RMPP_RESULT_UNHANDLED without RMPP.
 */
int ib_retry_rmpp(struct ib_mad_send_wr_private *mad_send_wr)
{
	struct ib_mad_send_wr_private *wr = mad_send_wr;
	struct ib_rmpp_hdr *hdr = send_rmpp_hdr(wr);

	if (!(ib_get_rmpp_flags(hdr) & IB_MGMT_RMPP_FLAG_ACTIVE))
		return IB_RMPP_RESULT_UNHANDLED;
	if (wr->last_ack == wr->send_buf.seg_count)
		return IB_RMPP_RESULT_PROCESSED;

	wr->seg_num = wr->last_ack;
	wr->cur_seg = wr->last_ack_seg;
	if (rmpp_send_next(wr))
		return IB_RMPP_RESULT_PROCESSED;
	return IB_RMPP_RESULT_CONSUMED;
}
