// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev: the RDMA_NL_NLDEV client of the NETLINK_RDMA channel, which
 * iproute2's "rdma" tool, rdma_rename and libibverbs talk to.  This file
 * has the device, port and system commands:
 *
 *   GET        one device (doit) or every visible one (dump)
 *   SET        rename, move to another network namespace, adaptive CQ
 *              moderation
 *   NEWLINK    create a device of a link type (core/ib_core/netlink/link.c) on
 *              a netdev
 *   DELLINK    delete a device that allows it
 *   PORT_GET   one port (doit) or every port of a device (dump)
 *   SYS_GET    netns mode, privileged Q_Key mode, copy-on-fork
 *   SYS_SET    netns mode, privileged Q_Key mode
 *
 * Messages and attributes are Linux 6.12's (uapi/rdma/rdma_netlink.h).
 * Every request is parsed strictly against one policy; every rejection
 * says why in the extended ack.  Documentation/core/nldev.rst has the
 * details and where we differ from upstream.
 */
#include <linux/if.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "../core_priv.h"
#include "nldev_priv.h"

/*
 * Privileged Q_Key mode (RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE):
 * whether unprivileged users may use Q_Keys with the high bit set
 * (ib_uverbs' MODIFY_QP asks rdma_nl_get_privileged_qkey()).
 */
static bool privileged_qkey;

/**
 * rdma_nl_get_privileged_qkey - may the caller set a privileged Q_Key
 *
 * Context: process context (the caller's capabilities are asked).
 * Return: true when the mode lets everyone, or the caller has
 * CAP_NET_RAW.
 */
bool rdma_nl_get_privileged_qkey(void)
{
	return READ_ONCE(privileged_qkey) || capable(CAP_NET_RAW);
}
EXPORT_SYMBOL(rdma_nl_get_privileged_qkey);

/*
 * What RDMA_NLDEV_ATTR_STAT_HWCOUNTERS of a STAT_SET holds: the indexes
 * of the optional counters to turn on.
 */
static const struct nla_policy
stat_hwcounters_policy[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX + 1] = {
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX]	= { .type = NLA_U32 },
};

/*
 * The attributes nldev accepts, with the types of Linux 6.12.  Names are
 * one byte shorter than upstream allows: we refuse a name that would be
 * cut short instead of truncating it.  Attributes not listed here are
 * refused (strict validation).
 */
