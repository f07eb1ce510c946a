// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sending MADs: send buffers, posting on QP0/QP1 (with an overflow list
 * when the send queue is full), the QP's completions, waiting for the
 * response with a timeout and retries, and cancelling.
 *
 * A send's @pending counts what it still waits for: the QP's completion
 * and, when the sender set a timeout, the response.  Whichever comes
 * last completes the send to the agent's send handler.  A send waiting
 * only for its response sits on the agent's wait list, ordered by
 * deadline; the agent's timed work expires it, resending while retries
 * are left.  All of a send's state is under its agent's lock.
 */

#include <linux/export.h>
#include <linux/ip.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>

#include "mad_priv.h"
#include "mad_trace.h"

/*
 * Zero bytes after the payload: up to the end of the MAD, or of the last
 * RMPP segment.  A MAD without data is all padding.
 */
static int mad_pad_size(int hdr_len, int data_len, size_t mad_size)
{
	int seg_size = mad_size - hdr_len;
	int rest;

	if (!data_len || !seg_size)
		return seg_size;
	rest = data_len % seg_size;
	return rest ? seg_size - rest : 0;
}

/* The segments of an RMPP send, zeroed (the padding of the last one). */
static int mad_alloc_segments(struct ib_mad_send_wr_private *wr,
			      size_t mad_size, gfp_t gfp)
{
	struct ib_mad_send_buf *sb = &wr->send_buf;
	struct ib_rmpp_mad *rmpp = sb->mad;
	struct ib_rmpp_segment *seg, *tmp;
	int left;

	sb->seg_size = mad_size - sb->hdr_len;
	sb->seg_rmpp_size = mad_size - IB_MGMT_RMPP_HDR;
	for (left = sb->data_len + wr->pad; left > 0; left -= sb->seg_size) {
		seg = kzalloc(struct_size(seg, data, sb->seg_size), gfp);
		if (!seg)
			goto err;
		seg->num = ++sb->seg_count;
		list_add_tail(&seg->list, &wr->rmpp_list);
	}

	rmpp->rmpp_hdr.rmpp_version = wr->mad_agent_priv->agent.rmpp_version;
	rmpp->rmpp_hdr.rmpp_type = IB_MGMT_RMPP_TYPE_DATA;
	ib_set_rmpp_flags(&rmpp->rmpp_hdr, IB_MGMT_RMPP_FLAG_ACTIVE);
	wr->cur_seg = list_first_entry(&wr->rmpp_list, struct ib_rmpp_segment,
				       list);
	wr->last_ack_seg = wr->cur_seg;
	return 0;

err:
	list_for_each_entry_safe(seg, tmp, &wr->rmpp_list, list)
		kfree(seg);
	return -ENOMEM;
}

/**
 * ib_create_send_mad - allocate a MAD to send
 * @mad_agent: the agent that sends it
 * @remote_qpn: the destination QP (0 or 1 for management classes)
 * @pkey_index: the P_Key to send with
 * @rmpp_active: segment the data with RMPP (kernel RMPP agents only)
 * @hdr_len: bytes of headers (common, RMPP, class) at the start
 * @data_len: bytes of data after the headers
 * @gfp_mask: allocation flags
 * @base_version: the MAD's base version (a MAD has the InfiniBand size:
 *	no device of ours has an OPA port)
 *
 * The buffer holds one MAD (@hdr_len + @data_len padded to its size), or
 * for RMPP the headers in ->mad and the data in segments reached with
 * ib_get_rmpp_segment().  The caller fills the MAD, sets ->ah,
 * ->timeout_ms and ->retries, and posts it with ib_post_send_mad().
 *
 * Context: Any context allowed by @gfp_mask.
 * Return: the buffer, or ERR_PTR(-EINVAL) when the data does not fit one
 * MAD without RMPP or RMPP is asked of an agent that does not run it,
 * ERR_PTR(-ENOMEM).
 */
