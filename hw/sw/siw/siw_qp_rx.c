// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: the receiver of a QP's stream.  tcp_read_sock() hands it the
 * bytes as they came, in skbs that cut FPDUs anywhere (a header too);
 * the receiver walks each FPDU in three phases: the header, collected
 * until siw_fpdu_parse_hdr() has all of it and checked; the payload,
 * copied out of the skb in chunks and placed as it comes (SEND through
 * rvt_recv_place(), WRITE and READ response through rdmavt's tagged
 * placement and the READ's own walk); the pad and CRC field, after which
 * the CRC is checked (when negotiated) and the message completes if the
 * FPDU was its last.  A READ request is answered by the transmitter.
 *
 * Any error ends the stream: a TERMINATE (layer, type and code as
 * upstream siw chooses them) goes out, and the receiver discards what
 * follows.
 *
 * Context: the socket's data_ready (softirq or process context) or
 * stream start, under sk_callback_lock (read).  See siw_qp.c.
 */

#include <linux/skbuff.h>
#include <net/tcp.h>

#include "siw.h"
#include "siw_qp.h"
#include "siw_trace.h"

/**
 * siw_rx_reset - the receiver's state for a new stream
 * @st: the data path; no receive runs
 *
 * A receive WQE half placed stays rdmavt's: the QP's flush completes
 * it.
 */
void siw_rx_reset(struct siw_qp_stream *st)
{
	st->rx_phase = SIW_RX_HDR;
	st->rx_dead = false;
	st->rx_first = false;
	st->rx_have = 0;
	st->rx_done = 0;
	st->rx_trailer_have = 0;
	st->rx_mo = 0;
	st->rx_recv = false;
	st->rx_rresp = 0;
	st->rx_stall = false;
	st->fail_done = false;
}

/*
 * A protocol error: TERMINATE about the segment whose header is in
 * rx_hdr (as much of it as came), then the stream ends.
 */
static void siw_rx_refuse(struct siw_qp_stream *st, u8 layer, u8 etype,
			  u8 ecode)
{
	st->rx_dead = true;
	siw_qp_fail(st, -EPROTO, true, siw_term_ctrl(layer, etype, ecode),
		    st->rx_hdr, st->rx_have);
}

/* An RTR READ (SIW_ORQ_RTR) is the oldest READ sent (st->lock held). */
static bool siw_rx_orq_rtr(struct siw_qp_stream *st)
{
	return st->orq_count && st->orq[st->orq_head] == SIW_ORQ_RTR;
}

/*
 * The oldest READ sent, or NULL (also for an RTR; st->lock held): a
 * request siw holds in rdmavt's ring, read in place.
 */
static struct rvt_swqe *siw_rx_orq_head(struct siw_qp_stream *st)
{
	if (!st->orq_count || siw_rx_orq_rtr(st))
		return NULL;
	return siw_wqe_at(st, st->orq[st->orq_head]);
}

/* The READ at the ORQ's head is done with @status (st->lock held). */
static void siw_rx_orq_done(struct siw_qp_stream *st,
			    enum ib_wc_status status)
{
	u32 idx = st->orq[st->orq_head];

	st->wire[idx].state = SIW_WQE_DONE;
	st->wire[idx].status = status;
	trace_siw_read_done(st->qp, idx, status);
}

/* The oldest READ sent has its answer: off the ORQ (st->lock held). */
static void siw_rx_orq_pop(struct siw_qp_stream *st)
{
	st->orq_head = (st->orq_head + 1) % st->orq_size;
	st->orq_count--;
}

/*
 * A complete, checked header.  Sets the untagged and tagged state up for
 * the payload.  Returns false after a refusal.
 */
static bool siw_rx_hdr_done(struct siw_qp_stream *st)
{
	struct siw_fpdu_info *fi = &st->rx_info;
	struct rvt_qp *qp = st->qp;
	struct rvt_swqe *wqe;
	int ret;

	switch (fi->opcode) {
	case RDMAP_SEND:
	case RDMAP_SEND_INVAL:
	case RDMAP_SEND_SE:
	case RDMAP_SEND_SE_INVAL:
		if (siw_fpdu_check_untagged(fi, st->rx_msn[fi->qn], st->rx_mo))
			goto refuse;
		if (st->rx_recv)
			return true;
		spin_lock_bh(&qp->r_lock);
		ret = rvt_recv_begin(qp, false);
		spin_unlock_bh(&qp->r_lock);
		if (ret <= 0) {
			/* no receive WQE (or its lkeys failed) */
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_UNTAGGED_BUF,
				      DDP_ECODE_UT_INVALID_MSN_NOBUF);
			return false;
		}
		st->rx_recv = true;
		return true;
	case RDMAP_RDMA_READ_REQ:
		if (siw_fpdu_check_untagged(fi, st->rx_msn[fi->qn], 0))
			goto refuse;
		return true;
	case RDMAP_TERMINATE:
		/* taken as it comes: the stream ends anyway */
		return true;
	case RDMAP_RDMA_WRITE:
		/*
		 * A zero-length WRITE names no memory: its STag is not
		 * checked (upstream; the RTR message is one)
		 */
		return true;
	case RDMAP_RDMA_READ_RESP:
		spin_lock_bh(&st->lock);
		if (siw_rx_orq_rtr(st)) {
			/* the answer to our RTR: one empty segment */
			spin_unlock_bh(&st->lock);
			if (fi->payload || !fi->last) {
				siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
					      DDP_ETYPE_TAGGED_BUF,
					      DDP_ECODE_T_BASE_BOUNDS);
				return false;
			}
			return true;
		}
		wqe = siw_rx_orq_head(st);
		if (!wqe) {
			spin_unlock_bh(&st->lock);
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_UNTAGGED_BUF,
				      DDP_ECODE_UT_INVALID_MSN_RANGE);
			return false;
		}
		/* the READ's SGEs, as rdmavt checked them, in its ring */
		if (!st->rx_rresp && wqe->wr.num_sge)
			rvt_restart_sge(&st->rx_rss, wqe, 0);
		else if (!st->rx_rresp)
			memset(&st->rx_rss, 0, sizeof(st->rx_rss));
		/* the response answers exactly the request we sent */
		if (fi->stag != siw_wqe_sink_stag(wqe)) {
			spin_unlock_bh(&st->lock);
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_TAGGED_BUF,
				      DDP_ECODE_T_INVALID_STAG);
			return false;
		}
		if (fi->to != siw_wqe_sink_to(wqe) + st->rx_rresp ||
		    fi->payload > wqe->length - st->rx_rresp ||
		    (fi->last && st->rx_rresp + fi->payload != wqe->length)) {
			spin_unlock_bh(&st->lock);
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_TAGGED_BUF,
				      DDP_ECODE_T_BASE_BOUNDS);
			return false;
		}
		spin_unlock_bh(&st->lock);
		return true;
	default:
		goto refuse_op;
	}
