// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw: the transmitter of a QP's stream (its tx_work).  It cuts one
 * message at a time into FPDUs of at most the MULPDU of the socket's
 * MSS: a TERMINATE first, then READ responses the peer asked for, then
 * the requests xmit_wqe took, a READ request only while fewer than the
 * negotiated ORD are outstanding.  Each FPDU is built whole in tx_buf
 * (header, payload, pad, CRC32c when negotiated, else a zero CRC field)
 * and handed to the socket without blocking; sk_write_space brings the
 * work back when the socket has room again.
 *
 * Completions (upstream's semantics): a SEND or WRITE completes when
 * the socket took its last FPDU, a READ when the receiver placed its
 * response; they are entered in order, from here only.
 *
 * Locks and contexts: see siw_qp.c.
 */

#include <linux/net.h>
#include <linux/socket.h>
#include <net/sock.h>

#include "siw.h"
#include "siw_qp.h"
#include "siw_term.h"

/* Drop the MR references of a request taken (st->lock held). */
static void siw_sqe_put(struct siw_sqe *sqe)
{
	u32 i;

	for (i = 0; i < sqe->num_sge; i++)
		if (sqe->sg[i].mr)
			rvt_put_mr(sqe->sg[i].mr);
	sqe->num_sge = 0;
}

/**
 * siw_tx_release - forget every request and READ the stream holds
 * @st: the data path; its transmitter does not run (or is the caller)
 *
 * The requests stay in rdmavt's send queue: the QP's error state
 * flushes them.
 *
 * Context: process context; takes st->lock.
 */
void siw_tx_release(struct siw_qp_stream *st)
{
	u32 i;

	spin_lock_bh(&st->lock);
	if (st->sqes)
		for (i = st->c_head; i != st->q_tail; i = siw_sqe_next(st, i))
			siw_sqe_put(siw_sqe_at(st, i));
	st->c_head = st->q_tail;
	st->t_next = st->q_tail;
	st->orq_count = 0;
	st->irq_count = 0;
	st->tx_job = SIW_TX_NONE;
	st->tx_fpdu = 0;
	st->tx_sent = 0;
	st->tx_fin = false;
	spin_unlock_bh(&st->lock);
}

/* The RDMAP opcode of a request. */
static u8 siw_tx_opcode(const struct siw_sqe *sqe)
{
	bool se = sqe->send_flags & IB_SEND_SOLICITED;

	switch (sqe->opcode) {
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
	struct siw_sqe *sqe = siw_sqe_at(st, idx);
	union iwarp_hdr *h = &st->tx_hdr;
	u8 op = siw_tx_opcode(sqe);

	siw_fpdu_init_hdr(h, op);
	st->tx_job = SIW_TX_SQE;
	st->tx_idx = idx;
	st->tx_len = sqe->length;
	st->tx_off = 0;
	st->tx_base_to = 0;
	switch (op) {
	case RDMAP_RDMA_WRITE:
		h->rwrite.sink_stag = cpu_to_be32(sqe->rkey);
		st->tx_base_to = sqe->remote_addr;
		break;
	case RDMAP_RDMA_READ_REQ:
		h->rreq.ddp_msn = siw_tx_msn(st, RDMAP_UNTAGGED_QN_RDMA_READ);
		h->rreq.sink_stag = cpu_to_be32(sqe->sink_stag);
		h->rreq.sink_to = cpu_to_be64(sqe->sink_to);
		h->rreq.read_size = cpu_to_be32(sqe->length);
		h->rreq.source_stag = cpu_to_be32(sqe->rkey);
		h->rreq.source_to = cpu_to_be64(sqe->remote_addr);
		/* the request carries no payload */
		st->tx_len = 0;
		/* in the ORQ before it leaves: the response may come at once */
		st->orq[(st->orq_head + st->orq_count) % st->orq_size] = idx;
		st->orq_count++;
		break;
	case RDMAP_SEND_INVAL:
	case RDMAP_SEND_SE_INVAL:
		h->send_inv.inval_stag = cpu_to_be32(sqe->rkey);
		fallthrough;
	default:
		h->send.ddp_msn = siw_tx_msn(st, RDMAP_UNTAGGED_QN_SEND);
		break;
	}
	st->tx_ss.sge = sqe->sg[0];
	st->tx_ss.sg_list = sqe->sg + 1;
	st->tx_ss.num_sge = sqe->num_sge;
	st->tx_ss.total_len = sqe->length;
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
	st->tx_len = st->tx_irqe.len;
	st->tx_off = 0;
	st->tx_base_to = st->tx_irqe.sink_to;
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
 * May request @sqe go now (st->lock held)?  A READ needs a free ORQ
 * slot; a fenced request (IB_SEND_FENCE, a READ too) waits until every
 * READ sent before it has its response, as upstream's orq_fence.
 */
static bool siw_tx_may_start(struct siw_qp_stream *st, struct siw_sqe *sqe)
{
	if ((sqe->send_flags & IB_SEND_FENCE) && st->orq_count)
		return false;
	return sqe->opcode != IB_WR_RDMA_READ || st->orq_count < st->orq_size;
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
		/* a responder before the initiator's first FPDU */
		go = false;
	} else if (st->irq_count) {
		siw_tx_start_rresp(st);
	} else if (st->t_next != st->q_tail &&
		   siw_tx_may_start(st, siw_sqe_at(st, st->t_next))) {
		siw_tx_start_sqe(st, st->t_next);
		st->t_next = siw_sqe_next(st, st->t_next);
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

/*
 * Build the next FPDU of the current message into tx_buf.  Returns 0;
 * -EPROTO when a READ response cannot read its source (the caller then
 * sends a TERMINATE instead); -ERANGE or -EINVAL when the message cannot
 * be cut (a WRITE whose remote TOs would wrap, a MULPDU too small):
 * nothing of it was sent.
 */
static int siw_tx_build(struct siw_qp_stream *st)
{
	bool crc = st->params.mpa.crc;
	struct siw_fpdu_seg seg;
	u8 *p = st->tx_buf;
	__le32 crc_field = 0;
	int len;

	if (st->tx_job == SIW_TX_TERM)
		return siw_tx_build_term(st);
	len = siw_fpdu_next_seg(&st->tx_hdr, st->tx_base_to, st->tx_len,
				st->tx_off, st->tx_mulpdu, &seg);
	if (len < 0)
		return len;
	memcpy(p, &st->tx_hdr, seg.hdr_len);
	p += seg.hdr_len;
	if (st->tx_job == SIW_TX_RRESP) {
		/* a zero-length READ (an RTR) names no memory to check */
		if (seg.len &&
		    rvt_read_fetch(st->qp, st->tx_irqe.src_stag,
				   st->tx_irqe.src_to + seg.offset, p,
				   seg.len) != IB_WC_SUCCESS)
			return -EPROTO;
	} else if (seg.len) {
		u32 left = seg.len;
		u8 *q = p;

		/* the walk's regions are referenced by the request we took */
		while (left) {
			u32 n = rvt_ss_piece(&st->tx_ss, left);

			/* the SGEs hold the request's length: never */
			if (WARN_ON_ONCE(!n))
				return -EINVAL;
			memcpy(q, st->tx_ss.sge.vaddr, n);
			rvt_update_sge(&st->tx_ss, n, false);
			q += n;
			left -= n;
		}
	}
	p += seg.len;
	memset(p, 0, seg.pad);
	p += seg.pad;
	if (crc)
		crc_field = siw_fpdu_crc_final(siw_fpdu_crc_update(SIW_FPDU_CRC_SEED,
								   st->tx_buf,
								   p - st->tx_buf));
	memcpy(p, &crc_field, MPA_CRC_SIZE);
	st->tx_fpdu = seg.fpdu_len;
	st->tx_sent = 0;
	st->tx_off += seg.len;
	st->tx_fin = false;
	if (seg.last)
		siw_tx_built_last(st);
	return 0;
}

/*
 * Hand the rest of tx_buf to the socket.  Returns 0 when it took all,
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

/* The FPDU in tx_buf is out: what its message's end means. */
static void siw_tx_fpdu_done(struct siw_qp_stream *st)
{
	struct siw_sqe *sqe;

	if (!st->tx_fin)
		return;
	st->tx_fin = false;
	switch (st->tx_fin_job) {
	case SIW_TX_SQE:
		spin_lock_bh(&st->lock);
		sqe = siw_sqe_at(st, st->tx_fin_idx);
		/* a READ completes with its response (maybe there already) */
		if (sqe->state == SIW_SQE_QUEUED)
			sqe->state = sqe->opcode == IB_WR_RDMA_READ ?
				SIW_SQE_SENT : SIW_SQE_DONE;
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
		siw_sqe_at(st, st->tx_idx)->state = SIW_SQE_DONE;
		siw_sqe_at(st, st->tx_idx)->status = IB_WC_LOC_PROT_ERR;
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

/* Enter the completions due, in order. */
static void siw_tx_complete(struct siw_qp_stream *st)
{
	enum ib_wc_status status;
	struct rvt_swqe *wqe;
	struct siw_sqe *sqe;

	for (;;) {
		spin_lock_bh(&st->lock);
		if (st->dead || st->c_head == st->t_next) {
			spin_unlock_bh(&st->lock);
			return;
		}
		sqe = siw_sqe_at(st, st->c_head);
		if (sqe->state != SIW_SQE_DONE) {
			spin_unlock_bh(&st->lock);
			return;
		}
		wqe = sqe->wqe;
		status = sqe->status;
		siw_sqe_put(sqe);
		st->c_head = siw_sqe_next(st, st->c_head);
		spin_unlock_bh(&st->lock);
		/* a request flushed meanwhile does not complete again */
		rvt_send_complete(st->qp, wqe, status);
	}
}

/*
 * After a failure (once its TERMINATE is out) or the QP's error state:
 * error the QP, tell the CM, drop what the stream holds.
 */
static void siw_tx_finish_fail(struct siw_qp_stream *st)
{
	bool qp_err = READ_ONCE(st->qp->state) == IB_QPS_ERR;
	int err = 0;

	spin_lock_bh(&st->lock);
	if (st->dead || st->term_pending || st->tx_sent < st->tx_fpdu ||
	    (!st->fail && !qp_err) || st->fail_done) {
		spin_unlock_bh(&st->lock);
		return;
	}
	st->fail_done = true;
	err = st->fail;
	spin_unlock_bh(&st->lock);

	if (err) {
		rvt_error_qp(st->qp, IB_WC_WR_FLUSH_ERR);
		if (!test_and_set_bit(SIW_ST_LOST, &st->flags))
			siw_cm_stream_lost(st->qp, err);
	}
	siw_tx_release(st);
}

/* FPDUs one run of siw_tx_work() sends before it queues itself again. */
#define SIW_TX_BURST	64

/**
 * siw_tx_work - the transmitter of a QP's stream
 * @work: st->tx_work
 *
 * Context: process context (siw_tx_wq); never sleeps on the socket.
 * Takes st->lock; calls rvt_send_complete(), rvt_error_qp(),
 * rvt_read_fetch() and siw_cm_stream_lost() holding no lock.
 */
void siw_tx_work(struct work_struct *work)
{
	struct siw_qp_stream *st = container_of(work, struct siw_qp_stream,
						tx_work);
	unsigned int burst = 0;
	int ret;

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
				siw_qp_fail(st, -EIO, false, 0, NULL, 0);
				continue;
			}
			WRITE_ONCE(st->tx_fpdus, st->tx_fpdus + 1);
			rvt_hw_count(st->qp, RVT_CNT_SENT_PKTS, 1);
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
		siw_tx_complete(st);
		if (!siw_tx_pick(st))
			break;
		ret = siw_tx_build(st);
		if (ret) {
			st->tx_fpdu = 0;
			st->tx_sent = 0;
			st->tx_fin = false;
		}
		if (ret == -EPROTO)
			siw_tx_fail_rresp(st);
		else if (ret)
			siw_tx_fail_sqe(st);
	}
	siw_tx_complete(st);
	siw_tx_finish_fail(st);
}
