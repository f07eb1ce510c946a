// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The core's ioctl methods and the definition list every device's tree
 * starts from (uverbs_core_api):
 *
 *  - DEVICE: INVOKE_WRITE (a write() command carried by the ioctl, as
 *    libibverbs sends them once it finds the method), INFO_HANDLES,
 *    QUERY_PORT, GET_CONTEXT, QUERY_CONTEXT, QUERY_GID_TABLE,
 *    QUERY_GID_ENTRY;
 *  - ASYNC_EVENT: ALLOC (the async file of a context GET_CONTEXT made);
 *  - PD, MR, MW, CQ, QP, SRQ, AH: DESTROY (CQ, QP and SRQ answer their
 *    event counts); MR: QUERY_MR, ADVISE_MR (-EOPNOTSUPP without the
 *    driver's advise_mr); CQ, QP, SRQ: CREATE (the verbs object made by
 *    the write() command's code, uverbs_cmd_*.c);
 *  - COMP_CHANNEL: no method, a type for FD attributes.
 *
 * Creating the other objects goes through INVOKE_WRITE.  The objects and
 * methods no driver of ours has are absent (WQ, RWQ_IND_TBL, XRCD, FLOW,
 * FLOW_ACTION, DM, COUNTERS, REG_DMABUF_MR): libibverbs falls back to
 * the write() command on -EPROTONOSUPPORT, and attributes naming them
 * are refused (-EINVAL).  Documentation/core/uverbs.rst.
 */
#include <linux/netdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_std_types.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

#define UVERBS_MODULE_NAME uverbs_core
#include <rdma/uverbs_named_ioctl.h>

static int UVERBS_HANDLER(UVERBS_METHOD_INVOKE_WRITE)(struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_write_cmd *cmd;
	u32 command;
	int ret;

	ret = uverbs_get_const(&command, attrs, UVERBS_ATTR_WRITE_CMD);
	if (ret)
		return ret;
	cmd = uverbs_lookup_write(command);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	uverbs_fill_ucore(attrs);
	/* libibverbs probes with QUERY_DEVICE and no request: -ENOSPC */
	if (attrs->ucore.inlen < cmd->req_size ||
	    attrs->ucore.outlen < cmd->resp_size)
		return -ENOSPC;
	return cmd->handler(attrs);
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_INVOKE_WRITE,
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_WRITE_CMD,
						 enum ib_uverbs_write_cmds,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CORE_IN,
					       UVERBS_ATTR_MIN_SIZE(sizeof(u32)),
					       UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CORE_OUT,
						UVERBS_ATTR_MIN_SIZE(0),
						UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

static int UVERBS_HANDLER(UVERBS_METHOD_INFO_HANDLES)(struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_api_object *type;
	struct ib_uobject *uobj;
	unsigned long id;
	u32 *handles, total = 0;
	u16 object_id;
	int len, ret;

	len = uverbs_attr_get_len(attrs, UVERBS_ATTR_INFO_HANDLES_LIST);
	if (len <= 0 || len % sizeof(u32))
		return -EINVAL;
	ret = uverbs_get_const(&object_id, attrs, UVERBS_ATTR_INFO_OBJECT_ID);
	if (ret)
		return ret;
	type = uverbs_uapi_object(attrs, object_id);
	if (IS_ERR(type))
		return PTR_ERR(type);
	handles = uverbs_zalloc(attrs, len);
	if (IS_ERR(handles))
		return PTR_ERR(handles);
	/* the objects' memory outlives a grace period (kfree_rcu()) */
	rcu_read_lock();
	xa_for_each(&attrs->ufile->objects, id, uobj) {
		if (uobj->uapi_object != type)
			continue;
		if (total >= len / sizeof(u32))
			break;
		handles[total++] = id;
	}
	rcu_read_unlock();
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
			     total * sizeof(u32));
	if (ret)
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_INFO_TOTAL_HANDLES, &total,
			     sizeof(total));
	return IS_UVERBS_COPY_ERR(ret) ? ret : 0;
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_INFO_HANDLES,
			    /* also includes any device specific object ids */
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_INFO_OBJECT_ID,
						 enum uverbs_default_objects, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_INFO_TOTAL_HANDLES,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_INFO_HANDLES_LIST,
						UVERBS_ATTR_MIN_SIZE(sizeof(u32)), UA_OPTIONAL));

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_PORT)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_port_resp_ex resp = {};
	struct ib_port_attr attr = {};
	struct ib_ucontext *uctx;
	struct ib_device *dev;
	u8 port_num;
	int ret;

	uctx = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	dev = uctx->device;
	ret = uverbs_get_const(&port_num, attrs,
			       UVERBS_ATTR_QUERY_PORT_PORT_NUM);
	if (ret)
		return ret;
	ret = ib_query_port(dev, port_num, &attr);
	if (ret)
		return ret;
	uverbs_port_resp(dev, port_num, &attr, &resp.legacy_resp);
	resp.port_cap_flags2 = attr.port_cap_flags2;
	resp.active_speed_ex = attr.active_speed;
	return uverbs_copy_to_struct_or_zero(attrs, UVERBS_ATTR_QUERY_PORT_RESP,
					     &resp, sizeof(resp));
}

