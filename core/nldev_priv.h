/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of nldev share: core/nldev.c owns the policy and the
 * operation table; core/nldev_res.c answers the resource commands.
 */
#ifndef RDMA_CORE_NLDEV_PRIV_H
#define RDMA_CORE_NLDEV_PRIV_H

#include <net/netlink.h>

struct ib_device;

/* nldev.c: strict parse against nldev's policy; kfree() the table. */
struct nlattr **nldev_parse(const struct nlmsghdr *nlh,
			    struct netlink_ext_ack *extack);
/* nldev.c: the device of RDMA_NLDEV_ATTR_DEV_INDEX, referenced, or NULL. */
struct ib_device *nldev_get_device(struct sk_buff *skb, struct nlattr **tb,
				   struct netlink_ext_ack *extack);
/* nldev.c: the device index and name of a reply. */
int fill_nldev_handle(struct sk_buff *msg, struct ib_device *device);

/* nldev_res.c: RDMA_NLDEV_CMD_RES_GET and the RES_*_GET commands. */
int nldev_res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int nldev_res_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_obj_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int nldev_res_obj_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* RDMA_CORE_NLDEV_PRIV_H */
