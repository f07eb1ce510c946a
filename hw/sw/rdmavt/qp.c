// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt queue pairs, shared receive queues and the work request engine.
 *
 * Posting copies a work request into the QP's send or receive ring.  Each
 * QP has a send engine (a work item on the device's workqueue) that takes
 * the send ring in order and executes each request against the
 * destination QP, which it finds through the driver (LID -> device) and
 * the device's QP table:
 *
 *  - SEND consumes a receive request of the destination (RQ or SRQ) and
 *    copies the gather list into its scatter list;
 *  - RDMA WRITE and READ copy between the local SGEs and the remote MR
 *    the rkey names, after the key and access checks;
 *  - atomics operate on 8 aligned bytes under one lock of rdmavt;
 *  - REG_MR and LOCAL_INV change a local MR.
 *
 * An RC request that finds no receive request waits and retries
 * (min_rnr_timer, rnr_retry times; 7 is for ever) and then fails with
 * IB_WC_RNR_RETRY_EXC_ERR.  Errors complete the request with the status
 * IBTA gives it (local: LOC_*, detected by the responder: REM_* on the
 * requester and the responder's own QP goes to the error state), and move
 * the QP to the error state, which flushes everything posted
 * (IB_WC_WR_FLUSH_ERR) and what is posted later.
 *
 * Locks: qp->state_lock protects the state and attributes, qp->sq_lock
 * the send ring, rq->lock a receive ring.  The engine of a QP never runs
 * twice at a time (one work item) and takes no two of these locks
 * together, so QPs sending to each other cannot deadlock.
 */

#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

/* serialises the atomic operations of every rdmavt device */
static DEFINE_SPINLOCK(rvt_atomic_lock);

/* ------------------------------------------------------------------
 * Receive rings
 */

static int rvt_rq_init(struct rvt_rq *rq, u32 max_wr, u32 max_sge)
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

static u32 rq_count(struct rvt_rq *rq)
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

	spin_lock_irqsave(&rq->lock, flags);
	next = rq->head + 1 == rq->size ? 0 : rq->head + 1;
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

/* Take the oldest receive request into @out (room for RVT_MAX_SGE). */
static bool rvt_rq_take(struct rvt_rq *rq, struct rvt_rwqe *out, u32 *left)
{
	struct rvt_rwqe *wqe;
	unsigned long flags;

	spin_lock_irqsave(&rq->lock, flags);
	if (rq->tail == rq->head) {
		spin_unlock_irqrestore(&rq->lock, flags);
		return false;
	}
	wqe = rq_slot(rq, rq->tail);
	out->wr_id = wqe->wr_id;
	out->num_sge = wqe->num_sge;
	memcpy(out->sg_list, wqe->sg_list,
	       wqe->num_sge * sizeof(struct ib_sge));
	rq->tail = rq->tail + 1 == rq->size ? 0 : rq->tail + 1;
	if (left)
		*left = rq_count(rq);
	spin_unlock_irqrestore(&rq->lock, flags);
	return true;
}

/* ------------------------------------------------------------------
 * QP table
 */

/**
 * rvt_lookup_qpn - find a QP by number and reference it
 * @rdi: the device
 * @qpn: the QP number (0 and 1 are the SMI and GSI QPs of port 1)
 *
 * Return: the QP (release with rvt_put_qp()) or NULL.
 */
struct rvt_qp *rvt_lookup_qpn(struct rvt_dev_info *rdi, u32 qpn)
{
	struct rvt_qp *qp;
	unsigned long flags;

	xa_lock_irqsave(&rdi->qp_table, flags);
	qp = xa_load(&rdi->qp_table, qpn);
	if (qp && !refcount_inc_not_zero(&qp->refcount))
		qp = NULL;
	xa_unlock_irqrestore(&rdi->qp_table, flags);
	return qp;
}
EXPORT_SYMBOL(rvt_lookup_qpn);

/**
 * rvt_put_qp - drop a reference from rvt_lookup_qpn()
 * @qp: the QP
 */
void rvt_put_qp(struct rvt_qp *qp)
{
	if (refcount_dec_and_test(&qp->refcount))
		wake_up(&qp->wait);
}
EXPORT_SYMBOL(rvt_put_qp);

/**
 * rvt_qp_iter_init - start a walk over the QPs of a device
 * @rdi: the device
 * @v: a value handed to @cb
 * @cb: called for each QP by rvt_qp_iter(); may be NULL for walks with
 *	rvt_qp_iter_next()
 *
 * Return: the iterator (free it with kfree() after the walk ended), or
 * NULL when out of memory.
 */
struct rvt_qp_iter *rvt_qp_iter_init(struct rvt_dev_info *rdi, u64 v,
				     void (*cb)(struct rvt_qp *qp, u64 v))
{
	struct rvt_qp_iter *iter = kzalloc(sizeof(*iter), GFP_KERNEL);

	if (!iter)
		return NULL;
	iter->rdi = rdi;
	iter->v = v;
	iter->cb = cb;
	return iter;
}
EXPORT_SYMBOL(rvt_qp_iter_init);

/**
 * rvt_qp_iter_next - step to the next QP of a walk
 * @iter: the iterator
 *
 * Visits every QP of the device in QP number order, the special QPs (0
 * and 1) included, holding a reference on the current one (iter->qp)
 * until the next step.  QPs created or destroyed during the walk may or
 * may not be seen.  A walk stopped early must drop the reference with
 * rvt_put_qp(iter->qp).
 *
 * Return: 0 with iter->qp valid, 1 when there are no more QPs (iter->qp
 * is then NULL).
 */
int rvt_qp_iter_next(struct rvt_qp_iter *iter)
{
	struct rvt_dev_info *rdi = iter->rdi;
	struct rvt_qp *prev = iter->qp, *qp;
	unsigned long flags;

	xa_lock_irqsave(&rdi->qp_table, flags);
	for (;;) {
		if (!iter->started)
			qp = xa_find(&rdi->qp_table, &iter->n, ULONG_MAX,
				     XA_PRESENT);
		else
			qp = xa_find_after(&rdi->qp_table, &iter->n, ULONG_MAX,
					   XA_PRESENT);
		iter->started = true;
		/* skip a QP that is being destroyed */
		if (!qp || refcount_inc_not_zero(&qp->refcount))
			break;
	}
	xa_unlock_irqrestore(&rdi->qp_table, flags);

	iter->qp = qp;
	if (prev)
		rvt_put_qp(prev);
	return qp ? 0 : 1;
}
EXPORT_SYMBOL(rvt_qp_iter_next);

/**
 * rvt_qp_iter - call a function for every QP of a device
 * @rdi: the device
 * @v: a value handed to @cb
 * @cb: called with each QP, referenced during the call; may sleep
 *
 * Walks as rvt_qp_iter_next() does, with an iterator of its own on the
 * stack.
 */
void rvt_qp_iter(struct rvt_dev_info *rdi, u64 v,
		 void (*cb)(struct rvt_qp *qp, u64 v))
{
	struct rvt_qp_iter i = {
		.rdi = rdi,
		.v = v,
		.cb = cb,
	};

	while (!rvt_qp_iter_next(&i))
		i.cb(i.qp, i.v);
}
EXPORT_SYMBOL(rvt_qp_iter);

/* ------------------------------------------------------------------
 * Completions and errors
 */

static struct rvt_cq *send_cq(struct rvt_qp *qp)
{
	return container_of(qp->ibqp.send_cq, struct rvt_cq, ibcq);
}

static struct rvt_cq *recv_cq(struct rvt_qp *qp)
{
	return container_of(qp->ibqp.recv_cq, struct rvt_cq, ibcq);
}

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
 * or UC request reaches a responder still in RTR.
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

static void rvt_flush_rq(struct rvt_qp *qp)
{
	struct {
		struct rvt_rwqe w;
		struct ib_sge sge[RVT_MAX_SGE];
	} r;
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};

	if (qp->ibqp.srq)
		return;
	while (rvt_rq_take(&qp->rq, &r.w, NULL)) {
		wc.wr_id = r.w.wr_id;
		rvt_cq_enter(recv_cq(qp), &wc, true);
	}
}

/**
 * rvt_error_qp - move a QP to the error state
 * @qp: the QP
 * @err: the status that caused it (for the record)
 *
 * Flushes the receive queue now and the send queue through the engine.
 * A QP on an SRQ gets IB_EVENT_QP_LAST_WQE_REACHED.
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

	rvt_flush_rq(qp);
	if (qp->ibqp.srq)
		rvt_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
	mod_delayed_work(qp->rdi->wq, &qp->send_work, 0);
	return 1;
}
EXPORT_SYMBOL(rvt_error_qp);

static enum ib_wc_opcode wc_opcode(enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	default:
		return IB_WC_SEND;
	}
}

static void rvt_send_complete(struct rvt_qp *qp, struct rvt_swqe *wqe,
			      enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr.wr_id,
		.status = status,
		.opcode = wc_opcode(wqe->wr.opcode),
		.qp = &qp->ibqp,
	};

	/* errors always complete; successes only when signaled */
	if (status == IB_WC_SUCCESS && !qp->sq_sig_all &&
	    !(wqe->wr.send_flags & IB_SEND_SIGNALED))
		return;
	if (wqe->wr.opcode == IB_WR_RDMA_READ)
		wc.byte_len = wqe->length;
	else if (wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
		 wqe->wr.opcode == IB_WR_ATOMIC_FETCH_AND_ADD)
		wc.byte_len = sizeof(u64);
	rvt_cq_enter(send_cq(qp), &wc, false);
}

