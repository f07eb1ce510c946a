// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt queue pairs: the QP table and its iterator, QP events and the
 * error state, and the QP verbs (create, modify, query, destroy, post
 * send).  The send engine is in engine.c, receive queues in rq.c.
 *
 * Locks: qp->state_lock protects the state and attributes, qp->s_lock
 * the send ring and s_flags, qp->r_lock the responder side.
 */

#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/rdma_vt.h>

#include "vt.h"

/* ------------------------------------------------------------------
 * QP table
 */

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
 * Visits every QP of the device: the others in QP number order, then the
 * special QPs (0 and 1) port by port, holding a reference on the current one (iter->qp)
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
 * Events and the error state
 */

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

/**
 * rvt_error_qp - move a QP to the error state
 * @qp: the QP
 * @err: the status that caused it (for the record)
 *
 * Stops the RNR and retry timers, flushes the receive queue now and the
 * send queue through the engine.
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
	qp->port_num = init_attr->port_num ?: 1;
	qp->timeout_jiffies = rvt_timeout_to_jiffies(0);
	refcount_set(&qp->refcount, 1);
	init_waitqueue_head(&qp->wait);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->s_lock);
	spin_lock_init(&qp->r_lock);
	INIT_DELAYED_WORK(&qp->send_work, rvt_do_send);
	rvt_init_timers(qp);

	qp->r_sg_list = kcalloc(RVT_MAX_RECV_SGE, sizeof(*qp->r_sg_list),
				GFP_KERNEL);
	if (!qp->r_sg_list)
		return -ENOMEM;

	/* a slot: the request, its checked SGEs, the posted ones, inline */
	qp->sq_size = cap->max_send_wr + 1;
	qp->sq_stride = struct_size_t(struct rvt_swqe, sg_list,
				      qp->max_send_sge) +
			qp->max_send_sge * sizeof(struct ib_sge) +
			qp->max_inline;
	qp->sq = vzalloc(array_size(qp->sq_size, qp->sq_stride));
	if (!qp->sq) {
		ret = -ENOMEM;
		goto err_sg;
	}

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
		/* one of each per port */
		qpn = init_attr->qp_type == IB_QPT_GSI ? 1 : 0;
		ret = xa_insert_irq(&rdi->qp_table,
				    RVT_SPECIAL_QP_INDEX(qp->port_num, qpn),
				    qp, GFP_KERNEL);
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
err_sg:
	kfree(qp->r_sg_list);
	return ret;
}

static struct rvt_swqe *sq_slot(struct rvt_qp *qp, u32 i)
{
	return qp->sq + (size_t)i * qp->sq_stride;
}

/*
 * Stop the engine and its timers for good (the state is RESET, nothing
 * starts them again) and drop the MR references of what was posted.
 */
static void rvt_stop_sq(struct rvt_qp *qp)
{
	unsigned long flags;
	u32 i;

	cancel_delayed_work_sync(&qp->send_work);
	rvt_del_timers_sync(qp);
	/* a poster may be running the engine (rvt_kick_sq()) */
	rvt_wait_sq_idle(qp);
	/*
	 * a timer that ran out, or a poster's engine that left requests,
	 * may have queued the work item again
	 */
	cancel_delayed_work_sync(&qp->send_work);

	spin_lock_irqsave(&qp->s_lock, flags);
	qp->s_flags &= ~(RVT_S_TIMER | RVT_S_WAIT_RNR);
	for (i = qp->sq_tail; i != qp->sq_head;
	     i = i + 1 == qp->sq_size ? 0 : i + 1)
		rvt_put_swqe(sq_slot(qp, i));
	spin_unlock_irqrestore(&qp->s_lock, flags);
}

