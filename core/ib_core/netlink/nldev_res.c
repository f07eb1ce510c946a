// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev resource commands: what "rdma res show" asks.
 *
 *   RES_GET          per device, how many objects of each type it tracks
 *   RES_<type>_GET   one object (doit: device, its ID, a port for per-port
 *                    types) or every object of a device (dump)
 *   RES_<type>_GET_RAW  the same through the driver's raw dumpers (admin)
 *
 * The objects come from the restrack tables (core/ib_core/restrack.c).  A dump
 * walks a table with rdma_restrack_get_next(): it holds a reference on
 * one object at a time and no lock while it writes, so a concurrent
 * destroy waits in rdma_restrack_del() only for the object being written.
 * Documentation/core/nldev.rst lists the attributes and who sees what.
 */
#include <linux/capability.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "../../rdma_cm/cma_priv.h"
#include "../core_priv.h"
#include "nldev_priv.h"
#include "../restrack.h"

/* ------------------------------------------------------------------
 * RES_GET: the summary
 */

/* The names of the summary, in restrack order; NULL types are left out. */
static const char * const res_summary_names[RDMA_RESTRACK_MAX] = {
	[RDMA_RESTRACK_PD] = "pd",
	[RDMA_RESTRACK_CQ] = "cq",
	[RDMA_RESTRACK_QP] = "qp",
	[RDMA_RESTRACK_CM_ID] = "cm_id",
	[RDMA_RESTRACK_MR] = "mr",
	[RDMA_RESTRACK_CTX] = "ctx",
	[RDMA_RESTRACK_SRQ] = "srq",
};

static int fill_res_summary_entry(struct sk_buff *msg, const char *name,
				  u64 curr)
{
	struct nlattr *entry;

	entry = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR,
			      curr, RDMA_NLDEV_ATTR_PAD))
		goto err_cancel;
	nla_nest_end(msg, entry);
	return 0;

err_cancel:
	nla_nest_cancel(msg, entry);
	return -EMSGSIZE;
}

static int fill_res_summary(struct sk_buff *msg, struct ib_device *device,
			    bool show_details)
{
	struct nlattr *table;
	int i;

	if (fill_nldev_handle(msg, device))
		return -EMSGSIZE;
	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_RES_SUMMARY);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < RDMA_RESTRACK_MAX; i++) {
		if (!res_summary_names[i])
			continue;
		if (fill_res_summary_entry(msg, res_summary_names[i],
					   rdma_restrack_count(device, i,
							       show_details)))
			goto err_cancel;
	}
	nla_nest_end(msg, table);
	return 0;

err_cancel:
	nla_nest_cancel(msg, table);
	return -EMSGSIZE;
}

/* RDMA_NLDEV_ATTR_DRIVER_DETAILS: also count and list RESTRACK_DD objects. */
static bool res_show_details(struct nlattr **tb)
{
	return tb[RDMA_NLDEV_ATTR_DRIVER_DETAILS] &&
	       nla_get_u8(tb[RDMA_NLDEV_ATTR_DRIVER_DETAILS]);
}

/* What the RES_GET reply of one device is made of. */
struct res_summary_req {
	struct ib_device	*device;
	bool			details;
};

static int fill_res_summary_reply(struct sk_buff *msg, void *data)
{
	struct res_summary_req *req = data;

	return fill_res_summary(msg, req->device, req->details);
}

/**
 * nldev_res_get_doit - RDMA_NLDEV_CMD_RES_GET for one device
 * @skb: the request
 * @nlh: its header
 * @extack: where a refusal is explained
 *
 * Answers with the device handle and RDMA_NLDEV_ATTR_RES_SUMMARY.
 *
 * Return: 0 or a negative errno.
 */
int nldev_res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	struct res_summary_req req;
	struct nlattr **tb;
	int ret;

	tb = nldev_parse(nlh, extack);
	if (IS_ERR(tb))
		return PTR_ERR(tb);
	req.device = nldev_get_device(skb, tb, extack);
	req.details = res_show_details(tb);
	kfree(tb);
	if (!req.device)
		return -EINVAL;

	ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_RES_GET, extack,
			  fill_res_summary_reply, &req);
	ib_device_put(req.device);
	return ret;
}

