// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues from user space: CREATE_CQ (and its extended form),
 * DESTROY_CQ, POLL_CQ, REQ_NOTIFY_CQ, RESIZE_CQ and the extended
 * MODIFY_CQ.
 *
 * A user CQ's completion handler queues an event on its completion
 * channel, if it has one; its async events go to the context's async
 * file.  Its events not read when it goes are taken away, and DESTROY_CQ
 * answers how many were read, so that libibverbs knows when every event
 * it handed out has been acknowledged.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/opa_addr.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

static struct ib_ucq_object *to_ucq(struct ib_uobject *uobj)
{
	return container_of(uobj, struct ib_ucq_object, uevent.uobject);
}

/**
 * uverbs_release_uevent - an object's async events and its async file go
 * @uevent: the object, its verbs object destroyed
 *
 * Context: process context.
 */
void uverbs_release_uevent(struct ib_uevent_object *uevent)
{
	if (!uevent->event_file)
		return;
	uverbs_events_purge(uevent->event_file, &uevent->event_list);
	uverbs_event_file_put(uevent->event_file);
	uevent->event_file = NULL;
}

/**
 * uverbs_init_uevent - where a new object's async events go
 * @uevent: the object
 * @user_handle: what user space calls it in its events
 * @async: the async file an ioctl named for them, or NULL for the
 *	context's
 *
 * Context: process context, a creating command of the file.
 */
void uverbs_init_uevent(struct ib_uevent_object *uevent, u64 user_handle,
			struct uverbs_event_file *async)
{
	struct ib_uverbs_file *file = uevent->uobject.ufile;

	uevent->uobject.user_handle = user_handle;
	INIT_LIST_HEAD(&uevent->event_list);
	/*
	 * The context's goes only after the context's objects.  It is
	 * none for a context the ioctl made, before ASYNC_EVENT_ALLOC.
	 */
	uevent->event_file = async ?: READ_ONCE(file->async);
	if (uevent->event_file)
		kref_get(&uevent->event_file->ref);
}

static void uverbs_release_ucq(struct ib_ucq_object *ucq)
{
	if (ucq->comp_file) {
		uverbs_events_purge(ucq->comp_file, &ucq->comp_list);
		uverbs_event_file_put(ucq->comp_file);
		ucq->comp_file = NULL;
	}
	uverbs_release_uevent(&ucq->uevent);
}

static int uverbs_cq_destroy(struct ib_uobject *uobj,
			     enum rdma_remove_reason why,
			     struct uverbs_attr_bundle *attrs)
{
	int ret;

	ret = ib_destroy_cq_user(uobj->object, &attrs->driver_udata);
	if (ret)
		return ret;
	uverbs_release_ucq(to_ucq(uobj));
	return 0;
}

const struct uverbs_api_object uverbs_type_cq = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ib_ucq_object),
					       uverbs_cq_destroy),
	.type_class = &uverbs_idr_class,
	.id = UVERBS_OBJECT_CQ,
};

/* The async events of a user CQ. */
static void uverbs_cq_event_handler(struct ib_event *event, void *context)
{
	struct ib_ucq_object *ucq = event->element.cq->uobject;

	uverbs_async_queue(ucq->uevent.event_file,
			   ucq->uevent.uobject.user_handle, event->event,
			   &ucq->uevent);
}

/*
 * The verbs CQ of @ucq, its channel and async file set: 0 with
 * ->object set, or an error with nothing made.
 */
static int uverbs_cq_make(struct uverbs_attr_bundle *attrs,
			  struct ib_device *dev, struct ib_ucq_object *ucq,
			  const struct ib_uverbs_ex_create_cq *cmd)
{
	struct ib_cq_init_attr attr = {
		.cqe = cmd->cqe,
		.comp_vector = cmd->comp_vector,
		.flags = cmd->flags,
	};
	struct ib_cq *cq;
	int ret;

	cq = rdma_zalloc_drv_obj(dev, ib_cq);
	if (!cq)
		return -ENOMEM;
	cq->device = dev;
	cq->uobject = ucq;
	cq->comp_handler = uverbs_comp_handler;
	cq->event_handler = uverbs_cq_event_handler;
	cq->cq_context = ucq->comp_file;
	atomic_set(&cq->usecnt, 0);
	rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&cq->res, NULL);
	ret = dev->ops.create_cq(cq, &attr, attrs);
	if (ret) {
		rdma_restrack_del(&cq->res);
		kfree(cq);
		return ret;
	}
	rdma_restrack_add(&cq->res);
	ucq->uevent.uobject.object = cq;
	return 0;
}

/* CREATE_CQ, either form: @cmd is the extended request. */
static int uverbs_create_cq_common(struct uverbs_attr_bundle *attrs,
				   struct ib_device *dev,
				   const struct ib_uverbs_ex_create_cq *cmd,
				   struct ib_uverbs_ex_create_cq_resp *resp)
{
	struct ib_ucq_object *ucq;
	struct ib_uobject *uobj;
	struct ib_cq *cq;
	int ret;

