// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester of the in-memory delivery: one send request, from its
 * local checks to its outcome, with the responder's side run directly
 * on the destination QP of this host.
 *
 *  - REG_MR and LOCAL_INV change a local MR and need no responder;
 *  - the local SGEs are checked (sge.c) and the requester's walk set;
 *  - the responder is found (route.c) and, by opcode class, takes the
 *    request: SEND into a receive WQE (recv.c), RDMA WRITE and READ
 *    through an rkey (rdma.c), atomics (atomic.c);
 *  - what the responder decided becomes the requester's result.
 *
 * An RC request that finds no receive WQE waits for the responder's RNR
 * NAK timer and tries again (the scheduler, sq.c, counts the retries);
 * one that finds no responder waits the local ACK timeout.  An RC
 * request that succeeds brings back the responder's AETH (credits).
 * Errors are those the IBTA gives: LOC_* for local ones; for those the
 * responder detects, REM_* at the requester and the responder's QP in
 * the error state.
 *
 * Locks: none of the requester's is held while the responder works; the
 * responder's r_lock is taken for a receive only.  QPs sending to each
 * other therefore cannot deadlock.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "engine.h"

static bool rvt_is_atomic(enum ib_wr_opcode op)
{
	return op == IB_WR_ATOMIC_CMP_AND_SWP ||
	       op == IB_WR_ATOMIC_FETCH_AND_ADD;
}

/*
 * REG_MR, LOCAL_INV and BIND_MW act on this QP's own MRs and memory
 * windows, with no responder.  Returns false for any other opcode.
 */
static bool rvt_exec_local(struct rvt_qp *qp, struct rvt_swqe *wqe,
			   enum ib_wc_status *status)
{
	enum ib_wc_status fail = IB_WC_LOC_QP_OP_ERR;
	int ret;

	if (wqe->wr.opcode == IB_WR_REG_MR) {
		ret = rvt_fast_reg_mr(qp, wqe->reg_wr.mr, wqe->reg_wr.key,
				      wqe->reg_wr.access);
	} else if (wqe->wr.opcode == IB_WR_LOCAL_INV) {
		ret = rvt_invalidate_rkey(qp, wqe->wr.ex.invalidate_rkey);
	} else if (wqe->wr.opcode == IB_WR_BIND_MW) {
		ret = rvt_bind_mw(qp, &wqe->bind_wr);
		fail = IB_WC_MW_BIND_ERR;
	} else {
		return false;
	}
	*status = ret ? fail : IB_WC_SUCCESS;
	return true;
}

/*
 * Check the request's local SGEs (its gather list, or for READ and
 * atomics its scatter list, which needs local write) and set the
 * requester's walk over them.
 */
static enum ib_wc_status rvt_prepare(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	enum ib_wr_opcode op = wqe->wr.opcode;
	bool scatter = op == IB_WR_RDMA_READ || rvt_is_atomic(op);

	if (rvt_resolve_wqe(qp, wqe, scatter ? IB_ACCESS_LOCAL_WRITE : 0))
		return IB_WC_LOC_PROT_ERR;
	if (rvt_is_atomic(op) && wqe->length != sizeof(u64))
		return IB_WC_LOC_LEN_ERR;
	rvt_restart_sge(&qp->s_sge, wqe, 0);
	return IB_WC_SUCCESS;
}

/*
 * Find the responder of @d and check it takes the request now.  Returns
 * false when the request goes nowhere: d->dqp is then NULL (nobody
 * answered) or the datagram was dropped.
 */
static bool rvt_reach(struct rvt_delivery *d, const struct rvt_wire *req)
{
	struct rvt_qp *qp = d->qp;

	d->dqp = rvt_find_dest(qp, d->wqe, req);
	if (d->dqp && !rvt_responder_ok(qp, d->dqp)) {
		rvt_put_qp(d->dqp);
		d->dqp = NULL;
	}
	if (!d->dqp)
		return false;
	if (rvt_datagram(qp))
		return rvt_qkey_ok(qp, d->dqp, d->wqe);
	/* the first request a connected responder sees in RTR */
	if (READ_ONCE(d->dqp->state) == IB_QPS_RTR)
		rvt_comm_est(d->dqp);
	return true;
}

/* The responder's side of the request, by opcode class. */
static void rvt_deliver(struct rvt_delivery *d)
{
	switch (d->wqe->wr.opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
		rvt_deliver_recv(d);
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		/* the receive WQE must be there before the data lands */
		if (!READ_ONCE(d->dqp->ibqp.srq) && !rvt_rq_count(&d->dqp->rq)) {
			d->rnr = true;
			break;
		}
		rvt_deliver_rdma(d);
		if (d->status == IB_WC_SUCCESS)
			rvt_deliver_recv(d);
		break;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
		rvt_deliver_rdma(d);
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		rvt_deliver_atomic(d);
		break;
	default:
		d->status = IB_WC_LOC_QP_OP_ERR;
		break;
	}
}

