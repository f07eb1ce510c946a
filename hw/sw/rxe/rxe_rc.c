// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The connected transports, RC and UC, over rxe's wire.
 *
 * Requester.  rdmavt hands each request to rxe_xmit_wqe(); rxe keeps it
 * in place in the send ring (between sq_tail and sq_cur) with a little
 * state per slot (struct rxe_rc_req: its first PSN, its packets) and
 * sends its packets, cut by the path MTU, as the window lets them go:
 * no more than RXE_WINDOW PSNs unacknowledged, and no more than the QP's
 * max_rd_atomic READs and atomics waiting for their responses (the next
 * one waits, and the send queue behind it, as upstream rxe's does; with
 * max_rd_atomic 0 a READ or atomic waits until the retry timer gives
 * up on it; a request posted with IB_SEND_FENCE waits until those
 * before it completed, as upstream's does).  SEND and WRITE take a
 * PSN per packet, a READ one request packet and a PSN per response
 * packet it expects, an atomic one PSN, as do IBA 1.5's FLUSH and ATOMIC
 * WRITE (answered by a READ response of no payload; an ATOMIC WRITE
 * counts against max_rd_atomic, a FLUSH does not, as upstream's
 * requester counts them).  The last packet of a message,
 * and one in RXE_ACK_EVERY, asks for an ACK.  An ACK acknowledges every
 * PSN up to its own (coalescing: one ACK may complete several requests)
 * and opens the window; READ responses are placed into the request's
 * local SGEs in order and the last one completes it; an atomic's
 * acknowledgment brings the original value.  A response to a READ or
 * atomic acknowledges what came before it.  A PSN sequence NAK sends
 * again from its PSN; an RNR NAK waits the AETH's RNR time (rnr_retry
 * times, 7 for ever); the retry timer sends again from the oldest
 * unacknowledged PSN (retry_cnt times; 7: for ever, as upstream rxe's
 * does; an ACK timeout of 0 has no timer), a READ from its first
 * response not placed yet; an ACK past a READ or atomic whose responses
 * did not all come is an implied NAK (a try of the retry counter) that
 * asks again from the first one missing, once until a response comes;
 * other NAKs fail the request with their status and the
 * QP goes to the error state.  Requests complete in order with
 * rvt_send_complete().  UC sends the same packets, with no window, and
 * completes a request when they went.
 *
 * Responder, in the receive softirq under the QP's r_lock: the packet
 * with the expected PSN executes; an older one is a duplicate (a SEND
 * or WRITE asking for an ACK is acknowledged again, a READ read and
 * answered again, an atomic answered from the replay cache of the last
 * max_dest_rd_atomic, never executed twice, and so are FLUSH and ATOMIC
 * WRITE, whose PSNs the cache keeps too); a newer one gets one PSN
 * sequence NAK until the expected one comes.  Placement through
 * rdmavt's helpers: rvt_recv_begin/place/complete for SENDs (immediate,
 * invalidate), rvt_write_place() for WRITEs, rvt_read_source() and the
 * region's pages in place for READ responses (rxe_tx_skb()),
 * rvt_atomic_execute() for atomics, rvt_flush_execute() and
 * rvt_atomic_write() for FLUSH and ATOMIC WRITE.  No receive WQE: an
 * RNR NAK with the QP's min_rnr_timer.  A length error, a misaligned
 * atomic, or a READ, atomic or ATOMIC WRITE at a QP whose
 * max_dest_rd_atomic is 0 (upstream rxe's "too many RDMA or atomic
 * requests") NAKs an invalid request, a key error a remote access
 * error; either moves the QP to the error state.
 *
 * Locks: struct rxe_rc.lock (the requester's state; BH) is taken by
 * xmit_wqe, the ACK path, the retry timer and the flush work, and is
 * held across rvt_send_complete() (whose handlers defer posts to
 * rdmavt's work item); the responder's state is under the QP's r_lock.
 * Neither nests in the other.
 */
#include <linux/unaligned.h>

#include "rxe.h"

/* packets of @len bytes at @mtu: at least one */
static u32 rxe_npkts(u32 len, u32 mtu)
{
	return len ? DIV_ROUND_UP(len, mtu) : 1;
}

static u32 rxe_qp_mtu(struct rvt_qp *qp)
{
	return ib_mtu_enum_to_int(qp->path_mtu ?: IB_MTU_256);
}

static bool rxe_is_uc(struct rvt_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UC;
}

/* how long a requester that missed a page waits before it tries again */
#define RXE_FAULT_WAIT	msecs_to_jiffies(1)

/*
 * The requester missed a page of an on-demand paging MR (its payload, or
 * where a response goes): it sends again from its oldest unacknowledged
 * PSN soon, as after an RNR NAK (no try of the retry counter).  The
 * QP's send work has faulted the page in by then, or the retry misses
 * and waits again.  Under rc.lock.
 */
static void rxe_rc_fault_wait(struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;

	priv->rc.rnr_wait = true;
	mod_timer(&priv->rc.timer, jiffies + max(RXE_FAULT_WAIT, 1UL));
}

/*
 * A packet of @qp: headers of @opcode zeroed but the BTH, @plen payload
 * bytes from the walk @ss (rxe_tx_skb()): referenced in place for RC,
 * whose requests complete only once acknowledged, copied for UC, whose
 * requests complete when they went.  NULL when there was no memory or a
 * page of an on-demand paging MR was not mapped (being faulted in):
 * either way the packet is lost, and the retry sends it again.
 */
static struct sk_buff *rxe_rc_skb(struct rxe_dev *rxe, struct rvt_qp *qp,
				  u8 opcode, u32 psn, bool ackreq,
				  struct rvt_sge_state *ss, u32 plen)
{
	const struct rxe_opcode_info *info = &rxe_opcode[opcode];
	struct rxe_bth *bth;
	struct sk_buff *skb;

	skb = rxe_tx_skb(rxe, info->len, ss, plen, !rxe_is_uc(qp));
	if (IS_ERR(skb)) {
		/* a READ response reads the responder's region */
		rvt_odp_miss_fault(qp, &ss->sge, false,
				   !!(info->mask & RXE_READ));
		if (!(info->mask & RXE_READ))
			rxe_rc_fault_wait(qp);
		return NULL;
	}
	if (!skb)
		return NULL;
	bth = (struct rxe_bth *)skb->data;
	bth->opcode = opcode;
	bth->flags = (-plen & 3) << RXE_BTH_PAD_SHIFT;
	bth->pkey = htons(0xffff);
	bth->qpn = htonl(qp->remote_qpn & RXE_BTH_QPN_MASK);
	bth->apsn = htonl((psn & RXE_PSN_MASK) |
			  (ackreq ? RXE_BTH_ACK_REQ : 0));
	return skb;
}

static int rxe_rc_send_skb(struct rvt_qp *qp, struct sk_buff *skb)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	int ret;

	if (!qp->ibqp.av_sgid_attr) {
		kfree_skb(skb);
		return -EHOSTUNREACH;
	}
	ret = rxe_xmit_skb(rxe, skb, qp->ibqp.av_sgid_attr,
			   &qp->remote_ah_attr, priv->src_port);
	rvt_hw_count(qp, ret ? RVT_CNT_SEND_ERR : RVT_CNT_SENT_PKTS, 1);
	return ret;
}

/* ------------------------------------------------------------------
 * Requester
 */

/*
 * A packet's place in its message, the index of the opcode tables: bit 0
 * for its first packet, bit 1 for its last (both: its only one).
 */
enum {
	RXE_MIDDLE_PKT	= 0,
	RXE_FIRST_PKT	= 1,
	RXE_LAST_PKT	= 2,
	RXE_ONLY_PKT	= 3,
};

static unsigned int rxe_pkt_place(u32 k, u32 n)
{
	return (k == 0 ? RXE_FIRST_PKT : 0) | (k == n - 1 ? RXE_LAST_PKT : 0);
}

/* The opcodes of SENDs and WRITEs by work request and place (RC's; UC's
 * are the same plus IB_OPCODE_UC).
 */
static const struct {
	bool	valid;
	u8	op[4];
} rxe_rc_ops[] = {
#define RXE_OPS(wr, mid, first, last, only)				\
	[IB_WR_##wr] = { true, {					\
		[RXE_MIDDLE_PKT] = IB_OPCODE_##mid,			\
		[RXE_FIRST_PKT] = IB_OPCODE_##first,			\
		[RXE_LAST_PKT] = IB_OPCODE_##last,			\
		[RXE_ONLY_PKT] = IB_OPCODE_##only } }
	RXE_OPS(SEND, SEND_MIDDLE, SEND_FIRST, SEND_LAST, SEND_ONLY),
	RXE_OPS(SEND_WITH_IMM, SEND_MIDDLE, SEND_FIRST,
		SEND_LAST_WITH_IMMEDIATE, SEND_ONLY_WITH_IMMEDIATE),
	RXE_OPS(SEND_WITH_INV, SEND_MIDDLE, SEND_FIRST,
		SEND_LAST_WITH_INVALIDATE, SEND_ONLY_WITH_INVALIDATE),
	RXE_OPS(RDMA_WRITE, RDMA_WRITE_MIDDLE, RDMA_WRITE_FIRST,
		RDMA_WRITE_LAST, RDMA_WRITE_ONLY),
	RXE_OPS(RDMA_WRITE_WITH_IMM, RDMA_WRITE_MIDDLE, RDMA_WRITE_FIRST,
		RDMA_WRITE_LAST_WITH_IMMEDIATE,
		RDMA_WRITE_ONLY_WITH_IMMEDIATE),
#undef RXE_OPS
};

/* READ responses by place */
static const u8 rxe_read_resp_ops[4] = {
	[RXE_MIDDLE_PKT] = IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE,
	[RXE_FIRST_PKT] = IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST,
	[RXE_LAST_PKT] = IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST,
	[RXE_ONLY_PKT] = IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY,
};

/*
 * The opcode of packet @k of @n of a SEND or WRITE request (rdmavt hands
 * rxe no other kind of request that carries payload).
 */
static u8 rxe_rc_opcode(struct rvt_qp *qp, struct rvt_swqe *wqe, u32 k,
			u32 n)
{
	u8 base = rxe_is_uc(qp) ? IB_OPCODE_UC : IB_OPCODE_RC;
	u32 wr = wqe->wr.opcode;

	if (WARN_ON_ONCE(wr >= ARRAY_SIZE(rxe_rc_ops) ||
			 !rxe_rc_ops[wr].valid))
		wr = IB_WR_SEND;
	return base + rxe_rc_ops[wr].op[rxe_pkt_place(k, n)];
}

static bool rxe_wr_is_read(struct rvt_swqe *wqe)
{
	return wqe->wr.opcode == IB_WR_RDMA_READ;
}

static bool rxe_wr_is_atomic(struct rvt_swqe *wqe)
{
	return wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	       wqe->wr.opcode == IB_WR_ATOMIC_FETCH_AND_ADD;
}

/* IBA 1.5's FLUSH and ATOMIC WRITE: one packet, answered by a READ response */
static bool rxe_wr_is_flush_aw(struct rvt_swqe *wqe)
{
	return wqe->wr.opcode == IB_WR_FLUSH ||
	       wqe->wr.opcode == IB_WR_ATOMIC_WRITE;
}

/* A READ, atomic, FLUSH or ATOMIC WRITE: its response completes it. */
static bool rxe_wr_has_resp(struct rvt_swqe *wqe)
{
	return rxe_wr_is_read(wqe) || rxe_wr_is_atomic(wqe) ||
	       rxe_wr_is_flush_aw(wqe);
}

/*
 * What counts against max_rd_atomic: whatever the responder keeps in its
 * max_dest_rd_atomic resources to answer again, so that none still
 * unanswered is pushed out: READs, atomics, ATOMIC WRITEs and FLUSHes.
 * Upstream's requester leaves FLUSH out.
 */
static bool rxe_wr_rd_atomic(struct rvt_swqe *wqe)
{
	return rxe_wr_has_resp(wqe);
}

/*
 * A FLUSH (FETH, RETH) or an ATOMIC WRITE (RETH, its 8 bytes from the
 * request's SGEs) of the request in slot @idx: one packet, asking for
 * its response.  False when it found no memory.
 */
static bool rxe_rc_send_flush_aw(struct rvt_qp *qp, u32 idx)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	struct rvt_swqe *wqe = rvt_get_swqe_ptr(qp, idx);
	struct rxe_rc_req *r = &priv->rc.reqs[idx];
	bool flush = wqe->wr.opcode == IB_WR_FLUSH;
	u8 op = flush ? IB_OPCODE_RC_FLUSH : IB_OPCODE_RC_ATOMIC_WRITE;
	u32 mask = rxe_opcode[op].mask;
	struct rvt_sge_state ss;
	struct rxe_reth *reth;
	struct sk_buff *skb;

	if (!flush)
		rvt_restart_sge(&ss, wqe, 0);
	skb = rxe_rc_skb(rxe, qp, op, r->first_psn, true, flush ? NULL : &ss,
			 flush ? 0 : sizeof(u64));
	if (!skb)
		return false;
	reth = (void *)skb->data + rxe_hdr_off(mask, RXE_RETH);
	if (flush) {
		const struct rvt_flush_wr *fw = &wqe->flush_wr;
		struct rxe_feth *feth = (void *)skb->data +
					rxe_hdr_off(mask, RXE_FETH);

		feth->bits = htonl((fw->level << RXE_FETH_SEL_SHIFT &
				    RXE_FETH_SEL_MASK) |
				   (fw->type & RXE_FETH_PLT_MASK));
		reth->va = cpu_to_be64(fw->remote_addr);
		reth->rkey = htonl(fw->rkey);
		reth->len = htonl(fw->length);
	} else {
		reth->va = cpu_to_be64(wqe->rdma_wr.remote_addr);
		reth->rkey = htonl(wqe->rdma_wr.rkey);
		reth->len = htonl(sizeof(u64));
	}
	rxe_rc_send_skb(qp, skb);
	return true;
}

/*
 * Send packets @from to @to - 1 of the request in slot @idx (a READ or
 * an atomic: its one request packet).  False when a packet found no
 * memory: the retry timer sends it again.
 */
static bool rxe_rc_send_req(struct rvt_qp *qp, u32 idx, u32 from, u32 to)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	struct rvt_swqe *wqe = rvt_get_swqe_ptr(qp, idx);
	struct rxe_rc_req *r = &priv->rc.reqs[idx];
	u32 mtu = rxe_qp_mtu(qp), k;

	if (rxe_wr_is_read(wqe)) {
		/* from the first response not placed yet */
		u32 off = r->next * mtu;
		struct rxe_reth *reth;
		struct sk_buff *skb;

		skb = rxe_rc_skb(rxe, qp, IB_OPCODE_RC_RDMA_READ_REQUEST,
				 r->first_psn + r->next, true, NULL, 0);
		if (!skb)
			return false;
		reth = (void *)skb->data + sizeof(struct rxe_bth);
		reth->va = cpu_to_be64(wqe->rdma_wr.remote_addr + off);
		reth->rkey = htonl(wqe->rdma_wr.rkey);
		reth->len = htonl(wqe->length - off);
		rxe_rc_send_skb(qp, skb);
		return true;
	}
	if (rxe_wr_is_atomic(wqe)) {
		struct rxe_atmeth *atm;
		struct sk_buff *skb;

		skb = rxe_rc_skb(rxe, qp, wqe->wr.opcode ==
				 IB_WR_ATOMIC_CMP_AND_SWP ?
				 IB_OPCODE_RC_COMPARE_SWAP :
				 IB_OPCODE_RC_FETCH_ADD, r->first_psn, true,
				 NULL, 0);
		if (!skb)
			return false;
		atm = (void *)skb->data + sizeof(struct rxe_bth);
		atm->va = cpu_to_be64(wqe->atomic_wr.remote_addr);
		atm->rkey = htonl(wqe->atomic_wr.rkey);
		if (wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP) {
			atm->swap_add = cpu_to_be64(wqe->atomic_wr.swap);
			atm->comp = cpu_to_be64(wqe->atomic_wr.compare_add);
		} else {
			atm->swap_add =
				cpu_to_be64(wqe->atomic_wr.compare_add);
		}
		rxe_rc_send_skb(qp, skb);
		return true;
	}
	if (rxe_wr_is_flush_aw(wqe))
		return rxe_rc_send_flush_aw(qp, idx);
	for (k = from; k < to; k++) {
		u8 op = rxe_rc_opcode(qp, wqe, k, r->npkts);
		const struct rxe_opcode_info *info = &rxe_opcode[op];
		u32 off = k * mtu, n = min(mtu, wqe->length - off);
		u32 psn = rxe_psn_add(r->first_psn, k);
		bool last = k == r->npkts - 1;
		struct rvt_sge_state ss;
		struct sk_buff *skb;
		struct rxe_bth *bth;

		if (!wqe->length)
			n = 0;
		else
			rvt_restart_sge(&ss, wqe, off);
		/* the last of a message, and one in RXE_ACK_EVERY: an ACK */
		skb = rxe_rc_skb(rxe, qp, op, psn, !rxe_is_uc(qp) &&
				 (last || !(~psn & (RXE_ACK_EVERY - 1))),
				 n ? &ss : NULL, n);
		if (!skb)
			return false;
		bth = (struct rxe_bth *)skb->data;
		if (last && (wqe->wr.send_flags & IB_SEND_SOLICITED))
			bth->flags |= RXE_BTH_SE;
		if (info->mask & RXE_RETH) {
			struct rxe_reth *reth = (void *)bth +
				rxe_hdr_off(info->mask, RXE_RETH);

			reth->va = cpu_to_be64(wqe->rdma_wr.remote_addr);
			reth->rkey = htonl(wqe->rdma_wr.rkey);
			reth->len = htonl(wqe->length);
		}
		if (info->mask & RXE_IMMDT)
			((struct rxe_immdt *)((void *)bth +
			  rxe_hdr_off(info->mask, RXE_IMMDT)))->imm =
				wqe->wr.ex.imm_data;
		if (info->mask & RXE_IETH)
			((struct rxe_ieth *)((void *)bth +
			  rxe_hdr_off(info->mask, RXE_IETH)))->rkey =
				htonl(wqe->wr.ex.invalidate_rkey);
		rxe_rc_send_skb(qp, skb);
	}
	return true;
}

/* The retry timer: from now, unless it runs already. */
static void rxe_rc_arm(struct rvt_qp *qp, unsigned long delay)
{
	struct rxe_qp_priv *priv = qp->priv;

	mod_timer(&priv->rc.timer, jiffies + max(delay, 1UL));
}

/*
 * The retry timer for the QP's ACK timeout; none with a timeout of 0,
 * which waits for ever (IBA 9.7.6.1.3, as upstream rxe does).
 */
static void rxe_rc_arm_retry(struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;

	if (qp->timeout)
		rxe_rc_arm(qp, qp->timeout_jiffies << priv->rc.backoff);
}

/*
 * The peer acknowledged something, or a request is the oldest held now:
 * the oldest gets its retries and RNR retries back (as upstream's
 * completer resets both), and the ACK timeout is the QP's own again.
 * Under rc.lock.
 */
static void rxe_rc_progress(struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;

	priv->rc.retry = qp->s_retry_cnt;
	priv->rc.rnr = qp->s_rnr_retry_cnt;
	priv->rc.implied = false;
	priv->rc.backoff = 0;
}

/*
 * Complete the oldest held request with @status (a REG_MR rdmavt
 * executed: with its own status unless @status is an error), then the
 * executed REG_MRs right behind it, which waited only for it.  Under
 * rc.lock.
 */
static void rxe_rc_complete_head(struct rvt_qp *qp, enum ib_wc_status status)
{
	struct rxe_qp_priv *priv = qp->priv;

	do {
		u32 idx = priv->rc.head;
		struct rvt_swqe *wqe = rvt_get_swqe_ptr(qp, idx);

		/* a request that fails before all of it went */
		if (priv->rc.unsent == priv->rc.held) {
			priv->rc.tx = rvt_sq_next_index(qp, idx);
			priv->rc.unsent--;
		} else if (rxe_wr_rd_atomic(wqe)) {
			priv->rc.rd_out--;
		}
		priv->rc.head = rvt_sq_next_index(qp, idx);
		priv->rc.held--;
		if (wqe->executed && status == IB_WC_SUCCESS)
			status = wqe->status;
		rvt_send_complete(qp, wqe, status);
	} while (status == IB_WC_SUCCESS && priv->rc.held &&
		 rvt_get_swqe_ptr(qp, priv->rc.head)->executed);
}

/*
 * Complete the SENDs and WRITEs whose last PSN is at or before @psn; a
 * READ or atomic ends the run (its response completes it).  Returns
 * whether @psn acknowledged anything new (the oldest unacknowledged PSN
 * moved, or a request completed); only then is the retry counter full
 * again.  An acknowledgment past a READ or atomic whose responses did
 * not all come says the responder sent them (an implied NAK): @miss is
 * set to the first one missing, and the oldest unacknowledged PSN stays
 * there.  Under rc.lock.
 */
static bool rxe_rc_ack_upto(struct rvt_qp *qp, u32 psn, u32 *miss)
{
	struct rxe_qp_priv *priv = qp->priv;
	bool any = false;
	u32 una;

	*miss = RXE_PSN_NONE;
	/* what the peer has is only what was sent */
	if (!priv->rc.held || rxe_psn_cmp(psn, priv->rc.spsn) >= 0)
		return false;
	una = rxe_psn_add(psn, 1);
	while (priv->rc.held) {
		u32 idx = priv->rc.head;
		struct rxe_rc_req *r = &priv->rc.reqs[idx];

		if (rxe_wr_has_resp(rvt_get_swqe_ptr(qp, idx))) {
			u32 first = rxe_psn_add(r->first_psn, r->next);

			if (rxe_psn_cmp(first, psn) <= 0) {
				*miss = first;
				una = first;
			}
			break;
		}
		if (rxe_psn_cmp(rxe_psn_add(r->first_psn, r->npkts - 1),
				psn) > 0)
			break;
		rxe_rc_complete_head(qp, IB_WC_SUCCESS);
		any = true;
	}
	if (rxe_psn_cmp(una, priv->rc.una) > 0) {
		priv->rc.una = una;
		any = true;
	}
	if (any)
		rxe_rc_progress(qp);
	return any;
}

/*
 * Send what the window lets go: from the request in slot rc.tx, packet
 * rc.spsn on, while fewer than RXE_WINDOW PSNs are unacknowledged (UC:
 * all of it).  Under rc.lock.
 */
static void rxe_rc_push(struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rxe_rc *rc = &priv->rc;

	while (rc->unsent) {
		struct rxe_rc_req *r = &rc->reqs[rc->tx];
		struct rvt_swqe *wqe = rvt_get_swqe_ptr(qp, rc->tx);
		u32 k = (rc->spsn - r->first_psn) & RXE_PSN_MASK;
		u32 out = (rc->spsn - rc->una) & RXE_PSN_MASK;
		u32 to = r->npkts;

		if (!to) {
			/* an executed REG_MR: nothing to send */
			rc->tx = rvt_sq_next_index(qp, rc->tx);
			rc->unsent--;
			continue;
		}
		/* fenced (IBA 10.8.3.3): after the READs and atomics before */
		if (!k && (wqe->wr.send_flags & IB_SEND_FENCE) && rc->rd_out)
			break;

		if (!rxe_is_uc(qp)) {
			if (out >= RXE_WINDOW)
				break;
			if (!rxe_wr_has_resp(wqe))
				to = min(to, k + RXE_WINDOW - out);
			else if (rxe_wr_rd_atomic(wqe) &&
				 rc->rd_out >= qp->max_rd_atomic)
				break;	/* the initiator depth is reached */
		}
		if (!rxe_rc_send_req(qp, rc->tx, k, to))
			break;
		if (to < r->npkts && !rxe_wr_has_resp(wqe)) {
			rc->spsn = rxe_psn_add(r->first_psn, to);
			break;
		}
		rc->spsn = rxe_psn_add(r->first_psn, r->npkts);
		rc->tx = rvt_sq_next_index(qp, rc->tx);
		rc->unsent--;
		if (rxe_wr_rd_atomic(wqe))
			rc->rd_out++;
	}
}

/*
 * Send again everything held, from PSN @psn on; nothing during an RNR
 * wait, whose timer sends again from the oldest PSN unacknowledged (a
 * sequence NAK for a request sent behind the refused one, or an implied
 * NAK, must not cut the wait short: upstream's requester holds its
 * retries too).  Under rc.lock.
 */
static void rxe_rc_resend(struct rvt_qp *qp, u32 psn)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rxe_rc *rc = &priv->rc;
	u32 idx = rc->head, i, rd = 0;

	if (rc->rnr_wait)
		return;

	/* the request that holds @psn, and the PSN to go on from */
	for (i = 0; i < rc->held; i++, idx = rvt_sq_next_index(qp, idx)) {
		struct rxe_rc_req *r = &rc->reqs[idx];

		if (rxe_psn_cmp(rxe_psn_add(r->first_psn, r->npkts - 1),
				psn) >= 0)
			break;
		rd += rxe_wr_rd_atomic(rvt_get_swqe_ptr(qp, idx));
	}
	if (i == rc->held)
		return;
	/* those from @idx on go again, and count again when they do */
	rc->rd_out = rd;
	rc->tx = idx;
	rc->unsent = rc->held - i;
	rc->spsn = rc->reqs[idx].first_psn;
	if (rxe_psn_cmp(psn, rc->spsn) > 0)
		rc->spsn = psn;
	rxe_rc_push(qp);
	rxe_rc_arm_retry(qp);
}