static const struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME]		= { .type = NLA_NUL_STRING,
						    .len = IB_DEVICE_NAME_MAX - 1 },
	[RDMA_NLDEV_ATTR_PORT_INDEX]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_CAP_FLAGS]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_FW_VERSION]		= { .type = NLA_NUL_STRING,
						    .len = RDMA_NLDEV_ATTR_EMPTY_STRING },
	[RDMA_NLDEV_ATTR_NODE_GUID]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID]	= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_SUBNET_PREFIX]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_LID]			= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_SM_LID]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_LMC]			= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_PORT_STATE]		= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]		= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_RES_SUMMARY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY]	= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_RES_QP]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_LQPN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_RQPN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_RQ_PSN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_SQ_PSN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_RES_TYPE]		= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_RES_STATE]		= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_RES_PID]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_KERN_NAME]		= { .type = NLA_NUL_STRING,
						    .len = RDMA_NLDEV_ATTR_EMPTY_STRING },
	[RDMA_NLDEV_ATTR_RES_CM_ID]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY]	= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_PS]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR]	= {
		.len = sizeof(struct __kernel_sockaddr_storage) },
	[RDMA_NLDEV_ATTR_RES_DST_ADDR]	= {
		.len = sizeof(struct __kernel_sockaddr_storage) },
	[RDMA_NLDEV_ATTR_RES_CQ]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_CQ_ENTRY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_CQE]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_USECNT]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_RES_POLL_CTX]		= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_RES_MR]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_MR_ENTRY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_RKEY]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_LKEY]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_IOVA]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_RES_MRLEN]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_RES_PD]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_PD_ENTRY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_NDEV_INDEX]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_NDEV_NAME]		= { .type = NLA_NUL_STRING,
						    .len = IFNAMSIZ - 1 },
	[RDMA_NLDEV_ATTR_DRIVER]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_DRIVER_ENTRY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_DRIVER_STRING]		= { .type = NLA_NUL_STRING,
						    .len = RDMA_NLDEV_ATTR_EMPTY_STRING },
	[RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_DRIVER_S32]		= { .type = NLA_S32 },
	[RDMA_NLDEV_ATTR_DRIVER_U32]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DRIVER_S64]		= { .type = NLA_S64 },
	[RDMA_NLDEV_ATTR_DRIVER_U64]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_RES_PDN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_CQN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_MRN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_CM_IDN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_RES_CTXN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_LINK_TYPE]		= { .type = NLA_NUL_STRING,
						    .len = IFNAMSIZ - 1 },
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL]		= { .type = NLA_NUL_STRING,
						    .len = RDMA_NLDEV_ATTR_EMPTY_STRING },
	[RDMA_NLDEV_NET_NS_FD]			= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE]		= { .type = NLA_NUL_STRING,
						    .len = RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE },
	[RDMA_NLDEV_ATTR_CHARDEV_NAME]		= { .type = NLA_NUL_STRING,
						    .len = RDMA_NLDEV_ATTR_EMPTY_STRING },
	[RDMA_NLDEV_ATTR_CHARDEV_ABI]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_CHARDEV]		= { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_MODE]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_RES]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_COUNTER]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY]	= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]	=
		NLA_POLICY_NESTED(stat_hwcounters_policy),
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY]	= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = { .type = NLA_NUL_STRING },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_DEV_DIM]		= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_RES_RAW]		= { .type = NLA_BINARY },
	[RDMA_NLDEV_ATTR_RES_CTX]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_CTX_ENTRY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_SRQ]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_SRQ_ENTRY]		= { .type = NLA_NESTED },
	[RDMA_NLDEV_ATTR_RES_SRQN]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_MIN_RANGE]		= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_MAX_RANGE]		= { .type = NLA_U32 },
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX]	= { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = { .type = NLA_U8 },
	[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_DRIVER_DETAILS]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_RES_SUBTYPE]		= { .type = NLA_NUL_STRING,
						    .len = RDMA_NLDEV_ATTR_EMPTY_STRING },
	[RDMA_NLDEV_ATTR_DEV_TYPE]		= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_PARENT_NAME]		= { .type = NLA_NUL_STRING },
	[RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE]	= { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_EVENT_TYPE]		= { .type = NLA_U8 },
	[RDMA_NLDEV_SYS_ATTR_MONITOR_MODE]	= { .type = NLA_U8 },
};

/*
 * Parse a request strictly; the policy's complaint goes to @extack.  The
 * attribute table is too big for the stack of a handler: the caller
 * kfree()s it.
 */
struct nlattr **nldev_parse(const struct nlmsghdr *nlh,
			    struct netlink_ext_ack *extack)
{
	struct nlattr **tb;
	int ret;

	tb = kcalloc(RDMA_NLDEV_ATTR_MAX, sizeof(*tb), GFP_KERNEL);
	if (!tb) {
		NL_SET_ERR_MSG(extack, "Out of memory");
		return ERR_PTR(-ENOMEM);
	}
	ret = nlmsg_parse(nlh, 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy,
			  extack);
	if (ret) {
		kfree(tb);
		return ERR_PTR(ret);
	}
	return tb;
}

typedef int (*nldev_doit_fn)(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct nlattr **tb,
			     struct netlink_ext_ack *extack);

/* Parse, then run @fn on the attributes. */
static int nldev_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
		      struct netlink_ext_ack *extack, nldev_doit_fn fn)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	int ret;

	if (IS_ERR(tb))
		return PTR_ERR(tb);
	ret = fn(skb, nlh, tb, extack);
	kfree(tb);
	return ret;
}