/* One device of a RES_GET dump; cb->args[0] counts devices already sent. */
static int res_get_dump_one(struct ib_device *device, struct sk_buff *skb,
			    struct netlink_callback *cb, unsigned int idx)
{
	struct nlmsghdr *nlh;

	if (idx < cb->args[0])
		return 0;
	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_GET),
			0, NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	if (fill_res_summary(skb, device, false)) {
		nlmsg_cancel(skb, nlh);
		return -EMSGSIZE;
	}
	nlmsg_end(skb, nlh);
	cb->args[0] = idx + 1;
	return 0;
}

/**
 * nldev_res_get_dumpit - RDMA_NLDEV_CMD_RES_GET for every visible device
 * @skb: the buffer to fill
 * @cb: the dump's state
 *
 * Return: bytes added (0 ends the dump) or a negative errno.
 */
int nldev_res_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	int ret = ib_enum_all_devs(res_get_dump_one, skb, cb);

	/* A full buffer ends this read; the next one resumes. */
	if (ret == -EMSGSIZE && skb->len)
		return skb->len;
	return ret ?: skb->len;
}

/* ------------------------------------------------------------------
 * One object of each type
 *
 * A fill function writes the attributes of one object, either at the top
 * level of a doit reply or inside one RES_*_ENTRY nest of a dump.  @port
 * is the port the requester filters on (0: all); an object of another
 * port answers -EAGAIN and is left out.  Keys are only shown to
 * CAP_NET_ADMIN (@admin).
 */
/* Kernel owners are named by their module, user owners by their PID. */
int fill_res_name_pid(struct sk_buff *msg, struct rdma_restrack_entry *res)
{
	pid_t pid;

	if (rdma_is_kernel_res(res))
		return nla_put_string(msg, RDMA_NLDEV_ATTR_RES_KERN_NAME,
				      res->kern_name) ? -EMSGSIZE : 0;
	/* A task that is already a zombie has no PID left to show. */
	pid = task_pid_vnr(res->task);
	if (pid && nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PID, pid))
		return -EMSGSIZE;
	return 0;
}

/* The attributes ib_query_qp() gives; the driver reads them locked. */
static int fill_res_qp_state(struct sk_buff *msg, struct ib_qp *qp)
{
	struct ib_qp_init_attr init_attr;
	struct ib_qp_attr attr;
	bool connected;
	int ret;

	ret = ib_query_qp(qp, &attr, 0, &init_attr);
	if (ret)
		return ret;

	connected = qp->qp_type == IB_QPT_RC || qp->qp_type == IB_QPT_UC;
	if (connected &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQPN, attr.dest_qp_num) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RQ_PSN, attr.rq_psn)))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_SQ_PSN, attr.sq_psn))
		return -EMSGSIZE;
	if ((connected || qp->qp_type == IB_QPT_XRC_INI ||
	     qp->qp_type == IB_QPT_XRC_TGT) &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE,
		       attr.path_mig_state))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, qp->qp_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE, attr.qp_state))
		return -EMSGSIZE;
	return 0;
}

static int fill_res_qp_entry(struct sk_buff *msg, bool admin,
			     struct rdma_restrack_entry *res, u32 port)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);
	u32 qp_port = READ_ONCE(qp->port);
	int ret;

	if (port && port != qp_port)
		return -EAGAIN;
	/* A QP gets its port in its first move to INIT (or at creation). */
	if (qp_port && nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, qp_port))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num))
		return -EMSGSIZE;
	if (!rdma_is_kernel_res(res) &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, qp->pd->res.id))
		return -EMSGSIZE;
	if (fill_res_name_pid(msg, res))
		return -EMSGSIZE;
	ret = fill_res_qp_state(msg, qp);
	if (ret)
		return ret;
	return qp->device->ops.fill_res_qp_entry ?
	       qp->device->ops.fill_res_qp_entry(msg, qp) : 0;
}

static int fill_res_qp_raw_entry(struct sk_buff *msg, bool admin,
				 struct rdma_restrack_entry *res, u32 port)
{
	struct ib_qp *qp = container_of(res, struct ib_qp, res);

	if (port && port != READ_ONCE(qp->port))
		return -EAGAIN;
	if (!qp->device->ops.fill_res_qp_entry_raw)
		return -EINVAL;
	return qp->device->ops.fill_res_qp_entry_raw(msg, qp);
}

