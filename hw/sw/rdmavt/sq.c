// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The send queue scheduler: which request of a QP runs next, and where.
 *
 * A QP's requests run in order, one context at a time (RVT_S_BUSY in
 * s_flags).  A post runs them at once in the poster's context when that
 * context allows it (rvt_kick_sq()), because a software device has no
 * hardware to hand them to and a work item per post costs a wakeup and
 * two context switches: that is the 8-byte SEND latency.  Otherwise, and
 * after timers and state changes, the QP's work item on rdi->wq runs
 * them (rvt_do_send()).
 *
 * The ring has three positions, all under s_lock:
 *
 *   sq_tail  the oldest request not completed (comp.c retires it)
 *   sq_cur   the next request to run; requests between sq_tail and
 *            sq_cur were handed to a wire driver (xmit_wqe): they are the
 *            driver's, read in place, until it gives them back with
 *            rvt_send_complete() or in its xmit_stop.  Without xmit_wqe
 *            sq_cur is sq_tail.
 *   sq_head  where the next post goes
 *
 * In the error state the scheduler flushes only what it did not hand
 * over: while the driver holds requests (sq_tail != sq_cur) it tells
 * the driver (xmit_flush) and waits (RVT_S_WAIT_PENDING; the driver's
 * last give-back wakes it), then flushes from sq_tail, so completions
 * stay in order.  RESET and
 * destroy do not wait: rvt_sq_stop() has the driver stop (xmit_stop)
 * and drops the references of every request itself.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "sq.h"
#include "engine.h"
#include "trace.h"

/* s_flags private to the scheduler: a kick came while it ran */
#define RVT_S_AGAIN	0x80000000

/* requests the engine executes in a poster's context, at most */
#define RVT_INLINE_BUDGET	32

/*
 * Raised while this CPU's engine executes a request (bottom halves off,
 * so it stays on the CPU): a post from there goes to the work item.
 */
static DEFINE_PER_CPU(unsigned int, rvt_engine_active);

/*
 * Mark this CPU as inside the engine around code that calls consumer
 * handlers outside of it (a wire driver's completions): a post they make
 * defers to the work item, as it does from within the engine.
 */
void rvt_engine_enter(void)
{
	local_bh_disable();
	__this_cpu_inc(rvt_engine_active);
}

void rvt_engine_exit(void)
{
	__this_cpu_dec(rvt_engine_active);
	local_bh_enable();
}