/*
 * Take a try of the retry counter: true and counted as a retry when one
 * is left, else false with the oldest request completed in
 * IB_WC_RETRY_EXC_ERR.  A retry_cnt of 7 retries for ever, as upstream
 * rxe's completer reads it (what perftest, which sets 7, relies on: its
 * 64 KiB requests keep more in flight than an ACK timeout of 67 ms lets
 * the responder drain under emulation, and every spurious timeout sends
 * the window again behind what is still queued).  Under rc.lock.
 */
static bool rxe_rc_try(struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;

	if (qp->s_retry_cnt != RXE_RETRY_FOREVER && priv->rc.retry-- <= 0) {
		rvt_hw_count(qp, RVT_CNT_RETRY_EXCEEDED, 1);
		rxe_rc_complete_head(qp, IB_WC_RETRY_EXC_ERR);
		return false;
	}
	rvt_hw_count(qp, RVT_CNT_COMP_RETRY, 1);
	return true;
}

/*
 * An acknowledgment past a READ or atomic whose response @miss never
 * came: ask again from there, once until a response comes (later ACKs of
 * the same requests would each ask again).  A try of the retry counter,
 * as upstream's completer counts it.  Under rc.lock.
 */
static void rxe_rc_implied_nak(struct rvt_qp *qp, u32 miss)
{
	struct rxe_qp_priv *priv = qp->priv;

	if (!rxe_rc_try(qp))
		return;
	priv->rc.implied = true;
	rxe_rc_resend(qp, miss);
}