/*
 * An rdma_cm ID (struct rdma_id_private of core/rdma_cm/cma_priv.h): its port
 * space, state, addresses and the QP of its connection.
 */
static int fill_res_cm_id_entry(struct sk_buff *msg, bool admin,
				struct rdma_restrack_entry *res, u32 port)
{
	struct rdma_id_private *id_priv =
		container_of(res, struct rdma_id_private, res);
	struct rdma_cm_id *cm_id = &id_priv->id;
	const struct sockaddr *src = (const struct sockaddr *)
		&cm_id->route.addr.src_addr;
	const struct sockaddr *dst = (const struct sockaddr *)
		&cm_id->route.addr.dst_addr;

	if (port && port != cm_id->port_num)
		return -EAGAIN;
	if (cm_id->port_num &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, cm_id->port_num))
		return -EMSGSIZE;
	if (id_priv->qp_num &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, id_priv->qp_num) ||
	     nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, cm_id->qp_type)))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PS, cm_id->ps) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_STATE,
		       READ_ONCE(id_priv->state)))
		return -EMSGSIZE;
	if (src->sa_family &&
	    nla_put(msg, RDMA_NLDEV_ATTR_RES_SRC_ADDR,
		    sizeof(struct __kernel_sockaddr_storage), src))
		return -EMSGSIZE;
	if (dst->sa_family &&
	    nla_put(msg, RDMA_NLDEV_ATTR_RES_DST_ADDR,
		    sizeof(struct __kernel_sockaddr_storage), dst))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CM_IDN, res->id))
		return -EMSGSIZE;
	return fill_res_name_pid(msg, res);
}

static int fill_res_cq_entry(struct sk_buff *msg, bool admin,
			     struct rdma_restrack_entry *res, u32 port)
{
	struct ib_cq *cq = container_of(res, struct ib_cq, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQE, cq->cqe) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_USECNT,
			      atomic_read(&cq->usecnt), RDMA_NLDEV_ATTR_PAD))
		return -EMSGSIZE;
	/* Only the CQ API's own CQs have a poll context. */
	if (rdma_is_kernel_res(res) &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_POLL_CTX, cq->poll_ctx))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, !!cq->dim) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQN, res->id))
		return -EMSGSIZE;
	/* a user CQ names its context (ib_uverbs) */
	if (!rdma_is_kernel_res(res) && cq->uobject &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CTXN,
			cq->uobject->uevent.uobject.context->res.id))
		return -EMSGSIZE;
	if (fill_res_name_pid(msg, res))
		return -EMSGSIZE;
	return cq->device->ops.fill_res_cq_entry ?
	       cq->device->ops.fill_res_cq_entry(msg, cq) : 0;
}

static int fill_res_cq_raw_entry(struct sk_buff *msg, bool admin,
				 struct rdma_restrack_entry *res, u32 port)
{
	struct ib_cq *cq = container_of(res, struct ib_cq, res);

	if (!cq->device->ops.fill_res_cq_entry_raw)
		return -EINVAL;
	return cq->device->ops.fill_res_cq_entry_raw(msg, cq);
}

static int fill_res_mr_entry(struct sk_buff *msg, bool admin,
			     struct rdma_restrack_entry *res, u32 port)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);

	if (admin &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_RKEY, mr->rkey) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LKEY, mr->lkey)))
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_MRLEN, mr->length,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_MRN, res->id))
		return -EMSGSIZE;
	if (!rdma_is_kernel_res(res) &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, mr->pd->res.id))
		return -EMSGSIZE;
	if (fill_res_name_pid(msg, res))
		return -EMSGSIZE;
	return mr->device->ops.fill_res_mr_entry ?
	       mr->device->ops.fill_res_mr_entry(msg, mr) : 0;
}

static int fill_res_mr_raw_entry(struct sk_buff *msg, bool admin,
				 struct rdma_restrack_entry *res, u32 port)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);

	if (!mr->device->ops.fill_res_mr_entry_raw)
		return -EINVAL;
	return mr->device->ops.fill_res_mr_entry_raw(msg, mr);
}