#define UVERBS_QUERY_PORT_RESP \
	UVERBS_ATTR_STRUCT(struct ib_uverbs_query_port_resp_ex, active_speed_ex)

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_QUERY_PORT,
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_PORT_PORT_NUM, u8, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_PORT_RESP,
						UVERBS_QUERY_PORT_RESP, UA_MANDATORY));

static int UVERBS_HANDLER(UVERBS_METHOD_GET_CONTEXT)(struct uverbs_attr_bundle *attrs)
{
	return uverbs_get_context_ioctl(attrs);
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_GET_CONTEXT,
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
						UVERBS_ATTR_TYPE(u64), UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_CONTEXT)(struct uverbs_attr_bundle *attrs)
{
	u64 core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	struct ib_ucontext *uctx;
	u32 ncv;
	int ret;

	uctx = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	if (!uctx->device->ops.query_ucontext)
		return -EOPNOTSUPP;
	ncv = attrs->ufile->device->num_comp_vectors;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			     &ncv, sizeof(ncv));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
			     &core_support, sizeof(core_support));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	return uctx->device->ops.query_ucontext(uctx, attrs);
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_QUERY_CONTEXT,
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
						UVERBS_ATTR_TYPE(u64), UA_OPTIONAL));

/* Entries of @size bytes each, ours being shorter or longer. */
static int uverbs_gid_entries_out(struct uverbs_attr_bundle *attrs,
				  const struct ib_uverbs_gid_entry *entries,
				  size_t num, size_t size)
{
	const struct uverbs_attr *attr;
	size_t n = min(size, sizeof(*entries));
	u8 __user *p;
	size_t i;

	if (size == sizeof(*entries))
		return uverbs_copy_to(attrs,
				      UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
				      entries, num * sizeof(*entries));
	attr = uverbs_attr_get(attrs, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	p = u64_to_user_ptr(attr->ptr_attr.data);
	for (i = 0; i < num; i++, p += size) {
		if (copy_to_user(p, &entries[i], n))
			return -EFAULT;
		if (size > n && clear_user(p + n, size - n))
			return -EFAULT;
	}
	/* nothing more to copy: only the flag */
	return uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
			      NULL, 0);
}

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_GID_TABLE)(struct uverbs_attr_bundle *attrs)
{
	u16 out_id = UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES;
	struct ib_uverbs_gid_entry *entries;
	struct ib_ucontext *uctx;
	size_t entry_size;
	ssize_t num;
	int max, ret;
	u64 n64;
	u32 flags;

	ret = uverbs_get_flags32(&flags, attrs,
				 UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0);
	if (ret)
		return ret;
	ret = uverbs_get_const(&entry_size, attrs,
			       UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE);
	if (ret)
		return ret;
	if (!entry_size)
		return -EINVAL;
	max = uverbs_attr_ptr_get_array_size(attrs, out_id, entry_size);
	if (max <= 0)
		return max ?: -EINVAL;
	uctx = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	entries = uverbs_kcalloc(attrs, max, sizeof(*entries));
	if (IS_ERR(entries))
		return PTR_ERR(entries);
	num = rdma_query_gid_table(uctx->device, entries, max);
	if (num < 0)
		return -EINVAL;
	ret = uverbs_gid_entries_out(attrs, entries, num, entry_size);
	if (ret)
		return ret;
	n64 = num;
	return uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			      &n64, sizeof(n64));
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_QUERY_GID_TABLE,
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, u64,
						 UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, u32,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
						UVERBS_ATTR_MIN_SIZE(0), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
						UVERBS_ATTR_TYPE(u64), UA_MANDATORY));

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_GID_ENTRY)(struct uverbs_attr_bundle *attrs)
{
	u16 out_id = UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY;
	struct ib_uverbs_gid_entry entry = {};
	const struct ib_gid_attr *gattr;
	struct ib_ucontext *uctx;
	struct net_device *ndev;
	u32 port, index, flags;
	int ret;

	ret = uverbs_get_flags32(&flags, attrs,
				 UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0);
	if (ret)
		return ret;
	ret = uverbs_get_const(&port, attrs, UVERBS_ATTR_QUERY_GID_ENTRY_PORT);
	if (ret)
		return ret;
	ret = uverbs_get_const(&index, attrs,
			       UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX);
	if (ret)
		return ret;
	uctx = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	if (!rdma_is_port_valid(uctx->device, port))
		return -EINVAL;
	gattr = rdma_get_gid_attr(uctx->device, port, index);
	if (IS_ERR(gattr))
		return PTR_ERR(gattr);
	memcpy(&entry.gid, &gattr->gid, sizeof(gattr->gid));
	entry.gid_index = gattr->index;
	entry.port_num = gattr->port_num;
	entry.gid_type = gattr->gid_type;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(gattr);
	if (!IS_ERR(ndev))
		entry.netdev_ifindex = ndev->ifindex;
	else if (PTR_ERR(ndev) != -ENODEV)
		ret = PTR_ERR(ndev);
	rcu_read_unlock();
	if (!ret)
		ret = uverbs_copy_to_struct_or_zero(attrs, out_id, &entry,
						    sizeof(entry));
	rdma_put_gid_attr(gattr);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_QUERY_GID_ENTRY,
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, u32,
						 UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, u32,
						 UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, u32,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
						UVERBS_ATTR_STRUCT(struct ib_uverbs_gid_entry,
								   netdev_ifindex),
						UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_DEVICE,
			      &UVERBS_METHOD(UVERBS_METHOD_INVOKE_WRITE),
			      &UVERBS_METHOD(UVERBS_METHOD_INFO_HANDLES),
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_PORT),
			      &UVERBS_METHOD(UVERBS_METHOD_GET_CONTEXT),
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_CONTEXT),
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_GID_TABLE),
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_GID_ENTRY));

