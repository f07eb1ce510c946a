// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt queue pairs: the QP table and its iterator, and the QP verbs
 * (create, modify, query, destroy, post send).  The send engine is
 * reached through sq.h only (scheduler, sq.c); QP events and the error
 * state are in qp_event.c, receive queues in rq.c.
 *
 * Locks: qp->state_lock protects the state and attributes, qp->s_lock
 * the send ring and s_flags, qp->r_lock the responder side.
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <rdma/rdma_vt.h>

#include "vt.h"
#include "sq.h"

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
 * Context: Process context; sleeps (GFP_KERNEL).
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
 * Context: Any context; takes the QP table's xa_lock (IRQ safe) and no
 * lock is held on return. Dropping the previous QP's reference may wake
 * its destroyer.
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
 *
 * Context: Process context when @cb sleeps; the walk itself does not sleep and
 * holds no lock while @cb runs (the QP table's xa_lock, IRQ safe, is taken
 * between calls).
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
 * Verbs
 */

static bool rvt_qpt_ok(struct rvt_dev_info *rdi, enum ib_qp_type type)
{
	/* a wire driver may carry fewer (soft-iWARP: RC only) */
	if (rdi->dparms.qp_types && !(rdi->dparms.qp_types & BIT(type)))
		return false;
	return type == IB_QPT_RC || type == IB_QPT_UC || type == IB_QPT_UD ||
	       type == IB_QPT_GSI || type == IB_QPT_SMI;
}

/* The capabilities asked for fit the device; zero ones become one. */
static int rvt_qp_caps_ok(struct ib_qp *ibqp, struct ib_qp_init_attr *init)
{
	struct ib_device_attr *props = &ib_to_rvt(ibqp->device)->dparms.props;
	struct ib_qp_cap *cap = &init->cap;

	if (!rvt_qpt_ok(ib_to_rvt(ibqp->device), init->qp_type) ||
	    init->create_flags)
		return -EOPNOTSUPP;
	if (!init->send_cq || (!init->recv_cq && !init->srq))
		return -EINVAL;
	if (cap->max_send_wr > props->max_qp_wr ||
	    cap->max_recv_wr > props->max_qp_wr ||
	    cap->max_send_sge > props->max_send_sge ||
	    cap->max_recv_sge > props->max_recv_sge ||
	    cap->max_inline_data > RVT_MAX_INLINE)
		return -EINVAL;
	if ((init->qp_type == IB_QPT_GSI || init->qp_type == IB_QPT_SMI) &&
	    !rdma_is_port_valid(ibqp->device, init->port_num))
		return -EINVAL;

	if (!cap->max_send_wr)
		cap->max_send_wr = 1;
	if (!cap->max_send_sge)
		cap->max_send_sge = 1;
	if (!cap->max_recv_sge)
		cap->max_recv_sge = 1;
	return 0;
}

/*
 * A driver's user send ring had more than rdmavt's window took, and a
 * request retired: ring its doorbell again, as a POST_SEND would.
 */
static void rvt_ring_work(struct work_struct *work)
{
	struct rvt_qp *qp = container_of(work, struct rvt_qp, ring_work);

	if (!(ib_rvt_state_ops[READ_ONCE(qp->state)] & RVT_POST_SEND_OK))
		return;
	qp->rdi->driver_f.user_sq_doorbell(qp);
	rvt_kick_sq(qp);
}

/*
 * The fields of a new QP that need no memory.  An RNIC's QP starts in
 * INIT, as an iWARP QP starts idle (RFC 5040's Idle, reported as INIT by
 * upstream's siw): it takes receives before the connection exists.
 */
static void rvt_qp_init_fields(struct rvt_qp *qp, struct rvt_dev_info *rdi,
			       struct ib_qp_init_attr *init)
{
	qp->rdi = rdi;
	qp->state = rdi->ibdev.node_type == RDMA_NODE_RNIC ? IB_QPS_INIT :
		    IB_QPS_RESET;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->max_send_sge = init->cap.max_send_sge;
	qp->max_inline = init->cap.max_inline_data;
	qp->port_num = init->port_num ?: 1;
	qp->timeout_jiffies = rvt_timeout_to_jiffies(0);
	refcount_set(&qp->refcount, 1);
	init_waitqueue_head(&qp->wait);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->s_lock);
	spin_lock_init(&qp->r_lock);
	INIT_DELAYED_WORK(&qp->send_work, rvt_do_send);
	INIT_WORK(&qp->ring_work, rvt_ring_work);
	rvt_init_timers(qp);
}