refuse:
	siw_rx_refuse(st, fi->term_layer, fi->term_etype, fi->term_ecode);
	return false;
refuse_op:
	siw_rx_refuse(st, TERM_ERROR_LAYER_RDMAP, RDMAP_ETYPE_REMOTE_OPERATION,
		      RDMAP_ECODE_OPCODE);
	return false;
}

/*
 * Place @len payload bytes at @data, @off bytes into the FPDU's payload.
 * 0; -EAGAIN when a page of an on-demand paging MR is being faulted in
 * (the bytes stay in the socket until siw_odp_resume(); placing them
 * again is harmless); -EPROTO after a refusal.
 */
static int siw_rx_place(struct siw_qp_stream *st, const void *data,
			u32 off, u32 len)
{
	struct siw_fpdu_info *fi = &st->rx_info;
	struct rvt_qp *qp = st->qp;
	enum ib_wc_status status;
	struct rvt_sge_state at;

	switch (fi->opcode) {
	case RDMAP_SEND:
	case RDMAP_SEND_INVAL:
	case RDMAP_SEND_SE:
	case RDMAP_SEND_SE_INVAL:
		spin_lock_bh(&qp->r_lock);
		status = rvt_recv_place(qp, fi->mo + off, data, len);
		if (status == IB_WC_LOC_LEN_ERR ||
		    status == IB_WC_LOC_PROT_ERR) {
			/* the receive fails with it, as upstream's */
			struct ib_wc wc = {
				.status = status,
				.opcode = IB_WC_RECV,
				.src_qp = qp->remote_qpn,
			};

			rvt_recv_complete(qp, &wc, false);
			st->rx_recv = false;
		}
		spin_unlock_bh(&qp->r_lock);
		if (status == RVT_WC_PAGE_MISS)
			return -EAGAIN;
		if (status == IB_WC_LOC_PROT_ERR) {
			/* its memory could not be faulted in */
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_CATASTROPHIC,
				      DDP_ECODE_CATASTROPHIC);
			return -EPROTO;
		}
		if (status != IB_WC_SUCCESS) {
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_UNTAGGED_BUF,
				      DDP_ECODE_UT_MSG_TOOLONG);
			return -EPROTO;
		}
		return 0;
	case RDMAP_RDMA_WRITE:
		status = rvt_write_place(qp, fi->stag, fi->to + off, data, len);
		if (status == RVT_WC_PAGE_MISS)
			return -EAGAIN;
		if (status != IB_WC_SUCCESS) {
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_TAGGED_BUF,
				      DDP_ECODE_T_INVALID_STAG);
			return -EPROTO;
		}
		return 0;
	case RDMAP_RDMA_READ_RESP:
		/* the READ's regions stay referenced while we hold st->lock */
		spin_lock_bh(&st->lock);
		if (!st->orq_count || st->dead) {
			spin_unlock_bh(&st->lock);
			st->rx_dead = true;
			return -EPROTO;
		}
		at = st->rx_rss;
		status = IB_WC_SUCCESS;
		if (!rvt_copy_sge(qp, &st->rx_rss, (void *)data, len, false,
				  false)) {
			/* placed again from where this piece began */
			status = rvt_odp_miss_fault(qp, &st->rx_rss.sge, true,
						    false);
			st->rx_rss = at;
		}
		if (status != IB_WC_SUCCESS && status != RVT_WC_PAGE_MISS &&
		    siw_rx_orq_head(st))
			siw_rx_orq_done(st, status);
		spin_unlock_bh(&st->lock);
		if (status == RVT_WC_PAGE_MISS)
			return -EAGAIN;
		if (status != IB_WC_SUCCESS) {
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_CATASTROPHIC,
				      DDP_ECODE_CATASTROPHIC);
			return -EPROTO;
		}
		return 0;
	default:
		/* READ request, TERMINATE: their payload is not kept */
		return 0;
	}
}

