// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues and the CQ API.
 *
 * A CQ from ib_alloc_cq() is polled by the core: every completion goes
 * to the ib_cqe its work request named (wr_cqe->done).  Where that
 * happens is the CQ's poll context:
 *
 *  IB_POLL_DIRECT             only when the owner calls
 *                             ib_process_cq_direct(); no event is armed
 *  IB_POLL_SOFTIRQ            irq_poll, IB_POLL_BUDGET_IRQ per run
 *  IB_POLL_WORKQUEUE          ib_comp_wq (bound to the CPU that got the
 *                             event), IB_POLL_BUDGET_WORKQUEUE per run
 *  IB_POLL_UNBOUND_WORKQUEUE  ib_comp_unbound_wq, same budget
 *
 * A run that exhausts its budget reschedules itself rather than looping
 * on; one that empties the CQ re-arms it with IB_CQ_REPORT_MISSED_EVENTS
 * and polls again when the driver says completions slipped in.
 *
 * Devices that set use_cq_dim and can modify a CQ get adaptive
 * moderation (lib/dim) on the softirq and workqueue contexts.
 */

#include <linux/dim.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "../restrack.h"
#include "verbs_priv.h"

/* completions fetched per ib_poll_cq() call */
#define IB_POLL_BATCH			16
#define IB_POLL_BATCH_DIRECT		8

/* completions handled per run before yielding */
#define IB_POLL_BUDGET_IRQ		256
#define IB_POLL_BUDGET_WORKQUEUE	65536

#define IB_POLL_FLAGS	(IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS)

/*
 * Moderation profiles dim walks through, from "every completion at once"
 * to "wait longer, batch more": { usec, pkts, comps }.
 */
static const struct dim_cq_moder
cq_dim_profiles[RDMA_DIM_PARAMS_NUM_PROFILES] = {
	{ .usec = 1, .comps = 1 },
	{ .usec = 1, .comps = 4 },
	{ .usec = 2, .comps = 4 },
	{ .usec = 2, .comps = 8 },
	{ .usec = 4, .comps = 8 },
	{ .usec = 16, .comps = 16 },
	{ .usec = 16, .comps = 32 },
	{ .usec = 32, .comps = 32 },
	{ .usec = 32, .comps = 64 },
};

static void ib_cq_dim_work(struct work_struct *w)
{
	struct dim *dim = container_of(w, struct dim, work);
	struct ib_cq *cq = dim->priv;
	const struct dim_cq_moder *prof = &cq_dim_profiles[dim->profile_ix];

	dim->state = DIM_START_MEASURE;
	cq->device->ops.modify_cq(cq, prof->comps, prof->usec);
}

static void rdma_dim_init(struct ib_cq *cq)
{
	struct dim *dim;

	if (!cq->device->ops.modify_cq || !cq->device->use_cq_dim ||
	    cq->poll_ctx == IB_POLL_DIRECT)
		return;

	dim = kzalloc(sizeof(*dim), GFP_KERNEL);
	if (!dim)
		return;	/* moderation is an optimisation, not a must */

	dim->state = DIM_START_MEASURE;
	dim->tune_state = DIM_GOING_RIGHT;
	dim->profile_ix = RDMA_DIM_START_PROFILE;
	dim->priv = cq;
	cq->dim = dim;
	INIT_WORK(&dim->work, ib_cq_dim_work);
}

static void rdma_dim_destroy(struct ib_cq *cq)
{
	if (!cq->dim)
		return;
	cancel_work_sync(&cq->dim->work);
	kfree(cq->dim);
	cq->dim = NULL;
}

/*
 * Poll up to @budget completions (all there are for a negative budget),
 * @batch at a time into @wcs, and hand each to its ib_cqe.
 */
static int __ib_process_cq(struct ib_cq *cq, int budget, struct ib_wc *wcs,
			   int batch)
{
	int i, n, completed = 0;

	while ((n = ib_poll_cq(cq, budget < 0 ? batch :
			       min_t(int, batch, budget - completed),
			       wcs)) > 0) {
		for (i = 0; i < n; i++) {
			struct ib_wc *wc = &wcs[i];

			if (wc->wr_cqe)
				wc->wr_cqe->done(cq, wc);
			else
				/* a CQ API user must always set wr_cqe */
				WARN_ON_ONCE(wc->status == IB_WC_SUCCESS);
		}

		completed += n;
		if (n != batch || (budget >= 0 && completed >= budget))
			break;
	}
	return completed;
}

