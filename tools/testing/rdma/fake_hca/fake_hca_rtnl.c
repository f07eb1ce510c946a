// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: a minimal rtnetlink client for KUnit suites
 * (<kunit/rdma_rtnl.h>).
 */

#include <kunit/rdma_rtnl.h>
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/file.h>
#include <linux/if_link.h>
#include <linux/if_vlan.h>
#include <linux/inet.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <net/addrconf.h>
#include <net/netlink.h>

#define KT_RTNL_BUF_LEN	256
#define KT_RTNL_RX_LEN	4096

/**
 * struct kt_rtnl - a test's NETLINK_ROUTE socket
 * @sock: the socket, owned by @file
 * @file: carries the opener's credentials, which rtnetlink checks
 * @rx: where answers land
 * @seq: sequence number of the last request
 */
struct kt_rtnl {
	struct socket	*sock;
	struct file	*file;
	u8		*rx;
	u32		seq;
};

/* One request being built */
struct kt_rtnl_req {
	u8		buf[KT_RTNL_BUF_LEN];
	struct nlmsghdr	*nlh;
};

static void kt_rtnl_close(void *arg)
{
	struct kt_rtnl *c = arg;

	/*
	 * Now, not from delayed work: a kernel socket holds no reference
	 * on its namespace, which may go right after the test.
	 */
	__fput_sync(c->file);
}

/**
 * kt_rtnl_open - an rtnetlink socket of a namespace for a test
 * @test: the test; the socket is closed when it ends
 * @net: the namespace; it must outlive the test's actions registered
 *	before this call
 *
 * Context: Process context, the test's thread; sleeps (GFP_KERNEL).
 *
 * Return: the client, or NULL on failure.
 */
struct kt_rtnl *kt_rtnl_open(struct kunit *test, struct net *net)
{
	struct kt_rtnl *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct file *file;

	if (!c)
		return NULL;
	c->rx = kunit_kzalloc(test, KT_RTNL_RX_LEN, GFP_KERNEL);
	if (!c->rx)
		return NULL;
	if (sock_create_kern(net, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE,
			     &c->sock))
		return NULL;
	file = sock_alloc_file(c->sock, 0, NULL);
	if (IS_ERR(file))
		return NULL;	/* sock_alloc_file() released the socket */
	c->file = file;
	if (kunit_add_action_or_reset(test, kt_rtnl_close, c))
		return NULL;
	return c;
}
EXPORT_SYMBOL_GPL(kt_rtnl_open);

static void req_init(struct kt_rtnl_req *r, u16 type, u16 flags,
		     const void *hdr, u32 hdr_len)
{
	memset(r->buf, 0, sizeof(r->buf));
	r->nlh = (struct nlmsghdr *)r->buf;
	r->nlh->nlmsg_type = type;
	r->nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->nlh->nlmsg_len = NLMSG_ALIGN(NLMSG_LENGTH(hdr_len));
	memcpy(NLMSG_DATA(r->nlh), hdr, hdr_len);
}

static struct nlattr *req_put(struct kt_rtnl_req *r, u16 type,
			      const void *data, u16 len)
{
	struct nlattr *nla = (struct nlattr *)(r->buf + r->nlh->nlmsg_len);

	if (WARN_ON(r->nlh->nlmsg_len + nla_total_size(len) > sizeof(r->buf)))
		return nla;
	nla->nla_type = type;
	nla->nla_len = nla_attr_size(len);
	if (len)
		memcpy(nla_data(nla), data, len);
	r->nlh->nlmsg_len += nla_total_size(len);
	return nla;
}

static void req_nest_end(struct kt_rtnl_req *r, struct nlattr *nest)
{
	nest->nla_len = r->buf + r->nlh->nlmsg_len - (u8 *)nest;
}

