// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * QP events and the error state: IB_EVENT_COMM_EST once per connection,
 * and moving a QP to the error state, which flushes its receive queue
 * at once and its send queue through the engine.
 *
 * Why a file of its own: the engine (a responder that fails, a request
 * that fails, a wire driver reporting a transport error) and the verbs
 * (modify_qp to ERR) both move QPs to the error state.  With it here
 * neither calls into the other's file: qp.c reaches the engine through
 * sq.h only, and the engine reaches the QP through this file.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "sq.h"

static void rvt_qp_event(struct rvt_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/**
 * rvt_comm_est - the first request arrived at a QP in RTR
 * @qp: the QP
 *
 * Raises IB_EVENT_COMM_EST on the QP once per connection: again only
 * after the QP went through RESET.  The send engine calls it when an RC
 * or UC request reaches a responder still in RTR; a wire driver calls it
 * when the first message of a connection arrives.
 *
 * Context: any context but hard interrupts; takes qp->state_lock (IRQ
 * safe) and calls the QP's event handler without it.
 */
void rvt_comm_est(struct rvt_qp *qp)
{
	unsigned long flags;
	bool first;

	spin_lock_irqsave(&qp->state_lock, flags);
	first = !(qp->r_flags & RVT_R_COMM_EST);
	qp->r_flags |= RVT_R_COMM_EST;
	spin_unlock_irqrestore(&qp->state_lock, flags);
	if (first)
		rvt_qp_event(qp, IB_EVENT_COMM_EST);
}
EXPORT_SYMBOL(rvt_comm_est);

/**
 * rvt_error_qp - move a QP to the error state
 * @qp: the QP
 * @err: the status that caused it (for the record)
 *
 * Stops the RNR and retry timers, flushes the receive queue now (a
 * receive WQE a wire driver was placing into included) and the send
 * queue through the engine (requests in flight on a wire included).
 * A QP on an SRQ gets IB_EVENT_QP_LAST_WQE_REACHED.  This is how a wire
 * driver reports a transport error (a broken connection, a terminate
 * from its peer): with the status the requests failing because of it
 * get, after completing the request that failed, if any, with
 * rvt_send_complete().
 *
 * Context: process or softirq context with interrupts enabled; takes
 * qp->state_lock, qp->s_lock, then qp->r_lock and the receive CQ's lock
 * (flush).  The caller holds no lock of the QP.
 *
 * Return: 1 when the QP was not in the error state before, else 0.
 */
int rvt_error_qp(struct rvt_qp *qp, enum ib_wc_status err)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->state_lock, flags);
	if (qp->state == IB_QPS_ERR || qp->state == IB_QPS_RESET) {
		spin_unlock_irqrestore(&qp->state_lock, flags);
		return 0;
	}
	WRITE_ONCE(qp->state, IB_QPS_ERR);
	spin_unlock_irqrestore(&qp->state_lock, flags);

	spin_lock_irqsave(&qp->s_lock, flags);
	rvt_stop_rc_timers(qp);
	spin_unlock_irqrestore(&qp->s_lock, flags);
	rvt_flush_rq(qp);
	if (qp->ibqp.srq)
		rvt_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
	rvt_schedule_send(qp);
	return 1;
}
EXPORT_SYMBOL(rvt_error_qp);

/**
 * rvt_rc_error - a transport error on a connected QP
 * @qp: the QP; no QP lock held
 * @err: the status of the requests that fail because of it
 *
 * rvt_error_qp() under the name upstream's RC drivers call: the QP goes
 * to the error state and flushes; a QP on an SRQ gets
 * IB_EVENT_QP_LAST_WQE_REACHED.
 *
 * Context: Any context without the QP's locks (takes them, IRQ safe).
 */
void rvt_rc_error(struct rvt_qp *qp, enum ib_wc_status err)
{
	rvt_error_qp(qp, err);
}
EXPORT_SYMBOL(rvt_rc_error);