struct ib_mad_send_buf *ib_create_send_mad(struct ib_mad_agent *mad_agent,
					   u32 remote_qpn, u16 pkey_index,
					   int rmpp_active, int hdr_len,
					   int data_len, gfp_t gfp_mask,
					   u8 base_version)
{
	struct ib_mad_agent_private *priv = to_agent_priv(mad_agent);
	size_t mad_size = sizeof(struct ib_mad);
	struct ib_mad_send_wr_private *wr;
	int pad, msg_size, ret;

	/* no OPA port here: every MAD has the InfiniBand size */
	if (hdr_len < 0 || data_len < 0 || hdr_len > mad_size)
		return ERR_PTR(-EINVAL);
	pad = mad_pad_size(hdr_len, data_len, mad_size);
	msg_size = hdr_len + data_len + pad;
	if (ib_mad_kernel_rmpp_agent(mad_agent)) {
		if (!rmpp_active && msg_size > mad_size)
			return ERR_PTR(-EINVAL);
	} else if (rmpp_active || msg_size > mad_size) {
		return ERR_PTR(-EINVAL);
	}

	/* the MAD (or the RMPP headers) right after the state */
	wr = kzalloc(sizeof(*wr) + (rmpp_active ? hdr_len : mad_size),
		     gfp_mask);
	if (!wr)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&wr->rmpp_list);
	INIT_LIST_HEAD(&wr->agent_list);
	wr->mad_agent_priv = priv;
	wr->pad = pad;
	wr->send_buf.mad = wr + 1;
	wr->send_buf.hdr_len = hdr_len;
	wr->send_buf.data_len = data_len;

	wr->sg_list[0].length = hdr_len;
	wr->sg_list[0].lkey = mad_agent->qp->pd->local_dma_lkey;
	wr->sg_list[1].length = mad_size - hdr_len;
	wr->sg_list[1].lkey = mad_agent->qp->pd->local_dma_lkey;
	wr->mad_list.cqe.done = ib_mad_send_done;
	wr->mad_list.qp_info = priv->qp_info;
	wr->send_wr.wr.wr_cqe = &wr->mad_list.cqe;
	wr->send_wr.wr.sg_list = wr->sg_list;
	wr->send_wr.wr.num_sge = 2;
	wr->send_wr.wr.opcode = IB_WR_SEND;
	wr->send_wr.wr.send_flags = IB_SEND_SIGNALED;
	wr->send_wr.remote_qpn = remote_qpn;
	/* the sending QP's own Q_Key (QP1's is the well-known one) */
	wr->send_wr.remote_qkey = IB_QP_SET_QKEY;
	wr->send_wr.pkey_index = pkey_index;
	wr->send_wr.port_num = mad_agent->port_num;

	if (rmpp_active) {
		ret = mad_alloc_segments(wr, mad_size, gfp_mask);
		if (ret) {
			kfree(wr);
			return ERR_PTR(ret);
		}
	}

	wr->send_buf.mad_agent = mad_agent;
	ib_mad_agent_get(priv);
	return &wr->send_buf;
}
EXPORT_SYMBOL(ib_create_send_mad);

/**
 * ib_get_rmpp_segment - the data of one RMPP segment of a send
 * @send_buf: the buffer, created with rmpp_active
 * @seg_num: the segment, from 1
 *
 * Context: Any context.
 * Return: the segment's data (->seg_size bytes), or NULL for a number
 * the buffer does not have.
 */
void *ib_get_rmpp_segment(struct ib_mad_send_buf *send_buf, int seg_num)
{
	struct ib_mad_send_wr_private *wr = to_send_wr(send_buf);
	struct ib_rmpp_segment *seg = wr->cur_seg;

	if (!seg || seg_num < 1 || seg_num > send_buf->seg_count)
		return NULL;
	/* walk from the last one asked for: senders go forward */
	while (seg->num < seg_num)
		seg = list_next_entry(seg, list);
	while (seg->num > seg_num)
		seg = list_prev_entry(seg, list);
	wr->cur_seg = seg;
	return seg->data;
}
EXPORT_SYMBOL(ib_get_rmpp_segment);

/**
 * ib_free_send_mad - free a send buffer
 * @send_buf: the buffer; not posted, or its send handler has run
 *
 * Context: Any context.
 */