static void rxe_rc_timer(struct timer_list *t)
{
	struct rxe_qp_priv *priv = from_timer(priv, t, rc.timer);
	struct rvt_qp *qp = priv->qp;

	spin_lock_bh(&priv->rc.lock);
	if (!priv->rc.held || priv->rc.stopped) {
		spin_unlock_bh(&priv->rc.lock);
		return;
	}
	/* from the oldest PSN not acknowledged: the RNR wait is no try */
	if (priv->rc.rnr_wait) {
		priv->rc.rnr_wait = false;
	} else {
		if (!rxe_rc_try(qp))
			goto out;
		/*
		 * Timeouts in a row: the next waits twice as long, up to four
		 * times the QP's (what IBA allows a transport timer).  What
		 * times out on a link (or CPU) slower than the timeout assumed
		 * is the window sent again behind itself, and again, each time
		 * later; the longer wait lets the ACKs catch up.
		 */
		if (priv->rc.backoff < RXE_BACKOFF_MAX)
			priv->rc.backoff++;
	}
	rxe_rc_resend(qp, priv->rc.una);
out:
	spin_unlock_bh(&priv->rc.lock);
}

/* Give back everything held, flushed.  Process context. */
static void rxe_rc_flush_work(struct work_struct *w)
{
	struct rxe_qp_priv *priv = container_of(w, struct rxe_qp_priv,
						rc.flush);

	spin_lock_bh(&priv->rc.lock);
	while (priv->rc.held && !priv->rc.stopped)
		rxe_rc_complete_head(priv->qp, IB_WC_WR_FLUSH_ERR);
	spin_unlock_bh(&priv->rc.lock);
}