	if (cmd->comp_vector >= attrs->ufile->device->num_comp_vectors)
		return -EINVAL;
	uobj = rdma_alloc_begin_uobject(&uverbs_type_cq, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ucq = to_ucq(uobj);
	INIT_LIST_HEAD(&ucq->comp_list);
	if (cmd->comp_channel >= 0) {
		ucq->comp_file = uverbs_comp_channel_get(attrs,
							 cmd->comp_channel);
		if (IS_ERR(ucq->comp_file)) {
			ret = PTR_ERR(ucq->comp_file);
			ucq->comp_file = NULL;
			goto err_uobj;
		}
	}
	uverbs_init_uevent(&ucq->uevent, cmd->user_handle, NULL);

	ret = uverbs_cq_make(attrs, dev, ucq, cmd);
	if (ret)
		goto err_ucq;
	cq = uobj->object;
	resp->base.cq_handle = uobj->id;
	resp->base.cqe = cq->cqe;
	resp->response_length = uverbs_response_length(attrs, sizeof(*resp));
	ret = uverbs_response(attrs, resp, sizeof(*resp));
	if (ret) {
		ib_destroy_cq_user(cq, &attrs->driver_udata);
		goto err_ucq;
	}
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_ucq:
	uverbs_release_ucq(ucq);
err_uobj:
	rdma_alloc_abort_uobject(uobj, attrs, false);
	return ret;
}

/**
 * uverbs_cq_create_ioctl - CQ_CREATE of the ioctl: the verbs CQ of a new
 *	uobject
 * @attrs: the method
 * @uobj: the new CQ's uobject (UVERBS_ACCESS_NEW), of the file's context
 * @cmd: what the attributes asked (comp_channel unused)
 * @comp: the completion channel, or NULL
 * @async: the async file for its events, or NULL for the context's
 *
 * Context: process context, a method of the file.
 * Return: 0, ->object set (the method commits it); -EINVAL for a
 * completion vector the device lacks; or the driver's error, nothing
 * made.
 */
int uverbs_cq_create_ioctl(struct uverbs_attr_bundle *attrs,
			   struct ib_uobject *uobj,
			   const struct ib_uverbs_ex_create_cq *cmd,
			   struct uverbs_event_file *comp,
			   struct uverbs_event_file *async)
{
	struct ib_ucq_object *ucq = to_ucq(uobj);
	int ret;

	if (cmd->comp_vector >= attrs->ufile->device->num_comp_vectors)
		return -EINVAL;
	INIT_LIST_HEAD(&ucq->comp_list);
	if (comp) {
		kref_get(&comp->ref);
		ucq->comp_file = comp;
	}
	uverbs_init_uevent(&ucq->uevent, cmd->user_handle, async);
	ret = uverbs_cq_make(attrs, uobj->context->device, ucq, cmd);
	if (ret)
		uverbs_release_ucq(ucq);
	return ret;
}

/**
 * uverbs_create_cq - CREATE_CQ
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a completion vector the device lacks or an fd
 * that is not a completion channel of this file; -ENOMEM; -EFAULT; or
 * the driver's error (rdmavt: -EINVAL for a size past max_cqe).
 */
int uverbs_create_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_cq_resp resp = {};
	struct ib_uverbs_ex_create_cq ex = {};
	struct ib_uverbs_create_cq cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ex.user_handle = cmd.user_handle;
	ex.cqe = cmd.cqe;
	ex.comp_vector = cmd.comp_vector;
	ex.comp_channel = cmd.comp_channel;
	/* the legacy response is the extended one's base */
	return uverbs_create_cq_common(attrs, dev, &ex, &resp);
}

/**
 * uverbs_ex_create_cq - the extended CREATE_CQ (flags)
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: as uverbs_create_cq(); -EINVAL for a comp_mask or reserved
 * field set; -EOPNOTSUPP for flags the driver does not take.
 */
int uverbs_ex_create_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_cq_resp resp = {};
	struct ib_uverbs_ex_create_cq cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;
	return uverbs_create_cq_common(attrs, dev, &cmd, &resp);
}

void uverbs_cq_counts(struct ib_uobject *uobj, void *r)
{
	struct ib_uverbs_destroy_cq_resp *resp = r;

	resp->comp_events_reported = to_ucq(uobj)->comp_events_reported;
	resp->async_events_reported = to_ucq(uobj)->uevent.events_reported;
}

/**
 * uverbs_destroy_cq - DESTROY_CQ
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0, the response giving the CQ's events read; -EINVAL for a
 * handle of no CQ; -EBUSY while a QP uses the CQ or another command
 * does; -EFAULT.
 */
int uverbs_destroy_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_cq_resp resp = {};
	struct ib_uverbs_destroy_cq cmd;

	return uverbs_destroy_cmd(attrs, &cmd, sizeof(cmd), &uverbs_type_cq,
				  &cmd.cq_handle, uverbs_cq_counts, &resp,
				  sizeof(resp));
}

