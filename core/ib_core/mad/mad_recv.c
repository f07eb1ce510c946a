// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receiving MADs on QP0 and QP1: the receive buffers, what a received
 * MAD goes through (validation, directed-route handling, the device's
 * process_mad, an agent), matching responses to their requests, and the
 * "unsupported" answer to a Get or Set nobody takes.
 */

#include <linux/dma-mapping.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "mad_priv.h"
#include "mad_trace.h"
#include "smi.h"

/**
 * ib_mad_alloc_private - allocate a receive buffer
 * @mad_size: bytes of MAD it holds
 * @gfp: allocation flags
 *
 * Context: Any context allowed by @gfp.
 * Return: the buffer, zeroed, or NULL.
 */
struct ib_mad_private *ib_mad_alloc_private(size_t mad_size, gfp_t gfp)
{
	struct ib_mad_private *mp;

	mp = kzalloc(struct_size(mp, mad, mad_size), gfp);
	if (mp)
		mp->mad_size = mad_size;
	return mp;
}

/* The GRH slot and the MAD, as one receive. */
static size_t mad_recv_len(const struct ib_mad_private *mp)
{
	return sizeof(struct ib_grh) + mp->mad_size;
}

/*
 * The receive ring.  A QP's ib_mad_recvq_size buffers are allocated when
 * the port opens, IB_MAD_RECV_CHUNK to an allocation, and stay the QP's
 * until it is destroyed: a completed buffer is posted again in place,
 * and a MAD that goes to an agent is copied into a buffer of its own
 * (the response buffer every receive allocates anyway, see
 * mad_hand_over()).  Opening and closing a port thus costs a few dozen
 * allocations instead of one per buffer, and a flushed buffer needs no
 * freeing.  A chunk of 16 buffers is about 8 KiB.
 */
#define IB_MAD_RECV_CHUNK	16

/*
 * Buffers of a chunk start on a new cache line where DMA is not cache
 * coherent: the CPU writes the next buffer's list entry while this one's
 * receive is mapped.
 */
static size_t mad_recv_stride(void)
{
	return ALIGN(struct_size_t(struct ib_mad_private, mad,
				   sizeof(struct ib_mad)),
		     max_t(size_t, __alignof__(struct ib_mad_private),
			   dma_get_cache_alignment()));
}

/*
 * Post @mp, a buffer of the ring, on its QP.  Nothing is posted once the
 * port is closing.  Context: any; takes the QP's recv_lock.
 */
static int mad_post_recv(struct ib_mad_qp_info *qp_info,
			 struct ib_mad_private *mp)
{
	struct ib_mad_port_private *pp = qp_info->port_priv;
	struct ib_device *dev = pp->device;
	struct ib_sge sge = {
		.length = mad_recv_len(mp),
		.lkey = pp->pd->local_dma_lkey,
	};
	struct ib_recv_wr rwr = {
		.wr_cqe = &mp->mad_list.cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};
	unsigned long flags;
	int ret;

	mp->mapping = ib_dma_map_single(dev, &mp->grh, sge.length,
					DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, mp->mapping))
		return -ENOMEM;
	sge.addr = mp->mapping;
	mp->mad_list.cqe.done = ib_mad_recv_done;
	mp->mad_list.qp_info = qp_info;

	spin_lock_irqsave(&qp_info->recv_lock, flags);
	if (READ_ONCE(pp->closing)) {
		ret = -ESHUTDOWN;
		goto unlock;
	}
	ret = ib_post_recv(qp_info->qp, &rwr, NULL);
	if (ret) {
		ibdev_err(dev, "MAD: port %u QP%u: posting a receive failed: %d\n",
			  pp->port_num, qp_info->qp->qp_num, ret);
		goto unlock;
	}
	list_add_tail(&mp->mad_list.list, &qp_info->recv_posted);
	qp_info->recv_count++;
	atomic_inc(&pp->outstanding);
unlock:
	spin_unlock_irqrestore(&qp_info->recv_lock, flags);
	if (ret)
		ib_dma_unmap_single(dev, mp->mapping, sge.length,
				    DMA_FROM_DEVICE);
	return ret;
}

/**
 * ib_mad_open_receives - allocate a QP's receive ring and post all of it
 * @qp_info: the QP, ready for receives
 *
 * On an error the buffers posted so far stay posted; the port's close
 * (ib_mad_cleanup_receives() after the QP is gone) frees the ring.
 *
 * Context: Process context; allocates with GFP_KERNEL, takes the QP's
 * recv_lock.
 * Return: 0, -ENOMEM, or the error of the buffer that could not be posted.
 */