/**
 * rxe_rc_xmit - take a request of an RC or UC QP
 * @qp: the QP
 * @wqe: the request, in place in the send ring
 *
 * Context: as xmit_wqe: bottom halves off, no rdmavt lock held.
 */
void rxe_rc_xmit(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	struct rxe_qp_priv *priv = qp->priv;
	u32 idx = rvt_swqe_index(qp, wqe);
	struct rxe_rc_req *r = &priv->rc.reqs[idx];

	/* rdmavt took only what the QP type carries (no UC READ, atomic) */
	spin_lock_bh(&priv->rc.lock);
	r->first_psn = priv->rc.psn;
	if (wqe->executed)	/* a REG_MR: done, waits its turn */
		r->npkts = 0;
	else if (rxe_wr_is_atomic(wqe) || rxe_wr_is_flush_aw(wqe))
		r->npkts = 1;
	else
		r->npkts = rxe_npkts(wqe->length, rxe_qp_mtu(qp));
	r->next = 0;
	priv->rc.psn = rxe_psn_add(priv->rc.psn, r->npkts);
	if (!priv->rc.held++) {
		priv->rc.head = idx;
		priv->rc.una = r->first_psn;
		rxe_rc_progress(qp);
	}
	if (!priv->rc.unsent++) {
		priv->rc.tx = idx;
		priv->rc.spsn = r->first_psn;
	}
	rxe_rc_push(qp);
	if (rxe_is_uc(qp) || (wqe->executed && priv->rc.head == idx))
		/* nobody acknowledges, or nothing before it is left */
		rxe_rc_complete_head(qp, IB_WC_SUCCESS);
	else if (!timer_pending(&priv->rc.timer))
		rxe_rc_arm_retry(qp);
	spin_unlock_bh(&priv->rc.lock);
}

/*
 * A response of PSN @psn to a READ or atomic acknowledges the requests
 * before it: complete them.  Returns the oldest held request when it is
 * a READ or atomic, else NULL.  Under rc.lock.
 */
static struct rvt_swqe *rxe_rc_resp_head(struct rvt_qp *qp, u32 psn)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rvt_swqe *wqe;

	while (priv->rc.held) {
		wqe = rvt_get_swqe_ptr(qp, priv->rc.head);
		if (rxe_wr_has_resp(wqe))
			return wqe;
		if (rxe_psn_cmp(psn, priv->rc.reqs[priv->rc.head].first_psn) < 0)
			return NULL;
		rxe_rc_complete_head(qp, IB_WC_SUCCESS);
	}
	return NULL;
}

/* rxe_pkt_payload() sinks of the receive paths */
struct rxe_rc_sink {
	struct rvt_qp		*qp;
	struct rvt_sge_state	*ss;	/* READ response: the requester's */
	u64			base;	/* SEND: offset; WRITE: address */
	u32			rkey;	/* WRITE */
};

static enum ib_wc_status rxe_sink_sge(void *arg, u32 off, const void *data,
				      u32 len)
{
	struct rxe_rc_sink *k = arg;

	if (!rvt_copy_sge(k->qp, k->ss, (void *)data, len, false, false))
		return rvt_odp_miss_fault(k->qp, &k->ss->sge, true, false);
	return IB_WC_SUCCESS;
}

static enum ib_wc_status rxe_sink_recv(void *arg, u32 off, const void *data,
				       u32 len)
{
	struct rxe_rc_sink *k = arg;

	return rvt_recv_place(k->qp, k->base + off, data, len);
}

static enum ib_wc_status rxe_sink_write(void *arg, u32 off, const void *data,
					u32 len)
{
	struct rxe_rc_sink *k = arg;

	return rvt_write_place(k->qp, k->rkey, k->base + off, data, len);
}

