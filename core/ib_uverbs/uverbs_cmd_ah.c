// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handles from user space: CREATE_AH and DESTROY_AH.  A RoCE
 * address gets its destination MAC resolved by the core (user space
 * gives the GID only).  A user AH holds its PD.
 */
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static int uverbs_ah_destroy(struct ib_uobject *uobj,
			     enum rdma_remove_reason why,
			     struct uverbs_attr_bundle *attrs)
{
	return rdma_destroy_ah_user(uobj->object, RDMA_DESTROY_AH_SLEEPABLE,
				    &attrs->driver_udata);
}

const struct uverbs_api_object uverbs_type_ah = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR(uverbs_ah_destroy),
	.type_class = &uverbs_idr_class,
	.id = UVERBS_OBJECT_AH,
};

/**
 * uverbs_create_ah - CREATE_AH
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a port the device lacks, a handle of no PD or
 * a bad address; -ENOMEM; -EFAULT; or the driver's error (a RoCE
 * address whose MAC cannot be resolved).
 */
int uverbs_create_ah(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_ah_resp resp = {};
	struct ib_uobject *uobj, *pd_uobj;
	struct ib_uverbs_create_ah cmd;
	struct rdma_ah_attr attr = {};
	struct ib_device *dev;
	struct ib_ah *ah;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (!rdma_is_port_valid(dev, cmd.attr.port_num))
		return -EINVAL;
	uobj = rdma_alloc_begin_uobject(&uverbs_type_ah, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd_uobj = uverbs_obj_get(attrs, &uverbs_type_pd, cmd.pd_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_uobj;
	}
	attr.type = rdma_ah_find_type(dev, cmd.attr.port_num);
	rdma_ah_set_make_grd(&attr, false);
	rdma_ah_set_dlid(&attr, cmd.attr.dlid);
	rdma_ah_set_sl(&attr, cmd.attr.sl);
	rdma_ah_set_path_bits(&attr, cmd.attr.src_path_bits);
	rdma_ah_set_static_rate(&attr, cmd.attr.static_rate);
	rdma_ah_set_port_num(&attr, cmd.attr.port_num);
	if (cmd.attr.is_global) {
		rdma_ah_set_grh(&attr, NULL, cmd.attr.grh.flow_label,
				cmd.attr.grh.sgid_index,
				cmd.attr.grh.hop_limit,
				cmd.attr.grh.traffic_class);
		rdma_ah_set_dgid_raw(&attr, cmd.attr.grh.dgid);
	} else {
		rdma_ah_set_ah_flags(&attr, 0);
	}
	ah = rdma_create_user_ah(pd_uobj->object, &attr, &attrs->driver_udata);
	uverbs_obj_put(pd_uobj, UVERBS_LOOKUP_READ);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto err_uobj;
	}
	ah->uobject = uobj;
	uobj->user_handle = cmd.user_handle;
	uobj->object = ah;

	resp.ah_handle = uobj->id;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret) {
		uverbs_ah_destroy(uobj, RDMA_REMOVE_ABORT, attrs);
		goto err_uobj;
	}
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_uobj:
	rdma_alloc_abort_uobject(uobj, attrs, false);
	return ret;
}

/**
 * uverbs_destroy_ah - DESTROY_AH
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no AH; -EBUSY while another command
 * uses it or (rdmavt) a datagram queued with it has not completed.
 */
int uverbs_destroy_ah(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_ah cmd;

	return uverbs_destroy_cmd(attrs, &cmd, sizeof(cmd), &uverbs_type_ah,
				  &cmd.ah_handle, NULL, NULL, 0);
}
