// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues from user space: CREATE_SRQ, CREATE_XSRQ,
 * MODIFY_SRQ, QUERY_SRQ and DESTROY_SRQ, and the SRQ of the ioctl's
 * SRQ_CREATE (uverbs_std_methods.c).  A user SRQ holds its PD and is
 * tracked; its async events (the limit reached) go to the context's
 * async file, or to the one SRQ_CREATE named.  XRC SRQs need an XRC
 * domain, and tag matching SRQs a driver that has them: none here does
 * (as upstream's siw, rxe and rdmavt), so CREATE_XSRQ takes basic SRQs
 * only.
 */
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static struct ib_usrq_object *to_usrq(struct ib_uobject *uobj)
{
	return container_of(uobj, struct ib_usrq_object, uevent.uobject);
}

static int uverbs_srq_destroy(struct ib_uobject *uobj,
			      enum rdma_remove_reason why,
			      struct uverbs_attr_bundle *attrs)
{
	int ret;

	ret = ib_destroy_srq_user(uobj->object, &attrs->driver_udata);
	if (ret)
		return ret;
	uverbs_release_uevent(&to_usrq(uobj)->uevent);
	return 0;
}

const struct uverbs_api_object uverbs_type_srq = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ib_usrq_object),
					       uverbs_srq_destroy),
	.type_class = &uverbs_idr_class,
	.id = UVERBS_OBJECT_SRQ,
};

/* The async events of a user SRQ. */
static void uverbs_srq_event_handler(struct ib_event *event, void *context)
{
	struct ib_usrq_object *usrq = event->element.srq->uobject;

	uverbs_async_queue(usrq->uevent.event_file,
			   usrq->uevent.uobject.user_handle, event->event,
			   &usrq->uevent);
}

/*
 * The verbs SRQ of @usrq as @attr asks (its PD, and CQ if its type has
 * one, held by the caller), its async events to @async or the context's
 * async file: 0 with ->object set and @attr's sizes what the driver
 * gave, or an error with nothing made.  CREATE_SRQ, CREATE_XSRQ and the
 * ioctl's SRQ_CREATE.
 */
static int uverbs_srq_make(struct uverbs_attr_bundle *attrs,
			   struct ib_usrq_object *usrq, struct ib_pd *pd,
			   struct ib_srq_init_attr *attr, u64 user_handle,
			   struct uverbs_event_file *async)
{
	struct ib_srq *srq;

	uverbs_init_uevent(&usrq->uevent, user_handle, async);
	attr->event_handler = uverbs_srq_event_handler;
	srq = ib_create_srq_user(pd, attr, usrq, &attrs->driver_udata);
	if (IS_ERR(srq)) {
		uverbs_release_uevent(&usrq->uevent);
		return PTR_ERR(srq);
	}
	usrq->uevent.uobject.object = srq;
	return 0;
}

/**
 * uverbs_srq_create_ioctl - SRQ_CREATE of the ioctl: the verbs SRQ of a
 *	new uobject
 * @attrs: the method
 * @uobj: the new SRQ's uobject (UVERBS_ACCESS_NEW), of the file's context
 * @pd: its PD, held by the method (as is @attr's CQ, if any)
 * @attr: its type and sizes (checked); gets the sizes the driver gave
 * @user_handle: what user space calls it in its events
 * @async: the async file for its events, or NULL for the context's
 *
 * Context: process context, a method of the file.
 * Return: 0, ->object set (the method commits it); or the core's or
 * the driver's error (-EOPNOTSUPP for a type it lacks, -EINVAL for
 * sizes past its limits), nothing made.
 */
int uverbs_srq_create_ioctl(struct uverbs_attr_bundle *attrs,
			    struct ib_uobject *uobj, struct ib_pd *pd,
			    struct ib_srq_init_attr *attr, u64 user_handle,
			    struct uverbs_event_file *async)
{
	return uverbs_srq_make(attrs, to_usrq(uobj), pd, attr, user_handle,
			       async);
}