/* The doit callback @name, which parses and calls @name##_tb. */
#define NLDEV_DOIT(name)						\
static int name(struct sk_buff *skb, struct nlmsghdr *nlh,		\
		struct netlink_ext_ack *extack)				\
{									\
	return nldev_doit(skb, nlh, extack, name##_tb);			\
}

/*
 * The device named by the request's RDMA_NLDEV_ATTR_DEV_INDEX, visible
 * in the requester's namespace, with a registration reference; or NULL
 * with the reason in @extack.
 */
struct ib_device *nldev_get_device(struct sk_buff *skb, struct nlattr **tb,
				   struct netlink_ext_ack *extack)
{
	struct ib_device *device;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		NL_SET_ERR_MSG(extack, "Device index is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_DEV_INDEX);
		return NULL;
	}
	device = ib_device_get_by_index(sock_net(skb->sk),
					nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]));
	if (!device)
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_DEV_INDEX],
				    "No such device");
	return device;
}

int fill_nldev_handle(struct sk_buff *msg, struct ib_device *device)
{
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, device->index) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_NAME,
			   dev_name(&device->dev)))
		return -EMSGSIZE;
	return 0;
}

/* The protocol of the first port names the device's protocol. */
static const char *nldev_dev_protocol(struct ib_device *device)
{
	u32 port = rdma_start_port(device);

	if (rdma_cap_opa_mad(device, port))
		return "opa";
	if (rdma_protocol_ib(device, port))
		return "ib";
	if (rdma_protocol_iwarp(device, port))
		return "iw";
	if (rdma_protocol_roce(device, port))
		return "roce";
	if (rdma_protocol_usnic(device, port))
		return "usnic";
	return NULL;
}

/* Attributes of a device, in the order of Linux 6.12. */
static int fill_dev_info(struct sk_buff *msg, struct ib_device *device)
{
	char fw[IB_FW_VERSION_NAME_MAX] = {};
	const char *protocol;

	if (fill_nldev_handle(msg, device))
		return -EMSGSIZE;
	if (nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX,
			rdma_end_port(device)))
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS,
			      device->attrs.device_cap_flags,
			      RDMA_NLDEV_ATTR_PAD))
		return -EMSGSIZE;

	ib_get_device_fw_str(device, fw);
	/* A device without firmware has no version to report. */
	if (fw[0] && nla_put_string(msg, RDMA_NLDEV_ATTR_FW_VERSION, fw))
		return -EMSGSIZE;

	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_NODE_GUID,
			      be64_to_cpu(device->node_guid),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID,
			      be64_to_cpu(device->attrs.sys_image_guid),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, device->node_type) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, device->use_cq_dim))
		return -EMSGSIZE;

	if (device->type &&
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_TYPE, device->type))
		return -EMSGSIZE;
	if (device->parent &&
	    nla_put_string(msg, RDMA_NLDEV_ATTR_PARENT_NAME,
			   dev_name(&device->parent->dev)))
		return -EMSGSIZE;
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_NAME_ASSIGN_TYPE,
		       device->name_assign_type))
		return -EMSGSIZE;

	protocol = nldev_dev_protocol(device);
	if (protocol &&
	    nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_PROTOCOL, protocol))
		return -EMSGSIZE;
	return 0;
}

/*
 * Attributes of a port.  The net device is only named to a requester in
 * the net device's own namespace.
 */