static int fill_res_pd_entry(struct sk_buff *msg, bool admin,
			     struct rdma_restrack_entry *res, u32 port)
{
	struct ib_pd *pd = container_of(res, struct ib_pd, res);

	if (admin) {
		if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY,
				pd->local_dma_lkey))
			return -EMSGSIZE;
		if ((pd->flags & IB_PD_UNSAFE_GLOBAL_RKEY) &&
		    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY,
				pd->unsafe_global_rkey))
			return -EMSGSIZE;
	}
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_RES_USECNT,
			      atomic_read(&pd->usecnt), RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, res->id))
		return -EMSGSIZE;
	/* a user PD names its context (ib_uverbs) */
	if (!rdma_is_kernel_res(res) && pd->uobject &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CTXN,
			pd->uobject->context->res.id))
		return -EMSGSIZE;
	return fill_res_name_pid(msg, res);
}

/* Contexts are user objects; a kernel one has nothing to show. */
static int fill_res_ctx_entry(struct sk_buff *msg, bool admin,
			      struct rdma_restrack_entry *res, u32 port)
{
	if (rdma_is_kernel_res(res))
		return 0;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CTXN, res->id))
		return -EMSGSIZE;
	return fill_res_name_pid(msg, res);
}

/* One RES_QP_ENTRY of an SRQ's QP list: a QP number or a range. */
static int fill_res_srq_qp_range(struct sk_buff *msg, u32 first, u32 last)
{
	struct nlattr *entry;

	entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (first == last) {
		if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, first))
			goto err_cancel;
	} else if (nla_put_u32(msg, RDMA_NLDEV_ATTR_MIN_RANGE, first) ||
		   nla_put_u32(msg, RDMA_NLDEV_ATTR_MAX_RANGE, last)) {
		goto err_cancel;
	}
	nla_nest_end(msg, entry);
	return 0;

err_cancel:
	nla_nest_cancel(msg, entry);
	return -EMSGSIZE;
}

/*
 * The QPs that receive through @srq, as runs of consecutive QP numbers
 * (the QP table is ordered by QP number).
 */
static int fill_res_srq_qps(struct sk_buff *msg, struct ib_srq *srq)
{
	struct rdma_restrack_entry *res;
	bool in_run = false;
	unsigned long id = 0;
	struct nlattr *table;
	u32 first = 0, last = 0;
	struct ib_qp *qp;
	u32 qpn;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_QP);
	if (!table)
		return -EMSGSIZE;
	while ((res = rdma_restrack_get_next(srq->device, RDMA_RESTRACK_QP,
					     &id, true))) {
		qp = container_of(res, struct ib_qp, res);
		qpn = qp->qp_num;
		if (qp->srq != srq) {
			rdma_restrack_put(res);
			id++;
			continue;
		}
		rdma_restrack_put(res);
		id++;
		if (in_run && qpn == last + 1) {
			last = qpn;
			continue;
		}
		if (in_run && fill_res_srq_qp_range(msg, first, last))
			goto err_cancel;
		first = qpn;
		last = qpn;
		in_run = true;
	}
	if (in_run && fill_res_srq_qp_range(msg, first, last))
		goto err_cancel;
	nla_nest_end(msg, table);
	return 0;

err_cancel:
	nla_nest_cancel(msg, table);
	return -EMSGSIZE;
}

static int fill_res_srq_entry(struct sk_buff *msg, bool admin,
			      struct rdma_restrack_entry *res, u32 port)
{
	struct ib_srq *srq = container_of(res, struct ib_srq, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_SRQN, res->id) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, srq->srq_type) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_PDN, srq->pd->res.id))
		return -EMSGSIZE;
	if (ib_srq_has_cq(srq->srq_type) &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_CQN, srq->ext.cq->res.id))
		return -EMSGSIZE;
	if (fill_res_srq_qps(msg, srq) || fill_res_name_pid(msg, res))
		return -EMSGSIZE;
	return srq->device->ops.fill_res_srq_entry ?
	       srq->device->ops.fill_res_srq_entry(msg, srq) : 0;
}

static int fill_res_srq_raw_entry(struct sk_buff *msg, bool admin,
				  struct rdma_restrack_entry *res, u32 port)
{
	struct ib_srq *srq = container_of(res, struct ib_srq, res);