/**
 * ib_process_cq_direct - poll an IB_POLL_DIRECT CQ
 * @cq: the CQ
 * @budget: the most completions to handle; negative for all there are
 *
 * The done callbacks run in the caller's context.  Only for CQs
 * allocated with IB_POLL_DIRECT: others are polled by the core and
 * must not be polled concurrently.
 *
 * Context: Any context the owner chooses (the done callbacks run there); does
 * not sleep by itself. Calls the driver's poll_cq op, which takes the driver's
 * CQ lock. Must not run concurrently with itself on the same CQ.
 *
 * Return: the number of completions handled.
 */
int ib_process_cq_direct(struct ib_cq *cq, int budget)
{
	/*
	 * Filled by the driver before it is read: not zeroed on each call
	 * (INIT_STACK_ALL_ZERO would clear 8 of them per poll).
	 */
	struct ib_wc wcs[IB_POLL_BATCH_DIRECT] __uninitialized;

	WARN_ON_ONCE(cq->poll_ctx != IB_POLL_DIRECT);
	return __ib_process_cq(cq, budget, wcs, IB_POLL_BATCH_DIRECT);
}
EXPORT_SYMBOL(ib_process_cq_direct);

static void ib_cq_completion_direct(struct ib_cq *cq, void *private)
{
	WARN_ONCE(1, "got unsolicited completion for CQ 0x%p\n", cq);
}

static int ib_poll_handler(struct irq_poll *iop, int budget)
{
	struct ib_cq *cq = container_of(iop, struct ib_cq, iop);
	struct dim *dim = cq->dim;
	int completed;

	completed = __ib_process_cq(cq, budget, cq->wc, IB_POLL_BATCH);
	if (completed < budget) {
		irq_poll_complete(&cq->iop);
		if (ib_req_notify_cq(cq, IB_POLL_FLAGS) > 0)
			irq_poll_sched(&cq->iop);
	}
	if (dim)
		rdma_dim(dim, completed);
	return completed;
}

static void ib_cq_completion_softirq(struct ib_cq *cq, void *private)
{
	cq->interrupt = 1;
	irq_poll_sched(&cq->iop);
}

static void ib_cq_poll_work(struct work_struct *work)
{
	struct ib_cq *cq = container_of(work, struct ib_cq, work);
	int completed;

	completed = __ib_process_cq(cq, IB_POLL_BUDGET_WORKQUEUE, cq->wc,
				    IB_POLL_BATCH);
	if (completed >= IB_POLL_BUDGET_WORKQUEUE ||
	    ib_req_notify_cq(cq, IB_POLL_FLAGS) > 0)
		queue_work(cq->comp_wq, &cq->work);
	else if (cq->dim)
		rdma_dim(cq->dim, completed);
}

static void ib_cq_completion_workqueue(struct ib_cq *cq, void *private)
{
	cq->interrupt = 1;
	queue_work(cq->comp_wq, &cq->work);
}

/**
 * __ib_create_cq - create a CQ its owner polls (legacy interface)
 * @device: the device
 * @comp_handler: completion event callback
 * @event_handler: asynchronous event callback
 * @cq_context: argument of both
 * @cq_attr: size and completion vector
 * @caller: owner's module name
 *
 * Context: Process context; sleeps (GFP_KERNEL allocations, the driver's
 * create_cq op, restrack insertion).
 *
 * Return: the CQ or an ERR_PTR().
 */