/*
 * The memory of a new QP: the responder's SGE list, the send ring and,
 * without an SRQ, the receive ring.  A send ring slot holds the request,
 * its checked SGEs, the SGEs as posted and the inline data: a post never
 * allocates.
 */
static int rvt_qp_alloc_rings(struct rvt_qp *qp, struct ib_qp_init_attr *init,
			      struct ib_udata *udata)
{
	struct ib_qp_cap *cap = &init->cap;
	int ret = -ENOMEM;

	qp->r_sg_list = kcalloc(RVT_MAX_RECV_SGE, sizeof(*qp->r_sg_list),
				GFP_KERNEL);
	if (!qp->r_sg_list)
		return -ENOMEM;

	/*
	 * A driver's user ring keeps what rdmavt's has no room for: a
	 * window on it is enough (a deep user queue costs the user ring's
	 * memory, not both).
	 */
	qp->max_send_wr = cap->max_send_wr;
	qp->sq_size = (qp->drv_sq ? min(cap->max_send_wr, RVT_DRV_SQ_WINDOW) :
		       cap->max_send_wr) + 1;
	qp->sq_stride = struct_size_t(struct rvt_swqe, sg_list,
				      qp->max_send_sge) +
			qp->max_send_sge * sizeof(struct ib_sge) +
			qp->max_inline;
	qp->sq = kvzalloc(array_size(qp->sq_size, qp->sq_stride), GFP_KERNEL);
	if (!qp->sq)
		goto err_sg;

	if (!init->srq) {
		if (qp->rq.drv_ring)
			ret = rvt_rq_init_drv(qp->rdi, &qp->rq,
					      cap->max_recv_wr,
					      cap->max_recv_sge);
		else if (udata)
			ret = rvt_rq_init_user(&qp->rq, cap->max_recv_wr,
					       cap->max_recv_sge, udata);
		else
			ret = rvt_rq_init(&qp->rq, cap->max_recv_wr,
					  cap->max_recv_sge);
		if (ret)
			goto err_sq;
	} else {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		/* rdmavt's ABI: no receive ring to map (offset 0) */
		if (udata && !qp->drv_sq && udata->outlen >= sizeof(u64)) {
			u64 none = 0;

			ret = ib_copy_to_udata(udata, &none, sizeof(none));
			if (ret)
				goto err_sq;
		}
	}
	return 0;

err_sq:
	kvfree(qp->sq);
err_sg:
	kfree(qp->r_sg_list);
	return ret;
}

static void rvt_qp_free_rings(struct rvt_qp *qp)
{
	rvt_rq_free(&qp->rq);
	kvfree(qp->sq);
	kfree(qp->r_sg_list);
}

/* The driver's rings of a user QP go (driver_user_abi). */
static void rvt_qp_free_drv_rings(struct rvt_qp *qp)
{
	if (!qp->drv_sq)
		return;
	qp->rdi->driver_f.destroy_user_qp(qp);
	qp->drv_sq = NULL;
}

/*
 * A user QP of a driver with a user ABI of its own: the driver makes its
 * rings and may raise the capabilities to what they hold, before rdmavt
 * sizes its own send ring by them.  A receive ring of the driver's is
 * its whole receive queue (the QP has no SRQ then).
 */
static int rvt_qp_drv_rings(struct rvt_qp *qp, struct ib_qp_init_attr *init,
			    struct ib_udata *udata)
{
	struct rvt_dev_info *rdi = ib_to_rvt(qp->ibqp.device);
	struct ib_qp_cap *cap = &init->cap;
	int ret;

