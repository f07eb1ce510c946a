// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs: create, modify, query, destroy, and draining.
 *
 * The core fills the generic part of a QP around the driver's
 * create_qp, counts the QP in its PD, CQs and SRQ (usecnt), keeps the
 * source GID entries of the QP's paths referenced, and routes the QP's
 * asynchronous events through __ib_qp_event_handler() so that draining
 * with an SRQ can see IB_EVENT_QP_LAST_WQE_REACHED.
 */

#include <linux/etherdevice.h>
#include <linux/export.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/rw.h>

#include "../restrack.h"
#include "verbs_priv.h"

static void __ib_qp_event_handler(struct ib_event *event, void *context)
{
	struct ib_qp *qp = event->element.qp;

	if (event->event == IB_EVENT_QP_LAST_WQE_REACHED)
		complete(&qp->srq_completion);
	if (qp->registered_event_handler)
		qp->registered_event_handler(event, qp->qp_context);
}

/**
 * ib_qp_usecnt_inc - count a new QP in the objects it uses
 * @qp: the QP
 *
 * Its PD, CQs, SRQ and RSS table cannot go while it lives.
 *
 * Context: any context.
 */
void ib_qp_usecnt_inc(struct ib_qp *qp)
{
	if (qp->pd)
		atomic_inc(&qp->pd->usecnt);
	if (qp->send_cq)
		atomic_inc(&qp->send_cq->usecnt);
	if (qp->recv_cq)
		atomic_inc(&qp->recv_cq->usecnt);
	if (qp->srq)
		atomic_inc(&qp->srq->usecnt);
	if (qp->rwq_ind_tbl)
		atomic_inc(&qp->rwq_ind_tbl->usecnt);
}
EXPORT_SYMBOL(ib_qp_usecnt_inc);

/**
 * ib_qp_usecnt_dec - a destroyed QP no longer uses its objects
 * @qp: the QP
 *
 * Context: any context.
 */
void ib_qp_usecnt_dec(struct ib_qp *qp)
{
	if (qp->rwq_ind_tbl)
		atomic_dec(&qp->rwq_ind_tbl->usecnt);
	if (qp->srq)
		atomic_dec(&qp->srq->usecnt);
	if (qp->recv_cq)
		atomic_dec(&qp->recv_cq->usecnt);
	if (qp->send_cq)
		atomic_dec(&qp->send_cq->usecnt);
	if (qp->pd)
		atomic_dec(&qp->pd->usecnt);
}
EXPORT_SYMBOL(ib_qp_usecnt_dec);

static struct ib_qp *create_qp(struct ib_device *dev, struct ib_pd *pd,
			       struct ib_qp_init_attr *attr,
			       struct ib_udata *udata,
			       struct ib_uqp_object *uobj, const char *caller)
{
	struct ib_qp *qp;
	int ret;

	if (!dev->ops.create_qp)
		return ERR_PTR(-EOPNOTSUPP);

	qp = rdma_zalloc_drv_obj_numa(dev, ib_qp);
	if (!qp)
		return ERR_PTR(-ENOMEM);

	qp->device = dev;
	qp->pd = pd;
	qp->real_qp = qp;
	qp->qp_type = attr->qp_type;
	qp->rwq_ind_tbl = attr->rwq_ind_tbl;
	qp->srq = attr->srq;
	qp->event_handler = __ib_qp_event_handler;
	qp->registered_event_handler = attr->event_handler;
	qp->port = attr->port_num;
	qp->qp_context = attr->qp_context;
	qp->uobject = uobj;

	spin_lock_init(&qp->mr_lock);
	INIT_LIST_HEAD(&qp->rdma_mrs);
	INIT_LIST_HEAD(&qp->sig_mrs);
	INIT_LIST_HEAD(&qp->open_list);
	init_completion(&qp->srq_completion);

	/* an XRC target has no queues of its own */
	if (attr->qp_type != IB_QPT_XRC_TGT) {
		qp->send_cq = attr->send_cq;
		qp->recv_cq = attr->recv_cq;
	}

	rdma_restrack_new(&qp->res, RDMA_RESTRACK_QP);
	WARN_ONCE(!udata && !caller, "kernel QP without an owner name");
	rdma_restrack_set_name(&qp->res, udata ? NULL : caller);

	ret = dev->ops.create_qp(qp, attr, udata);
	if (ret)
		goto err_free;