/* ------------------------------------------------------------------
 * Copying
 */

/* A local SGE list resolved to MRs (or inline data). */
struct rvt_sgl {
	const struct ib_sge	*sge;
	u32			num_sge;
	struct rvt_mr		*mr[RVT_MAX_SGE];
	const u8		*inline_data;
	u32			length;
};

static void rvt_sgl_put(struct rvt_sgl *s)
{
	u32 i;

	for (i = 0; i < s->num_sge; i++)
		if (s->mr[i])
			rvt_put_mr(s->mr[i]);
	s->num_sge = 0;
}

static int rvt_sgl_get(struct rvt_qp *qp, struct rvt_sgl *s,
		       const struct ib_sge *sge, u32 num_sge, int access)
{
	u32 i;

	s->sge = sge;
	s->num_sge = 0;
	s->inline_data = NULL;
	s->length = 0;
	for (i = 0; i < num_sge; i++) {
		if (rvt_lkey_ok(qp->rdi, qp->ibqp.pd, &sge[i], access,
				&s->mr[i])) {
			s->num_sge = i;
			rvt_sgl_put(s);
			return -EINVAL;
		}
		s->num_sge = i + 1;
		s->length += sge[i].length;
	}
	return 0;
}

/*
 * A cursor over bytes to copy: a resolved SGE list (or the inline data
 * that stands for one), a range of an MR, or a kernel buffer.  Copies go
 * straight from one cursor to the other, a contiguous piece at a time:
 * no bounce buffer, no allocation in the data path.
 */
struct rvt_cursor {
	struct rvt_sgl	*sgl;	/* an SGE list or inline data, or NULL */
	struct rvt_mr	*mr;	/* an MR range, or NULL */
	u8		*buf;	/* a kernel buffer, or NULL */
	u64		addr;	/* MR: the next address */
	u32		i;	/* SGE list: the current entry */
	u32		off;	/* SGE list: offset in entry @i; else from start */
};

/* The address at @c and the bytes that follow it contiguously. */
static void *rvt_cur_va(struct rvt_cursor *c, u32 *contig)
{
	struct rvt_sgl *s = c->sgl;
	const struct ib_sge *sge;
	void *va;
	u32 n;

	if (c->mr)
		return rvt_mr_va(c->mr, c->addr, contig);
	if (c->buf) {
		*contig = U32_MAX;
		return c->buf + c->off;
	}
	if (s->inline_data) {
		*contig = s->length - c->off;
		return (void *)(s->inline_data + c->off);
	}
	/* empty and used up entries have nothing to give */
	while (c->i < s->num_sge && c->off == s->sge[c->i].length) {
		c->i++;
		c->off = 0;
	}
	if (c->i == s->num_sge) {
		*contig = 0;
		return NULL;
	}
	sge = &s->sge[c->i];
	va = rvt_mr_va(s->mr[c->i], sge->addr + c->off, &n);
	*contig = min(n, sge->length - c->off);
	return va;
}

static void rvt_cur_skip(struct rvt_cursor *c, u32 n)
{
	struct rvt_sgl *s = c->sgl;

	if (c->mr) {
		c->addr += n;
		return;
	}
	if (c->buf || s->inline_data) {
		c->off += n;
		return;
	}
	while (n && c->i < s->num_sge) {
		u32 step = min(n, s->sge[c->i].length - c->off);

		c->off += step;
		n -= step;
		if (c->off == s->sge[c->i].length) {
			c->i++;
			c->off = 0;
		}
	}
}

