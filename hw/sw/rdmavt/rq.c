// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt receive queues: the rings of QPs and SRQs, posting, taking a
 * receive WQE for the responder (rvt_get_rwqe()), flushing, and the SRQ
 * verbs.
 *
 * Locks: rq->lock protects a ring.  The responder side of a QP (its
 * r_sge, r_wr_id, r_len, r_msn) is under qp->r_lock, taken before the
 * ring's lock.
 */

#include <linux/vmalloc.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

int rvt_rq_init(struct rvt_rq *rq, u32 max_wr, u32 max_sge)
{
	rq->size = max_wr + 1;
	rq->max_sge = max_sge;
	rq->stride = struct_size_t(struct rvt_rwqe, sg_list, max_sge);
	rq->wqes = vzalloc(array_size(rq->size, rq->stride));
	if (!rq->wqes)
		return -ENOMEM;
	spin_lock_init(&rq->lock);
	rq->head = 0;
	rq->tail = 0;
	return 0;
}

static struct rvt_rwqe *rq_slot(struct rvt_rq *rq, u32 i)
{
	return rq->wqes + (size_t)i * rq->stride;
}

static u32 rq_next(struct rvt_rq *rq, u32 i)
{
	return i + 1 == rq->size ? 0 : i + 1;
}

u32 rvt_rq_count(struct rvt_rq *rq)
{
	return (rq->head + rq->size - rq->tail) % rq->size;
}

static int rvt_rq_post(struct rvt_rq *rq, const struct ib_recv_wr *wr)
{
	struct rvt_rwqe *wqe;
	unsigned long flags;
	u32 next;

	if (wr->num_sge < 0 || wr->num_sge > rq->max_sge)
		return -EINVAL;

	/*
	 * The SGEs are kept as posted and checked only when a message takes
	 * the WQE (rvt_get_rwqe()): the check sees the MRs as they are when
	 * the data lands (a key invalidated meanwhile fails), and posting
	 * stays a copy under one lock.
	 * IRQ safe: receives are posted from any context, even from a
	 * completion handler the responder calls under its r_lock.
	 */
	spin_lock_irqsave(&rq->lock, flags);
	/* one entry stays free: head == tail is an empty ring */
	next = rq_next(rq, rq->head);
	if (next == rq->tail) {
		spin_unlock_irqrestore(&rq->lock, flags);
		return -ENOMEM;
	}
	wqe = rq_slot(rq, rq->head);
	wqe->wr_id = wr->wr_id;
	wqe->num_sge = wr->num_sge;
	memcpy(wqe->sg_list, wr->sg_list, wr->num_sge * sizeof(struct ib_sge));
	rq->head = next;
	spin_unlock_irqrestore(&rq->lock, flags);
	return 0;
}

static struct rvt_srq *to_rvt_srq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct rvt_srq, ibsrq);
}

/*
 * Check the SGEs of @wqe and make qp->r_sge of them.  Returns 1, or 0
 * when a key check fails (no reference is kept then).
 */
static int rvt_init_sge(struct rvt_qp *qp, struct rvt_rwqe *wqe)
{
	struct ib_pd *ibpd = qp->ibqp.srq ? qp->ibqp.srq->pd : qp->ibqp.pd;
	struct rvt_pd *pd = container_of(ibpd, struct rvt_pd, ibpd);
	struct rvt_lkey_table *rkt = &qp->rdi->lkey_table;
	struct rvt_sge_state *ss = &qp->r_sge;
	u32 i, j = 0;
	int ret;

	ss->sg_list = qp->r_sg_list;
	qp->r_len = 0;
	for (i = 0; i < wqe->num_sge; i++) {
		/* the first SGE is ss->sge, the others follow in sg_list */
		struct rvt_sge *isge = j ? &ss->sg_list[j - 1] : &ss->sge;
		struct rvt_sge *last = j > 1 ? &ss->sg_list[j - 2] :
				       j ? &ss->sge : NULL;

		if (!wqe->sg_list[i].length)
			continue;
		ret = rvt_lkey_ok(rkt, pd, isge, last, &wqe->sg_list[i],
				  IB_ACCESS_LOCAL_WRITE);
		if (ret < 0)
			goto bad_lkey;
		qp->r_len += wqe->sg_list[i].length;
		j += ret;
	}
	ss->num_sge = j;
	ss->total_len = qp->r_len;
	return 1;

bad_lkey:
	while (j) {
		j--;
		rvt_put_mr(j ? ss->sg_list[j - 1].mr : ss->sge.mr);
	}
	ss->num_sge = 0;
	return 0;
}

static void rvt_srq_event(struct rvt_srq *srq, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = type,
	};

	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}

