// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev statistics: RDMA_NLDEV_CMD_STAT_GET as Linux 6.12 answers it for
 * devices without hardware counters, which all of ours are so far.
 *
 *   no STAT_RES    the port's hardware counters: -EINVAL when the driver
 *                  has none (upstream's answer), -EOPNOTSUPP otherwise
 *   STAT_RES = QP  doit: the port's counter mode (always "none": no QP
 *                  counters exist); with STAT_COUNTER_ID one counter
 *                  (never found); dump: the counters (none)
 *   STAT_RES = MR  doit and dump: MR numbers, plus what the driver's
 *                  fill_stat_mr_entry adds
 *
 * The object walks are those of the resource commands
 * (core/ib_core/netlink/nldev_res.c).
 */
#include <linux/slab.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "../core_priv.h"
#include "nldev_priv.h"

static int fill_stat_mr_entry(struct sk_buff *msg, bool admin,
			      struct rdma_restrack_entry *res, u32 port)
{
	struct ib_mr *mr = container_of(res, struct ib_mr, res);

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_MRN, res->id))
		return -EMSGSIZE;
	return mr->device->ops.fill_stat_mr_entry ?
	       mr->device->ops.fill_stat_mr_entry(msg, mr) : 0;
}

/* Nothing creates counters yet: an entry only names itself. */
static int fill_stat_counter_entry(struct sk_buff *msg, bool admin,
				   struct rdma_restrack_entry *res, u32 port)
{
	return nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, res->id) ?
	       -EMSGSIZE : 0;
}

static const struct nldev_res_cmd stat_mr_cmd = {
	.type = RDMA_RESTRACK_MR,
	.table = RDMA_NLDEV_ATTR_RES_MR,
	.entry = RDMA_NLDEV_ATTR_RES_MR_ENTRY,
	.id = RDMA_NLDEV_ATTR_RES_MRN,
	.fill = fill_stat_mr_entry,
	.what = "MR",
};

static const struct nldev_res_cmd stat_counter_cmd = {
	.type = RDMA_RESTRACK_COUNTER,
	.table = RDMA_NLDEV_ATTR_STAT_COUNTER,
	.entry = RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY,
	.id = RDMA_NLDEV_ATTR_STAT_COUNTER_ID,
	.per_port = true,
	.fill = fill_stat_counter_entry,
	.what = "counter",
};

/* The device and port a request names; -EINVAL with extack if not. */
static struct ib_device *stat_device_port(struct sk_buff *skb,
					  struct nlattr **tb, u32 *port,
					  struct netlink_ext_ack *extack)
{
	struct ib_device *device;

	if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		NL_SET_ERR_MSG(extack, "Port index is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_PORT_INDEX);
		return NULL;
	}
	device = nldev_get_device(skb, tb, extack);
	if (!device)
		return NULL;
	*port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (!rdma_is_port_valid(device, *port)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
				    "No such port");
		ib_device_put(device);
		return NULL;
	}
	return device;
}

/* STAT_GET without STAT_RES: the port's hardware counters. */
static int stat_get_hwcounters(struct sk_buff *skb, struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	struct ib_device *device;
	int ret;
	u32 port;

	device = stat_device_port(skb, tb, &port, extack);
	if (!device)
		return -EINVAL;
	if (!device->ops.alloc_hw_port_stats || !device->ops.get_hw_stats) {
		NL_SET_ERR_MSG(extack, "The device has no hardware counters");
		ret = -EINVAL;
	} else {
		NL_SET_ERR_MSG(extack,
			       "Hardware counters are not implemented yet");
		ret = -EOPNOTSUPP;
	}
	ib_device_put(device);
	return ret;
}

/* The STAT_GET reply of a port: its counter mode. */
struct stat_qp_mode_req {
	struct ib_device	*device;
	u32			port;
};

static int fill_stat_qp_mode(struct sk_buff *msg, void *data)
{
	struct stat_qp_mode_req *req = data;

	if (fill_nldev_handle(msg, req->device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_MODE,
			RDMA_COUNTER_MODE_NONE))
		return -EMSGSIZE;
	return 0;
}

/* STAT_GET for QPs without a counter ID: the port's counter mode. */
static int stat_get_qp_mode(struct sk_buff *skb, struct nlmsghdr *nlh,
			    struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct stat_qp_mode_req req;
	int ret;

	if (!tb[RDMA_NLDEV_ATTR_STAT_MODE]) {
		NL_SET_ERR_MSG(extack, "Statistic mode is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_STAT_MODE);
		return -EINVAL;
	}
	req.device = stat_device_port(skb, tb, &req.port, extack);
	if (!req.device)
		return -EINVAL;
	ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_STAT_GET, extack,
			  fill_stat_qp_mode, &req);
	ib_device_put(req.device);
	return ret;
}

/**
 * nldev_stat_get_doit - RDMA_NLDEV_CMD_STAT_GET (doit)
 * @skb: the request
 * @nlh: its header
 * @extack: where a refusal is explained
 *
 * Return: 0 or a negative errno (-EINVAL for bad requests and for
 * devices without hardware counters, -ENOENT for unknown objects).
 */
int nldev_stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	int ret;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	if (!tb[RDMA_NLDEV_ATTR_STAT_RES]) {
		ret = stat_get_hwcounters(skb, tb, extack);
		goto out;
	}
	switch (nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_RES])) {
	case RDMA_NLDEV_ATTR_RES_QP:
		if (tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
			ret = nldev_res_doit_cmd(skb, nlh, extack,
						 &stat_counter_cmd);
		else
			ret = stat_get_qp_mode(skb, nlh, tb, extack);
		break;
	case RDMA_NLDEV_ATTR_RES_MR:
		ret = nldev_res_doit_cmd(skb, nlh, extack, &stat_mr_cmd);
		break;
	default:
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_STAT_RES],
				    "Statistics exist for QPs and MRs only");
		ret = -EINVAL;
	}
out:
	kfree(tb);
	return ret;
}

/**
 * nldev_stat_get_dumpit - RDMA_NLDEV_CMD_STAT_GET (dump)
 * @skb: the buffer to fill
 * @cb: the dump's state
 *
 * Return: bytes added (0 ends the dump) or a negative errno.
 */
int nldev_stat_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **tb = nldev_parse(cb->nlh, cb->extack);
	u32 res;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	if (!tb[RDMA_NLDEV_ATTR_STAT_RES]) {
		NL_SET_ERR_MSG(cb->extack, "Statistic resource is missing");
		kfree(tb);
		return -EINVAL;
	}
	res = nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_RES]);
	kfree(tb);
	switch (res) {
	case RDMA_NLDEV_ATTR_RES_QP:
		return nldev_res_dumpit_cmd(skb, cb, &stat_counter_cmd);
	case RDMA_NLDEV_ATTR_RES_MR:
		return nldev_res_dumpit_cmd(skb, cb, &stat_mr_cmd);
	default:
		NL_SET_ERR_MSG(cb->extack,
			       "Statistics exist for QPs and MRs only");
		return -EINVAL;
	}
}
