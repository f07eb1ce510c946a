// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RMPP receives of kernel RMPP agents (see mad_rmpp.c for the rest):
 * segments of one transfer (same TID, source QP and LID, class, version
 * and method) are gathered in order on the first segment's rmpp_list;
 * the receiver ACKs segment 1, the end of each window and the last
 * segment, then hands the whole message to the agent as one
 * ib_mad_recv_wc.  A stalled transfer is given up; a finished one is
 * remembered a while so that segments sent again only get an ACK again.
 *
 * Process context throughout; the state of the transfers is under the
 * agent's lock.
 */

#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mad_priv.h"
#include "mad_rmpp.h"

/* The packet lifetime is nobody's to tell: how long a stalled transfer
 * lives, and how long a finished one is remembered.
 */
VISIBLE_IF_KUNIT unsigned int ib_rmpp_reassembly_ms = 40000;
EXPORT_SYMBOL_IF_KUNIT(ib_rmpp_reassembly_ms);
VISIBLE_IF_KUNIT unsigned int ib_rmpp_linger_ms = 10000;
EXPORT_SYMBOL_IF_KUNIT(ib_rmpp_linger_ms);

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

/**
 * ib_rmpp_recv_put - drop a reference to a transfer being received
 * @rr: the transfer
 *
 * Context: Any context.
 */
void ib_rmpp_recv_put(struct rmpp_recv *rr)
{
	if (refcount_dec_and_test(&rr->refcount))
		complete(&rr->comp);
}

/* Drop the list's reference, wait for the others, free.  Sleeps. */
static void rmpp_recv_destroy(struct rmpp_recv *rr)
{
	ib_rmpp_recv_put(rr);
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

/* ACK what @rr holds so far; @wc is the segment that prompted it. */
static void rmpp_ack(struct rmpp_recv *rr, struct ib_mad_recv_wc *wc)
{
	struct ib_mad_agent_private *priv = rr->agent;
	struct ib_mad_send_buf *msg;
	struct ib_rmpp_hdr *hdr;
	unsigned long flags;

	msg = ib_rmpp_answer_alloc(&priv->agent, wc, rr->ah);
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
	ib_rmpp_answer_post(msg);
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

	ib_rmpp_nack(priv, wc, IB_MGMT_RMPP_STATUS_T2L);
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
		ib_rmpp_recv_put(rr);
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
			ib_rmpp_recv_put(rr);
			return wc;
		}
		if (rr->seg_num == rr->newwin) {
			/* the window is full: open the next one */
			rr->newwin += rmpp_window();
			spin_unlock_irqrestore(&priv->lock, flags);
			rmpp_ack(rr, wc);
			ib_rmpp_recv_put(rr);
			return NULL;
		}
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	ib_rmpp_recv_put(rr);
	return NULL;

drop_put_unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
drop_put:
	ib_rmpp_recv_put(rr);
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
	ib_rmpp_recv_put(rr);
	return wc;
}

/**
 * ib_rmpp_set_repwin - the requester's window for our response
 * @priv: the agent
 * @wc: the requester's ACK of segment 0 (that of our last ACK)
 * @newwin: the window it announces
 *
 * Context: The caller holds the agent's lock.
 */
void ib_rmpp_set_repwin(struct ib_mad_agent_private *priv,
			struct ib_mad_recv_wc *wc, int newwin)
{
	struct rmpp_recv *rr = rmpp_recv_find(priv, wc);

	if (rr && rr->state == RMPP_RECV_COMPLETE)
		rr->repwin = newwin;
}

/**
 * ib_rmpp_recv_data - take a DATA segment in
 * @priv: the agent
 * @wc: the segment; this function owns it
 *
 * Context: Process context; sleeps.  Takes the agent's lock.
 * Return: the whole message once its last segment is in, else NULL.
 */
struct ib_mad_recv_wc *ib_rmpp_recv_data(struct ib_mad_agent_private *priv,
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
	ib_rmpp_nack(priv, wc, status);
	ib_free_recv_mad(wc);
	return NULL;
}

/**
 * ib_rmpp_first_window - the first window of a send
 * @wr: the send
 *
 * One segment, unless the send is the response to a request we received
 * whose sender announced a larger one.
 *
 * Context: Any context; takes the agent's lock.
 * Return: the last segment the first window lets go.
 */
int ib_rmpp_first_window(struct ib_mad_send_wr_private *wr)
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