/* Copy @len bytes from @src to @dst; the callers checked both hold them. */
static void rvt_cur_copy(struct rvt_cursor *dst, struct rvt_cursor *src,
			 u32 len)
{
	while (len) {
		u32 dn, sn, n;
		void *d = rvt_cur_va(dst, &dn);
		const void *from = rvt_cur_va(src, &sn);

		n = min3(len, dn, sn);
		if (WARN_ON_ONCE(!n))
			return;
		memcpy(d, from, n);
		rvt_cur_skip(dst, n);
		rvt_cur_skip(src, n);
		len -= n;
	}
}

/* Copy @len bytes between @buf and a resolved SGE list from byte @skip. */
static void rvt_sgl_xfer(struct rvt_sgl *s, u32 skip, u8 *buf, u32 len,
			 bool to_sgl)
{
	struct rvt_cursor c = { .sgl = s }, b = { .buf = buf };

	if (to_sgl && s->inline_data)
		return;		/* inline data is a source only */
	rvt_cur_skip(&c, skip);
	if (to_sgl)
		rvt_cur_copy(&c, &b, len);
	else
		rvt_cur_copy(&b, &c, len);
}

/* Copy @len bytes from @src to @dst (at byte @dst_skip of it). */
static noinline_for_stack void rvt_copy(struct rvt_sgl *dst, u32 dst_skip,
					struct rvt_sgl *src, u32 len)
{
	struct rvt_cursor d = { .sgl = dst }, from = { .sgl = src };

	rvt_cur_skip(&d, dst_skip);
	rvt_cur_copy(&d, &from, len);
}

/* Copy between a local SGE list and a remote MR range. */
static void rvt_copy_mr(struct rvt_sgl *local, struct rvt_mr *mr, u64 raddr,
			u32 len, bool to_mr)
{
	struct rvt_cursor l = { .sgl = local }, m = { .mr = mr, .addr = raddr };

	if (to_mr)
		rvt_cur_copy(&m, &l, len);
	else
		rvt_cur_copy(&l, &m, len);
}

/* ------------------------------------------------------------------
 * The engine
 */

/* Result of executing one request. */
enum rvt_exec {
	RVT_DONE,	/* complete with the status given */
	RVT_RNR,	/* no receive request at the responder: retry later */
};

static u32 rvt_port_lid(struct rvt_dev_info *rdi, u32 port)
{
	return rdi->dparms.lid[port - 1];
}

static struct rvt_qp *rvt_find_dest(struct rvt_qp *qp, struct rvt_swqe *wqe)
{
	struct rvt_dev_info *rdi = qp->rdi, *dest;
	struct rvt_qp *dqp;
	u32 dlid, dqpn;

	if (qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI ||
	    qp->ibqp.qp_type == IB_QPT_SMI) {
		struct rvt_ah *ah = container_of(wqe->ud_wr.ah, struct rvt_ah,
						 ibah);

		dlid = rdma_ah_get_dlid(&ah->attr);
		dqpn = wqe->ud_wr.remote_qpn;
	} else {
		dlid = rdma_ah_get_dlid(&qp->ah_attr);
		dqpn = qp->dest_qpn;
	}

	/*
	 * The driver unlinks a device and waits for RCU readers before it
	 * frees it: the device found stays valid until its QP is referenced.
	 */
	rcu_read_lock();
	if (!dlid || dlid == rvt_port_lid(rdi, qp->port_num))
		dest = rdi;
	else
		dest = rdi->driver_f.find_dev_by_lid(rdi, qp->port_num, dlid);
	dqp = dest ? rvt_lookup_qpn(dest, dqpn) : NULL;
	rcu_read_unlock();
	return dqp;
}

/* May the responder QP take a request of @qp now? */
static bool rvt_responder_ok(struct rvt_qp *qp, struct rvt_qp *dqp)
{
	enum ib_qp_state s = READ_ONCE(dqp->state);

	if (s != IB_QPS_RTR && s != IB_QPS_RTS && s != IB_QPS_SQD)
		return false;
	if (dqp->ibqp.qp_type != qp->ibqp.qp_type &&
	    !(qp->ibqp.qp_type == IB_QPT_UD &&
	      dqp->ibqp.qp_type == IB_QPT_GSI) &&
	    !(qp->ibqp.qp_type == IB_QPT_GSI &&
	      dqp->ibqp.qp_type == IB_QPT_UD))
		return false;
	if (qp->ibqp.qp_type == IB_QPT_RC || qp->ibqp.qp_type == IB_QPT_UC)
		return dqp->dest_qpn == qp->ibqp.qp_num;
	return true;
}