/* The send queue stopped for SQD: tell the consumer if it asked. */
static void rvt_sq_drained(struct rvt_qp *qp)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = IB_EVENT_SQ_DRAINED,
	};

	if (atomic_xchg(&qp->sqd_notify, 0) && qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

/*
 * Does @wqe complete here rather than on the wire?  A refused request
 * (rvt_post_ring_wr()) does, as a local one: after those before it.
 */
static bool rvt_completes_here(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	return !qp->rdi->driver_f.xmit_wqe || wqe->refused ||
	       wqe->wr.opcode == IB_WR_REG_MR ||
	       wqe->wr.opcode == IB_WR_LOCAL_INV ||
	       wqe->wr.opcode == IB_WR_BIND_MW;
}

/*
 * Is @wqe a REG_MR the wire driver takes once executed
 * (driver_f.xmit_local), rather than one that waits for the requests in
 * flight before it?  Not when fenced: that one waits for them.  A
 * LOCAL_INV always waits, as upstream rxe's does: the requests before
 * it may still be using the MR.
 */
static bool rvt_local_ahead(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	return qp->rdi->driver_f.xmit_wqe && qp->rdi->driver_f.xmit_local &&
	       wqe->wr.opcode == IB_WR_REG_MR && !wqe->refused &&
	       !(wqe->wr.send_flags & IB_SEND_FENCE);
}

/*
 * The request to run next, or NULL when there is none or the queue
 * waits: for a timer, or, for a request that completes here, for the
 * requests in flight before it (completions come in order; a local
 * request the driver takes does not wait, rvt_local_ahead()).  *@held:
 * in the error state, the wait is for the driver to give back what it
 * holds.
 */
static struct rvt_swqe *rvt_sq_pick(struct rvt_qp *qp, enum ib_qp_state state,
				    bool *held, bool *ahead)
{
	struct rvt_swqe *wqe = NULL;
	unsigned long flags;

	*held = false;
	*ahead = false;
	spin_lock_irqsave(&qp->s_lock, flags);
	if (state == IB_QPS_ERR) {
		/* the driver gives back what it holds first, in order */
		if (qp->sq_tail != qp->sq_cur) {
			*held = true;
			qp->s_flags |= RVT_S_WAIT_PENDING;
			trace_rvt_flush_wait(qp, qp->sq_tail, qp->sq_cur,
					     qp->sq_head);
		} else if (qp->sq_tail != qp->sq_head) {
			wqe = rvt_sq_slot(qp, qp->sq_tail);
		}
		goto out;
	}
	if (qp->sq_cur == qp->sq_head ||
	    (qp->s_flags & (RVT_S_WAIT_RNR | RVT_S_TIMER | RVT_S_WAIT_PENDING |
			    RVT_S_WAIT_FAULT)))
		goto out;
	wqe = rvt_sq_slot(qp, qp->sq_cur);
	if (qp->sq_cur != qp->sq_tail && rvt_completes_here(qp, wqe)) {
		if (rvt_local_ahead(qp, wqe)) {
			/* executed now, completed by the driver in order */
			*ahead = true;
		} else {
			qp->s_flags |= RVT_S_WAIT_PENDING;
			wqe = NULL;
		}
	}
out:
	spin_unlock_irqrestore(&qp->s_lock, flags);
	return wqe;
}

/*
 * Wait for a timer before the request at sq_tail goes again: RVT_RNR or
 * RVT_RETRY with retries left.  Returns false when they are used up.
 */
static bool rvt_wait_again(struct rvt_qp *qp, enum rvt_exec how, u32 aeth)
{
	unsigned long flags;

	if (how == RVT_RNR) {
		if (qp->s_rnr_retry_cnt != 7 && qp->s_rnr_retry-- <= 0)
			return false;
	} else if (qp->s_retry-- <= 0) {
		return false;
	}
	rvt_hw_count(qp, RVT_CNT_COMP_RETRY, how == RVT_RETRY);
	spin_lock_irqsave(&qp->s_lock, flags);
	if (how == RVT_RNR)
		rvt_add_rnr_timer(qp, aeth);
	else
		rvt_add_retry_timer(qp);
	spin_unlock_irqrestore(&qp->s_lock, flags);
	return true;
}

/**
 * rvt_odp_miss_fault - have a page a wire driver missed faulted in
 * @qp: the QP whose request or response met the page
 * @sge: where the walk stood: the on-demand paging MR and, in vaddr, the
 *	user address of the byte that missed
 * @write: the access writes
 * @remote: the region is the responder's (its fault failing is
 *	IB_WC_REM_ACCESS_ERR), else the requester's own
 *	(IB_WC_LOC_PROT_ERR)
 *
 * The QP's send work faults in the rest of the SGE, RVT_ODP_FAULT_MAX
 * bytes at most; the send queue waits for it (RVT_S_WAIT_FAULT) and
 * then goes on.  While a fault of the QP is pending this miss adds
 * nothing: the access is tried again and misses again if that fault did
 * not bring its page.  A fault that fails is remembered: the next miss
 * in its range gets the failure, once.
 *
 * Context: any context but hard interrupts; takes qp->s_lock.
 * Return: RVT_WC_PAGE_MISS (try again later), or IB_WC_REM_ACCESS_ERR
 * or IB_WC_LOC_PROT_ERR (@remote) when the page could not be faulted in.
 */
enum ib_wc_status rvt_odp_miss_fault(struct rvt_qp *qp, struct rvt_sge *sge,
				     bool write, bool remote)
{
	struct rvt_odp_miss *miss = &qp->s_miss;
	u64 uva = (uintptr_t)sge->vaddr;
	enum ib_wc_status st = RVT_WC_PAGE_MISS;
	struct rvt_mregion *old = NULL;
	unsigned long flags;

	spin_lock_irqsave(&qp->s_lock, flags);
	if (qp->s_flags & RVT_S_WAIT_FAULT)
		goto out;
	if (miss->mr && miss->failed) {
		old = miss->mr;
		miss->mr = NULL;
		if (old == sge->mr && uva >= miss->uva &&
		    uva - miss->uva < miss->len) {
			st = miss->remote ? IB_WC_REM_ACCESS_ERR :
			     IB_WC_LOC_PROT_ERR;
			goto out;
		}
	}
	rvt_get_mr(sge->mr);
	*miss = (struct rvt_odp_miss) {
		.mr = sge->mr,
		.uva = uva,
		.len = min_t(u32, sge->sge_length, RVT_ODP_FAULT_MAX),
		.write = write,
		.remote = remote,
	};
	qp->s_flags |= RVT_S_WAIT_FAULT;
	rvt_schedule_send(qp);
out:
	spin_unlock_irqrestore(&qp->s_lock, flags);
	rvt_put_mr(old);
	return st;
}
EXPORT_SYMBOL(rvt_odp_miss_fault);

/*
 * Are the pages of @wqe's local SGEs there for the wire driver (@write:
 * for the responses it places there)?  IB_WC_SUCCESS; RVT_WC_PAGE_MISS
 * when one is being faulted in; the failure when its fault failed.
 */
static enum ib_wc_status rvt_sq_present(struct rvt_qp *qp,
					struct rvt_swqe *wqe, bool write)
{
	struct rvt_sge_state ss;
	u32 i;

	for (i = 0; i < wqe->wr.num_sge; i++)
		if (wqe->sg_list[i].mr && wqe->sg_list[i].mr->odp)
			break;
	if (i == wqe->wr.num_sge)
		return IB_WC_SUCCESS;
	rvt_restart_sge(&ss, wqe, 0);
	if (rvt_ss_present(&ss, wqe->length, write))
		return IB_WC_SUCCESS;
	return rvt_odp_miss_fault(qp, &ss.sge, write, false);
}

/*
 * Hand @wqe to the wire driver.  Its local SGEs are checked first: a
 * driver transmits from them and must not see a bad lkey, and their
 * pages of an on-demand paging MR are faulted in before it takes them.
 * Returns false when the queue has to stop (the driver is busy, a fault
 * is under way, or a failed check waits for the requests in flight
 * before it to complete first).
 */
static bool rvt_sq_xmit(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	enum ib_wr_opcode op = wqe->wr.opcode;
	int acc = op == IB_WR_RDMA_READ || op == IB_WR_RDMA_READ_WITH_INV ||
		  op == IB_WR_ATOMIC_CMP_AND_SWP ||
		  op == IB_WR_ATOMIC_FETCH_AND_ADD ? IB_ACCESS_LOCAL_WRITE : 0;
	enum ib_wc_status st = IB_WC_LOC_PROT_ERR;
	unsigned long flags;
	bool pending;
	u32 cur;
	int ret;

	if (!rvt_resolve_wqe(qp, wqe, acc)) {
		st = rvt_sq_present(qp, wqe, acc != 0);
		if (st == RVT_WC_PAGE_MISS)
			return false;
	}
	if (st != IB_WC_SUCCESS) {
		/* its error completion must not overtake those in flight */
		spin_lock_irqsave(&qp->s_lock, flags);
		pending = qp->sq_cur != qp->sq_tail;
		if (pending)
			qp->s_flags |= RVT_S_WAIT_PENDING;
		spin_unlock_irqrestore(&qp->s_lock, flags);
		return !pending && rvt_sq_retire(qp, wqe, st, false);
	}
	/* in flight before the driver sees it: it may complete it at once */
	spin_lock_irqsave(&qp->s_lock, flags);
	cur = qp->sq_cur;
	qp->sq_cur = rvt_sq_next(qp, cur);
	spin_unlock_irqrestore(&qp->s_lock, flags);

	/* traced before: once taken, it may complete and its slot go */
	trace_rvt_xmit_wqe(qp, wqe, 0);
	ret = qp->rdi->driver_f.xmit_wqe(qp, wqe);
	if (!ret)
		return true;
	trace_rvt_xmit_busy(qp, wqe, ret);
	/* not taken: nobody else moves sq_cur, the engine runs here only */
	spin_lock_irqsave(&qp->s_lock, flags);
	qp->sq_cur = cur;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	return false;
}

/*
 * The engine stops until the send work has faulted in qp->s_miss
 * (rvt_sq_fault()).
 */
static void rvt_sq_wait_fault(struct rvt_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->s_lock, flags);
	qp->s_flags |= RVT_S_WAIT_FAULT;
	rvt_schedule_send(qp);
	spin_unlock_irqrestore(&qp->s_lock, flags);
}

