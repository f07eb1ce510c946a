// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder's receive: a SEND (and the completion half of an RDMA
 * WRITE with immediate) takes the next receive WQE of the QP or its SRQ,
 * its payload is placed into that WQE's scatter list, and the receive
 * completes.  Three steps, because a wire driver gets the payload in
 * pieces (DDP segments of at most MULPDU bytes), each placed at its
 * message offset, and the receive completes only with the last one:
 *
 *   rvt_recv_begin()     take the WQE (the loop: per request)
 *   rvt_recv_place()     place bytes at an offset into it
 *   rvt_recv_complete()  complete it, with immediate or invalidation
 *
 * The in-memory delivery runs the three for a whole request at once
 * (rvt_deliver_recv()); a wire driver calls them as segments arrive.
 *
 * Locks: each step runs under the responder's r_lock (BH).  Between the
 * steps of a wire driver the WQE taken stays the QP's own (its ID in
 * r_wr_id, RVT_R_WRID_VALID set): the driver receives one message of a
 * QP at a time, and the error path flushes a WQE left half placed.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

/**
 * rvt_recv_begin - take the next receive WQE of a QP for placement
 * @qp: the responder QP; the caller holds its r_lock
 * @wr_id_only: take only the WQE's ID (RDMA WRITE with immediate: the
 *	data went to the rkey'd region, the WQE only completes)
 *
 * Takes the oldest WQE of the QP's receive queue or SRQ, as
 * rvt_get_rwqe() does, and sets the placement cursor to its start.
 *
 * Context: process or softirq context with interrupts enabled, under
 * qp->r_lock.  Takes the receive ring's lock and the key table's.
 * Return: 1 when a WQE was taken; 0 when there is none or the QP does
 * not receive in its state (the requester gets an RNR NAK, or the
 * datagram is dropped); -1 when its lkeys failed the check (the WQE was
 * completed with IB_WC_LOC_PROT_ERR; the QP must go to the error state).
 */
int rvt_recv_begin(struct rvt_qp *qp, bool wr_id_only)
{
	int ret = rvt_get_rwqe(qp, wr_id_only);

	if (ret <= 0)
		return ret;
	if (wr_id_only) {
		/* nothing to place: a stale walk must not look usable */
		qp->r_sge.num_sge = 0;
		qp->r_len = 0;
	}
	qp->r_cur = qp->r_sge;
	qp->r_cur_off = 0;
	return 1;
}
EXPORT_SYMBOL(rvt_recv_begin);

/*
 * Move the placement cursor to @offset for @len bytes.  Pieces that come
 * in order continue where the last one ended (no walk from the start per
 * segment); any other offset walks again from the WQE's first SGE, whose
 * state qp->r_sge keeps untouched until the receive completes.
 */
static enum ib_wc_status rvt_recv_seek(struct rvt_qp *qp, u32 offset,
				       u32 len)
{
	if (!test_bit(RVT_R_WRID_VALID, &qp->r_aflags))
		return IB_WC_LOC_QP_OP_ERR;
	if (offset > qp->r_len || len > qp->r_len - offset)
		return IB_WC_LOC_LEN_ERR;
	if (offset < qp->r_cur_off) {
		qp->r_cur = qp->r_sge;
		qp->r_cur_off = 0;
	}
	rvt_skip_sge(&qp->r_cur, offset - qp->r_cur_off, false);
	qp->r_cur_off = offset + len;
	return IB_WC_SUCCESS;
}

