// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt reliable connection helpers: the AETH a responder answers with
 * (MSN and end-to-end credits), the credits a requester learns from it,
 * the RNR NAK and retry timers, and the acknowledgment of an RC request
 * delivered in memory.
 */

#include <rdma/rdma_vt.h>

#include "vt.h"
#include "sq.h"
#include "engine.h"

/*
 * End-to-end credit codes (IBTA table 44): code i in an AETH grants
 * rvt_credit_table[i] receive WQEs; code 31 says "no credits given".
 */
static const u16 rvt_credit_table[31] = {
	0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384,
	512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384,
	24576, 32768
};

/* RNR NAK timer codes (IBTA table 45) in microseconds; code 0 is the
 * longest.
 */
static const u32 rvt_rnr_table[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520
};

/**
 * rvt_rnr_tbl_to_usec - the time of an RNR NAK timer code
 * @index: the code, 0..31 (higher bits are ignored)
 *
 * Context: Any context.
 *
 * Return: microseconds.
 */
unsigned long rvt_rnr_tbl_to_usec(u32 index)
{
	return rvt_rnr_table[index & IB_AETH_CREDIT_MASK];
}
EXPORT_SYMBOL(rvt_rnr_tbl_to_usec);

/**
 * rvt_compute_aeth - the AETH of an ACK from a responder QP
 * @qp: the responder
 *
 * The MSN is qp->r_msn.  The credit code is the largest one that does
 * not grant more than the receive WQEs posted to the QP's own receive
 * queue; a QP on an SRQ gives no credits (code 31).  Call it with the
 * QP's r_lock held so the MSN is stable.
 *
 * Context: Any context but hard interrupts; the caller holds the QP's
 * r_lock (BH). Takes the receive queue's lock (IRQ safe).
 *
 * Return: the AETH, big endian.
 */
__be32 rvt_compute_aeth(struct rvt_qp *qp)
{
	u32 aeth = qp->r_msn & IB_MSN_MASK;
	u32 credits, lo, hi;
	unsigned long flags;

	if (qp->ibqp.srq)
		return cpu_to_be32(aeth | IB_AETH_CREDIT_INVAL <<
				   IB_AETH_CREDIT_SHIFT);

	spin_lock_irqsave(&qp->rq.lock, flags);
	credits = rvt_rq_count(&qp->rq);
	spin_unlock_irqrestore(&qp->rq.lock, flags);

	/* the last code whose grant is <= credits */
	lo = 0;
	hi = ARRAY_SIZE(rvt_credit_table) - 1;
	while (lo < hi) {
		u32 mid = (lo + hi + 1) / 2;

		if (rvt_credit_table[mid] <= credits)
			lo = mid;
		else
			hi = mid - 1;
	}
	return cpu_to_be32(aeth | lo << IB_AETH_CREDIT_SHIFT);
}
EXPORT_SYMBOL(rvt_compute_aeth);

/**
 * rvt_get_credit - take the credits of an AETH at a requester
 * @qp: the requester; the caller holds its s_lock
 * @aeth: the AETH of an ACK (host order)
 *
 * Code 31 makes the QP's credits unlimited (the responder uses an SRQ).
 * Otherwise the limit sequence number moves to MSN + credits when that
 * is further on.  A requester waiting for a credit (RVT_S_WAIT_SSN_CREDIT)
 * is scheduled again when it got one.
 *
 * Context: Any context; the caller holds the QP's s_lock (IRQ safe). May
 * queue the QP's send work.
 */
void rvt_get_credit(struct rvt_qp *qp, u32 aeth)
{
	u32 credit = (aeth >> IB_AETH_CREDIT_SHIFT) & IB_AETH_CREDIT_MASK;
	bool wake = false;

	lockdep_assert_held(&qp->s_lock);
	if (credit == IB_AETH_CREDIT_INVAL) {
		if (!(qp->s_flags & RVT_S_UNLIMITED_CREDIT)) {
			qp->s_flags |= RVT_S_UNLIMITED_CREDIT;
			wake = true;
		}
	} else if (!(qp->s_flags & RVT_S_UNLIMITED_CREDIT)) {
		u32 lsn = (aeth + rvt_credit_table[credit]) & IB_MSN_MASK;

		if (rvt_cmp_msn(lsn, qp->s_lsn) > 0) {
			qp->s_lsn = lsn;
			wake = true;
		}
	}
	if (wake && (qp->s_flags & RVT_S_WAIT_SSN_CREDIT)) {
		qp->s_flags &= ~RVT_S_WAIT_SSN_CREDIT;
		rvt_schedule_send(qp);
	}
}
EXPORT_SYMBOL(rvt_get_credit);

/*
 * A successful RC request of the in-memory delivery: the responder's MSN
 * moves on and its AETH brings the requester its credits.  A receive
 * (recv.c) moved the MSN on already, under the r_lock it held: then
 * d->ack has the AETH and the responder's lock is not taken again.
 */
void rvt_rc_ack(struct rvt_delivery *d)
{
	struct rvt_qp *dqp = d->dqp;
	unsigned long flags;
	__be32 aeth;

	if (d->acked) {
		aeth = d->ack;
	} else {
		spin_lock_bh(&dqp->r_lock);
		dqp->r_msn = (dqp->r_msn + 1) & IB_MSN_MASK;
		aeth = rvt_compute_aeth(dqp);
		spin_unlock_bh(&dqp->r_lock);
	}

	spin_lock_irqsave(&d->qp->s_lock, flags);
	rvt_get_credit(d->qp, be32_to_cpu(aeth));
	spin_unlock_irqrestore(&d->qp->s_lock, flags);
}