/* CREATE_SRQ, either form: @cmd is the XSRQ request. */
static int uverbs_create_srq_common(struct uverbs_attr_bundle *attrs,
				    const struct ib_uverbs_create_xsrq *cmd)
{
	struct ib_uverbs_create_srq_resp resp = {};
	struct ib_srq_init_attr attr = {};
	struct ib_uobject *uobj, *pd_uobj;
	int ret;

	/* XRC and tag matching SRQs: no driver here has them */
	if (cmd->srq_type != IB_SRQT_BASIC)
		return cmd->srq_type <= IB_SRQT_TM ? -EOPNOTSUPP : -EINVAL;
	uobj = rdma_alloc_begin_uobject(&uverbs_type_srq, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	pd_uobj = uverbs_obj_get(attrs, &uverbs_type_pd, cmd->pd_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(pd_uobj)) {
		ret = PTR_ERR(pd_uobj);
		goto err_uobj;
	}
	attr.srq_type = cmd->srq_type;
	attr.attr.max_wr = cmd->max_wr;
	attr.attr.max_sge = cmd->max_sge;
	attr.attr.srq_limit = cmd->srq_limit;
	ret = uverbs_srq_make(attrs, to_usrq(uobj), pd_uobj->object, &attr,
			      cmd->user_handle, NULL);
	uverbs_obj_put(pd_uobj, UVERBS_LOOKUP_READ);
	if (ret)
		goto err_uobj;

	resp.srq_handle = uobj->id;
	resp.max_wr = attr.attr.max_wr;
	resp.max_sge = attr.attr.max_sge;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret) {
		uverbs_srq_destroy(uobj, RDMA_REMOVE_ABORT, attrs);
		goto err_uobj;
	}
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_uobj:
	rdma_alloc_abort_uobject(uobj, attrs, false);
	return ret;
}

/**
 * uverbs_create_srq - CREATE_SRQ
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no PD; -ENOMEM; -EFAULT; or the
 * driver's error (sizes past its limits).
 */
int uverbs_create_srq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_xsrq x = {};
	struct ib_uverbs_create_srq cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	x.response = cmd.response;
	x.user_handle = cmd.user_handle;
	x.srq_type = IB_SRQT_BASIC;
	x.pd_handle = cmd.pd_handle;
	x.max_wr = cmd.max_wr;
	x.max_sge = cmd.max_sge;
	x.srq_limit = cmd.srq_limit;
	return uverbs_create_srq_common(attrs, &x);
}

/**
 * uverbs_create_xsrq - CREATE_XSRQ: an SRQ of a given type
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: as uverbs_create_srq(); -EOPNOTSUPP for XRC and tag matching
 * SRQs, -EINVAL for an unknown type.
 */
int uverbs_create_xsrq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_create_xsrq cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	return uverbs_create_srq_common(attrs, &cmd);
}

/**
 * uverbs_modify_srq - MODIFY_SRQ: resize it or arm its limit
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no SRQ; -EOPNOTSUPP when the driver
 * cannot; or the driver's error.
 */
int uverbs_modify_srq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_modify_srq cmd;
	struct ib_srq_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_srq *srq;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = uverbs_obj_get(attrs, &uverbs_type_srq, cmd.srq_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	srq = uobj->object;
	attr.max_wr = cmd.max_wr;
	attr.srq_limit = cmd.srq_limit;
	ret = dev->ops.modify_srq ?
	      dev->ops.modify_srq(srq, &attr, cmd.attr_mask,
				  &attrs->driver_udata) : -EOPNOTSUPP;
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return ret;
}

/**
 * uverbs_query_srq - QUERY_SRQ
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no SRQ; -EFAULT; or the driver's
 * error.
 */
int uverbs_query_srq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_srq_resp resp = {};
	struct ib_uverbs_query_srq cmd;
	struct ib_srq_attr attr = {};
	struct ib_uobject *uobj;
	struct ib_device *dev;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = uverbs_obj_get(attrs, &uverbs_type_srq, cmd.srq_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = ib_query_srq(uobj->object, &attr);
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	if (ret)
		return ret;
	resp.max_wr = attr.max_wr;
	resp.max_sge = attr.max_sge;
	resp.srq_limit = attr.srq_limit;
	return uverbs_response(attrs, &resp, sizeof(resp));
}

void uverbs_srq_counts(struct ib_uobject *uobj, void *r)
{
	struct ib_uverbs_destroy_srq_resp *resp = r;

	resp->events_reported = to_usrq(uobj)->uevent.events_reported;
}

/**
 * uverbs_destroy_srq - DESTROY_SRQ
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0, the response giving the SRQ's async events read; -EINVAL
 * for a handle of no SRQ; -EBUSY while a QP uses it or another command
 * does; -EFAULT.
 */
int uverbs_destroy_srq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_srq_resp resp = {};
	struct ib_uverbs_destroy_srq cmd;

	return uverbs_destroy_cmd(attrs, &cmd, sizeof(cmd), &uverbs_type_srq,
				  &cmd.srq_handle, uverbs_srq_counts, &resp,
				  sizeof(resp));
}