/**
 * rvt_recv_place - place untagged payload into the receive WQE taken
 * @qp: the responder QP; the caller holds its r_lock
 * @offset: where the bytes go in the message (DDP message offset)
 * @data: the bytes, in kernel memory
 * @len: their number
 *
 * Copies into the scatter list of the WQE rvt_recv_begin() took.  The
 * MR references stay until rvt_recv_complete(), so pieces may come in
 * any order and more than once.
 *
 * Context: any context but hard interrupts, under qp->r_lock; does not
 * sleep, takes only an on-demand paging MR's odp_lock (rvt_sge_map()).
 * Return: IB_WC_SUCCESS; IB_WC_LOC_LEN_ERR when the bytes do not fit in
 * the WQE (nothing is copied; complete the receive with that status),
 * IB_WC_LOC_QP_OP_ERR when no WQE was taken; RVT_WC_PAGE_MISS when a page
 * of an on-demand paging MR is being faulted in (the WQE stays taken,
 * the bytes are to come again: rvt_recv_begin() is not called again for
 * them), or IB_WC_LOC_PROT_ERR when it could not be (only a driver that
 * offers on-demand paging meets these two).
 */
enum ib_wc_status rvt_recv_place(struct rvt_qp *qp, u32 offset,
				 const void *data, u32 len)
{
	enum ib_wc_status status = rvt_recv_seek(qp, offset, len);

	lockdep_assert_held(&qp->r_lock);
	if (status == IB_WC_SUCCESS &&
	    !rvt_copy_sge(qp, &qp->r_cur, (void *)data, len, false, false)) {
		status = rvt_odp_miss_fault(qp, &qp->r_cur.sge, true, false);
		/* the cursor stands inside: the next piece walks again */
		qp->r_cur = qp->r_sge;
		qp->r_cur_off = 0;
	}
	return status;
}
EXPORT_SYMBOL(rvt_recv_place);

/*
 * rvt_recv_place() for the in-memory delivery @d: from @src (the
 * requester's walk) or @data.  A page not mapped on either side is a
 * miss of @d (rvt_note_miss()); the status stays IB_WC_SUCCESS.
 */
static enum ib_wc_status rvt_recv_place_d(struct rvt_delivery *d, u32 offset,
					  struct rvt_sge_state *src,
					  const void *data, u32 len)
{
	struct rvt_qp *qp = d->dqp;
	enum ib_wc_status status = rvt_recv_seek(qp, offset, len);
	struct rvt_sge_state *missed;

	if (status != IB_WC_SUCCESS)
		return status;
	if (src)
		missed = rvt_ss_copy(qp, &qp->r_cur, src, len, false);
	else
		missed = rvt_copy_sge(qp, &qp->r_cur, (void *)data, len, false,
				      false) ? NULL : &qp->r_cur;
	if (missed)
		rvt_note_miss(d, missed, missed == &qp->r_cur,
			      missed == &qp->r_cur);
	return status;
}

/**
 * rvt_recv_complete - complete the receive WQE taken
 * @qp: the responder QP; the caller holds its r_lock
 * @wc: the completion as the transport knows it: status, opcode
 *	(IB_WC_RECV or IB_WC_RECV_RDMA_WITH_IMM), byte_len, wc_flags with
 *	ex.imm_data (IB_WC_WITH_IMM) or ex.invalidate_rkey
 *	(IB_WC_WITH_INVALIDATE), src_qp and slid.  rdmavt fills in wr_id,
 *	qp, port_num and pkey_index.
 * @solicited: the request asked for a solicited event
 *
 * Drops the WQE's MR references, then, for a successful receive with
 * IB_WC_WITH_INVALIDATE, invalidates the rkey (failing that, the
 * receive completes with IB_WC_REM_INV_REQ_ERR), and enters the
 * completion in the QP's receive CQ.  An error completion also raises
 * a solicited event.
 *
 * Context: process or softirq context with interrupts enabled, under
 * qp->r_lock; takes the CQ's lock and may call its handler (BH off).
 * Return: the status the completion got.
 */