	if (!srq->device->ops.fill_res_srq_entry_raw)
		return -EINVAL;
	return srq->device->ops.fill_res_srq_entry_raw(msg, srq);
}

#define RES_CMD(_type, _attr, _id, _port, _fill, _what)			\
	{ .type = RDMA_RESTRACK_##_type,				\
	  .table = RDMA_NLDEV_ATTR_RES_##_attr,				\
	  .entry = RDMA_NLDEV_ATTR_RES_##_attr##_ENTRY,			\
	  .id = RDMA_NLDEV_ATTR_RES_##_id,				\
	  .per_port = _port, .fill = _fill, .what = _what }

static const struct nldev_res_cmd res_cmds[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_RES_QP_GET] =
		RES_CMD(QP, QP, LQPN, true, fill_res_qp_entry, "QP"),
	[RDMA_NLDEV_CMD_RES_QP_GET_RAW] =
		RES_CMD(QP, QP, LQPN, true, fill_res_qp_raw_entry, "QP"),
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] =
		RES_CMD(CM_ID, CM_ID, CM_IDN, true, fill_res_cm_id_entry,
			"CM ID"),
	[RDMA_NLDEV_CMD_RES_CQ_GET] =
		RES_CMD(CQ, CQ, CQN, false, fill_res_cq_entry, "CQ"),
	[RDMA_NLDEV_CMD_RES_CQ_GET_RAW] =
		RES_CMD(CQ, CQ, CQN, false, fill_res_cq_raw_entry, "CQ"),
	[RDMA_NLDEV_CMD_RES_MR_GET] =
		RES_CMD(MR, MR, MRN, false, fill_res_mr_entry, "MR"),
	[RDMA_NLDEV_CMD_RES_MR_GET_RAW] =
		RES_CMD(MR, MR, MRN, false, fill_res_mr_raw_entry, "MR"),
	[RDMA_NLDEV_CMD_RES_PD_GET] =
		RES_CMD(PD, PD, PDN, false, fill_res_pd_entry, "PD"),
	[RDMA_NLDEV_CMD_RES_CTX_GET] =
		RES_CMD(CTX, CTX, CTXN, false, fill_res_ctx_entry, "context"),
	[RDMA_NLDEV_CMD_RES_SRQ_GET] =
		RES_CMD(SRQ, SRQ, SRQN, false, fill_res_srq_entry, "SRQ"),
	[RDMA_NLDEV_CMD_RES_SRQ_GET_RAW] =
		RES_CMD(SRQ, SRQ, SRQN, false, fill_res_srq_raw_entry, "SRQ"),
};

static const struct nldev_res_cmd *res_cmd_of(const struct nlmsghdr *nlh)
{
	unsigned int op = RDMA_NL_GET_OP(nlh->nlmsg_type);

	if (op >= ARRAY_SIZE(res_cmds) || !res_cmds[op].fill)
		return NULL;
	return &res_cmds[op];
}

/*
 * The port filter of a request: 0 when none is given, else a valid port
 * of @device; -EINVAL with the reason in @extack.
 */
static int res_port_filter(struct ib_device *device, struct nlattr **tb,
			   u32 *port, struct netlink_ext_ack *extack)
{
	*port = 0;
	if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return 0;
	*port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (!rdma_is_port_valid(device, *port)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
				    "No such port");
		return -EINVAL;
	}
	return 0;
}

/* Checks of a doit request before any object is looked up. */
static int res_doit_check(const struct nldev_res_cmd *rc, struct nlattr **tb,
			  u32 port, struct netlink_ext_ack *extack)
{
	if (rc->per_port && !port) {
		NL_SET_ERR_MSG(extack,
			       "These objects belong to a port: the port index is needed");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_PORT_INDEX);
		return -EINVAL;
	}
	if (!rc->per_port && port) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
				    "These objects belong to the device: no port index");
		return -EINVAL;
	}
	if (!tb[rc->id]) {
		NL_SET_ERR_MSG(extack, "The object's ID is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL, rc->id);
		return -EINVAL;
	}
	return 0;
}