/**
 * rvt_get_rwqe - take the next receive WQE of a QP for the responder
 * @qp: the QP; the caller holds its r_lock (a BH lock)
 * @wr_id_only: take only the WQE's ID (RDMA WRITE with immediate), not
 *	its SGEs
 *
 * Takes the oldest WQE of the QP's receive queue or SRQ, sets
 * qp->r_wr_id and the RVT_R_WRID_VALID bit of qp->r_aflags and, unless
 * @wr_id_only, checks the WQE's SGEs (IB_ACCESS_LOCAL_WRITE in the PD of
 * the QP, or of the SRQ) into qp->r_sge and qp->r_len.  The SGEs of
 * r_sge reference their MRs: copy with release, then rvt_put_ss().  An
 * SRQ whose armed limit is crossed raises IB_EVENT_SRQ_LIMIT_REACHED.
 * Callable in process and softirq context (upstream: any context; our
 * CQs call their handlers with bottom halves disabled, which needs
 * interrupts enabled).
 *
 * Context: Process or softirq context with interrupts enabled; the caller
 * holds the QP's r_lock (BH). Takes the receive queue's lock (IRQ safe);
 * a failed WQE is completed through rvt_cq_enter() after dropping it.
 *
 * Return: 1 when a WQE was taken; 0 when there is none or the QP does
 * not receive in its state; -1 when a key check failed (the WQE was
 * consumed and completed with IB_WC_LOC_PROT_ERR).
 */
int rvt_get_rwqe(struct rvt_qp *qp, bool wr_id_only)
{
	struct rvt_srq *srq = qp->ibqp.srq ? to_rvt_srq(qp->ibqp.srq) : NULL;
	struct rvt_rq *rq = srq ? &srq->rq : &qp->rq;
	enum ib_qp_state state = READ_ONCE(qp->state);
	bool limit_event = false;
	struct rvt_rwqe *wqe;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&qp->r_lock);
	if (!(ib_rvt_state_ops[state] & RVT_PROCESS_RECV_OK))
		return 0;

	spin_lock_irqsave(&rq->lock, flags);
	if (rq->tail == rq->head) {
		spin_unlock_irqrestore(&rq->lock, flags);
		return 0;
	}
	/*
	 * The WQE is consumed even when its keys fail: it completes in error
	 * (IB_WC_LOC_PROT_ERR) instead of failing every message after it.
	 */
	wqe = rq_slot(rq, rq->tail);
	qp->r_wr_id = wqe->wr_id;
	ret = wr_id_only ? 1 : rvt_init_sge(qp, wqe);
	if (ret)
		set_bit(RVT_R_WRID_VALID, &qp->r_aflags);
	else
		ret = -1;
	rq->tail = rq_next(rq, rq->tail);
	if (srq && srq->limit && rvt_rq_count(rq) < srq->limit) {
		srq->limit = 0;		/* one event per arming */
		limit_event = true;
	}
	spin_unlock_irqrestore(&rq->lock, flags);

	if (ret < 0) {
		struct ib_wc wc = {
			.wr_id = qp->r_wr_id,
			.status = IB_WC_LOC_PROT_ERR,
			.opcode = IB_WC_RECV,
			.qp = &qp->ibqp,
		};

		rvt_cq_enter(container_of(qp->ibqp.recv_cq, struct rvt_cq, ibcq),
			     &wc, true);
	}
	if (limit_event)
		rvt_srq_event(srq, IB_EVENT_SRQ_LIMIT_REACHED);
	return ret;
}
EXPORT_SYMBOL(rvt_get_rwqe);

/*
 * A receive WQE taken and not completed: a wire driver was placing a
 * message into it when the QP failed.  Its references go; with @wc it
 * completes as flushed, without (to RESET) it is forgotten.
 */
static void rvt_drop_taken_rwqe(struct rvt_qp *qp, struct ib_wc *wc)
{
	lockdep_assert_held(&qp->r_lock);
	if (!test_and_clear_bit(RVT_R_WRID_VALID, &qp->r_aflags))
		return;
	rvt_put_ss(&qp->r_sge);
	qp->r_cur.num_sge = 0;
	if (wc) {
		wc->wr_id = qp->r_wr_id;
		rvt_cq_enter(container_of(qp->ibqp.recv_cq, struct rvt_cq,
					  ibcq), wc, true);
	}
}

/*
 * Complete every WQE of the QP's own receive queue as flushed, and the
 * one a wire driver had taken (also from an SRQ).
 */
void rvt_flush_rq(struct rvt_qp *qp)
{
	struct rvt_cq *cq = container_of(qp->ibqp.recv_cq, struct rvt_cq, ibcq);
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};
	struct rvt_rq *rq = &qp->rq;
	unsigned long flags;

	/* one at a time: completions go out without the ring's lock */
	spin_lock_bh(&qp->r_lock);
	rvt_drop_taken_rwqe(qp, &wc);
	while (!qp->ibqp.srq) {
		spin_lock_irqsave(&rq->lock, flags);
		if (rq->tail == rq->head) {
			spin_unlock_irqrestore(&rq->lock, flags);
			break;
		}
		wc.wr_id = rq_slot(rq, rq->tail)->wr_id;
		rq->tail = rq_next(rq, rq->tail);
		spin_unlock_irqrestore(&rq->lock, flags);
		rvt_cq_enter(cq, &wc, true);
	}
	spin_unlock_bh(&qp->r_lock);
}

