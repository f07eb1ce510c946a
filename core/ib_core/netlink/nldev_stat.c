// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev statistics: the hardware counters of ports and the per-QP
 * counters (core/ib_core/counters.c), as Linux 6.12 answers them.
 *
 *   STAT_GET, no STAT_RES  the port's hardware counters (driver values
 *                  plus what its per-QP counters counted); -EINVAL when
 *                  the driver has none
 *   STAT_GET, STAT_RES = QP  doit: the port's counter mode (with the
 *                  auto criteria); with STAT_COUNTER_ID one counter;
 *                  dump: every counter with its QPs and values
 *   STAT_GET, STAT_RES = MR  doit and dump: MR numbers, plus what the
 *                  driver's fill_stat_mr_entry adds
 *   STAT_SET       QP counters: auto mode on (a mask) or off (0), or a QP
 *                  bound to a counter (new, or STAT_COUNTER_ID); and/or
 *                  the optional counters that are on (STAT_HWCOUNTERS:
 *                  a list of STAT_HWCOUNTER_INDEX)
 *   STAT_DEL       a QP unbound from its manual counter
 *   STAT_GET_STATUS  every counter of the port with its index, and
 *                  whether an optional one is on
 *
 * STAT_SET and STAT_DEL need CAP_NET_ADMIN (nldev.c's table).  The
 * object walks are those of the resource commands
 * (core/ib_core/netlink/nldev_res.c).
 */
#include <linux/slab.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_counter.h>
#include <rdma/rdma_netlink.h>

#include "../core_priv.h"
#include "../restrack.h"
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

/**
 * rdma_nl_stat_hwcounter_entry - add one counter to a statistics reply
 * @msg: the reply, inside its RDMA_NLDEV_ATTR_STAT_HWCOUNTERS nest
 * @name: the counter's name
 * @value: its value
 *
 * Context: Any context the reply's allocation allows; does not sleep.
 *
 * Return: 0, or -EMSGSIZE when @msg is full (nothing is added then).
 */
int rdma_nl_stat_hwcounter_entry(struct sk_buff *msg, const char *name,
				 u64 value)
{
	struct nlattr *entry;

	entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	if (!entry)
		return -EMSGSIZE;
	if (nla_put_string(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
			   name) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE,
			      value, RDMA_NLDEV_ATTR_PAD)) {
		nla_nest_cancel(msg, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, entry);
	return 0;
}
EXPORT_SYMBOL(rdma_nl_stat_hwcounter_entry);

/* A counter's mode, and in auto mode the criteria its QPs share. */
static int fill_stat_counter_mode(struct sk_buff *msg,
				  struct rdma_counter *counter)
{
	const struct rdma_counter_mode *m = &counter->mode;

	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_MODE, m->mode))
		return -EMSGSIZE;
	if (m->mode != RDMA_COUNTER_MODE_AUTO)
		return 0;
	if (m->mask & RDMA_COUNTER_MASK_QP_TYPE &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_RES_TYPE, m->param.qp_type))
		return -EMSGSIZE;
	if (m->mask & RDMA_COUNTER_MASK_PID &&
	    fill_res_name_pid(msg, &counter->res))
		return -EMSGSIZE;
	return 0;
}

/* The QPs bound to @counter: RES_QP { RES_QP_ENTRY { RES_LQPN } ... }. */
static int fill_stat_counter_qps(struct sk_buff *msg,
				 struct rdma_counter *counter)
{
	struct rdma_restrack_root *rt = &counter->device->res[RDMA_RESTRACK_QP];
	struct rdma_restrack_entry *res;
	struct nlattr *table, *entry;
	unsigned long id;
	int ret = 0;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_QP);
	if (!table)
		return -EMSGSIZE;
	xa_lock(&rt->xa);
	xa_for_each(&rt->xa, id, res) {
		struct ib_qp *qp = container_of(res, struct ib_qp, res);

		if (READ_ONCE(qp->counter) != counter)
			continue;
		entry = nla_nest_start(msg, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
		if (!entry ||
		    nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, qp->qp_num)) {
			ret = -EMSGSIZE;
			break;
		}
		nla_nest_end(msg, entry);
	}
	xa_unlock(&rt->xa);
	if (ret) {
		nla_nest_cancel(msg, table);
		return ret;
	}
	nla_nest_end(msg, table);
	return 0;
}

