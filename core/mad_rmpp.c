// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RMPP (IBTA 13.6): segmented transfers of the agents registered with an
 * RMPP version that leave RMPP to the MAD layer (no IB_MAD_USER_RMPP).
 *
 * Sending: the data of a send buffer lives in segments; segment n goes
 * out as the buffer's headers with SegmentNumber n (PayloadLength in the
 * first and the last one).  The receiver's ACKs move the window; the
 * send waits for the ACK of its last segment (and then, if the sender
 * asked for one, for the response).  A timeout resends from the last
 * segment acknowledged.
 *
 * Receiving: segments of one transfer (same TID, source, class, version
 * and method) are gathered in order on the first segment's rmpp_list;
 * the receiver ACKs at the end of each window and at the last segment,
 * then hands the whole message to the agent as one ib_mad_recv_wc.  A
 * finished transfer is remembered a while so that resent segments only
 * get an ACK again.
 *
 * Everything here runs in process context (the CQ's work, the port's
 * workqueue, a sender's call); the state of sends and of receives in
 * progress is under the agent's lock.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mad_priv.h"
#include "mad_rmpp.h"

/* Times IBTA leaves to the packet lifetime, which nobody tells us. */
#define RMPP_ACK_WAIT_MS	2000	/* longest wait for an ACK */

VISIBLE_IF_KUNIT unsigned int ib_rmpp_reassembly_ms = 40000;
EXPORT_SYMBOL_IF_KUNIT(ib_rmpp_reassembly_ms);
VISIBLE_IF_KUNIT unsigned int ib_rmpp_linger_ms = 10000;
EXPORT_SYMBOL_IF_KUNIT(ib_rmpp_linger_ms);

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

enum rmpp_recv_state {
	RMPP_RECV_ACTIVE,	/* gathering segments */
	RMPP_RECV_TIMEOUT,	/* given up; being freed */
	RMPP_RECV_COMPLETE,	/* delivered; remembered for resends */
};

/**
 * struct rmpp_recv - a transfer being received (or just received)
 * @agent: the agent it is for
 * @list: on the agent's @rmpp_list
 * @timeout_work: gives up on a stalled transfer
 * @cleanup_work: forgets a completed transfer
 * @comp: @refcount reached zero
 * @refcount: the agent's list, each user, each ACK on the wire (they
 *	use @ah)
 * @state: see enum rmpp_recv_state (agent lock)
 * @ah: the way back to the sender, for ACKs
 * @rmpp_wc: the first segment, holding the others on its rmpp_list
 * @cur_seg_buf: the last segment received in order
 * @last_ack: the last segment acknowledged
 * @seg_num: the last segment received in order
 * @newwin: the last segment the window lets the sender send
 * @repwin: the window the requester announced for our response
 * @tid: what identifies the transfer ...
 * @src_qp: ...
 * @slid: ...
 * @mgmt_class: ...
 * @class_version: ...
 * @method: ...
 */
struct rmpp_recv {
	struct ib_mad_agent_private	*agent;
	struct list_head		list;
	struct delayed_work		timeout_work;
	struct delayed_work		cleanup_work;
	struct completion		comp;
	refcount_t			refcount;
	enum rmpp_recv_state		state;

	struct ib_ah			*ah;
	struct ib_mad_recv_wc		*rmpp_wc;
	struct ib_mad_recv_buf		*cur_seg_buf;
	int				last_ack;
	int				seg_num;
	int				newwin;
	int				repwin;

	__be64				tid;
	u32				src_qp;
	u32				slid;
	u8				mgmt_class;
	u8				class_version;
	u8				method;
};

static struct ib_rmpp_hdr *rmpp_hdr_of(const struct ib_mad_recv_buf *buf)
{
	return &((struct ib_rmpp_mad *)buf->mad)->rmpp_hdr;
}

static struct ib_rmpp_hdr *send_rmpp_hdr(struct ib_mad_send_wr_private *wr)
{
	return &((struct ib_rmpp_mad *)wr->send_buf.mad)->rmpp_hdr;
}

static int rmpp_seg_num(const struct ib_mad_recv_buf *buf)
{
	return be32_to_cpu(rmpp_hdr_of(buf)->seg_num);
}

static bool rmpp_is_last(const struct ib_mad_recv_buf *buf)
{
	return ib_get_rmpp_flags(rmpp_hdr_of(buf)) & IB_MGMT_RMPP_FLAG_LAST;
}

/* Segments a receiver lets come per ACK: an eighth of its receive queue. */
static int rmpp_window(void)
{
	return max(ib_mad_recvq_size >> 3, 1);
}

static void rmpp_recv_put(struct rmpp_recv *rr)
{
	if (refcount_dec_and_test(&rr->refcount))
		complete(&rr->comp);
}

/* Drop the list's reference, wait for the others, free.  Sleeps. */
static void rmpp_recv_destroy(struct rmpp_recv *rr)
{
	rmpp_recv_put(rr);
	wait_for_completion(&rr->comp);
	rdma_destroy_ah(rr->ah, RDMA_DESTROY_AH_SLEEPABLE);
	kfree(rr);
}

/* Queue one of a receive's works, unless its agent is going away. */
static void rmpp_recv_queue(struct rmpp_recv *rr, struct delayed_work *work,
			    unsigned int ms)
{
	struct ib_mad_agent_private *priv = rr->agent;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (!priv->unregistering)
		queue_delayed_work(priv->port_priv->wq, work,
				   msecs_to_jiffies(ms));
	spin_unlock_irqrestore(&priv->lock, flags);
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
		rmpp_recv_put(msg->context[1]);
	ib_free_send_mad(msg);
}

/* A packet answering @wc, headers copied, direction turned around. */
static struct ib_mad_send_buf *rmpp_answer_alloc(struct ib_mad_agent *agent,
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

/* Post a packet of ours, or free it if it cannot go. */
static void rmpp_answer_post(struct ib_mad_send_buf *msg)
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
	msg = rmpp_answer_alloc(agent, wc, ah);
	if (IS_ERR(msg))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	else
		msg->context[0] = ah;
	return msg;
}

/* ABORT the transfer @wc belongs to, with @status. */
static void rmpp_nack(struct ib_mad_agent_private *priv,
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
	rmpp_answer_post(msg);
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
	rmpp_answer_post(msg);
}

/* ACK what @rr holds so far; @wc is the segment that prompted it. */
static void rmpp_ack(struct rmpp_recv *rr, struct ib_mad_recv_wc *wc)
{
	struct ib_mad_agent_private *priv = rr->agent;
	struct ib_mad_send_buf *msg;
	struct ib_rmpp_hdr *hdr;
	unsigned long flags;

	msg = rmpp_answer_alloc(&priv->agent, wc, rr->ah);
	if (IS_ERR(msg))
		return;
	hdr = &((struct ib_rmpp_mad *)msg->mad)->rmpp_hdr;
	hdr->rmpp_type = IB_MGMT_RMPP_TYPE_ACK;

	spin_lock_irqsave(&priv->lock, flags);
	rr->last_ack = rr->seg_num;
	hdr->seg_num = cpu_to_be32(rr->seg_num);
	hdr->paylen_newwin = cpu_to_be32(rr->newwin);
	spin_unlock_irqrestore(&priv->lock, flags);

	/* the ACK uses @rr's AH until the QP is done with it */
	refcount_inc(&rr->refcount);
	msg->context[1] = rr;
	rmpp_answer_post(msg);
}

/* Give up on a transfer that stalled: ABORT it (T2L) and free it. */
static void rmpp_recv_timeout(struct work_struct *work)
{
	struct rmpp_recv *rr = container_of(work, struct rmpp_recv,
					    timeout_work.work);
	struct ib_mad_agent_private *priv = rr->agent;
	struct ib_mad_recv_wc *wc = rr->rmpp_wc;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (rr->state != RMPP_RECV_ACTIVE) {
		spin_unlock_irqrestore(&priv->lock, flags);
		return;
	}
	rr->state = RMPP_RECV_TIMEOUT;
	list_del(&rr->list);
	spin_unlock_irqrestore(&priv->lock, flags);

	rmpp_nack(priv, wc, IB_MGMT_RMPP_STATUS_T2L);
	rmpp_recv_destroy(rr);
	ib_free_recv_mad(wc);
}

/* Forget a completed transfer. */
static void rmpp_recv_cleanup(struct work_struct *work)
{
	struct rmpp_recv *rr = container_of(work, struct rmpp_recv,
					    cleanup_work.work);
	struct ib_mad_agent_private *priv = rr->agent;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	list_del(&rr->list);
	spin_unlock_irqrestore(&priv->lock, flags);
	rmpp_recv_destroy(rr);
}

/**
 * ib_cancel_rmpp_recvs - free the transfers an agent is receiving
 * @priv: the agent, unregistering (no transfer starts any more)
 *
 * Context: Process context; sleeps (waits for the port's workqueue and
 * for the ACKs on the wire).  Takes the agent's lock.
 */
void ib_cancel_rmpp_recvs(struct ib_mad_agent_private *priv)
{
	struct rmpp_recv *rr, *tmp;
	LIST_HEAD(gone);

	spin_lock_irq(&priv->lock);
	list_for_each_entry(rr, &priv->rmpp_list, list) {
		cancel_delayed_work(&rr->timeout_work);
		cancel_delayed_work(&rr->cleanup_work);
	}
	spin_unlock_irq(&priv->lock);

	/* works already running finish (and take their entry off) */
	flush_workqueue(priv->port_priv->wq);

	spin_lock_irq(&priv->lock);
	list_splice_init(&priv->rmpp_list, &gone);
	spin_unlock_irq(&priv->lock);

	list_for_each_entry_safe(rr, tmp, &gone, list) {
		list_del(&rr->list);
		/* a receive still adding to it is done after this */
		rmpp_recv_put(rr);
		wait_for_completion(&rr->comp);
		if (rr->state != RMPP_RECV_COMPLETE)
			ib_free_recv_mad(rr->rmpp_wc);
		rdma_destroy_ah(rr->ah, RDMA_DESTROY_AH_SLEEPABLE);
		kfree(rr);
	}
}

static struct rmpp_recv *rmpp_recv_create(struct ib_mad_agent_private *priv,
					  struct ib_mad_recv_wc *wc)
{
	const struct ib_mad_hdr *hdr = &wc->recv_buf.mad->mad_hdr;
	struct rmpp_recv *rr;

	rr = kzalloc(sizeof(*rr), GFP_KERNEL);
	if (!rr)
		return NULL;
	rr->ah = ib_create_ah_from_wc(priv->agent.qp->pd, wc->wc,
				      wc->recv_buf.grh, priv->agent.port_num);
	if (IS_ERR(rr->ah)) {
		kfree(rr);
		return NULL;
	}
	rr->agent = priv;
	INIT_DELAYED_WORK(&rr->timeout_work, rmpp_recv_timeout);
	INIT_DELAYED_WORK(&rr->cleanup_work, rmpp_recv_cleanup);
	init_completion(&rr->comp);
	refcount_set(&rr->refcount, 1);
	rr->state = RMPP_RECV_ACTIVE;
	rr->rmpp_wc = wc;
	rr->cur_seg_buf = &wc->recv_buf;
	rr->seg_num = 1;
	rr->newwin = 1;
	rr->repwin = 1;
	rr->tid = hdr->tid;
	rr->src_qp = wc->wc->src_qp;
	rr->slid = wc->wc->slid;
	rr->mgmt_class = hdr->mgmt_class;
	rr->class_version = hdr->class_version;
	rr->method = hdr->method;
	return rr;
}

/* The transfer @wc is a segment of, or NULL.  Agent lock. */
static struct rmpp_recv *rmpp_recv_find(struct ib_mad_agent_private *priv,
					const struct ib_mad_recv_wc *wc)
{
	const struct ib_mad_hdr *hdr = &wc->recv_buf.mad->mad_hdr;
	struct rmpp_recv *rr;

	list_for_each_entry(rr, &priv->rmpp_list, list)
		if (rr->tid == hdr->tid && rr->src_qp == wc->wc->src_qp &&
		    rr->slid == wc->wc->slid &&
		    rr->mgmt_class == hdr->mgmt_class &&
		    rr->class_version == hdr->class_version &&
		    rr->method == hdr->method)
			return rr;
	return NULL;
}

/*
 * The segment after which segment @seg_num goes on @list, or NULL when
 * @list has it already.
 */
static struct ib_mad_recv_buf *rmpp_seg_place(struct list_head *list,
					      int seg_num)
{
	struct ib_mad_recv_buf *buf;

	list_for_each_entry_reverse(buf, list, list) {
		int num = rmpp_seg_num(buf);

		if (num == seg_num)
			return NULL;
		if (num < seg_num)
			return buf;
	}
	return NULL;
}

/* Move @rr's in-order mark over the segments that follow it.  Agent lock. */
static void rmpp_advance(struct rmpp_recv *rr, struct ib_mad_recv_buf *buf)
{
	struct list_head *list = &rr->rmpp_wc->rmpp_list;

	while (rmpp_seg_num(buf) == rr->seg_num + 1) {
		rr->cur_seg_buf = buf;
		rr->seg_num++;
		if (list_is_last(&buf->list, list))
			break;
		buf = list_next_entry(buf, list);
	}
}

/*
 * Bytes of the whole message: headers once, then the data of each
 * segment, less the padding the last segment's PayloadLength tells.
 */
static int rmpp_msg_len(struct rmpp_recv *rr)
{
	const struct ib_rmpp_hdr *last = rmpp_hdr_of(rr->cur_seg_buf);
	int hdr_len = ib_get_mad_data_offset(rr->mgmt_class);
	int seg_data = sizeof(struct ib_rmpp_mad) - hdr_len;
	int pad = IB_MGMT_RMPP_DATA - (int)be32_to_cpu(last->paylen_newwin);

	if (pad < 0 || pad > IB_MGMT_RMPP_DATA)
		pad = 0;
	return hdr_len + rr->seg_num * seg_data - pad;
}

/* The last segment is in: ACK it and hand the message out. */
static struct ib_mad_recv_wc *rmpp_complete(struct rmpp_recv *rr)
{
	struct ib_mad_recv_wc *wc = rr->rmpp_wc;

	rmpp_ack(rr, wc);
	if (rr->seg_num > 1)
		cancel_delayed_work(&rr->timeout_work);
	wc->mad_len = rmpp_msg_len(rr);
	rmpp_recv_queue(rr, &rr->cleanup_work, ib_rmpp_linger_ms);
	return wc;
}

/* A segment after the first.  Returns the message once complete. */
static struct ib_mad_recv_wc *rmpp_continue(struct ib_mad_agent_private *priv,
					    struct ib_mad_recv_wc *wc)
{
	int seg_num = rmpp_seg_num(&wc->recv_buf);
	struct ib_mad_recv_buf *prev;
	struct rmpp_recv *rr;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	rr = rmpp_recv_find(priv, wc);
	if (!rr)
		goto drop_unlock;
	refcount_inc(&rr->refcount);

	if (rr->state == RMPP_RECV_TIMEOUT || seg_num > rr->newwin)
		goto drop_put_unlock;
	if (seg_num <= rr->last_ack || rr->state == RMPP_RECV_COMPLETE) {
		/* sent again: the sender missed our ACK */
		spin_unlock_irqrestore(&priv->lock, flags);
		rmpp_ack(rr, wc);
		goto drop_put;
	}

	prev = rmpp_seg_place(&rr->rmpp_wc->rmpp_list, seg_num);
	if (!prev)
		goto drop_put_unlock;	/* a duplicate */
	list_add(&wc->recv_buf.list, &prev->list);
	if (rr->cur_seg_buf == prev) {
		rmpp_advance(rr, &wc->recv_buf);
		if (rmpp_is_last(rr->cur_seg_buf)) {
			rr->state = RMPP_RECV_COMPLETE;
			spin_unlock_irqrestore(&priv->lock, flags);
			wc = rmpp_complete(rr);
			rmpp_recv_put(rr);
			return wc;
		}
		if (rr->seg_num == rr->newwin) {
			/* the window is full: open the next one */
			rr->newwin += rmpp_window();
			spin_unlock_irqrestore(&priv->lock, flags);
			rmpp_ack(rr, wc);
			rmpp_recv_put(rr);
			return NULL;
		}
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	rmpp_recv_put(rr);
	return NULL;

drop_put_unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
drop_put:
	rmpp_recv_put(rr);
	ib_free_recv_mad(wc);
	return NULL;
drop_unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
	ib_free_recv_mad(wc);
	return NULL;
}

/* Segment 1: a new transfer (or segment 1 of one we have, sent again). */
static struct ib_mad_recv_wc *rmpp_start(struct ib_mad_agent_private *priv,
					 struct ib_mad_recv_wc *wc)
{
	struct rmpp_recv *rr;
	unsigned long flags;

	rr = rmpp_recv_create(priv, wc);
	if (!rr) {
		ib_free_recv_mad(wc);
		return NULL;
	}

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->unregistering || rmpp_recv_find(priv, wc)) {
		bool unregistering = priv->unregistering;

		spin_unlock_irqrestore(&priv->lock, flags);
		rmpp_recv_destroy(rr);
		if (!unregistering)
			return rmpp_continue(priv, wc);
		ib_free_recv_mad(wc);
		return NULL;
	}
	list_add_tail(&rr->list, &priv->rmpp_list);
	refcount_inc(&rr->refcount);

	if (rmpp_is_last(&wc->recv_buf)) {
		/* a transfer of one segment */
		rr->state = RMPP_RECV_COMPLETE;
		spin_unlock_irqrestore(&priv->lock, flags);
		rmpp_complete(rr);
	} else {
		rr->newwin += rmpp_window();
		spin_unlock_irqrestore(&priv->lock, flags);
		rmpp_recv_queue(rr, &rr->timeout_work, ib_rmpp_reassembly_ms);
		rmpp_ack(rr, wc);
		wc = NULL;
	}
	rmpp_recv_put(rr);
	return wc;
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

	/* an ACK is waited for at most RMPP_ACK_WAIT_MS */
	if (!sb->timeout_ms || sb->timeout_ms > RMPP_ACK_WAIT_MS)
		wr->timeout = msecs_to_jiffies(RMPP_ACK_WAIT_MS);
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
	rmpp_nack(priv, wc, rmpp_status);
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

/* The requester's window for our response, from its ACK of segment 0. */
static void rmpp_ds_ack(struct ib_mad_agent_private *priv,
			struct ib_mad_recv_wc *wc, int newwin)
{
	struct rmpp_recv *rr = rmpp_recv_find(priv, wc);

	if (rr && rr->state == RMPP_RECV_COMPLETE)
		rr->repwin = newwin;
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
			rmpp_ds_ack(priv, wc, newwin);
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

static struct ib_mad_recv_wc *rmpp_process_data(struct ib_mad_agent_private *priv,
						struct ib_mad_recv_wc *wc)
{
	struct ib_rmpp_hdr *hdr = rmpp_hdr_of(&wc->recv_buf);
	bool first = ib_get_rmpp_flags(hdr) & IB_MGMT_RMPP_FLAG_FIRST;
	bool one = hdr->seg_num == cpu_to_be32(1);
	u8 status;

	if (hdr->rmpp_status) {
		status = IB_MGMT_RMPP_STATUS_BAD_STATUS;
		goto bad;
	}
	/* segment 1 and only segment 1 says it is the first */
	if (first != one) {
		status = IB_MGMT_RMPP_STATUS_BAD_SEG;
		goto bad;
	}
	if (first)
		return rmpp_start(priv, wc);
	return rmpp_continue(priv, wc);

bad:
	rmpp_nack(priv, wc, status);
	ib_free_recv_mad(wc);
	return NULL;
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
		return rmpp_process_data(priv, mad_recv_wc);
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

/*
 * The first window of a send: one segment, unless it is the response to
 * a request we received whose sender announced a larger one.
 */
static int rmpp_first_window(struct ib_mad_send_wr_private *wr)
{
	struct ib_mad_agent_private *priv = wr->mad_agent_priv;
	const struct ib_mad_hdr *hdr = wr->send_buf.mad;
	struct rdma_ah_attr attr;
	struct rmpp_recv *rr;
	unsigned long flags;
	int newwin = 1;

	if (!(hdr->method & IB_MGMT_METHOD_RESP) || !wr->send_buf.ah)
		return newwin;
	spin_lock_irqsave(&priv->lock, flags);
	list_for_each_entry(rr, &priv->rmpp_list, list) {
		if (rr->tid != hdr->tid || rr->mgmt_class != hdr->mgmt_class ||
		    rr->class_version != hdr->class_version ||
		    (rr->method & IB_MGMT_METHOD_RESP))
			continue;
		if (rdma_query_ah(wr->send_buf.ah, &attr))
			continue;
		if (rr->slid == rdma_ah_get_dlid(&attr)) {
			newwin = rr->repwin;
			break;
		}
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	return newwin;
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

	wr->newwin = rmpp_first_window(wr);
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
