// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Protection domains from user space: ALLOC_PD and DEALLOC_PD.  A user
 * PD is tracked (rdma res show pd names the process); it cannot go
 * while objects are in it (-EBUSY), and goes with its file's context.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static int uverbs_pd_destroy(struct ib_uobject *uobj,
			     enum rdma_remove_reason why,
			     struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uobj->object;

	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	return ib_dealloc_pd_user(pd, &attrs->driver_udata);
}

const struct uverbs_api_object uverbs_type_pd = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR(uverbs_pd_destroy),
	.type_class = &uverbs_idr_class,
	.id = UVERBS_OBJECT_PD,
};

/**
 * uverbs_alloc_pd - ALLOC_PD: a protection domain and its handle
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL without a context, -ENOMEM, -EFAULT, or the
 * driver's error (rdmavt: -ENOMEM past max_pd).
 */
int uverbs_alloc_pd(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ib_uverbs_alloc_pd cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_pd *pd;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = rdma_alloc_begin_uobject(&uverbs_type_pd, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd = rdma_zalloc_drv_obj(dev, ib_pd);
	if (!pd) {
		ret = -ENOMEM;
		goto err_uobj;
	}
	pd->device = dev;
	pd->uobject = uobj;
	atomic_set(&pd->usecnt, 0);
	rdma_restrack_new(&pd->res, RDMA_RESTRACK_PD);
	rdma_restrack_set_name(&pd->res, NULL);
	ret = dev->ops.alloc_pd(pd, &attrs->driver_udata);
	if (ret)
		goto err_pd;
	rdma_restrack_add(&pd->res);
	uobj->object = pd;

	resp.pd_handle = uobj->id;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret) {
		ib_dealloc_pd_user(pd, &attrs->driver_udata);
		goto err_uobj;
	}
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_pd:
	rdma_restrack_del(&pd->res);
	kfree(pd);
err_uobj:
	rdma_alloc_abort_uobject(uobj, attrs, false);
	return ret;
}

/**
 * uverbs_dealloc_pd - DEALLOC_PD
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no PD, -EBUSY while objects are in
 * the PD or another command uses it, or the driver's error.
 */
int uverbs_dealloc_pd(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dealloc_pd cmd;

	return uverbs_destroy_cmd(attrs, &cmd, sizeof(cmd), &uverbs_type_pd,
				  &cmd.pd_handle, NULL, NULL, 0);
}
