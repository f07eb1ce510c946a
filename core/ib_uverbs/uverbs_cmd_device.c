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

/* The response of QUERY_DEVICE, also the extended one's base. */
static void uverbs_device_resp(struct ib_device *dev,
			       const struct ib_device_attr *a,
			       struct ib_uverbs_query_device_resp *resp)
{
	resp->fw_ver = a->fw_ver;
	resp->node_guid = dev->node_guid;
	resp->sys_image_guid = a->sys_image_guid;
	resp->max_mr_size = a->max_mr_size;
	resp->page_size_cap = a->page_size_cap;
	resp->vendor_id = a->vendor_id;
	resp->vendor_part_id = a->vendor_part_id;
	resp->hw_ver = a->hw_ver;
	resp->max_qp = a->max_qp;
	resp->max_qp_wr = a->max_qp_wr;
	resp->device_cap_flags = lower_32_bits(a->device_cap_flags);
	/* one figure for both queues in this ABI: the smaller */
	resp->max_sge = min(a->max_send_sge, a->max_recv_sge);
	resp->max_sge_rd = a->max_sge_rd;
	resp->max_cq = a->max_cq;
	resp->max_cqe = a->max_cqe;
	resp->max_mr = a->max_mr;
	resp->max_pd = a->max_pd;
	resp->max_qp_rd_atom = a->max_qp_rd_atom;
	resp->max_ee_rd_atom = a->max_ee_rd_atom;
	resp->max_res_rd_atom = a->max_res_rd_atom;
	resp->max_qp_init_rd_atom = a->max_qp_init_rd_atom;
	resp->max_ee_init_rd_atom = a->max_ee_init_rd_atom;
	resp->atomic_cap = a->atomic_cap;
	resp->max_ee = a->max_ee;
	resp->max_rdd = a->max_rdd;
	resp->max_mw = a->max_mw;
	resp->max_raw_ipv6_qp = a->max_raw_ipv6_qp;
	resp->max_raw_ethy_qp = a->max_raw_ethy_qp;
	resp->max_mcast_grp = a->max_mcast_grp;
	resp->max_mcast_qp_attach = a->max_mcast_qp_attach;
	resp->max_total_mcast_qp_attach = a->max_total_mcast_qp_attach;
	resp->max_ah = a->max_ah;
	resp->max_srq = a->max_srq;
	resp->max_srq_wr = a->max_srq_wr;
	resp->max_srq_sge = a->max_srq_sge;
	resp->max_pkeys = a->max_pkeys;
	resp->local_ca_ack_delay = a->local_ca_ack_delay;
	resp->phys_port_cnt = min_t(u32, dev->phys_port_cnt, U8_MAX);
}