static noinline_for_stack int
fill_port_info(struct sk_buff *msg, struct ib_device *device,
	       u32 port, const struct net *net)
{
	struct net_device *netdev;
	struct ib_port_attr attr;
	int ret;

	if (fill_nldev_handle(msg, device) ||
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, port))
		return -EMSGSIZE;

	ret = ib_query_port(device, port, &attr);
	if (ret)
		return ret;

	if (rdma_protocol_ib(device, port)) {
		u64 cap_flags = attr.port_cap_flags |
				((u64)attr.port_cap_flags2 << 32);

		if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CAP_FLAGS,
				      cap_flags, RDMA_NLDEV_ATTR_PAD) ||
		    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_SUBNET_PREFIX,
				      attr.subnet_prefix,
				      RDMA_NLDEV_ATTR_PAD) ||
		    nla_put_u32(msg, RDMA_NLDEV_ATTR_LID, attr.lid) ||
		    nla_put_u32(msg, RDMA_NLDEV_ATTR_SM_LID, attr.sm_lid) ||
		    nla_put_u8(msg, RDMA_NLDEV_ATTR_LMC, attr.lmc))
			return -EMSGSIZE;
	}
	if (nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_STATE, attr.state) ||
	    nla_put_u8(msg, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, attr.phys_state))
		return -EMSGSIZE;

	netdev = ib_device_get_netdev(device, port);
	if (!netdev)
		return 0;
	ret = 0;
	if (net_eq(dev_net(netdev), net) &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_NDEV_INDEX, netdev->ifindex) ||
	     nla_put_string(msg, RDMA_NLDEV_ATTR_NDEV_NAME, netdev->name)))
		ret = -EMSGSIZE;
	dev_put(netdev);
	return ret;
}

/*
 * Build a one-message reply of type @cmd to @nlh, fill it with @fill and
 * send it to the requester.  Consumes nothing of the caller's.
 */
int nldev_reply(struct sk_buff *skb, const struct nlmsghdr *nlh,
		u32 cmd, struct netlink_ext_ack *extack,
		int (*fill)(struct sk_buff *msg, void *data), void *data)
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
			 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), 0, 0);
	if (!rnlh) {
		ret = -EMSGSIZE;
		goto err_free;
	}
	ret = fill(msg, data);
	if (ret)
		goto err_free;
	nlmsg_end(msg, rnlh);
	return rdma_nl_unicast(sock_net(skb->sk), msg, NETLINK_CB(skb).portid);

err_free:
	nlmsg_free(msg);
	NL_SET_ERR_MSG(extack, "Could not build the reply");
	return ret;
}

static int fill_dev_reply(struct sk_buff *msg, void *data)
{
	return fill_dev_info(msg, data);
}

static int nldev_get_doit_tb(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct ib_device *device;
	int ret;

	device = nldev_get_device(skb, tb, extack);
	if (!device)
		return -EINVAL;
	ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_GET, extack,
			  fill_dev_reply, device);
	ib_device_put(device);
	return ret;
}

NLDEV_DOIT(nldev_get_doit)

/* One device of a GET dump; cb->args[0] counts devices already sent. */
static int nldev_get_dump_one(struct ib_device *device, struct sk_buff *skb,
			      struct netlink_callback *cb, unsigned int idx)
{
	struct nlmsghdr *nlh;

	if (idx < cb->args[0])
		return 0;

	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
			0, NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	if (fill_dev_info(skb, device)) {
		nlmsg_cancel(skb, nlh);
		return -EMSGSIZE;
	}
	nlmsg_end(skb, nlh);
	cb->args[0] = idx + 1;
	return 0;
}

static int nldev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	int ret = ib_enum_all_devs(nldev_get_dump_one, skb, cb);

	/*
	 * A full buffer ends this part of the dump; the next read resumes
	 * at cb->args[0].  A device too big for an empty buffer is an error
	 * rather than an endless dump.
	 */
	if (ret == -EMSGSIZE && skb->len)
		return skb->len;
	return ret ?: skb->len;
}

struct nldev_port_reply {
	struct ib_device *device;
	u32 port;
	const struct net *net;
};

static int fill_port_reply(struct sk_buff *msg, void *data)
{
	struct nldev_port_reply *r = data;

	return fill_port_info(msg, r->device, r->port, r->net);
}

static int nldev_port_get_doit_tb(struct sk_buff *skb, struct nlmsghdr *nlh,
				  struct nlattr **tb,
				  struct netlink_ext_ack *extack)
{
	struct nldev_port_reply r;
	int ret;

	r.device = nldev_get_device(skb, tb, extack);
	if (!r.device)
		return -EINVAL;
	if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		NL_SET_ERR_MSG(extack, "Port index is missing");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_PORT_INDEX);
		ret = -EINVAL;
		goto out;
	}
	r.port = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (!rdma_is_port_valid(r.device, r.port)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_PORT_INDEX],
				    "No such port");
		ret = -EINVAL;
		goto out;
	}
	r.net = sock_net(skb->sk);
	/* Linux answers a port request with the GET command. */
	ret = nldev_reply(skb, nlh, RDMA_NLDEV_CMD_GET, extack,
			  fill_port_reply, &r);
