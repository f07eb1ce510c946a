/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel side of the NETLINK_RDMA channel.
 *
 * ib_core owns one NETLINK_RDMA kernel socket per network namespace.
 * Messages carry a client index and an operation in their type (see
 * RDMA_NL_GET_TYPE in the user ABI header); each client (the iWARP port
 * mapper in iw_cm, local services in ib_core's SA client, nldev) registers
 * a table of callbacks, one entry per operation, with rdma_nl_register().
 * Documentation/core/netlink.rst describes the channel and who may send
 * what.
 */
#ifndef _RDMA_NETLINK_H
#define _RDMA_NETLINK_H

#include <linux/netlink.h>
#include <uapi/rdma/rdma_netlink.h>

struct ib_device;
struct net_device;

enum {
	RDMA_NLDEV_ATTR_EMPTY_STRING = 1,
	RDMA_NLDEV_ATTR_ENTRY_STRLEN = 16,
	RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE = 32,
};

/**
 * struct rdma_nl_cbs - how one operation of a netlink client is handled
 * @doit: handles a request that is not a dump
 * @dump: fills one part of a dump; called until it adds nothing
 * @flags: RDMA_NL_* flags of enum rdma_nl_flags
 */
struct rdma_nl_cbs {
	int (*doit)(struct sk_buff *skb, struct nlmsghdr *nlh,
		    struct netlink_ext_ack *extack);
	int (*dump)(struct sk_buff *skb, struct netlink_callback *nlcb);
	u8 flags;
};

enum rdma_nl_flags {
	/* The sender needs CAP_NET_ADMIN in the socket's namespace. */
	RDMA_NL_ADMIN_PERM	= 1 << 0,
};

/*
 * Lets a request for client _index load the module that declares it;
 * _val must be the same number spelled as a literal.
 */
#define MODULE_ALIAS_RDMA_NETLINK(_index, _val)				\
	static inline void __maybe_unused __chk_##_index(void)		\
	{								\
		BUILD_BUG_ON((_index) != (_val));			\
	}								\
	MODULE_ALIAS("rdma-netlink-subsys-" __stringify(_val))

void rdma_nl_register(unsigned int index,
		      const struct rdma_nl_cbs cb_table[]);
void rdma_nl_unregister(unsigned int index);

void *ibnl_put_msg(struct sk_buff *skb, struct nlmsghdr **nlh, int seq,
		   int len, int client, int op, int flags);
int ibnl_put_attr(struct sk_buff *skb, struct nlmsghdr *nlh,
		  int len, void *data, int type);

int rdma_nl_unicast(struct net *net, struct sk_buff *skb, u32 pid);
int rdma_nl_unicast_wait(struct net *net, struct sk_buff *skb, __u32 pid);
int rdma_nl_multicast(struct net *net, struct sk_buff *skb,
		      unsigned int group, gfp_t flags);
bool rdma_nl_chk_listeners(unsigned int group);

int rdma_nl_notify_event(struct ib_device *ib, u32 port_num,
			 enum rdma_nl_notify_event_type type);

/**
 * struct rdma_link_ops - a link type that "rdma link add" can create
 * @list: entry in ib_core's list of link types; owned by ib_core
 * @type: the name user space gives after "type"
 * @newlink: creates device @ibdev_name on top of @ndev
 */
struct rdma_link_ops {
	struct list_head list;
	const char *type;
	int (*newlink)(const char *ibdev_name, struct net_device *ndev);
};

void rdma_link_register(struct rdma_link_ops *ops);
void rdma_link_unregister(struct rdma_link_ops *ops);

#define MODULE_ALIAS_RDMA_LINK(type) MODULE_ALIAS("rdma-link-" type)
#define MODULE_ALIAS_RDMA_CLIENT(type) MODULE_ALIAS("rdma-client-" type)

#endif /* _RDMA_NETLINK_H */
