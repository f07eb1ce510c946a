// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt receive queues: the rings of QPs and SRQs, posting, taking a
 * receive WQE for the responder (rvt_get_rwqe()), flushing, and the SRQ
 * verbs.
 *
 * Locks: rq->lock protects a ring (a driver's ring too: its hooks
 * driver_f.user_rq_take and user_rq_count run under it).  The responder
 * side of a QP (its r_sge, r_wr_id, r_len, r_msn) is under qp->r_lock,
 * taken before the ring's lock.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

/*
 * The sizes and the empty state every ring starts with: @max_wr entries
 * of @max_sge SGEs; with @scratch, the copy rdmavt takes an entry of a
 * ring user space writes into before it looks at it.
 */
static int rvt_rq_setup(struct rvt_rq *rq, u32 max_wr, u32 max_sge,
			bool scratch)
{
	rq->size = max_wr + 1;
	rq->max_sge = max_sge;
	rq->stride = struct_size_t(struct rvt_rwqe, sg_list, max_sge);
	if (scratch) {
		rq->scratch = kzalloc(rq->stride, GFP_KERNEL);
		if (!rq->scratch)
			return -ENOMEM;
	}
	spin_lock_init(&rq->lock);
	rq->head = 0;
	rq->tail = 0;
	return 0;
}

int rvt_rq_init(struct rvt_rq *rq, u32 max_wr, u32 max_sge)
{
	rvt_rq_setup(rq, max_wr, max_sge, false);
	rq->wqes = vzalloc(array_size(rq->size, rq->stride));
	return rq->wqes ? 0 : -ENOMEM;
}

/*
 * A user QP's or SRQ's receive ring, mapped by user space (rdmavt's ABI:
 * the offset goes to the driver data); without room for the offset, a
 * kernel ring that user space posts to with POST_RECV.
 */
int rvt_rq_init_user(struct rvt_rq *rq, u32 max_wr, u32 max_sge,
		     struct ib_udata *udata)
{
	struct rvt_rwq *wq;
	u64 offset;
	int ret;

	if (udata->outlen < sizeof(offset))
		return rvt_rq_init(rq, max_wr, max_sge);
	ret = rvt_rq_setup(rq, max_wr, max_sge, true);
	if (ret)
		return ret;
	wq = rvt_mmap_alloc(udata, sizeof(*wq) +
			    array_size(rq->size, rq->stride), &rq->mmap,
			    &offset);
	if (IS_ERR(wq)) {
		ret = PTR_ERR(wq);
		goto err;
	}
	ret = ib_copy_to_udata(udata, &offset, sizeof(offset));
	if (ret) {
		rvt_mmap_remove(rq->mmap);
		goto err;
	}
	rq->wq = wq;
	rq->wqes = wq->wq;
	return 0;

err:
	kfree(rq->scratch);
	rq->scratch = NULL;
	return ret;
}

/*
 * A user QP's or SRQ's receive ring in its driver's format (the driver
 * made it and set rq->drv_ring): rdmavt keeps the lock, the sizes for
 * queries and the entry taken.  @max_wr is what the driver's ring holds.
 */
int rvt_rq_init_drv(struct rvt_dev_info *rdi, struct rvt_rq *rq, u32 max_wr,
		    u32 max_sge)
{
	rq->rdi = rdi;
	return rvt_rq_setup(rq, max_wr, max_sge, true);
}

/*
 * The ring's memory goes (a user ring's with its last mapping; a
 * driver's ring is the driver's to remove).
 */
void rvt_rq_free(struct rvt_rq *rq)
{
	if (rq->wq)
		rvt_mmap_remove(rq->mmap);
	else if (!rq->drv_ring)
		vfree(rq->wqes);
	kfree(rq->scratch);
	rq->scratch = NULL;
	rq->mmap = NULL;
	rq->drv_ring = NULL;
	rq->wqes = NULL;
	rq->wq = NULL;
}

static struct rvt_rwqe *rq_slot(struct rvt_rq *rq, u32 i)
{
	return rq->wqes + (size_t)i * rq->stride;
}

