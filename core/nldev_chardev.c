// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev RDMA_NLDEV_CMD_GET_CHARDEV: which character device a client
 * (uverbs, umad, rdma_cm...) offers for a device, a port or globally.
 *
 * Upstream asks the client named by RDMA_NLDEV_ATTR_CHARDEV_TYPE through
 * its get_nl_info (or get_global_nl_info) op.  None of our clients has
 * a character device yet, so after the request is checked the answer is
 * upstream's for a type nobody provides: -EOPNOTSUPP.  libibverbs then
 * falls back to sysfs.
 */
#include <linux/slab.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "core_priv.h"
#include "nldev_priv.h"

/* Check the optional device and port of a request. */
static int chardev_check_target(struct sk_buff *skb, struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	struct ib_device *device;
	int ret = 0;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX])
			return 0;
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
				    "A port needs its device index");
		return -EINVAL;
	}
	device = nldev_get_device(skb, tb, extack);
	if (!device)
		return -EINVAL;
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX] &&
	    !rdma_is_port_valid(device,
				nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]))) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
				    "No such port");
		ret = -EINVAL;
	}
	ib_device_put(device);
	return ret;
}

/**
 * nldev_get_chardev_doit - RDMA_NLDEV_CMD_GET_CHARDEV
 * @skb: the request
 * @nlh: its header
 * @extack: where a refusal is explained
 *
 * Return: -EINVAL for a bad request, else -EOPNOTSUPP (no client
 * provides character devices yet).
 */
int nldev_get_chardev_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	int ret;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	if (!tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE]) {
		NL_SET_ERR_MSG(extack, "Character device type is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL,
				     RDMA_NLDEV_ATTR_CHARDEV_TYPE);
		ret = -EINVAL;
		goto out;
	}
	ret = chardev_check_target(skb, tb, extack);
	if (ret)
		goto out;
	NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE],
			    "No client provides this character device");
	ret = -EOPNOTSUPP;
out:
	kfree(tb);
	return ret;
}