/* A TERMINATE arrived: fail the READ it may concern, end the stream. */
static void siw_rx_terminate(struct siw_qp_stream *st)
{
	const struct iwarp_terminate *t = (const void *)st->rx_hdr;
	u32 ctrl = be32_to_cpu(t->term_ctrl);
	u8 layer = FIELD_GET(SIW_TERM_LAYER, ctrl);
	u8 etype = FIELD_GET(SIW_TERM_ETYPE, ctrl);
	enum ib_wc_status status = IB_WC_REM_OP_ERR;

	atomic_inc(&st->terms_rcvd);
	ibdev_dbg(st->qp->ibqp.device, "QP %u: TERMINATE %08x received\n",
		  st->qp->ibqp.qp_num, ctrl);
	if ((layer == TERM_ERROR_LAYER_RDMAP &&
	     etype == RDMAP_ETYPE_REMOTE_PROTECTION) ||
	    (layer == TERM_ERROR_LAYER_DDP && etype == DDP_ETYPE_TAGGED_BUF))
		status = IB_WC_REM_ACCESS_ERR;
	spin_lock_bh(&st->lock);
	if (siw_rx_orq_rtr(st))
		siw_rx_orq_pop(st);
	if (siw_rx_orq_head(st)) {
		siw_rx_orq_done(st, status);
		siw_rx_orq_pop(st);
	}
	spin_unlock_bh(&st->lock);
	st->rx_dead = true;
	siw_qp_fail(st, -EPROTO, false, 0, NULL, 0);
}