/* A READ response for the oldest held request.  Under rc.lock. */
static void rxe_rc_read_resp(struct rvt_qp *qp, struct rxe_pkt *pkt)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rvt_sge_state ss;
	struct rvt_swqe *wqe;
	struct rxe_rc_req *r;
	u32 k, off, mtu = rxe_qp_mtu(qp);

	wqe = rxe_rc_resp_head(qp, pkt->psn);
	if (!wqe || !rxe_wr_is_read(wqe))
		return;
	r = &priv->rc.reqs[priv->rc.head];
	k = rxe_psn_cmp(pkt->psn, r->first_psn) < 0 ? U32_MAX :
	    (pkt->psn - r->first_psn) & RXE_PSN_MASK;
	/* only the next one in order: a gap waits for the retry */
	if (k != r->next || k >= r->npkts)
		return;
	off = k * mtu;
	if (pkt->plen > wqe->length - off ||
	    (k < r->npkts - 1 && pkt->plen != mtu)) {
		rxe_rc_complete_head(qp, IB_WC_BAD_RESP_ERR);
		return;
	}
	if (pkt->plen) {
		struct rxe_rc_sink sink = { .qp = qp, .ss = &ss };
		enum ib_wc_status st;

		rvt_restart_sge(&ss, wqe, off);
		st = rxe_pkt_payload(pkt, rxe_sink_sge, &sink);
		/* a page being faulted in: the retry asks for it again */
		if (st == RVT_WC_PAGE_MISS) {
			rxe_rc_fault_wait(qp);
			return;
		}
		if (st != IB_WC_SUCCESS) {
			rxe_rc_complete_head(qp, st);
			return;
		}
	}
	r->next++;
	priv->rc.una = rxe_psn_add(pkt->psn, 1);
	rxe_rc_progress(qp);
	if (r->next == r->npkts)
		rxe_rc_complete_head(qp, IB_WC_SUCCESS);
}

/*
 * A READ response for a FLUSH or ATOMIC WRITE, upstream's answer to
 * either (one packet, no payload): it completes the oldest held request
 * when that is one of them and the PSN is its own.  False when the
 * oldest is not one of them (a READ's response).  Under rc.lock.
 */
static bool rxe_rc_flush_aw_resp(struct rvt_qp *qp, struct rxe_pkt *pkt)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rvt_swqe *wqe;

	wqe = rxe_rc_resp_head(qp, pkt->psn);
	if (!wqe || !rxe_wr_is_flush_aw(wqe))
		return false;
	if (pkt->psn != priv->rc.reqs[priv->rc.head].first_psn)
		return true;
	if (pkt->plen || !(pkt->mask & RXE_AETH)) {
		rxe_rc_complete_head(qp, IB_WC_BAD_RESP_ERR);
		return true;
	}
	priv->rc.una = rxe_psn_add(pkt->psn, 1);
	rxe_rc_progress(qp);
	rxe_rc_complete_head(qp, IB_WC_SUCCESS);
	return true;
}

/* An atomic's acknowledgment: its original value.  Under rc.lock. */
static void rxe_rc_atomic_resp(struct rvt_qp *qp, struct rxe_pkt *pkt)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rvt_sge_state ss;
	struct rvt_swqe *wqe;
	__be64 orig;
	u64 val;

	wqe = rxe_rc_resp_head(qp, pkt->psn);
	if (!wqe || !rxe_wr_is_atomic(wqe) ||
	    pkt->psn != priv->rc.reqs[priv->rc.head].first_psn)
		return;
	orig = get_unaligned((__be64 *)((u8 *)pkt->bth +
					rxe_hdr_off(pkt->mask, RXE_ATMACK)));
	val = be64_to_cpu(orig);
	rvt_restart_sge(&ss, wqe, 0);
	if (!rvt_copy_sge(qp, &ss, &val, sizeof(val), false, false)) {
		enum ib_wc_status st;

		/*
		 * The result's page is being faulted in: the retry sends the
		 * atomic again, and the responder answers it from its replay
		 * cache without executing it twice.
		 */
		st = rvt_odp_miss_fault(qp, &ss.sge, true, false);
		if (st != RVT_WC_PAGE_MISS)
			rxe_rc_complete_head(qp, st);
		else
			rxe_rc_fault_wait(qp);
		return;
	}
	priv->rc.una = rxe_psn_add(pkt->psn, 1);
	rxe_rc_progress(qp);
	rxe_rc_complete_head(qp, IB_WC_SUCCESS);
}

/**
 * rxe_rc_recv_resp - an ACK, NAK or READ response for a requester
 * @pkt: the packet
 * @qp: its QP, referenced
 *
 * Context: softirq context.
 */
void rxe_rc_recv_resp(struct rxe_pkt *pkt, struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;
	u32 aeth = 0, syn, miss;
	bool any;

	if (pkt->mask & RXE_AETH)
		aeth = get_unaligned_be32((u8 *)pkt->bth +
					  rxe_hdr_off(pkt->mask, RXE_AETH));
	syn = aeth >> 24;

	spin_lock_bh(&priv->rc.lock);
	if (!priv->rc.held || priv->rc.stopped)
		goto out;
	if (pkt->mask & RXE_READ) {
		if ((!(pkt->mask & RXE_AETH) || !(syn & 0x60)) &&
		    !rxe_rc_flush_aw_resp(qp, pkt))
			rxe_rc_read_resp(qp, pkt);
		goto rearm;
	}
	if ((pkt->mask & RXE_ATMACK) && !(syn & 0x60)) {
		rxe_rc_atomic_resp(qp, pkt);
		goto rearm;
	}
	switch (syn & 0x60) {
	case 0:		/* ACK */
		/*
		 * A duplicate, of what was acknowledged before, moves
		 * nothing: not the retry counter (upstream's completer
		 * ignores it too), not the window, not the retry timer
		 * (which upstream's pushes on: a stream of stale ACKs would
		 * hold a retry off for ever).
		 */
		any = rxe_rc_ack_upto(qp, pkt->psn, &miss);
		if (miss != RXE_PSN_NONE && !priv->rc.implied) {
			rxe_rc_implied_nak(qp, miss);
			goto out;
		}
		if (!any)
			goto out;
		break;
	case 0x20:	/* RNR NAK */
		rxe_rc_ack_upto(qp, rxe_psn_add(pkt->psn, -1), &miss);
		if (!priv->rc.held)
			break;
		rvt_hw_count(qp, RVT_CNT_RCV_RNR, 1);
		if (qp->s_rnr_retry_cnt != 7 && priv->rc.rnr-- <= 0) {
			rvt_hw_count(qp, RVT_CNT_RNR_RETRY_EXCEEDED, 1);
			rxe_rc_complete_head(qp, IB_WC_RNR_RETRY_EXC_ERR);
			goto out;
		}
		priv->rc.rnr_wait = true;
		rxe_rc_arm(qp, usecs_to_jiffies(rvt_aeth_to_usec(aeth)));
		goto out;
	default:	/* NAK */
		rxe_rc_ack_upto(qp, rxe_psn_add(pkt->psn, -1), &miss);
		if (!priv->rc.held)
			break;
		switch (syn & 0x1f) {
		case 0:	/* PSN sequence error: back to its PSN */
			rvt_hw_count(qp, RVT_CNT_RCV_SEQ_ERR, 1);
			/* or to a READ's first response missing before it */
			rxe_rc_resend(qp, miss != RXE_PSN_NONE ? miss :
				      pkt->psn);
			goto out;
		case 1:
			rxe_rc_complete_head(qp, IB_WC_REM_INV_REQ_ERR);
			goto out;
		case 2:
			rxe_rc_complete_head(qp, IB_WC_REM_ACCESS_ERR);
			goto out;
		default:
			rxe_rc_complete_head(qp, IB_WC_REM_OP_ERR);
			goto out;
		}
	}
rearm:
	/* the window may have opened */
	rxe_rc_push(qp);
	if (priv->rc.held && !priv->rc.rnr_wait)
		rxe_rc_arm_retry(qp);
	else if (!priv->rc.held)
		del_timer(&priv->rc.timer);
out:
	spin_unlock_bh(&priv->rc.lock);
}