/* Send @r, return the error of its acknowledgment. */
static int req_do(struct kt_rtnl *c, struct kt_rtnl_req *r)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct kvec iov = { .iov_base = r->buf, .iov_len = r->nlh->nlmsg_len };
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
	};
	struct nlmsghdr *nlh = (struct nlmsghdr *)c->rx;
	int ret;

	r->nlh->nlmsg_seq = ++c->seq;
	ret = kernel_sendmsg(c->sock, &msg, &iov, 1, iov.iov_len);
	if (ret != (int)iov.iov_len)
		return ret < 0 ? ret : -EIO;

	/* rtnetlink has answered by the time sendmsg returns */
	memset(&msg, 0, sizeof(msg));
	iov.iov_base = c->rx;
	iov.iov_len = KT_RTNL_RX_LEN;
	ret = kernel_recvmsg(c->sock, &msg, &iov, 1, KT_RTNL_RX_LEN,
			     MSG_DONTWAIT);
	if (ret < (int)NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return ret < 0 ? ret : -EIO;
	if (nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_seq != c->seq)
		return -EPROTO;
	return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
}

/**
 * kt_rtnl_addr - add or delete an IP address
 * @c: the client
 * @type: RTM_NEWADDR or RTM_DELADDR
 * @ifindex: the net device's ifindex
 * @addr: the address, dotted IPv4 or IPv6 text
 * @prefixlen: the prefix length
 *
 * Context: Process context; sleeps (rtnetlink takes RTNL).
 *
 * Return: 0, -EINVAL for text that is no address, or rtnetlink's error.
 */
int kt_rtnl_addr(struct kt_rtnl *c, u16 type, int ifindex, const char *addr,
		 u8 prefixlen)
{
	struct ifaddrmsg ifa = {
		.ifa_prefixlen = prefixlen,
		.ifa_index = ifindex,
	};
	u16 flags = type == RTM_NEWADDR ? NLM_F_CREATE | NLM_F_EXCL : 0;
	struct kt_rtnl_req r;
	struct in6_addr a6;
	__be32 a4;

	if (in4_pton(addr, -1, (u8 *)&a4, -1, NULL) == 1) {
		ifa.ifa_family = AF_INET;
		req_init(&r, type, flags, &ifa, sizeof(ifa));
		req_put(&r, IFA_LOCAL, &a4, sizeof(a4));
		req_put(&r, IFA_ADDRESS, &a4, sizeof(a4));
	} else if (in6_pton(addr, -1, a6.s6_addr, -1, NULL) == 1) {
		ifa.ifa_family = AF_INET6;
		ifa.ifa_flags = IFA_F_NODAD;
		req_init(&r, type, flags, &ifa, sizeof(ifa));
		req_put(&r, IFA_ADDRESS, &a6, sizeof(a6));
	} else {
		return -EINVAL;
	}
	return req_do(c, &r);
}
EXPORT_SYMBOL_GPL(kt_rtnl_addr);

/**
 * kt_rtnl_neigh_ll - set a permanent neighbour of any link layer
 * @c: the client
 * @ifindex: the net device's ifindex
 * @addr: the neighbour's address, IPv4 or IPv6 text
 * @lladdr: its link-layer address (an IPoIB one is INFINIBAND_ALEN long)
 * @len: the length of @lladdr
 *
 * Context: Process context; sleeps (rtnetlink takes RTNL).
 *
 * Return: 0, -EINVAL for text that is no address or a @len over
 * MAX_ADDR_LEN, or rtnetlink's error.
 */