/*
 * Fault in what the engine missed (the send work, before it runs the
 * engine).  The engine does not run meanwhile (RVT_S_WAIT_FAULT), so
 * s_miss is this function's.  A fault that fails makes the request that
 * missed complete in error when it misses again (rvt_exec_wqe()).
 */
static void rvt_sq_fault(struct rvt_qp *qp)
{
	void (*resume)(struct rvt_qp *qp) = qp->rdi->driver_f.odp_resume;
	struct rvt_odp_miss *miss = &qp->s_miss;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&qp->s_lock, flags);
	if (!(qp->s_flags & RVT_S_WAIT_FAULT)) {
		spin_unlock_irqrestore(&qp->s_lock, flags);
		return;
	}
	spin_unlock_irqrestore(&qp->s_lock, flags);

	if (miss->mr) {
		ret = rvt_odp_fault(miss->mr, miss->uva, miss->len,
				    miss->write);
		trace_rvt_odp_fault(qp, miss, ret);
		if (ret && qp->rdi->driver_f.xmit_wqe) {
			/* rvt_odp_miss_fault() fails the next miss of it */
			miss->failed = true;
		} else {
			if (ret)
				qp->s_fault_status = miss->remote ?
					IB_WC_REM_ACCESS_ERR :
					IB_WC_LOC_PROT_ERR;
			rvt_put_mr(miss->mr);
			miss->mr = NULL;
		}
	}
	spin_lock_irqsave(&qp->s_lock, flags);
	qp->s_flags &= ~RVT_S_WAIT_FAULT;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	/*
	 * A wire driver's data path that stopped at the miss goes on; not
	 * in RESET, whose rvt_sq_stop() waited for a send work that began
	 * before it and has the driver stop (xmit_stop).
	 */
	if (resume && READ_ONCE(qp->state) != IB_QPS_RESET)
		resume(qp);
}