void ib_free_send_mad(struct ib_mad_send_buf *send_buf)
{
	struct ib_mad_send_wr_private *wr = to_send_wr(send_buf);
	struct ib_mad_agent_private *priv = wr->mad_agent_priv;
	struct ib_rmpp_segment *seg, *tmp;

	list_for_each_entry_safe(seg, tmp, &wr->rmpp_list, list)
		kfree(seg);
	kfree(wr);
	ib_mad_agent_put(priv);
}
EXPORT_SYMBOL(ib_free_send_mad);

/* The data the send carries now: the MAD's, or the current segment. */
static void *mad_payload(struct ib_mad_send_wr_private *wr)
{
	if (wr->send_buf.seg_count)
		return ib_get_rmpp_segment(&wr->send_buf, wr->seg_num);
	return wr->send_buf.mad + wr->send_buf.hdr_len;
}

static void mad_unmap(struct ib_mad_send_wr_private *wr)
{
	struct ib_device *dev = wr->mad_agent_priv->agent.device;

	ib_dma_unmap_single(dev, wr->header_mapping, wr->sg_list[0].length,
			    DMA_TO_DEVICE);
	ib_dma_unmap_single(dev, wr->payload_mapping, wr->sg_list[1].length,
			    DMA_TO_DEVICE);
}

/**
 * ib_send_mad - map a send and post it on its QP (or queue it)
 * @mad_send_wr: the send (the current segment, for RMPP)
 *
 * Context: Any context; takes the QP's send_lock.
 * Return: 0, or the errno of mapping or posting.
 */