static bool rvt_take_rwqe(struct rvt_qp *dqp, struct rvt_rwqe *out)
{
	struct rvt_srq *srq;
	u32 left;

	if (!dqp->ibqp.srq)
		return rvt_rq_take(&dqp->rq, out, NULL);

	srq = container_of(dqp->ibqp.srq, struct rvt_srq, ibsrq);
	if (!rvt_rq_take(&srq->rq, out, &left))
		return false;
	if (srq->limit && left < srq->limit) {
		struct ib_event ev = {
			.device = srq->ibsrq.device,
			.element.srq = &srq->ibsrq,
			.event = IB_EVENT_SRQ_LIMIT_REACHED,
		};

		srq->limit = 0;	/* one event per arming */
		if (srq->ibsrq.event_handler)
			srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	return true;
}

/*
 * A datagram sent through an AH with a GRH arrives with that GRH in the
 * first 40 bytes of the receive buffer (the space is reserved whether or
 * not one came).  Returns true when it wrote one.
 */
static noinline_for_stack bool
rvt_put_grh(struct rvt_qp *qp, struct rvt_swqe *wqe, struct rvt_sgl *dst)
{
	const struct rdma_ah_attr *attr =
		&container_of(wqe->ud_wr.ah, struct rvt_ah, ibah)->attr;
	const struct ib_global_route *route;
	struct rvt_dev_info *rdi = qp->rdi;
	struct ib_grh grh = {};
	u32 paylen;

	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return false;
	route = rdma_ah_read_grh(attr);

	/* BTH, DETH, the payload padded to 4 bytes, optional ImmDt, ICRC */
	paylen = 12 + 8 + ALIGN(wqe->length, 4) + 4;
	if (wqe->wr.opcode == IB_WR_SEND_WITH_IMM)
		paylen += 4;
	grh.version_tclass_flow = cpu_to_be32(6U << 28 |
					      (u32)route->traffic_class << 20 |
					      (route->flow_label & 0xfffff));
	grh.paylen = cpu_to_be16(paylen);
	grh.next_hdr = RVT_GRH_NEXT_HDR;
	grh.hop_limit = route->hop_limit;
	/* the sender's port GID (rdmavt ports have one, at index 0) */
	grh.sgid.global.subnet_prefix = cpu_to_be64(rdi->dparms.gid_prefix);
	grh.sgid.global.interface_id =
		cpu_to_be64(be64_to_cpu(rdi->ibdev.node_guid) + qp->port_num);
	grh.dgid = route->dgid;
	rvt_sgl_xfer(dst, 0, (u8 *)&grh, sizeof(grh), true);
	return true;
}

/*
 * A receive request at the responder: SEND and WRITE_WITH_IMM.  Fills
 * @wc for the responder; returns the requester's status, or RVT_RNR in
 * *rnr when there was no receive request.
 */
static enum ib_wc_status rvt_do_recv(struct rvt_qp *qp, struct rvt_qp *dqp,
				     struct rvt_swqe *wqe,
				     struct rvt_sgl *src, bool *rnr,
				     bool *dqp_err)
{
	struct {
		struct rvt_rwqe w;
		struct ib_sge sge[RVT_MAX_SGE];
	} r;
	bool ud = qp->ibqp.qp_type != IB_QPT_RC &&
		  qp->ibqp.qp_type != IB_QPT_UC;
	u32 skip = ud ? RVT_GRH_BYTES : 0;
	enum ib_wr_opcode op = wqe->wr.opcode;
	bool is_send = op != IB_WR_RDMA_WRITE_WITH_IMM;
	struct ib_wc wc = {};
	struct rvt_sgl dst;

	if (!rvt_take_rwqe(dqp, &r.w)) {
		*rnr = true;
		return IB_WC_SUCCESS;
	}

	wc.wr_id = r.w.wr_id;
	wc.qp = &dqp->ibqp;
	wc.src_qp = qp->ibqp.qp_num;
	wc.slid = rvt_port_lid(qp->rdi, qp->port_num);
	wc.port_num = dqp->port_num;
	wc.pkey_index = dqp->pkey_index;
	wc.opcode = is_send ? IB_WC_RECV : IB_WC_RECV_RDMA_WITH_IMM;
	wc.byte_len = wqe->length + skip;
	if (op == IB_WR_SEND_WITH_IMM || op == IB_WR_RDMA_WRITE_WITH_IMM) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = wqe->wr.ex.imm_data;
	}

	if (is_send) {
		if (rvt_sgl_get(dqp, &dst, r.w.sg_list, r.w.num_sge,
				IB_ACCESS_LOCAL_WRITE)) {
			wc.status = IB_WC_LOC_PROT_ERR;
			goto err;
		}
		if (dst.length < wqe->length + skip) {
			rvt_sgl_put(&dst);
			wc.status = IB_WC_LOC_LEN_ERR;
			goto err;
		}
		rvt_copy(&dst, skip, src, wqe->length);
		if (ud && rvt_put_grh(qp, wqe, &dst))
			wc.wc_flags |= IB_WC_GRH;
		rvt_sgl_put(&dst);
	}

	if (op == IB_WR_SEND_WITH_INV) {
		if (rvt_invalidate_rkey(dqp, wqe->wr.ex.invalidate_rkey)) {
			wc.status = IB_WC_REM_INV_REQ_ERR;
			goto err;
		}
		wc.wc_flags |= IB_WC_WITH_INVALIDATE;
		wc.ex.invalidate_rkey = wqe->wr.ex.invalidate_rkey;
	}

	rvt_cq_enter(recv_cq(dqp), &wc, wqe->wr.send_flags & IB_SEND_SOLICITED);
	return IB_WC_SUCCESS;

err:
	rvt_cq_enter(recv_cq(dqp), &wc, true);
	if (ud)
		return IB_WC_SUCCESS;	/* the sender of a datagram never knows */
	*dqp_err = true;
	if (wc.status == IB_WC_LOC_LEN_ERR)
		return IB_WC_REM_INV_REQ_ERR;
	return IB_WC_REM_OP_ERR;
}

static enum ib_wc_status rvt_do_rdma(struct rvt_qp *qp, struct rvt_qp *dqp,
				     struct rvt_swqe *wqe,
				     struct rvt_sgl *local, bool *dqp_err)
{
	bool write = wqe->wr.opcode != IB_WR_RDMA_READ;
	int access = write ? IB_ACCESS_REMOTE_WRITE : IB_ACCESS_REMOTE_READ;
	struct rvt_mr *mr = NULL;

	if (!(dqp->qp_access_flags & access)) {
		*dqp_err = true;
		return IB_WC_REM_ACCESS_ERR;
	}
	if (wqe->length) {
		if (rvt_rkey_ok(dqp->rdi, dqp->ibqp.pd, wqe->rdma_wr.remote_addr,
				wqe->rdma_wr.rkey, wqe->length, access, &mr)) {
			*dqp_err = true;
			return IB_WC_REM_ACCESS_ERR;
		}
		rvt_copy_mr(local, mr, wqe->rdma_wr.remote_addr, wqe->length,
			    write);
		rvt_put_mr(mr);
	}
	return IB_WC_SUCCESS;
}

static enum ib_wc_status rvt_do_atomic(struct rvt_qp *qp, struct rvt_qp *dqp,
				       struct rvt_swqe *wqe,
				       struct rvt_sgl *local, bool *dqp_err)
{
	const struct ib_atomic_wr *aw = &wqe->atomic_wr;
	struct rvt_mr *mr;
	u64 *target, old;
	u32 contig;

	if (!(dqp->qp_access_flags & IB_ACCESS_REMOTE_ATOMIC) ||
	    (aw->remote_addr & 7)) {
		*dqp_err = true;
		return IB_WC_REM_ACCESS_ERR;
	}
	if (rvt_rkey_ok(dqp->rdi, dqp->ibqp.pd, aw->remote_addr, aw->rkey,
			sizeof(u64), IB_ACCESS_REMOTE_ATOMIC, &mr)) {
		*dqp_err = true;
		return IB_WC_REM_ACCESS_ERR;
	}
	target = rvt_mr_va(mr, aw->remote_addr, &contig);