/* The request at sq_tail is done with: the next starts afresh. */
static void rvt_sq_request_done(struct rvt_qp *qp)
{
	qp->s_rnr_retry = qp->s_rnr_retry_cnt;
	qp->s_retry = qp->s_retry_cnt;
	qp->s_fault_status = IB_WC_SUCCESS;
	qp->s_atomic_held = false;
}

/*
 * Run the request @wqe (flush it, in the error state).  Returns false
 * when it stays where it is: it waits for a timer, a fault, or the
 * driver.
 */
static bool rvt_sq_one(struct rvt_qp *qp, struct rvt_swqe *wqe,
		       enum ib_qp_state state, bool ahead)
{
	enum ib_wc_status status;
	enum rvt_exec how;
	u32 aeth = 0;

	if (state == IB_QPS_ERR) {
		rvt_sq_request_done(qp);
		rvt_sq_retire(qp, wqe, IB_WC_WR_FLUSH_ERR, false);
		return true;
	}
	/* malformed: it completes in error without running */
	if (wqe->refused) {
		rvt_sq_retire(qp, wqe, wqe->status, false);
		return true;
	}
	if (!rvt_completes_here(qp, wqe))
		return rvt_sq_xmit(qp, wqe);
	if (ahead) {
		/* once only: the driver may have been busy the first time */
		if (!wqe->executed) {
			rvt_exec_wqe(qp, wqe, &wqe->status, &aeth);
			wqe->executed = true;
			trace_rvt_local_ahead(qp, wqe, wqe->status);
		}
		return rvt_sq_xmit(qp, wqe);
	}

	how = rvt_exec_wqe(qp, wqe, &status, &aeth);
	if (how == RVT_FAULT) {
		rvt_sq_wait_fault(qp);
		return false;
	}
	if (how != RVT_DONE) {
		if (rvt_wait_again(qp, how, aeth))
			return false;
		status = how == RVT_RNR ? IB_WC_RNR_RETRY_EXC_ERR :
			IB_WC_RETRY_EXC_ERR;
		rvt_hw_count(qp, RVT_CNT_RETRY_EXCEEDED + (how == RVT_RNR), 1);
	}
	/* the next request starts with a full set of retries */
	rvt_sq_request_done(qp);
	rvt_sq_retire(qp, wqe, status, false);
	/* a multicast member that missed a page dropped it: fault it in */
	if (qp->s_miss.mr)
		rvt_sq_wait_fault(qp);
	return true;
}