/* the commit of the new fd does the work (uverbs_event.c) */
static int UVERBS_HANDLER(UVERBS_METHOD_ASYNC_EVENT_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_ASYNC_EVENT_ALLOC,
			    UVERBS_ATTR_FD(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
					   UVERBS_OBJECT_ASYNC_EVENT, UVERBS_ACCESS_NEW,
					   UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_ASYNC_EVENT,
			      &UVERBS_METHOD(UVERBS_METHOD_ASYNC_EVENT_ALLOC));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(UVERBS_METHOD_PD_DESTROY,
				    UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_PD_HANDLE, UVERBS_OBJECT_PD,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_PD,
			      &UVERBS_METHOD(UVERBS_METHOD_PD_DESTROY));

static int UVERBS_HANDLER(UVERBS_METHOD_QUERY_MR)(struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *mr = uverbs_attr_get_obj(attrs,
					       UVERBS_ATTR_QUERY_MR_HANDLE);
	int ret;

	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_LKEY,
			     &mr->lkey, sizeof(mr->lkey));
	if (ret)
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_RKEY,
			     &mr->rkey, sizeof(mr->rkey));
	if (ret)
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_LENGTH,
			     &mr->length, sizeof(mr->length));
	if (ret)
		return ret;
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_QUERY_MR_RESP_IOVA,
			     &mr->iova, sizeof(mr->iova));
	return IS_UVERBS_COPY_ERR(ret) ? ret : 0;
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_QUERY_MR,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_QUERY_MR_HANDLE, UVERBS_OBJECT_MR,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_RKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_LKEY,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_LENGTH,
						UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_QUERY_MR_RESP_IOVA,
						UVERBS_ATTR_TYPE(u64), UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(UVERBS_METHOD_MR_DESTROY,
				    UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_MR_HANDLE, UVERBS_OBJECT_MR,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

/*
 * ADVISE_MR: the PD, the advice, its flags and an array of SGEs (struct
 * ib_uverbs_sge, laid out as struct ib_sge) for the driver's advise_mr.
 */
static int UVERBS_HANDLER(UVERBS_METHOD_ADVISE_MR)(struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uverbs_attr_get_obj(attrs,
					       UVERBS_ATTR_ADVISE_MR_PD_HANDLE);
	struct ib_device *dev = pd->device;
	struct ib_sge *sges;
	u32 advice, flags;
	int n, ret;

	BUILD_BUG_ON(sizeof(struct ib_uverbs_sge) != sizeof(struct ib_sge) ||
		     offsetof(struct ib_uverbs_sge, lkey) !=
		     offsetof(struct ib_sge, lkey));
	if (!dev->ops.advise_mr)
		return -EOPNOTSUPP;
	ret = uverbs_get_const(&advice, attrs, UVERBS_ATTR_ADVISE_MR_ADVICE);
	if (ret)
		return ret;
	ret = uverbs_get_flags32(&flags, attrs, UVERBS_ATTR_ADVISE_MR_FLAGS,
				 IB_UVERBS_ADVISE_MR_FLAG_FLUSH);
	if (ret)
		return ret;
	n = uverbs_attr_ptr_get_array_size(attrs,
					   UVERBS_ATTR_ADVISE_MR_SGE_LIST,
					   sizeof(struct ib_uverbs_sge));
	if (n <= 0)
		return n ? n : -EINVAL;
	sges = uverbs_attr_get_alloced_ptr(attrs,
					   UVERBS_ATTR_ADVISE_MR_SGE_LIST);
	if (IS_ERR(sges))
		return PTR_ERR(sges);
	return dev->ops.advise_mr(pd, advice, flags, sges, n, attrs);
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_ADVISE_MR,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_ADVISE_MR_PD_HANDLE,
					    UVERBS_OBJECT_PD, UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_ADVISE_MR_ADVICE,
						 enum ib_uverbs_advise_mr_advice,
						 UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_ADVISE_MR_FLAGS,
						 enum ib_uverbs_advise_mr_flag,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_ADVISE_MR_SGE_LIST,
					       UVERBS_ATTR_MIN_SIZE(sizeof(struct ib_uverbs_sge)),
					       UA_MANDATORY, UA_ALLOC_AND_COPY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_MR,
			      &UVERBS_METHOD(UVERBS_METHOD_MR_DESTROY),
			      &UVERBS_METHOD(UVERBS_METHOD_QUERY_MR),
			      &UVERBS_METHOD(UVERBS_METHOD_ADVISE_MR));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(UVERBS_METHOD_MW_DESTROY,
				    UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_MW_HANDLE, UVERBS_OBJECT_MW,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_MW,
			      &UVERBS_METHOD(UVERBS_METHOD_MW_DESTROY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(UVERBS_METHOD_AH_DESTROY,
				    UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_AH_HANDLE, UVERBS_OBJECT_AH,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_AH,
			      &UVERBS_METHOD(UVERBS_METHOD_AH_DESTROY));

/* A destroy that answers the object's events read (CQ, QP, SRQ). */
static int uverbs_destroy_counts(struct uverbs_attr_bundle *attrs,
				 u16 handle_id, u16 resp_id,
				 void (*counts)(struct ib_uobject *uobj,
						void *resp),
				 size_t resp_len)
{
	struct ib_uverbs_destroy_cq_resp resp = {};
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, handle_id);

	BUILD_BUG_ON(sizeof(resp) < sizeof(struct ib_uverbs_destroy_qp_resp));
	counts(uobj, &resp);
	return uverbs_copy_to(attrs, resp_id, &resp, resp_len);
}

static int UVERBS_HANDLER(UVERBS_METHOD_CQ_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	return uverbs_destroy_counts(attrs, UVERBS_ATTR_DESTROY_CQ_HANDLE,
				     UVERBS_ATTR_DESTROY_CQ_RESP,
				     uverbs_cq_counts,
				     sizeof(struct ib_uverbs_destroy_cq_resp));
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_CQ_DESTROY,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_CQ_HANDLE, UVERBS_OBJECT_CQ,
					    UVERBS_ACCESS_DESTROY, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_DESTROY_CQ_RESP,
						UVERBS_ATTR_TYPE(struct ib_uverbs_destroy_cq_resp),
						UA_MANDATORY));

/* An FD attribute's event file, or NULL when absent. */
static struct uverbs_event_file *uverbs_attr_event_file(struct uverbs_attr_bundle *attrs,
							u16 idx)
{
	void *ef = uverbs_attr_get_obj(attrs, idx);

	return IS_ERR(ef) ? NULL : ef;
}

static int UVERBS_HANDLER(UVERBS_METHOD_CQ_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_CQ_HANDLE);
	struct uverbs_event_file *comp, *async;
	struct ib_uverbs_ex_create_cq cmd = {};
	struct ib_cq *cq;
	int ret;

	ret = uverbs_copy_from(&cmd.cqe, attrs, UVERBS_ATTR_CREATE_CQ_CQE);
	if (!ret)
		ret = uverbs_copy_from(&cmd.user_handle, attrs,
				       UVERBS_ATTR_CREATE_CQ_USER_HANDLE);
	if (!ret)
		ret = uverbs_copy_from(&cmd.comp_vector, attrs,
				       UVERBS_ATTR_CREATE_CQ_COMP_VECTOR);
	if (!ret)
		ret = uverbs_get_flags32(&cmd.flags, attrs,
					 UVERBS_ATTR_CREATE_CQ_FLAGS,
					 IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION |
					 IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	if (ret)
		return ret;
	comp = uverbs_attr_event_file(attrs, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL);
	async = uverbs_attr_event_file(attrs, UVERBS_ATTR_CREATE_CQ_EVENT_FD);
	ret = uverbs_cq_create_ioctl(attrs, uobj, &cmd, comp, async);
	if (ret)
		return ret;
	/* from here a failure destroys the CQ with the handle */
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_CQ_HANDLE);
	cq = uobj->object;
	return uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cq->cqe,
			      sizeof(cq->cqe));
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_CQ_CREATE,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_CQ_HANDLE,
					    UVERBS_OBJECT_CQ, UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_CQ_CQE,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_CQ_USER_HANDLE,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL,
					   UVERBS_OBJECT_COMP_CHANNEL,
					   UVERBS_ACCESS_READ),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_CREATE_CQ_FLAGS,
						 enum ib_uverbs_ex_create_cq_flags),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_CQ_RESP_CQE,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_CQ_EVENT_FD,
					   UVERBS_OBJECT_ASYNC_EVENT,
					   UVERBS_ACCESS_READ),
			    UVERBS_ATTR_UHW());

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_CQ,
			      &UVERBS_METHOD(UVERBS_METHOD_CQ_CREATE),
			      &UVERBS_METHOD(UVERBS_METHOD_CQ_DESTROY));

