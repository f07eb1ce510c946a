/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of nldev share: nldev.c owns the policy and the
 * operation table; nldev_res.c answers the resource commands,
 * nldev_stat.c the statistics, nldev_chardev.c GET_CHARDEV.
 */
#ifndef RDMA_CORE_NLDEV_PRIV_H
#define RDMA_CORE_NLDEV_PRIV_H

#include <net/netlink.h>

#include <rdma/restrack.h>

struct ib_device;

/* nldev.c: strict parse against nldev's policy; kfree() the table. */
struct nlattr **nldev_parse(const struct nlmsghdr *nlh,
			    struct netlink_ext_ack *extack);
/* nldev.c: the device of RDMA_NLDEV_ATTR_DEV_INDEX, referenced, or NULL. */
struct ib_device *nldev_get_device(struct sk_buff *skb, struct nlattr **tb,
				   struct netlink_ext_ack *extack);
/* nldev.c: the device index and name of a reply. */
int fill_nldev_handle(struct sk_buff *msg, struct ib_device *device);
/* nldev.c: a one-message reply of type @cmd to @nlh, filled by @fill. */
int nldev_reply(struct sk_buff *skb, const struct nlmsghdr *nlh,
		u32 cmd, struct netlink_ext_ack *extack,
		int (*fill)(struct sk_buff *msg, void *data), void *data);

/*
 * Writes the attributes of one object; @port filters (0: none, -EAGAIN
 * for an object of another port); @admin: the requester may see keys.
 */
typedef int (*res_fill_fn)(struct sk_buff *msg, bool admin,
			   struct rdma_restrack_entry *res, u32 port);

/**
 * struct nldev_res_cmd - how one RES_*_GET command is answered
 * @type: the restrack table it reads
 * @table: the attribute nesting a dump's entries
 * @entry: the attribute nesting one object in a dump
 * @id: the attribute naming an object in a doit request
 * @per_port: objects belong to a port: a doit request names the port
 *	(types that belong to the device refuse one)
 * @fill: writes one object
 * @what: the object in extack messages
 */
struct nldev_res_cmd {
	enum rdma_restrack_type type;
	u16 table;
	u16 entry;
	u16 id;
	bool per_port;
	res_fill_fn fill;
	const char *what;
};

/* nldev_res.c: the owner of an object (RES_KERN_NAME or RES_PID). */
int fill_res_name_pid(struct sk_buff *msg, struct rdma_restrack_entry *res);

/* nldev_res.c: RDMA_NLDEV_CMD_RES_GET and the RES_*_GET commands. */
int nldev_res_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int nldev_res_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_obj_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack);
int nldev_res_obj_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_res_doit_cmd(struct sk_buff *skb, struct nlmsghdr *nlh,
		       struct netlink_ext_ack *extack,
		       const struct nldev_res_cmd *rc);
int nldev_res_dumpit_cmd(struct sk_buff *skb, struct netlink_callback *cb,
			 const struct nldev_res_cmd *rc);

/* nldev_stat.c: RDMA_NLDEV_CMD_STAT_GET, _SET, _DEL, _GET_STATUS. */
int nldev_stat_get_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack);
int nldev_stat_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nldev_stat_set_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack);
int nldev_stat_del_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack);
int nldev_stat_get_status_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			       struct netlink_ext_ack *extack);

/* nldev_chardev.c: RDMA_NLDEV_CMD_GET_CHARDEV. */
int nldev_get_chardev_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack);

/* nldev_monitor.c: the events of a device that was just registered. */
void rdma_nl_notify_register(struct ib_device *device);

#endif /* RDMA_CORE_NLDEV_PRIV_H */