int ib_mad_open_receives(struct ib_mad_qp_info *qp_info)
{
	size_t stride = mad_recv_stride();
	unsigned int n = ib_mad_recvq_size, c, i;
	int ret;

	qp_info->recv_chunks = kcalloc(DIV_ROUND_UP(n, IB_MAD_RECV_CHUNK),
				       sizeof(void *), GFP_KERNEL);
	if (!qp_info->recv_chunks)
		return -ENOMEM;
	for (c = 0; n; c++) {
		unsigned int k = min(n, IB_MAD_RECV_CHUNK);
		void *chunk = kcalloc(k, stride, GFP_KERNEL);

		if (!chunk)
			return -ENOMEM;
		qp_info->recv_chunks[c] = chunk;
		qp_info->recv_nchunks++;
		for (i = 0; i < k; i++) {
			struct ib_mad_private *mp = chunk + i * stride;

			mp->mad_size = sizeof(struct ib_mad);
			ret = mad_post_recv(qp_info, mp);
			if (ret)
				return ret;
		}
		n -= k;
	}
	return 0;
}

/**
 * ib_mad_cleanup_receives - free a destroyed QP's receive ring
 * @qp_info: the QP
 *
 * Context: Process context, after the QP is gone.
 */
void ib_mad_cleanup_receives(struct ib_mad_qp_info *qp_info)
{
	struct ib_device *dev = qp_info->port_priv->device;
	struct ib_mad_private *mp, *tmp;
	unsigned int c;

	list_for_each_entry_safe(mp, tmp, &qp_info->recv_posted,
				 mad_list.list) {
		list_del(&mp->mad_list.list);
		ib_dma_unmap_single(dev, mp->mapping, mad_recv_len(mp),
				    DMA_FROM_DEVICE);
	}
	qp_info->recv_count = 0;
	for (c = 0; c < qp_info->recv_nchunks; c++)
		kfree(qp_info->recv_chunks[c]);
	kfree(qp_info->recv_chunks);
	qp_info->recv_chunks = NULL;
	qp_info->recv_nchunks = 0;
}

/**
 * ib_free_recv_mad - free a received MAD
 * @mad_recv_wc: what the receive handler was given
 *
 * Frees every segment of an RMPP transfer too.
 *
 * Context: Any context.
 */
void ib_free_recv_mad(struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ib_mad_recv_buf *buf, *tmp;
	LIST_HEAD(segments);

	/* the list's head lives in the first segment: take it out first */
	list_splice_init(&mad_recv_wc->rmpp_list, &segments);
	list_for_each_entry_safe(buf, tmp, &segments, list) {
		struct ib_mad_recv_wc *wc =
			container_of(buf, struct ib_mad_recv_wc, recv_buf);

		kfree(container_of(wc, struct ib_mad_private, recv_wc));
	}
}
EXPORT_SYMBOL(ib_free_recv_mad);

/*
 * May this MAD arrive on this QP?  SMPs on QP0 only, everything else on
 * QP1 only; CM MADs other than ClassPortInfo use the Send method only.
 */
static bool mad_valid(const struct ib_mad_hdr *hdr,
		      const struct ib_mad_qp_info *qp_info)
{
	bool on_qp0 = qp_info->qp->qp_num == 0;

	if (hdr->base_version != IB_MGMT_BASE_VERSION)
		return false;
	if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	    hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		return on_qp0;
	if (hdr->mgmt_class == IB_MGMT_CLASS_CM &&
	    hdr->attr_id != IB_MGMT_CLASSPORTINFO_ATTR_ID &&
	    hdr->method != IB_MGMT_METHOD_SEND)
		return false;
	return !on_qp0;
}

/*
 * Directed-route processing of a received SMP (IBTA 14.2.2.3): drop it,
 * or go on with it here.  A channel adapter forwards nothing; a switch
 * device would send an SMP on through another port, which no driver of
 * ours has.
 */
static enum smi_action mad_handle_smi(struct ib_mad_port_private *pp,
				      u32 port_num, struct ib_smp *smp)
{
	bool is_switch = rdma_cap_ib_switch(pp->device);

	trace_ib_mad_handle_ib_smi(pp->device, port_num, smp);
	if (smi_handle_dr_smp_recv(smp, is_switch, port_num,
				   pp->device->phys_port_cnt) ==
	    IB_SMI_DISCARD)
		return IB_SMI_DISCARD;

	switch (smi_check_forward_dr_smp(smp)) {
	case IB_SMI_LOCAL:
		return IB_SMI_HANDLE;
	case IB_SMI_SEND:
		/* the route's last hop is here, on the way back */
		if (smi_handle_dr_smp_send(smp, is_switch, port_num) ==
		    IB_SMI_DISCARD)
			return IB_SMI_DISCARD;
		return smi_check_local_smp(smp, pp->device);
	default:
		ibdev_dbg(pp->device,
			  "MAD: port %u: an SMP to forward, dropped (not a switch)\n",
			  pp->port_num);
		return IB_SMI_DISCARD;
	}
}