static int UVERBS_HANDLER(UVERBS_METHOD_QP_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	return uverbs_destroy_counts(attrs, UVERBS_ATTR_DESTROY_QP_HANDLE,
				     UVERBS_ATTR_DESTROY_QP_RESP,
				     uverbs_qp_counts,
				     sizeof(struct ib_uverbs_destroy_qp_resp));
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_QP_DESTROY,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_QP_HANDLE, UVERBS_OBJECT_QP,
					    UVERBS_ACCESS_DESTROY, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_DESTROY_QP_RESP,
						UVERBS_ATTR_TYPE(struct ib_uverbs_destroy_qp_resp),
						UA_MANDATORY));

/*
 * The objects QP_CREATE names for @attr's type, as upstream takes them:
 * a PD and a send CQ, and a receive CQ but for an XRC initiator, which
 * takes no SRQ either.  An XRC target names only its XRC domain; RSS
 * tables (IND_TABLE) take the receive side's place.  No device here has
 * either: the parser refuses their handles (-EINVAL), and an XRC
 * target's missing domain is -ENOENT, as upstream's on such a device.
 */
static int uverbs_qp_create_objs(struct uverbs_attr_bundle *attrs,
				 struct ib_qp_init_attr *attr,
				 struct ib_pd **pd)
{
	struct ib_cq *cq;