/* The FPDU is in, CRC checked: its message's end, if it is the last. */
static void siw_rx_fpdu_done(struct siw_qp_stream *st)
{
	struct siw_fpdu_info *fi = &st->rx_info;
	const union iwarp_hdr *h = (const void *)st->rx_hdr;
	struct rvt_qp *qp = st->qp;
	struct ib_wc wc = {};
	struct rvt_swqe *wqe;
	struct siw_irqe *e;
	bool more;

	switch (fi->opcode) {
	case RDMAP_SEND:
	case RDMAP_SEND_INVAL:
	case RDMAP_SEND_SE:
	case RDMAP_SEND_SE_INVAL:
		st->rx_mo += fi->payload;
		if (!fi->last)
			return;
		wc.opcode = IB_WC_RECV;
		wc.byte_len = st->rx_mo;
		if (fi->opcode == RDMAP_SEND_INVAL ||
		    fi->opcode == RDMAP_SEND_SE_INVAL) {
			wc.wc_flags = IB_WC_WITH_INVALIDATE;
			wc.ex.invalidate_rkey = be32_to_cpu(h->send_inv.inval_stag);
		}
		wc.src_qp = qp->remote_qpn;
		spin_lock_bh(&qp->r_lock);
		rvt_recv_complete(qp, &wc, fi->opcode == RDMAP_SEND_SE ||
				  fi->opcode == RDMAP_SEND_SE_INVAL);
		spin_unlock_bh(&qp->r_lock);
		st->rx_recv = false;
		st->rx_mo = 0;
		st->rx_msn[RDMAP_UNTAGGED_QN_SEND]++;
		if (wc.status != IB_WC_SUCCESS)
			siw_rx_refuse(st, TERM_ERROR_LAYER_RDMAP,
				      RDMAP_ETYPE_REMOTE_OPERATION,
				      RDMAP_ECODE_CANNOT_INVALIDATE);
		return;
	case RDMAP_RDMA_READ_REQ:
		st->rx_msn[RDMAP_UNTAGGED_QN_RDMA_READ]++;
		spin_lock_bh(&st->lock);
		if (st->irq_count == st->irq_size) {
			spin_unlock_bh(&st->lock);
			/* more READs than the IRD we granted */
			siw_rx_refuse(st, TERM_ERROR_LAYER_DDP,
				      DDP_ETYPE_UNTAGGED_BUF,
				      DDP_ECODE_UT_INVALID_MSN_RANGE);
			return;
		}
		e = &st->irq[(st->irq_head + st->irq_count) % st->irq_size];
		e->src_stag = be32_to_cpu(h->rreq.source_stag);
		e->src_to = be64_to_cpu(h->rreq.source_to);
		e->len = be32_to_cpu(h->rreq.read_size);
		e->sink_stag = be32_to_cpu(h->rreq.sink_stag);
		e->sink_to = be64_to_cpu(h->rreq.sink_to);
		e->msn = be32_to_cpu(h->rreq.ddp_msn);
		st->irq_count++;
		spin_unlock_bh(&st->lock);
		queue_work(siw_tx_wq, &st->tx_work);
		return;
	case RDMAP_RDMA_READ_RESP:
		st->rx_rresp += fi->payload;
		if (!fi->last)
			return;
		spin_lock_bh(&st->lock);
		wqe = siw_rx_orq_head(st);
		if (wqe) {
			enum ib_wc_status status = IB_WC_SUCCESS;

			/* RDMA_READ_WITH_INV: the sink's registration ends */
			if (wqe->wr.opcode == IB_WR_RDMA_READ_WITH_INV &&
			    wqe->wr.num_sge &&
			    rvt_invalidate_rkey(qp, siw_wqe_sink_stag(wqe)))
				status = IB_WC_LOC_PROT_ERR;
			siw_rx_orq_done(st, status);
		}
		/* an RTR's answer completes nothing */
		if (st->orq_count)
			siw_rx_orq_pop(st);
		/* the transmitter is needed only if requests wait for it */
		more = st->t_next != st->q_tail || st->irq_count;
		spin_unlock_bh(&st->lock);
		st->rx_rresp = 0;
		/* the READ's completion, here rather than after a wakeup */
		siw_qp_complete(st);
		if (more)
			queue_work(siw_tx_wq, &st->tx_work);
		return;
	case RDMAP_TERMINATE:
		siw_rx_terminate(st);
		return;
	default:
		return;
	}
}