	/* the driver may have changed these */
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	if (attr->qp_type == IB_QPT_XRC_TGT) {
		qp->send_cq = NULL;
		qp->recv_cq = NULL;
	}

	rdma_restrack_add(&qp->res);
	return qp;

err_free:
	rdma_restrack_del(&qp->res);
	kfree(qp);
	return ERR_PTR(ret);
}

/**
 * ib_create_qp_kernel - create a kernel queue pair
 * @pd: its PD
 * @qp_init_attr: what to create; cap gets the sizes the driver gave
 * @caller: owner's module name (ib_create_qp() passes KBUILD_MODNAME)
 *
 * With cap.max_rdma_ctxs set (and port_num), the send queue grows by what
 * that many rdma_rw contexts need and the QP gets its rdma_rw MR pools
 * (rdma_rw_init_qp(), rdma_rw_init_mrs()); ib_destroy_qp() frees them.
 *
 * Context: Process context; sleeps (GFP_KERNEL allocations, the driver's
 * create_qp op, restrack insertion, and the rdma_rw MR pools).
 *
 * Return: the QP or an ERR_PTR().
 */
struct ib_qp *ib_create_qp_kernel(struct ib_pd *pd,
				  struct ib_qp_init_attr *qp_init_attr,
				  const char *caller)
{
	struct ib_device *device = pd->device;
	struct ib_qp *qp;
	int ret;

	/* integrity offload needs a device that can hand it over */
	if ((qp_init_attr->create_flags & IB_QP_CREATE_INTEGRITY_EN) &&
	    !(device->attrs.kernel_cap_flags & IBK_INTEGRITY_HANDOVER))
		return ERR_PTR(-EINVAL);

	/* XRC targets come from ib_create_qp_user() with an XRC domain */
	if (qp_init_attr->qp_type == IB_QPT_XRC_TGT)
		return ERR_PTR(-EINVAL);

	/* room on the send queue for the rdma_rw contexts (needs port_num) */
	if (qp_init_attr->cap.max_rdma_ctxs)
		rdma_rw_init_qp(device, qp_init_attr);

	qp = create_qp(device, pd, qp_init_attr, NULL, NULL, caller);
	if (IS_ERR(qp))
		return qp;

	ib_qp_usecnt_inc(qp);

	if (qp_init_attr->cap.max_rdma_ctxs) {
		ret = rdma_rw_init_mrs(qp, qp_init_attr);
		if (ret)
			goto err_destroy;
	}

	qp->max_write_sge = qp_init_attr->cap.max_send_sge;
	qp->max_read_sge = min_t(u32, qp_init_attr->cap.max_send_sge,
				 device->attrs.max_sge_rd);
	if (qp_init_attr->create_flags & IB_QP_CREATE_INTEGRITY_EN)
		qp->integrity_en = true;
	return qp;

err_destroy:
	ib_destroy_qp(qp);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_create_qp_kernel);

/**
 * ib_create_qp_user - create a queue pair for user space
 * @dev: the device
 * @pd: its PD
 * @attr: what to create; cap gets the sizes the driver gave
 * @udata: the driver's data of the command
 * @uobj: the user object the QP belongs to
 * @caller: unused for user QPs (restrack names the process)
 *
 * The caller counts the QP in its objects (ib_qp_usecnt_inc()) once it
 * keeps it.  XRC target QPs need an XRC domain, which none of the
 * drivers here offers: -EOPNOTSUPP.
 *
 * Context: Process context; sleeps (the driver's create_qp op).
 *
 * Return: the QP or an ERR_PTR().
 */
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller)
{
	if (attr->qp_type == IB_QPT_XRC_TGT)
		return ERR_PTR(-EOPNOTSUPP);
	return create_qp(dev, pd, attr, udata, uobj, NULL);
}
EXPORT_SYMBOL(ib_create_qp_user);

/*
 * A RoCE path needs its destination MAC.  User space gives only the
 * GID: the path of a connected user QP is always resolved here.  Kernel
 * ULPs (rdma_cm) bring a resolved one; one without gets it resolved on
 * the way to RTR.
 */