out:
	ib_device_put(r.device);
	return ret;
}

NLDEV_DOIT(nldev_port_get_doit)

/* Every port of one device; cb->args[0] counts ports already sent. */
static int nldev_port_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct ib_device *device;
	unsigned int idx = 0;
	struct nlmsghdr *nlh;
	struct nlattr **tb;
	int ret;
	u32 p;

	tb = nldev_parse(cb->nlh, cb->extack);
	if (IS_ERR(tb))
		return PTR_ERR(tb);
	device = nldev_get_device(cb->skb, tb, cb->extack);
	kfree(tb);
	if (!device)
		return -EINVAL;

	rdma_for_each_port(device, p) {
		if (idx++ < cb->args[0])
			continue;
		nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq,
				RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
						 RDMA_NLDEV_CMD_PORT_GET),
				0, NLM_F_MULTI);
		if (!nlh)
			break;
		ret = fill_port_info(skb, device, p, sock_net(skb->sk));
		if (ret) {
			nlmsg_cancel(skb, nlh);
			/* Only a full buffer is worth another read. */
			if (ret != -EMSGSIZE || !skb->len)
				goto out;
			break;
		}
		nlmsg_end(skb, nlh);
		cb->args[0] = idx;
	}
	ret = skb->len;
out:
	ib_device_put(device);
	return ret;
}

static int nldev_set_name(struct ib_device *device, struct nlattr *attr,
			  struct netlink_ext_ack *extack)
{
	const char *name = nla_data(attr);
	int ret;

	if (ib_device_name_check(name, false)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "Invalid device name");
		return -EINVAL;
	}
	ret = ib_device_rename(device, name);
	if (ret == -EEXIST)
		NL_SET_ERR_MSG_ATTR(extack, attr, "Device name is taken");
	else if (ret)
		NL_SET_ERR_MSG_ATTR(extack, attr, "Rename failed");
	return ret;
}

static int nldev_set_doit_tb(struct sk_buff *skb, struct nlmsghdr *nlh,
			     struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct ib_device *device;
	int ret;

	device = nldev_get_device(skb, tb, extack);
	if (!device)
		return -EINVAL;

	/* One change per request, in upstream's order of precedence. */
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME]) {
		ret = nldev_set_name(device, tb[RDMA_NLDEV_ATTR_DEV_NAME],
				     extack);
	} else if (tb[RDMA_NLDEV_NET_NS_FD]) {
		/* Drops the device reference in every case. */
		ret = ib_device_set_netns_put(skb, device,
					      nla_get_u32(tb[RDMA_NLDEV_NET_NS_FD]));
		if (ret == -EOPNOTSUPP)
			NL_SET_ERR_MSG(extack,
				       "Moving devices needs exclusive netns mode and a driver that can disassociate");
		else if (ret == -EPERM)
			NL_SET_ERR_MSG(extack,
				       "Needs CAP_NET_ADMIN in the target namespace");
		else if (ret)
			NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_NET_NS_FD],
					    "Could not move the device to this namespace");
		return ret;
	} else if (tb[RDMA_NLDEV_ATTR_DEV_DIM]) {
		ret = ib_device_set_dim(device,
					nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_DIM]));
		if (ret)
			NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_DEV_DIM],
					    "Adaptive moderation is 0 or 1");
	} else {
		NL_SET_ERR_MSG(extack, "Nothing to set");
		ret = -EINVAL;
	}
	ib_device_put(device);
	return ret;
}

NLDEV_DOIT(nldev_set_doit)