	qp->rdi = rdi;
	ret = rdi->driver_f.create_user_qp(qp, init, udata);
	if (ret)
		return ret;
	/* what the driver raised must still fit the engine and the device */
	if (WARN_ON_ONCE(!qp->drv_sq || !init->srq != !!qp->rq.drv_ring ||
			 cap->max_send_sge > rdi->dparms.props.max_send_sge ||
			 cap->max_inline_data > RVT_MAX_INLINE ||
			 cap->max_recv_sge > rdi->dparms.props.max_recv_sge)) {
		if (qp->drv_sq)
			rvt_qp_free_drv_rings(qp);
		return -EINVAL;
	}
	return 0;
}

/* Count the QP against the device's limit; -ENOMEM past it. */
static int rvt_qp_count(struct rvt_dev_info *rdi, int delta)
{
	int ret = 0;

	spin_lock(&rdi->n_lock);
	if (delta > 0 && rdi->n_qps >= rdi->dparms.props.max_qp)
		ret = -ENOMEM;
	else
		rdi->n_qps += delta;
	spin_unlock(&rdi->n_lock);
	return ret;
}

/*
 * Give the QP its number: the SMI and GSI QPs are one of each per port
 * (numbers 0 and 1), the others get the next free number from 2 on.
 * The number is reserved (lookups find nothing there) until
 * rvt_qp_publish(): the driver may answer it while it makes its rings.
 */
static int rvt_qp_reserve(struct rvt_qp *qp, enum ib_qp_type type)
{
	struct rvt_dev_info *rdi = qp->rdi;
	u32 qpn;
	int ret;

	if (type == IB_QPT_SMI || type == IB_QPT_GSI) {
		qpn = type == IB_QPT_GSI ? 1 : 0;
		ret = xa_insert_irq(&rdi->qp_table,
				    RVT_SPECIAL_QP_INDEX(qp->port_num, qpn),
				    NULL, GFP_KERNEL);
		if (ret == -EBUSY)
			ret = -EEXIST;
	} else {
		ret = xa_alloc_cyclic_irq(&rdi->qp_table, &qpn, NULL,
					  XA_LIMIT(2, IB_QPN_MASK),
					  &rdi->next_qpn, GFP_KERNEL);
		if (ret > 0)
			ret = 0;
	}
	if (!ret)
		qp->ibqp.qp_num = qpn;
	return ret;
}

static unsigned long rvt_qp_index(struct rvt_qp *qp)
{
	return qp->ibqp.qp_num <= 1 ?
	       RVT_SPECIAL_QP_INDEX(qp->port_num, qp->ibqp.qp_num) :
	       qp->ibqp.qp_num;
}

/* The QP, whole, can be looked up by its number. */
static void rvt_qp_publish(struct rvt_qp *qp)
{
	/* the slot exists (reserved): storing allocates nothing */
	xa_store_irq(&qp->rdi->qp_table, rvt_qp_index(qp), qp, GFP_KERNEL);
}

int rvt_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init_attr,
		  struct ib_udata *udata)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	struct rvt_dev_info *rdi = ib_to_rvt(ibqp->device);
	int ret;

	/* a driver with a user ABI of its own makes the rings of its own */
	if (udata && rdi->dparms.driver_user_abi &&
	    !rdi->driver_f.create_user_qp)
		return -EOPNOTSUPP;
	ret = rvt_qp_caps_ok(ibqp, init_attr);
	if (ret)
		return ret;
	/* management QPs are the kernel's */
	if (udata && (init_attr->qp_type == IB_QPT_SMI ||
		      init_attr->qp_type == IB_QPT_GSI))
		return -EINVAL;
	qp->rdi = rdi;
	qp->port_num = init_attr->port_num ?: 1;
	ret = rvt_qp_reserve(qp, init_attr->qp_type);
	if (ret)
		return ret;
	if (udata && rdi->dparms.driver_user_abi) {
		ret = rvt_qp_drv_rings(qp, init_attr, udata);
		if (ret)
			goto err_num;
	}
	rvt_qp_init_fields(qp, rdi, init_attr);
	ret = rvt_qp_alloc_rings(qp, init_attr, udata);
	if (ret)
		goto err_drv;
	if (rdi->driver_f.qp_priv_alloc) {
		qp->priv = rdi->driver_f.qp_priv_alloc(rdi, qp);
		if (IS_ERR(qp->priv)) {
			ret = PTR_ERR(qp->priv);
			qp->priv = NULL;
			goto err_rings;
		}
	}
	ret = rvt_qp_count(rdi, 1);
	if (ret)
		goto err_priv;
	rvt_qp_publish(qp);
	return 0;

