// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Send completions: retiring the request at the send ring's tail, in
 * order, whether the engine finished it here (the in-memory delivery, a
 * local operation, a flush) or a wire driver learnt from its peer that
 * it is done (rvt_send_complete()).
 *
 * With a wire driver two parties retire requests, each its own: the
 * driver those the engine handed to it (sq_tail up to sq_cur), with
 * rvt_send_complete(), and the engine the others (executed here, or
 * flushed in the error state once the driver gave back all it held).
 * The claim under s_lock checks which side is calling, so a driver's
 * late or stray call (a request it does not hold) does nothing.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "sq.h"
#include "engine.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static enum ib_wc_opcode rvt_wc_opcode(enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_BIND_MW:
		return IB_WC_BIND_MW;
	case IB_WR_FLUSH:
		return IB_WC_FLUSH;
	case IB_WR_ATOMIC_WRITE:
		return IB_WC_ATOMIC_WRITE;
	default:
		return IB_WC_SEND;
	}
}

/*
 * Fill @wc for @wqe finished with @status.  Returns false when no
 * completion is due: a success of an unsignaled request on a QP that
 * signals requested WRs only.  Errors always complete.
 */
static bool rvt_send_wc(struct rvt_qp *qp, struct rvt_swqe *wqe,
			enum ib_wc_status status, struct ib_wc *wc)
{
	enum ib_wr_opcode op = wqe->wr.opcode;

	if (status == IB_WC_SUCCESS && !qp->sq_sig_all &&
	    !(wqe->wr.send_flags & IB_SEND_SIGNALED))
		return false;
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wqe->wr.wr_id;
	wc->status = status;
	wc->opcode = rvt_wc_opcode(op);
	wc->qp = &qp->ibqp;
	/*
	 * byte_len counts what came back: READ data, an atomic's value;
	 * and as upstream rxe, an ATOMIC WRITE's 8 bytes, a FLUSH's range
	 */
	if (op == IB_WR_RDMA_READ || op == IB_WR_RDMA_READ_WITH_INV ||
	    op == IB_WR_ATOMIC_WRITE)
		wc->byte_len = wqe->length;
	else if (op == IB_WR_FLUSH)
		wc->byte_len = wqe->flush_wr.length;
	else if (op == IB_WR_ATOMIC_CMP_AND_SWP ||
		 op == IB_WR_ATOMIC_FETCH_AND_ADD)
		wc->byte_len = sizeof(u64);
	return true;
}

/**
 * rvt_sq_retire - take the request at the send ring's tail and complete it
 * @qp: the QP
 * @wqe: the request, expected at qp->sq_tail
 * @status: its status
 * @in_flight: the caller is a wire driver: the request must be one the
 *	engine handed to it (before qp->sq_cur); else it must not be
 *	(the engine retires only what it did not hand over)
 *
 * The slot goes back to the poster before the completion is entered, so
 * a consumer that polls the completion finds room to post again; a QP
 * with an error status is in the error state before its completion is
 * seen (the flush of what follows is the engine's next round).
 *
 * Return: false when @wqe was not there to take (completed or flushed
 * already).
 */
bool rvt_sq_retire(struct rvt_qp *qp, struct rvt_swqe *wqe,
		   enum ib_wc_status status, bool in_flight)
{
	bool cqe, wake, handed, ring;
	unsigned long flags;
	struct ib_wc wc;
	u32 next;

	spin_lock_irqsave(&qp->s_lock, flags);
	handed = qp->sq_tail != qp->sq_cur;
	if (qp->sq_tail == qp->sq_head ||
	    rvt_sq_slot(qp, qp->sq_tail) != wqe || in_flight != handed) {
		spin_unlock_irqrestore(&qp->s_lock, flags);
		return false;
	}
	/* read the request before its slot can be posted to again */
	cqe = rvt_send_wc(qp, wqe, status, &wc);
	rvt_hw_count_send(qp, wqe, status);
	if (in_flight)
		trace_rvt_send_complete(qp, wqe, status, cqe);
	else
		trace_rvt_sq_retire(qp, wqe, status, cqe);
	rvt_put_swqe(wqe);
	next = rvt_sq_next(qp, qp->sq_tail);
	if (qp->sq_cur == qp->sq_tail)
		qp->sq_cur = next;
	qp->sq_tail = next;
	/*
	 * a driver's user ring frees the request's slot in step; what it
	 * holds beyond rdmavt's window, or filled without a doorbell,
	 * comes in now
	 */
	ring = qp->drv_sq && qp->rdi->driver_f.user_sq_retired(qp);
	ring |= qp->s_flags & RVT_S_RING_FULL;
	qp->s_flags &= ~RVT_S_RING_FULL;
	/* a local request waited for the requests in flight before it */
	wake = (qp->s_flags & RVT_S_WAIT_PENDING) && next == qp->sq_cur;
	if (wake)
		qp->s_flags &= ~RVT_S_WAIT_PENDING;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	if (ring)
		queue_work(system_wq, &qp->ring_work);

	/*
	 * A datagram a wire driver could not send (no route, no neighbour)
	 * is lost, as a datagram may be: its request completes with the
	 * error, the QP stays (the MAD layer's QP1 goes on serving)
	 */
	if (status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR &&
	    !(in_flight && rvt_datagram(qp)))
		rvt_error_qp(qp, status);
	if (cqe)
		rvt_cq_enter(rvt_send_cq(qp), &wc, false);
	if (wake)
		rvt_schedule_send(qp);
	return true;
}

/**
 * rvt_send_complete - complete a request a wire driver transmitted
 * @qp: the QP
 * @wqe: the request, as xmit_wqe got it; it must be the oldest request
 *	not completed yet (send queues complete in order)
 * @status: IB_WC_SUCCESS when the peer acknowledged it (or, for an
 *	unacknowledged SEND or WRITE, when the transport is done with its
 *	memory); IB_WC_WR_FLUSH_ERR for a request the driver gives back
 *	unfinished in the error state; another error status fails the
 *	request and moves the QP to the error state, in which the driver
 *	gives back the rest of what it holds (a UD or GSI QP stays in its
 *	state: the datagram is lost, the next ones may go)
 *
 * Gives the request back to the engine: drops its MR references, gives
 * its slot back to the poster and, when due (an error, or signaled),
 * enters its completion in the send CQ.  The driver reads nothing of
 * the request after the call.  A request the driver does not hold (not
 * handed to it, given back already, or forgotten by a RESET) is left
 * alone: the call then does nothing.
 *
 * Context: process or softirq context with interrupts enabled (the CQ
 * handler runs with bottom halves off); may be called from within
 * xmit_wqe.  Takes qp->s_lock, then, without it, the QP's state_lock
 * (error) and the CQ's lock.  No QP lock may be held by the caller.
 */
void rvt_send_complete(struct rvt_qp *qp, struct rvt_swqe *wqe,
		       enum ib_wc_status status)
{
	rvt_engine_enter();
	rvt_sq_retire(qp, wqe, status, true);
	rvt_engine_exit();
}
EXPORT_SYMBOL(rvt_send_complete);