static int nldev_newlink_tb(struct sk_buff *skb, struct nlmsghdr *nlh,
			    struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct net_device *ndev;
	const char *ibdev_name;
	int ret;

	if (!tb[RDMA_NLDEV_ATTR_DEV_NAME] || !tb[RDMA_NLDEV_ATTR_LINK_TYPE] ||
	    !tb[RDMA_NLDEV_ATTR_NDEV_NAME]) {
		NL_SET_ERR_MSG(extack,
			       "Device name, link type and net device are all needed");
		return -EINVAL;
	}
	ibdev_name = nla_data(tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	if (ib_device_name_check(ibdev_name, false)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_DEV_NAME],
				    "Invalid device name");
		return -EINVAL;
	}

	ndev = dev_get_by_name(sock_net(skb->sk),
			       nla_data(tb[RDMA_NLDEV_ATTR_NDEV_NAME]));
	if (!ndev) {
		NL_SET_ERR_MSG_ATTR(extack, tb[RDMA_NLDEV_ATTR_NDEV_NAME],
				    "No such net device");
		return -ENODEV;
	}
	ret = rdma_link_newlink(nla_data(tb[RDMA_NLDEV_ATTR_LINK_TYPE]),
				ibdev_name, ndev, extack);
	dev_put(ndev);
	return ret;
}

NLDEV_DOIT(nldev_newlink)

static int nldev_dellink_tb(struct sk_buff *skb, struct nlmsghdr *nlh,
			    struct nlattr **tb, struct netlink_ext_ack *extack)
{
	struct ib_device *device;

	device = nldev_get_device(skb, tb, extack);
	if (!device)
		return -EINVAL;
	if (!(device->attrs.kernel_cap_flags & IBK_ALLOW_USER_UNREG)) {
		NL_SET_ERR_MSG(extack,
			       "This device cannot be deleted from user space");
		ib_device_put(device);
		return -EINVAL;
	}
	ib_unregister_device_and_put(device);
	return 0;
}

NLDEV_DOIT(nldev_dellink)

static int fill_sys_info(struct sk_buff *msg, void *data)
{
	if (nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_NETNS_MODE,
		       READ_ONCE(ib_devices_shared_netns)) ||
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE,
		       READ_ONCE(privileged_qkey)) ||
	    /* RDMA_NL_GROUP_NOTIFY has events (nldev_monitor.c). */
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_MONITOR_MODE, 1) ||
	    /* The memory manager copies pinned pages at fork (5.13+). */
	    nla_put_u8(msg, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1))
		return -EMSGSIZE;
	return 0;
}

static int nldev_sys_get_doit_tb(struct sk_buff *skb, struct nlmsghdr *nlh,
				 struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	return nldev_reply(skb, nlh, RDMA_NLDEV_CMD_SYS_GET, extack,
			   fill_sys_info, NULL);
}

NLDEV_DOIT(nldev_sys_get_doit)

static int nldev_sys_set_doit_tb(struct sk_buff *skb, struct nlmsghdr *nlh,
				 struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *attr;
	int ret;
	u8 val;

	attr = tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE];
	if (attr) {
		val = nla_get_u8(attr);
		if (val > 1) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Netns mode is 0 (exclusive) or 1 (shared)");
			return -EINVAL;
		}
		ret = rdma_compatdev_set(val);
		if (ret)
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Netns mode can only change while no other network namespace exists");
		return ret;
	}

	attr = tb[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE];
	if (attr) {
		val = nla_get_u8(attr);
		if (val > 1) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Privileged Q_Key mode is 0 or 1");
			return -EINVAL;
		}
		WRITE_ONCE(privileged_qkey, val);
		return 0;
	}

	NL_SET_ERR_MSG(extack, "Nothing to set");
	return -EINVAL;
}

NLDEV_DOIT(nldev_sys_set_doit)

/*
 * Admin-only commands whose handlers are not written yet: they keep
 * upstream's permission answer (-EPERM without CAP_NET_ADMIN) and say
 * that they are missing to everyone else.
 */
static int nldev_not_implemented(struct sk_buff *skb, struct nlmsghdr *nlh,
				 struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack, "This nldev command is not implemented yet");
	return -EOPNOTSUPP;
}