/* The values of @counter's counters that are on. */
static int fill_stat_counter_values(struct sk_buff *msg,
				    struct rdma_counter *counter)
{
	struct rdma_hw_stats *st = counter->stats;
	struct nlattr *table;
	int i, ret = 0;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table)
		return -EMSGSIZE;
	mutex_lock(&st->lock);
	for (i = 0; i < st->num_counters && !ret; i++)
		if (!test_bit(i, st->is_disabled))
			ret = rdma_nl_stat_hwcounter_entry(msg,
							   st->descs[i].name,
							   st->value[i]);
	mutex_unlock(&st->lock);
	if (ret) {
		nla_nest_cancel(msg, table);
		return ret;
	}
	nla_nest_end(msg, table);
	return 0;
}

/* One counter: port, ID, mode, its QPs and its values. */
static int fill_stat_counter_entry(struct sk_buff *msg, bool admin,
				   struct rdma_restrack_entry *res, u32 port)
{
	struct rdma_counter *counter =
		container_of(res, struct rdma_counter, res);

	if (port && port != counter->port)
		return -EAGAIN;
	/* shown even when the driver could not update it */
	rdma_counter_query_stats(counter);
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, counter->port) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, counter->id) ||
	    fill_stat_counter_mode(msg, counter) ||
	    fill_stat_counter_qps(msg, counter) ||
	    fill_stat_counter_values(msg, counter))
		return -EMSGSIZE;
	return 0;
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

/* The STAT_GET reply of a port's hardware counters. */
struct stat_hw_req {
	struct ib_device	*device;
	u32			port;
	struct rdma_hw_stats	*stats;
};

static int fill_stat_hwcounters(struct sk_buff *msg, void *data)
{
	struct stat_hw_req *req = data;
	struct rdma_hw_stats *st = req->stats;
	struct nlattr *table;
	int i, n, ret = 0;
	u64 v;

	if (fill_nldev_handle(msg, req->device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port))
		return -EMSGSIZE;
	mutex_lock(&st->lock);
	n = req->device->ops.get_hw_stats(req->device, st, req->port, 0);
	if (n < 0) {
		ret = n;
		goto out;
	}
	n = min(n, st->num_counters);
	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table) {
		ret = -EMSGSIZE;
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		if (test_bit(i, st->is_disabled))
			continue;
		v = st->value[i] +
		    rdma_counter_get_hwstat_value(req->device, req->port, i);
		ret = rdma_nl_stat_hwcounter_entry(msg, st->descs[i].name, v);
	}
	if (ret)
		nla_nest_cancel(msg, table);
	else
		nla_nest_end(msg, table);
out:
	mutex_unlock(&st->lock);
	return ret;
}

/* STAT_GET without STAT_RES: the port's hardware counters. */
static int stat_get_hwcounters(struct sk_buff *skb, struct nlmsghdr *nlh,
			       struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	struct stat_hw_req req;
	int ret;

	req.device = stat_device_port(skb, tb, &req.port, extack);
	if (!req.device)
		return -EINVAL;
	req.stats = ib_get_hw_stats_port(req.device, req.port);
	if (!req.stats || !req.device->ops.get_hw_stats) {
		NL_SET_ERR_MSG(extack, "The port has no hardware counters");
		ret = -EINVAL;
	} else {
		ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_STAT_GET, extack,
				  fill_stat_hwcounters, &req);
	}
	ib_device_put(req.device);
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
	enum rdma_nl_counter_mode mode;
	enum rdma_nl_counter_mask mask;

	rdma_counter_get_mode(req->device, req->port, &mode, &mask);
	if (fill_nldev_handle(msg, req->device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_MODE, mode))
		return -EMSGSIZE;
	if (mode == RDMA_COUNTER_MODE_AUTO &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, mask))
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
 * ports without hardware counters, -ENOENT for unknown objects).
 */