/* Forget everything posted (to RESET: no completions). */
static void rvt_reset_qp(struct rvt_qp *qp)
{
	unsigned long flags;

	rvt_stop_sq(qp);
	spin_lock_irqsave(&qp->s_lock, flags);
	qp->sq_head = 0;
	qp->sq_tail = 0;
	qp->s_flags = 0;
	qp->s_lsn = 0;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	rvt_reset_rq(qp);
	qp->s_rnr_retry = qp->s_rnr_retry_cnt;
	qp->s_retry = qp->s_retry_cnt;
	qp->r_msn = 0;
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
		qp->remote_ah_attr = attr->ah_attr;
		/* the core keeps the QP's GID reference */
		qp->remote_ah_attr.grh.sgid_attr = NULL;
	}
	if (attr_mask & IB_QP_PATH_MTU)
		qp->path_mtu = attr->path_mtu;
	if (attr_mask & IB_QP_DEST_QPN)
		qp->remote_qpn = attr->dest_qp_num;
	if (attr_mask & IB_QP_RQ_PSN)
		qp->rq_psn = attr->rq_psn & 0xFFFFFF;
	if (attr_mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn & 0xFFFFFF;
	if (attr_mask & IB_QP_TIMEOUT) {
		qp->timeout = attr->timeout;
		qp->timeout_jiffies = rvt_timeout_to_jiffies(attr->timeout);
	}
	if (attr_mask & IB_QP_RETRY_CNT) {
		qp->s_retry_cnt = attr->retry_cnt;
		qp->s_retry = attr->retry_cnt;
	}
	if (attr_mask & IB_QP_RNR_RETRY) {
		qp->s_rnr_retry_cnt = attr->rnr_retry;
		qp->s_rnr_retry = attr->rnr_retry;
	}
	if (attr_mask & IB_QP_MIN_RNR_TIMER)
		qp->r_min_rnr_timer = attr->min_rnr_timer;
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
		rvt_schedule_send(qp);
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
	attr->dest_qp_num = qp->remote_qpn;
	attr->qp_access_flags = qp->qp_access_flags;
	attr->ah_attr = qp->remote_ah_attr;
	attr->pkey_index = qp->pkey_index;
	attr->max_rd_atomic = qp->max_rd_atomic;
	attr->max_dest_rd_atomic = qp->max_dest_rd_atomic;
	attr->min_rnr_timer = qp->r_min_rnr_timer;
	attr->port_num = qp->port_num;
	attr->timeout = qp->timeout;
	attr->retry_cnt = qp->s_retry_cnt;
	attr->rnr_retry = qp->s_rnr_retry_cnt;
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

	xa_erase_irq(&rdi->qp_table, ibqp->qp_num <= 1 ?
		     RVT_SPECIAL_QP_INDEX(qp->port_num, ibqp->qp_num) :
		     ibqp->qp_num);
	/* lookups under RCU may still hold it without a reference */
	synchronize_rcu();
	WRITE_ONCE(qp->state, IB_QPS_RESET);
	cancel_delayed_work_sync(&qp->send_work);

	/* wait for senders that are delivering to this QP */
	rvt_put_qp(qp);
	wait_event(qp->wait, !refcount_read(&qp->refcount));
	/* a sender may have kicked the engine before it let go */
	rvt_stop_sq(qp);

	spin_lock(&rdi->n_lock);
	rdi->n_qps--;
	spin_unlock(&rdi->n_lock);
	vfree(qp->rq.wqes);
	vfree(qp->sq);
	kfree(qp->r_sg_list);
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

/*
 * Copy the request into the member of the WQE's union that has its type,
 * so that a copy never reads past the caller's request nor writes past
 * the member it names.  The opcode says the type, and for the SENDs of a
 * datagram QP so does the QP type.  A QP in the error state takes any
 * opcode (the drain posts an RDMA WRITE on every kind of QP to flush it).
 */
static void rvt_copy_wr(struct rvt_swqe *wqe, const struct ib_send_wr *wr,
			enum ib_qp_type type)
{
	bool ud = type == IB_QPT_UD || type == IB_QPT_GSI ||
		  type == IB_QPT_SMI;

	switch (wr->opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		if (ud)
			wqe->ud_wr = *ud_wr(wr);
		else
			wqe->wr = *wr;
		break;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		wqe->rdma_wr = *rdma_wr(wr);
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->atomic_wr = *atomic_wr(wr);
		break;
	case IB_WR_REG_MR:
		wqe->reg_wr = *reg_wr(wr);
		break;
	default:
		wqe->wr = *wr;
		break;
	}
}

static int rvt_post_one_send(struct rvt_qp *qp, const struct ib_send_wr *wr)
{
	bool is_inline = wr->send_flags & IB_SEND_INLINE &&
			 wr->opcode != IB_WR_RDMA_READ;
	struct ib_sge *posted;
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

	spin_lock_irqsave(&qp->s_lock, flags);
	next = qp->sq_head + 1 == qp->sq_size ? 0 : qp->sq_head + 1;
	if (next == qp->sq_tail) {
		spin_unlock_irqrestore(&qp->s_lock, flags);
		return -ENOMEM;
	}
	wqe = sq_slot(qp, qp->sq_head);
	rvt_copy_wr(wqe, wr, qp->ibqp.qp_type);
	wqe->wr.next = NULL;
	wqe->length = len;
	wqe->resolved = false;
	/* the SGEs as posted follow the room for the checked ones */
	posted = (struct ib_sge *)&wqe->sg_list[qp->max_send_sge];
	if (is_inline) {
		/* inline data is copied now: one SGE of no MR, no key */
		u8 *data = (u8 *)&posted[qp->max_send_sge];

		wqe->sg_list[0] = (struct rvt_sge) {
			.vaddr = data,
			.sge_length = len,
			.length = len,
		};
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(data, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			data += wr->sg_list[i].length;
		}
		wqe->wr.num_sge = len ? 1 : 0;
		wqe->resolved = true;
	} else {
		memcpy(posted, wr->sg_list,
		       wr->num_sge * sizeof(struct ib_sge));
	}
	wqe->wr.sg_list = posted;
	qp->sq_head = next;
	spin_unlock_irqrestore(&qp->s_lock, flags);
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
	rvt_kick_sq(qp);
	return ret;
}

