// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs from user space: CREATE_QP (and its extended form),
 * QUERY_QP, MODIFY_QP (both forms), DESTROY_QP, ATTACH_MCAST and
 * DETACH_MCAST; the ioctl's QP_CREATE (uverbs_std_methods.c) makes its
 * QP here too.
 *
 * A user QP holds its PD, CQs and SRQ (their usecnt) and is tracked
 * (rdma res show qp names the process).  Its async events go to the
 * context's async file, or to the one QP_CREATE named.  Its multicast
 * attachments are the file's to undo: DESTROY_QP refuses (-EBUSY) while
 * it has some, the context's end detaches them.  XRC QPs need an XRC
 * domain, which none of the drivers here offers (as upstream's siw, rxe
 * and rdmavt).
 */
#include <linux/slab.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

/* A multicast group a user QP is attached to. */
struct uverbs_mcast_entry {
	struct list_head	list;
	union ib_gid		gid;
	u16			lid;
};

static struct ib_uqp_object *to_uqp(struct ib_uobject *uobj)
{
	return container_of(uobj, struct ib_uqp_object, uevent.uobject);
}

static void uverbs_detach_all_mcast(struct ib_qp *qp,
				    struct ib_uqp_object *uqp)
{
	struct uverbs_mcast_entry *m, *tmp;

	mutex_lock(&uqp->mcast_lock);
	list_for_each_entry_safe(m, tmp, &uqp->mcast_list, list) {
		ib_detach_mcast(qp, &m->gid, m->lid);
		list_del(&m->list);
		kfree(m);
	}
	mutex_unlock(&uqp->mcast_lock);
}

static int uverbs_qp_destroy(struct ib_uobject *uobj,
			     enum rdma_remove_reason why,
			     struct uverbs_attr_bundle *attrs)
{
	struct ib_uqp_object *uqp = to_uqp(uobj);
	struct ib_qp *qp = uobj->object;
	int ret;

	/*
	 * The user detaches what it attached; when the context goes, the
	 * attachments go with the QP (they are no objects of their own).
	 */
	if (why == RDMA_REMOVE_DESTROY) {
		if (!list_empty(&uqp->mcast_list))
			return -EBUSY;
	} else {
		uverbs_detach_all_mcast(qp, uqp);
	}
	ret = ib_destroy_qp_user(qp, &attrs->driver_udata);
	if (ret)
		return ret;
	uverbs_release_uevent(&uqp->uevent);
	return 0;
}

const struct uverbs_api_object uverbs_type_qp = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ib_uqp_object),
					       uverbs_qp_destroy),
	.type_class = &uverbs_idr_class,
	.id = UVERBS_OBJECT_QP,
};

/* The async events of a user QP. */
static void uverbs_qp_event_handler(struct ib_event *event, void *context)
{
	struct ib_uqp_object *uqp = event->element.qp->uobject;

	if (!uqp)
		return;
	uverbs_async_queue(uqp->uevent.event_file,
			   uqp->uevent.uobject.user_handle, event->event,
			   &uqp->uevent);
}

/* The objects a new QP uses, held shared while it is made. */
struct uverbs_qp_refs {
	struct ib_uobject *pd;
	struct ib_uobject *scq;
	struct ib_uobject *rcq;
	struct ib_uobject *srq;
};

static void uverbs_qp_refs_put(struct uverbs_qp_refs *r)
{
	if (r->srq)
		uverbs_obj_put(r->srq, UVERBS_LOOKUP_READ);
	if (r->rcq)
		uverbs_obj_put(r->rcq, UVERBS_LOOKUP_READ);
	if (r->scq)
		uverbs_obj_put(r->scq, UVERBS_LOOKUP_READ);
	if (r->pd)
		uverbs_obj_put(r->pd, UVERBS_LOOKUP_READ);
}

/* Hold @handle's object of @type in *@slot; false (and @ret) if none. */
static bool uverbs_qp_ref(struct uverbs_attr_bundle *attrs,
			  const struct uverbs_api_object *type, u32 handle,
			  struct ib_uobject **slot, int *ret)
{
	struct ib_uobject *uobj = uverbs_obj_get(attrs, type, handle, UVERBS_LOOKUP_READ);