int nldev_stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	int ret;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	if (!tb[RDMA_NLDEV_ATTR_STAT_RES]) {
		ret = stat_get_hwcounters(skb, nlh, tb, extack);
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

/* ------------------------------------------------------------------
 * STAT_SET, STAT_DEL, STAT_GET_STATUS
 */

/**
 * struct stat_set_req - a STAT_SET or STAT_DEL being answered
 * @device: the device, referenced
 * @port: the port
 * @qpn: the QP bound or unbound
 * @cntn: its counter
 * @bound: @qpn was bound to @cntn (the reply names them)
 */
struct stat_set_req {
	struct ib_device	*device;
	u32			port;
	u32			qpn;
	u32			cntn;
	bool			bound;
};

static int fill_stat_set(struct sk_buff *msg, void *data)
{
	struct stat_set_req *req = data;

	if (fill_nldev_handle(msg, req->device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port))
		return -EMSGSIZE;
	if (req->bound &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, req->cntn) ||
	     nla_put_u32(msg, RDMA_NLDEV_ATTR_RES_LQPN, req->qpn)))
		return -EMSGSIZE;
	return 0;
}

/* Counters exist for QPs only: STAT_RES must say so. */
static int stat_check_res_qp(struct nlattr **tb,
			     struct netlink_ext_ack *extack)
{
	if (!tb[RDMA_NLDEV_ATTR_STAT_RES]) {
		NL_SET_ERR_MSG(extack, "Statistic resource is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_STAT_RES);
		return -EINVAL;
	}
	if (nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_RES]) !=
	    RDMA_NLDEV_ATTR_RES_QP) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_STAT_RES],
				    "Counters exist for QPs only");
		return -EINVAL;
	}
	return 0;
}

/* STAT_SET of a QP: bind it to a new counter or to STAT_COUNTER_ID. */
static int stat_set_bind(struct nlattr **tb, struct stat_set_req *req,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *cnt = tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID];
	enum rdma_nl_counter_mode mode;
	enum rdma_nl_counter_mask mask;
	int ret;

	if (!tb[RDMA_NLDEV_ATTR_RES_LQPN]) {
		NL_SET_ERR_MSG(extack, "The QP number is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_RES_LQPN);
		return -EINVAL;
	}
	rdma_counter_get_mode(req->device, req->port, &mode, &mask);
	if (mode == RDMA_COUNTER_MODE_AUTO) {
		NL_SET_ERR_MSG(extack,
			       "The port binds QPs automatically: turn auto mode off first");
		return -EINVAL;
	}
	req->qpn = nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN]);
	if (cnt) {
		req->cntn = nla_get_u32(cnt);
		ret = rdma_counter_bind_qpn(req->device, req->port, req->qpn,
					    req->cntn);
	} else {
		ret = rdma_counter_bind_qpn_alloc(req->device, req->port,
						  req->qpn, &req->cntn);
	}
	switch (ret) {
	case 0:
		req->bound = true;
		break;
	case -ENOENT:
		if (cnt)
			NL_SET_ERR_MSG_ATTR(extack, cnt, "No such QP or counter");
		else
			NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_RES_LQPN],
					    "No such QP");
		break;
	case -EINVAL:
		if (cnt)
			NL_SET_ERR_MSG_ATTR(extack, cnt,
					    "The QP is bound already, or the counter is of another port or owner");
		else
			NL_SET_ERR_MSG_ATTR(extack,
					    tb[RDMA_NLDEV_ATTR_RES_LQPN],
					    "The QP is bound already or is on another port");
		break;
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG(extack, "The device has no per-QP counters");
		break;
	default:
		NL_SET_ERR_MSG(extack, "The driver could not bind the QP");
	}
	return ret;
}

