// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions from user space: REG_MR, REREG_MR and DEREG_MR.  The
 * driver pins the memory (ib_umem_get(), charged against
 * RLIMIT_MEMLOCK); a user MR holds its PD (the PD's usecnt) and is
 * tracked (rdma res show mr names the process).
 */
#include <linux/mm.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static int uverbs_mr_destroy(struct ib_uobject *uobj,
			     enum rdma_remove_reason why,
			     struct uverbs_attr_bundle *attrs)
{
	return ib_dereg_mr_user(uobj->object, &attrs->driver_udata);
}

const struct uverbs_api_object uverbs_type_mr = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR(uverbs_mr_destroy),
	.type_class = &uverbs_idr_class,
	.id = UVERBS_OBJECT_MR,
};

/* Fill in what the core keeps of a user MR the driver made in @pd. */
static void uverbs_mr_init(struct ib_mr *mr, struct ib_pd *pd,
			   struct ib_uobject *uobj, u64 iova, u64 length)
{
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_USER;
	mr->dm = NULL;
	mr->sig_attrs = NULL;
	mr->uobject = uobj;
	mr->iova = iova;
	mr->length = length;
	atomic_inc(&pd->usecnt);
	rdma_restrack_new(&mr->res, RDMA_RESTRACK_MR);
	rdma_restrack_set_name(&mr->res, NULL);
	rdma_restrack_add(&mr->res);
	uobj->object = mr;
}

/* The start and the iova of a user MR share their offset in the page. */
static bool uverbs_mr_aligned(u64 start, u64 iova)
{
	return (start & ~PAGE_MASK) == (iova & ~PAGE_MASK);
}

/**
 * uverbs_reg_mr - REG_MR: register user memory
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a start and iova at different offsets in their
 * pages, bad access flags or a handle of no PD; -EOPNOTSUPP for rights
 * the device lacks (on-demand paging); -ENOMEM past RLIMIT_MEMLOCK;
 * -EFAULT; or the driver's error.
 */
int uverbs_reg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ib_uverbs_reg_mr cmd;
	struct ib_uobject *uobj, *pd_uobj;
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_mr *mr;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (!uverbs_mr_aligned(cmd.start, cmd.hca_va))
		return -EINVAL;
	ret = ib_check_mr_access(dev, cmd.access_flags);
	if (ret)
		return ret;
	uobj = rdma_alloc_begin_uobject(&uverbs_type_mr, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd_uobj = uverbs_obj_get(attrs, &uverbs_type_pd, cmd.pd_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_uobj;
	}
	pd = pd_uobj->object;
	mr = dev->ops.reg_user_mr(pd, cmd.start, cmd.length, cmd.hca_va,
				  cmd.access_flags, &attrs->driver_udata);
	if (IS_ERR(mr)) {
		ret = PTR_ERR(mr);
		goto err_pd;
	}
	uverbs_mr_init(mr, pd, uobj, cmd.hca_va, cmd.length);
	uverbs_obj_put(pd_uobj, UVERBS_LOOKUP_READ);

	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	resp.mr_handle = uobj->id;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret) {
		ib_dereg_mr_user(mr, &attrs->driver_udata);
		goto err_uobj;
	}
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_pd:
	uverbs_obj_put(pd_uobj, UVERBS_LOOKUP_READ);
err_uobj:
	rdma_alloc_abort_uobject(uobj, attrs, false);
	return ret;
}

/*
 * The driver made a new MR in place of @uobj's: the handle names the new
 * one and the old one goes.
 */
static struct ib_mr *uverbs_mr_replace(struct ib_uobject *uobj,
				       struct ib_mr *new_mr,
				       struct ib_pd *pd, u64 iova, u64 length,
				       struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *old = uobj->object;
	int ret;

	uverbs_mr_init(new_mr, pd, uobj, iova, length);
	ret = ib_dereg_mr_user(old, &attrs->driver_udata);
	if (ret)
		ibdev_warn(old->device, "uverbs: the MR replaced by rereg stays: %d\n",
			   ret);
	return new_mr;
}

/**
 * uverbs_rereg_mr - REREG_MR: change a user MR's memory, PD or rights
 * @attrs: the command
 *
 * The driver changes the MR in place or makes a new one, which takes
 * the handle; the keys may change either way.
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for no flag, a misaligned new range, bad access
 * flags, a handle of no MR or PD; -EOPNOTSUPP for unknown flags or a
 * driver that cannot; -EBUSY while another command uses the MR; or the
 * driver's error.
 */
int uverbs_rereg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ib_uobject *uobj, *pd_uobj = NULL;
	struct ib_uverbs_rereg_mr cmd;
	struct ib_mr *mr, *new_mr;
	struct ib_pd *pd, *old_pd;
	struct ib_device *dev;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (!cmd.flags)
		return -EINVAL;
	if ((cmd.flags & ~IB_MR_REREG_SUPPORTED) || !dev->ops.rereg_user_mr)
		return -EOPNOTSUPP;
	if ((cmd.flags & IB_MR_REREG_TRANS) &&
	    !uverbs_mr_aligned(cmd.start, cmd.hca_va))
		return -EINVAL;
	if (cmd.flags & IB_MR_REREG_ACCESS) {
		ret = ib_check_mr_access(dev, cmd.access_flags);
		if (ret)
			return ret;
	}
	uobj = uverbs_obj_get(attrs, &uverbs_type_mr, cmd.mr_handle, UVERBS_LOOKUP_WRITE);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	mr = uobj->object;
	old_pd = mr->pd;
	pd = old_pd;
	if (cmd.flags & IB_MR_REREG_PD) {
		pd_uobj = uverbs_obj_get(attrs, &uverbs_type_pd,
					 cmd.pd_handle, UVERBS_LOOKUP_READ);
		if (IS_ERR(pd_uobj)) {
			ret = PTR_ERR(pd_uobj);
			goto out;
		}
		pd = pd_uobj->object;
	}
	new_mr = dev->ops.rereg_user_mr(mr, cmd.flags, cmd.start, cmd.length,
					cmd.hca_va, cmd.access_flags, pd,
					&attrs->driver_udata);
	if (IS_ERR(new_mr)) {
		ret = PTR_ERR(new_mr);
		goto out_pd;
	}
	if (new_mr) {
		mr = uverbs_mr_replace(uobj, new_mr, pd,
				       (cmd.flags & IB_MR_REREG_TRANS) ?
				       cmd.hca_va : mr->iova,
				       (cmd.flags & IB_MR_REREG_TRANS) ?
				       cmd.length : mr->length, attrs);
	} else {
		if (pd != old_pd) {
			atomic_dec(&old_pd->usecnt);
			atomic_inc(&pd->usecnt);
			mr->pd = pd;
		}
		if (cmd.flags & IB_MR_REREG_TRANS) {
			mr->iova = cmd.hca_va;
			mr->length = cmd.length;
		}
	}
	resp.lkey = mr->lkey;
	resp.rkey = mr->rkey;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
out_pd:
	if (pd_uobj)
		uverbs_obj_put(pd_uobj, UVERBS_LOOKUP_READ);
out:
	uverbs_obj_put(uobj, UVERBS_LOOKUP_WRITE);
	return ret;
}

/**
 * uverbs_dereg_mr - DEREG_MR
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no MR; -EBUSY while another command
 * uses it; or the driver's error.
 */
int uverbs_dereg_mr(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_dereg_mr cmd;

	return uverbs_destroy_cmd(attrs, &cmd, sizeof(cmd), &uverbs_type_mr,
				  &cmd.mr_handle, NULL, NULL, 0);
}