/**
 * rxe_rc_flush - give back what an RC or UC QP in the error state holds
 * @qp: the QP
 *
 * Context: as xmit_flush: schedules the work that does it.
 */
void rxe_rc_flush(struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;

	queue_work(system_wq, &priv->rc.flush);
}

/**
 * rxe_rc_stop - forget what an RC or UC QP holds (RESET, destroy)
 * @qp: the QP
 *
 * Context: process context; waits for the timer and the flush work.
 */
void rxe_rc_stop(struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;

	spin_lock_bh(&priv->rc.lock);
	priv->rc.stopped = true;
	spin_unlock_bh(&priv->rc.lock);
	timer_delete_sync(&priv->rc.timer);
	cancel_work_sync(&priv->rc.flush);
	spin_lock_bh(&priv->rc.lock);
	priv->rc.held = 0;
	priv->rc.unsent = 0;
	priv->rc.rd_out = 0;
	priv->rc.rnr_wait = false;
	priv->rc.implied = false;
	priv->rc.backoff = 0;
	spin_unlock_bh(&priv->rc.lock);
}

/* ------------------------------------------------------------------
 * Responder
 */

static void rxe_rc_send_ack(struct rvt_qp *qp, u32 psn, u8 syn)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	struct sk_buff *skb;

	skb = rxe_rc_skb(rxe, qp, IB_OPCODE_RC_ACKNOWLEDGE, psn, false, NULL,
			 0);
	if (!skb)
		return;
	put_unaligned_be32((u32)syn << 24 | (priv->rc.msn & IB_MSN_MASK),
			   skb->data + sizeof(struct rxe_bth));
	rxe_rc_send_skb(qp, skb);
}

/*
 * Answer a READ request of @psn: @len bytes at @va through @rkey, each
 * response's payload cut from the one walk of the source
 * (rvt_read_source(), which checked the key and, for an on-demand
 * paging source, that every page is there) by rxe_tx_skb().
 * RVT_WC_PAGE_MISS when a page of an on-demand paging source is missing
 * (nothing sent); one an invalidation takes meanwhile ends the responses
 * there, as a lost packet would.
 */
static enum ib_wc_status rxe_rc_read(struct rvt_qp *qp, u32 psn, u64 va,
				     u32 rkey, u32 len)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	u32 mtu = rxe_qp_mtu(qp), n = rxe_npkts(len, mtu), k;
	struct rvt_mregion *mr = NULL;
	struct rvt_sge_state src;

	if (!(READ_ONCE(qp->qp_access_flags) & IB_ACCESS_REMOTE_READ))
		return IB_WC_REM_INV_REQ_ERR;
	/* a zero length READ names no region (IBTA 9.4.4) */
	if (len) {
		enum ib_wc_status st;

		st = rvt_read_source(qp, rkey, va, len, &src);
		if (st != IB_WC_SUCCESS)
			return st;
		mr = src.sge.mr;
	}
	for (k = 0; k < n; k++) {
		u32 c = min(mtu, len - k * mtu);
		u8 op = rxe_read_resp_ops[rxe_pkt_place(k, n)];
		const struct rxe_opcode_info *info = &rxe_opcode[op];
		struct sk_buff *skb;

		/* the skb holds the pages (or a copy), not the region */
		skb = rxe_rc_skb(rxe, qp, op, psn + k, false, c ? &src : NULL,
				 c);
		if (!skb)
			break;		/* the requester asks again */
		if (info->mask & RXE_AETH)
			put_unaligned_be32(0x1fU << 24 |
					   (priv->rc.msn & IB_MSN_MASK),
					   skb->data +
					   rxe_hdr_off(info->mask, RXE_AETH));
		rxe_rc_send_skb(qp, skb);
	}
	if (mr)
		rvt_put_mr(mr);
	return IB_WC_SUCCESS;
}

/* Acknowledge the atomic of @psn with its original value @orig. */
static void rxe_rc_send_atmack(struct rvt_qp *qp, u32 psn, u64 orig)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	u32 mask = rxe_opcode[IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE].mask;
	struct sk_buff *skb;

	skb = rxe_rc_skb(rxe, qp, IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, psn, false,
			 NULL, 0);
	if (!skb)
		return;
	put_unaligned_be32(0x1fU << 24 | (priv->rc.msn & IB_MSN_MASK),
			   skb->data + rxe_hdr_off(mask, RXE_AETH));
	put_unaligned_be64(orig, skb->data + rxe_hdr_off(mask, RXE_ATMACK));
	rxe_rc_send_skb(qp, skb);
}

/*
 * Answer the FLUSH or ATOMIC WRITE of @psn as upstream does: a READ
 * response of no payload, the AETH an ACK with the MSN.
 */
static void rxe_rc_send_empty_resp(struct rvt_qp *qp, u32 psn)
{
	struct rxe_dev *rxe = to_rxe_dev(qp->ibqp.device);
	struct rxe_qp_priv *priv = qp->priv;
	u8 op = IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY;
	struct sk_buff *skb;

	skb = rxe_rc_skb(rxe, qp, op, psn, false, NULL, 0);
	if (!skb)
		return;
	put_unaligned_be32(0x1fU << 24 | (priv->rc.msn & IB_MSN_MASK),
			   skb->data + rxe_hdr_off(rxe_opcode[op].mask,
						   RXE_AETH));
	rxe_rc_send_skb(qp, skb);
}

/* The replay cache's entry of the atomic of @psn, or NULL.  Under r_lock. */
static struct rxe_atm_done *rxe_rc_atm_find(struct rxe_rc *rc, u32 psn)
{
	u32 i;

	for (i = 0; i < rc->natm; i++)
		if (rc->atm[i].valid && rc->atm[i].psn == psn)
			return &rc->atm[i];
	return NULL;
}

/*
 * The responder fails the request with @status: the NAK of its class
 * (invalid request, remote access error, remote operational error), QP
 * to the error state.
 */
static void rxe_rc_nak(struct rvt_qp *qp, u32 psn, enum ib_wc_status status)
{
	u8 code = status == IB_WC_REM_INV_REQ_ERR ? 1 :
		  status == IB_WC_REM_ACCESS_ERR ? 2 : 3;

	if (!rxe_is_uc(qp))
		rxe_rc_send_ack(qp, psn, 0x60 | code);
	spin_unlock_bh(&qp->r_lock);
	rvt_error_qp(qp, status);
	spin_lock_bh(&qp->r_lock);
}

/*
 * An RNR NAK for the request @psn (RC; a UC packet is dropped): no
 * receive WQE, or a page of an on-demand paging MR being faulted in.
 * The requester sends it again after the QP's min_rnr_timer.
 */
static void rxe_rc_rnr_nak(struct rvt_qp *qp, u32 psn)
{
	rvt_hw_count(qp, RVT_CNT_SND_RNR, 1);
	if (!rxe_is_uc(qp))
		rxe_rc_send_ack(qp, psn, 0x20 | qp->r_min_rnr_timer);
}

/*
 * Take the receive WQE of a SEND or of a WRITE's immediate, unless one is
 * taken already (a UC message cut short leaves it).  False when there is
 * none (RNR NAK) or its keys failed (NAK, QP to the error state): the
 * packet ends there.  Under r_lock.
 */
static bool rxe_rc_take_wqe(struct rvt_qp *qp, struct rxe_pkt *pkt,
			    bool wr_id_only)
{
	int ret;

	if (test_bit(RVT_R_WRID_VALID, &qp->r_aflags))
		return true;
	ret = rvt_recv_begin(qp, wr_id_only);
	if (ret > 0)
		return true;
	if (ret < 0) {
		rxe_rc_nak(qp, pkt->psn, IB_WC_REM_OP_ERR);
		return false;
	}
	rxe_rc_rnr_nak(qp, pkt->psn);
	return false;
}

/*
 * Execute the FLUSH or ATOMIC WRITE @pkt, which has the expected PSN:
 * rdmavt's checks and the flush or the store, then the replay cache
 * keeps its PSN (a duplicate is answered, never executed again) and the
 * answer goes.  Under r_lock.
 */