err_priv:
	if (rdi->driver_f.qp_priv_free)
		rdi->driver_f.qp_priv_free(rdi, qp);
	qp->priv = NULL;
err_rings:
	rvt_qp_free_drv_rings(qp);
	rvt_qp_free_rings(qp);
err_drv:
	rvt_qp_free_drv_rings(qp);
err_num:
	xa_erase_irq(&rdi->qp_table, rvt_qp_index(qp));
	return ret;
}

/* Forget everything posted (to RESET: no completions). */
static void rvt_reset_qp(struct rvt_qp *qp)
{
	unsigned long flags;

	rvt_sq_stop(qp);
	spin_lock_irqsave(&qp->s_lock, flags);
	qp->sq_head = 0;
	qp->sq_tail = 0;
	qp->sq_cur = 0;
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

/*
 * iWARP verbs (RFC 5040 section 8, and the iw_cm's use of them): an RNIC
 * QP carries no IB path, PSNs or timers, so its transitions take no
 * required attribute; the state machine is IB's otherwise.
 */
#define RVT_IWARP_ATTRS	(IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_ACCESS_FLAGS | \
			 IB_QP_PKEY_INDEX | IB_QP_PORT | \
			 IB_QP_MAX_QP_RD_ATOMIC | IB_QP_MAX_DEST_RD_ATOMIC)

static bool rvt_iwarp_modify_ok(enum ib_qp_state cur, enum ib_qp_state new,
				int attr_mask)
{
	if (attr_mask & ~RVT_IWARP_ATTRS)
		return false;
	if (new == IB_QPS_RESET || new == IB_QPS_ERR || cur == new)
		return true;
	switch (cur) {
	case IB_QPS_RESET:
		return new == IB_QPS_INIT;
	case IB_QPS_INIT:
		return new == IB_QPS_RTR || new == IB_QPS_RTS;
	case IB_QPS_RTR:
		return new == IB_QPS_RTS;
	case IB_QPS_RTS:
		return new == IB_QPS_SQD;
	case IB_QPS_SQD:
		return new == IB_QPS_RTS;
	default:
		return false;
	}
}

/* The attributes of @attr_mask fit the QP's state change and the device. */
static bool rvt_qp_attr_ok(struct rvt_qp *qp, struct ib_qp_attr *attr,
			   int attr_mask, enum ib_qp_state cur,
			   enum ib_qp_state new)
{
	struct ib_device_attr *props = &qp->rdi->dparms.props;
	struct ib_device *dev = qp->ibqp.device;