static u32 rq_next(struct rvt_rq *rq, u32 i)
{
	return i + 1 == rq->size ? 0 : i + 1;
}

/*
 * The next entry to post.  User space writes a user ring's: one past
 * the ring (a broken ring) counts as nothing posted.
 */
static u32 rq_head(struct rvt_rq *rq)
{
	u32 head;

	if (!rq->wq)
		return rq->head;
	/* the entries it covers are read after it */
	head = smp_load_acquire(&rq->wq->head.val);
	return head < rq->size ? head : rq->tail;
}

static void rq_set_head(struct rvt_rq *rq, u32 head)
{
	if (rq->wq)
		/* the entry is whole before user space sees it posted */
		smp_store_release(&rq->wq->head.val, head);
	else
		rq->head = head;
}

static void rq_set_tail(struct rvt_rq *rq, u32 tail)
{
	rq->tail = tail;
	if (rq->wq)
		/* user space reuses the entries before it once it sees it */
		smp_store_release(&rq->wq->tail.val, tail);
}

/* The requests a ring holds; a driver's ring counts them under rq->lock. */
u32 rvt_rq_count(struct rvt_rq *rq)
{
	if (rq->drv_ring)
		return rq->rdi->driver_f.user_rq_count(rq);
	return (rq_head(rq) + rq->size - rq->tail) % rq->size;
}

/*
 * Take the entry at the ring's tail and free its slot; NULL when the
 * ring is empty.  A user ring's entry is copied out of user space's
 * reach first, its SGE count bounded: user space may change the ring at
 * any time.  A driver's ring: its hook does both.  Under rq->lock.
 */
static struct rvt_rwqe *rq_take(struct rvt_rq *rq)
{
	struct rvt_rwqe *wqe;

	if (rq->drv_ring) {
		if (!rq->rdi->driver_f.user_rq_take(rq, rq->scratch))
			return NULL;
		/* the hook bounds it; what reaches the keys fits r_sg_list */
		if (WARN_ON_ONCE(rq->scratch->num_sge > rq->max_sge))
			rq->scratch->num_sge = rq->max_sge;
		return rq->scratch;
	}
	if (rq->tail == rq_head(rq))
		return NULL;
	wqe = rq_slot(rq, rq->tail);
	if (rq->wq) {
		memcpy(rq->scratch, wqe, rq->stride);
		if (rq->scratch->num_sge > rq->max_sge)
			rq->scratch->num_sge = rq->max_sge;
		wqe = rq->scratch;
	}
	rq_set_tail(rq, rq_next(rq, rq->tail));
	return wqe;
}