/*
 * A Get or Set nobody took is answered "unsupported method/attribute
 * combination" (IBTA 13.4.7); anything else is dropped.
 */
static bool mad_unmatched_response(const struct ib_mad_private *recv,
				   struct ib_mad_private *resp)
{
	const struct ib_mad_hdr *rh = (const void *)recv->mad;
	struct ib_mad_hdr *h = (void *)resp->mad;

	if (rh->method != IB_MGMT_METHOD_GET &&
	    rh->method != IB_MGMT_METHOD_SET)
		return false;
	memcpy(resp->mad, recv->mad, recv->mad_size);
	h->method = IB_MGMT_METHOD_GET_RESP;
	h->status = cpu_to_be16(IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB);
	if (rh->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		h->status |= IB_SMP_DIRECTION;
	return true;
}

/**
 * ib_mad_complete_recv - hand a received MAD to its agent
 * @priv: the agent, referenced (the reference is dropped here)
 * @mad_recv_wc: the MAD; the agent's receive handler or this function
 *	frees it
 *
 * RMPP segments of kernel RMPP agents are reassembled first.  A response
 * goes with the send it answers, which then completes; a response that
 * answers nothing is dropped.
 *
 * Context: Process context; takes the agent's lock.
 */
void ib_mad_complete_recv(struct ib_mad_agent_private *priv,
			  struct ib_mad_recv_wc *mad_recv_wc)
{
	struct ib_mad_send_wr_private *wr;
	struct ib_mad_send_wc swc;
	const struct ib_mad_hdr *hdr;
	unsigned long flags;

	if (ib_mad_kernel_rmpp_agent(&priv->agent)) {
		mad_recv_wc = ib_process_rmpp_recv_wc(priv, mad_recv_wc);
		if (!mad_recv_wc) {
			ib_mad_agent_put(priv);
			return;
		}
	}
	hdr = &mad_recv_wc->recv_buf.mad->mad_hdr;
	trace_ib_mad_recv_done_agent(priv);

	if (!ib_response_mad(hdr)) {
		priv->agent.recv_handler(&priv->agent, NULL, mad_recv_wc);
		ib_mad_agent_put(priv);
		return;
	}

	spin_lock_irqsave(&priv->lock, flags);
	wr = ib_find_send_mad(priv, mad_recv_wc);
	if (!wr) {
		const struct ib_rmpp_mad *rmpp = (const void *)hdr;

		spin_unlock_irqrestore(&priv->lock, flags);
		/*
		 * An agent doing RMPP itself gets every segment of a
		 * response: only the first one matched its request.
		 */
		if (!ib_mad_kernel_rmpp_agent(&priv->agent) &&
		    ib_is_mad_class_rmpp(hdr->mgmt_class) &&
		    (ib_get_rmpp_flags((struct ib_rmpp_hdr *)&rmpp->rmpp_hdr) &
		     IB_MGMT_RMPP_FLAG_ACTIVE))
			priv->agent.recv_handler(&priv->agent, NULL,
						 mad_recv_wc);
		else
			ib_free_recv_mad(mad_recv_wc);
		ib_mad_agent_put(priv);
		return;
	}
	ib_mark_mad_done(wr);
	spin_unlock_irqrestore(&priv->lock, flags);

	/* the response is delivered before its request completes */
	priv->agent.recv_handler(&priv->agent, &wr->send_buf, mad_recv_wc);
	ib_mad_agent_put(priv);