int ib_send_mad(struct ib_mad_send_wr_private *mad_send_wr)
{
	struct ib_mad_agent_private *priv = mad_send_wr->mad_agent_priv;
	struct ib_mad_qp_info *qp_info = priv->qp_info;
	struct ib_device *dev = priv->agent.device;
	struct ib_mad_send_wr_private *wr = mad_send_wr;
	unsigned long flags;
	int ret = 0;

	wr->header_mapping = ib_dma_map_single(dev, wr->send_buf.mad,
					       wr->sg_list[0].length,
					       DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, wr->header_mapping))
		return -ENOMEM;
	wr->payload_mapping = ib_dma_map_single(dev, mad_payload(wr),
						wr->sg_list[1].length,
						DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, wr->payload_mapping)) {
		ib_dma_unmap_single(dev, wr->header_mapping,
				    wr->sg_list[0].length, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	wr->sg_list[0].addr = wr->header_mapping;
	wr->sg_list[1].addr = wr->payload_mapping;

	trace_ib_mad_ib_send_mad(wr, 0);
	spin_lock_irqsave(&qp_info->send_lock, flags);
	if (qp_info->send_count < ib_mad_sendq_size) {
		ret = ib_post_send(qp_info->qp, &wr->send_wr.wr, NULL);
		if (!ret) {
			list_add_tail(&wr->mad_list.list,
				      &qp_info->send_posted);
			qp_info->send_count++;
			atomic_inc(&qp_info->port_priv->outstanding);
		}
	} else {
		list_add_tail(&wr->mad_list.list, &qp_info->send_overflow);
	}
	spin_unlock_irqrestore(&qp_info->send_lock, flags);
	if (ret) {
		trace_ib_mad_error_handler(wr, ret);
		mad_unmap(wr);
	}
	return ret;
}

/*
 * Put a send that waits for its response on the wait list, in deadline
 * order, and make the timed work run by the first deadline.  Agent lock.
 */
static void mad_wait_for_response(struct ib_mad_send_wr_private *wr)
{
	struct ib_mad_agent_private *priv = wr->mad_agent_priv;
	struct ib_mad_send_wr_private *pos;
	struct list_head *at = &priv->wait_list;

	wr->deadline = jiffies + wr->timeout;
	list_del(&wr->agent_list);
	list_for_each_entry_reverse(pos, &priv->wait_list, agent_list) {
		if (time_before_eq(pos->deadline, wr->deadline)) {
			at = &pos->agent_list;
			break;
		}
	}
	list_add(&wr->agent_list, at);
	if (list_first_entry(&priv->wait_list, struct ib_mad_send_wr_private,
			     agent_list) == wr)
		mod_delayed_work(priv->port_priv->wq, &priv->timed_work,
				 wr->timeout);
}

/**
 * ib_reset_mad_timeout - restart the wait for a send's response
 * @mad_send_wr: the send, on the wait list
 * @timeout_ms: the new wait (0: expire now)
 *
 * Context: Any context; the caller holds the agent's lock.
 */
void ib_reset_mad_timeout(struct ib_mad_send_wr_private *mad_send_wr,
			  unsigned long timeout_ms)
{
	mad_send_wr->timeout = msecs_to_jiffies(timeout_ms);
	mad_wait_for_response(mad_send_wr);
}

/**
 * ib_mad_complete_send_wr - one thing a send waited for has happened
 * @mad_send_wr: the send
 * @mad_send_wc: how: the QP's completion status, or IB_WC_SUCCESS for a
 *	response
 *
 * The first failure decides the send's status, and a failed send waits
 * for no response.  When nothing is left to wait for, the agent's send
 * handler runs (from here, without locks).
 *
 * Context: Process context or a CQ's polling context; takes the agent's
 * lock.
 */
void ib_mad_complete_send_wr(struct ib_mad_send_wr_private *mad_send_wr,
			     struct ib_mad_send_wc *mad_send_wc)
{
	struct ib_mad_send_wr_private *wr = mad_send_wr;
	struct ib_mad_agent_private *priv = wr->mad_agent_priv;
	int rmpp = IB_RMPP_RESULT_UNHANDLED;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (ib_mad_kernel_rmpp_agent(&priv->agent)) {
		rmpp = ib_process_rmpp_send_wc(wr, mad_send_wc);
		if (rmpp == IB_RMPP_RESULT_CONSUMED)
			goto unlock;
	}
	if (mad_send_wc->status != IB_WC_SUCCESS &&
	    wr->status == IB_WC_SUCCESS) {
		wr->status = mad_send_wc->status;
		/* no response is waited for any more */
		wr->pending -= wr->timeout > 0;
	}
	if (--wr->pending > 0) {
		/* sent: now the response alone is awaited */
		if (wr->pending == 1 && wr->timeout &&
		    wr->status == IB_WC_SUCCESS)
			mad_wait_for_response(wr);
		goto unlock;
	}
	list_del_init(&wr->agent_list);
	spin_unlock_irqrestore(&priv->lock, flags);

	if (wr->status != IB_WC_SUCCESS)
		mad_send_wc->status = wr->status;
	if (rmpp == IB_RMPP_RESULT_INTERNAL) {
		ib_rmpp_send_handler(mad_send_wc);
	} else {
		trace_ib_mad_send_done_agent(priv);
		priv->agent.send_handler(&priv->agent, mad_send_wc);
	}
	/* the reference the posting took */
	ib_mad_agent_put(priv);
	return;

unlock:
	spin_unlock_irqrestore(&priv->lock, flags);
}

/**
 * ib_mad_send_done - the QP completed a send
 * @cq: the port's CQ
 * @wc: the work completion
 *
 * Posts the first send of the overflow list in its place, then completes
 * the send.
 *
 * Context: The CQ's polling work (process context).
 */
void ib_mad_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ib_mad_list_head *ml = container_of(wc->wr_cqe,
						   struct ib_mad_list_head,
						   cqe);
	struct ib_mad_send_wr_private *wr =
		container_of(ml, struct ib_mad_send_wr_private, mad_list);
	struct ib_mad_qp_info *qp_info = ml->qp_info;
	struct ib_mad_send_wr_private *next = NULL;
	struct ib_mad_send_wc swc;
	unsigned long flags;
	int ret = 0;

	trace_ib_mad_send_done_handler(wr, wc->status);
	mad_unmap(wr);

	spin_lock_irqsave(&qp_info->send_lock, flags);
	list_del(&ml->list);
	qp_info->send_count--;
	if (!list_empty(&qp_info->send_overflow)) {
		next = list_first_entry(&qp_info->send_overflow,
					struct ib_mad_send_wr_private,
					mad_list.list);
		ret = ib_post_send(qp_info->qp, &next->send_wr.wr, NULL);
		if (!ret) {
			list_move_tail(&next->mad_list.list,
				       &qp_info->send_posted);
			qp_info->send_count++;
			atomic_inc(&qp_info->port_priv->outstanding);
		} else {
			list_del(&next->mad_list.list);
		}
	}
	spin_unlock_irqrestore(&qp_info->send_lock, flags);

	swc.send_buf = &wr->send_buf;
	swc.status = wc->status;
	swc.vendor_err = wc->vendor_err;
	ib_mad_complete_send_wr(wr, &swc);

	if (next && ret) {
		/* the queued one could not go: it fails */
		mad_unmap(next);
		swc.send_buf = &next->send_buf;
		swc.status = IB_WC_LOC_QP_OP_ERR;
		swc.vendor_err = 0;
		ib_mad_complete_send_wr(next, &swc);
	}
	if (atomic_dec_and_test(&qp_info->port_priv->outstanding))
		wake_up_var(&qp_info->port_priv->outstanding);
}