static int resolve_av_dmac(struct ib_qp *qp, struct ib_qp_attr *attr,
			   int attr_mask, struct ib_udata *udata)
{
	if (attr->ah_attr.type != RDMA_AH_ATTR_TYPE_ROCE)
		return 0;
	if (udata) {
		switch (qp->qp_type) {
		case IB_QPT_RC:
		case IB_QPT_UC:
		case IB_QPT_XRC_INI:
		case IB_QPT_XRC_TGT:
			return ib_resolve_eth_dmac(qp->device, &attr->ah_attr);
		default:
			return 0;
		}
	}
	if (!(attr_mask & IB_QP_STATE) || attr->qp_state != IB_QPS_RTR)
		return 0;
	if (is_zero_ether_addr(attr->ah_attr.roce.dmac))
		return ib_resolve_eth_dmac(qp->device, &attr->ah_attr);
	return 0;
}

static int _ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr,
			 int attr_mask, struct ib_udata *udata)
{
	const struct ib_gid_attr *old_sgid_attr_av = NULL;
	const struct ib_gid_attr *old_sgid_attr_alt = NULL;
	struct ib_device *device = qp->device;
	u32 port = attr_mask & IB_QP_PORT ? attr->port_num : qp->port;
	int ret;

	if (!device->ops.modify_qp)
		return -EOPNOTSUPP;

	if (attr_mask & IB_QP_PORT && !rdma_is_port_valid(device, port))
		return -EINVAL;

	if (attr_mask & IB_QP_AV) {
		ret = rdma_fill_sgid_attr(device, &attr->ah_attr,
					  &old_sgid_attr_av);
		if (ret)
			return ret;
	}
	if (attr_mask & IB_QP_ALT_PATH) {
		ret = rdma_fill_sgid_attr(device, &attr->alt_ah_attr,
					  &old_sgid_attr_alt);
		if (ret)
			goto out_av;
		/* both paths go out of the same kind of port */
		if (!(attr_mask & IB_QP_AV) ||
		    attr->alt_ah_attr.type != attr->ah_attr.type) {
			ret = -EINVAL;
			goto out;
		}
	}

	if (attr_mask & IB_QP_AV) {
		ret = resolve_av_dmac(qp, attr, attr_mask, udata);
		if (ret)
			goto out;
	}

	if (attr_mask & IB_QP_RATE_LIMIT &&
	    qp->qp_type != IB_QPT_RAW_PACKET) {
		ret = -EOPNOTSUPP;
		goto out;
	}

	/*
	 * Automatic counters (upstream's rule): a QP is bound when it moves
	 * to INIT with its port; kernel QPs are never bound automatically.
	 */
	if (!qp->counter && attr_mask & IB_QP_PORT &&
	    attr_mask & IB_QP_STATE && attr->qp_state == IB_QPS_INIT)
		rdma_counter_bind_qp_auto(qp, attr->port_num);

	ret = device->ops.modify_qp(qp->real_qp, attr, attr_mask, udata);
	if (ret)
		goto out;

	if (attr_mask & IB_QP_PORT)
		qp->port = attr->port_num;
	if (attr_mask & IB_QP_AV)
		rdma_update_sgid_attr(&qp->av_sgid_attr,
				      attr->ah_attr.grh.sgid_attr);
	if (attr_mask & IB_QP_ALT_PATH)
		rdma_update_sgid_attr(&qp->alt_path_sgid_attr,
				      attr->alt_ah_attr.grh.sgid_attr);

out:
	if (attr_mask & IB_QP_ALT_PATH)
		rdma_unfill_sgid_attr(&attr->alt_ah_attr, old_sgid_attr_alt);
out_av:
	if (attr_mask & IB_QP_AV)
		rdma_unfill_sgid_attr(&attr->ah_attr, old_sgid_attr_av);
	return ret;
}

/**
 * ib_modify_qp_with_udata - modify a QP on behalf of user space
 * @qp: the QP
 * @attr: the attributes
 * @attr_mask: which of them to apply (enum ib_qp_attr_mask)
 * @udata: the user's data
 *
 * Context: Process context; sleeps, as ib_modify_qp().
 *
 * Return: 0 or a negative error.
 */
int ib_modify_qp_with_udata(struct ib_qp *qp, struct ib_qp_attr *attr,
			    int attr_mask, struct ib_udata *udata)
{
	return _ib_modify_qp(qp->real_qp, attr, attr_mask, udata);
}
EXPORT_SYMBOL(ib_modify_qp_with_udata);