	if (IS_ERR(uobj)) {
		*ret = PTR_ERR(uobj);
		return false;
	}
	*slot = uobj;
	return true;
}

/* Create flags user space may ask for; the driver refuses what it lacks. */
#define UVERBS_QP_CREATE_FLAGS						\
	(IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK | IB_QP_CREATE_CROSS_CHANNEL | \
	 IB_QP_CREATE_MANAGED_SEND | IB_QP_CREATE_MANAGED_RECV |	\
	 IB_QP_CREATE_SCATTER_FCS | IB_QP_CREATE_CVLAN_STRIPPING |	\
	 IB_QP_CREATE_SOURCE_QPN | IB_QP_CREATE_PCI_WRITE_END_PADDING)

/**
 * uverbs_qp_type_check - whether user space may create a QP of a type
 * @type: the type asked for
 *
 * The special QPs (SMI, GSI) are the kernel's; a raw packet QP sees
 * and sends whole frames.
 *
 * Context: process context, a creating command of the file.
 * Return: 0; -EPERM for a raw packet QP without CAP_NET_RAW; -EINVAL
 * for a type user space cannot have.
 */
int uverbs_qp_type_check(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_RAW_PACKET:
		return capable(CAP_NET_RAW) ? 0 : -EPERM;
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
	case IB_QPT_XRC_INI:
	case IB_QPT_XRC_TGT:
	case IB_QPT_DRIVER:
		return 0;
	default:
		return -EINVAL;
	}
}

/* Check what the request asks for before anything is looked up. */
static int uverbs_create_qp_check(const struct ib_uverbs_ex_create_qp *cmd)
{
	int ret = uverbs_qp_type_check(cmd->qp_type);

	if (ret)
		return ret;
	/* receive work queue indirection tables: no driver here has them */
	if (cmd->comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE)
		return -EINVAL;
	if (cmd->create_flags & ~UVERBS_QP_CREATE_FLAGS)
		return -EINVAL;
	if ((cmd->create_flags & IB_QP_CREATE_SOURCE_QPN) &&
	    !capable(CAP_NET_RAW))
		return -EPERM;
	return 0;
}

/* Look up and hold what @cmd names; fills @attr's objects. */
static int uverbs_create_qp_refs(struct uverbs_attr_bundle *attrs,
				 struct ib_uverbs_ex_create_qp *cmd,
				 struct ib_qp_init_attr *attr,
				 struct uverbs_qp_refs *r)
{
	int ret = 0;

	/* an XRC target's handle names an XRC domain: there are none */
	if (cmd->qp_type == IB_QPT_XRC_TGT)
		return -EINVAL;
	if (cmd->qp_type == IB_QPT_XRC_INI) {
		cmd->max_recv_wr = 0;
		cmd->max_recv_sge = 0;
	} else {
		if (cmd->is_srq) {
			if (!uverbs_qp_ref(attrs, &uverbs_type_srq,
					   cmd->srq_handle, &r->srq, &ret))
				return ret;
			attr->srq = r->srq->object;
			if (attr->srq->srq_type == IB_SRQT_XRC)
				return -EINVAL;
		}
		if (cmd->recv_cq_handle != cmd->send_cq_handle) {
			if (!uverbs_qp_ref(attrs, &uverbs_type_cq,
					   cmd->recv_cq_handle, &r->rcq, &ret))
				return ret;
			attr->recv_cq = r->rcq->object;
		}
	}
	if (!uverbs_qp_ref(attrs, &uverbs_type_cq, cmd->send_cq_handle,
			   &r->scq, &ret))
		return ret;
	attr->send_cq = r->scq->object;
	if (cmd->qp_type != IB_QPT_XRC_INI && !attr->recv_cq)
		attr->recv_cq = attr->send_cq;
	if (!uverbs_qp_ref(attrs, &uverbs_type_pd, cmd->pd_handle, &r->pd,
			   &ret))
		return ret;
	return 0;
}

/*
 * The verbs QP of @uqp as @attr asks (its PD, CQs and SRQ held by the
 * caller, @cap its sizes), its async events to @async or the context's
 * async file: 0 with ->object set and @cap what the driver gave, or an
 * error with nothing made.  CREATE_QP and the ioctl's QP_CREATE.
 */
