/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The send queue scheduler of rdmavt (sq.c), as the verbs see it: the
 * only way qp.c, rc.c and the error path reach the engine.  Nothing in
 * here calls back into the verbs; the scheduler reaches the QP's state
 * through the exported QP API (rvt_error_qp()) only.
 */
#ifndef RDMAVT_SQ_H
#define RDMAVT_SQ_H

#include <rdma/rdma_vt.h>

/* The send ring entry @i of @qp. */
static inline struct rvt_swqe *rvt_sq_slot(struct rvt_qp *qp, u32 i)
{
	return rvt_get_swqe_ptr(qp, i);
}

/* The entry after @i in the send ring of @qp. */
static inline u32 rvt_sq_next(struct rvt_qp *qp, u32 i)
{
	return rvt_sq_next_index(qp, i);
}

/*
 * Have the send engine of @qp run (again) soon, from its work item:
 * for callers that must not run it themselves (timers, state changes,
 * hard interrupts).
 */
static inline void rvt_schedule_send(struct rvt_qp *qp)
{
	mod_delayed_work(qp->rdi->wq, &qp->send_work, 0);
}

void rvt_do_send(struct work_struct *work);
void rvt_kick_sq(struct rvt_qp *qp);
void rvt_wait_sq_idle(struct rvt_qp *qp);
void rvt_sq_stop(struct rvt_qp *qp);

#endif /* RDMAVT_SQ_H */
