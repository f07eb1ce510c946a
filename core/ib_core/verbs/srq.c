// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues and receive work queues.
 */

#include <linux/export.h>
#include <rdma/ib_verbs.h>

#include "../restrack.h"
#include "verbs_priv.h"

/**
 * ib_create_srq_user - create a shared receive queue
 * @pd: its PD
 * @srq_init_attr: what to create; attr gets the sizes the driver gave
 * @uobject: user object, NULL for kernel SRQs
 * @udata: user data, NULL for kernel SRQs
 *
 * Context: Process context; sleeps (GFP_KERNEL allocation, the driver's
 * create_srq op, restrack insertion).
 *
 * Return: the SRQ or an ERR_PTR().
 */
struct ib_srq *ib_create_srq_user(struct ib_pd *pd,
				  struct ib_srq_init_attr *srq_init_attr,
				  struct ib_usrq_object *uobject,
				  struct ib_udata *udata)
{
	struct ib_device *device = pd->device;
	struct ib_srq *srq;
	int ret;

	if (!device->ops.create_srq)
		return ERR_PTR(-EOPNOTSUPP);

	srq = rdma_zalloc_drv_obj(device, ib_srq);
	if (!srq)
		return ERR_PTR(-ENOMEM);

	srq->device = device;
	srq->pd = pd;
	srq->uobject = uobject;
	srq->event_handler = srq_init_attr->event_handler;
	srq->srq_context = srq_init_attr->srq_context;
	srq->srq_type = srq_init_attr->srq_type;
	atomic_set(&srq->usecnt, 0);

	if (ib_srq_has_cq(srq->srq_type)) {
		srq->ext.cq = srq_init_attr->ext.cq;
		atomic_inc(&srq->ext.cq->usecnt);
	}
	if (srq->srq_type == IB_SRQT_XRC) {
		srq->ext.xrc.xrcd = srq_init_attr->ext.xrc.xrcd;
		if (srq->ext.xrc.xrcd)
			atomic_inc(&srq->ext.xrc.xrcd->usecnt);
	}
	atomic_inc(&pd->usecnt);

	rdma_restrack_new(&srq->res, RDMA_RESTRACK_SRQ);
	rdma_restrack_parent_name(&srq->res, &pd->res);

	ret = device->ops.create_srq(srq, srq_init_attr, udata);
	if (ret)
		goto err_put;

	rdma_restrack_add(&srq->res);
	return srq;

err_put:
	rdma_restrack_del(&srq->res);
	atomic_dec(&pd->usecnt);
	if (srq->srq_type == IB_SRQT_XRC && srq->ext.xrc.xrcd)
		atomic_dec(&srq->ext.xrc.xrcd->usecnt);
	if (ib_srq_has_cq(srq->srq_type))
		atomic_dec(&srq->ext.cq->usecnt);
	kfree(srq);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(ib_create_srq_user);

/**
 * ib_modify_srq - change the size or limit of an SRQ
 * @srq: the SRQ
 * @srq_attr: the new values
 * @srq_attr_mask: IB_SRQ_MAX_WR and/or IB_SRQ_LIMIT
 *
 * Context: Process context. Calls the driver's modify_srq op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int ib_modify_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr,
		  enum ib_srq_attr_mask srq_attr_mask)
{
	return srq->device->ops.modify_srq ?
		srq->device->ops.modify_srq(srq, srq_attr, srq_attr_mask,
					    NULL) : -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_modify_srq);

/**
 * ib_query_srq - read the size and limit of an SRQ
 * @srq: the SRQ
 * @srq_attr: filled by the driver
 *
 * Context: Process context. Calls the driver's query_srq op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int ib_query_srq(struct ib_srq *srq, struct ib_srq_attr *srq_attr)
{
	return srq->device->ops.query_srq ?
		srq->device->ops.query_srq(srq, srq_attr) : -EOPNOTSUPP;
}
EXPORT_SYMBOL(ib_query_srq);

/**
 * ib_destroy_srq_user - destroy a shared receive queue
 * @srq: the SRQ
 * @udata: user data, NULL for kernel SRQs
 *
 * Context: Process context; sleeps (the driver's destroy_srq op, and
 * rdma_restrack_del() waits for netlink readers of the SRQ).
 *
 * Return: 0, -EBUSY while QPs are attached, or the driver's error.
 */
int ib_destroy_srq_user(struct ib_srq *srq, struct ib_udata *udata)
{
	int ret;

	if (atomic_read(&srq->usecnt))
		return -EBUSY;

	ret = srq->device->ops.destroy_srq(srq, udata);
	if (ret)
		return ret;

	atomic_dec(&srq->pd->usecnt);
	if (srq->srq_type == IB_SRQT_XRC && srq->ext.xrc.xrcd)
		atomic_dec(&srq->ext.xrc.xrcd->usecnt);
	if (ib_srq_has_cq(srq->srq_type))
		atomic_dec(&srq->ext.cq->usecnt);
	rdma_restrack_del(&srq->res);
	kfree(srq);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_srq_user);

/**
 * ib_create_wq - create a receive work queue
 * @pd: its PD
 * @init_attr: what to create
 *
 * Context: Process context. Calls the driver's create_wq op, which may sleep;
 * the core takes no lock.
 *
 * Return: the WQ, ERR_PTR(-EOPNOTSUPP) when the driver has none, or
 * another ERR_PTR().
 */
struct ib_wq *ib_create_wq(struct ib_pd *pd,
			   struct ib_wq_init_attr *init_attr)
{
	struct ib_wq *wq;