/*
 * The first whole FPDU of the stream came: a peer-to-peer responder
 * may send now, and its connection is established (the FPDU was the
 * initiator's RTR, or what it sent in its place).
 */
static void siw_rx_first_fpdu(struct siw_qp_stream *st)
{
	bool held;

	st->rx_first = true;
	spin_lock_bh(&st->lock);
	held = st->tx_hold;
	st->tx_hold = false;
	spin_unlock_bh(&st->lock);
	if (!held)
		return;
	queue_work(siw_tx_wq, &st->tx_work);
	if (st->params.mpa.p2p)
		siw_cm_stream_ready(st->qp);
}

/* Header bytes from @skb; returns the bytes used. */
static u32 siw_rx_hdr(struct siw_qp_stream *st, struct sk_buff *skb, u32 off,
		      u32 avail)
{
	u32 want = st->rx_have < sizeof(struct iwarp_ctrl) ?
		sizeof(struct iwarp_ctrl) : st->rx_info.hdr_len;
	u32 n = min(want - st->rx_have, avail);
	int ret;

	if (skb_copy_bits(skb, off, st->rx_hdr + st->rx_have, n)) {
		siw_rx_refuse(st, TERM_ERROR_LAYER_LLP, LLP_ETYPE_MPA,
			      LLP_ECODE_LOCAL_CATASTROPHIC);
		return avail;
	}
	st->rx_have += n;
	ret = siw_fpdu_parse_hdr(st->rx_hdr, st->rx_have, &st->rx_info);
	if (ret == -EAGAIN)
		return n;
	if (ret < 0) {
		siw_rx_refuse(st, st->rx_info.term_layer,
			      st->rx_info.term_etype, st->rx_info.term_ecode);
		return avail;
	}
	/* the header is whole and checked */
	WRITE_ONCE(st->rx_fpdus, st->rx_fpdus + 1);
	st->rx_crc = siw_fpdu_crc_update(SIW_FPDU_CRC_SEED, st->rx_hdr,
					 st->rx_have);
	st->rx_done = 0;
	st->rx_trailer_have = 0;
	if (!siw_rx_hdr_done(st))
		return avail;
	st->rx_phase = st->rx_info.payload ? SIW_RX_PAYLOAD : SIW_RX_TRAILER;
	return n;
}

/* Payload bytes from @skb; returns the bytes used. */
static u32 siw_rx_payload(struct siw_qp_stream *st, struct sk_buff *skb,
			  u32 off, u32 avail)
{
	u32 n = min3(st->rx_info.payload - st->rx_done, avail,
		     (u32)SIW_RX_CHUNK);

	int ret;

	if (skb_copy_bits(skb, off, st->rx_buf, n)) {
		siw_rx_refuse(st, TERM_ERROR_LAYER_LLP, LLP_ETYPE_MPA,
			      LLP_ECODE_LOCAL_CATASTROPHIC);
		return avail;
	}
	ret = siw_rx_place(st, st->rx_buf, st->rx_done, n);
	if (ret == -EAGAIN) {
		/* the bytes stay in the socket for siw_odp_resume() */
		st->rx_stall = true;
		return 0;
	}
	if (ret)
		return avail;
	if (st->params.mpa.crc)
		st->rx_crc = siw_fpdu_crc_update(st->rx_crc, st->rx_buf, n);
	st->rx_done += n;
	if (st->rx_done == st->rx_info.payload)
		st->rx_phase = SIW_RX_TRAILER;
	return n;
}