/**
 * ib_mad_flush_send_queue - fail the sends waiting for room on a QP
 * @qp_info: the QP, being destroyed
 *
 * Context: Process context; takes the QP's send_lock and the agents'
 * locks.
 */
void ib_mad_flush_send_queue(struct ib_mad_qp_info *qp_info)
{
	struct ib_mad_send_wr_private *wr, *tmp;
	struct ib_mad_send_wc swc = { .status = IB_WC_WR_FLUSH_ERR };
	LIST_HEAD(flush);

	spin_lock_irq(&qp_info->send_lock);
	list_splice_init(&qp_info->send_overflow, &flush);
	spin_unlock_irq(&qp_info->send_lock);

	list_for_each_entry_safe(wr, tmp, &flush, mad_list.list) {
		list_del(&wr->mad_list.list);
		mad_unmap(wr);
		swc.send_buf = &wr->send_buf;
		ib_mad_complete_send_wr(wr, &swc);
	}
}

/*
 * Send again after a timeout.  Agent lock held.  Returns 0 when it went
 * (the send is back on the send list, waiting for the QP), else the
 * reason it did not.
 */
static int mad_retry_send(struct ib_mad_send_wr_private *wr)
{
	struct ib_mad_agent_private *priv = wr->mad_agent_priv;
	int ret;

	if (!wr->retries_left)
		return -ETIMEDOUT;
	wr->retries_left--;
	wr->send_buf.retries++;
	wr->timeout = msecs_to_jiffies(wr->send_buf.timeout_ms);
	trace_ib_mad_send_done_resend(wr, 0);

	if (ib_mad_kernel_rmpp_agent(&priv->agent)) {
		ret = ib_retry_rmpp(wr);
		switch (ret) {
		case IB_RMPP_RESULT_UNHANDLED:
			ret = ib_send_mad(wr);
			break;
		case IB_RMPP_RESULT_CONSUMED:
			ret = 0;
			break;
		default:
			ret = -ECOMM;
			break;
		}
	} else {
		ret = ib_send_mad(wr);
	}
	if (!ret) {
		wr->pending++;
		list_move_tail(&wr->agent_list, &priv->send_list);
	}
	return ret;
}

/**
 * ib_mad_timeout_sends - expire the sends whose response is late
 * @work: the agent's timed_work
 *
 * Each send past its deadline goes again while it has retries left, and
 * otherwise completes with IB_WC_RESP_TIMEOUT_ERR (or the status it was
 * cancelled with).
 *
 * Context: The port's workqueue; takes the agent's lock.
 */