static int rvt_rq_post(struct rvt_rq *rq, const struct ib_recv_wr *wr)
{
	struct rvt_rwqe *wqe;
	unsigned long flags;
	u32 head, next;

	if (wr->num_sge < 0 || wr->num_sge > rq->max_sge)
		return -EINVAL;
	/* user space posts to a driver's ring itself, without the kernel */
	if (rq->drv_ring)
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
	head = rq_head(rq);
	next = rq_next(rq, head);
	if (next == rq->tail) {
		spin_unlock_irqrestore(&rq->lock, flags);
		return -ENOMEM;
	}
	wqe = rq_slot(rq, head);
	wqe->wr_id = wr->wr_id;
	wqe->num_sge = wr->num_sge;
	memcpy(wqe->sg_list, wr->sg_list, wr->num_sge * sizeof(struct ib_sge));
	rq_set_head(rq, next);
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

		struct ib_sge sge = {
			.addr = wqe->sg_list[i].addr,
			.length = wqe->sg_list[i].length,
			.lkey = wqe->sg_list[i].lkey,
		};

		if (!sge.length)
			continue;
		ret = rvt_lkey_ok(rkt, pd, isge, last, &sge,
				  IB_ACCESS_LOCAL_WRITE);
		if (ret < 0)
			goto bad_lkey;
		qp->r_len += sge.length;
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
	/*
	 * The WQE is consumed even when its keys fail: it completes in error
	 * (IB_WC_LOC_PROT_ERR) instead of failing every message after it.
	 */
	wqe = rq_take(rq);
	if (!wqe) {
		spin_unlock_irqrestore(&rq->lock, flags);
		return 0;
	}
	qp->r_wr_id = wqe->wr_id;
	ret = wr_id_only ? 1 : rvt_init_sge(qp, wqe);
	if (ret)
		set_bit(RVT_R_WRID_VALID, &qp->r_aflags);
	else
		ret = -1;
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
	struct rvt_rwqe *wqe;
	unsigned long flags;
	u32 n;

	/*
	 * One at a time: completions go out without the ring's lock.  No
	 * more than the ring holds: user space may post to a user ring
	 * meanwhile, and must not keep this going.
	 */
	spin_lock_bh(&qp->r_lock);
	rvt_drop_taken_rwqe(qp, &wc);
	for (n = 0; !qp->ibqp.srq && n < rq->size; n++) {
		spin_lock_irqsave(&rq->lock, flags);
		wqe = rq_take(rq);
		if (!wqe) {
			spin_unlock_irqrestore(&rq->lock, flags);
			break;
		}
		wc.wr_id = READ_ONCE(wqe->wr_id);
		spin_unlock_irqrestore(&rq->lock, flags);
		rvt_cq_enter(cq, &wc, true);
	}
	spin_unlock_bh(&qp->r_lock);
}

/* Forget the WQEs of the QP's own receive queue (to RESET). */
void rvt_reset_rq(struct rvt_qp *qp)
{
	struct rvt_rq *rq = &qp->rq;
	unsigned long flags;
	u32 n;

	spin_lock_bh(&qp->r_lock);
	rvt_drop_taken_rwqe(qp, NULL);
	spin_unlock_bh(&qp->r_lock);
	if (qp->ibqp.srq)
		return;
	spin_lock_irqsave(&rq->lock, flags);
	if (rq->drv_ring) {
		/* the driver's slots are freed by taking what they hold */
		for (n = 0; n < rq->size && rq_take(rq); n++)
			;
	} else {
		rq_set_head(rq, 0);
		rq_set_tail(rq, 0);
	}
	spin_unlock_irqrestore(&rq->lock, flags);
}

int rvt_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	int ret = 0;

	if (ibqp->srq || qp->rq.drv_ring ||
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

/* A user SRQ whose ring is its driver's (driver_user_abi). */
static int rvt_create_drv_srq(struct rvt_dev_info *rdi, struct rvt_srq *srq,
			      struct ib_srq_attr *attr, struct ib_udata *udata)
{
	int ret;

	ret = rdi->driver_f.create_user_srq(srq, attr, udata);
	if (ret)
		return ret;
	if (WARN_ON_ONCE(!srq->rq.drv_ring))
		return -EINVAL;
	ret = rvt_rq_init_drv(rdi, &srq->rq, attr->max_wr, attr->max_sge);
	if (ret) {
		rdi->driver_f.destroy_user_srq(srq);
		srq->rq.drv_ring = NULL;
	}
	return ret;
}

int rvt_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init_attr,
		   struct ib_udata *udata)
{
	struct rvt_srq *srq = to_rvt_srq(ibsrq);
	struct rvt_dev_info *rdi = ib_to_rvt(ibsrq->device);
	struct ib_srq_attr *attr = &init_attr->attr;
	int ret;

	if (init_attr->srq_type != IB_SRQT_BASIC ||
	    (udata && rdi->dparms.driver_user_abi &&
	     !rdi->driver_f.create_user_srq))
		return -EOPNOTSUPP;
	if (!attr->max_wr || attr->max_wr > rdi->dparms.props.max_srq_wr ||
	    attr->max_sge > rdi->dparms.props.max_srq_sge ||
	    attr->srq_limit > attr->max_wr)
		return -EINVAL;
	if (!attr->max_sge)
		attr->max_sge = 1;