	spin_lock(&rvt_atomic_lock);
	old = *target;
	if (wqe->wr.opcode == IB_WR_ATOMIC_CMP_AND_SWP) {
		if (old == aw->compare_add)
			*target = aw->swap;
	} else {
		*target = old + aw->compare_add;
	}
	spin_unlock(&rvt_atomic_lock);
	rvt_put_mr(mr);

	rvt_sgl_xfer(local, 0, (u8 *)&old, sizeof(old), true);
	return IB_WC_SUCCESS;
}

/* A connected QP (RC, UC): no Q_Key, a responder of its own. */
static bool rvt_connected(struct rvt_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_RC || qp->ibqp.qp_type == IB_QPT_UC;
}

/* A multicast datagram on its way to the members of a group. */
struct rvt_mcast_send {
	struct rvt_qp		*qp;
	struct rvt_swqe		*wqe;
	struct rvt_sgl		*src;
};

/* One member of the group gets the datagram (atomic context). */
static void rvt_mcast_recv(struct rvt_qp *dqp, void *arg)
{
	struct rvt_mcast_send *ms = arg;
	bool rnr = false, dqp_err = false;
	u32 qkey = ms->wqe->ud_wr.remote_qkey;

	if (!rvt_responder_ok(ms->qp, dqp))
		return;
	if (qkey & 0x80000000)
		qkey = ms->qp->qkey;
	if (qkey != dqp->qkey)
		return;
	/* a member without a receive request drops it, as UD does */
	rvt_do_recv(ms->qp, dqp, ms->wqe, ms->src, &rnr, &dqp_err);
}

/* Execute one request: the requester's status, or RVT_RNR. */
static enum rvt_exec rvt_exec_wqe(struct rvt_qp *qp, struct rvt_swqe *wqe,
				  enum ib_wc_status *status)
{
	enum ib_wr_opcode op = wqe->wr.opcode;
	bool reliable = qp->ibqp.qp_type == IB_QPT_RC;
	bool rnr = false, dqp_err = false;
	struct rvt_sgl local = {};
	struct rvt_qp *dqp;
	int access = 0;

	*status = IB_WC_SUCCESS;

	/* local operations */
	if (op == IB_WR_REG_MR) {
		if (rvt_fast_reg_mr(qp, wqe->reg_wr.mr, wqe->reg_wr.key,
				    wqe->reg_wr.access))
			*status = IB_WC_LOC_QP_OP_ERR;
		return RVT_DONE;
	}
	if (op == IB_WR_LOCAL_INV) {
		if (rvt_invalidate_rkey(qp, wqe->wr.ex.invalidate_rkey))
			*status = IB_WC_LOC_QP_OP_ERR;
		return RVT_DONE;
	}

	/* the gather (or, for READ and atomics, scatter) list */
	if (op == IB_WR_RDMA_READ || op == IB_WR_ATOMIC_CMP_AND_SWP ||
	    op == IB_WR_ATOMIC_FETCH_AND_ADD)
		access = IB_ACCESS_LOCAL_WRITE;
	if (wqe->is_inline) {
		local.inline_data = (const u8 *)&wqe->sg_list[qp->max_send_sge];
		local.length = wqe->length;
	} else if (rvt_sgl_get(qp, &local, wqe->sg_list, wqe->wr.num_sge,
			       access)) {
		*status = IB_WC_LOC_PROT_ERR;
		return RVT_DONE;
	}
	if ((op == IB_WR_ATOMIC_CMP_AND_SWP ||
	     op == IB_WR_ATOMIC_FETCH_AND_ADD) && local.length != sizeof(u64)) {
		rvt_sgl_put(&local);
		*status = IB_WC_LOC_LEN_ERR;
		return RVT_DONE;
	}

	if (!reliable && qp->ibqp.qp_type != IB_QPT_UC &&
	    (op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM)) {
		struct rvt_mcast_send ms = { .qp = qp, .wqe = wqe,
					     .src = &local };
		struct rvt_ah *ah = container_of(wqe->ud_wr.ah, struct rvt_ah,
						 ibah);

		/* the sender never hears how the members fared */
		if (rvt_mcast_deliver(qp, &ah->attr, rvt_mcast_recv, &ms)) {
			rvt_sgl_put(&local);
			return RVT_DONE;
		}
	}

	dqp = rvt_find_dest(qp, wqe);
	if (!dqp || !rvt_responder_ok(qp, dqp)) {
		/* nobody answers: a datagram is lost, RC gives up */
		if (reliable)
			*status = IB_WC_RETRY_EXC_ERR;
		goto out_put;
	}

	/* UD: a Q_Key with the high bit set means "use the QP's own" */
	if (!reliable && qp->ibqp.qp_type != IB_QPT_UC) {
		u32 qkey = wqe->ud_wr.remote_qkey;

		if (qkey & 0x80000000)
			qkey = qp->qkey;
		if (qkey != dqp->qkey)
			goto out_put;	/* dropped silently */
	}

	/* the first request a connected responder sees in RTR */
	if (rvt_connected(qp) && READ_ONCE(dqp->state) == IB_QPS_RTR)
		rvt_comm_est(dqp);

	switch (op) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
		*status = rvt_do_recv(qp, dqp, wqe, &local, &rnr, &dqp_err);
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		/* the receive request must be there before the data lands */
		if (!READ_ONCE(dqp->ibqp.srq) && !rq_count(&dqp->rq)) {
			rnr = true;
			break;
		}
		fallthrough;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
		*status = rvt_do_rdma(qp, dqp, wqe, &local, &dqp_err);
		if (*status == IB_WC_SUCCESS && op == IB_WR_RDMA_WRITE_WITH_IMM)
			*status = rvt_do_recv(qp, dqp, wqe, &local, &rnr,
					      &dqp_err);
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		*status = rvt_do_atomic(qp, dqp, wqe, &local, &dqp_err);
		break;
	default:
		*status = IB_WC_LOC_QP_OP_ERR;
		break;
	}

	if (!reliable) {
		/* an unreliable requester never hears of remote trouble */
		if (rnr || dqp_err || *status != IB_WC_LOC_QP_OP_ERR)
			*status = IB_WC_SUCCESS;
		rnr = false;
		if (dqp_err && qp->ibqp.qp_type == IB_QPT_UC)
			rvt_error_qp(dqp, IB_WC_REM_OP_ERR);
	} else if (dqp_err) {
		rvt_error_qp(dqp, *status);
	}