static int uverbs_query_device(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_query_device_resp resp = {};
	struct ib_uverbs_query_device cmd;
	struct ib_device *dev;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	uverbs_device_resp(dev, &dev->attrs, &resp);
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/*
 * The extended QUERY_DEVICE: the driver is asked again (with its udata),
 * and the response adds what the legacy one has no room for.
 */
static int uverbs_ex_query_device(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_ex_query_device_resp resp = {};
	struct ib_uverbs_ex_query_device cmd;
	struct ib_device_attr a = {};
	struct ib_device *dev;
	int ret;

	dev = uverbs_ctx_request(attrs, &cmd, sizeof(cmd));
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (cmd.comp_mask || cmd.reserved)
		return -EINVAL;
	ret = dev->ops.query_device(dev, &a, &attrs->driver_udata);
	if (ret)
		return ret;
	uverbs_device_resp(dev, &a, &resp.base);
	resp.odp_caps.general_caps = a.odp_caps.general_caps;
	resp.odp_caps.per_transport_caps.rc_odp_caps =
		a.odp_caps.per_transport_caps.rc_odp_caps;
	resp.odp_caps.per_transport_caps.uc_odp_caps =
		a.odp_caps.per_transport_caps.uc_odp_caps;
	resp.odp_caps.per_transport_caps.ud_odp_caps =
		a.odp_caps.per_transport_caps.ud_odp_caps;
	resp.xrc_odp_caps = a.odp_caps.per_transport_caps.xrc_odp_caps;
	resp.timestamp_mask = a.timestamp_mask;
	resp.hca_core_clock = a.hca_core_clock;
	resp.device_cap_flags_ex = a.device_cap_flags;
	resp.rss_caps.supported_qpts = a.rss_caps.supported_qpts;
	resp.rss_caps.max_rwq_indirection_tables =
		a.rss_caps.max_rwq_indirection_tables;
	resp.rss_caps.max_rwq_indirection_table_size =
		a.rss_caps.max_rwq_indirection_table_size;
	resp.max_wq_type_rq = a.max_wq_type_rq;
	resp.raw_packet_caps = a.raw_packet_caps;
	resp.tm_caps.max_rndv_hdr_size = a.tm_caps.max_rndv_hdr_size;
	resp.tm_caps.max_num_tags = a.tm_caps.max_num_tags;
	resp.tm_caps.max_ops = a.tm_caps.max_ops;
	resp.tm_caps.max_sge = a.tm_caps.max_sge;
	resp.tm_caps.flags = a.tm_caps.flags;
	resp.cq_moderation_caps.max_cq_moderation_count =
		a.cq_caps.max_cq_moderation_count;
	resp.cq_moderation_caps.max_cq_moderation_period =
		a.cq_caps.max_cq_moderation_period;
	resp.max_dm_size = a.max_dm_size;
	resp.response_length =
		uverbs_response_length(attrs, sizeof(resp));
	return uverbs_response(attrs, &resp, sizeof(resp));
}

/**
 * uverbs_port_resp - a port's attributes as QUERY_PORT answers them
 * @dev: the device
 * @port_num: the port
 * @attr: what ib_query_port() said
 * @resp: the answer (write()'s, and the base of the ioctl's)
 *
 * Context: any.
 */
void uverbs_port_resp(struct ib_device *dev, u32 port_num,
		      const struct ib_port_attr *attr,
		      struct ib_uverbs_query_port_resp *resp)
{
	resp->state = attr->state;
	resp->max_mtu = attr->max_mtu;
	resp->active_mtu = attr->active_mtu;
	resp->gid_tbl_len = attr->gid_tbl_len;
	resp->port_cap_flags = uverbs_port_cap_flags(attr);
	resp->max_msg_sz = attr->max_msg_sz;
	resp->bad_pkey_cntr = attr->bad_pkey_cntr;
	resp->qkey_viol_cntr = attr->qkey_viol_cntr;
	resp->pkey_tbl_len = attr->pkey_tbl_len;
	if (rdma_is_grh_required(dev, port_num))
		resp->flags |= IB_UVERBS_QPF_GRH_REQUIRED;
	resp->lid = ib_lid_cpu16(attr->lid);
	resp->sm_lid = ib_lid_cpu16(attr->sm_lid);
	resp->lmc = attr->lmc;
	resp->max_vl_num = attr->max_vl_num;
	resp->sm_sl = attr->sm_sl;
	resp->subnet_timeout = attr->subnet_timeout;
	resp->init_type_reply = attr->init_type_reply;
	resp->active_width = attr->active_width;
	/* a u8 in this ABI: faster links report NDR */
	resp->active_speed = min_t(u16, attr->active_speed, IB_SPEED_NDR);
	resp->phys_state = attr->phys_state;
	resp->link_layer = rdma_port_get_link_layer(dev, port_num);
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

	uverbs_port_resp(dev, cmd.port_num, &attr, &resp);
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
	[IB_USER_VERBS_CMD_REG_MR] = {
		.handler = uverbs_reg_mr,
		.req_size = sizeof(struct ib_uverbs_reg_mr),
		.resp_size = sizeof(struct ib_uverbs_reg_mr_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_REREG_MR] = {
		.handler = uverbs_rereg_mr,
		.req_size = sizeof(struct ib_uverbs_rereg_mr),
		.resp_size = sizeof(struct ib_uverbs_rereg_mr_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_DEREG_MR] = {
		.handler = uverbs_dereg_mr,
		.req_size = sizeof(struct ib_uverbs_dereg_mr),
	},
	[IB_USER_VERBS_CMD_ALLOC_MW] = {
		.handler = uverbs_alloc_mw,
		.req_size = sizeof(struct ib_uverbs_alloc_mw),
		.resp_size = sizeof(struct ib_uverbs_alloc_mw_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_DEALLOC_MW] = {
		.handler = uverbs_dealloc_mw,
		.req_size = sizeof(struct ib_uverbs_dealloc_mw),
	},
	[IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL] = {
		.handler = uverbs_create_comp_channel,
		.req_size = sizeof(struct ib_uverbs_create_comp_channel),
		.resp_size = sizeof(struct ib_uverbs_create_comp_channel_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_CREATE_CQ] = {
		.handler = uverbs_create_cq,
		.req_size = sizeof(struct ib_uverbs_create_cq),
		.resp_size = sizeof(struct ib_uverbs_create_cq_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_RESIZE_CQ] = {
		.handler = uverbs_resize_cq,
		.req_size = sizeof(struct ib_uverbs_resize_cq),
		.resp_size = sizeof(struct ib_uverbs_resize_cq_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_DESTROY_CQ] = {
		.handler = uverbs_destroy_cq,
		.req_size = sizeof(struct ib_uverbs_destroy_cq),
		.resp_size = sizeof(struct ib_uverbs_destroy_cq_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_POLL_CQ] = {
		.handler = uverbs_poll_cq,
		.req_size = sizeof(struct ib_uverbs_poll_cq),
		.resp_size = sizeof(struct ib_uverbs_poll_cq_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_REQ_NOTIFY_CQ] = {
		.handler = uverbs_req_notify_cq,
		.req_size = sizeof(struct ib_uverbs_req_notify_cq),
	},
	[IB_USER_VERBS_CMD_CREATE_AH] = {
		.handler = uverbs_create_ah,
		.req_size = sizeof(struct ib_uverbs_create_ah),
		.resp_size = sizeof(struct ib_uverbs_create_ah_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_DESTROY_AH] = {
		.handler = uverbs_destroy_ah,
		.req_size = sizeof(struct ib_uverbs_destroy_ah),
	},
	[IB_USER_VERBS_CMD_CREATE_QP] = {
		.handler = uverbs_create_qp,
		.req_size = sizeof(struct ib_uverbs_create_qp),
		.resp_size = sizeof(struct ib_uverbs_create_qp_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_QUERY_QP] = {
		.handler = uverbs_query_qp,
		.req_size = sizeof(struct ib_uverbs_query_qp),
		.resp_size = sizeof(struct ib_uverbs_query_qp_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_MODIFY_QP] = {
		.handler = uverbs_modify_qp,
		.req_size = sizeof(struct ib_uverbs_modify_qp),
		.has_udata = 1,
	},
	[IB_USER_VERBS_CMD_DESTROY_QP] = {
		.handler = uverbs_destroy_qp,
		.req_size = sizeof(struct ib_uverbs_destroy_qp),
		.resp_size = sizeof(struct ib_uverbs_destroy_qp_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_POST_SEND] = {
		.handler = uverbs_post_send,
		.req_size = sizeof(struct ib_uverbs_post_send),
		.resp_size = sizeof(struct ib_uverbs_post_send_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_POST_RECV] = {
		.handler = uverbs_post_recv,
		.req_size = sizeof(struct ib_uverbs_post_recv),
		.resp_size = sizeof(struct ib_uverbs_post_recv_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_ATTACH_MCAST] = {
		.handler = uverbs_attach_mcast,
		.req_size = sizeof(struct ib_uverbs_attach_mcast),
	},
	[IB_USER_VERBS_CMD_DETACH_MCAST] = {
		.handler = uverbs_detach_mcast,
		.req_size = sizeof(struct ib_uverbs_detach_mcast),
	},
	[IB_USER_VERBS_CMD_CREATE_SRQ] = {
		.handler = uverbs_create_srq,
		.req_size = sizeof(struct ib_uverbs_create_srq),
		.resp_size = sizeof(struct ib_uverbs_create_srq_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_MODIFY_SRQ] = {
		.handler = uverbs_modify_srq,
		.req_size = sizeof(struct ib_uverbs_modify_srq),
		.has_udata = 1,
	},
	[IB_USER_VERBS_CMD_QUERY_SRQ] = {
		.handler = uverbs_query_srq,
		.req_size = sizeof(struct ib_uverbs_query_srq),
		.resp_size = sizeof(struct ib_uverbs_query_srq_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_DESTROY_SRQ] = {
		.handler = uverbs_destroy_srq,
		.req_size = sizeof(struct ib_uverbs_destroy_srq),
		.resp_size = sizeof(struct ib_uverbs_destroy_srq_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_POST_SRQ_RECV] = {
		.handler = uverbs_post_srq_recv,
		.req_size = sizeof(struct ib_uverbs_post_srq_recv),
		.resp_size = sizeof(struct ib_uverbs_post_srq_recv_resp),
		.has_resp = 1,
	},
	[IB_USER_VERBS_CMD_CREATE_XSRQ] = {
		.handler = uverbs_create_xsrq,
		.req_size = sizeof(struct ib_uverbs_create_xsrq),
		.resp_size = sizeof(struct ib_uverbs_create_srq_resp),
		.has_udata = 1,
		.has_resp = 1,
	},
};

const unsigned int uverbs_num_write_cmds = ARRAY_SIZE(uverbs_write_cmds);

/* Extended commands: sizes up to their last member, as upstream's. */
const struct uverbs_write_cmd uverbs_write_ex_cmds[] = {
	[IB_USER_VERBS_EX_CMD_QUERY_DEVICE] = {
		.handler = uverbs_ex_query_device,
		.req_size = offsetofend(struct ib_uverbs_ex_query_device,
					reserved),
		.resp_size = offsetofend(struct ib_uverbs_ex_query_device_resp,
					 response_length),
		.has_resp = 1,
	},
	[IB_USER_VERBS_EX_CMD_CREATE_CQ] = {
		.handler = uverbs_ex_create_cq,
		.req_size = offsetofend(struct ib_uverbs_ex_create_cq, reserved),
		.resp_size = offsetofend(struct ib_uverbs_ex_create_cq_resp,
					 response_length),
		.has_resp = 1,
	},
	[IB_USER_VERBS_EX_CMD_CREATE_QP] = {
		.handler = uverbs_ex_create_qp,
		.req_size = offsetofend(struct ib_uverbs_ex_create_qp,
					comp_mask),
		.resp_size = offsetofend(struct ib_uverbs_ex_create_qp_resp,
					 response_length),
		.has_resp = 1,
	},
	[IB_USER_VERBS_EX_CMD_MODIFY_QP] = {
		.handler = uverbs_ex_modify_qp,
		.req_size = offsetofend(struct ib_uverbs_ex_modify_qp, base),
		.resp_size = offsetofend(struct ib_uverbs_ex_modify_qp_resp,
					 response_length),
		.has_resp = 1,
	},
	[IB_USER_VERBS_EX_CMD_MODIFY_CQ] = {
		.handler = uverbs_ex_modify_cq,
		.req_size = sizeof(struct ib_uverbs_ex_modify_cq),
	},
};

const unsigned int uverbs_num_write_ex_cmds = ARRAY_SIZE(uverbs_write_ex_cmds);