int kt_rtnl_neigh_ll(struct kt_rtnl *c, int ifindex, const char *addr,
		     const u8 *lladdr, unsigned int len)
{
	struct ndmsg nd = {
		.ndm_ifindex = ifindex,
		.ndm_state = NUD_PERMANENT,
	};
	struct kt_rtnl_req r;
	struct in6_addr a6;
	__be32 a4;

	if (len > MAX_ADDR_LEN)
		return -EINVAL;
	if (in4_pton(addr, -1, (u8 *)&a4, -1, NULL) == 1) {
		nd.ndm_family = AF_INET;
		req_init(&r, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE, &nd,
			 sizeof(nd));
		req_put(&r, NDA_DST, &a4, sizeof(a4));
	} else if (in6_pton(addr, -1, a6.s6_addr, -1, NULL) == 1) {
		nd.ndm_family = AF_INET6;
		req_init(&r, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE, &nd,
			 sizeof(nd));
		req_put(&r, NDA_DST, &a6, sizeof(a6));
	} else {
		return -EINVAL;
	}
	req_put(&r, NDA_LLADDR, lladdr, len);
	return req_do(c, &r);
}
EXPORT_SYMBOL_GPL(kt_rtnl_neigh_ll);

/**
 * kt_rtnl_neigh - set a permanent Ethernet neighbour
 * @c: the client
 * @ifindex: the net device's ifindex
 * @addr: the neighbour's address, IPv4 or IPv6 text
 * @mac: its MAC address
 *
 * Context: Process context; sleeps (rtnetlink takes RTNL).
 *
 * Return: 0, -EINVAL for text that is no address, or rtnetlink's error.
 */
int kt_rtnl_neigh(struct kt_rtnl *c, int ifindex, const char *addr,
		  const u8 *mac)
{
	return kt_rtnl_neigh_ll(c, ifindex, addr, mac, ETH_ALEN);
}
EXPORT_SYMBOL_GPL(kt_rtnl_neigh);

/**
 * kt_rtnl_add_vlan - create a VLAN device and bring it up
 * @c: the client
 * @lower: the device below
 * @name: the VLAN device's name
 * @id: the VLAN ID
 * @ifindex: set to the new device's ifindex once it exists (0 before)
 *
 * A VLAN that was created but could not be brought up is left for the
 * caller to delete (*@ifindex is set).
 *
 * Context: Process context; sleeps (takes RTNL).
 *
 * Return: 0, or rtnetlink's or dev_change_flags()' error.
 */
int kt_rtnl_add_vlan(struct kt_rtnl *c, struct net_device *lower,
		     const char *name, u16 id, int *ifindex)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlattr *info, *data;
	struct net_device *vlan;
	u32 link = lower->ifindex;
	struct kt_rtnl_req r;
	int ret;

	*ifindex = 0;
	req_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, &ifi, sizeof(ifi));
	req_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	req_put(&r, IFLA_LINK, &link, sizeof(link));
	info = req_put(&r, IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
	req_put(&r, IFLA_INFO_KIND, "vlan", sizeof("vlan"));
	data = req_put(&r, IFLA_INFO_DATA | NLA_F_NESTED, NULL, 0);
	req_put(&r, IFLA_VLAN_ID, &id, sizeof(id));
	req_nest_end(&r, data);
	req_nest_end(&r, info);
	ret = req_do(c, &r);
	if (ret)
		return ret;

	rtnl_lock();
	vlan = __dev_get_by_name(sock_net(c->sock->sk), name);
	if (vlan) {
		*ifindex = vlan->ifindex;
		ret = dev_change_flags(vlan, vlan->flags | IFF_UP, NULL);
	} else {
		ret = -ENODEV;
	}
	rtnl_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(kt_rtnl_add_vlan);

/**
 * kt_rtnl_del_link - delete a net device
 * @c: the client
 * @ifindex: the device's ifindex
 *
 * Context: Process context; sleeps (rtnetlink takes RTNL).
 *
 * Return: 0 or rtnetlink's error.
 */
int kt_rtnl_del_link(struct kt_rtnl *c, int ifindex)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
	};
	struct kt_rtnl_req r;

	req_init(&r, RTM_DELLINK, 0, &ifi, sizeof(ifi));
	return req_do(c, &r);
}
EXPORT_SYMBOL_GPL(kt_rtnl_del_link);