static int uverbs_qp_make(struct uverbs_attr_bundle *attrs,
			  struct ib_uqp_object *uqp, struct ib_pd *pd,
			  struct ib_qp_init_attr *attr,
			  struct ib_uverbs_qp_cap *cap, u64 user_handle,
			  struct uverbs_event_file *async)
{
	struct ib_qp *qp;

	mutex_init(&uqp->mcast_lock);
	INIT_LIST_HEAD(&uqp->mcast_list);
	uverbs_init_uevent(&uqp->uevent, user_handle, async);
	attr->event_handler = uverbs_qp_event_handler;
	attr->cap.max_send_wr = cap->max_send_wr;
	attr->cap.max_recv_wr = cap->max_recv_wr;
	attr->cap.max_send_sge = cap->max_send_sge;
	attr->cap.max_recv_sge = cap->max_recv_sge;
	attr->cap.max_inline_data = cap->max_inline_data;
	qp = ib_create_qp_user(pd->device, pd, attr, &attrs->driver_udata,
			       uqp, KBUILD_MODNAME);
	if (IS_ERR(qp)) {
		uverbs_release_uevent(&uqp->uevent);
		return PTR_ERR(qp);
	}
	ib_qp_usecnt_inc(qp);
	uqp->uevent.uobject.object = qp;
	cap->max_send_wr = attr->cap.max_send_wr;
	cap->max_recv_wr = attr->cap.max_recv_wr;
	cap->max_send_sge = attr->cap.max_send_sge;
	cap->max_recv_sge = attr->cap.max_recv_sge;
	cap->max_inline_data = attr->cap.max_inline_data;
	return 0;
}

/**
 * uverbs_qp_create_ioctl - QP_CREATE of the ioctl: the verbs QP of a new
 *	uobject
 * @attrs: the method
 * @uobj: the new QP's uobject (UVERBS_ACCESS_NEW), of the file's context
 * @pd: its PD, held by the method as are @attr's CQs and SRQ
 * @attr: its type, objects, signalling and create flags (checked)
 * @cap: the sizes asked for; gets those the driver gave
 * @user_handle: what user space calls it in its events
 * @async: the async file for its events, or NULL for the context's
 *
 * Context: process context, a method of the file.
 * Return: 0, ->object set (the method commits it); or the core's or
 * the driver's error (-EOPNOTSUPP for a type or create flags it lacks,
 * -EINVAL for sizes past its limits), nothing made.
 */
int uverbs_qp_create_ioctl(struct uverbs_attr_bundle *attrs,
			   struct ib_uobject *uobj, struct ib_pd *pd,
			   struct ib_qp_init_attr *attr,
			   struct ib_uverbs_qp_cap *cap, u64 user_handle,
			   struct uverbs_event_file *async)
{
	return uverbs_qp_make(attrs, to_uqp(uobj), pd, attr, cap, user_handle,
			      async);
}

/* CREATE_QP, either form: @cmd is the extended request. */
static int uverbs_create_qp_common(struct uverbs_attr_bundle *attrs,
				   struct ib_uverbs_ex_create_qp *cmd)
{
	struct ib_uverbs_ex_create_qp_resp resp = {};
	struct ib_qp_init_attr attr = {};
	struct uverbs_qp_refs refs = {};
	struct ib_uverbs_qp_cap cap;
	struct ib_uobject *uobj;
	struct ib_qp *qp;
	int ret;

	ret = uverbs_create_qp_check(cmd);
	if (ret)
		return ret;
	uobj = rdma_alloc_begin_uobject(&uverbs_type_qp, attrs);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = uverbs_create_qp_refs(attrs, cmd, &attr, &refs);
	if (ret)
		goto err_refs;
	attr.sq_sig_type = cmd->sq_sig_all ? IB_SIGNAL_ALL_WR :
					     IB_SIGNAL_REQ_WR;
	attr.qp_type = cmd->qp_type;
	attr.create_flags = cmd->create_flags;
	if (attr.create_flags & IB_QP_CREATE_SOURCE_QPN)
		attr.source_qpn = cmd->source_qpn;
	/* after the lookups: an XRC initiator has no receive queue */
	cap = (struct ib_uverbs_qp_cap) {
		.max_send_wr = cmd->max_send_wr,
		.max_recv_wr = cmd->max_recv_wr,
		.max_send_sge = cmd->max_send_sge,
		.max_recv_sge = cmd->max_recv_sge,
		.max_inline_data = cmd->max_inline_data,
	};
	ret = uverbs_qp_make(attrs, to_uqp(uobj), refs.pd->object, &attr,
			     &cap, cmd->user_handle, NULL);
	if (ret)
		goto err_refs;
	uverbs_qp_refs_put(&refs);