	if (attr->qp_type == IB_QPT_XRC_TGT) {
		if (uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE) ||
		    uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE) ||
		    uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_QP_PD_HANDLE))
			return -EINVAL;
		return uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE) ?
		       -EOPNOTSUPP : -ENOENT;
	}
	if (attr->qp_type == IB_QPT_XRC_INI &&
	    uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE))
		return -EINVAL;
	*pd = uverbs_attr_get_obj(attrs, UVERBS_ATTR_CREATE_QP_PD_HANDLE);
	if (IS_ERR(*pd))
		return PTR_ERR(*pd);
	cq = uverbs_attr_get_obj(attrs, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	attr->send_cq = cq;
	if (attr->qp_type == IB_QPT_XRC_INI)
		return 0;
	cq = uverbs_attr_get_obj(attrs, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	attr->recv_cq = cq;
	return 0;
}

/* The create flags QP_CREATE takes (enum ib_qp_create_flags has them) */
#define UVERBS_QP_IOCTL_FLAGS						\
	(IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |			\
	 IB_UVERBS_QP_CREATE_SCATTER_FCS |				\
	 IB_UVERBS_QP_CREATE_CVLAN_STRIPPING |				\
	 IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING |			\
	 IB_UVERBS_QP_CREATE_SQ_SIG_ALL)

/*
 * QP_CREATE's flags and source QPN into @attr.  SQ_SIG_ALL is the
 * ioctl's stand-in for write()'s sq_sig_all, no driver's flag; the
 * others only UD and raw packet QPs take (the FCS and VLAN ones only
 * raw packet QPs), but for a driver's own type.  A source QPN has an
 * attribute of its own, and needs CAP_NET_RAW as write()'s does.
 */
static int uverbs_qp_create_flags(struct uverbs_attr_bundle *attrs,
				  struct ib_qp_init_attr *attr)
{
	enum ib_qp_type type = attr->qp_type;
	u32 flags;
	int ret;

	ret = uverbs_get_flags32(&flags, attrs, UVERBS_ATTR_CREATE_QP_FLAGS,
				 UVERBS_QP_IOCTL_FLAGS);
	if (ret)
		return ret;
	attr->sq_sig_type = flags & IB_UVERBS_QP_CREATE_SQ_SIG_ALL ?
			    IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	flags &= ~IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	if (flags && type != IB_QPT_DRIVER) {
		if (type != IB_QPT_UD && type != IB_QPT_RAW_PACKET)
			return -EINVAL;
		if (type != IB_QPT_RAW_PACKET &&
		    (flags & (IB_UVERBS_QP_CREATE_SCATTER_FCS |
			      IB_UVERBS_QP_CREATE_CVLAN_STRIPPING)))
			return -EINVAL;
	}
	attr->create_flags = flags;
	if (!uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_QP_SOURCE_QPN))
		return 0;
	if (!capable(CAP_NET_RAW))
		return -EPERM;
	attr->create_flags |= IB_QP_CREATE_SOURCE_QPN;
	return uverbs_copy_from(&attr->source_qpn, attrs,
				UVERBS_ATTR_CREATE_QP_SOURCE_QPN);
}