enum ib_wc_status rvt_recv_complete(struct rvt_qp *qp, struct ib_wc *wc,
				    bool solicited)
{
	lockdep_assert_held(&qp->r_lock);
	rvt_put_ss(&qp->r_sge);
	qp->r_cur.num_sge = 0;
	clear_bit(RVT_R_WRID_VALID, &qp->r_aflags);

	wc->wr_id = qp->r_wr_id;
	wc->qp = &qp->ibqp;
	wc->port_num = qp->port_num;
	wc->pkey_index = qp->pkey_index;
	if (wc->status == IB_WC_SUCCESS &&
	    (wc->wc_flags & IB_WC_WITH_INVALIDATE) &&
	    rvt_invalidate_rkey(qp, wc->ex.invalidate_rkey))
		wc->status = IB_WC_REM_INV_REQ_ERR;
	/* an invalidation is reported only when it happened */
	if (wc->status != IB_WC_SUCCESS)
		wc->wc_flags &= ~IB_WC_WITH_INVALIDATE;
	else
		rvt_hw_count(qp, RVT_CNT_RDMA_RECV, 1);
	rvt_engine_enter();
	rvt_cq_enter(rvt_recv_cq(qp), wc,
		     solicited || wc->status != IB_WC_SUCCESS);
	rvt_engine_exit();
	return wc->status;
}
EXPORT_SYMBOL(rvt_recv_complete);

/*
 * A datagram sent through an AH with a GRH arrives with that GRH in the
 * first 40 bytes of the receive buffer; without one the space stays
 * untouched.  Returns true when it wrote one.
 */
static noinline_for_stack bool rvt_put_grh(struct rvt_delivery *d)
{
	const struct rdma_ah_attr *attr =
		&container_of(d->wqe->ud_wr.ah, struct rvt_ah, ibah)->attr;
	struct rvt_dev_info *rdi = d->qp->rdi;
	const struct ib_global_route *route;
	struct ib_grh grh = {};
	u32 paylen;

	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return false;
	route = rdma_ah_read_grh(attr);

	/* BTH, DETH, the payload padded to 4 bytes, optional ImmDt, ICRC */
	paylen = 12 + 8 + ALIGN(d->wqe->length, 4) + 4;
	if (d->wqe->wr.opcode == IB_WR_SEND_WITH_IMM)
		paylen += 4;
	grh.version_tclass_flow = cpu_to_be32(6U << 28 |
					      (u32)route->traffic_class << 20 |
					      (route->flow_label & 0xfffff));
	grh.paylen = cpu_to_be16(paylen);
	grh.next_hdr = RVT_GRH_NEXT_HDR;
	grh.hop_limit = route->hop_limit;
	/* the sender's port GID (rdmavt ports have one, at index 0) */
	rdi->ibdev.ops.query_gid(&rdi->ibdev, d->qp->port_num, 0, &grh.sgid);
	grh.dgid = route->dgid;
	rvt_recv_place_d(d, 0, NULL, &grh, sizeof(grh));
	return true;
}

/* The receive completion of @d as far as the requester's side says it. */
static void rvt_recv_wc(struct rvt_delivery *d, struct ib_wc *wc, u32 skip)
{
	enum ib_wr_opcode op = d->wqe->wr.opcode;
	const struct rdma_ah_attr *av = rvt_datagram(d->qp) ?
		&container_of(d->wqe->ud_wr.ah, struct rvt_ah, ibah)->attr :
		&d->qp->remote_ah_attr;
	u32 dlid = rdma_ah_get_dlid(av);
	u32 dbase = rvt_port_lid(d->dqp->rdi, d->dqp->port_num);

	wc->src_qp = d->qp->ibqp.qp_num;
	/* the sender's base LID and path bits; the path bits of our LID */
	wc->slid = rvt_port_slid(d->qp->rdi, d->qp->port_num,
				 rdma_ah_get_path_bits(av));
	if (rvt_port_by_lid(d->dqp->rdi, dlid) == d->dqp->port_num)
		wc->dlid_path_bits = dlid - dbase;
	wc->opcode = op == IB_WR_RDMA_WRITE_WITH_IMM ?
		IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV;
	wc->byte_len = d->wqe->length + skip;
	if (op == IB_WR_SEND_WITH_IMM || op == IB_WR_RDMA_WRITE_WITH_IMM) {
		wc->wc_flags |= IB_WC_WITH_IMM;
		wc->ex.imm_data = d->wqe->wr.ex.imm_data;
	} else if (op == IB_WR_SEND_WITH_INV) {
		wc->wc_flags |= IB_WC_WITH_INVALIDATE;
		wc->ex.invalidate_rkey = d->wqe->wr.ex.invalidate_rkey;
	}
}