/* Reply to a doit request with object @res of @device. */
static int res_doit_reply(struct sk_buff *skb, const struct nlmsghdr *nlh,
			  const struct nldev_res_cmd *rc,
			  struct ib_device *device,
			  struct rdma_restrack_entry *res, u32 port,
			  struct netlink_ext_ack *extack)
{
	struct nlmsghdr *rnlh;
	struct sk_buff *msg;
	int ret;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG(extack, "Out of memory for the reply");
		return -ENOMEM;
	}
	rnlh = nlmsg_put(msg, NETLINK_CB(skb).portid, nlh->nlmsg_seq,
			 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					  RDMA_NL_GET_OP(nlh->nlmsg_type)),
			 0, 0);
	if (!rnlh || fill_nldev_handle(msg, device)) {
		ret = -EMSGSIZE;
		goto err_free;
	}
	ret = rc->fill(msg, netlink_capable(skb, CAP_NET_ADMIN), res, port);
	if (ret)
		goto err_free;
	nlmsg_end(msg, rnlh);
	return rdma_nl_unicast(sock_net(skb->sk), msg, NETLINK_CB(skb).portid);

err_free:
	nlmsg_free(msg);
	if (ret == -EAGAIN)
		NL_SET_ERR_MSG(extack, "The object is on another port");
	else if (ret == -EINVAL)
		NL_SET_ERR_MSG(extack, "The driver cannot show this object");
	else
		NL_SET_ERR_MSG(extack, "Could not build the reply");
	return ret;
}

/**
 * nldev_res_obj_doit - one object of a RES_*_GET or RES_*_GET_RAW command
 * @skb: the request
 * @nlh: its header; its operation says which type
 * @extack: where a refusal is explained
 *
 * The request names the device, the object's ID attribute and, for QPs
 * and CM IDs only, the port.
 *
 * Return: 0, -EINVAL for a bad request, -ENOENT for an unknown object,
 * or another negative errno.
 */
int nldev_res_obj_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack)
{
	const struct nldev_res_cmd *rc = res_cmd_of(nlh);

	if (WARN_ON_ONCE(!rc))
		return -EOPNOTSUPP;
	return nldev_res_doit_cmd(skb, nlh, extack, rc);
}

/**
 * nldev_res_doit_cmd - one object, the way @rc says
 * @skb: the request
 * @nlh: its header; the reply has its command
 * @extack: where a refusal is explained
 * @rc: the table, ID attribute and fill function
 *
 * Return: 0 or a negative errno, as nldev_res_obj_doit().
 */
int nldev_res_doit_cmd(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack,
		       const struct nldev_res_cmd *rc)
{
	struct rdma_restrack_entry *res;
	struct ib_device *device;
	struct nlattr **tb;
	u32 port;
	int ret;

	tb = nldev_parse(nlh, extack);
	if (IS_ERR(tb))
		return PTR_ERR(tb);
	device = nldev_get_device(skb, tb, extack);
	if (!device) {
		ret = -EINVAL;
		goto out_tb;
	}
	ret = res_port_filter(device, tb, &port, extack);
	if (ret)
		goto out_dev;
	ret = res_doit_check(rc, tb, port, extack);
	if (ret)
		goto out_dev;

	res = rdma_restrack_get_byid(device, rc->type,
				     nla_get_u32(tb[rc->id]));
	if (IS_ERR(res)) {
		NL_SET_ERR_MSG_FMT(extack, "No such %s", rc->what);
		NL_SET_BAD_ATTR(extack, tb[rc->id]);
		ret = PTR_ERR(res);
		goto out_dev;
	}
	ret = res_doit_reply(skb, nlh, rc, device, res, port, extack);
	rdma_restrack_put(res);
out_dev:
	ib_device_put(device);
out_tb:
	kfree(tb);
	return ret;
}

/**
 * struct res_dump - the state of one read of an object dump
 * @rc: the command
 * @device: the device dumped, referenced
 * @port: port filter, 0 for none
 * @admin: the requester has CAP_NET_ADMIN
 * @details: include RESTRACK_DD objects
 */
struct res_dump {
	const struct nldev_res_cmd *rc;
	struct ib_device *device;
	u32 port;
	bool admin;
	bool details;
};

/*
 * Write the objects from ID cb->args[0] on into @table until the buffer
 * is full or the table ends; cb->args[0] moves past each object written
 * or filtered out.  *@seen tells whether any object was found.
 *
 * Return: 0 (table ended or buffer full) or the error of a fill.
 */