/*
 * Take the send ring until it is empty or has to wait, or, with a
 * @budget (a poster's context: no sleeping), until that many requests
 * are done.  Returns true when the budget ran out with requests left.
 *
 * Each request executes with bottom halves off and rvt_engine_active
 * raised on the CPU: the completion and event handlers it calls (some
 * under the responder's r_lock) may post, and such a post must leave
 * the work to the work item rather than run an engine inside this one
 * (rvt_kick_sq()).  Softirqs raised meanwhile (irq_poll of a CQ) run
 * when the request is done, with no lock of the engine held.
 */
static bool rvt_sq_loop(struct rvt_qp *qp, unsigned int budget)
{
	enum ib_qp_state state;
	struct rvt_swqe *wqe;
	bool went, held, ahead;

	for (;;) {
		/* requests execute whole: at SQD nothing is in flight */
		state = READ_ONCE(qp->state);
		if (state == IB_QPS_SQD) {
			rvt_sq_drained(qp);
			return false;
		}
		/* SQE and the states before RTS hold the queue */
		if (state != IB_QPS_ERR && state != IB_QPS_RTS)
			return false;
		wqe = rvt_sq_pick(qp, state, &held, &ahead);
		if (!wqe) {
			/* tell the driver: the flush waits for it */
			if (held)
				qp->rdi->driver_f.xmit_flush(qp);
			return false;
		}

		rvt_engine_enter();
		went = rvt_sq_one(qp, wqe, state, ahead);
		rvt_engine_exit();
		if (!went)
			return false;
		if (!budget)
			cond_resched();
		else if (!--budget)
			return true;
	}
}

/*
 * Run the engine of @qp here unless it runs elsewhere already; @budget
 * as for rvt_sq_loop() (0: the work item or rvt_ruc_loopback(), which
 * may sleep).  What a budget leaves goes to the work item.
 */
static void rvt_run_sq(struct rvt_qp *qp, unsigned int budget)
{
	unsigned long flags;
	bool left = false;

	spin_lock_irqsave(&qp->s_lock, flags);
	if (qp->s_flags & RVT_S_BUSY) {
		/* the runner looks again before it stops */
		qp->s_flags |= RVT_S_AGAIN;
		spin_unlock_irqrestore(&qp->s_lock, flags);
		return;
	}
	qp->s_flags |= RVT_S_BUSY;
	do {
		qp->s_flags &= ~RVT_S_AGAIN;
		spin_unlock_irqrestore(&qp->s_lock, flags);
		left = rvt_sq_loop(qp, budget);
		spin_lock_irqsave(&qp->s_lock, flags);
	} while (!left && (qp->s_flags & RVT_S_AGAIN));
	qp->s_flags &= ~(RVT_S_BUSY | RVT_S_AGAIN);
	/*
	 * Queued under s_lock, once BUSY is clear: the work item does not
	 * find the engine busy, and rvt_wait_sq_idle() sees either BUSY or
	 * the work item queued.
	 */
	if (left)
		rvt_schedule_send(qp);
	spin_unlock_irqrestore(&qp->s_lock, flags);
}

/**
 * rvt_kick_sq - have the engine take what was posted to a QP
 * @qp: the QP
 *
 * Runs the engine in the caller's context when that context allows it.
 * The caller may hold spin locks of its own: the engine does not sleep
 * here, does at most RVT_INLINE_BUDGET requests (the work item takes the
 * rest) and calls handlers with bottom halves off, as it does from the
 * work item.  From hard interrupts, with interrupts off (the engine
 * enables bottom halves) and from within a request the engine executes
 * on this CPU (a handler it called posts, or xmit_wqe kicks), the work
 * item runs it instead.  A wire driver calls it when it can take
 * requests again after xmit_wqe returned -EBUSY.
 *
 * Context: any.  Takes qp->s_lock; runs the engine (see rdma_vt.h for
 * what it takes) unless it defers to the work item.
 */