	qp = uobj->object;
	resp.base.qpn = qp->qp_num;
	resp.base.qp_handle = uobj->id;
	resp.base.max_recv_sge = cap.max_recv_sge;
	resp.base.max_send_sge = cap.max_send_sge;
	resp.base.max_recv_wr = cap.max_recv_wr;
	resp.base.max_send_wr = cap.max_send_wr;
	resp.base.max_inline_data = cap.max_inline_data;
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	ret = uverbs_response(attrs, &resp, sizeof(resp));
	if (ret) {
		uverbs_qp_destroy(uobj, RDMA_REMOVE_ABORT, attrs);
		rdma_alloc_abort_uobject(uobj, attrs, false);
		return ret;
	}
	rdma_alloc_commit_uobject(uobj, attrs);
	return 0;

err_refs:
	uverbs_qp_refs_put(&refs);
	rdma_alloc_abort_uobject(uobj, attrs, false);
	return ret;
}

/**
 * uverbs_create_qp - CREATE_QP
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for an unknown QP type or a handle of no PD, CQ or
 * SRQ; -EPERM for a raw packet QP without CAP_NET_RAW; -ENOMEM; -EFAULT;
 * or the driver's error (-EOPNOTSUPP for a type it lacks).
 */
int uverbs_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_qp ex = {};
	struct ib_uverbs_create_qp cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ex.user_handle = cmd.user_handle;
	ex.pd_handle = cmd.pd_handle;
	ex.send_cq_handle = cmd.send_cq_handle;
	ex.recv_cq_handle = cmd.recv_cq_handle;
	ex.srq_handle = cmd.srq_handle;
	ex.max_send_wr = cmd.max_send_wr;
	ex.max_recv_wr = cmd.max_recv_wr;
	ex.max_send_sge = cmd.max_send_sge;
	ex.max_recv_sge = cmd.max_recv_sge;
	ex.max_inline_data = cmd.max_inline_data;
	ex.sq_sig_all = cmd.sq_sig_all;
	ex.qp_type = cmd.qp_type;
	ex.is_srq = cmd.is_srq;
	return uverbs_create_qp_common(attrs, &ex);
}

/**
 * uverbs_ex_create_qp - the extended CREATE_QP (create flags, source QPN)
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: as uverbs_create_qp(); -EINVAL for an unknown comp_mask bit,
 * a reserved field set, or create flags user space may not ask for.
 */
int uverbs_ex_create_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_create_qp cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if ((cmd.comp_mask & ~IB_UVERBS_CREATE_QP_SUP_COMP_MASK) ||
	    cmd.reserved)
		return -EINVAL;
	return uverbs_create_qp_common(attrs, &cmd);
}

static void uverbs_dest_to_user(const struct rdma_ah_attr *a,
				struct ib_uverbs_qp_dest *d)
{
	d->dlid = rdma_ah_get_dlid(a);
	d->sl = rdma_ah_get_sl(a);
	d->src_path_bits = rdma_ah_get_path_bits(a);
	d->static_rate = rdma_ah_get_static_rate(a);
	d->is_global = !!(rdma_ah_get_ah_flags(a) & IB_AH_GRH);
	if (d->is_global) {
		const struct ib_global_route *grh = rdma_ah_read_grh(a);

		memcpy(d->dgid, grh->dgid.raw, sizeof(d->dgid));
		d->flow_label = grh->flow_label;
		d->sgid_index = grh->sgid_index;
		d->hop_limit = grh->hop_limit;
		d->traffic_class = grh->traffic_class;
	}
	d->port_num = rdma_ah_get_port_num(a);
}