/* STAT_SET with STAT_MODE: auto mode on or off, or a manual bind. */
static int stat_set_mode(struct nlattr **tb, struct stat_set_req *req,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *mask = tb[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK];
	int ret;

	ret = stat_check_res_qp(tb, extack);
	if (ret)
		return ret;
	switch (nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_MODE])) {
	case RDMA_COUNTER_MODE_AUTO:
		return rdma_counter_set_auto_mode(req->device, req->port,
						  mask ? nla_get_u32(mask) : 0,
						  extack);
	case RDMA_COUNTER_MODE_MANUAL:
		return stat_set_bind(tb, req, extack);
	default:
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_STAT_MODE],
				    "The mode to set is auto or manual");
		return -EINVAL;
	}
}

/* STAT_SET with STAT_HWCOUNTERS: exactly those optional counters on. */
static int stat_set_optional(struct nlattr **tb, struct stat_set_req *req,
			     struct netlink_ext_ack *extack)
{
	struct rdma_hw_stats *stats;
	unsigned long *target;
	struct nlattr *a;
	int rem, i, ret = 0;
	u32 index;

	stats = ib_get_hw_stats_port(req->device, req->port);
	if (!stats) {
		NL_SET_ERR_MSG(extack, "The port has no hardware counters");
		return -EINVAL;
	}
	target = bitmap_zalloc(stats->num_counters, GFP_KERNEL);
	if (!target) {
		NL_SET_ERR_MSG(extack, "Out of memory");
		return -ENOMEM;
	}
	nla_for_each_nested(a, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], rem) {
		/* the policy let only u32 counter indexes through */
		index = nla_get_u32(a);
		if (index >= stats->num_counters ||
		    !(stats->descs[index].flags & IB_STAT_FLAG_OPTIONAL)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "Not an optional counter of the port");
			ret = -EINVAL;
			goto out;
		}
		set_bit(index, target);
	}
	for (i = 0; i < stats->num_counters; i++) {
		if (!(stats->descs[i].flags & IB_STAT_FLAG_OPTIONAL))
			continue;
		ret = rdma_counter_modify(req->device, req->port, i,
					  test_bit(i, target));
		if (ret == -EOPNOTSUPP) {
			NL_SET_ERR_MSG(extack,
				       "The driver cannot turn counters on or off");
			goto out;
		} else if (ret) {
			NL_SET_ERR_MSG(extack,
				       "The driver refused to turn a counter on or off");
			goto out;
		}
	}
out:
	bitmap_free(target);
	return ret;
}

/**
 * nldev_stat_set_doit - RDMA_NLDEV_CMD_STAT_SET
 * @skb: the request
 * @nlh: its header
 * @extack: where a refusal is explained
 *
 * Return: 0 or a negative errno; a bind that cannot be answered is
 * undone.
 */
int nldev_stat_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	struct stat_set_req req = {};
	int ret;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	req.device = stat_device_port(skb, tb, &req.port, extack);
	if (!req.device) {
		ret = -EINVAL;
		goto out_tb;
	}
	if (!tb[RDMA_NLDEV_ATTR_STAT_MODE] &&
	    !tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]) {
		NL_SET_ERR_MSG(extack,
			       "Nothing to set: a statistic mode or the optional counters");
		ret = -EINVAL;
		goto out_dev;
	}
	if (tb[RDMA_NLDEV_ATTR_STAT_MODE]) {
		ret = stat_set_mode(tb, &req, extack);
		if (ret)
			goto out_dev;
	}
	if (tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]) {
		ret = stat_set_optional(tb, &req, extack);
		if (ret)
			goto out_unbind;
	}
	ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_STAT_SET, extack,
			  fill_stat_set, &req);
out_unbind:
	if (ret && req.bound)
		rdma_counter_unbind_qpn(req.device, req.port, req.qpn,
					req.cntn);
out_dev:
	ib_device_put(req.device);
out_tb:
	kfree(tb);
	return ret;
}