static int UVERBS_HANDLER(UVERBS_METHOD_QP_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_QP_HANDLE);
	struct ib_qp_init_attr attr = {};
	struct ib_uverbs_qp_cap cap;
	struct ib_srq *srq;
	struct ib_pd *pd;
	struct ib_qp *qp;
	u64 user_handle;
	int ret;

	ret = uverbs_copy_from_or_zero(&cap, attrs, UVERBS_ATTR_CREATE_QP_CAP);
	if (!ret)
		ret = uverbs_copy_from(&user_handle, attrs,
				       UVERBS_ATTR_CREATE_QP_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_const(&attr.qp_type, attrs,
				       UVERBS_ATTR_CREATE_QP_TYPE);
	if (!ret)
		ret = uverbs_qp_type_check(attr.qp_type);
	if (!ret)
		ret = uverbs_qp_create_objs(attrs, &attr, &pd);
	if (!ret)
		ret = uverbs_qp_create_flags(attrs, &attr);
	if (ret)
		return ret;
	srq = uverbs_attr_get_obj(attrs, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE);
	if (!IS_ERR(srq)) {
		/* an XRC SRQ serves XRC targets only: none here has either */
		if (srq->srq_type == IB_SRQT_XRC)
			return -EINVAL;
		attr.srq = srq;
	}
	ret = uverbs_qp_create_ioctl(attrs, uobj, pd, &attr, &cap, user_handle,
				     uverbs_attr_event_file(attrs,
							    UVERBS_ATTR_CREATE_QP_EVENT_FD));
	if (ret)
		return ret;
	/* from here a failure destroys the QP with the handle */
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_QP_HANDLE);
	ret = uverbs_copy_to_struct_or_zero(attrs, UVERBS_ATTR_CREATE_QP_RESP_CAP,
					    &cap, sizeof(cap));
	if (ret)
		return ret;
	qp = uobj->object;
	return uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
			      &qp->qp_num, sizeof(qp->qp_num));
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_QP_CREATE,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_HANDLE,
					    UVERBS_OBJECT_QP, UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_XRCD_HANDLE,
					    UVERBS_OBJECT_XRCD, UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_PD_HANDLE,
					    UVERBS_OBJECT_PD, UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE,
					    UVERBS_OBJECT_SRQ, UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE,
					    UVERBS_OBJECT_CQ, UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE,
					    UVERBS_OBJECT_CQ, UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE,
					    UVERBS_OBJECT_RWQ_IND_TBL,
					    UVERBS_ACCESS_READ, UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_QP_USER_HANDLE,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_QP_CAP,
					       UVERBS_ATTR_STRUCT(struct ib_uverbs_qp_cap,
								  max_inline_data),
					       UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_CREATE_QP_TYPE,
						 enum ib_uverbs_qp_type, UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(UVERBS_ATTR_CREATE_QP_FLAGS,
						 enum ib_uverbs_qp_create_flags,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_QP_SOURCE_QPN,
					       UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_QP_EVENT_FD,
					   UVERBS_OBJECT_ASYNC_EVENT,
					   UVERBS_ACCESS_READ, UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_QP_RESP_CAP,
						UVERBS_ATTR_STRUCT(struct ib_uverbs_qp_cap,
								   max_inline_data),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_UHW());

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_QP,
			      &UVERBS_METHOD(UVERBS_METHOD_QP_CREATE),
			      &UVERBS_METHOD(UVERBS_METHOD_QP_DESTROY));