/**
 * ib_modify_qp - modify a QP's attributes and state
 * @qp: the QP
 * @qp_attr: the attributes
 * @qp_attr_mask: which of them to apply (enum ib_qp_attr_mask)
 *
 * A path (IB_QP_AV, IB_QP_ALT_PATH) with a GRH names its source GID by
 * index or by a referenced entry; the QP keeps a reference of its own.
 * RoCE paths get their destination MAC resolved on the way to RTR when
 * the caller did not give one.  The driver checks the transition with
 * ib_modify_qp_is_ok().
 *
 * Context: Process context; sleeps (the driver's modify_qp op, and on the way
 * to RTR of a RoCE QP without a destination MAC, the neighbour resolution of
 * ib_resolve_eth_dmac(), up to a second). Looking up source GIDs takes the GID
 * table's rwlock for read. The caller serialises modifications of one QP.
 *
 * Return: 0 or a negative error.
 */
int ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		 int qp_attr_mask)
{
	return _ib_modify_qp(qp->real_qp, qp_attr, qp_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_qp);

/**
 * ib_query_qp - read a QP's attributes
 * @qp: the QP
 * @qp_attr: filled with at least the attributes in @qp_attr_mask; its
 *	paths hold no GID reference
 * @qp_attr_mask: which attributes are wanted
 * @qp_init_attr: filled with the creation attributes
 *
 * Context: Process context. Calls the driver's query_qp op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int ib_query_qp(struct ib_qp *qp, struct ib_qp_attr *qp_attr,
		int qp_attr_mask, struct ib_qp_init_attr *qp_init_attr)
{
	qp_attr->ah_attr.grh.sgid_attr = NULL;
	qp_attr->alt_ah_attr.grh.sgid_attr = NULL;

	return qp->device->ops.query_qp ?
		qp->device->ops.query_qp(qp->real_qp, qp_attr, qp_attr_mask,
					 qp_init_attr) : -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_query_qp);

/**
 * ib_destroy_qp_user - destroy a queue pair
 * @qp: the QP; no MR of its pools may be in use
 * @udata: user data, NULL for kernel QPs
 *
 * Context: Process context; sleeps (freeing the rdma_rw MR pools, the driver's
 * destroy_qp op, and rdma_restrack_begin_del() waits for netlink readers of
 * the QP).
 *
 * Return: 0, -EBUSY while the QP is still opened or attached, or the
 * driver's error.
 */
int ib_destroy_qp_user(struct ib_qp *qp, struct ib_udata *udata)
{
	const struct ib_gid_attr *alt_path_sgid_attr = qp->alt_path_sgid_attr;
	const struct ib_gid_attr *av_sgid_attr = qp->av_sgid_attr;
	int ret;

	WARN_ON_ONCE(qp->mrs_used > 0);

	if (atomic_read(&qp->usecnt))
		return -EBUSY;

	/*
	 * Hidden from lookups first, so that no "rdma statistic qp bind"
	 * binds it to a counter once it was unbound here.
	 */
	rdma_restrack_begin_del(&qp->res);

	/* the rdma_rw MR pools of a kernel QP */
	if (!qp->uobject)
		rdma_rw_cleanup_mrs(qp);

	if (qp->counter)
		rdma_counter_unbind_qp(qp, true);
	ret = qp->device->ops.destroy_qp(qp, udata);
	if (ret) {
		rdma_restrack_abort_del(&qp->res);
		return ret;
	}

	if (alt_path_sgid_attr)
		rdma_put_gid_attr(alt_path_sgid_attr);
	if (av_sgid_attr)
		rdma_put_gid_attr(av_sgid_attr);

	ib_qp_usecnt_dec(qp);
	rdma_restrack_del(&qp->res);
	kfree(qp);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_qp_user);

/* ------------------------------------------------------------------
 * Draining
 *
 * Move the QP to the error state, which flushes everything posted, then
 * post one marker request and wait for its (flushed) completion: work
 * requests complete in order, so the marker is the last one.
 */

struct ib_drain_cqe {
	struct ib_cqe		cqe;
	struct completion	done;
};

static void ib_drain_qp_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ib_drain_cqe *cqe =
		container_of(wc->wr_cqe, struct ib_drain_cqe, cqe);

	complete(&cqe->done);
}

/* Wait for the marker; a direct CQ has nobody else to poll it. */
static void wait_for_drain(struct ib_cq *cq, struct completion *c)
{
	if (cq->poll_ctx == IB_POLL_DIRECT) {
		while (!wait_for_completion_timeout(c, HZ / 10))
			ib_process_cq_direct(cq, -1);
	} else {
		wait_for_completion(c);
	}
}

