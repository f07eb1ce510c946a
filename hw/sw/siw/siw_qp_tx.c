// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: the transmitter of a QP's stream (its tx_work).  It cuts one
 * message at a time into FPDUs of at most the MULPDU of the socket's
 * MSS: a TERMINATE first, then READ responses the peer asked for, then
 * the requests xmit_wqe took, a READ request only while fewer than the
 * negotiated ORD are outstanding.  The requests are read in place in
 * rdmavt's send ring.  An FPDU of a SEND, WRITE or READ response goes
 * to the socket as pieces (bio_vecs): its header, the payload in the
 * registered pages the request's SGEs (or the READ's source, checked
 * whole with rvt_read_source()) name, its pad and CRC field (CRC32c
 * when negotiated, else zero), with no bounce copy.  Other FPDUs
 * (TERMINATE, the RTR, payload not in pages) are built whole in
 * tx_buf.  Everything is handed to the socket without blocking;
 * sk_write_space brings the work back when the socket has room again.
 *
 * Completions: a SEND or WRITE whose payload TCP copied completes when
 * the socket took its last FPDU (upstream's semantics); one whose
 * payload TCP took by page (MSG_SPLICE_PAGES, siw_zcopy_tx) when TCP's
 * peer acknowledged its last byte, since TCP retransmits from the pages
 * until then; a READ when the receiver placed its response.  They are
 * given back to rdmavt in order, from here or from the receiver (a
 * READ's response in), one context at a time (siw_qp_complete()).
 *
 * Locks and contexts: see siw_qp.c.
 */

#include <linux/mm.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "siw.h"
#include "siw_qp.h"
#include "siw_term.h"
#include "siw_trace.h"

/* Drop the source of the READ response being sent, if any. */
static void siw_tx_put_source(struct siw_qp_stream *st)
{
	if (!st->tx_rmr)
		return;
	rvt_put_mr(st->tx_rmr);
	st->tx_rmr = NULL;
}

/*
 * The FPDU being pushed stops naming memory siw does not own: what the
 * socket did not take yet of an FPDU in pages is copied into tx_buf (the
 * stream stays framed), its end no longer marks the request, and a READ
 * response being cut ends here (its source's reference goes).  Called
 * before siw lets go of the requests, transmitter not running.
 */
static void siw_tx_detach(struct siw_qp_stream *st)
{
	struct iov_iter it;
	u32 n;

	if (st->tx_fin && st->tx_fin_job == SIW_TX_SQE)
		st->tx_fin_job = SIW_TX_NONE;
	if (st->tx_job == SIW_TX_RRESP)
		st->tx_job = SIW_TX_NONE;
	if (!st->tx_pages) {
		siw_tx_put_source(st);
		return;
	}
	st->tx_pages = false;
	n = st->tx_fpdu - st->tx_sent;
	if (!n || !st->tx_buf) {
		st->tx_fpdu = 0;
		st->tx_sent = 0;
		return;
	}
	iov_iter_bvec(&it, ITER_SOURCE, st->tx_bvec, st->tx_nbvec,
		      st->tx_fpdu);
	iov_iter_advance(&it, st->tx_sent);
	if (copy_from_iter(st->tx_buf, n, &it) != n)
		n = 0;
	st->tx_fpdu = n;
	st->tx_sent = 0;
	siw_tx_put_source(st);
}

/**
 * siw_tx_release - forget the transmitter's state of a stream
 * @st: the data path; its transmitter does not run
 *
 * The requests held stay held, untouched and not sent again: the QP's
 * error state gives them back (flushed), xmit_stop forgets them.
 *
 * Context: process context; takes st->lock.
 */
void siw_tx_release(struct siw_qp_stream *st)
{
	spin_lock_bh(&st->lock);
	st->t_next = st->q_tail;
	st->orq_count = 0;
	st->irq_count = 0;
	st->tx_job = SIW_TX_NONE;
	st->tx_fpdu = 0;
	st->tx_sent = 0;
	st->tx_fin = false;
	st->tx_pages = false;
	siw_tx_put_source(st);
	spin_unlock_bh(&st->lock);
}

/* Become the one giving requests back (process context). */
static void siw_tx_compl_enter(struct siw_qp_stream *st)
	__acquires(&st->lock)
{
	spin_lock_bh(&st->lock);
	while (st->compl_busy) {
		spin_unlock_bh(&st->lock);
		cond_resched();
		spin_lock_bh(&st->lock);
	}
	st->compl_busy = true;
}

/**
 * siw_tx_forget - let go of every request held, without completions
 * @st: the data path; its transmitter does not run, its QP is in RESET
 *
 * For xmit_stop: rdmavt drops the requests afterwards.
 *
 * Context: process context; takes st->lock.
 */
void siw_tx_forget(struct siw_qp_stream *st)
{
	/* a receiver giving back a READ's completion finishes first */
	siw_tx_compl_enter(st);
	siw_tx_detach(st);
	if (st->tx_job == SIW_TX_SQE)
		st->tx_job = SIW_TX_NONE;
	st->orq_count = 0;
	st->c_head = st->q_tail;
	st->t_next = st->q_tail;
	st->compl_busy = false;
	spin_unlock_bh(&st->lock);
}

/* The RDMAP opcode of a request. */
static u8 siw_tx_opcode(const struct rvt_swqe *wqe)
{
	bool se = wqe->wr.send_flags & IB_SEND_SOLICITED;

	switch (siw_wqe_opcode(wqe)) {
	case IB_WR_SEND:
		return se ? RDMAP_SEND_SE : RDMAP_SEND;
	case IB_WR_SEND_WITH_INV:
		return se ? RDMAP_SEND_SE_INVAL : RDMAP_SEND_INVAL;
	case IB_WR_RDMA_WRITE:
		return RDMAP_RDMA_WRITE;
	default:
		return RDMAP_RDMA_READ_REQ;
	}
}

/* The next untagged MSN of queue @qn. */
static __be32 siw_tx_msn(struct siw_qp_stream *st, int qn)
{
	return cpu_to_be32(++st->tx_msn[qn]);
}

/* Start the message of request @idx (st->lock held). */
static void siw_tx_start_sqe(struct siw_qp_stream *st, u32 idx)
{
	struct rvt_swqe *wqe = siw_wqe_at(st, idx);
	union iwarp_hdr *h = &st->tx_hdr;
	u8 op = siw_tx_opcode(wqe);

	siw_fpdu_init_hdr(h, op);
	st->tx_job = SIW_TX_SQE;
	st->tx_idx = idx;
	st->tx_len = wqe->length;
	st->tx_off = 0;
	st->tx_base_to = 0;
	st->tx_zc = false;
	switch (op) {
	case RDMAP_RDMA_WRITE:
		h->rwrite.sink_stag = cpu_to_be32(wqe->rdma_wr.rkey);
		st->tx_base_to = wqe->rdma_wr.remote_addr;
		break;
	case RDMAP_RDMA_READ_REQ:
		h->rreq.ddp_msn = siw_tx_msn(st, RDMAP_UNTAGGED_QN_RDMA_READ);
		h->rreq.sink_stag = cpu_to_be32(siw_wqe_sink_stag(wqe));
		h->rreq.sink_to = cpu_to_be64(siw_wqe_sink_to(wqe));
		h->rreq.read_size = cpu_to_be32(wqe->length);
		h->rreq.source_stag = cpu_to_be32(wqe->rdma_wr.rkey);
		h->rreq.source_to = cpu_to_be64(wqe->rdma_wr.remote_addr);
		/* the request carries no payload */
		st->tx_len = 0;
		/* in the ORQ before it leaves: the response may come at once */
		st->orq[(st->orq_head + st->orq_count) % st->orq_size] = idx;
		st->orq_count++;
		break;
	case RDMAP_SEND_INVAL:
	case RDMAP_SEND_SE_INVAL:
		h->send_inv.inval_stag =
			cpu_to_be32(wqe->wr.ex.invalidate_rkey);
		fallthrough;
	default:
		h->send.ddp_msn = siw_tx_msn(st, RDMAP_UNTAGGED_QN_SEND);
		break;
	}
	/* payload big enough to go by page, where the route allows it */
	st->tx_zc = op != RDMAP_RDMA_READ_REQ && READ_ONCE(siw_zcopy_tx) &&
		    wqe->length >= SIW_ZCOPY_MIN &&
		    (st->sock->sk->sk_route_caps & NETIF_F_SG);
	st->tx_zc_used = false;
	if (wqe->wr.num_sge)
		rvt_restart_sge(&st->tx_ss, wqe, 0);
	else
		memset(&st->tx_ss, 0, sizeof(st->tx_ss));
}

/* Start the READ response at the IRQ's head (st->lock held). */
static void siw_tx_start_rresp(struct siw_qp_stream *st)
{
	union iwarp_hdr *h = &st->tx_hdr;

	st->tx_irqe = st->irq[st->irq_head];
	st->irq_head = (st->irq_head + 1) % st->irq_size;
	st->irq_count--;
	siw_fpdu_init_hdr(h, RDMAP_RDMA_READ_RESP);
	h->rresp.sink_stag = cpu_to_be32(st->tx_irqe.sink_stag);
	st->tx_job = SIW_TX_RRESP;
	trace_siw_rresp_start(st->qp, st->tx_irqe.msn, st->tx_irqe.len);
	st->tx_len = st->tx_irqe.len;
	st->tx_off = 0;
	st->tx_base_to = st->tx_irqe.sink_to;
	/*
	 * By page only without CRC: the responder's memory may change
	 * while TCP still retransmits from it (nothing tells the responder
	 * when the READ is over), which with a CRC would fail the stream
	 * instead of carrying the newer bytes.
	 */
	st->tx_zc = READ_ONCE(siw_zcopy_tx) && !st->params.mpa.crc &&
		    st->tx_len >= SIW_ZCOPY_MIN &&
		    (st->sock->sk->sk_route_caps & NETIF_F_SG);
}

/*
 * Start the TERMINATE asked for (st->lock held): siw_tx_build() makes
 * it whole with siw_term_build(), the offending header included.
 */
static void siw_tx_start_term(struct siw_qp_stream *st)
{
	st->term_pending = false;
	st->tx_job = SIW_TX_TERM;
	st->tx_len = 0;
	st->tx_off = 0;
	st->tx_base_to = 0;
}

/*
 * Start the RTR message of a peer-to-peer initiator (st->lock held).  A
 * READ takes an ORQ slot (SIW_ORQ_RTR), answered by a zero-length READ
 * response that completes nothing.
 */
static void siw_tx_start_rtr(struct siw_qp_stream *st)
{
	u32 msn = 0;

	if (st->rtr_pending == SIW_RTR_READ) {
		msn = ++st->tx_msn[RDMAP_UNTAGGED_QN_RDMA_READ];
		st->orq[(st->orq_head + st->orq_count) % st->orq_size] =
			SIW_ORQ_RTR;
		st->orq_count++;
	}
	siw_fpdu_rtr(&st->tx_hdr, st->rtr_pending, msn);
	st->rtr_pending = 0;
	st->tx_job = SIW_TX_RTR;
	st->tx_len = 0;
	st->tx_off = 0;
	st->tx_base_to = 0;
}

/*
 * May request @wqe go now (st->lock held)?  A READ needs a free ORQ
 * slot; a fenced request (IB_SEND_FENCE, a READ too) waits until every
 * READ sent before it has its response, as upstream's orq_fence.
 */
static bool siw_tx_may_start(struct siw_qp_stream *st,
			     const struct rvt_swqe *wqe)
{
	if ((wqe->wr.send_flags & IB_SEND_FENCE) && st->orq_count)
		return false;
	return siw_wqe_opcode(wqe) != IB_WR_RDMA_READ ||
	       st->orq_count < st->orq_size;
}

/*
 * Choose the message to cut next, if none is being cut.  Returns false
 * when there is nothing to send (or nothing may be sent).
 */
static bool siw_tx_pick(struct siw_qp_stream *st)
{
	enum ib_qp_state state = READ_ONCE(st->qp->state);
	bool go = true;

	spin_lock_bh(&st->lock);
	if (st->dead || !st->sock) {
		go = false;
	} else if (st->term_pending) {
		/* a failed message is not finished: the stream ends */
		siw_tx_start_term(st);
	} else if (st->fail || state == IB_QPS_ERR ||
		   state == IB_QPS_RESET) {
		go = false;
	} else if (st->tx_job != SIW_TX_NONE) {
		/* go on with it */
	} else if (st->rtr_pending) {
		siw_tx_start_rtr(st);
	} else if (st->tx_hold) {
		/* a peer-to-peer responder before the initiator's RTR */
		go = false;
	} else if (st->irq_count) {
		siw_tx_start_rresp(st);
	} else if (st->t_next != st->q_tail &&
		   siw_tx_may_start(st, siw_wqe_at(st, st->t_next))) {
		siw_tx_start_sqe(st, st->t_next);
		st->t_next = siw_wqe_next(st, st->t_next);
	} else {
		go = false;
	}
	spin_unlock_bh(&st->lock);
	if (go && !st->tx_off)
		st->tx_mulpdu = siw_qp_mulpdu(st->qp);
	return go;
}

/* The FPDU in tx_buf ends the message being cut. */
static void siw_tx_built_last(struct siw_qp_stream *st)
{
	st->tx_fin = true;
	st->tx_fin_job = st->tx_job;
	st->tx_fin_idx = st->tx_idx;
	spin_lock_bh(&st->lock);
	st->tx_job = SIW_TX_NONE;
	spin_unlock_bh(&st->lock);
}

/* The TERMINATE asked for, in upstream's layout, into tx_buf. */
static int siw_tx_build_term(struct siw_qp_stream *st)
{
	u32 ctrl = st->term_ctrl;
	int len;

	len = siw_term_build(st->tx_buf, SIW_TX_BUF,
			     FIELD_GET(SIW_TERM_LAYER, ctrl),
			     FIELD_GET(SIW_TERM_ETYPE, ctrl),
			     FIELD_GET(SIW_TERM_ECODE, ctrl),
			     st->term_has_hdr ? &st->term_hdr : NULL,
			     st->params.mpa.crc);
	if (len < 0)
		return len;
	st->tx_msn[RDMAP_UNTAGGED_QN_TERMINATE] = 1;
	st->tx_fpdu = len;
	st->tx_sent = 0;
	siw_tx_built_last(st);
	return 0;
}

/* The page behind kernel address @p, or NULL where there is none. */
static struct page *siw_tx_page(const void *p)
{
	if (is_vmalloc_addr(p))
		return vmalloc_to_page(p);
	if (virt_addr_valid(p))
		return virt_to_page(p);
	return NULL;
}

/*
 * Add @len bytes at @p to the FPDU's pieces, cut at page boundaries, and
 * to its CRC.  Returns false when a piece has no page or the pieces run
 * out; *@splice_ok goes false for a page TCP may not reference.
 */
static bool siw_tx_add(struct siw_qp_stream *st, const u8 *p, u32 len,
		       u32 *crc, bool *splice_ok)
{
	if (crc)
		*crc = siw_fpdu_crc_update(*crc, p, len);
	while (len) {
		u32 off = offset_in_page(p);
		u32 n = min_t(u32, len, PAGE_SIZE - off);
		struct page *pg = siw_tx_page(p);

		if (!pg || st->tx_nbvec == SIW_TX_BVECS)
			return false;
		if (!sendpage_ok(pg))
			*splice_ok = false;
		bvec_set_page(&st->tx_bvec[st->tx_nbvec++], pg, n, off);
		p += n;
		len -= n;
	}
	return true;
}

/*
 * Describe the FPDU @seg of a SEND, WRITE or READ response as pieces:
 * the header in tx_hdr, the payload where @walk (the request's SGEs, the
 * READ's source) puts it, pad and CRC field in tx_trailer.  Returns
 * false (the walk unmoved) when the payload is not all in pages or needs
 * too many pieces: tx_buf takes the FPDU then.
 */
static bool siw_tx_map(struct siw_qp_stream *st, const struct siw_fpdu_seg *seg,
		       struct rvt_sge_state *walk)
{
	bool crc_on = st->params.mpa.crc, splice_ok = true, copied = true;
	struct rvt_sge_state ss = *walk;
	u32 crc = SIW_FPDU_CRC_SEED, left = seg->len;
	__le32 crc_field = 0;
	u32 *pcrc = crc_on ? &crc : NULL;

	st->tx_nbvec = 0;
	/* header and trailer are copied by TCP whatever their pages */
	if (!siw_tx_add(st, (const u8 *)&st->tx_hdr, seg->hdr_len, pcrc,
			&copied))
		return false;
	while (left) {
		u32 n = rvt_ss_piece(&ss, left);

		/*
		 * the SGEs hold the request's length: never; the pages of
		 * an on-demand paging MR may go: copied
		 */
		if (!n || (ss.sge.mr && ss.sge.mr->odp))
			return false;
		if (!siw_tx_add(st, ss.sge.vaddr, n, pcrc, &splice_ok))
			return false;
		rvt_update_sge(&ss, n, false);
		left -= n;
	}
	memset(st->tx_trailer, 0, seg->pad);
	if (crc_on)
		crc_field = siw_fpdu_crc_final(siw_fpdu_crc_update(crc,
								   st->tx_trailer,
								   seg->pad));
	memcpy(st->tx_trailer + seg->pad, &crc_field, MPA_CRC_SIZE);
	if (!siw_tx_add(st, st->tx_trailer, seg->pad + MPA_CRC_SIZE, NULL,
			&copied))
		return false;
	*walk = ss;
	st->tx_pages = true;
	st->tx_splice = st->tx_zc && splice_ok;
	st->tx_pay_lo = seg->hdr_len;
	st->tx_pay_hi = seg->hdr_len + seg->len;
	if (st->tx_splice)
		st->tx_zc_used = true;
	return true;
}

/*
 * Copy @len bytes of @walk to @q.  0; -EAGAIN when a page of an
 * on-demand paging MR is being faulted in (the walk unmoved: the FPDU is
 * built again once rdmavt calls siw_odp_resume()); -EPROTO (a READ
 * response's source) or -EIO (the request's own memory) when it could
 * not be faulted in.
 */
static int siw_tx_copy(struct siw_qp_stream *st, struct rvt_sge_state *walk,
		       u8 *q, u32 len)
{
	struct rvt_sge_state start = *walk;
	bool rresp = st->tx_job == SIW_TX_RRESP;
	enum ib_wc_status status;
	void *from;

	while (len) {
		u32 n = rvt_ss_piece(walk, len);

		/* the SGEs hold the message's length: never */
		if (WARN_ON_ONCE(!n))
			return -EINVAL;
		from = rvt_sge_map(&walk->sge, false);
		if (!from) {
			status = rvt_odp_miss_fault(st->qp, &walk->sge, false,
						    rresp);
			*walk = start;
			if (status == RVT_WC_PAGE_MISS)
				return -EAGAIN;
			return rresp ? -EPROTO : -EIO;
		}
		memcpy(q, from, n);
		rvt_sge_unmap(&walk->sge);
		rvt_update_sge(walk, n, false);
		q += n;
		len -= n;
	}
	return 0;
}

/*
 * Build the next FPDU of the current message: as pieces in the
 * request's pages (siw_tx_map()), else whole into tx_buf.  Returns 0;
 * -EPROTO when a READ response cannot read its source (the caller then
 * sends a TERMINATE instead); -ERANGE or -EINVAL when the message cannot
 * be cut (a WRITE whose remote TOs would wrap, a MULPDU too small):
 * nothing of it was sent; -EIO when the request's own on-demand paging
 * memory cannot be faulted in; -EAGAIN when such a page is being faulted
 * in (nothing built: the transmitter waits for siw_odp_resume()).
 */
static int siw_tx_build(struct siw_qp_stream *st)
{
	struct rvt_sge_state *walk = &st->tx_ss;
	bool crc = st->params.mpa.crc;
	struct siw_fpdu_seg seg;
	enum ib_wc_status status;
	u8 *p = st->tx_buf;
	__le32 crc_field = 0;
	int len;

	st->tx_pages = false;
	if (st->tx_job == SIW_TX_TERM)
		return siw_tx_build_term(st);
	len = siw_fpdu_next_seg(&st->tx_hdr, st->tx_base_to, st->tx_len,
				st->tx_off, st->tx_mulpdu, &seg);
	if (len < 0)
		return len;
	/*
	 * A READ response's source is checked whole, and referenced, with
	 * its first segment; a zero-length READ (an RTR) names no memory.
	 */
	if (st->tx_job == SIW_TX_RRESP && seg.len) {
		if (!st->tx_rmr) {
			status = rvt_read_source(st->qp, st->tx_irqe.src_stag,
						 st->tx_irqe.src_to,
						 st->tx_len, &st->tx_rss);
			if (status == RVT_WC_PAGE_MISS)
				return -EAGAIN;
			if (status != IB_WC_SUCCESS)
				return -EPROTO;
			st->tx_rmr = st->tx_rss.sge.mr;
		}
		walk = &st->tx_rss;
	}
	if (st->tx_job != SIW_TX_RTR && seg.len && siw_tx_map(st, &seg, walk))
		goto built;
	memcpy(p, &st->tx_hdr, seg.hdr_len);
	p += seg.hdr_len;
	/*
	 * the walk's regions are referenced by the request we hold, or by
	 * us (a READ's source)
	 */
	if (seg.len) {
		len = siw_tx_copy(st, walk, p, seg.len);
		if (len)
			return len;
	}
	p += seg.len;
	memset(p, 0, seg.pad);
	p += seg.pad;
	if (crc)
		crc_field = siw_fpdu_crc_final(siw_fpdu_crc_update(SIW_FPDU_CRC_SEED,
								   st->tx_buf,
								   p - st->tx_buf));
	memcpy(p, &crc_field, MPA_CRC_SIZE);
built:
	st->tx_fpdu = seg.fpdu_len;
	st->tx_sent = 0;
	st->tx_off += seg.len;
	st->tx_fin = false;
	trace_siw_fpdu_build(st->qp, st->tx_job, st->tx_idx, seg.len,
			     st->tx_off, st->tx_pages, st->tx_splice);
	if (seg.last)
		siw_tx_built_last(st);
	return 0;
}

/*
 * Hand the rest of the FPDU in pieces to the socket: header and trailer
 * copied, the payload by page when tx_splice.
 */
static int siw_tx_push_pages(struct siw_qp_stream *st)
{
	struct msghdr msg = {};
	u32 end;
	int ret;

	while (st->tx_sent < st->tx_fpdu) {
		msg.msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL;
		end = st->tx_fpdu;
		if (st->tx_splice) {
			if (st->tx_sent < st->tx_pay_lo) {
				end = st->tx_pay_lo;
			} else if (st->tx_sent < st->tx_pay_hi) {
				end = st->tx_pay_hi;
				msg.msg_flags |= MSG_SPLICE_PAGES;
			}
		}
		if (end < st->tx_fpdu || !st->tx_fin)
			msg.msg_flags |= MSG_MORE;
		iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, st->tx_bvec,
			      st->tx_nbvec, end);
		iov_iter_advance(&msg.msg_iter, st->tx_sent);
		ret = sock_sendmsg(st->sock, &msg);
		if (ret < 0)
			return ret;
		st->tx_sent += ret;
	}
	return 0;
}

/*
 * Hand the rest of the FPDU to the socket.  Returns 0 when it took all,
 * -EAGAIN when it is full (sk_write_space requeues us), else its error.
 */
static int siw_tx_push(struct siw_qp_stream *st)
{
	struct msghdr msg = {
		.msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL |
			     (st->tx_fin ? 0 : MSG_MORE),
	};
	struct kvec iov;
	int ret;

	if (st->tx_pages)
		return siw_tx_push_pages(st);
	while (st->tx_sent < st->tx_fpdu) {
		iov.iov_base = st->tx_buf + st->tx_sent;
		iov.iov_len = st->tx_fpdu - st->tx_sent;
		ret = kernel_sendmsg(st->sock, &msg, &iov, 1, iov.iov_len);
		if (ret < 0)
			return ret;
		st->tx_sent += ret;
	}
	return 0;
}

/* The FPDU is out: what its message's end means. */
static void siw_tx_fpdu_done(struct siw_qp_stream *st)
{
	struct siw_wire *w;

	trace_siw_fpdu_sent(st->qp, st->tx_fpdu, st->tx_fin);
	if (!st->tx_fin)
		return;
	st->tx_fin = false;
	switch (st->tx_fin_job) {
	case SIW_TX_SQE:
		spin_lock_bh(&st->lock);
		w = &st->wire[st->tx_fin_idx];
		/* a READ completes with its response (maybe there already) */
		if (w->state == SIW_WQE_QUEUED) {
			if (siw_wqe_opcode(siw_wqe_at(st, st->tx_fin_idx)) ==
			    IB_WR_RDMA_READ) {
				w->state = SIW_WQE_SENT;
			} else if (st->tx_zc_used) {
				/* TCP holds the pages until its peer acks */
				w->state = SIW_WQE_ACKWAIT;
				w->end_seq = READ_ONCE(tcp_sk(st->sock->sk)->write_seq);
			} else {
				w->state = SIW_WQE_DONE;
			}
		}
		spin_unlock_bh(&st->lock);
		break;
	case SIW_TX_RRESP:
		/* the source is no longer read */
		spin_lock_bh(&st->lock);
		siw_tx_put_source(st);
		spin_unlock_bh(&st->lock);
		break;
	case SIW_TX_TERM:
		atomic_inc(&st->terms_sent);
		break;
	default:
		break;
	}
}

/*
 * The request being cut cannot go out (siw_tx_build()): it fails with
 * a local error, which errors the QP, and the stream ends.
 */
static void siw_tx_fail_sqe(struct siw_qp_stream *st)
{
	spin_lock_bh(&st->lock);
	if (st->tx_job == SIW_TX_SQE) {
		st->wire[st->tx_idx].state = SIW_WQE_DONE;
		st->wire[st->tx_idx].status = IB_WC_LOC_PROT_ERR;
	}
	st->tx_job = SIW_TX_NONE;
	spin_unlock_bh(&st->lock);
	siw_qp_fail(st, -EIO, false, 0, NULL, 0);
}

/*
 * The source of the READ response being cut failed its check: a
 * TERMINATE (RDMAP remote protection, invalid STag) carrying the READ
 * request, rebuilt from what the IRQ kept of it, as upstream does.
 */
static void siw_tx_fail_rresp(struct siw_qp_stream *st)
{
	struct siw_irqe *e = &st->tx_irqe;
	union iwarp_hdr h;

	siw_fpdu_init_hdr(&h, RDMAP_RDMA_READ_REQ);
	h.rreq.ddp_msn = cpu_to_be32(e->msn);
	h.rreq.sink_stag = cpu_to_be32(e->sink_stag);
	h.rreq.sink_to = cpu_to_be64(e->sink_to);
	h.rreq.read_size = cpu_to_be32(e->len);
	h.rreq.source_stag = cpu_to_be32(e->src_stag);
	h.rreq.source_to = cpu_to_be64(e->src_to);
	spin_lock_bh(&st->lock);
	st->tx_job = SIW_TX_NONE;
	spin_unlock_bh(&st->lock);
	siw_qp_fail(st, -EPROTO, true,
		    siw_term_ctrl(TERM_ERROR_LAYER_RDMAP,
				  RDMAP_ETYPE_REMOTE_PROTECTION,
				  RDMAP_ECODE_INVALID_STAG),
		    &h, sizeof(h.rreq));
}

/*
 * Has TCP's peer acknowledged everything up to @w->end_seq (st->lock
 * held)?  If not, have the socket call sk_write_space at its next ACK
 * that frees data (tcp_check_space() looks at SOCK_NOSPACE), which
 * brings the transmitter back.
 */
static bool siw_tx_acked(struct siw_qp_stream *st, struct siw_wire *w)
{
	struct sock *sk;

	if (!st->sock)
		return false;
	sk = st->sock->sk;
	if (!before(READ_ONCE(tcp_sk(sk)->snd_una), w->end_seq))
		return true;
	set_bit(SOCK_NOSPACE, &st->sock->flags);
	/* an ACK between the test and the bit would not call: look again */
	smp_mb__after_atomic();
	return !before(READ_ONCE(tcp_sk(sk)->snd_una), w->end_seq);
}

/**
 * siw_qp_complete - give the requests done back to rdmavt, in order
 * @st: the data path
 *
 * One context at a time gives requests back (@compl_busy): a caller that
 * finds another at it leaves the work to it (@compl_again), so the
 * completions of the transmitter and of the receiver (a READ's response
 * in) stay in order without a wakeup in between.
 *
 * Context: process or softirq context, no rdmavt lock held; takes
 * st->lock, calls rvt_send_complete() without it.
 */
void siw_qp_complete(struct siw_qp_stream *st)
{
	enum ib_wc_status status;
	struct rvt_swqe *wqe;
	struct siw_wire *w;
	u32 idx;

	spin_lock_bh(&st->lock);
	if (st->compl_busy) {
		st->compl_again = true;
		spin_unlock_bh(&st->lock);
		return;
	}
	st->compl_busy = true;
	do {
		st->compl_again = false;
		while (st->c_head != st->t_next) {
			idx = st->c_head;
			w = &st->wire[idx];
			if (w->state == SIW_WQE_ACKWAIT && siw_tx_acked(st, w))
				w->state = SIW_WQE_DONE;
			if (w->state != SIW_WQE_DONE)
				break;
			wqe = siw_wqe_at(st, idx);
			status = w->status;
			st->c_head = siw_wqe_next(st, idx);
			spin_unlock_bh(&st->lock);
			trace_siw_wqe_done(st->qp, idx, status);
			rvt_send_complete(st->qp, wqe, status);
			spin_lock_bh(&st->lock);
		}
	} while (st->compl_again);
	st->compl_busy = false;
	spin_unlock_bh(&st->lock);
}

/*
 * The QP is in the error state: give back every request held, in order,
 * those done with their status, the others flushed (rdmavt flushes the
 * rest of the send queue after them).  First the receiver stops placing
 * READ responses into them, the FPDU on its way stops naming them and a
 * READ response being cut ends.
 */
static void siw_tx_giveback(struct siw_qp_stream *st)
{
	enum ib_wc_status status;
	struct rvt_swqe *wqe;
	struct siw_wire *w;
	u32 idx;

	siw_tx_compl_enter(st);
	siw_tx_detach(st);
	st->orq_count = 0;
	if (st->tx_job == SIW_TX_SQE)
		st->tx_job = SIW_TX_NONE;
	st->t_next = st->q_tail;

	for (;;) {
		if (st->c_head == st->q_tail) {
			st->compl_busy = false;
			spin_unlock_bh(&st->lock);
			return;
		}
		idx = st->c_head;
		w = &st->wire[idx];
		/* by page: done if TCP's peer has it all */
		if (w->state == SIW_WQE_ACKWAIT && siw_tx_acked(st, w))
			w->state = SIW_WQE_DONE;
		status = w->state == SIW_WQE_DONE ? w->status :
			 IB_WC_WR_FLUSH_ERR;
		wqe = siw_wqe_at(st, idx);
		st->c_head = siw_wqe_next(st, idx);
		spin_unlock_bh(&st->lock);
		trace_siw_wqe_done(st->qp, idx, status);
		rvt_send_complete(st->qp, wqe, status);
		spin_lock_bh(&st->lock);
	}
}

/*
 * After a failure (once its TERMINATE is out): error the QP, tell the CM.
 * In the error state (this one or the consumer's): give back what siw
 * holds.
 */
static void siw_tx_finish_fail(struct siw_qp_stream *st)
{
	bool fail_now = false;
	int err;

	spin_lock_bh(&st->lock);
	err = st->fail;
	if (err && !st->fail_done && !st->dead && !st->term_pending &&
	    st->tx_sent >= st->tx_fpdu) {
		st->fail_done = true;
		fail_now = true;
	}
	spin_unlock_bh(&st->lock);

	if (fail_now) {
		rvt_error_qp(st->qp, IB_WC_WR_FLUSH_ERR);
		if (!test_and_set_bit(SIW_ST_LOST, &st->flags))
			siw_cm_stream_lost(st->qp, err);
		siw_tx_release(st);
	}
	if (READ_ONCE(st->qp->state) == IB_QPS_ERR)
		siw_tx_giveback(st);
}

/* FPDUs one run of the transmitter sends before it queues itself again. */
#define SIW_TX_BURST	64

/*
 * One run of the transmitter, holding st->tx_mutex: the work item's or,
 * with @direct, a doorbell's own (siw_tx_direct()).  Never sleeps on
 * the socket; takes st->lock; calls rvt_send_complete(), rvt_error_qp(),
 * rvt_read_source() and siw_cm_stream_lost() holding no lock but
 * st->tx_mutex.
 */
static void siw_tx_run(struct siw_qp_stream *st, bool direct)
{
	unsigned int burst = 0;
	int ret;

	/* xmit_stop took the requests back: nothing of them is touched */
	if (READ_ONCE(st->qp->state) == IB_QPS_RESET)
		return;
	for (;;) {
		if (READ_ONCE(st->dead))
			break;
		if (st->tx_sent < st->tx_fpdu) {
			ret = siw_tx_push(st);
			if (ret == -EAGAIN)
				break;
			if (ret) {
				rvt_hw_count(st->qp, RVT_CNT_SEND_ERR, 1);
				st->tx_fpdu = 0;
				st->tx_sent = 0;
				st->tx_fin = false;
				st->tx_pages = false;
				siw_qp_fail(st, -EIO, false, 0, NULL, 0);
				continue;
			}
			WRITE_ONCE(st->tx_fpdus, st->tx_fpdus + 1);
			rvt_hw_count(st->qp, RVT_CNT_SENT_PKTS, 1);
			if (st->tx_pages)
				WRITE_ONCE(st->tx_paged, st->tx_paged + 1);
			if (st->tx_pages && st->tx_splice)
				WRITE_ONCE(st->tx_spliced, st->tx_spliced + 1);
			if (direct)
				WRITE_ONCE(st->tx_direct_fpdus,
					   st->tx_direct_fpdus + 1);
			siw_tx_fpdu_done(st);
			/*
			 * A socket that keeps taking data would keep this
			 * worker busy for as long as the QP has data: after a
			 * burst, the other QPs' work runs first.
			 */
			if (++burst >= SIW_TX_BURST) {
				queue_work(siw_tx_wq, &st->tx_work);
				break;
			}
			continue;
		}
		/* completions as soon as possible: consumers reuse buffers */
		siw_qp_complete(st);
		if (!siw_tx_pick(st))
			break;
		ret = siw_tx_build(st);
		/* a page being faulted in: siw_odp_resume() brings us back */
		if (ret == -EAGAIN)
			break;
		if (ret) {
			st->tx_fpdu = 0;
			st->tx_sent = 0;
			st->tx_fin = false;
			st->tx_pages = false;
		}
		if (ret == -EPROTO)
			siw_tx_fail_rresp(st);
		else if (ret)
			siw_tx_fail_sqe(st);
	}
	siw_qp_complete(st);
	siw_tx_finish_fail(st);
}

/**
 * siw_tx_work - the transmitter of a QP's stream, as a work item
 * @work: st->tx_work
 *
 * Context: process context (siw_tx_wq); takes st->tx_mutex (it waits
 * for a direct run to end).
 */
void siw_tx_work(struct work_struct *work)
{
	struct siw_qp_stream *st = container_of(work, struct siw_qp_stream,
						tx_work);

	mutex_lock(&st->tx_mutex);
	siw_tx_run(st, false);
	mutex_unlock(&st->tx_mutex);
}

/**
 * siw_tx_direct - run the engine and the transmitter in the caller's
 *	context
 * @qp: a user QP whose doorbell rang (POST_SEND, or rdmavt's ring_work)
 *
 * As upstream's siw sends a user QP's requests in the POST_SEND system
 * call while its send queue is idle, the requests the doorbell took go
 * to the socket here, with no worker to wake: the engine runs here
 * (rvt_kick_sq()), xmit_wqe then leaves the transmitter to this caller
 * (st->tx_direct), and one run of it follows.  When the transmitter is
 * running elsewhere, or the engine could not run here, the work item
 * takes over as for a kernel QP; a burst longer than SIW_TX_BURST goes
 * on there too.  Kernel QPs never come here: their posters may hold
 * spin locks or run in softirq.
 *
 * Context: process context, no lock held; may sleep.
 */
void siw_tx_direct(struct rvt_qp *qp)
{
	struct siw_qp_stream *st = qp->priv;

	WRITE_ONCE(st->tx_direct, current);
	rvt_kick_sq(qp);
	/* another poster may have claimed it meanwhile: it keeps it */
	cmpxchg(&st->tx_direct, current, NULL);
	if (!mutex_trylock(&st->tx_mutex)) {
		queue_work(siw_tx_wq, &st->tx_work);
		return;
	}
	siw_tx_run(st, true);
	mutex_unlock(&st->tx_mutex);
}
