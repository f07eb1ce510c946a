// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device's commands of write(): QUERY_DEVICE and QUERY_PORT, and
 * the table of every write() command ib_uverbs serves (GET_CONTEXT is
 * uverbs_ucontext.c's, the PD's uverbs_cmd_pd.c's).  A command outside the table, or with no
 * handler in it, is refused with -EOPNOTSUPP.
 */
#include <linux/minmax.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/ib_user_ioctl_verbs.h>
#include <uapi/rdma/ib_user_verbs.h>

#include "uverbs_priv.h"

/*
 * The capability mask user space sees: the IBA's bits, but bit 26 says
 * whether the port's GIDs are IP addresses (a historical choice of the
 * user ABI that user space relies on).
 */
static u32 uverbs_port_cap_flags(const struct ib_port_attr *attr)
{
	u32 flags = attr->port_cap_flags & ~(u32)IB_UVERBS_PCF_IP_BASED_GIDS;

	if (attr->ip_gids)
		flags |= IB_UVERBS_PCF_IP_BASED_GIDS;
	return flags;
}

/**
 * uverbs_ctx_request - the start of a command on the file's context
 * @attrs: the command
 * @cmd: where its request goes
 * @len: the request's size
 *
 * Context: process context, a command of the file.
 * Return: the context's device, or an ERR_PTR() of uverbs_get_ucontext()
 * or uverbs_request().
 */
struct ib_device *uverbs_ctx_request(struct uverbs_attr_bundle *attrs,
				     void *cmd, size_t len)
{
	struct ib_ucontext *uctx = uverbs_get_ucontext(attrs);
	int ret;

	if (IS_ERR(uctx))
		return ERR_CAST(uctx);
	ret = uverbs_request(attrs, cmd, len);
	return ret ? ERR_PTR(ret) : uctx->device;
}

static int uverbs_query_device(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_device_resp resp = {};
	struct ib_uverbs_query_device cmd;
	const struct ib_device_attr *a;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	a = &dev->attrs;

	resp.fw_ver = a->fw_ver;
	resp.node_guid = dev->node_guid;
	resp.sys_image_guid = a->sys_image_guid;
	resp.max_mr_size = a->max_mr_size;
	resp.page_size_cap = a->page_size_cap;
	resp.vendor_id = a->vendor_id;
	resp.vendor_part_id = a->vendor_part_id;
	resp.hw_ver = a->hw_ver;
	resp.max_qp = a->max_qp;
	resp.max_qp_wr = a->max_qp_wr;
	resp.device_cap_flags = lower_32_bits(a->device_cap_flags);
	/* one figure for both queues in this ABI: the smaller */
	resp.max_sge = min(a->max_send_sge, a->max_recv_sge);
	resp.max_sge_rd = a->max_sge_rd;
	resp.max_cq = a->max_cq;
	resp.max_cqe = a->max_cqe;
	resp.max_mr = a->max_mr;
	resp.max_pd = a->max_pd;
	resp.max_qp_rd_atom = a->max_qp_rd_atom;
	resp.max_ee_rd_atom = a->max_ee_rd_atom;
	resp.max_res_rd_atom = a->max_res_rd_atom;
	resp.max_qp_init_rd_atom = a->max_qp_init_rd_atom;
	resp.max_ee_init_rd_atom = a->max_ee_init_rd_atom;
	resp.atomic_cap = a->atomic_cap;
	resp.max_ee = a->max_ee;
	resp.max_rdd = a->max_rdd;
	resp.max_mw = a->max_mw;
	resp.max_raw_ipv6_qp = a->max_raw_ipv6_qp;
	resp.max_raw_ethy_qp = a->max_raw_ethy_qp;
	resp.max_mcast_grp = a->max_mcast_grp;
	resp.max_mcast_qp_attach = a->max_mcast_qp_attach;
	resp.max_total_mcast_qp_attach = a->max_total_mcast_qp_attach;
	resp.max_ah = a->max_ah;
	resp.max_srq = a->max_srq;
	resp.max_srq_wr = a->max_srq_wr;
	resp.max_srq_sge = a->max_srq_sge;
	resp.max_pkeys = a->max_pkeys;
	resp.local_ca_ack_delay = a->local_ca_ack_delay;
	resp.phys_port_cnt = min_t(u32, dev->phys_port_cnt, U8_MAX);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

static int uverbs_query_port(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_port_resp resp = {};
	struct ib_uverbs_query_port cmd;
	struct ib_port_attr attr;
	struct ib_device *dev;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	/* -EINVAL for a port the device does not have */
	ret = ib_query_port(dev, cmd.port_num, &attr);
	if (ret)
		return ret;

	resp.state = attr.state;
	resp.max_mtu = attr.max_mtu;
	resp.active_mtu = attr.active_mtu;
	resp.gid_tbl_len = attr.gid_tbl_len;
	resp.port_cap_flags = uverbs_port_cap_flags(&attr);
	resp.max_msg_sz = attr.max_msg_sz;
	resp.bad_pkey_cntr = attr.bad_pkey_cntr;
	resp.qkey_viol_cntr = attr.qkey_viol_cntr;
	resp.pkey_tbl_len = attr.pkey_tbl_len;
	if (rdma_is_grh_required(dev, cmd.port_num))
		resp.flags |= IB_UVERBS_QPF_GRH_REQUIRED;
	resp.lid = ib_lid_cpu16(attr.lid);
	resp.sm_lid = ib_lid_cpu16(attr.sm_lid);
	resp.lmc = attr.lmc;
	resp.max_vl_num = attr.max_vl_num;
	resp.sm_sl = attr.sm_sl;
	resp.subnet_timeout = attr.subnet_timeout;
	resp.init_type_reply = attr.init_type_reply;
	resp.active_width = attr.active_width;
	/* a u8 in this ABI: faster links report NDR */
	resp.active_speed = min_t(u16, attr.active_speed, IB_SPEED_NDR);
	resp.phys_state = attr.phys_state;
	resp.link_layer = rdma_port_get_link_layer(dev, cmd.port_num);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

const struct uverbs_write_cmd uverbs_write_cmds[] = {
	[IB_USER_VERBS_CMD_GET_CONTEXT] = {
		.handler = uverbs_get_context,
		.req_size = sizeof(struct ib_uverbs_get_context),
		.resp_size = sizeof(struct ib_uverbs_get_context_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_QUERY_DEVICE] = {
		.handler = uverbs_query_device,
		.req_size = sizeof(struct ib_uverbs_query_device),
		.resp_size = sizeof(struct ib_uverbs_query_device_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_QUERY_PORT] = {
		.handler = uverbs_query_port,
		.req_size = sizeof(struct ib_uverbs_query_port),
		.resp_size = sizeof(struct ib_uverbs_query_port_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_ALLOC_PD] = {
		.handler = uverbs_alloc_pd,
		.req_size = sizeof(struct ib_uverbs_alloc_pd),
		.resp_size = sizeof(struct ib_uverbs_alloc_pd_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_DEALLOC_PD] = {
		.handler = uverbs_dealloc_pd,
		.req_size = sizeof(struct ib_uverbs_dealloc_pd),
	},
};

const unsigned int uverbs_num_write_cmds = ARRAY_SIZE(uverbs_write_cmds);

/* No extended command is served yet. */
const struct uverbs_write_cmd uverbs_write_ex_cmds[] = {
	[IB_USER_VERBS_EX_CMD_QUERY_DEVICE] = {},
};

const unsigned int uverbs_num_write_ex_cmds = ARRAY_SIZE(uverbs_write_ex_cmds);