	swc.status = IB_WC_SUCCESS;
	swc.vendor_err = 0;
	swc.send_buf = &wr->send_buf;
	ib_mad_complete_send_wr(wr, &swc);
}

/* Make @mp's receive work completion describe its own MAD. */
static void mad_init_recv_wc(struct ib_mad_private *mp)
{
	mp->recv_wc.wc = &mp->wc;
	mp->recv_wc.mad_len = sizeof(struct ib_mad);
	mp->recv_wc.mad_seg_size = sizeof(struct ib_mad);
	mp->recv_wc.recv_buf.mad = (struct ib_mad *)mp->mad;
	mp->recv_wc.recv_buf.grh = &mp->grh;
	INIT_LIST_HEAD(&mp->recv_wc.rmpp_list);
	list_add(&mp->recv_wc.recv_buf.list, &mp->recv_wc.rmpp_list);
}

/*
 * An agent takes the MAD of @recv, a buffer of the receive ring, which
 * stays on the QP: @to, a buffer of the same size, becomes a copy the
 * agent owns (freed by ib_free_recv_mad()).
 */
static void mad_hand_over(struct ib_mad_private *to,
			  const struct ib_mad_private *recv)
{
	to->wc = recv->wc;
	to->grh = recv->grh;
	memcpy(to->mad, recv->mad, recv->mad_size);
	mad_init_recv_wc(to);
}

/*
 * What a receive's MAD goes through.  True: an agent took it, in @resp
 * (mad_hand_over()); false: @resp is the caller's to free.
 */
static bool mad_dispatch(struct ib_mad_port_private *pp,
			 struct ib_mad_qp_info *qp_info,
			 struct ib_mad_private *recv,
			 struct ib_mad_private *resp)
{
	struct ib_mad_hdr *hdr = (struct ib_mad_hdr *)recv->mad;
	struct ib_device *dev = pp->device;
	struct ib_mad_agent_private *priv;
	size_t mad_size = recv->mad_size;
	int ret = IB_MAD_RESULT_SUCCESS;
	u16 pkey_index = 0;
	u32 port_num;

	port_num = rdma_cap_ib_switch(dev) ? recv->wc.port_num : pp->port_num;

	if (hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE &&
	    mad_handle_smi(pp, port_num, (struct ib_smp *)recv->mad) ==
	    IB_SMI_DISCARD)
		return false;

	/* the device first: it may answer or swallow the MAD */
	if (dev->ops.process_mad) {
		ret = dev->ops.process_mad(dev, 0, pp->port_num, &recv->wc,
					   &recv->grh,
					   (const struct ib_mad *)recv->mad,
					   (struct ib_mad *)resp->mad,
					   &mad_size, &pkey_index);
		if (ret & IB_MAD_RESULT_SUCCESS) {
			if (ret & IB_MAD_RESULT_CONSUMED)
				return false;
			if (ret & IB_MAD_RESULT_REPLY) {
				ib_mad_send_response(pp, qp_info, &recv->wc,
						     &recv->grh, resp->mad,
						     mad_size, port_num);
				return false;
			}
		}
	}

	priv = ib_mad_find_agent(pp, hdr);
	if (priv) {
		mad_hand_over(resp, recv);
		ib_mad_complete_recv(priv, &resp->recv_wc);
		return true;
	}
	if ((ret & IB_MAD_RESULT_SUCCESS) &&
	    mad_unmatched_response(recv, resp))
		ib_mad_send_response(pp, qp_info, &recv->wc, &recv->grh,
				     resp->mad, recv->mad_size, port_num);
	return false;
}

/**
 * ib_mad_recv_done - a MAD QP received something
 * @cq: the port's CQ
 * @wc: the work completion
 *
 * The MAD goes to an agent (as a copy) or is answered or dropped; the
 * buffer goes back on the queue.
 *
 * Context: The CQ's polling work (process context).
 */
void ib_mad_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ib_mad_list_head *ml = container_of(wc->wr_cqe,
						   struct ib_mad_list_head,
						   cqe);
	struct ib_mad_private *recv = container_of(ml, struct ib_mad_private,
						   mad_list);
	struct ib_mad_qp_info *qp_info = ml->qp_info;
	struct ib_mad_port_private *pp = qp_info->port_priv;
	struct ib_mad_private *resp = NULL;
	unsigned long flags;

	spin_lock_irqsave(&qp_info->recv_lock, flags);
	list_del(&ml->list);
	qp_info->recv_count--;
	spin_unlock_irqrestore(&qp_info->recv_lock, flags);
	ib_dma_unmap_single(pp->device, recv->mapping, mad_recv_len(recv),
			    DMA_FROM_DEVICE);

	/* an error: the QP is going down; the buffer stays in the ring */
	if (wc->status != IB_WC_SUCCESS || READ_ONCE(pp->closing))
		goto done;
	trace_ib_mad_recv_done_handler(qp_info, wc,
				       (const struct ib_mad_hdr *)recv->mad);

	recv->wc = *wc;
	mad_init_recv_wc(recv);
	if (!mad_valid((struct ib_mad_hdr *)recv->mad, qp_info))
		goto repost;
	resp = ib_mad_alloc_private(recv->mad_size, GFP_KERNEL);
	if (!resp)
		goto repost;
	/* an agent that took the MAD owns @resp, a copy of it */
	if (!mad_dispatch(pp, qp_info, recv, resp))
		kfree(resp);
	memset(recv, 0, struct_size(recv, mad, recv->mad_size));
	recv->mad_size = sizeof(struct ib_mad);
repost:
	mad_post_recv(qp_info, recv);
done:
	if (atomic_dec_and_test(&pp->outstanding))
		wake_up_var(&pp->outstanding);
}