out_put:
	if (dqp)
		rvt_put_qp(dqp);
	rvt_sgl_put(&local);
	return rnr ? RVT_RNR : RVT_DONE;
}

static struct rvt_swqe *sq_slot(struct rvt_qp *qp, u32 i)
{
	return qp->sq + (size_t)i * qp->sq_stride;
}

/* RNR NAK timer (IBTA table 45, simplified) in milliseconds */
static unsigned long rvt_rnr_delay(struct rvt_qp *qp)
{
	return msecs_to_jiffies(1 + qp->min_rnr_timer);
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

static void rvt_do_send(struct work_struct *work)
{
	struct rvt_qp *qp = container_of(to_delayed_work(work), struct rvt_qp,
					 send_work);
	enum ib_wc_status status;
	struct rvt_swqe *wqe;
	enum ib_qp_state state;
	unsigned long flags;

	for (;;) {
		/* requests execute whole: at SQD nothing is in flight */
		state = READ_ONCE(qp->state);
		if (state == IB_QPS_SQD) {
			rvt_sq_drained(qp);
			return;
		}

		spin_lock_irqsave(&qp->sq_lock, flags);
		if (qp->sq_tail == qp->sq_head) {
			spin_unlock_irqrestore(&qp->sq_lock, flags);
			return;
		}
		wqe = sq_slot(qp, qp->sq_tail);
		spin_unlock_irqrestore(&qp->sq_lock, flags);

		if (state == IB_QPS_ERR) {
			status = IB_WC_WR_FLUSH_ERR;
		} else if (state != IB_QPS_RTS) {
			/* SQE and the others: hold the queue */
			return;
		} else if (rvt_exec_wqe(qp, wqe, &status) == RVT_RNR) {
			if (qp->rnr_left < 0)
				qp->rnr_left = qp->rnr_retry;
			if (qp->rnr_retry == 7 || qp->rnr_left-- > 0) {
				queue_delayed_work(qp->rdi->wq, &qp->send_work,
						   rvt_rnr_delay(qp));
				return;
			}
			status = IB_WC_RNR_RETRY_EXC_ERR;
		}
		qp->rnr_left = -1;

		rvt_send_complete(qp, wqe, status);
		spin_lock_irqsave(&qp->sq_lock, flags);
		qp->sq_tail = qp->sq_tail + 1 == qp->sq_size ? 0 :
			qp->sq_tail + 1;
		spin_unlock_irqrestore(&qp->sq_lock, flags);

		if (status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR)
			rvt_error_qp(qp, status);
		cond_resched();
	}
}

/* ------------------------------------------------------------------
 * Verbs
 */

static bool rvt_qpt_ok(enum ib_qp_type type)
{
	return type == IB_QPT_RC || type == IB_QPT_UC || type == IB_QPT_UD ||
	       type == IB_QPT_GSI || type == IB_QPT_SMI;
}

int rvt_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init_attr,
		  struct ib_udata *udata)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	struct rvt_dev_info *rdi = ib_to_rvt(ibqp->device);
	struct ib_device_attr *props = &rdi->dparms.props;
	struct ib_qp_cap *cap = &init_attr->cap;
	u32 qpn;
	int ret;

	if (udata)
		return -EOPNOTSUPP;
	if (!rvt_qpt_ok(init_attr->qp_type) || init_attr->create_flags)
		return -EOPNOTSUPP;
	if (!init_attr->send_cq || (!init_attr->recv_cq && !init_attr->srq))
		return -EINVAL;
	if (cap->max_send_wr > props->max_qp_wr ||
	    cap->max_recv_wr > props->max_qp_wr ||
	    cap->max_send_sge > props->max_send_sge ||
	    cap->max_recv_sge > props->max_recv_sge ||
	    cap->max_inline_data > RVT_MAX_INLINE)
		return -EINVAL;
	if ((init_attr->qp_type == IB_QPT_GSI ||
	     init_attr->qp_type == IB_QPT_SMI) &&
	    !rdma_is_port_valid(ibqp->device, init_attr->port_num))
		return -EINVAL;

	if (!cap->max_send_wr)
		cap->max_send_wr = 1;
	if (!cap->max_send_sge)
		cap->max_send_sge = 1;
	if (!cap->max_recv_sge)
		cap->max_recv_sge = 1;

	qp->rdi = rdi;
	qp->state = IB_QPS_RESET;
	qp->sq_sig_all = init_attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->max_send_sge = cap->max_send_sge;
	qp->max_inline = cap->max_inline_data;
	qp->rnr_left = -1;
	qp->port_num = init_attr->port_num ?: 1;
	refcount_set(&qp->refcount, 1);
	init_waitqueue_head(&qp->wait);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->sq_lock);
	INIT_DELAYED_WORK(&qp->send_work, rvt_do_send);

	qp->sq_size = cap->max_send_wr + 1;
	qp->sq_stride = struct_size_t(struct rvt_swqe, sg_list,
				      qp->max_send_sge) + qp->max_inline;
	qp->sq = vzalloc(array_size(qp->sq_size, qp->sq_stride));
	if (!qp->sq)
		return -ENOMEM;

	if (!init_attr->srq) {
		ret = rvt_rq_init(&qp->rq, cap->max_recv_wr,
				  cap->max_recv_sge);
		if (ret)
			goto err_sq;
	} else {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
	}

	spin_lock(&rdi->n_lock);
	if (rdi->n_qps >= props->max_qp) {
		spin_unlock(&rdi->n_lock);
		ret = -ENOMEM;
		goto err_rq;
	}
	rdi->n_qps++;
	spin_unlock(&rdi->n_lock);

	if (init_attr->qp_type == IB_QPT_SMI ||
	    init_attr->qp_type == IB_QPT_GSI) {
		/* one per port; only port 1 is reachable by number */
		qpn = init_attr->qp_type == IB_QPT_GSI ? 1 : 0;
		ret = xa_insert_irq(&rdi->qp_table, qpn, qp, GFP_KERNEL);
		if (ret == -EBUSY)
			ret = -EEXIST;
	} else {
		ret = xa_alloc_cyclic_irq(&rdi->qp_table, &qpn, qp,
					  XA_LIMIT(2, IB_QPN_MASK),
					  &rdi->next_qpn, GFP_KERNEL);
		if (ret > 0)
			ret = 0;
	}
	if (ret)
		goto err_count;
	ibqp->qp_num = qpn;
	return 0;

err_count:
	spin_lock(&rdi->n_lock);
	rdi->n_qps--;
	spin_unlock(&rdi->n_lock);