struct ib_cq *__ib_create_cq(struct ib_device *device,
			     ib_comp_handler comp_handler,
			     void (*event_handler)(struct ib_event *, void *),
			     void *cq_context,
			     const struct ib_cq_init_attr *cq_attr,
			     const char *caller)
{
	struct ib_cq *cq;
	int ret;

	if (!device->ops.create_cq)
		return ERR_PTR(-EOPNOTSUPP);

	cq = rdma_zalloc_drv_obj(device, ib_cq);
	if (!cq)
		return ERR_PTR(-ENOMEM);

	cq->device = device;
	cq->uobject = NULL;
	cq->comp_handler = comp_handler;
	cq->event_handler = event_handler;
	cq->cq_context = cq_context;
	cq->comp_vector = cq_attr->comp_vector;
	atomic_set(&cq->usecnt, 0);

	rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&cq->res, caller);

	ret = device->ops.create_cq(cq, cq_attr, NULL);
	if (ret) {
		rdma_restrack_del(&cq->res);
		kfree(cq);
		return ERR_PTR(ret);
	}

	rdma_restrack_add(&cq->res);
	return cq;
}
EXPORT_SYMBOL(__ib_create_cq);

/**
 * rdma_set_cq_moderation - set a CQ's event moderation
 * @cq: the CQ
 * @cq_count: completions per event
 * @cq_period: microseconds before an event at the latest
 *
 * Context: Process context. Calls the driver's modify_cq op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int rdma_set_cq_moderation(struct ib_cq *cq, u16 cq_count, u16 cq_period)
{
	if (cq->shared)
		return -EOPNOTSUPP;

	return cq->device->ops.modify_cq ?
		cq->device->ops.modify_cq(cq, cq_count, cq_period) :
		-EOPNOTSUPP;
}
EXPORT_SYMBOL(rdma_set_cq_moderation);

/**
 * ib_resize_cq - change the number of entries of a CQ
 * @cq: the CQ
 * @cqe: the minimum number of entries
 *
 * Context: Process context. Calls the driver's resize_cq op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int ib_resize_cq(struct ib_cq *cq, int cqe)
{
	if (cq->shared)
		return -EOPNOTSUPP;

	return cq->device->ops.resize_cq ?
		cq->device->ops.resize_cq(cq, cqe, NULL) : -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_resize_cq);

/**
 * ib_destroy_cq_user - destroy a CQ
 * @cq: the CQ; no QP, SRQ or WQ may use it
 * @udata: user data, NULL for kernel CQs
 *
 * Context: Process context; sleeps (the driver's destroy_cq op, and
 * rdma_restrack_del() waits for netlink readers of the CQ).
 *
 * Return: 0, -EBUSY while the CQ is used, or the driver's error.
 */
int ib_destroy_cq_user(struct ib_cq *cq, struct ib_udata *udata)
{
	int ret;

	if (WARN_ON_ONCE(cq->shared))
		return -EOPNOTSUPP;
	if (atomic_read(&cq->usecnt))
		return -EBUSY;

	ret = cq->device->ops.destroy_cq(cq, udata);
	if (ret)
		return ret;

	rdma_restrack_del(&cq->res);
	kfree(cq);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_cq_user);

/**
 * __ib_alloc_cq - allocate a CQ the CQ API polls
 * @dev: the device
 * @private: cq->cq_context
 * @nr_cqe: minimum number of entries
 * @comp_vector: completion vector
 * @poll_ctx: where completions are handled (see the top of this file)
 * @caller: owner's module name (ib_alloc_cq() passes KBUILD_MODNAME)
 *
 * Every work request posted against the CQ must set wr_cqe.
 *
 * Context: Process context; sleeps (GFP_KERNEL allocations, the driver's
 * create_cq op, restrack insertion). Arms the CQ through the driver's
 * req_notify_cq op.
 *
 * Return: the CQ or an ERR_PTR().
 */