/*
 * A receive failed at the responder.  The sender of a datagram never
 * knows; a connected requester learns it as the IBTA maps it (a length
 * error is an invalid request, anything else a remote operational
 * error) and the responder QP goes to the error state.
 */
static void rvt_recv_failed(struct rvt_delivery *d, enum ib_wc_status status)
{
	if (rvt_datagram(d->qp))
		return;
	d->dqp_err = true;
	d->status = status == IB_WC_LOC_LEN_ERR ? IB_WC_REM_INV_REQ_ERR :
		IB_WC_REM_OP_ERR;
}

/*
 * The in-memory receive of a SEND or RDMA WRITE with immediate (whose
 * data already landed).  Sets d->rnr when there was no receive WQE.  An
 * RC receive also moves the responder's MSN on and takes its AETH under
 * the r_lock it holds anyway: the requester's credit update then needs
 * no second trip through the responder's lock.
 */
void rvt_deliver_recv(struct rvt_delivery *d)
{
	bool is_send = d->wqe->wr.opcode != IB_WR_RDMA_WRITE_WITH_IMM;
	u32 skip = rvt_datagram(d->qp) ? RVT_GRH_BYTES : 0;
	struct rvt_qp *dqp = d->dqp;
	struct ib_wc wc = {};
	int ret;

	/* the sender's pages first: a WQE taken for nothing stays taken */
	if (is_send) {
		struct rvt_sge_state src = d->qp->s_sge;

		if (!rvt_ss_present(&src, d->wqe->length, false)) {
			rvt_note_miss(d, &src, false, false);
			return;
		}
	}
	spin_lock_bh(&dqp->r_lock);
	if (test_bit(RVT_R_WRID_VALID, &dqp->r_aflags)) {
		/*
		 * a delivery that missed a page left its WQE taken: the
		 * request runs again into it (or, for a datagram, the next
		 * one does), from the start
		 */
		dqp->r_cur = dqp->r_sge;
		dqp->r_cur_off = 0;
		ret = 1;
	} else {
		ret = rvt_recv_begin(dqp, !is_send);
	}
	if (ret <= 0) {
		spin_unlock_bh(&dqp->r_lock);
		if (ret)
			rvt_recv_failed(d, IB_WC_LOC_PROT_ERR);
		else
			d->rnr = true;
		return;
	}
	rvt_recv_wc(d, &wc, skip);
	/* the payload first: a datagram too long leaves the GRH unwritten */
	if (is_send)
		wc.status = rvt_recv_place_d(d, skip, &d->qp->s_sge, NULL,
					     d->wqe->length);
	if (wc.status == IB_WC_SUCCESS && !d->fault && skip && rvt_put_grh(d))
		wc.wc_flags |= IB_WC_GRH;
	if (d->fault) {
		/* nothing completes; the WQE stays taken for the replay */
		spin_unlock_bh(&dqp->r_lock);
		return;
	}
	if (rvt_recv_complete(dqp, &wc, d->wqe->wr.send_flags &
			      IB_SEND_SOLICITED) == IB_WC_SUCCESS &&
	    d->qp->ibqp.qp_type == IB_QPT_RC) {
		dqp->r_msn = (dqp->r_msn + 1) & IB_MSN_MASK;
		d->ack = rvt_compute_aeth(dqp);
		d->acked = true;
	}
	spin_unlock_bh(&dqp->r_lock);
	if (wc.status != IB_WC_SUCCESS)
		rvt_recv_failed(d, wc.status);
}