	if (cur != qp->state)
		return false;
	if (!ib_modify_qp_is_ok(cur, new, qp->ibqp.qp_type, attr_mask) &&
	    (qp->rdi->ibdev.node_type != RDMA_NODE_RNIC ||
	     !rvt_iwarp_modify_ok(cur, new, attr_mask)))
		return false;
	if ((attr_mask & IB_QP_PORT) && !rdma_is_port_valid(dev, attr->port_num))
		return false;
	if ((attr_mask & IB_QP_PKEY_INDEX) &&
	    attr->pkey_index >= rvt_npkeys(qp->rdi))
		return false;
	if ((attr_mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return false;
	if ((attr_mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > props->max_qp_init_rd_atom)
		return false;
	if ((attr_mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > props->max_qp_rd_atom)
		return false;
	return true;
}

/* The addressing attributes: port, keys, access, path, peer. */
static void rvt_qp_set_path(struct rvt_qp *qp, struct ib_qp_attr *attr,
			    int attr_mask)
{
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
}

/* The transport attributes: PSNs, timers, retries, RDMA depths. */
static void rvt_qp_set_transport(struct rvt_qp *qp, struct ib_qp_attr *attr,
				 int attr_mask)
{
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
}

int rvt_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		  int attr_mask, struct ib_udata *udata)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	enum ib_qp_state cur, new;
	unsigned long flags;

	if (attr_mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if ((attr_mask & IB_QP_AV) && rvt_check_ah(ibqp->device, &attr->ah_attr))
		return -EINVAL;

	spin_lock_irqsave(&qp->state_lock, flags);
	cur = attr_mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	new = attr_mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!rvt_qp_attr_ok(qp, attr, attr_mask, cur, new)) {
		spin_unlock_irqrestore(&qp->state_lock, flags);
		return -EINVAL;
	}
	rvt_qp_set_path(qp, attr, attr_mask);
	rvt_qp_set_transport(qp, attr, attr_mask);

	/* the error state flushes: rvt_error_qp() takes the locks it needs */
	if (new == IB_QPS_ERR && cur != IB_QPS_ERR) {
		spin_unlock_irqrestore(&qp->state_lock, flags);
		rvt_error_qp(qp, IB_WC_WR_FLUSH_ERR);
		goto notify;
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
notify:
	if (qp->rdi->driver_f.modify_qp)
		qp->rdi->driver_f.modify_qp(qp, attr, attr_mask, udata);
	return 0;
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

	attr->cap.max_send_wr = qp->max_send_wr;
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

	xa_erase_irq(&rdi->qp_table, rvt_qp_index(qp));
	/* lookups under RCU may still hold it without a reference */
	synchronize_rcu();
	/* the driver's connection lets go of it */
	if (rdi->driver_f.quiesce_qp)
		rdi->driver_f.quiesce_qp(qp);
	WRITE_ONCE(qp->state, IB_QPS_RESET);
	/* a doorbell of rvt_ring_work() that saw the QP before RESET ends */
	cancel_work_sync(&qp->ring_work);
	cancel_delayed_work_sync(&qp->send_work);

	/* wait for senders that are delivering to this QP */
	rvt_put_qp(qp);
	wait_event(qp->wait, !refcount_read(&qp->refcount));
	/* a sender may have kicked the engine before it let go */
	rvt_sq_stop(qp);
	/* one queued by a retire since sees RESET: it goes unrun */
	cancel_work_sync(&qp->ring_work);
	/* a receive WQE a wire driver took mid-message: its MR references */
	rvt_reset_rq(qp);

	/* the driver's state goes once its transmit cannot start again */
	if (rdi->driver_f.qp_priv_free)
		rdi->driver_f.qp_priv_free(rdi, qp);
	qp->priv = NULL;
	rvt_qp_count(rdi, -1);
	rvt_qp_free_drv_rings(qp);
	rvt_qp_free_rings(qp);
	/* its completions not polled yet outlive it */
	if (ibqp->send_cq)
		rvt_cq_forget_qp(ibqp->send_cq, ibqp);
	if (ibqp->recv_cq && ibqp->recv_cq != ibqp->send_cq)
		rvt_cq_forget_qp(ibqp->recv_cq, ibqp);
	return 0;
}

static bool rvt_opcode_ok(struct rvt_qp *qp, enum ib_wr_opcode op)
{
	/* memory windows: bound through a connected QP, where there are any */
	if (op == IB_WR_BIND_MW)
		return (qp->ibqp.qp_type == IB_QPT_RC ||
			qp->ibqp.qp_type == IB_QPT_UC) &&
		       (qp->rdi->dparms.props.device_cap_flags &
			IB_DEVICE_MEM_WINDOW);
	/*
	 * iWARP (RFC 5040): no immediate data, no atomics; a READ may
	 * invalidate its sink's registration when it completes (RDMA_READ
	 * with local invalidate, what rdma_rw posts on iWARP).
	 */
	if (qp->rdi->ibdev.node_type == RDMA_NODE_RNIC)
		return op == IB_WR_SEND || op == IB_WR_SEND_WITH_INV ||
		       op == IB_WR_RDMA_WRITE || op == IB_WR_RDMA_READ ||
		       op == IB_WR_RDMA_READ_WITH_INV ||
		       op == IB_WR_REG_MR || op == IB_WR_LOCAL_INV;
	switch (qp->ibqp.qp_type) {
	case IB_QPT_RC:
		/* IBA 1.5's, where the device says it carries them */
		if (op == IB_WR_FLUSH)
			return qp->rdi->dparms.props.device_cap_flags &
			       (IB_DEVICE_FLUSH_GLOBAL |
				IB_DEVICE_FLUSH_PERSISTENT);
		if (op == IB_WR_ATOMIC_WRITE)
			return qp->rdi->dparms.props.device_cap_flags &
			       IB_DEVICE_ATOMIC_WRITE;
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
	case IB_WR_RDMA_READ_WITH_INV:
	case IB_WR_ATOMIC_WRITE:
		wqe->rdma_wr = *rdma_wr(wr);
		break;
	case IB_WR_FLUSH:
		wqe->flush_wr = *rvt_flush_wr(wr);
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->atomic_wr = *atomic_wr(wr);
		break;
	case IB_WR_REG_MR:
		wqe->reg_wr = *reg_wr(wr);
		break;
	case IB_WR_BIND_MW:
		wqe->bind_wr = *rvt_bind_wr(wr);
		break;
	default:
		wqe->wr = *wr;
		break;
	}
}

/*
 * Inline data is copied at post time, behind the slot's SGEs as posted:
 * the consumer may reuse its buffers as soon as the post returns.  The
 * request gets one SGE of no MR and no key, checked already.  A user
 * QP's data was copied from user space before (@user).
 */
static void rvt_copy_inline(struct rvt_qp *qp, struct rvt_swqe *wqe,
			    const struct ib_send_wr *wr, struct ib_sge *posted,
			    const u8 *user)
{
	u8 *data = (u8 *)&posted[qp->max_send_sge];
	int i;

	wqe->sg_list[0] = (struct rvt_sge) {
		.vaddr = data,
		.sge_length = wqe->length,
		.length = wqe->length,
	};
	for (i = 0; i < wr->num_sge && !user; i++) {
		memcpy(data, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		data += wr->sg_list[i].length;
	}
	if (user)
		memcpy(data, user, wqe->length);
	wqe->wr.num_sge = wqe->length ? 1 : 0;
	wqe->resolved = true;
}

/*
 * The inline data of a user QP's request, from user space: its SGEs
 * hold user addresses.  Posts to a user QP come from ib_uverbs only, in
 * the poster's process context.
 */
static u8 *rvt_user_inline(const struct ib_send_wr *wr, u32 len)
{
	u8 *data = kmalloc(len, GFP_KERNEL);
	u32 off = 0;
	int i;

	if (!data)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < wr->num_sge; i++) {
		if (copy_from_user(data + off,
				   u64_to_user_ptr(wr->sg_list[i].addr),
				   wr->sg_list[i].length)) {
			kfree(data);
			return ERR_PTR(-EFAULT);
		}
		off += wr->sg_list[i].length;
	}
	return data;
}

/*
 * Is the send ring full?  Else *@next is the slot after the head.  A
 * QP with a driver's user ring is marked, so that the next request to
 * retire rings the doorbell again.  Under qp->s_lock.
 */
static bool rvt_sq_full(struct rvt_qp *qp, u32 *next)
{
	*next = rvt_sq_next(qp, qp->sq_head);
	if (*next != qp->sq_tail)
		return false;
	if (qp->drv_sq)
		qp->s_flags |= RVT_S_RING_FULL;
	return true;
}

/*
 * Queue @wr.  @user_addrs: inline data is at user addresses (a user
 * QP's request through POST_SEND); else at kernel ones.
 */
static int rvt_post_one_send(struct rvt_qp *qp, const struct ib_send_wr *wr,
			     bool user_addrs)
{
	bool is_inline = wr->send_flags & IB_SEND_INLINE &&
			 wr->opcode != IB_WR_RDMA_READ &&
			 wr->opcode != IB_WR_RDMA_READ_WITH_INV;
	struct ib_sge *posted;
	struct rvt_swqe *wqe;
	unsigned long flags;
	u8 *user = NULL;
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
		if (check_add_overflow(len, wr->sg_list[i].length, &len))
			return -EINVAL;
	if ((wr->send_flags & IB_SEND_INLINE) && len > qp->max_inline)
		return -EINVAL;
	/* a FLUSH carries no data, an ATOMIC WRITE exactly 8 bytes */
	if (READ_ONCE(qp->state) != IB_QPS_ERR &&
	    ((wr->opcode == IB_WR_FLUSH && wr->num_sge) ||
	     (wr->opcode == IB_WR_ATOMIC_WRITE && len != sizeof(u64))))
		return -EINVAL;

	if (is_inline && len && user_addrs) {
		user = rvt_user_inline(wr, len);
		if (IS_ERR(user))
			return PTR_ERR(user);
	}

	/*
	 * The slot is filled under s_lock, the same section that checks for
	 * room: the engine and the completion path read slots only between
	 * sq_tail and sq_head, and sq_head moves on once the slot is whole.
	 */
	spin_lock_irqsave(&qp->s_lock, flags);
	if (rvt_sq_full(qp, &next)) {
		spin_unlock_irqrestore(&qp->s_lock, flags);
		kfree(user);
		return -ENOMEM;
	}
	wqe = rvt_sq_slot(qp, qp->sq_head);
	rvt_copy_wr(wqe, wr, qp->ibqp.qp_type);
	wqe->ah = NULL;
	if (qp->ibqp.uobject && qp->ibqp.qp_type == IB_QPT_UD &&
	    (wr->opcode == IB_WR_SEND || wr->opcode == IB_WR_SEND_WITH_IMM) &&
	    ud_wr(wr)->ah) {
		wqe->ah = container_of(ud_wr(wr)->ah, struct rvt_ah, ibah);
		atomic_inc(&wqe->ah->wqes);
	}
	wqe->wr.next = NULL;
	wqe->length = len;
	wqe->resolved = false;
	wqe->executed = false;
	wqe->refused = false;
	/* the SGEs as posted follow the room for the checked ones */
	posted = (struct ib_sge *)&wqe->sg_list[qp->max_send_sge];
	if (is_inline)
		rvt_copy_inline(qp, wqe, wr, posted, user);
	else
		memcpy(posted, wr->sg_list,
		       wr->num_sge * sizeof(struct ib_sge));
	wqe->wr.sg_list = posted;
	qp->sq_head = next;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	kfree(user);
	return 0;
}

/*
 * Queue a malformed request of a driver's user ring: it keeps its ID,
 * opcode and flags (for its completion) and completes with @status
 * without running (rvt_swqe.refused).
 */
static int rvt_post_refused(struct rvt_qp *qp, const struct ib_send_wr *wr,
			    enum ib_wc_status status)
{
	struct rvt_swqe *wqe;
	unsigned long flags;
	u32 next;

	spin_lock_irqsave(&qp->s_lock, flags);
	if (rvt_sq_full(qp, &next)) {
		spin_unlock_irqrestore(&qp->s_lock, flags);
		return -ENOMEM;
	}
	wqe = rvt_sq_slot(qp, qp->sq_head);
	/* the request's union, whatever its type, and nothing after it */
	memset(wqe, 0, offsetof(struct rvt_swqe, length));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	wqe->ah = NULL;
	wqe->length = 0;
	wqe->resolved = false;
	wqe->executed = false;
	wqe->refused = true;
	wqe->status = status;
	qp->sq_head = next;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	return 0;
}

/**
 * rvt_post_ring_wr - queue a request a driver took from a user send ring
 * @qp: a user QP with a driver's send ring (qp->drv_sq)
 * @rwr: the request (see struct rvt_ring_wr); rdmavt copies what it
 *	keeps, so it may be reused when this returns
 *
 * The driver's doorbell (driver_f.user_sq_doorbell) calls this for each
 * request it takes, in order.  rdmavt checks the request as it checks a
 * kernel consumer's (opcode for the QP type, SGE count, inline length,
 * the AH of a datagram: by @rwr->ah_num, a user AH of the QP's PD,
 * held until the request completes), and a request that fails a check
 * is queued anyway, to complete with IB_WC_LOC_QP_OP_ERR (or
 * @rwr->status when the driver already found it malformed) once the
 * requests before it completed: the QP then goes to the error state,
 * as when a hardware queue reads a bad entry.  The engine runs what was
 * queued when the doorbell returns.
 *
 * Context: process context (the doorbell), no rdmavt lock held; takes
 * qp->s_lock and the device's AH table lock.
 * Return: 0 when the request was queued (to run or to complete in
 * error); -ENOMEM when rdmavt's send ring is full (nothing queued).
 */
int rvt_post_ring_wr(struct rvt_qp *qp, struct rvt_ring_wr *rwr)
{
	enum ib_wc_status status = rwr->status;
	struct rvt_ah *ah = NULL;
	int ret;

	if (status == IB_WC_SUCCESS && qp->ibqp.qp_type == IB_QPT_UD) {
		ah = rvt_user_ah_get(qp, rwr->ah_num);
		rwr->ud_wr.ah = ah ? &ah->ibah : NULL;
		if (!ah && READ_ONCE(qp->state) != IB_QPS_ERR)
			status = IB_WC_LOC_QP_OP_ERR;
	}
	if (status == IB_WC_SUCCESS) {
		ret = rvt_post_one_send(qp, &rwr->wr, false);
		if (ret != -EINVAL)
			goto out;
		status = IB_WC_LOC_QP_OP_ERR;
	}
	ret = rvt_post_refused(qp, &rwr->wr, status);
out:
	if (ah)
		rvt_user_ah_put(ah);
	return ret;
}
EXPORT_SYMBOL(rvt_post_ring_wr);

/*
 * What each QP state allows (rdmavt_qp.h): the verbs and the engine
 * check these, and drivers may.
 */
const int ib_rvt_state_ops[IB_QPS_ERR + 1] = {
	[IB_QPS_RESET] = 0,
	[IB_QPS_INIT] = RVT_POST_RECV_OK,
	[IB_QPS_RTR] = RVT_POST_RECV_OK | RVT_PROCESS_RECV_OK,
	[IB_QPS_RTS] = RVT_POST_RECV_OK | RVT_PROCESS_RECV_OK |
		       RVT_POST_SEND_OK | RVT_PROCESS_SEND_OK |
		       RVT_PROCESS_NEXT_SEND_OK,
	[IB_QPS_SQD] = RVT_POST_RECV_OK | RVT_PROCESS_RECV_OK |
		       RVT_POST_SEND_OK | RVT_PROCESS_SEND_OK,
	[IB_QPS_SQE] = RVT_POST_RECV_OK | RVT_PROCESS_RECV_OK |
		       RVT_POST_SEND_OK | RVT_FLUSH_SEND,
	[IB_QPS_ERR] = RVT_POST_RECV_OK | RVT_FLUSH_RECV |
		       RVT_POST_SEND_OK | RVT_FLUSH_SEND,
};
EXPORT_SYMBOL(ib_rvt_state_ops);

int rvt_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct rvt_qp *qp = container_of(ibqp, struct rvt_qp, ibqp);
	enum ib_qp_state state = READ_ONCE(qp->state);
	int ret = 0;

	/* before RTS a send queue takes nothing */
	if (!(ib_rvt_state_ops[state] & RVT_POST_SEND_OK)) {
		*bad_wr = wr;
		return -EINVAL;
	}
	/*
	 * A driver's user send ring: user space posts into it and rings the
	 * doorbell (no request); requests through the kernel would take
	 * slots the driver's ring does not count.
	 */
	if (qp->drv_sq) {
		if (wr) {
			*bad_wr = wr;
			return -EINVAL;
		}
		ret = qp->rdi->driver_f.user_sq_doorbell(qp);
		rvt_kick_sq(qp);
		return ret;
	}
	/*
	 * The whole chain goes on the ring before the engine runs: one kick
	 * per post call, and a chain executes back to back in this context.
	 */
	for (; wr; wr = wr->next) {
		ret = rvt_post_one_send(qp, wr, !!ibqp->uobject);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	rvt_kick_sq(qp);
	return ret;
}