struct ib_cq *__ib_alloc_cq(struct ib_device *dev, void *private, int nr_cqe,
			    int comp_vector, enum ib_poll_context poll_ctx,
			    const char *caller)
{
	struct ib_cq_init_attr cq_attr = {
		.cqe		= nr_cqe,
		.comp_vector	= comp_vector,
	};
	struct ib_cq *cq;
	int ret = -ENOMEM;

	if (poll_ctx > IB_POLL_DIRECT || nr_cqe <= 0)
		return ERR_PTR(-EINVAL);
	if (!dev->ops.create_cq)
		return ERR_PTR(-EOPNOTSUPP);

	cq = rdma_zalloc_drv_obj(dev, ib_cq);
	if (!cq)
		return ERR_PTR(ret);

	cq->device = dev;
	cq->cq_context = private;
	cq->poll_ctx = poll_ctx;
	cq->comp_vector = comp_vector;
	atomic_set(&cq->usecnt, 0);

	cq->wc = kmalloc_array(IB_POLL_BATCH, sizeof(*cq->wc), GFP_KERNEL);
	if (!cq->wc)
		goto err_free_cq;

	rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&cq->res, caller);

	ret = dev->ops.create_cq(cq, &cq_attr, NULL);
	if (ret)
		goto err_free_wc;

	rdma_dim_init(cq);

	switch (cq->poll_ctx) {
	case IB_POLL_DIRECT:
		cq->comp_handler = ib_cq_completion_direct;
		break;
	case IB_POLL_SOFTIRQ:
		cq->comp_handler = ib_cq_completion_softirq;
		irq_poll_init(&cq->iop, IB_POLL_BUDGET_IRQ, ib_poll_handler);
		ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
		break;
	case IB_POLL_WORKQUEUE:
	case IB_POLL_UNBOUND_WORKQUEUE:
		cq->comp_handler = ib_cq_completion_workqueue;
		INIT_WORK(&cq->work, ib_cq_poll_work);
		cq->comp_wq = cq->poll_ctx == IB_POLL_WORKQUEUE ?
			ib_comp_wq : ib_comp_unbound_wq;
		ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
		break;
	}

	rdma_restrack_add(&cq->res);
	return cq;

err_free_wc:
	rdma_restrack_del(&cq->res);
	kfree(cq->wc);
err_free_cq:
	kfree(cq);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(__ib_alloc_cq);

/**
 * __ib_alloc_cq_any - allocate a CQ API CQ on a vector the core picks
 * @dev: the device
 * @private: cq->cq_context
 * @nr_cqe: minimum number of entries
 * @poll_ctx: where completions are handled
 * @caller: owner's module name
 *
 * Successive calls spread over the device's completion vectors.
 *
 * Context: Process context; sleeps, as __ib_alloc_cq().
 *
 * Return: the CQ or an ERR_PTR().
 */
struct ib_cq *__ib_alloc_cq_any(struct ib_device *dev, void *private,
				int nr_cqe, enum ib_poll_context poll_ctx,
				const char *caller)
{
	static atomic_t counter;
	int comp_vector = 0;

	if (dev->num_comp_vectors > 1)
		comp_vector = (u32)atomic_inc_return(&counter) %
			min_t(int, dev->num_comp_vectors, num_online_cpus());

	return __ib_alloc_cq(dev, private, nr_cqe, comp_vector, poll_ctx,
			     caller);
}
EXPORT_SYMBOL(__ib_alloc_cq_any);

/**
 * ib_free_cq - free a CQ from ib_alloc_cq()
 * @cq: the CQ; no QP may use it any more
 *
 * Stops the poller (waiting for a running one) before the driver
 * destroys the CQ.
 *
 * Context: Process context; sleeps: waits for a running poller
 * (irq_poll_disable() or cancel_work_sync()) and the moderation work, for
 * netlink readers of the CQ (rdma_restrack_del()), and calls the driver's
 * destroy_cq op. Not from the CQ's own done callbacks.
 */
void ib_free_cq(struct ib_cq *cq)
{
	int ret;

	if (WARN_ON_ONCE(atomic_read(&cq->usecnt)))
		return;

	switch (cq->poll_ctx) {
	case IB_POLL_DIRECT:
		break;
	case IB_POLL_SOFTIRQ:
		irq_poll_disable(&cq->iop);
		break;
	case IB_POLL_WORKQUEUE:
	case IB_POLL_UNBOUND_WORKQUEUE:
		cancel_work_sync(&cq->work);
		break;
	default:
		WARN_ON_ONCE(1);
	}

	rdma_dim_destroy(cq);
	rdma_restrack_del(&cq->res);
	ret = cq->device->ops.destroy_cq(cq, NULL);
	WARN_ONCE(ret, "destroy of kernel CQ failed: %d\n", ret);
	kfree(cq->wc);
	kfree(cq);
}
EXPORT_SYMBOL(ib_free_cq);