static int res_dump_objects(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct res_dump *d, bool *seen)
{
	struct rdma_restrack_entry *res;
	unsigned long id = cb->args[0];
	unsigned int written = 0;
	struct nlattr *entry;
	int ret;

	while ((res = rdma_restrack_get_next(d->device, d->rc->type, &id,
					     d->details))) {
		*seen = true;
		entry = nla_nest_start_noflag(skb, d->rc->entry);
		ret = entry ? d->rc->fill(skb, d->admin, res, d->port) :
			      -EMSGSIZE;
		rdma_restrack_put(res);
		if (ret) {
			if (entry)
				nla_nest_cancel(skb, entry);
			if (ret == -EMSGSIZE)
				/* An object too big for a whole read is an error. */
				return written ? 0 : -EMSGSIZE;
			if (ret != -EAGAIN)
				return ret;
		} else {
			nla_nest_end(skb, entry);
			written++;
		}
		cb->args[0] = ++id;
	}
	return 0;
}

/**
 * nldev_res_obj_dumpit - the objects of a device for a RES_*_GET command
 * @skb: the buffer to fill
 * @cb: the dump's state; cb->args[0] is the next object ID to look at
 *
 * Each read sends one message: the device handle and the RES_* nest of
 * as many objects as fit.  The dump resumes by object ID, so an object
 * destroyed between two reads neither hides nor repeats another.  A port
 * index in the request filters QPs to that port.
 *
 * Return: bytes added (0 ends the dump) or a negative errno.
 */
int nldev_res_obj_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct nldev_res_cmd *rc = res_cmd_of(cb->nlh);

	if (WARN_ON_ONCE(!rc))
		return -EOPNOTSUPP;
	return nldev_res_dumpit_cmd(skb, cb, rc);
}

/**
 * nldev_res_dumpit_cmd - the objects of a device, the way @rc says
 * @skb: the buffer to fill
 * @cb: the dump's state
 * @rc: the table, nests and fill function
 *
 * Return: bytes added (0 ends the dump) or a negative errno.
 */
int nldev_res_dumpit_cmd(struct sk_buff *skb, struct netlink_callback *cb,
			 const struct nldev_res_cmd *rc)
{
	struct res_dump d = { .rc = rc };
	struct nlattr *table;
	struct nlmsghdr *nlh;
	bool seen = false;
	struct nlattr **tb;
	int ret;

	/* Past U32_MAX: the last read ended the table. */
	if (cb->args[0] > U32_MAX)
		return 0;
	tb = nldev_parse(cb->nlh, cb->extack);
	if (IS_ERR(tb))
		return PTR_ERR(tb);
	d.device = nldev_get_device(cb->skb, tb, cb->extack);
	if (!d.device) {
		ret = -EINVAL;
		goto out_tb;
	}
	ret = res_port_filter(d.device, tb, &d.port, cb->extack);
	if (ret)
		goto out_dev;
	d.details = res_show_details(tb);
	d.admin = netlink_capable(cb->skb, CAP_NET_ADMIN);

	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					 RDMA_NL_GET_OP(cb->nlh->nlmsg_type)),
			0, NLM_F_MULTI);
	if (!nlh || fill_nldev_handle(skb, d.device)) {
		ret = -EMSGSIZE;
		goto err_cancel_msg;
	}
	table = nla_nest_start_noflag(skb, d.rc->table);
	if (!table) {
		ret = -EMSGSIZE;
		goto err_cancel_msg;
	}
	ret = res_dump_objects(skb, cb, &d, &seen);
	if (ret) {
		NL_SET_ERR_MSG_FMT(cb->extack, "Could not dump a %s",
				   d.rc->what);
		goto err_cancel_msg;
	}
	/* Nothing left: no message, and the empty read ends the dump. */
	if (!seen)
		goto err_cancel_msg;
	nla_nest_end(skb, table);
	nlmsg_end(skb, nlh);
	ret = skb->len;
	goto out_dev;

err_cancel_msg:
	if (nlh)
		nlmsg_cancel(skb, nlh);
out_dev:
	ib_device_put(d.device);
out_tb:
	kfree(tb);
	return ret;
}