/*
 * What the responder decided, as the requester's result.  An unreliable
 * requester never hears of remote trouble (a UC responder still goes to
 * the error state); RC gets the NAK: RNR, or the error status with the
 * responder in the error state; a success brings the responder's AETH.
 */
static enum rvt_exec rvt_outcome(struct rvt_delivery *d, u32 *aeth)
{
	if (d->qp->ibqp.qp_type != IB_QPT_RC) {
		if (d->dqp_err && d->qp->ibqp.qp_type == IB_QPT_UC)
			rvt_error_qp(d->dqp, IB_WC_REM_OP_ERR);
		if (d->status != IB_WC_LOC_QP_OP_ERR)
			d->status = IB_WC_SUCCESS;
		return RVT_DONE;
	}
	if (d->dqp_err) {
		rvt_error_qp(d->dqp, d->status);
	} else if (d->rnr) {
		*aeth = (u32)READ_ONCE(d->dqp->r_min_rnr_timer) <<
			IB_AETH_CREDIT_SHIFT | IB_RNR_NAK << IB_AETH_CREDIT_SHIFT;
		return RVT_RNR;
	} else if (d->status == IB_WC_SUCCESS) {
		rvt_rc_ack(d);
	}
	return RVT_DONE;
}

/*
 * The request missed a page again after the send work could not fault
 * in the one it missed before (s_fault_status): it fails.  A page of
 * the requester's own is a local protection error (returns true: that
 * is the requester's status); one of the responder's is a remote access
 * error with the responder's QP in the error state, as the responder's
 * NAK would have it (returns false: the outcome goes on from @d).
 */
static bool rvt_fault_failed(struct rvt_delivery *d, enum ib_wc_status *status)
{
	struct rvt_qp *qp = d->qp;
	bool local = qp->s_fault_status == IB_WC_LOC_PROT_ERR;

	rvt_put_mr(qp->s_miss.mr);
	qp->s_miss.mr = NULL;
	d->fault = false;
	if (local) {
		*status = IB_WC_LOC_PROT_ERR;
		return true;
	}
	d->status = IB_WC_REM_ACCESS_ERR;
	d->dqp_err = true;
	return false;
}

/*
 * Execute one request: RVT_DONE with the requester's status in *status,
 * RVT_RNR with the responder's RNR NAK AETH in *aeth, RVT_RETRY, or
 * RVT_FAULT when it missed a page (qp->s_miss).
 */
enum rvt_exec rvt_exec_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe,
			   enum ib_wc_status *status, u32 *aeth)
{
	struct rvt_delivery d = { .qp = qp, .wqe = wqe };
	enum rvt_exec ret = RVT_DONE;
	struct rvt_wire wire[2];

	if (rvt_exec_local(qp, wqe, status))
		return RVT_DONE;
	*status = rvt_prepare(qp, wqe);
	if (*status != IB_WC_SUCCESS)
		return RVT_DONE;
	/* the packets of the request and of its answer, for the counters */
	rvt_wire_of(qp, wqe, &wire[0], &wire[1]);
	rvt_hw_count(qp, RVT_CNT_SENT_PKTS, wire[0].pkts);
	/* the sender of a multicast datagram never hears how it fared */
	if (rvt_datagram(qp) && rvt_route_mcast(qp, wqe, &wire[0]))
		return RVT_DONE;
	/* management packets the driver's fabric routes itself */
	if ((qp->ibqp.qp_type == IB_QPT_SMI ||
	     qp->ibqp.qp_type == IB_QPT_GSI) &&
	    rvt_route_mad(qp, wqe, &wire[0]))
		return RVT_DONE;

	if (rvt_reach(&d, &wire[0])) {
		rvt_hw_count(d.dqp, RVT_CNT_RCVD_PKTS, wire[0].pkts);
		rvt_deliver(&d);
		if (d.fault && qp->s_fault_status == IB_WC_SUCCESS) {
			/* nothing happened that a replay would not redo */
			rvt_put_qp(d.dqp);
			return RVT_FAULT;
		}
		if (d.fault && rvt_fault_failed(&d, status)) {
			rvt_put_qp(d.dqp);
			return RVT_DONE;
		}
		ret = rvt_outcome(&d, aeth);
		rvt_count_answer(&d, &wire[1]);
		if (ret == RVT_RNR) {
			rvt_hw_count(qp, RVT_CNT_RCV_RNR, 1);
			rvt_hw_count(d.dqp, RVT_CNT_SND_RNR, 1);
		}
		*status = d.status;
	} else if (!d.dqp && qp->ibqp.qp_type == IB_QPT_RC) {
		/* nobody answers: a datagram is lost, RC sends again */
		ret = RVT_RETRY;
	}
	rvt_put_qp(d.dqp);
	return ret;
}