#define NLDEV_ADMIN_TODO { .doit = nldev_not_implemented, \
			   .flags = RDMA_NL_ADMIN_PERM }

/* The resource commands of nldev_res.c, which tells them apart. */
#define NLDEV_RES_OBJ(_flags) { .doit = nldev_res_obj_doit, \
				.dump = nldev_res_obj_dumpit, \
				.flags = (_flags) }

static const struct rdma_nl_cbs nldev_cb_table[RDMA_NLDEV_NUM_OPS] = {
	[RDMA_NLDEV_CMD_GET] = {
		.doit = nldev_get_doit,
		.dump = nldev_get_dumpit,
	},
	[RDMA_NLDEV_CMD_SET] = {
		.doit = nldev_set_doit,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NLDEV_CMD_NEWLINK] = {
		.doit = nldev_newlink,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NLDEV_CMD_DELLINK] = {
		.doit = nldev_dellink,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NLDEV_CMD_PORT_GET] = {
		.doit = nldev_port_get_doit,
		.dump = nldev_port_get_dumpit,
	},
	[RDMA_NLDEV_CMD_SYS_GET] = {
		.doit = nldev_sys_get_doit,
	},
	[RDMA_NLDEV_CMD_SYS_SET] = {
		.doit = nldev_sys_set_doit,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NLDEV_CMD_STAT_SET] = {
		.doit = nldev_stat_set_doit,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NLDEV_CMD_STAT_DEL] = {
		.doit = nldev_stat_del_doit,
		.flags = RDMA_NL_ADMIN_PERM,
	},
	[RDMA_NLDEV_CMD_GET_CHARDEV] = {
		.doit = nldev_get_chardev_doit,
	},
	[RDMA_NLDEV_CMD_STAT_GET] = {
		.doit = nldev_stat_get_doit,
		.dump = nldev_stat_get_dumpit,
	},
	[RDMA_NLDEV_CMD_RES_GET] = {
		.doit = nldev_res_get_doit,
		.dump = nldev_res_get_dumpit,
	},
	[RDMA_NLDEV_CMD_RES_QP_GET] = NLDEV_RES_OBJ(0),
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = NLDEV_RES_OBJ(0),
	[RDMA_NLDEV_CMD_RES_CQ_GET] = NLDEV_RES_OBJ(0),
	[RDMA_NLDEV_CMD_RES_MR_GET] = NLDEV_RES_OBJ(0),
	[RDMA_NLDEV_CMD_RES_PD_GET] = NLDEV_RES_OBJ(0),
	[RDMA_NLDEV_CMD_RES_CTX_GET] = NLDEV_RES_OBJ(0),
	[RDMA_NLDEV_CMD_RES_SRQ_GET] = NLDEV_RES_OBJ(0),
	[RDMA_NLDEV_CMD_RES_QP_GET_RAW] = NLDEV_RES_OBJ(RDMA_NL_ADMIN_PERM),
	[RDMA_NLDEV_CMD_RES_CQ_GET_RAW] = NLDEV_RES_OBJ(RDMA_NL_ADMIN_PERM),
	[RDMA_NLDEV_CMD_RES_MR_GET_RAW] = NLDEV_RES_OBJ(RDMA_NL_ADMIN_PERM),
	[RDMA_NLDEV_CMD_RES_SRQ_GET_RAW] = NLDEV_RES_OBJ(RDMA_NL_ADMIN_PERM),
	[RDMA_NLDEV_CMD_STAT_GET_STATUS] = {
		.doit = nldev_stat_get_status_doit,
	},
	[RDMA_NLDEV_CMD_NEWDEV] = NLDEV_ADMIN_TODO,
	[RDMA_NLDEV_CMD_DELDEV] = NLDEV_ADMIN_TODO,
};

/* Start answering RDMA_NL_NLDEV; after the netlink core is set up. */
void nldev_init(void)
{
	rdma_nl_register(RDMA_NL_NLDEV, nldev_cb_table);
}

/* Stop answering; waits for requests that are being handled. */
void nldev_exit(void)
{
	rdma_nl_unregister(RDMA_NL_NLDEV);
}