/**
 * uverbs_query_qp - QUERY_QP
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no QP; -ENOMEM; -EFAULT; or the
 * driver's error.
 */
int uverbs_query_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_qp_resp resp = {};
	struct ib_qp_init_attr *init;
	struct ib_uverbs_query_qp cmd;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	struct ib_qp_attr *a;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	init = kzalloc(sizeof(*init), GFP_KERNEL);
	if (!a || !init) {
		ret = -ENOMEM;
		goto out;
	}
	uobj = uverbs_obj_get(attrs, &uverbs_type_qp, cmd.qp_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto out;
	}
	ret = ib_query_qp(uobj->object, a, cmd.attr_mask, init);
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	if (ret)
		goto out;

	resp.qp_state = a->qp_state;
	resp.cur_qp_state = a->cur_qp_state;
	resp.path_mtu = a->path_mtu;
	resp.path_mig_state = a->path_mig_state;
	resp.qkey = a->qkey;
	resp.rq_psn = a->rq_psn;
	resp.sq_psn = a->sq_psn;
	resp.dest_qp_num = a->dest_qp_num;
	resp.qp_access_flags = a->qp_access_flags;
	resp.pkey_index = a->pkey_index;
	resp.alt_pkey_index = a->alt_pkey_index;
	resp.sq_draining = a->sq_draining;
	resp.max_rd_atomic = a->max_rd_atomic;
	resp.max_dest_rd_atomic = a->max_dest_rd_atomic;
	resp.min_rnr_timer = a->min_rnr_timer;
	resp.port_num = a->port_num;
	resp.timeout = a->timeout;
	resp.retry_cnt = a->retry_cnt;
	resp.rnr_retry = a->rnr_retry;
	resp.alt_port_num = a->alt_port_num;
	resp.alt_timeout = a->alt_timeout;
	uverbs_dest_to_user(&a->ah_attr, &resp.dest);
	uverbs_dest_to_user(&a->alt_ah_attr, &resp.alt_dest);
	resp.max_send_wr = init->cap.max_send_wr;
	resp.max_recv_wr = init->cap.max_recv_wr;
	resp.max_send_sge = init->cap.max_send_sge;
	resp.max_recv_sge = init->cap.max_recv_sge;
	resp.max_inline_data = init->cap.max_inline_data;
	resp.sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	ret = uverbs_response(attrs, &resp, sizeof(resp));
out:
	kfree(init);
	kfree(a);
	return ret;
}

static void uverbs_dest_from_user(struct ib_device *dev,
				  const struct ib_uverbs_qp_dest *d,
				  struct rdma_ah_attr *a)
{
	a->type = rdma_ah_find_type(dev, d->port_num);
	if (d->is_global) {
		rdma_ah_set_grh(a, NULL, d->flow_label, d->sgid_index,
				d->hop_limit, d->traffic_class);
		rdma_ah_set_dgid_raw(a, (void *)d->dgid);
	} else {
		rdma_ah_set_ah_flags(a, 0);
	}
	rdma_ah_set_dlid(a, d->dlid);
	rdma_ah_set_sl(a, d->sl);
	rdma_ah_set_path_bits(a, d->src_path_bits);
	rdma_ah_set_static_rate(a, d->static_rate);
	rdma_ah_set_port_num(a, d->port_num);
	rdma_ah_set_make_grd(a, false);
}

/*
 * The ports a modification names: valid, and the path's port the QP's
 * (on the way to RTR) or, in SQD, the primary port with it.
 */
static int uverbs_modify_qp_ports(struct ib_qp *qp,
				  struct ib_uverbs_modify_qp *b)
{
	struct ib_device *dev = qp->device;