	if (!pd->device->ops.create_wq)
		return ERR_PTR(-EOPNOTSUPP);

	wq = pd->device->ops.create_wq(pd, init_attr, NULL);
	if (IS_ERR(wq))
		return wq;

	wq->event_handler = init_attr->event_handler;
	wq->wq_context = init_attr->wq_context;
	wq->wq_type = init_attr->wq_type;
	wq->cq = init_attr->cq;
	wq->device = pd->device;
	wq->pd = pd;
	wq->uobject = NULL;
	atomic_set(&wq->usecnt, 0);
	atomic_inc(&pd->usecnt);
	atomic_inc(&init_attr->cq->usecnt);
	return wq;
}
EXPORT_SYMBOL(ib_create_wq);

/**
 * ib_destroy_wq_user - destroy a receive work queue
 * @wq: the WQ
 * @udata: user data, NULL for kernel WQs
 *
 * Context: Process context. Calls the driver's destroy_wq op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EBUSY while an indirection table uses it, or the driver's
 * error.
 */
int ib_destroy_wq_user(struct ib_wq *wq, struct ib_udata *udata)
{
	struct ib_cq *cq = wq->cq;
	struct ib_pd *pd = wq->pd;
	int ret;

	if (atomic_read(&wq->usecnt))
		return -EBUSY;

	ret = wq->device->ops.destroy_wq(wq, udata);
	if (ret)
		return ret;

	atomic_dec(&pd->usecnt);
	atomic_dec(&cq->usecnt);
	return 0;
}
EXPORT_SYMBOL(ib_destroy_wq_user);

/**
 * ib_modify_wq - change the state or flags of a receive work queue
 * @wq: the WQ
 * @wq_attr: the new values
 * @wq_attr_mask: enum ib_wq_attr_mask
 *
 * Context: Process context. Calls the driver's modify_wq op, which may sleep;
 * the core takes no lock.
 *
 * Return: 0, -EOPNOTSUPP when the driver cannot, or another error.
 */
int ib_modify_wq(struct ib_wq *wq, struct ib_wq_attr *wq_attr,
		 u32 wq_attr_mask)
{
	if (!wq->device->ops.modify_wq)
		return -EOPNOTSUPP;
	return wq->device->ops.modify_wq(wq, wq_attr, wq_attr_mask, NULL);
}
EXPORT_SYMBOL(ib_modify_wq);