/**
 * nldev_stat_del_doit - RDMA_NLDEV_CMD_STAT_DEL: unbind a QP
 * @skb: the request
 * @nlh: its header
 * @extack: where a refusal is explained
 *
 * The reply is of type STAT_SET, as upstream's.
 *
 * Return: 0 or a negative errno.
 */
int nldev_stat_del_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	struct stat_set_req req = {};
	int ret;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	ret = stat_check_res_qp(tb, extack);
	if (ret)
		goto out_tb;
	if (!tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] ||
	    !tb[RDMA_NLDEV_ATTR_RES_LQPN]) {
		NL_SET_ERR_MSG(extack, "The counter ID and the QP number are needed");
		NL_SET_ERR_ATTR_MISS(extack, NULL,
				     tb[RDMA_NLDEV_ATTR_RES_LQPN] ?
				     RDMA_NLDEV_ATTR_STAT_COUNTER_ID :
				     RDMA_NLDEV_ATTR_RES_LQPN);
		ret = -EINVAL;
		goto out_tb;
	}
	req.device = stat_device_port(skb, tb, &req.port, extack);
	if (!req.device) {
		ret = -EINVAL;
		goto out_tb;
	}
	req.qpn = nla_get_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN]);
	req.cntn = nla_get_u32(tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]);
	ret = rdma_counter_unbind_qpn(req.device, req.port, req.qpn, req.cntn);
	if (ret == -ENOENT) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_RES_LQPN],
				    "No such QP");
	} else if (ret == -EINVAL) {
		NL_SET_ERR_MSG(extack,
			       "The QP is not bound to this counter of the port in manual mode");
	} else if (ret) {
		NL_SET_ERR_MSG(extack, "The driver could not unbind the QP");
	} else {
		/* the reply names what was unbound */
		req.bound = true;
		ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_STAT_SET, extack,
				  fill_stat_set, &req);
	}
	ib_device_put(req.device);
out_tb:
	kfree(tb);
	return ret;
}

/* The STAT_GET_STATUS reply: every counter, its index, optional ones' state. */
static int fill_stat_status(struct sk_buff *msg, void *data)
{
	struct stat_hw_req *req = data;
	struct rdma_hw_stats *st = req->stats;
	struct nlattr *table, *entry;
	int i, ret = 0;

	if (fill_nldev_handle(msg, req->device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, req->port))
		return -EMSGSIZE;
	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	if (!table)
		return -EMSGSIZE;
	mutex_lock(&st->lock);
	for (i = 0; i < st->num_counters; i++) {
		entry = nla_nest_start(msg,
				       RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
		if (!entry ||
		    nla_put_string(msg,
				   RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
				   st->descs[i].name) ||
		    nla_put_u32(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, i) ||
		    (st->descs[i].flags & IB_STAT_FLAG_OPTIONAL &&
		     nla_put_u8(msg, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC,
				!test_bit(i, st->is_disabled)))) {
			ret = -EMSGSIZE;
			break;
		}
		nla_nest_end(msg, entry);
	}
	mutex_unlock(&st->lock);
	if (ret)
		return ret;
	nla_nest_end(msg, table);
	return 0;
}

/**
 * nldev_stat_get_status_doit - RDMA_NLDEV_CMD_STAT_GET_STATUS
 * @skb: the request
 * @nlh: its header
 * @extack: where a refusal is explained
 *
 * Return: 0 or a negative errno (-EINVAL for ports without counters).
 */
int nldev_stat_get_status_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			       struct netlink_ext_ack *extack)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	struct stat_hw_req req;
	int ret;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	req.device = stat_device_port(skb, tb, &req.port, extack);
	if (!req.device) {
		ret = -EINVAL;
		goto out;
	}
	req.stats = ib_get_hw_stats_port(req.device, req.port);
	if (!req.stats) {
		NL_SET_ERR_MSG(extack, "The port has no hardware counters");
		ret = -EINVAL;
	} else {
		ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_STAT_GET_STATUS,
				  extack, fill_stat_status, &req);
	}
	ib_device_put(req.device);
out:
	kfree(tb);
	return ret;
}