	if ((b->attr_mask & IB_QP_PORT) && !rdma_is_port_valid(dev, b->port_num))
		return -EINVAL;
	if (b->attr_mask & IB_QP_AV) {
		if (!rdma_is_port_valid(dev, b->dest.port_num))
			return -EINVAL;
		if ((b->attr_mask & IB_QP_STATE) &&
		    b->qp_state == IB_QPS_RTR) {
			if (b->dest.port_num != qp->real_qp->port)
				return -EINVAL;
		} else if ((b->attr_mask & IB_QP_PORT) &&
			   b->port_num != b->dest.port_num) {
			return -EINVAL;
		} else if (!(b->attr_mask & IB_QP_PORT)) {
			/* a new primary path in SQD moves the port too */
			b->attr_mask |= IB_QP_PORT;
			b->port_num = b->dest.port_num;
		}
	}
	if ((b->attr_mask & IB_QP_ALT_PATH) &&
	    (!rdma_is_port_valid(dev, b->alt_port_num) ||
	     !rdma_is_port_valid(dev, b->alt_dest.port_num) ||
	     b->alt_port_num != b->alt_dest.port_num))
		return -EINVAL;
	return 0;
}

/* Attributes the QP type has no use for are dropped, as upstream's. */
static int uverbs_modify_qp_mask(enum ib_qp_type type, int mask)
{
	switch (type) {
	case IB_QPT_XRC_INI:
		return mask & ~(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	case IB_QPT_XRC_TGT:
		return mask & ~(IB_QP_MAX_QP_RD_ATOMIC | IB_QP_RETRY_CNT |
				IB_QP_RNR_RETRY);
	default:
		return mask;
	}
}

/* MODIFY_QP, either form: @cmd is the extended request. */
static int uverbs_modify_qp_common(struct uverbs_attr_bundle *attrs,
				   struct ib_uverbs_ex_modify_qp *cmd)
{
	struct ib_uverbs_modify_qp *b = &cmd->base;
	struct ib_uobject *uobj;
	struct ib_qp_attr *a;
	struct ib_qp *qp;
	int ret;

	if (((b->attr_mask & IB_QP_CUR_STATE) && b->cur_qp_state > IB_QPS_ERR) ||
	    ((b->attr_mask & IB_QP_STATE) && b->qp_state > IB_QPS_ERR))
		return -EINVAL;
	if ((b->attr_mask & IB_QP_QKEY) && (b->qkey & IB_QP_SET_QKEY) &&
	    !rdma_nl_get_privileged_qkey())
		return -EPERM;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	uobj = uverbs_obj_get(attrs, &uverbs_type_qp, b->qp_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj)) {
		ret = PTR_ERR(uobj);
		goto out;
	}
	qp = uobj->object;
	ret = uverbs_modify_qp_ports(qp, b);
	if (ret)
		goto out_put;

	a->qp_state = b->qp_state;
	a->cur_qp_state = b->cur_qp_state;
	a->path_mtu = b->path_mtu;
	a->path_mig_state = b->path_mig_state;
	a->qkey = b->qkey;
	a->rq_psn = b->rq_psn;
	a->sq_psn = b->sq_psn;
	a->dest_qp_num = b->dest_qp_num;
	a->qp_access_flags = b->qp_access_flags;
	a->pkey_index = b->pkey_index;
	a->en_sqd_async_notify = b->en_sqd_async_notify;
	a->max_rd_atomic = b->max_rd_atomic;
	a->max_dest_rd_atomic = b->max_dest_rd_atomic;
	a->min_rnr_timer = b->min_rnr_timer;
	a->port_num = b->port_num;
	a->timeout = b->timeout;
	a->retry_cnt = b->retry_cnt;
	a->rnr_retry = b->rnr_retry;
	if (b->attr_mask & IB_QP_ALT_PATH) {
		a->alt_port_num = b->alt_port_num;
		a->alt_timeout = b->alt_timeout;
		a->alt_pkey_index = b->alt_pkey_index;
		uverbs_dest_from_user(qp->device, &b->alt_dest,
				      &a->alt_ah_attr);
	}
	if (b->attr_mask & IB_QP_RATE_LIMIT)
		a->rate_limit = cmd->rate_limit;
	if (b->attr_mask & IB_QP_AV)
		uverbs_dest_from_user(qp->device, &b->dest, &a->ah_attr);

	ret = ib_modify_qp_with_udata(qp, a,
				      uverbs_modify_qp_mask(qp->qp_type,
							    b->attr_mask),
				      &attrs->driver_udata);
out_put:
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
out:
	kfree(a);
	return ret;
}

/**
 * uverbs_modify_qp - MODIFY_QP
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EOPNOTSUPP for attribute bits past the standard ones;
 * -EINVAL for a handle of no QP, a bad state or port; -EPERM for a
 * privileged Q_Key; or the driver's error.
 */