static int UVERBS_HANDLER(UVERBS_METHOD_SRQ_DESTROY)(struct uverbs_attr_bundle *attrs)
{
	return uverbs_destroy_counts(attrs, UVERBS_ATTR_DESTROY_SRQ_HANDLE,
				     UVERBS_ATTR_DESTROY_SRQ_RESP,
				     uverbs_srq_counts,
				     sizeof(struct ib_uverbs_destroy_srq_resp));
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_SRQ_DESTROY,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_DESTROY_SRQ_HANDLE, UVERBS_OBJECT_SRQ,
					    UVERBS_ACCESS_DESTROY, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_DESTROY_SRQ_RESP,
						UVERBS_ATTR_TYPE(struct ib_uverbs_destroy_srq_resp),
						UA_MANDATORY));

/*
 * SRQ_CREATE: a basic SRQ, or one of the types with a CQ: tag matching
 * (the driver refuses what it lacks) or XRC, which needs an XRC domain
 * no device here has: the parser refuses a handle of one (-EINVAL), and
 * its absence is -ENOENT, as upstream's on such a device.
 */
static int UVERBS_HANDLER(UVERBS_METHOD_SRQ_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	struct ib_pd *pd =
		uverbs_attr_get_obj(attrs, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE);
	struct ib_srq_init_attr attr = {};
	u64 user_handle;
	int ret;

	ret = uverbs_copy_from(&attr.attr.max_sge, attrs,
			       UVERBS_ATTR_CREATE_SRQ_MAX_SGE);
	if (!ret)
		ret = uverbs_copy_from(&attr.attr.max_wr, attrs,
				       UVERBS_ATTR_CREATE_SRQ_MAX_WR);
	if (!ret)
		ret = uverbs_copy_from(&attr.attr.srq_limit, attrs,
				       UVERBS_ATTR_CREATE_SRQ_LIMIT);
	if (!ret)
		ret = uverbs_copy_from(&user_handle, attrs,
				       UVERBS_ATTR_CREATE_SRQ_USER_HANDLE);
	if (!ret)
		ret = uverbs_get_const(&attr.srq_type, attrs,
				       UVERBS_ATTR_CREATE_SRQ_TYPE);
	if (ret)
		return ret;
	if (ib_srq_has_cq(attr.srq_type)) {
		attr.ext.cq = uverbs_attr_get_obj(attrs,
						  UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE);
		if (IS_ERR(attr.ext.cq))
			return PTR_ERR(attr.ext.cq);
	}
	switch (attr.srq_type) {
	case IB_SRQT_BASIC:
		break;
	case IB_SRQT_TM:
		ret = uverbs_copy_from(&attr.ext.tag_matching.max_num_tags,
				       attrs, UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS);
		if (ret)
			return ret;
		break;
	case IB_SRQT_XRC:
		return uverbs_attr_is_valid(attrs, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE) ?
		       -EOPNOTSUPP : -ENOENT;
	default:
		return -EINVAL;
	}
	ret = uverbs_srq_create_ioctl(attrs, uobj, pd, &attr, user_handle,
				      uverbs_attr_event_file(attrs,
							     UVERBS_ATTR_CREATE_SRQ_EVENT_FD));
	if (ret)
		return ret;
	/* from here a failure destroys the SRQ with the handle */
	uverbs_finalize_uobj_create(attrs, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	ret = uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
			     &attr.attr.max_wr, sizeof(attr.attr.max_wr));
	if (ret)
		return ret;
	/* RESP_SRQ_NUM is an XRC SRQ's: never made here */
	return uverbs_copy_to(attrs, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
			      &attr.attr.max_sge, sizeof(attr.attr.max_sge));
}

