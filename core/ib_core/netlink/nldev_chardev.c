// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nldev RDMA_NLDEV_CMD_GET_CHARDEV: which character device a client
 * (umad, issm; upstream also uverbs, rdma_cm...) offers for a device, a
 * port of it, or globally.
 *
 * The client named by RDMA_NLDEV_ATTR_CHARDEV_TYPE is asked through
 * ib_get_client_nl_info() (core/ib_core/client.c), which loads its module when
 * needed.  The reply carries the device number (huge_encode_dev()), the
 * ABI version and the name of the struct device the client handed out,
 * plus whatever attributes the client added itself.
 */
#include <linux/device.h>
#include <linux/kdev_t.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include "../core_priv.h"
#include "nldev_priv.h"

/*
 * The optional device and port of a request: *@device referenced (or
 * NULL), @info->port the port or U32_MAX for none.
 */
static int chardev_target(struct sk_buff *skb, struct nlattr **tb,
			  struct ib_device **device,
			  struct ib_client_nl_info *info,
			  struct netlink_ext_ack *extack)
{
	struct nlattr *port = tb[RDMA_NLDEV_ATTR_PORT_INDEX];

	*device = NULL;
	info->port = U32_MAX;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX]) {
		if (!port)
			return 0;
		NL_SET_ERR_MSG_ATTR(extack, port,
				    "A port needs its device index");
		return -EINVAL;
	}
	*device = nldev_get_device(skb, tb, extack);
	if (!*device)
		return -EINVAL;
	if (!port)
		return 0;
	info->port = nla_get_u32(port);
	if (!rdma_is_port_valid(*device, info->port)) {
		NL_SET_ERR_MSG_ATTR(extack, port, "No such port");
		ib_device_put(*device);
		*device = NULL;
		return -EINVAL;
	}
	return 0;
}

/* Explain a client's refusal. */
static void chardev_refused(struct nlattr **tb, int err,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *type = tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE];

	if (err == -EOPNOTSUPP) {
		NL_SET_ERR_MSG_ATTR(extack, type,
				    "No client provides this character device");
	} else if (err == -EINVAL && tb[RDMA_NLDEV_ATTR_DEV_INDEX] &&
		   !tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		/* Both umad and issm have one device per port. */
		NL_SET_ERR_MSG(extack, "This character device needs a port index");
		NL_SET_ERR_ATTR_MISS(extack, NULL, RDMA_NLDEV_ATTR_PORT_INDEX);
	} else {
		NL_SET_ERR_MSG_ATTR(extack, type,
				    "The client refused the request");
	}
}

/* The attributes every answer has; the client may have added others. */
static int chardev_fill(struct sk_buff *msg,
			const struct ib_client_nl_info *info)
{
	if (nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV,
			      huge_encode_dev(info->cdev->devt),
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_CHARDEV_ABI, info->abi,
			      RDMA_NLDEV_ATTR_PAD) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_NAME,
			   dev_name(info->cdev)))
		return -EMSGSIZE;
	return 0;
}

/*
 * Ask the client and build the reply in a new message; the requester
 * gets it or an error.
 */
static int chardev_answer(struct sk_buff *skb, struct nlmsghdr *nlh,
			  struct nlattr **tb, struct ib_device *device,
			  struct ib_client_nl_info *info,
			  struct netlink_ext_ack *extack)
{
	char name[RDMA_NLDEV_ATTR_CHARDEV_TYPE_SIZE];
	struct nlmsghdr *rnlh;
	struct sk_buff *msg;
	int ret;

	nla_strscpy(name, tb[RDMA_NLDEV_ATTR_CHARDEV_TYPE], sizeof(name));

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG(extack, "Out of memory for the reply");
		return -ENOMEM;
	}
	rnlh = nlmsg_put(msg, NETLINK_CB(skb).portid, nlh->nlmsg_seq,
			 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV,
					  RDMA_NLDEV_CMD_GET_CHARDEV), 0, 0);
	if (!rnlh) {
		ret = -EMSGSIZE;
		goto err_free;
	}

	info->nl_msg = msg;
	ret = ib_get_client_nl_info(device, name, info);
	if (ret) {
		chardev_refused(tb, ret, extack);
		goto err_free;
	}
	ret = chardev_fill(msg, info);
	/* The name is copied, the device number too: done with it. */
	put_device(info->cdev);
	if (ret) {
		NL_SET_ERR_MSG(extack, "Could not build the reply");
		goto err_free;
	}
	nlmsg_end(msg, rnlh);
	return rdma_nl_unicast(sock_net(skb->sk), msg, NETLINK_CB(skb).portid);

err_free:
	nlmsg_free(msg);
	return ret;
}

/**
 * nldev_get_chardev_doit - RDMA_NLDEV_CMD_GET_CHARDEV
 * @skb: the request
 * @nlh: its header
 * @extack: where a refusal is explained
 *
 * Context: Process context (the NETLINK_RDMA receive path); sleeps, may
 * wait for modprobe of "rdma-client-<type>".  Holds a reference to the
 * device of the request while the client is asked, and none of the
 * device or client registries' locks.
 *
 * Return: 0 when the reply was sent; -EINVAL for a missing type, an
 * unknown device, a port without a device or one the device does not
 * have, or a port the client needs and was not given; -EOPNOTSUPP when
 * no client of that type is there (or it has no character device for
 * this device or port); else the client's or the reply's error.
 */
int nldev_get_chardev_doit(struct sk_buff *skb, struct nlmsghdr *nlh,
			   struct netlink_ext_ack *extack)
{
	struct nlattr **tb = nldev_parse(nlh, extack);
	struct ib_client_nl_info info = {};
	struct ib_device *device;
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
	ret = chardev_target(skb, tb, &device, &info, extack);
	if (ret)
		goto out;
	ret = chardev_answer(skb, nlh, tb, device, &info, extack);
	if (device)
		ib_device_put(device);
out:
	kfree(tb);
	return ret;
}