err_rq:
	vfree(qp->rq.wqes);
err_sq:
	vfree(qp->sq);
	return ret;
}

/* Forget everything posted (to RESET: no completions). */
static void rvt_reset_qp(struct rvt_qp *qp)
{
	unsigned long flags;

	cancel_delayed_work_sync(&qp->send_work);
	spin_lock_irqsave(&qp->sq_lock, flags);
	qp->sq_head = 0;
	qp->sq_tail = 0;
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	if (!qp->ibqp.srq) {
		spin_lock_irqsave(&qp->rq.lock, flags);
		qp->rq.head = 0;
		qp->rq.tail = 0;
		spin_unlock_irqrestore(&qp->rq.lock, flags);
	}
	qp->rnr_left = -1;
	spin_lock_irqsave(&qp->state_lock, flags);
	qp->r_flags &= ~RVT_R_COMM_EST;
	spin_unlock_irqrestore(&qp->state_lock, flags);
}

int rvt_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		  int attr_mask, struct ib_udata *udata)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	struct rvt_dev_info *rdi = qp->rdi;
	enum ib_qp_state cur, new;
	unsigned long flags;

	if (attr_mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if ((attr_mask & IB_QP_AV) && rvt_check_ah(ibqp->device, &attr->ah_attr))
		return -EINVAL;

	spin_lock_irqsave(&qp->state_lock, flags);
	cur = attr_mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	new = attr_mask & IB_QP_STATE ? attr->qp_state : cur;
	if (cur != qp->state ||
	    !ib_modify_qp_is_ok(cur, new, ibqp->qp_type, attr_mask))
		goto inval;
	if ((attr_mask & IB_QP_PORT) &&
	    !rdma_is_port_valid(ibqp->device, attr->port_num))
		goto inval;
	if ((attr_mask & IB_QP_PKEY_INDEX) && attr->pkey_index > 0)
		goto inval;
	if ((attr_mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		goto inval;
	if ((attr_mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > rdi->dparms.props.max_qp_init_rd_atom)
		goto inval;
	if ((attr_mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > rdi->dparms.props.max_qp_rd_atom)
		goto inval;

	if (attr_mask & IB_QP_PORT)
		qp->port_num = attr->port_num;
	if (attr_mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (attr_mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (attr_mask & IB_QP_ACCESS_FLAGS)
		qp->qp_access_flags = attr->qp_access_flags;
	if (attr_mask & IB_QP_AV) {
		qp->ah_attr = attr->ah_attr;
		/* the core keeps the QP's GID reference */
		qp->ah_attr.grh.sgid_attr = NULL;
	}
	if (attr_mask & IB_QP_PATH_MTU)
		qp->path_mtu = attr->path_mtu;
	if (attr_mask & IB_QP_DEST_QPN)
		qp->dest_qpn = attr->dest_qp_num;
	if (attr_mask & IB_QP_RQ_PSN)
		qp->rq_psn = attr->rq_psn & 0xFFFFFF;
	if (attr_mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn & 0xFFFFFF;
	if (attr_mask & IB_QP_TIMEOUT)
		qp->timeout = attr->timeout;
	if (attr_mask & IB_QP_RETRY_CNT)
		qp->retry_cnt = attr->retry_cnt;
	if (attr_mask & IB_QP_RNR_RETRY)
		qp->rnr_retry = attr->rnr_retry;
	if (attr_mask & IB_QP_MIN_RNR_TIMER)
		qp->min_rnr_timer = attr->min_rnr_timer;
	if (attr_mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->max_rd_atomic = attr->max_rd_atomic;
	if (attr_mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->max_dest_rd_atomic = attr->max_dest_rd_atomic;

	if (new == IB_QPS_ERR && cur != IB_QPS_ERR) {
		spin_unlock_irqrestore(&qp->state_lock, flags);
		rvt_error_qp(qp, IB_WC_WR_FLUSH_ERR);
		return 0;
	}
	if (new == IB_QPS_SQD && cur == IB_QPS_RTS)
		atomic_set(&qp->sqd_notify,
			   attr_mask & IB_QP_EN_SQD_ASYNC_NOTIFY &&
			   attr->en_sqd_async_notify);
	else if (new != IB_QPS_SQD)
		atomic_set(&qp->sqd_notify, 0);
	WRITE_ONCE(qp->state, new);
	spin_unlock_irqrestore(&qp->state_lock, flags);

	if (new == IB_QPS_RESET && cur != IB_QPS_RESET)
		rvt_reset_qp(qp);
	/* the engine resumes at RTS and reports the drain at SQD */
	if (new == IB_QPS_RTS || (new == IB_QPS_SQD && cur == IB_QPS_RTS))
		mod_delayed_work(rdi->wq, &qp->send_work, 0);
	return 0;

inval:
	spin_unlock_irqrestore(&qp->state_lock, flags);
	return -EINVAL;
}

int rvt_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		 int attr_mask, struct ib_qp_init_attr *init_attr)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	memset(init_attr, 0, sizeof(*init_attr));

	spin_lock_irqsave(&qp->state_lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->path_mtu = qp->path_mtu;
	attr->qkey = qp->qkey;
	attr->rq_psn = qp->rq_psn;
	attr->sq_psn = qp->sq_psn;
	attr->dest_qp_num = qp->dest_qpn;
	attr->qp_access_flags = qp->qp_access_flags;
	attr->ah_attr = qp->ah_attr;
	attr->pkey_index = qp->pkey_index;
	attr->max_rd_atomic = qp->max_rd_atomic;
	attr->max_dest_rd_atomic = qp->max_dest_rd_atomic;
	attr->min_rnr_timer = qp->min_rnr_timer;
	attr->port_num = qp->port_num;
	attr->timeout = qp->timeout;
	attr->retry_cnt = qp->retry_cnt;
	attr->rnr_retry = qp->rnr_retry;
	spin_unlock_irqrestore(&qp->state_lock, flags);

	attr->cap.max_send_wr = qp->sq_size - 1;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_inline_data = qp->max_inline;
	if (!ibqp->srq) {
		attr->cap.max_recv_wr = qp->rq.size - 1;
		attr->cap.max_recv_sge = qp->rq.max_sge;
	}

	init_attr->event_handler = ibqp->registered_event_handler;
	init_attr->qp_context = ibqp->qp_context;
	init_attr->send_cq = ibqp->send_cq;
	init_attr->recv_cq = ibqp->recv_cq;
	init_attr->srq = ibqp->srq;
	init_attr->cap = attr->cap;
	init_attr->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
		IB_SIGNAL_REQ_WR;
	init_attr->qp_type = ibqp->qp_type;
	init_attr->port_num = qp->port_num;
	return 0;
}

int rvt_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	struct rvt_dev_info *rdi = qp->rdi;

	xa_erase_irq(&rdi->qp_table, ibqp->qp_num);
	WRITE_ONCE(qp->state, IB_QPS_RESET);
	cancel_delayed_work_sync(&qp->send_work);

	/* wait for senders that are delivering to this QP */
	rvt_put_qp(qp);
	wait_event(qp->wait, !refcount_read(&qp->refcount));
	/* a sender may have kicked the engine before it let go */
	cancel_delayed_work_sync(&qp->send_work);

	spin_lock(&rdi->n_lock);
	rdi->n_qps--;
	spin_unlock(&rdi->n_lock);
	vfree(qp->rq.wqes);
	vfree(qp->sq);
	return 0;
}

static bool rvt_opcode_ok(struct rvt_qp *qp, enum ib_wr_opcode op)
{
	switch (qp->ibqp.qp_type) {
	case IB_QPT_RC:
		return op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM ||
		       op == IB_WR_SEND_WITH_INV || op == IB_WR_RDMA_WRITE ||
		       op == IB_WR_RDMA_WRITE_WITH_IMM ||
		       op == IB_WR_RDMA_READ ||
		       op == IB_WR_ATOMIC_CMP_AND_SWP ||
		       op == IB_WR_ATOMIC_FETCH_AND_ADD ||
		       op == IB_WR_REG_MR || op == IB_WR_LOCAL_INV;
	case IB_QPT_UC:
		return op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM ||
		       op == IB_WR_SEND_WITH_INV || op == IB_WR_RDMA_WRITE ||
		       op == IB_WR_RDMA_WRITE_WITH_IMM ||
		       op == IB_WR_REG_MR || op == IB_WR_LOCAL_INV;
	default:
		return op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM;
	}
}

static size_t wr_size(enum ib_wr_opcode op, enum ib_qp_type type)
{
	if (type == IB_QPT_UD || type == IB_QPT_GSI || type == IB_QPT_SMI)
		return sizeof(struct ib_ud_wr);
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		return sizeof(struct ib_rdma_wr);
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return sizeof(struct ib_atomic_wr);
	case IB_WR_REG_MR:
		return sizeof(struct ib_reg_wr);
	default:
		return sizeof(struct ib_send_wr);
	}
}

static int rvt_post_one_send(struct rvt_qp *qp, const struct ib_send_wr *wr)
{
	struct rvt_swqe *wqe;
	unsigned long flags;
	u32 next, i, len = 0;

	if (wr->num_sge < 0 || wr->num_sge > qp->max_send_sge)
		return -EINVAL;
	/*
	 * An errored QP only flushes: it takes any request, which is what
	 * ib_drain_sq() relies on for every QP type.
	 */
	if (READ_ONCE(qp->state) != IB_QPS_ERR) {
		if (!rvt_opcode_ok(qp, wr->opcode))
			return -EINVAL;
		if ((qp->ibqp.qp_type == IB_QPT_UD ||
		     qp->ibqp.qp_type == IB_QPT_GSI ||
		     qp->ibqp.qp_type == IB_QPT_SMI) &&
		    (!ud_wr(wr)->ah || ud_wr(wr)->ah->pd != qp->ibqp.pd))
			return -EINVAL;
	}
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if ((wr->send_flags & IB_SEND_INLINE) && len > qp->max_inline)
		return -EINVAL;

	spin_lock_irqsave(&qp->sq_lock, flags);
	next = qp->sq_head + 1 == qp->sq_size ? 0 : qp->sq_head + 1;
	if (next == qp->sq_tail) {
		spin_unlock_irqrestore(&qp->sq_lock, flags);
		return -ENOMEM;
	}
	wqe = sq_slot(qp, qp->sq_head);
	memcpy(&wqe->wr, wr, wr_size(wr->opcode, qp->ibqp.qp_type));
	wqe->wr.next = NULL;
	wqe->length = len;
	wqe->is_inline = wr->send_flags & IB_SEND_INLINE &&
			 wr->opcode != IB_WR_RDMA_READ;
	if (wqe->is_inline) {
		/* inline data is copied now; the SGEs need no key */
		u8 *data = (u8 *)&wqe->sg_list[qp->max_send_sge];

		for (i = 0; i < wr->num_sge; i++) {
			memcpy(data, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			data += wr->sg_list[i].length;
		}
		wqe->wr.num_sge = 0;
	} else {
		memcpy(wqe->sg_list, wr->sg_list,
		       wr->num_sge * sizeof(struct ib_sge));
	}
	wqe->wr.sg_list = wqe->sg_list;
	qp->sq_head = next;
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	return 0;
}

int rvt_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	enum ib_qp_state state = READ_ONCE(qp->state);
	int ret = 0;

	/* before RTS a send queue takes nothing */
	if (state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	for (; wr; wr = wr->next) {
		ret = rvt_post_one_send(qp, wr);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	mod_delayed_work(qp->rdi->wq, &qp->send_work, 0);
	return ret;
}

int rvt_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	int ret = 0;

	if (ibqp->srq || READ_ONCE(qp->state) == IB_QPS_RESET) {
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
	struct rvt_srq *srq = container_of(ibsrq, struct rvt_srq, ibsrq);
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
	n = rq_count(rq);
	if (n >= size) {
		ret = -EINVAL;
		goto unlock;
	}
	for (i = 0; i < n; i++) {
		memcpy(wqes + (size_t)i * rq->stride, rq_slot(rq, rq->tail),
		       rq->stride);
		rq->tail = rq->tail + 1 == rq->size ? 0 : rq->tail + 1;
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
	struct rvt_srq *srq = container_of(ibsrq, struct rvt_srq, ibsrq);
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
	struct rvt_srq *srq = container_of(ibsrq, struct rvt_srq, ibsrq);

	attr->max_wr = srq->rq.size - 1;
	attr->max_sge = srq->rq.max_sge;
	attr->srq_limit = srq->limit;
	return 0;
}

int rvt_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct rvt_srq *srq = container_of(ibsrq, struct rvt_srq, ibsrq);

	vfree(srq->rq.wqes);
	return 0;
}

int rvt_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct rvt_srq *srq = container_of(ibsrq, struct rvt_srq, ibsrq);
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
