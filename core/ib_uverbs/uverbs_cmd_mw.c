// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows from user space: ALLOC_MW and DEALLOC_MW (and the
 * ioctl's destroy, uverbs_std_methods.c).  A window holds its PD (the
 * PD's usecnt).  It is bound by a send request the provider writes
 * (rxe: a BIND_MW entry of its send queue; ibv_bind_mw() makes one for
 * a type 1 window), not by a command.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static int uverbs_mw_destroy(struct ib_uobject *uobj,
			     enum rdma_remove_reason why,
			     struct uverbs_attr_bundle *attrs)
{
	struct ib_mw *mw = uobj->object;
	struct ib_pd *pd = mw->pd;
	int ret;

	ret = mw->device->ops.dealloc_mw(mw);
	if (ret)
		return ret;
	atomic_dec(&pd->usecnt);
	kfree(mw);
	return 0;
}

const struct uverbs_api_object uverbs_type_mw = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR(uverbs_mw_destroy),
	.type_class = &uverbs_idr_class,
	.id = UVERBS_OBJECT_MW,
};

/**
 * uverbs_alloc_mw - ALLOC_MW: a memory window of a PD
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EOPNOTSUPP on a device without memory windows; -EINVAL
 * for a handle of no PD or a type other than 1 and 2; -ENOMEM; -EFAULT;
 * or the driver's error (rdmavt: -ENOMEM past max_mw).
 */
int uverbs_alloc_mw(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct ib_uverbs_alloc_mw cmd;
	struct ib_uobject *uobj, *pd_uobj;
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_mw *mw;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (!dev->ops.alloc_mw)
		return -EOPNOTSUPP;
	uobj = rdma_alloc_begin_uobject(&uverbs_type_mw, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd_uobj = uverbs_obj_get(attrs, &uverbs_type_pd, cmd.pd_handle,
				 UVERBS_LOOKUP_READ);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_uobj;
	}
	pd = pd_uobj->object;
	if (cmd.mw_type != IB_MW_TYPE_1 && cmd.mw_type != IB_MW_TYPE_2) {
		ret = -EINVAL;
		goto err_pd;
	}
	mw = rdma_zalloc_drv_obj(dev, ib_mw);
	if (!mw) {
		ret = -ENOMEM;
		goto err_pd;
	}
	mw->device = dev;
	mw->pd = pd;
	mw->uobject = uobj;
	mw->type = cmd.mw_type;
	ret = dev->ops.alloc_mw(mw, &attrs->driver_udata);
	if (ret)
		goto err_mw;
	atomic_inc(&pd->usecnt);
	uobj->object = mw;
	uverbs_obj_put(pd_uobj, UVERBS_LOOKUP_READ);

	resp.rkey = mw->rkey;
	resp.mw_handle = uobj->id;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret) {
		uverbs_mw_destroy(uobj, RDMA_REMOVE_ABORT, attrs);
		goto err_uobj;
	}
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_mw:
	kfree(mw);
err_pd:
	uverbs_obj_put(pd_uobj, UVERBS_LOOKUP_READ);
err_uobj:
	rdma_alloc_abort_uobject(uobj, attrs, false);
	return ret;
}

/**
 * uverbs_dealloc_mw - DEALLOC_MW
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no window, -EBUSY while another
 * command uses it, or the driver's error.
 */
int uverbs_dealloc_mw(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dealloc_mw cmd;

	return uverbs_destroy_cmd(attrs, &cmd, sizeof(cmd), &uverbs_type_mw,
				  &cmd.mw_handle, NULL, NULL, 0);
}