static void rxe_rc_flush_aw(struct rvt_qp *qp, struct rxe_pkt *pkt)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rxe_rc *rc = &priv->rc;
	u32 mask = pkt->mask;
	u8 *h = (u8 *)pkt->bth;
	struct rxe_reth *reth = (void *)h + rxe_hdr_off(mask, RXE_RETH);
	u32 rkey = be32_to_cpu(reth->rkey), len = be32_to_cpu(reth->len);
	u64 va = be64_to_cpu(reth->va);
	enum ib_wc_status st;

	if (mask & RXE_FLUSH) {
		u32 feth = get_unaligned_be32(h + rxe_hdr_off(mask, RXE_FETH));

		st = rvt_flush_execute(qp, rkey, va, len,
				       feth & RXE_FETH_PLT_MASK,
				       (feth & RXE_FETH_SEL_MASK) >>
				       RXE_FETH_SEL_SHIFT);
	} else {
		const void *val = NULL;
		u64 buf;

		/* IBA oA19-28: exactly 8 bytes, no pad */
		if (len == sizeof(u64) && pkt->plen == sizeof(u64) &&
		    !(pkt->bth->flags & RXE_BTH_PAD_MASK))
			val = skb_header_pointer(pkt->skb,
						 rxe_opcode[pkt->opcode].len,
						 sizeof(buf), &buf);
		st = val ? rvt_atomic_write(qp, rkey, va, val) :
		     IB_WC_REM_INV_REQ_ERR;
	}
	if (st == RVT_WC_PAGE_MISS) {
		rxe_rc_rnr_nak(qp, pkt->psn);
		return;
	}
	if (st != IB_WC_SUCCESS) {
		rxe_rc_nak(qp, pkt->psn, st);
		return;
	}
	/* a FLUSH at a QP without responder resources is not replayed */
	if (rc->natm)
		rc->atm[rc->atm_next++ % rc->natm] = (struct rxe_atm_done) {
			.psn = pkt->psn, .valid = true,
		};
	rc->msn++;
	rc->epsn = rxe_psn_add(rc->epsn, 1);
	rxe_rc_send_empty_resp(qp, pkt->psn);
}

/* Execute the request @pkt, which has the expected PSN.  Under r_lock. */
static void rxe_rc_execute(struct rvt_qp *qp, struct rxe_pkt *pkt)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rxe_rc *rc = &priv->rc;
	struct rxe_rc_sink sink = { .qp = qp };
	u32 mask = pkt->mask;
	enum ib_wc_status st;
	u8 *h = (u8 *)pkt->bth;
	struct ib_wc wc = {};

	/* no responder resources: upstream's "too many" invalid request */
	if ((mask & (RXE_READ | RXE_ATOMIC | RXE_ATOMIC_WRITE)) && !rc->natm) {
		rxe_rc_nak(qp, pkt->psn, IB_WC_REM_INV_REQ_ERR);
		return;
	}
	if (mask & (RXE_FLUSH | RXE_ATOMIC_WRITE)) {
		rxe_rc_flush_aw(qp, pkt);
		return;
	}
	if (mask & RXE_READ) {
		struct rxe_reth *reth = (void *)h + rxe_hdr_off(mask, RXE_RETH);
		u32 len = be32_to_cpu(reth->len);

		rc->msn++;
		st = rxe_rc_read(qp, pkt->psn, be64_to_cpu(reth->va),
				 be32_to_cpu(reth->rkey), len);
		if (st != IB_WC_SUCCESS) {
			rc->msn--;
			if (st == RVT_WC_PAGE_MISS)
				rxe_rc_rnr_nak(qp, pkt->psn);
			else
				rxe_rc_nak(qp, pkt->psn, st);
			return;
		}
		rc->epsn = rxe_psn_add(rc->epsn,
				       rxe_npkts(len, rxe_qp_mtu(qp)));
		return;
	}
	if (mask & RXE_ATOMIC) {
		struct rxe_atmeth *atm = (void *)h + rxe_hdr_off(mask,
								 RXE_ATMETH);
		bool cas = pkt->bth->opcode == IB_OPCODE_RC_COMPARE_SWAP;
		struct rxe_atm_done *done;
		u64 orig;

		/* fetch and add carries its addend in the swap field */
		st = rvt_atomic_execute(qp, be32_to_cpu(atm->rkey),
					be64_to_cpu(atm->va), cas,
					be64_to_cpu(cas ? atm->comp :
						    atm->swap_add),
					be64_to_cpu(atm->swap_add), &orig);
		if (st == RVT_WC_PAGE_MISS) {
			rxe_rc_rnr_nak(qp, pkt->psn);
			return;
		}
		if (st != IB_WC_SUCCESS) {
			/* a misaligned address is an invalid request */
			rxe_rc_nak(qp, pkt->psn, st);
			return;
		}
		done = &rc->atm[rc->atm_next++ % rc->natm];
		*done = (struct rxe_atm_done) {
			.psn = pkt->psn, .valid = true, .orig = orig,
		};
		rc->msn++;
		rc->epsn = rxe_psn_add(rc->epsn, 1);
		rxe_rc_send_atmack(qp, pkt->psn, orig);
		return;
	}

	if (mask & RXE_SEND) {
		if (mask & RXE_FIRST) {
			/* a UC message cut short left its WQE taken */
			if (!rxe_rc_take_wqe(qp, pkt, false))
				return;
			rc->send_off = 0;
		} else if (!test_bit(RVT_R_WRID_VALID, &qp->r_aflags)) {
			if (rxe_is_uc(qp))
				return;
			rxe_rc_nak(qp, pkt->psn, IB_WC_REM_INV_REQ_ERR);
			return;
		}
		sink.base = rc->send_off;
		st = rxe_pkt_payload(pkt, rxe_sink_recv, &sink);
		if (st == RVT_WC_PAGE_MISS) {
			/* the WQE stays taken for the packet's next try */
			rxe_rc_rnr_nak(qp, pkt->psn);
			return;
		}
		if (st != IB_WC_SUCCESS) {
			wc.status = st;
			wc.opcode = IB_WC_RECV;
			wc.qp = &qp->ibqp;
			rvt_recv_complete(qp, &wc, false);
			/* its memory failed: the responder's fault, as upstream */
			rxe_rc_nak(qp, pkt->psn, st == IB_WC_LOC_PROT_ERR ?
				   IB_WC_REM_OP_ERR : IB_WC_REM_INV_REQ_ERR);
			return;
		}
		rc->send_off += pkt->plen;
		if (mask & RXE_LAST) {
			wc.opcode = IB_WC_RECV;
			wc.byte_len = rc->send_off;
			wc.src_qp = qp->remote_qpn;
			if (mask & RXE_IMMDT) {
				wc.wc_flags |= IB_WC_WITH_IMM;
				wc.ex.imm_data = get_unaligned((__be32 *)(h +
					rxe_hdr_off(mask, RXE_IMMDT)));
			} else if (mask & RXE_IETH) {
				wc.wc_flags |= IB_WC_WITH_INVALIDATE;
				wc.ex.invalidate_rkey = get_unaligned_be32(h +
					rxe_hdr_off(mask, RXE_IETH));
			}
			rvt_recv_complete(qp, &wc, pkt->bth->flags & RXE_BTH_SE);
			rc->msn++;
		}
	} else {	/* WRITE */
		if (mask & RXE_FIRST) {
			struct rxe_reth *reth = (void *)h +
						rxe_hdr_off(mask, RXE_RETH);

			rc->wva = be64_to_cpu(reth->va);
			rc->wrkey = be32_to_cpu(reth->rkey);
			rc->wlen = be32_to_cpu(reth->len);
			rc->wdone = 0;
			rc->in_write = true;
		} else if (!rc->in_write) {
			if (rxe_is_uc(qp))
				return;
			rxe_rc_nak(qp, pkt->psn, IB_WC_REM_INV_REQ_ERR);
			return;
		}
		/* the immediate needs a receive WQE: first */
		if ((mask & RXE_IMMDT) && !rxe_rc_take_wqe(qp, pkt, true))
			return;
		/*
		 * A QP without the access or more bytes than the RETH
		 * said: an invalid request (class C), as upstream.
		 */
		if (!(READ_ONCE(qp->qp_access_flags) &
		      IB_ACCESS_REMOTE_WRITE) ||
		    pkt->plen > rc->wlen - rc->wdone) {
			st = IB_WC_REM_INV_REQ_ERR;
		} else {
			sink.rkey = rc->wrkey;
			sink.base = rc->wva + rc->wdone;
			st = rxe_pkt_payload(pkt, rxe_sink_write, &sink);
		}
		if (st == RVT_WC_PAGE_MISS) {
			/* UC: the message is lost, as with a lost packet */
			if (rxe_is_uc(qp))
				rc->in_write = false;
			rxe_rc_rnr_nak(qp, pkt->psn);
			return;
		}
		if (st != IB_WC_SUCCESS) {
			rc->in_write = false;
			rxe_rc_nak(qp, pkt->psn, st == IB_WC_REM_INV_REQ_ERR ?
				   st : IB_WC_REM_ACCESS_ERR);
			return;
		}
		rc->wdone += pkt->plen;
		if (mask & RXE_LAST) {
			rc->in_write = false;
			rc->msn++;
			if (mask & RXE_IMMDT) {
				wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
				wc.byte_len = rc->wdone;
				wc.src_qp = qp->remote_qpn;
				wc.wc_flags = IB_WC_WITH_IMM;
				wc.ex.imm_data = get_unaligned((__be32 *)(h +
					rxe_hdr_off(mask, RXE_IMMDT)));
				rvt_recv_complete(qp, &wc,
						  pkt->bth->flags & RXE_BTH_SE);
			}
		}
	}
	rc->epsn = rxe_psn_add(rc->epsn, 1);
	if (!rxe_is_uc(qp) &&
	    (be32_to_cpu(pkt->bth->apsn) & RXE_BTH_ACK_REQ))
		rxe_rc_send_ack(qp, pkt->psn, 0x1f);
}