int uverbs_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_qp cmd = {};
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd.base, sizeof(cmd.base));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (cmd.base.attr_mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	return uverbs_modify_qp_common(attrs, &cmd);
}

/**
 * uverbs_ex_modify_qp - the extended MODIFY_QP (rate limit)
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: as uverbs_modify_qp().
 */
int uverbs_ex_modify_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_modify_qp_resp resp = {};
	struct ib_uverbs_ex_modify_qp cmd;
	struct ib_device *dev;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (cmd.base.attr_mask &
	    ~(IB_QP_ATTR_STANDARD_BITS | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	ret = uverbs_modify_qp_common(attrs, &cmd);
	if (ret)
		return ret;
	resp.response_length = uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

void uverbs_qp_counts(struct ib_uobject *uobj, void *r)
{
	struct ib_uverbs_destroy_qp_resp *resp = r;

	resp->events_reported = to_uqp(uobj)->uevent.events_reported;
}

/**
 * uverbs_destroy_qp - DESTROY_QP
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0, the response giving the QP's async events read; -EINVAL
 * for a handle of no QP; -EBUSY while it has multicast attachments or
 * another command uses it; -EFAULT.
 */
int uverbs_destroy_qp(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_destroy_qp_resp resp = {};
	struct ib_uverbs_destroy_qp cmd;

	return uverbs_destroy_cmd(attrs, &cmd, sizeof(cmd), &uverbs_type_qp,
				  &cmd.qp_handle, uverbs_qp_counts, &resp,
				  sizeof(resp));
}

/**
 * uverbs_attach_mcast - ATTACH_MCAST: a UD QP joins a multicast group
 * @attrs: the command
 *
 * Attaching twice to the same group is one attachment.
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no QP or a QP that is not UD;
 * -ENOMEM; or the driver's error.
 */
int uverbs_attach_mcast(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_attach_mcast cmd;
	struct uverbs_mcast_entry *m;
	struct ib_uqp_object *uqp;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	int ret = 0;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = uverbs_obj_get(attrs, &uverbs_type_qp, cmd.qp_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = to_uqp(uobj);
	mutex_lock(&uqp->mcast_lock);
	list_for_each_entry(m, &uqp->mcast_list, list)
		if (m->lid == cmd.mlid &&
		    !memcmp(m->gid.raw, cmd.gid, sizeof(cmd.gid)))
			goto out;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	m->lid = cmd.mlid;
	memcpy(m->gid.raw, cmd.gid, sizeof(cmd.gid));
	ret = ib_attach_mcast(uobj->object, &m->gid, cmd.mlid);
	if (ret)
		kfree(m);
	else
		list_add_tail(&m->list, &uqp->mcast_list);
out:
	mutex_unlock(&uqp->mcast_lock);
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return ret;
}

/**
 * uverbs_detach_mcast - DETACH_MCAST
 * @attrs: the command
 *
 * Context: process context, a command of the file.
 * Return: 0; -EINVAL for a handle of no QP or a group it is not
 * attached to; or the driver's error.
 */
int uverbs_detach_mcast(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_detach_mcast cmd;
	struct uverbs_mcast_entry *m;
	struct ib_uqp_object *uqp;
	struct ib_uobject *uobj;
	struct ib_device *dev;
	int ret = -EINVAL;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uobj = uverbs_obj_get(attrs, &uverbs_type_qp, cmd.qp_handle, UVERBS_LOOKUP_READ);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uqp = to_uqp(uobj);
	mutex_lock(&uqp->mcast_lock);
	list_for_each_entry(m, &uqp->mcast_list, list) {
		if (m->lid != cmd.mlid ||
		    memcmp(m->gid.raw, cmd.gid, sizeof(cmd.gid)))
			continue;
		ret = ib_detach_mcast(uobj->object, &m->gid, cmd.mlid);
		if (!ret) {
			list_del(&m->list);
			kfree(m);
		}
		break;
	}
	mutex_unlock(&uqp->mcast_lock);
	uverbs_obj_put(uobj, UVERBS_LOOKUP_READ);
	return ret;
}