static void __ib_drain_sq(struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_cq *cq = qp->send_cq;
	struct ib_drain_cqe sdrain;
	struct ib_rdma_wr swr = {
		.wr = {
			.next = NULL,
			{ .wr_cqe = &sdrain.cqe, },
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
		},
	};
	int ret;

	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret) {
		WARN_ONCE(ret, "failed to drain send queue: %d\n", ret);
		return;
	}

	sdrain.cqe.done = ib_drain_qp_done;
	init_completion(&sdrain.done);

	ret = ib_post_send(qp, &swr.wr, NULL);
	if (ret) {
		WARN_ONCE(ret, "failed to drain send queue: %d\n", ret);
		return;
	}
	wait_for_drain(cq, &sdrain.done);
}

static void __ib_drain_rq(struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_cq *cq = qp->recv_cq;
	struct ib_drain_cqe rdrain;
	struct ib_recv_wr rwr = {};
	int ret;

	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret) {
		WARN_ONCE(ret, "failed to drain recv queue: %d\n", ret);
		return;
	}

	rwr.wr_cqe = &rdrain.cqe;
	rdrain.cqe.done = ib_drain_qp_done;
	init_completion(&rdrain.done);

	ret = ib_post_recv(qp, &rwr, NULL);
	if (ret) {
		WARN_ONCE(ret, "failed to drain recv queue: %d\n", ret);
		return;
	}
	wait_for_drain(cq, &rdrain.done);
}

/*
 * A QP on an SRQ has no receive queue to post a marker to: wait until
 * the driver reports the last WQE reached, then collect what the QP's
 * receive completions left in a directly polled CQ.
 */
static void __ib_drain_srq(struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_cq *cq;
	int ret;

	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret) {
		WARN_ONCE(ret, "failed to drain shared recv queue: %d\n", ret);
		return;
	}

	if (ib_srq_has_cq(qp->srq->srq_type))
		cq = qp->srq->ext.cq;
	else
		cq = qp->recv_cq;
	if (!cq)
		return;

	if (!wait_for_completion_timeout(&qp->srq_completion, 60 * HZ)) {
		pr_warn("%s: QP %u: no last WQE reached event\n",
			dev_name(&qp->device->dev), qp->qp_num);
		return;
	}
	if (cq->poll_ctx == IB_POLL_DIRECT)
		while (ib_process_cq_direct(cq, -1) > 0)
			;
}

/**
 * ib_drain_sq - flush the send queue and wait for every completion
 * @qp: the QP; its send CQ must be polled (by the CQ API or the caller)
 *
 * Moves the QP to the error state.  The send queue must have room for one
 * more request, and the send CQ for one more completion.  Drivers with
 * their own way (ops.drain_sq) are called instead.
 *
 * Context: Process context; sleeps until the marker's completion arrives (for
 * an IB_POLL_DIRECT CQ it polls the CQ itself every 100 ms). Must not be
 * called from a completion handler of the QP's CQ.
 */
void ib_drain_sq(struct ib_qp *qp)
{
	if (qp->device->ops.drain_sq)
		qp->device->ops.drain_sq(qp);
	else
		__ib_drain_sq(qp);
}
EXPORT_SYMBOL(ib_drain_sq);

/**
 * ib_drain_rq - flush the receive queue and wait for every completion
 * @qp: the QP; its receive CQ must be polled
 *
 * Like ib_drain_sq() for the receive side; a QP on an SRQ waits for the
 * last-WQE-reached event instead.
 *
 * Context: Process context; sleeps until the marker's completion arrives, or,
 * on an SRQ, up to 60 seconds for the last-WQE-reached event. Must not be
 * called from a completion handler of the QP's CQ.
 */
void ib_drain_rq(struct ib_qp *qp)
{
	if (qp->device->ops.drain_rq)
		qp->device->ops.drain_rq(qp);
	else if (qp->srq)
		__ib_drain_srq(qp);
	else
		__ib_drain_rq(qp);
}
EXPORT_SYMBOL(ib_drain_rq);

/**
 * ib_drain_qp - flush both queues of a QP and wait for their completions
 * @qp: the QP
 *
 * The usual step before ib_destroy_qp(): afterwards no completion of the
 * QP is outstanding.
 *
 * Context: Process context; sleeps, as ib_drain_sq() and ib_drain_rq().
 */
void ib_drain_qp(struct ib_qp *qp)
{
	ib_drain_sq(qp);
	if (!qp->srq)
		ib_drain_rq(qp);
	else
		__ib_drain_srq(qp);
}
EXPORT_SYMBOL(ib_drain_qp);