/* Forget the WQEs of the QP's own receive queue (to RESET). */
void rvt_reset_rq(struct rvt_qp *qp)
{
	unsigned long flags;

	spin_lock_bh(&qp->r_lock);
	rvt_drop_taken_rwqe(qp, NULL);
	spin_unlock_bh(&qp->r_lock);
	if (qp->ibqp.srq)
		return;
	spin_lock_irqsave(&qp->rq.lock, flags);
	qp->rq.head = 0;
	qp->rq.tail = 0;
	spin_unlock_irqrestore(&qp->rq.lock, flags);
}

int rvt_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	int ret = 0;

	if (ibqp->srq ||
	    !(ib_rvt_state_ops[READ_ONCE(qp->state)] & RVT_POST_RECV_OK)) {
		*bad_wr = wr;
		return -EINVAL;
	}
	for (; wr; wr = wr->next) {
		ret = rvt_rq_post(&qp->rq, wr);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	/* an errored QP completes receives as flushed right away */
	if (READ_ONCE(qp->state) == IB_QPS_ERR)
		rvt_flush_rq(qp);
	return ret;
}

int rvt_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init_attr,
		   struct ib_udata *udata)
{
	struct rvt_srq *srq = to_rvt_srq(ibsrq);
	struct rvt_dev_info *rdi = ib_to_rvt(ibsrq->device);
	struct ib_srq_attr *attr = &init_attr->attr;
	int ret;

	if (udata || init_attr->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!attr->max_wr || attr->max_wr > rdi->dparms.props.max_srq_wr ||
	    attr->max_sge > rdi->dparms.props.max_srq_sge ||
	    attr->srq_limit > attr->max_wr)
		return -EINVAL;
	if (!attr->max_sge)
		attr->max_sge = 1;

	ret = rvt_rq_init(&srq->rq, attr->max_wr, attr->max_sge);
	if (ret)
		return ret;
	srq->limit = attr->srq_limit;
	return 0;
}

/*
 * A new ring of @attr->max_wr entries takes over the posted receive
 * requests, oldest first; it must have room for all of them.  With
 * IB_SRQ_LIMIT in @mask the new limit is set in the same step.
 */
static int rvt_resize_srq(struct rvt_srq *srq, struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask)
{
	struct rvt_dev_info *rdi = ib_to_rvt(srq->ibsrq.device);
	struct rvt_rq *rq = &srq->rq;
	u32 size = attr->max_wr + 1, n, i;
	unsigned long flags;
	void *wqes, *old;
	int ret = 0;

	if (!attr->max_wr || attr->max_wr > rdi->dparms.props.max_srq_wr)
		return -EINVAL;
	if ((mask & IB_SRQ_LIMIT) && attr->srq_limit >= attr->max_wr)
		return -EINVAL;
	wqes = vzalloc(array_size(size, rq->stride));
	if (!wqes)
		return -ENOMEM;

	spin_lock_irqsave(&rq->lock, flags);
	n = rvt_rq_count(rq);
	if (n >= size) {
		ret = -EINVAL;
		goto unlock;
	}
	for (i = 0; i < n; i++) {
		memcpy(wqes + (size_t)i * rq->stride, rq_slot(rq, rq->tail),
		       rq->stride);
		rq->tail = rq_next(rq, rq->tail);
	}
	old = rq->wqes;
	rq->wqes = wqes;
	rq->size = size;
	rq->tail = 0;
	rq->head = n;
	wqes = old;
	if (mask & IB_SRQ_LIMIT)
		srq->limit = attr->srq_limit;
unlock:
	spin_unlock_irqrestore(&rq->lock, flags);
	vfree(wqes);
	return ret;
}

int rvt_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask attr_mask, struct ib_udata *udata)
{
	struct rvt_srq *srq = to_rvt_srq(ibsrq);
	unsigned long flags;
	int ret = 0;

	if (attr_mask & IB_SRQ_MAX_WR)
		return rvt_resize_srq(srq, attr, attr_mask);
	if (attr_mask & IB_SRQ_LIMIT) {
		spin_lock_irqsave(&srq->rq.lock, flags);
		if (attr->srq_limit >= srq->rq.size)
			ret = -EINVAL;
		else
			srq->limit = attr->srq_limit;
		spin_unlock_irqrestore(&srq->rq.lock, flags);
	}
	return ret;
}

int rvt_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct rvt_srq *srq = to_rvt_srq(ibsrq);

	attr->max_wr = srq->rq.size - 1;
	attr->max_sge = srq->rq.max_sge;
	attr->srq_limit = srq->limit;
	return 0;
}

int rvt_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	vfree(to_rvt_srq(ibsrq)->rq.wqes);
	return 0;
}

int rvt_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct rvt_srq *srq = to_rvt_srq(ibsrq);
	int ret;

	for (; wr; wr = wr->next) {
		ret = rvt_rq_post(&srq->rq, wr);
		if (ret) {
			*bad_wr = wr;
			return ret;
		}
	}
	return 0;
}