	if (udata && rdi->dparms.driver_user_abi)
		ret = rvt_create_drv_srq(rdi, srq, attr, udata);
	else if (udata)
		ret = rvt_rq_init_user(&srq->rq, attr->max_wr, attr->max_sge,
				       udata);
	else
		ret = rvt_rq_init(&srq->rq, attr->max_wr, attr->max_sge);
	if (ret)
		return ret;
	srq->limit = attr->srq_limit;
	return 0;
}

/*
 * A user SRQ's new ring goes to user space: the driver data of
 * MODIFY_SRQ holds the address where its offset is to be written.
 */
static void *rvt_resize_srq_user(struct rvt_rq *rq, u32 size,
				 struct ib_udata *udata,
				 struct rvt_mmap_entry **entry)
{
	struct rvt_rwq *wq;
	u64 offset, addr;
	int ret;

	if (!udata || udata->inlen < sizeof(addr))
		return ERR_PTR(-EINVAL);
	ret = ib_copy_from_udata(&addr, udata, sizeof(addr));
	if (ret)
		return ERR_PTR(ret);
	wq = rvt_mmap_alloc(udata, sizeof(*wq) + array_size(size, rq->stride),
			    entry, &offset);
	if (IS_ERR(wq))
		return wq;
	if (copy_to_user(u64_to_user_ptr(addr), &offset, sizeof(offset))) {
		rvt_mmap_remove(*entry);
		return ERR_PTR(-EFAULT);
	}
	return wq;
}

/*
 * A new ring of @attr->max_wr entries takes over the posted receive
 * requests, oldest first; it must have room for all of them.  With
 * IB_SRQ_LIMIT in @mask the new limit is set in the same step.
 */
static int rvt_resize_srq(struct rvt_srq *srq, struct ib_srq_attr *attr,
			  enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(srq->ibsrq.device);
	struct rvt_mmap_entry *entry = NULL;
	struct rvt_rq *rq = &srq->rq;
	u32 size = attr->max_wr + 1, n, i;
	struct rvt_rwq *wq = NULL;
	unsigned long flags;
	void *wqes, *old;
	int ret = 0;

	if (!attr->max_wr || attr->max_wr > rdi->dparms.props.max_srq_wr)
		return -EINVAL;
	if ((mask & IB_SRQ_LIMIT) && attr->srq_limit >= attr->max_wr)
		return -EINVAL;
	if (rq->drv_ring) {
		if (!rdi->driver_f.resize_user_srq)
			return -EOPNOTSUPP;
		/* the driver moves the requests over under rq->lock */
		ret = rdi->driver_f.resize_user_srq(srq, attr->max_wr, udata);
		if (!ret && (mask & IB_SRQ_LIMIT)) {
			spin_lock_irqsave(&rq->lock, flags);
			srq->limit = attr->srq_limit;
			spin_unlock_irqrestore(&rq->lock, flags);
		}
		return ret;
	}
	if (rq->wq) {
		wq = rvt_resize_srq_user(rq, size, udata, &entry);
		if (IS_ERR(wq))
			return PTR_ERR(wq);
		wqes = wq->wq;
	} else {
		wqes = vzalloc(array_size(size, rq->stride));
		if (!wqes)
			return -ENOMEM;
	}

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
	if (wq) {
		swap(rq->mmap, entry);
		rq->wq = wq;
	}
	rq_set_tail(rq, 0);
	rq_set_head(rq, n);
	wqes = old;
	if (mask & IB_SRQ_LIMIT)
		srq->limit = attr->srq_limit;
unlock:
	spin_unlock_irqrestore(&rq->lock, flags);
	/* the ring not used: the new one on failure, else the old one */
	if (wq)
		rvt_mmap_remove(entry);
	else
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
		return rvt_resize_srq(srq, attr, attr_mask, udata);
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
	struct rvt_srq *srq = to_rvt_srq(ibsrq);

	if (srq->rq.drv_ring)
		srq->rq.rdi->driver_f.destroy_user_srq(srq);
	rvt_rq_free(&srq->rq);
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