/**
 * rvt_rc_rnr_retry - the RNR NAK timer's callback
 * @t: the QP's s_rnr_timer
 *
 * The wait an RNR NAK asked for is over: the requester tries again.
 * rdmavt sets it as the timer's function (rvt_add_rnr_timer()); it is
 * exported for drivers that arm the timer themselves.
 *
 * Context: Hard interrupt (hrtimer callback) or any context; takes the
 * QP's s_lock.
 * Return: HRTIMER_NORESTART.
 */
enum hrtimer_restart rvt_rc_rnr_retry(struct hrtimer *t)
{
	struct rvt_qp *qp = container_of(t, struct rvt_qp, s_rnr_timer);
	unsigned long flags;

	spin_lock_irqsave(&qp->s_lock, flags);
	qp->s_flags &= ~RVT_S_WAIT_RNR;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	rvt_schedule_send(qp);
	return HRTIMER_NORESTART;
}
EXPORT_SYMBOL(rvt_rc_rnr_retry);

/* The local ACK timeout ran out: the requester sends again. */
static void rvt_rc_timeout(struct timer_list *t)
{
	struct rvt_qp *qp = from_timer(qp, t, s_timer);
	unsigned long flags;

	spin_lock_irqsave(&qp->s_lock, flags);
	qp->s_flags &= ~RVT_S_TIMER;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	rvt_schedule_send(qp);
}

/* Set up the timers of a new QP. */
void rvt_init_timers(struct rvt_qp *qp)
{
	hrtimer_init(&qp->s_rnr_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	qp->s_rnr_timer.function = rvt_rc_rnr_retry;
	timer_setup(&qp->s_timer, rvt_rc_timeout, 0);
}

/**
 * rvt_add_rnr_timer - wait out an RNR NAK
 * @qp: the requester; the caller holds its s_lock
 * @aeth: the AETH of the RNR NAK (host order): its credit field holds
 *	the responder's timer code
 *
 * The send engine holds the request until the timer runs out
 * (RVT_S_WAIT_RNR), then tries it again.
 *
 * Context: Any context; the caller holds the QP's s_lock (IRQ safe).
 */
void rvt_add_rnr_timer(struct rvt_qp *qp, u32 aeth)
{
	lockdep_assert_held(&qp->s_lock);
	qp->s_flags |= RVT_S_WAIT_RNR;
	hrtimer_start(&qp->s_rnr_timer,
		      ns_to_ktime(rvt_aeth_to_usec(aeth) * NSEC_PER_USEC),
		      HRTIMER_MODE_REL);
}
EXPORT_SYMBOL(rvt_add_rnr_timer);

/* Wait the local ACK timeout before sending again (RVT_S_TIMER). */
void rvt_add_retry_timer(struct rvt_qp *qp)
{
	rvt_add_retry_timer_ext(qp, 0);
}

/**
 * rvt_add_retry_timer_ext - wait a multiple of the local ACK timeout
 * @qp: the requester; the caller holds its s_lock
 * @shift: the timeout is the QP's local ACK timeout shifted left by this
 *
 * When the timer runs out, the send engine runs again (RVT_S_TIMER is
 * cleared) and the driver sends again what is unacknowledged.
 *
 * Context: Any context; the caller holds the QP's s_lock (IRQ safe).
 */
void rvt_add_retry_timer_ext(struct rvt_qp *qp, u8 shift)
{
	lockdep_assert_held(&qp->s_lock);
	qp->s_flags |= RVT_S_TIMER;
	mod_timer(&qp->s_timer, jiffies + (qp->timeout_jiffies << shift));
}
EXPORT_SYMBOL(rvt_add_retry_timer_ext);

/**
 * rvt_stop_rc_timers - stop the RNR and retry timers of a QP
 * @qp: the QP; the caller holds its s_lock
 *
 * A callback already running is not waited for (rvt_del_timers_sync()).
 *
 * Context: Any context; the caller holds the QP's s_lock (IRQ safe). Does
 * not wait for a running timer callback.
 */
void rvt_stop_rc_timers(struct rvt_qp *qp)
{
	lockdep_assert_held(&qp->s_lock);
	if (qp->s_flags & (RVT_S_TIMER | RVT_S_WAIT_RNR)) {
		qp->s_flags &= ~(RVT_S_TIMER | RVT_S_WAIT_RNR);
		del_timer(&qp->s_timer);
		hrtimer_try_to_cancel(&qp->s_rnr_timer);
	}
}
EXPORT_SYMBOL(rvt_stop_rc_timers);

/**
 * rvt_del_timers_sync - stop the timers of a QP and wait for callbacks
 * @qp: the QP; may sleep, no QP lock held
 *
 * Context: Process context; sleeps until running timer callbacks finish.
 * No QP lock held (the callbacks take the QP's s_lock).
 */
void rvt_del_timers_sync(struct rvt_qp *qp)
{
	del_timer_sync(&qp->s_timer);
	hrtimer_cancel(&qp->s_rnr_timer);
}
EXPORT_SYMBOL(rvt_del_timers_sync);