DECLARE_UVERBS_NAMED_METHOD(UVERBS_METHOD_SRQ_CREATE,
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_HANDLE,
					    UVERBS_OBJECT_SRQ, UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_PD_HANDLE,
					    UVERBS_OBJECT_PD, UVERBS_ACCESS_READ,
					    UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(UVERBS_ATTR_CREATE_SRQ_TYPE,
						 enum ib_uverbs_srq_type, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_USER_HANDLE,
					       UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_MAX_WR,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_MAX_SGE,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_LIMIT,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE,
					    UVERBS_OBJECT_XRCD, UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_IDR(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE,
					    UVERBS_OBJECT_CQ, UVERBS_ACCESS_READ,
					    UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS,
					       UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_FD(UVERBS_ATTR_CREATE_SRQ_EVENT_FD,
					   UVERBS_OBJECT_ASYNC_EVENT,
					   UVERBS_ACCESS_READ, UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

DECLARE_UVERBS_GLOBAL_METHODS(UVERBS_OBJECT_SRQ,
			      &UVERBS_METHOD(UVERBS_METHOD_SRQ_CREATE),
			      &UVERBS_METHOD(UVERBS_METHOD_SRQ_DESTROY));

/* The core's definitions: every device's tree starts from them. */
const struct uapi_definition uverbs_core_api[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_DEVICE),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_ASYNC_EVENT),
	DECLARE_UVERBS_OBJECT(UVERBS_OBJECT_COMP_CHANNEL),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_PD,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_pd)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_MR,
				      UAPI_DEF_OBJ_NEEDS_FN(dereg_mr)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_MW,
				      UAPI_DEF_OBJ_NEEDS_FN(dealloc_mw)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_CQ,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_cq)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_QP,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_qp)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_SRQ,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_srq)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(UVERBS_OBJECT_AH,
				      UAPI_DEF_OBJ_NEEDS_FN(destroy_ah)),
	{},
};