void ib_mad_timeout_sends(struct work_struct *work)
{
	struct ib_mad_agent_private *priv =
		container_of(work, struct ib_mad_agent_private,
			     timed_work.work);
	struct ib_mad_send_wr_private *wr;
	struct ib_mad_send_wc swc = {};
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	while (!list_empty(&priv->wait_list)) {
		wr = list_first_entry(&priv->wait_list,
				      struct ib_mad_send_wr_private,
				      agent_list);
		if (time_after(wr->deadline, jiffies)) {
			mod_delayed_work(priv->port_priv->wq,
					 &priv->timed_work,
					 wr->deadline - jiffies);
			break;
		}
		if (wr->status == IB_WC_SUCCESS && !mad_retry_send(wr))
			continue;
		list_del_init(&wr->agent_list);
		spin_unlock_irqrestore(&priv->lock, flags);

		swc.send_buf = &wr->send_buf;
		swc.status = wr->status == IB_WC_SUCCESS ?
			     IB_WC_RESP_TIMEOUT_ERR : wr->status;
		trace_ib_mad_send_done_agent(priv);
		priv->agent.send_handler(&priv->agent, &swc);
		ib_mad_agent_put(priv);

		spin_lock_irqsave(&priv->lock, flags);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
}

/* The send of @send_buf among the agent's, or NULL.  Agent lock. */
static struct ib_mad_send_wr_private *
mad_find_send_buf(struct ib_mad_agent_private *priv,
		  struct ib_mad_send_buf *send_buf)
{
	struct ib_mad_send_wr_private *wr;

	list_for_each_entry(wr, &priv->wait_list, agent_list)
		if (&wr->send_buf == send_buf)
			return wr;
	list_for_each_entry(wr, &priv->send_list, agent_list)
		if (&wr->send_buf == send_buf)
			return wr;
	return NULL;
}

/**
 * ib_modify_mad - change how long a send waits for its response
 * @send_buf: the send, posted
 * @timeout_ms: the new wait from now; 0 cancels the send (it completes
 *	with IB_WC_WR_FLUSH_ERR)
 *
 * Context: Any context; takes the agent's lock.
 * Return: 0, or -EINVAL when the send is not outstanding any more (it
 * completed, got its response, or was cancelled already).
 */
int ib_modify_mad(struct ib_mad_send_buf *send_buf, u32 timeout_ms)
{
	struct ib_mad_agent_private *priv;
	struct ib_mad_send_wr_private *wr;
	unsigned long flags;
	bool on_qp;

	if (!send_buf)
		return -EINVAL;
	priv = to_agent_priv(send_buf->mad_agent);
	spin_lock_irqsave(&priv->lock, flags);
	wr = mad_find_send_buf(priv, send_buf);
	if (!wr || wr->status != IB_WC_SUCCESS || wr->done) {
		spin_unlock_irqrestore(&priv->lock, flags);
		return -EINVAL;
	}

	/* still on the QP (or in the RMPP window): not on the wait list */
	on_qp = !wr->timeout || wr->pending > 1;
	if (!timeout_ms) {
		wr->status = IB_WC_WR_FLUSH_ERR;
		wr->pending -= wr->timeout > 0;
	}
	send_buf->timeout_ms = timeout_ms;
	if (on_qp)
		wr->timeout = msecs_to_jiffies(timeout_ms);
	else
		ib_reset_mad_timeout(wr, timeout_ms);
	spin_unlock_irqrestore(&priv->lock, flags);
	return 0;
}
EXPORT_SYMBOL(ib_modify_mad);

/**
 * ib_mad_cancel_sends - end every send of an agent being unregistered
 * @priv: the agent
 *
 * Sends still on the QP complete with IB_WC_WR_FLUSH_ERR when the QP is
 * done with them; those waiting for a response complete so now.
 *
 * Context: Process context; takes the agent's lock.
 */
void ib_mad_cancel_sends(struct ib_mad_agent_private *priv)
{
	struct ib_mad_send_wr_private *wr, *tmp;
	struct ib_mad_send_wc swc = { .status = IB_WC_WR_FLUSH_ERR };
	LIST_HEAD(cancel);

	spin_lock_irq(&priv->lock);
	list_for_each_entry(wr, &priv->send_list, agent_list) {
		/* one that got its response ends as answered */
		if (wr->status == IB_WC_SUCCESS && !wr->done) {
			wr->status = IB_WC_WR_FLUSH_ERR;
			wr->pending -= wr->timeout > 0;
		}
	}
	/* no response finds these any more */
	list_splice_init(&priv->wait_list, &cancel);
	spin_unlock_irq(&priv->lock);

	list_for_each_entry_safe(wr, tmp, &cancel, agent_list) {
		list_del_init(&wr->agent_list);
		swc.send_buf = &wr->send_buf;
		priv->agent.send_handler(&priv->agent, &swc);
		ib_mad_agent_put(priv);
	}
}

/*
 * Can the response of @wc answer @wr?  Without a GRH, any LID may answer
 * (a class manager may answer from another of its LIDs); with one, the
 * response must be addressed to the GID the request came from.
 */
static bool mad_same_peer(struct ib_mad_send_wr_private *wr,
			  const struct ib_mad_recv_wc *wc)
{
	const struct ib_mad_hdr *hdr = &wc->recv_buf.mad->mad_hdr;
	const struct ib_gid_attr *sgid_attr;
	bool recv_grh = wc->wc->wc_flags & IB_WC_GRH;

	/* directed-route SMPs come back by their return path */
	if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return true;
	if (!wr->send_buf.ah)
		return true;	/* nothing to compare with */
	/* an AH with a GRH holds its source GID's entry */
	sgid_attr = wr->send_buf.ah->sgid_attr;
	if (!sgid_attr || !recv_grh)
		return !sgid_attr && !recv_grh;
	/*
	 * RoCE v2 over IPv4 puts the IPv4 header in the GRH's last 20
	 * bytes; its destination is the IPv4-mapped GID the request came
	 * from (an IPv6 header has its addresses where a GRH has them)
	 */
	if ((wc->wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE) &&
	    wc->wc->network_hdr_type == RDMA_NETWORK_IPV4) {
		const struct iphdr *iph = (const void *)wc->recv_buf.grh + 20;
		struct in6_addr dgid;

		ipv6_addr_set_v4mapped(iph->daddr, &dgid);
		return !memcmp(sgid_attr->gid.raw, dgid.s6_addr,
			       sizeof(dgid));
	}
	return !memcmp(sgid_attr->gid.raw, wc->recv_buf.grh->dgid.raw,
		       sizeof(union ib_gid));
}

/**
 * ib_find_send_mad - the send a received response answers
 * @priv: the agent the response was routed to
 * @wc: the response
 *
 * A send matches by TID and class, and by the peer it went to.  Sends
 * still on the QP are found too: a response may overtake the QP's
 * completion of its request.
 *
 * Context: Any context; the caller holds the agent's lock.
 * Return: the send, or NULL.
 */
struct ib_mad_send_wr_private *
ib_find_send_mad(struct ib_mad_agent_private *priv,
		 const struct ib_mad_recv_wc *wc)
{
	const struct ib_mad_hdr *hdr = &wc->recv_buf.mad->mad_hdr;
	struct ib_mad_send_wr_private *wr;

	list_for_each_entry(wr, &priv->wait_list, agent_list) {
		if (wr->tid == hdr->tid &&
		    ((struct ib_mad_hdr *)wr->send_buf.mad)->mgmt_class ==
		    hdr->mgmt_class && mad_same_peer(wr, wc))
			return wr->status == IB_WC_SUCCESS ? wr : NULL;
	}
	list_for_each_entry(wr, &priv->send_list, agent_list) {
		if (wr->tid == hdr->tid && wr->timeout &&
		    ((struct ib_mad_hdr *)wr->send_buf.mad)->mgmt_class ==
		    hdr->mgmt_class && mad_same_peer(wr, wc))
			return wr->status == IB_WC_SUCCESS ? wr : NULL;
	}
	return NULL;
}

/**
 * ib_mark_mad_done - a send got its response
 * @mad_send_wr: the send
 *
 * It waits for the response no longer, and a cancel no longer changes
 * how it ends: the response is delivered already, or is being.  The
 * caller completes it with ib_mad_complete_send_wr() once the response
 * is delivered.
 *
 * Context: Any context; the caller holds the agent's lock.
 */
void ib_mark_mad_done(struct ib_mad_send_wr_private *mad_send_wr)
{
	mad_send_wr->timeout = 0;
	mad_send_wr->done = true;
	/* off the wait list, so that nothing expires it meanwhile */
	if (mad_send_wr->pending == 1)
		list_move_tail(&mad_send_wr->agent_list,
			       &mad_send_wr->mad_agent_priv->send_list);
}

/**
 * ib_post_send_mad - send MADs
 * @send_buf: the first buffer; ->next chains more
 * @bad_send_buf: where the first buffer that could not be posted goes
 *
 * Each buffer is sent on the agent's QP; when its ->timeout_ms is set a
 * response is awaited, and the send is retried ->retries times before it
 * completes with IB_WC_RESP_TIMEOUT_ERR.  ->retries then counts the
 * resends made.  Directed-route SMPs the local device answers never
 * reach the wire.  Every posted buffer completes once to the agent's
 * send handler.
 *
 * Context: Any context; takes the agent's lock and the QP's send_lock.
 * Return: 0, or -EINVAL for a buffer its agent cannot send (no send
 * handler, a timeout without a receive handler, a class or RMPP setting
 * the agent does not have, an invalid directed route), or the error of
 * the QP.
 */
int ib_post_send_mad(struct ib_mad_send_buf *send_buf,
		     struct ib_mad_send_buf **bad_send_buf)
{
	struct ib_mad_send_buf *next;
	int ret = -EINVAL;

	for (; send_buf; send_buf = next) {
		struct ib_mad_send_wr_private *wr = to_send_wr(send_buf);
		struct ib_mad_agent_private *priv = wr->mad_agent_priv;
		struct ib_mad_hdr *hdr = send_buf->mad;
		unsigned long flags;

		ret = -EINVAL;
		if (!send_buf->mad_agent->send_handler ||
		    (send_buf->timeout_ms &&
		     !send_buf->mad_agent->recv_handler))
			goto error;
		if (priv->agent.rmpp_version &&
		    !ib_is_mad_class_rmpp(hdr->mgmt_class))
			goto error;

		/* the buffer may be reused from its completion on */
		next = send_buf->next;
		wr->send_wr.ah = send_buf->ah;

		if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
			ret = ib_mad_handle_outgoing_dr_smp(priv, wr);
			if (ret < 0)
				goto error;
			if (ret == 1)	/* the local device answered */
				continue;
		}

		wr->tid = hdr->tid;
		wr->timeout = msecs_to_jiffies(send_buf->timeout_ms);
		wr->max_retries = send_buf->retries;
		wr->retries_left = send_buf->retries;
		send_buf->retries = 0;
		wr->pending = 1 + (wr->timeout > 0);
		wr->status = IB_WC_SUCCESS;
		wr->done = false;
		wr->seg_num = 0;

		spin_lock_irqsave(&priv->lock, flags);
		if (priv->unregistering) {
			spin_unlock_irqrestore(&priv->lock, flags);
			ret = -ENODEV;
			goto error;
		}
		/* until the send handler ran */
		ib_mad_agent_get(priv);
		list_add_tail(&wr->agent_list, &priv->send_list);
		spin_unlock_irqrestore(&priv->lock, flags);

		if (ib_mad_kernel_rmpp_agent(&priv->agent)) {
			ret = ib_send_rmpp_mad(wr);
			if (ret >= 0 && ret != IB_RMPP_RESULT_CONSUMED)
				ret = ib_send_mad(wr);
		} else {
			ret = ib_send_mad(wr);
		}
		if (ret < 0) {
			spin_lock_irqsave(&priv->lock, flags);
			list_del_init(&wr->agent_list);
			spin_unlock_irqrestore(&priv->lock, flags);
			ib_mad_agent_put(priv);
			goto error;
		}
	}
	return 0;

error:
	if (bad_send_buf)
		*bad_send_buf = send_buf;
	return ret;
}
EXPORT_SYMBOL(ib_post_send_mad);