/* Pad and CRC bytes from @skb; returns the bytes used. */
static u32 siw_rx_trailer(struct siw_qp_stream *st, struct sk_buff *skb,
			  u32 off, u32 avail)
{
	u32 want = st->rx_info.pad + MPA_CRC_SIZE;
	u32 n = min(want - st->rx_trailer_have, avail);
	__le32 crc;

	if (skb_copy_bits(skb, off, st->rx_trailer + st->rx_trailer_have, n)) {
		siw_rx_refuse(st, TERM_ERROR_LAYER_LLP, LLP_ETYPE_MPA,
			      LLP_ECODE_LOCAL_CATASTROPHIC);
		return avail;
	}
	st->rx_trailer_have += n;
	if (st->rx_trailer_have < want)
		return n;
	if (st->params.mpa.crc) {
		crc = siw_fpdu_crc_final(siw_fpdu_crc_update(st->rx_crc,
							     st->rx_trailer,
							     st->rx_info.pad));
		if (memcmp(&crc, st->rx_trailer + st->rx_info.pad,
			   MPA_CRC_SIZE)) {
			siw_rx_refuse(st, TERM_ERROR_LAYER_LLP, LLP_ETYPE_MPA,
				      LLP_ECODE_RECEIVED_CRC);
			return avail;
		}
	}
	rvt_hw_count(st->qp, RVT_CNT_RCVD_PKTS, 1);
	siw_rx_fpdu_done(st);
	if (!st->rx_first && !st->rx_dead)
		siw_rx_first_fpdu(st);
	st->rx_phase = SIW_RX_HDR;
	st->rx_have = 0;
	return n;
}

/*
 * tcp_read_sock()'s actor: every byte is taken (discarded when dead),
 * but those after a placement stalled on a page being faulted in.
 */
static int siw_rx_actor(read_descriptor_t *desc, struct sk_buff *skb,
			unsigned int off, size_t len)
{
	struct siw_qp_stream *st = desc->arg.data;
	enum ib_qp_state state = READ_ONCE(st->qp->state);
	size_t used = 0;

	/* a QP that failed receives nothing more */
	if (state == IB_QPS_ERR || state == IB_QPS_RESET)
		st->rx_dead = true;
	/*
	 * Not yet receiving (rdmavt takes no receive WQE in INIT): the
	 * bytes stay in the socket until siw_qp_stream_receive()
	 */
	else if (state == IB_QPS_INIT)
		return 0;
	while (used < len && !st->rx_dead) {
		u32 avail = min_t(size_t, len - used, U32_MAX);

		/* an on-demand paging page being faulted in: the rest waits */
		if (st->rx_stall)
			return used;

		switch (st->rx_phase) {
		case SIW_RX_HDR:
			used += siw_rx_hdr(st, skb, off + used, avail);
			break;
		case SIW_RX_PAYLOAD:
			used += siw_rx_payload(st, skb, off + used, avail);
			break;
		default:
			used += siw_rx_trailer(st, skb, off + used, avail);
			break;
		}
	}
	return len;
}

/**
 * siw_rx_read - receive what the socket holds
 * @st: the data path
 * @sk: its socket
 *
 * Context: softirq or process context, the socket's owner or its
 * data_ready; under sk_callback_lock (read).
 */
void siw_rx_read(struct siw_qp_stream *st, struct sock *sk)
{
	read_descriptor_t desc = {
		.arg.data = st,
		.count = 1,
	};

	tcp_read_sock(sk, &desc, siw_rx_actor);
}