/* struct ib_uverbs_wc of a work completion. */
static void uverbs_wc(struct ib_device *dev, const struct ib_wc *wc,
		      struct ib_uverbs_wc *u)
{
	memset(u, 0, sizeof(*u));
	u->wr_id = wc->wr_id;
	u->status = wc->status;
	u->opcode = wc->opcode;
	u->vendor_err = wc->vendor_err;
	u->byte_len = wc->byte_len;
	u->ex.imm_data = wc->ex.imm_data;
	u->qp_num = wc->qp->qp_num;
	u->src_qp = wc->src_qp;
	u->wc_flags = wc->wc_flags;
	u->pkey_index = wc->pkey_index;
	if (rdma_cap_opa_ah(dev, wc->port_num))
		u->slid = OPA_TO_IB_UCAST_LID(wc->slid);
	else
		u->slid = ib_lid_cpu16(wc->slid);
	u->sl = wc->sl;
	u->dlid_path_bits = wc->dlid_path_bits;
	u->port_num = wc->port_num;
}

/**
 * uverbs_poll_cq - POLL_CQ: completions through the kernel
 * @attrs: the command
 *
 * At most ne completions, and no more than the response buffer holds
 * after its header.
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no CQ; -EFAULT; or the driver's
 * error.
 */
int uverbs_poll_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_poll_cq_resp resp = {};
	struct ib_uverbs_poll_cq cmd;
	struct ib_uverbs_wc uwc;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	u8 __user *data;
	struct ib_wc wc;
	u32 room;
	int ret = 0;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = uverbs_obj_get(attrs, &uverbs_type_cq, cmd.cq_handle,
			      UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	room = (attrs->ucore.outlen - sizeof(resp)) / sizeof(uwc);
	data = attrs->ucore.outbuf + sizeof(resp);
	while (resp.count < min(cmd.ne, room)) {
		/*
		 * wc.qp may be a driver's stand-in for a QP destroyed since
		 * the completion was queued, freed a grace period after it
		 * is polled (rvt_cq_forget_qp()): read it under RCU.
		 */
		rcu_read_lock();
		ret = ib_poll_cq(uobj->object, 1, &wc);
		if (ret > 0)
			uverbs_wc(dev, &wc, &uwc);
		rcu_read_unlock();
		if (ret <= 0)
			break;
		ret = 0;
		if (copy_to_user(data, &uwc, sizeof(uwc))) {
			ret = -EFAULT;
			break;
		}
		data += sizeof(uwc);
		resp.count++;
	}
	if (ret >= 0 &&
	    copy_to_user(attrs->ucore.outbuf, &resp, sizeof(resp)))
		ret = -EFAULT;
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return ret < 0 ? ret : 0;
}

/**
 * uverbs_req_notify_cq - REQ_NOTIFY_CQ: arm the CQ's completion event
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0 (the driver's answer is not passed on, as upstream); -EINVAL
 * for a handle of no CQ.
 */
int uverbs_req_notify_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_req_notify_cq cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = uverbs_obj_get(attrs, &uverbs_type_cq, cmd.cq_handle,
			      UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ib_req_notify_cq(uobj->object, cmd.solicited_only ?
			 IB_CQ_SOLICITED : IB_CQ_NEXT_COMP);
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return 0;
}

/**
 * uverbs_resize_cq - RESIZE_CQ
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no CQ; -EOPNOTSUPP when the driver
 * cannot; -EFAULT; or the driver's error.
 */
int uverbs_resize_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_resize_cq_resp resp = {};
	struct ib_uverbs_resize_cq cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_cq *cq;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (!dev->ops.resize_cq)
		return -EOPNOTSUPP;
	uobj = uverbs_obj_get(attrs, &uverbs_type_cq, cmd.cq_handle,
			      UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	cq = uobj->object;
	ret = dev->ops.resize_cq(cq, cmd.cqe, &attrs->driver_udata);
	if (!ret) {
		resp.cqe = cq->cqe;
		ret = uverbs_response(attrs, &resp, sizeof(resp));
	}
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return ret;
}

/**
 * uverbs_ex_modify_cq - the extended MODIFY_CQ: completion moderation
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for no attribute, a reserved field set or a handle
 * of no CQ; -EOPNOTSUPP for attributes past IB_CQ_MODERATE or a driver
 * without moderation.
 */
int uverbs_ex_modify_cq(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_cq cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (!cmd.attr_mask || cmd.reserved)
		return -EINVAL;
	if (cmd.attr_mask > IB_CQ_MODERATE)
		return -EOPNOTSUPP;
	uobj = uverbs_obj_get(attrs, &uverbs_type_cq, cmd.cq_handle,
			      UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = rdma_set_cq_moderation(uobj->object, cmd.attr.cq_count,
				     cmd.attr.cq_period);
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return ret;
}