/**
 * rxe_rc_recv_req - a request packet for an RC or UC responder
 * @pkt: the packet
 * @qp: its QP, referenced
 *
 * Context: softirq context; takes the QP's r_lock.
 */
void rxe_rc_recv_req(struct rxe_pkt *pkt, struct rvt_qp *qp)
{
	struct rxe_qp_priv *priv = qp->priv;
	struct rxe_rc *rc = &priv->rc;
	enum ib_qp_state state = READ_ONCE(qp->state);
	int d;

	if (state != IB_QPS_RTR && state != IB_QPS_RTS &&
	    state != IB_QPS_SQD) {
		rxe_drop(pkt->rxe, RXE_DROP_RQ);
		return;
	}
	spin_lock_bh(&qp->r_lock);
	d = rxe_psn_cmp(pkt->psn, rc->epsn);
	if (rxe_is_uc(qp)) {
		/* UC: a lost packet loses its message; a new one resyncs */
		if (d && !(pkt->mask & RXE_FIRST)) {
			rc->in_write = false;
			goto out;
		}
		rc->epsn = pkt->psn;
		d = 0;
	}
	if (d > 0) {
		rvt_hw_count(qp, RVT_CNT_OUT_OF_SEQ_REQ, 1);
		if (!rc->nak_seq) {
			rc->nak_seq = true;
			rxe_rc_send_ack(qp, rc->epsn, 0x60);
		}
		goto out;
	}
	if (d < 0) {
		struct rxe_reth *reth;

		rvt_hw_count(qp, RVT_CNT_DUP_REQ, 1);
		if (pkt->mask & RXE_ATOMIC) {
			/* never again: answer what it did, if still known */
			struct rxe_atm_done *done = rxe_rc_atm_find(rc,
								    pkt->psn);

			if (done)
				rxe_rc_send_atmack(qp, pkt->psn, done->orig);
		} else if (pkt->mask & (RXE_FLUSH | RXE_ATOMIC_WRITE)) {
			/* the same: answered again if known, not executed */
			if (rxe_rc_atm_find(rc, pkt->psn))
				rxe_rc_send_empty_resp(qp, pkt->psn);
		} else if (pkt->mask & RXE_READ) {
			/* read again: the region says what it holds now */
			reth = (void *)pkt->bth + rxe_hdr_off(pkt->mask,
							      RXE_RETH);
			rxe_rc_read(qp, pkt->psn, be64_to_cpu(reth->va),
				    be32_to_cpu(reth->rkey),
				    be32_to_cpu(reth->len));
		} else if (be32_to_cpu(pkt->bth->apsn) & RXE_BTH_ACK_REQ) {
			/*
			 * Acknowledge again what came, once per ACK asked
			 * for (not per duplicate: a retried window would
			 * bring as many ACKs): the sender goes on.
			 */
			rxe_rc_send_ack(qp, rxe_psn_add(rc->epsn, -1), 0x1f);
		}
		goto out;
	}
	rc->nak_seq = false;
	rxe_rc_execute(qp, pkt);
out:
	spin_unlock_bh(&qp->r_lock);
}

/**
 * rxe_rc_init - the RC state of a new QP
 * @qp: the QP, its rings made
 * @priv: its rxe state
 *
 * Context: process context; sleeps (GFP_KERNEL).
 * Return: 0 or -ENOMEM.
 */
int rxe_rc_init(struct rvt_qp *qp, struct rxe_qp_priv *priv)
{
	priv->qp = qp;
	spin_lock_init(&priv->rc.lock);
	timer_setup(&priv->rc.timer, rxe_rc_timer, 0);
	INIT_WORK(&priv->rc.flush, rxe_rc_flush_work);
	if (qp->ibqp.qp_type != IB_QPT_RC && qp->ibqp.qp_type != IB_QPT_UC)
		return 0;
	priv->rc.reqs = kcalloc(qp->sq_size, sizeof(*priv->rc.reqs),
				GFP_KERNEL);
	return priv->rc.reqs ? 0 : -ENOMEM;
}

/**
 * rxe_rc_modify - a modify_qp of an RC or UC QP (driver_f.modify_qp)
 * @qp: the QP
 * @attr: the attributes
 * @mask: which
 * @udata: unused
 *
 * Takes the PSNs: the responder's expected one, the requester's next;
 * sizes the responder's replay cache of atomics by max_dest_rd_atomic
 * (rdmavt refused a value above the device's max_qp_rd_atom with
 * -EINVAL, and max_rd_atomic above max_qp_init_rd_atom).  rdmavt applied
 * the modify before: when the new cache finds no memory, the old one
 * stays and says so.
 *
 * Context: process context; sleeps (GFP_KERNEL).
 */
void rxe_rc_modify(struct rvt_qp *qp, struct ib_qp_attr *attr, int mask,
		   struct ib_udata *udata)
{
	struct rxe_qp_priv *priv = qp->priv;

	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic != priv->rc.natm) {
		u32 n = attr->max_dest_rd_atomic;
		struct rxe_atm_done *atm = NULL, *old;

		if (n)
			atm = kcalloc(n, sizeof(*atm), GFP_KERNEL);
		if (n && !atm) {
			ibdev_warn(qp->ibqp.device,
				   "QP %u: no memory for %u responder resources, %u kept\n",
				   qp->ibqp.qp_num, n, priv->rc.natm);
		} else {
			spin_lock_bh(&qp->r_lock);
			old = priv->rc.atm;
			priv->rc.atm = atm;
			priv->rc.natm = n;
			priv->rc.atm_next = 0;
			spin_unlock_bh(&qp->r_lock);
			kfree(old);
		}
	}

	if (mask & IB_QP_RQ_PSN) {
		spin_lock_bh(&qp->r_lock);
		priv->rc.epsn = attr->rq_psn & RXE_PSN_MASK;
		priv->rc.nak_seq = false;
		if (priv->rc.natm)
			memset(priv->rc.atm, 0,
			       priv->rc.natm * sizeof(*priv->rc.atm));
		spin_unlock_bh(&qp->r_lock);
	}
	if (mask & IB_QP_SQ_PSN) {
		spin_lock_bh(&priv->rc.lock);
		priv->rc.psn = attr->sq_psn & RXE_PSN_MASK;
		priv->rc.spsn = priv->rc.psn;
		priv->psn = priv->rc.psn;
		spin_unlock_bh(&priv->rc.lock);
	}
	if ((mask & IB_QP_STATE) && attr->qp_state == IB_QPS_RTS) {
		spin_lock_bh(&priv->rc.lock);
		priv->rc.stopped = false;
		spin_unlock_bh(&priv->rc.lock);
	}
}