void rvt_kick_sq(struct rvt_qp *qp)
{
	if (in_hardirq() || in_nmi() || irqs_disabled() ||
	    this_cpu_read(rvt_engine_active)) {
		rvt_schedule_send(qp);
		return;
	}
	rvt_run_sq(qp, RVT_INLINE_BUDGET);
}
EXPORT_SYMBOL(rvt_kick_sq);

/**
 * rvt_wait_sq_idle - wait for an engine of a QP that runs in a poster's
 *	context
 * @qp: the QP, whose state already stops the engine (RESET)
 *
 * cancel_delayed_work_sync() waits for the work item only.
 */
void rvt_wait_sq_idle(struct rvt_qp *qp)
{
	unsigned long flags;
	bool busy;

	for (;;) {
		spin_lock_irqsave(&qp->s_lock, flags);
		busy = qp->s_flags & RVT_S_BUSY;
		spin_unlock_irqrestore(&qp->s_lock, flags);
		if (!busy)
			return;
		cond_resched();
	}
}

/*
 * Stop the engine and its timers for good (the state is RESET, nothing
 * starts them again) and drop the MR references of what was posted,
 * requests a wire driver holds included: its xmit_stop runs first, after
 * which it touches none of them.  Nothing here waits for the driver's
 * transport, so RESET and destroy cannot hang on a peer.
 */
void rvt_sq_stop(struct rvt_qp *qp)
{
	void (*xmit_stop)(struct rvt_qp *qp) = qp->rdi->driver_f.xmit_stop;
	unsigned long flags;
	u32 i;

	cancel_delayed_work_sync(&qp->send_work);
	rvt_del_timers_sync(qp);
	/* a poster may be running the engine (rvt_kick_sq()) */
	rvt_wait_sq_idle(qp);

	/*
	 * In RESET the engine hands nothing over any more: sq_cur stays.
	 * A give-back the driver finishes meanwhile may queue the work item.
	 */
	if (qp->rdi->driver_f.xmit_wqe && xmit_stop) {
		spin_lock_irqsave(&qp->s_lock, flags);
		trace_rvt_xmit_stop(qp, qp->sq_tail, qp->sq_cur, qp->sq_head);
		spin_unlock_irqrestore(&qp->s_lock, flags);
		xmit_stop(qp);
	}
	/*
	 * a timer that ran out, a poster's engine that left requests or
	 * the driver's last give-back may have queued the work item again
	 */
	cancel_delayed_work_sync(&qp->send_work);

	spin_lock_irqsave(&qp->s_lock, flags);
	qp->s_flags &= ~(RVT_S_TIMER | RVT_S_WAIT_RNR | RVT_S_WAIT_PENDING |
			 RVT_S_WAIT_FAULT);
	for (i = qp->sq_tail; i != qp->sq_head; i = rvt_sq_next(qp, i))
		rvt_put_swqe(rvt_sq_slot(qp, i));
	spin_unlock_irqrestore(&qp->s_lock, flags);
	/* a fault the send work did not get to */
	rvt_put_mr(qp->s_miss.mr);
	qp->s_miss.mr = NULL;
	rvt_sq_request_done(qp);
}

/**
 * rvt_ruc_loopback - run the send queue of a connected QP to its peer
 * @sqp: the sending QP (RC or UC) whose peer is a QP of this host
 *
 * Executes the requests posted to @sqp, in order, right here: each is
 * delivered to the peer QP and completed, until the queue is empty,
 * waits for an RNR or retry timer, or the QP's state holds it.  If the
 * engine of @sqp runs elsewhere at the time, that one takes the
 * requests instead.
 *
 * Context: process context, may sleep; call it without QP locks.
 */
void rvt_ruc_loopback(struct rvt_qp *sqp)
{
	if (WARN_ON_ONCE(rvt_datagram(sqp)))
		return;
	rvt_run_sq(sqp, 0);
}
EXPORT_SYMBOL(rvt_ruc_loopback);

/* The work item of a QP's engine (process context, rdi->wq). */
void rvt_do_send(struct work_struct *work)
{
	struct rvt_qp *qp = container_of(to_delayed_work(work), struct rvt_qp,
					 send_work);

	rvt_sq_fault(qp);
	if (rvt_datagram(qp))
		rvt_run_sq(qp, 0);
	else
		rvt_ruc_loopback(qp);
}
