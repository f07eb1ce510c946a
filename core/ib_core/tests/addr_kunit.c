// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_addr": IP address translation (core/ib_core/addr.c) and the
 * destination MAC of RoCE address vectors (ib_resolve_eth_dmac() in
 * core/ib_core/verbs/ah.c).
 *
 * The suite's init makes two net devices in init_net and a fake HCA (their
 * registration is what costs; the cases share them):
 *
 *   A  "fkhcat%d", MAC 02:ad:d0:00:00:0a, up, ARP on
 *   B  the same with MAC 02:ad:d0:00:00:0b
 *   a fake HCA "kuaddr%d" whose RoCE v2 port 1 is bound to A
 *
 * Every case that needs the network (new_ctx()) first checks that the bed
 * is bare (A and B up with ARP, without addresses or neighbours, so
 * without the GIDs of A's addresses), then builds its network with
 * rtnetlink, the way "ip" would, through a kernel NETLINK_ROUTE socket
 * (the GIDs of A's addresses follow, roce_gid_mgmt.c):
 *
 *   A  192.0.2.1/24 and 2001:db8:1::1/64 (no DAD)
 *      permanent neighbours 192.0.2.2 and 2001:db8:1::2 -> PEER_MAC
 *   B  198.51.100.1/24 and 2001:db8:2::1/64, neighbours .2 and ::2 ->
 *      PEER_B_MAC
 *
 * Its end (bed_reset()) takes that away again: the addresses, and every
 * neighbour of A and B the case made or caused (ARP and ND entries of
 * resolutions that were never answered).  The
 * test VM has no other interface than lo, so addresses outside these
 * subnets have no route at all.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_rtnl.h>
#include <linux/completion.h>
#include <linux/etherdevice.h>
#include <linux/if_link.h>
#include <linux/file.h>
#include <linux/inet.h>
#include <linux/inetdevice.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/netlink.h>
#include <rdma/ib.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define ROCE_PORT	1
#define DEFAULT_TTL	64

static const u8 mac_a[ETH_ALEN] = { 0x02, 0xad, 0xd0, 0x00, 0x00, 0x0a };
static const u8 mac_b[ETH_ALEN] = { 0x02, 0xad, 0xd0, 0x00, 0x00, 0x0b };
static const u8 peer_mac[ETH_ALEN] = { 0x02, 0x5e, 0xe0, 0x00, 0x00, 0x02 };
static const u8 peer_b_mac[ETH_ALEN] = { 0x02, 0x5e, 0xe0, 0x00, 0x00, 0xb2 };

/* ------------------------------------------------------------------
 * rtnetlink through <kunit/rdma_rtnl.h>, asserting in the case's name
 */

struct rtc {
	struct kunit *test;
	struct kt_rtnl *k;
};

static struct rtc *rtc_open(struct kunit *test)
{
	struct rtc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	c->k = kt_rtnl_open(test, &init_net);
	KUNIT_ASSERT_NOT_NULL(test, c->k);
	return c;
}

/* "ip address add|del ADDR/PREFIXLEN dev DEV" (@type RTM_NEWADDR|DELADDR) */
static int rt_addr4(struct rtc *c, u16 type, struct net_device *ndev,
		    const char *addr, u8 prefixlen)
{
	return kt_rtnl_addr(c->k, type, ndev->ifindex, addr, prefixlen);
}

static void rt_add_addr4(struct rtc *c, struct net_device *ndev,
			 const char *addr, u8 prefixlen)
{
	KUNIT_ASSERT_EQ_MSG(c->test, rt_addr4(c, RTM_NEWADDR, ndev, addr,
					      prefixlen), 0,
			    "address %s", addr);
}

static struct in6_addr in6(const char *s)
{
	struct in6_addr a = {};

	WARN_ON(in6_pton(s, -1, a.s6_addr, -1, NULL) != 1);
	return a;
}

/* The same for IPv6, without duplicate address detection */
static int rt_addr6(struct rtc *c, u16 type, struct net_device *ndev,
		    const char *addr, u8 prefixlen)
{
	return kt_rtnl_addr(c->k, type, ndev->ifindex, addr, prefixlen);
}

static void rt_add_addr6(struct rtc *c, struct net_device *ndev,
			 const char *addr, u8 prefixlen)
{
	KUNIT_ASSERT_EQ_MSG(c->test, rt_addr6(c, RTM_NEWADDR, ndev, addr,
					      prefixlen), 0,
			    "address %s", addr);
}

/* A permanent neighbour, as "ip neigh replace ADDR lladdr MAC dev DEV". */
static int rt_set_neigh(struct rtc *c, struct net_device *ndev, int family,
			const void *addr, const u8 *mac)
{
	char ip[INET6_ADDRSTRLEN];

	if (family == AF_INET)
		snprintf(ip, sizeof(ip), "%pI4", addr);
	else
		snprintf(ip, sizeof(ip), "%pI6c", addr);
	return kt_rtnl_neigh(c->k, ndev->ifindex, ip, mac);
}

static void rt_neigh4(struct rtc *c, struct net_device *ndev,
		      const char *addr, const u8 *mac)
{
	__be32 a = in_aton(addr);

	KUNIT_ASSERT_EQ_MSG(c->test, rt_set_neigh(c, ndev, AF_INET, &a, mac),
			    0, "neighbour %s", addr);
}

static void rt_neigh6(struct rtc *c, struct net_device *ndev,
		      const char *addr, const u8 *mac)
{
	struct in6_addr a = in6(addr);

	KUNIT_ASSERT_EQ_MSG(c->test, rt_set_neigh(c, ndev, AF_INET6, &a, mac),
			    0, "neighbour %s", addr);
}

struct vlan_del {
	struct rtc *c;
	int ifindex;
};

/* KUnit action: "ip link del" of a VLAN of the case (A and B stay) */
static void vlan_del_action(void *arg)
{
	struct vlan_del *d = arg;

	KUNIT_EXPECT_EQ_MSG(d->c->test, kt_rtnl_del_link(d->c->k, d->ifindex),
			    0, "cleanup: VLAN %d not deleted", d->ifindex);
}

/*
 * "ip link add link LOWER name NAME type vlan id ID", then up; deleted at
 * the case's end.  The device is the case's while it runs (no reference).
 */
static struct net_device *rt_add_vlan(struct rtc *c, struct net_device *lower,
				      const char *name, u16 id)
{
	struct vlan_del *d = kunit_kzalloc(c->test, sizeof(*d), GFP_KERNEL);
	struct net_device *vlan;
	int ret;

	KUNIT_ASSERT_NOT_NULL(c->test, d);
	ret = kt_rtnl_add_vlan(c->k, lower, name, id, &d->ifindex);
	if (d->ifindex) {
		d->c = c;
		KUNIT_ASSERT_EQ(c->test, kunit_add_action_or_reset(c->test,
								   vlan_del_action,
								   d), 0);
	}
	KUNIT_ASSERT_EQ_MSG(c->test, ret, 0, "vlan %s", name);
	vlan = dev_get_by_index(&init_net, d->ifindex);
	KUNIT_ASSERT_NOT_NULL(c->test, vlan);
	dev_put(vlan);
	return vlan;
}

/* ------------------------------------------------------------------
 * The suite's bed and the network of a case
 */

/* Made by rdma_addr_suite_init(), shared by the cases */
static struct {
	struct net_device *a;
	struct net_device *b;
	struct fake_hca *hca;
} bed;

struct addr_ctx {
	struct rtc *rtc;
	struct net_device *a;
	struct net_device *b;
	struct fake_hca *hca;
	struct ib_device *dev;
	const struct ib_gid_attr *sgid4;
	const struct ib_gid_attr *sgid6;
	const struct ib_gid_attr *sgid_ll;
};

static union ib_gid gid_of(const char *ip)
{
	union ib_gid gid;

	if (strchr(ip, ':')) {
		struct in6_addr a = in6(ip);

		memcpy(gid.raw, &a, sizeof(gid.raw));
	} else {
		ipv6_addr_set_v4mapped(in_aton(ip), (struct in6_addr *)gid.raw);
	}
	return gid;
}

static void put_gid_attr_action(void *attr)
{
	rdma_put_gid_attr(attr);
}

/* The bed's GID of @ip on A, referenced until the case ends */
static const struct ib_gid_attr *find_gid(struct kunit *test,
					  struct addr_ctx *ctx, const char *ip)
{
	union ib_gid gid = gid_of(ip);
	const struct ib_gid_attr *found;

	found = rdma_find_gid_by_port(ctx->dev, &gid,
				      IB_GID_TYPE_ROCE_UDP_ENCAP, ROCE_PORT,
				      ctx->a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, found);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							put_gid_attr_action,
							(void *)found), 0);
	return found;
}

/* The neighbour of @ip on @ndev, referenced, or NULL. */
static struct neighbour *neigh_of(struct net_device *ndev, int family,
				  const char *ip)
{
	if (family == AF_INET) {
		__be32 a = in_aton(ip);

		return neigh_lookup(&arp_tbl, &a, ndev);
	}
	{
		struct in6_addr a = in6(ip);

		return neigh_lookup(&nd_tbl, &a, ndev);
	}
}

static bool has_neigh(struct net_device *ndev, int family, const char *ip)
{
	struct neighbour *n = neigh_of(ndev, family, ip);

	if (n)
		neigh_release(n);
	return n;
}

/*
 * The bed as every case finds it: A and B up with ARP, without IPv4
 * addresses, the case's IPv6 addresses or neighbours, and the HCA's table
 * without the GIDs of those addresses.
 */
static void bed_expect_bare(struct kunit *test)
{
	static const char * const v4[] = { "192.0.2.2", "198.51.100.2" };
	static const char * const v6[] = { "2001:db8:1::2", "2001:db8:2::2" };
	static const char * const own[] = { "192.0.2.1", "2001:db8:1::1" };
	struct net_device *nds[] = { bed.a, bed.b };
	const struct ib_gid_attr *attr;
	union ib_gid gid;
	struct in6_addr a6;
	bool v4_addr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, bed.hca);
	for (i = 0; i < ARRAY_SIZE(nds); i++) {
		KUNIT_ASSERT_NOT_NULL(test, nds[i]);
		KUNIT_ASSERT_EQ_MSG(test, nds[i]->flags & (IFF_UP | IFF_NOARP),
				    IFF_UP, "%s not up with ARP", nds[i]->name);
		rcu_read_lock();
		v4_addr = __in_dev_get_rcu(nds[i]) &&
			  rcu_access_pointer(__in_dev_get_rcu(nds[i])->ifa_list);
		rcu_read_unlock();
		KUNIT_ASSERT_FALSE_MSG(test, v4_addr, "%s has an IPv4 address",
				       nds[i]->name);
		KUNIT_ASSERT_FALSE_MSG(test, has_neigh(nds[i], AF_INET, v4[i]),
				       "neighbour %s left", v4[i]);
		KUNIT_ASSERT_FALSE_MSG(test, has_neigh(nds[i], AF_INET6, v6[i]),
				       "neighbour %s left", v6[i]);
	}
	a6 = in6("2001:db8:1::1");
	KUNIT_ASSERT_FALSE(test, ipv6_chk_addr(&init_net, &a6, NULL, 0));
	a6 = in6("2001:db8:2::1");
	KUNIT_ASSERT_FALSE(test, ipv6_chk_addr(&init_net, &a6, NULL, 0));
	/* the addresses of the last case went, and their GIDs with them */
	roce_gid_mgmt_flush();
	for (i = 0; i < ARRAY_SIZE(own); i++) {
		gid = gid_of(own[i]);
		attr = rdma_find_gid_by_port(&bed.hca->ibdev, &gid,
					     IB_GID_TYPE_ROCE_UDP_ENCAP,
					     ROCE_PORT, bed.a);
		if (!IS_ERR(attr))
			rdma_put_gid_attr(attr);
		KUNIT_ASSERT_TRUE_MSG(test, IS_ERR(attr), "GID %s left",
				      own[i]);
	}
}

/*
 * KUnit action, the end of a case with a network (after its GID
 * references, VLANs and resolutions went): the addresses of new_ctx() deleted, and every
 * neighbour entry of A and B flushed, as "ip neigh flush dev A" does
 * (those of the case and the ones its resolutions left incomplete; their
 * timers and queued packets go with them).
 */
static void bed_reset(void *arg)
{
	struct addr_ctx *ctx = arg;
	struct kunit *test = ctx->rtc->test;
	struct {
		struct net_device *ndev;
		int (*del)(struct rtc *c, u16 type, struct net_device *ndev,
			   const char *addr, u8 prefixlen);
		const char *addr;
		u8 len;
	} addrs[] = {
		{ bed.a, rt_addr4, "192.0.2.1", 24 },
		{ bed.a, rt_addr6, "2001:db8:1::1", 64 },
		{ bed.b, rt_addr4, "198.51.100.1", 24 },
		{ bed.b, rt_addr6, "2001:db8:2::1", 64 },
	};
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(addrs); i++) {
		ret = addrs[i].del(ctx->rtc, RTM_DELADDR, addrs[i].ndev,
				   addrs[i].addr, addrs[i].len);
		/* -EADDRNOTAVAIL: the case failed before adding it */
		KUNIT_EXPECT_TRUE_MSG(test, !ret || ret == -EADDRNOTAVAIL,
				      "cleanup: address %s: %d",
				      addrs[i].addr, ret);
	}
	neigh_ifdown(&arp_tbl, bed.a);
	neigh_ifdown(&nd_tbl, bed.a);
	neigh_ifdown(&arp_tbl, bed.b);
	neigh_ifdown(&nd_tbl, bed.b);
}

static struct addr_ctx *new_ctx(struct kunit *test)
{
	struct addr_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	bed_expect_bare(test);
	ctx->rtc = rtc_open(test);
	ctx->a = bed.a;
	ctx->b = bed.b;
	ctx->hca = bed.hca;
	ctx->dev = &bed.hca->ibdev;
	/* after everything the case adds, before its socket goes */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, bed_reset, ctx),
			0);

	rt_add_addr4(ctx->rtc, ctx->a, "192.0.2.1", 24);
	rt_add_addr6(ctx->rtc, ctx->a, "2001:db8:1::1", 64);
	rt_neigh4(ctx->rtc, ctx->a, "192.0.2.2", peer_mac);
	rt_neigh6(ctx->rtc, ctx->a, "2001:db8:1::2", peer_mac);
	rt_add_addr4(ctx->rtc, ctx->b, "198.51.100.1", 24);
	rt_add_addr6(ctx->rtc, ctx->b, "2001:db8:2::1", 64);
	rt_neigh4(ctx->rtc, ctx->b, "198.51.100.2", peer_b_mac);
	rt_neigh6(ctx->rtc, ctx->b, "2001:db8:2::2", peer_b_mac);

	/* the GIDs of A's addresses are there once the GID work ran */
	roce_gid_mgmt_flush();
	ctx->sgid4 = find_gid(test, ctx, "192.0.2.1");
	ctx->sgid6 = find_gid(test, ctx, "2001:db8:1::1");
	/* the default GID: fe80:: + EUI-64 of A's MAC */
	ctx->sgid_ll = rdma_get_gid_attr(ctx->dev, ROCE_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->sgid_ll);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							put_gid_attr_action,
							(void *)ctx->sgid_ll),
			0);
	return ctx;
}

/* rdma_addr_find_l2_eth_by_grh() from @sgid to @dst. */
static int find_l2(const struct ib_gid_attr *sgid, const char *dst, u8 *dmac,
		   int *hoplimit)
{
	union ib_gid dgid = gid_of(dst);

	eth_zero_addr(dmac);
	*hoplimit = -1;
	return rdma_addr_find_l2_eth_by_grh(&sgid->gid, &dgid, dmac, sgid,
					    hoplimit);
}

/* ------------------------------------------------------------------
 * Helpers of ib_addr.h
 */

static void rdma_addr_gid_ip_conversions(struct kunit *test)
{
	union ib_gid gid4 = gid_of("192.0.2.7"), gid6 = gid_of("2001:db8::7");
	struct sockaddr_in6 ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	union ib_gid back;

	rdma_gid2ip((struct sockaddr *)&ss, &gid4);
	KUNIT_EXPECT_EQ(test, sin->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sin->sin_addr.s_addr),
			be32_to_cpu(in_aton("192.0.2.7")));
	KUNIT_EXPECT_EQ(test, rdma_ip2gid((struct sockaddr *)&ss, &back), 0);
	KUNIT_EXPECT_MEMEQ(test, &back, &gid4, sizeof(back));

	rdma_gid2ip((struct sockaddr *)&ss, &gid6);
	KUNIT_EXPECT_EQ(test, ss.sin6_family, AF_INET6);
	KUNIT_EXPECT_MEMEQ(test, &ss.sin6_addr, gid6.raw, 16);
	KUNIT_EXPECT_EQ(test, rdma_ip2gid((struct sockaddr *)&ss, &back), 0);
	KUNIT_EXPECT_MEMEQ(test, &back, &gid6, sizeof(back));

	ss.sin6_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_ip2gid((struct sockaddr *)&ss, &back),
			-EINVAL);
}

static void rdma_addr_sizes(struct kunit *test)
{
	struct __kernel_sockaddr_storage kss = {};
	struct sockaddr_in6 in6 = {};

	kss.ss_family = AF_INET;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss),
			(int)sizeof(struct sockaddr_in));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(&kss),
			(int)sizeof(struct sockaddr_in));
	kss.ss_family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss),
			(int)sizeof(struct sockaddr_in6));
	kss.ss_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss),
			(int)sizeof(struct sockaddr_ib));
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(&kss),
			(int)sizeof(struct sockaddr_ib));
	kss.ss_family = AF_UNIX;
	KUNIT_EXPECT_EQ(test, rdma_addr_size((struct sockaddr *)&kss), 0);
	KUNIT_EXPECT_EQ(test, rdma_addr_size_kss(&kss), 0);

	in6.sin6_family = AF_INET6;
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(&in6),
			(int)sizeof(struct sockaddr_in6));
	/* an AF_IB address does not fit sockaddr_in6 room */
	in6.sin6_family = AF_IB;
	KUNIT_EXPECT_EQ(test, rdma_addr_size_in6(&in6), 0);
}

/* ------------------------------------------------------------------
 * rdma_addr_find_l2_eth_by_grh()
 */

static void rdma_addr_unicast_ipv4(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	u8 dmac[ETH_ALEN];
	int hop;

	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid4, "192.0.2.2", dmac, &hop), 0);
	KUNIT_EXPECT_MEMEQ(test, dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, hop, DEFAULT_TTL);
}

static void rdma_addr_unicast_ipv6(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	u8 dmac[ETH_ALEN];
	int hop;

	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid6, "2001:db8:1::2", dmac, &hop),
			0);
	KUNIT_EXPECT_MEMEQ(test, dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, hop, DEFAULT_TTL);

	/* the default (link-local) GID as source works as well */
	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid_ll, "2001:db8:1::2", dmac,
				      &hop), 0);
	KUNIT_EXPECT_MEMEQ(test, dmac, peer_mac, ETH_ALEN);
}

static void rdma_addr_neigh_replaced(struct kunit *test)
{
	static const u8 moved[ETH_ALEN] = { 0x02, 0x5e, 0xe0, 0x11, 0x22, 0x33 };
	struct addr_ctx *ctx = new_ctx(test);
	u8 dmac[ETH_ALEN];
	int hop;

	rt_neigh4(ctx->rtc, ctx->a, "192.0.2.2", moved);
	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid4, "192.0.2.2", dmac, &hop), 0);
	KUNIT_EXPECT_MEMEQ(test, dmac, moved, ETH_ALEN);
}

static void expect_solicited(struct kunit *test, struct net_device *ndev,
			     int family, const char *ip)
{
	struct neighbour *n = neigh_of(ndev, family, ip);

	KUNIT_ASSERT_NOT_NULL_MSG(test, n, "no neighbour entry for %s", ip);
	/* neigh_event_send() moved it out of NUD_NONE */
	KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(n->nud_state) &
			      (NUD_INCOMPLETE | NUD_FAILED),
			      "%s: state %#x", ip, READ_ONCE(n->nud_state));
	neigh_release(n);
}

static void rdma_addr_incomplete_neigh(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	u8 dmac[ETH_ALEN];
	int hop;

	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid4, "192.0.2.3", dmac, &hop),
			-ETIMEDOUT);
	KUNIT_EXPECT_TRUE(test, is_zero_ether_addr(dmac));
	expect_solicited(test, ctx->a, AF_INET, "192.0.2.3");

	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid6, "2001:db8:1::3", dmac, &hop),
			-ETIMEDOUT);
	expect_solicited(test, ctx->a, AF_INET6, "2001:db8:1::3");

	/* once the neighbour is known, the next call succeeds */
	rt_neigh4(ctx->rtc, ctx->a, "192.0.2.3", peer_b_mac);
	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid4, "192.0.2.3", dmac, &hop), 0);
	KUNIT_EXPECT_MEMEQ(test, dmac, peer_b_mac, ETH_ALEN);
}

static void rdma_addr_no_route(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	u8 dmac[ETH_ALEN];
	int hop;

	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid4, "203.0.113.9", dmac, &hop),
			-ENETUNREACH);
	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid6, "2001:db8:99::9", dmac,
				      &hop), -ENETUNREACH);
}

static void rdma_addr_loopback_dest(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	u8 dmac[ETH_ALEN];
	int hop;

	/* the destination is A's own address: A's MAC */
	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid4, "192.0.2.1", dmac, &hop), 0);
	KUNIT_EXPECT_MEMEQ(test, dmac, mac_a, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, hop, DEFAULT_TTL);

	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid6, "2001:db8:1::1", dmac, &hop),
			0);
	KUNIT_EXPECT_MEMEQ(test, dmac, mac_a, ETH_ALEN);
}

static void rdma_addr_wrong_egress(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	u8 dmac[ETH_ALEN];
	int hop;

	/* routed through B, but the GIDs belong to A */
	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid4, "198.51.100.2", dmac, &hop),
			-EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid6, "2001:db8:2::2", dmac, &hop),
			-EHOSTUNREACH);
	/* a local address of B is no address of A either */
	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid4, "198.51.100.1", dmac, &hop),
			-EHOSTUNREACH);
	KUNIT_EXPECT_TRUE(test, is_zero_ether_addr(dmac));
}

static void rdma_addr_vlan_upper(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct net_device *vlan;
	u8 dmac[ETH_ALEN];
	int hop;

	/* a VLAN on top of A may carry the traffic of A's GIDs */
	vlan = rt_add_vlan(ctx->rtc, ctx->a, "kuaddrv10", 10);
	rt_add_addr4(ctx->rtc, vlan, "203.0.113.1", 24);
	rt_neigh4(ctx->rtc, vlan, "203.0.113.2", peer_b_mac);
	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid4, "203.0.113.2", dmac, &hop),
			0);
	KUNIT_EXPECT_MEMEQ(test, dmac, peer_b_mac, ETH_ALEN);
	/* ... and its own address is A's MAC (the VLAN inherits it) */
	KUNIT_ASSERT_EQ(test, find_l2(ctx->sgid4, "203.0.113.1", dmac, &hop),
			0);
	KUNIT_EXPECT_MEMEQ(test, dmac, mac_a, ETH_ALEN);
	/* B has no such upper */
	vlan = rt_add_vlan(ctx->rtc, ctx->b, "kuaddrv20", 20);
	rt_add_addr4(ctx->rtc, vlan, "100.64.0.1", 24);
	rt_neigh4(ctx->rtc, vlan, "100.64.0.2", peer_b_mac);
	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid4, "100.64.0.2", dmac, &hop),
			-EHOSTUNREACH);
}

static void rdma_addr_bad_args(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	union ib_gid dgid = gid_of("192.0.2.2");
	u8 dmac[ETH_ALEN];
	int hop;

	/* IPv6 source, IPv4 destination */
	KUNIT_EXPECT_EQ(test, find_l2(ctx->sgid6, "192.0.2.2", dmac, &hop),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_addr_find_l2_eth_by_grh(&ctx->sgid4->gid,
							   &dgid, dmac, NULL,
							   &hop), -EINVAL);
}

/* ------------------------------------------------------------------
 * ib_resolve_eth_dmac() and the AH paths that use it
 */

static void init_roce_av(struct rdma_ah_attr *ah, const struct ib_gid_attr *sgid,
			 const char *dst)
{
	union ib_gid dgid = gid_of(dst);

	memset(ah, 0, sizeof(*ah));
	ah->type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(ah, ROCE_PORT);
	rdma_ah_set_grh(ah, &dgid, 0, sgid ? sgid->index : 0, 0xff, 0);
	ah->grh.sgid_attr = sgid;
}

static void rdma_addr_eth_dmac_unicast(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct rdma_ah_attr ah;

	init_roce_av(&ah, ctx->sgid4, "192.0.2.2");
	KUNIT_ASSERT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, DEFAULT_TTL);

	init_roce_av(&ah, ctx->sgid6, "2001:db8:1::2");
	KUNIT_ASSERT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, DEFAULT_TTL);

	/* own address */
	init_roce_av(&ah, ctx->sgid4, "192.0.2.1");
	KUNIT_ASSERT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, mac_a, ETH_ALEN);
}

/* A neighbour entry made from a work item while the test waits. */
struct late_neigh {
	struct delayed_work	work;
	struct addr_ctx		*ctx;
	__be32			ip;
	int			ret;
};

static void late_neigh_work(struct work_struct *work)
{
	struct late_neigh *l = container_of(to_delayed_work(work),
					    struct late_neigh, work);

	l->ret = rt_set_neigh(l->ctx->rtc, l->ctx->a, AF_INET, &l->ip,
			      peer_mac);
}

/*
 * rdma_addr_find_l2_eth_by_grh() waits (up to a second, as upstream) for
 * a neighbour that resolves meanwhile.
 */
static void rdma_addr_find_l2_waits(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct late_neigh *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u8 dmac[ETH_ALEN];
	int hop, ret;

	KUNIT_ASSERT_NOT_NULL(test, l);
	l->ctx = ctx;
	l->ip = in_aton("192.0.2.71");
	l->ret = -EINPROGRESS;
	INIT_DELAYED_WORK(&l->work, late_neigh_work);
	schedule_delayed_work(&l->work, msecs_to_jiffies(200));
	ret = find_l2(ctx->sgid4, "192.0.2.71", dmac, &hop);
	flush_delayed_work(&l->work);
	KUNIT_EXPECT_EQ(test, l->ret, 0);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_MEMEQ(test, dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, hop, DEFAULT_TTL);
}

static void rdma_addr_eth_dmac_errors(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct rdma_ah_attr ah;

	init_roce_av(&ah, ctx->sgid4, "192.0.2.9");
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), -ETIMEDOUT);
	init_roce_av(&ah, ctx->sgid4, "203.0.113.9");
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), -ENETUNREACH);
	init_roce_av(&ah, ctx->sgid6, "2001:db8:2::2");
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah),
			-EHOSTUNREACH);
	/* a unicast destination needs the source GID entry */
	init_roce_av(&ah, NULL, "192.0.2.2");
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), -EINVAL);
	/* only RoCE address vectors with a GRH */
	init_roce_av(&ah, ctx->sgid4, "192.0.2.2");
	ah.type = RDMA_AH_ATTR_TYPE_IB;
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), -EINVAL);
	init_roce_av(&ah, ctx->sgid4, "192.0.2.2");
	ah.ah_flags = 0;
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), -EINVAL);
}

struct mcast_case {
	const char *gid;
	u8 mac[ETH_ALEN];
};

static void rdma_addr_eth_dmac_mcast_ll(struct kunit *test)
{
	static const struct mcast_case cases[] = {
		{ "239.1.2.3", { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 } },
		{ "224.0.0.1", { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 } },
		{ "ff0e::1:2:3", { 0x33, 0x33, 0x00, 0x02, 0x00, 0x03 } },
		{ "ff02::1", { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 } },
	};
	struct addr_ctx *ctx = new_ctx(test);
	struct rdma_ah_attr ah;
	unsigned int i;

	/* multicast needs no route, no neighbour and no source entry */
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		init_roce_av(&ah, NULL, cases[i].gid);
		ah.grh.hop_limit = 7;
		KUNIT_ASSERT_EQ_MSG(test, ib_resolve_eth_dmac(ctx->dev, &ah), 0,
				    "%s", cases[i].gid);
		KUNIT_EXPECT_MEMEQ_MSG(test, ah.roce.dmac, cases[i].mac,
				       ETH_ALEN, "%s", cases[i].gid);
		KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, 7);
	}

	/* link-local EUI-64: the MAC inside the GID, one hop */
	init_roce_av(&ah, ctx->sgid_ll, "fe80::0211:22ff:fe33:4455");
	KUNIT_ASSERT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac,
			   ((u8[]){ 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 }),
			   ETH_ALEN);
	KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, 1);

	/* the default GID of A names A's MAC */
	init_roce_av(&ah, ctx->sgid_ll, "fe80::0211:22ff:fe33:4455");
	ah.grh.dgid = ctx->sgid_ll->gid;
	KUNIT_ASSERT_EQ(test, ib_resolve_eth_dmac(ctx->dev, &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, mac_a, ETH_ALEN);
}

/* A RoCE v2 IPv4 packet from 192.0.2.2 to 192.0.2.1 arrived on A. */
static void rdma_addr_ah_from_wc(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	union rdma_network_hdr hdr = {};
	struct rdma_ah_attr ah;
	struct ib_wc wc = {
		.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE,
		.network_hdr_type = RDMA_NETWORK_IPV4,
	};
	union ib_gid peer = gid_of("192.0.2.2");

	hdr.roce4grh.version = 4;
	hdr.roce4grh.ihl = 5;
	hdr.roce4grh.ttl = 30;
	hdr.roce4grh.saddr = in_aton("192.0.2.2");
	hdr.roce4grh.daddr = in_aton("192.0.2.1");

	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(ctx->dev, ROCE_PORT, &wc,
						      &hdr.ibgrh, &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_MEMEQ(test, &ah.grh.dgid, &peer, sizeof(peer));
	KUNIT_EXPECT_PTR_EQ(test, ah.grh.sgid_attr, ctx->sgid4);
	KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, DEFAULT_TTL);
	rdma_destroy_ah_attr(&ah);

	/* from an address without neighbour: no AH yet */
	hdr.roce4grh.saddr = in_aton("192.0.2.77");
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(ctx->dev, ROCE_PORT, &wc,
						      &hdr.ibgrh, &ah),
			-ETIMEDOUT);

	/* RoCE without the header in front: refused, with or without a type */
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(ctx->dev, ROCE_PORT, &wc,
						      NULL, &ah), -EINVAL);
	wc.wc_flags = IB_WC_GRH;
	KUNIT_EXPECT_EQ(test, ib_init_ah_attr_from_wc(ctx->dev, ROCE_PORT, &wc,
						      NULL, &ah), -EINVAL);
}

/* ------------------------------------------------------------------
 * rdma_translate_ip(), rdma_resolve_ip(), rdma_addr_cancel()
 */

static void rdma_addr_translate_ip(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct rdma_dev_addr da = { .net = &init_net };
	struct sockaddr_in6 sa = {};
	union ib_gid gid = gid_of("2001:db8:2::1");

	rdma_gid2ip((struct sockaddr *)&sa, &gid);
	KUNIT_ASSERT_EQ(test, rdma_translate_ip((struct sockaddr *)&sa, &da),
			0);
	KUNIT_EXPECT_EQ(test, da.bound_dev_if, ctx->b->ifindex);
	KUNIT_EXPECT_MEMEQ(test, da.src_dev_addr, mac_b, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, da.dev_type, ARPHRD_ETHER);

	/* a bound device wins over the address */
	da.bound_dev_if = ctx->a->ifindex;
	KUNIT_ASSERT_EQ(test, rdma_translate_ip((struct sockaddr *)&sa, &da),
			0);
	KUNIT_EXPECT_MEMEQ(test, da.src_dev_addr, mac_a, ETH_ALEN);

	memset(&da, 0, sizeof(da));
	da.net = &init_net;
	gid = gid_of("192.0.2.200");
	rdma_gid2ip((struct sockaddr *)&sa, &gid);
	KUNIT_EXPECT_EQ(test, rdma_translate_ip((struct sockaddr *)&sa, &da),
			-EADDRNOTAVAIL);
}

/*
 * An rdma_resolve_ip() request of a test and what its callback saw.  It
 * lives in test memory, and the request is cancelled when the test ends,
 * so that a failed assertion cannot leave a callback behind.
 */
struct resolve_wait {
	struct rdma_dev_addr da;
	struct completion done;
	int status;
	int calls;
	struct sockaddr_in6 src;
};

static void resolve_done(int status, struct sockaddr *src_addr,
			 struct rdma_dev_addr *addr, void *context)
{
	struct resolve_wait *w = context;

	w->status = status;
	w->calls++;
	memcpy(&w->src, src_addr, rdma_addr_size_in6((void *)src_addr));
	complete(&w->done);
}

static void cancel_action(void *w)
{
	rdma_addr_cancel(&((struct resolve_wait *)w)->da);
}

static struct resolve_wait *new_wait(struct kunit *test,
				     const struct ib_gid_attr *sgid_attr)
{
	struct resolve_wait *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->da.net = &init_net;
	w->da.sgid_attr = sgid_attr;
	w->status = 1;
	init_completion(&w->done);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cancel_action, w),
			0);
	return w;
}

/* rdma_resolve_ip() from @src (NULL: any) to @dst into @w. */
static int start_resolve(struct resolve_wait *w, const char *src,
			 const char *dst, unsigned long timeout_ms,
			 bool by_gid_attr)
{
	union ib_gid sgid, dgid = gid_of(dst);
	struct sockaddr_in6 s, d;

	rdma_gid2ip((struct sockaddr *)&d, &dgid);
	if (src) {
		sgid = gid_of(src);
		rdma_gid2ip((struct sockaddr *)&s, &sgid);
	}
	return rdma_resolve_ip(src ? (struct sockaddr *)&s : NULL,
			       (struct sockaddr *)&d, &w->da, timeout_ms,
			       resolve_done, by_gid_attr, w);
}

static bool wait_done(struct resolve_wait *w, unsigned long timeout)
{
	return wait_for_completion_timeout(&w->done, timeout);
}

static void rdma_addr_resolve_ip_async(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct resolve_wait *w = new_wait(test, NULL);
	struct sockaddr_in *sin = (struct sockaddr_in *)&w->src;

	/* resolved at once: the callback still comes from the workqueue */
	KUNIT_ASSERT_EQ(test, start_resolve(w, NULL, "192.0.2.2", 1000, false),
			0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 10 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_EQ(test, w->calls, 1);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_MEMEQ(test, w->da.src_dev_addr, mac_a, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, w->da.bound_dev_if, ctx->a->ifindex);
	KUNIT_EXPECT_EQ(test, w->da.hoplimit, DEFAULT_TTL);
	KUNIT_EXPECT_EQ(test, w->da.network, RDMA_NETWORK_IB);
	/* the source the route chose */
	KUNIT_EXPECT_EQ(test, sin->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sin->sin_addr.s_addr),
			be32_to_cpu(in_aton("192.0.2.1")));

	/* IPv6 through B with an explicit source */
	w = new_wait(test, NULL);
	KUNIT_ASSERT_EQ(test, start_resolve(w, "2001:db8:2::1", "2001:db8:2::2",
					    1000, false), 0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 10 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, peer_b_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, w->da.bound_dev_if, ctx->b->ifindex);

	/* errors of the first attempt come back at once, no callback */
	w = new_wait(test, NULL);
	KUNIT_EXPECT_EQ(test, start_resolve(w, NULL, "203.0.113.9", 1000,
					    false), -ENETUNREACH);
	KUNIT_EXPECT_EQ(test, start_resolve(w, "2001:db8:1::1", "192.0.2.2",
					    1000, false), -EINVAL);
	KUNIT_EXPECT_FALSE(test, wait_done(w, HZ / 10));
	KUNIT_EXPECT_EQ(test, w->calls, 0);
}

static void rdma_addr_resolve_ip_timeout(struct kunit *test)
{
	struct resolve_wait *w;

	new_ctx(test);
	w = new_wait(test, NULL);
	KUNIT_ASSERT_EQ(test, start_resolve(w, NULL, "192.0.2.50", 200, false),
			0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 20 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, w->calls, 1);
}

static void rdma_addr_resolve_ip_neigh_update(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct resolve_wait *w = new_wait(test, NULL);

	/* a minute to wait: only the neighbour update can end it in time */
	KUNIT_ASSERT_EQ(test, start_resolve(w, NULL, "2001:db8:1::60", 60000,
					    false), 0);
	KUNIT_EXPECT_FALSE(test, wait_done(w, HZ / 10));
	rt_neigh6(ctx->rtc, ctx->a, "2001:db8:1::60", peer_b_mac);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 20 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, peer_b_mac, ETH_ALEN);
}

/*
 * A net device whose peer answers each ARP request at once, as a veth
 * peer in the same host does: the answer is received (softirq) before
 * the solicitation's dev_queue_xmit() returns.
 */
static netdev_tx_t arp_echo_xmit(struct sk_buff *skb, struct net_device *dev)
{
	unsigned int alen = dev->addr_len;
	struct sk_buff *reply;
	struct arphdr *arp;
	__be32 sip, tip;
	u8 *p;

	if (skb->protocol != htons(ETH_P_ARP) ||
	    !pskb_may_pull(skb, ETH_HLEN + arp_hdr_len(dev)))
		goto out;
	arp = (struct arphdr *)(skb->data + ETH_HLEN);
	if (arp->ar_op != htons(ARPOP_REQUEST))
		goto out;
	p = (u8 *)(arp + 1);
	memcpy(&sip, p + alen, sizeof(sip));
	memcpy(&tip, p + 2 * alen + sizeof(sip), sizeof(tip));
	reply = arp_create(ARPOP_REPLY, ETH_P_ARP, sip, dev, tip,
			   dev->dev_addr, peer_b_mac, dev->dev_addr);
	if (reply) {
		reply->protocol = eth_type_trans(reply, dev);
		netif_rx(reply);
	}
out:
	dev_kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops arp_echo_ops = {
	.ndo_start_xmit = arp_echo_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static void arp_echo_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &arp_echo_ops;
	dev->priv_flags |= IFF_NO_QUEUE;
}

static void arp_echo_free(void *ndev)
{
	unregister_netdev(ndev);
	free_netdev(ndev);
}

static struct net_device *new_arp_echo_netdev(struct kunit *test)
{
	static const u8 mac[ETH_ALEN] = { 0x02, 0xad, 0xd0, 0x00, 0x00, 0xec };
	struct net_device *ndev;
	int ret;

	ndev = alloc_netdev(0, "kuarp%d", NET_NAME_ENUM, arp_echo_setup);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	eth_hw_addr_set(ndev, mac);
	ret = register_netdev(ndev);
	if (ret)
		free_netdev(ndev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, arp_echo_free,
							ndev), 0);
	rtnl_lock();
	ret = dev_change_flags(ndev, ndev->flags | IFF_UP, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	return ndev;
}

/*
 * The neighbour becomes valid while rdma_resolve_ip() asks for it,
 * before the request is queued: that update must not be lost (it was,
 * and the request waited out its whole timeout).
 */
static void rdma_addr_resolve_ip_neigh_answered_at_once(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct net_device *ndev = new_arp_echo_netdev(test);
	struct resolve_wait *w = new_wait(test, NULL);

	rt_add_addr4(ctx->rtc, ndev, "203.0.113.1", 24);
	/* a minute to wait: only the neighbour's answer can end it in time */
	KUNIT_ASSERT_EQ(test, start_resolve(w, NULL, "203.0.113.7", 60000,
					    false), 0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 5 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, peer_b_mac, ETH_ALEN);
}

static void rdma_addr_resolve_ip_cancel(struct kunit *test)
{
	struct resolve_wait *w, *other;

	new_ctx(test);
	w = new_wait(test, NULL);
	other = new_wait(test, NULL);
	KUNIT_ASSERT_EQ(test, start_resolve(w, NULL, "192.0.2.61", 60000,
					    false), 0);
	/* cancelling what is not pending does nothing */
	rdma_addr_cancel(&other->da);
	rdma_addr_cancel(&w->da);
	KUNIT_EXPECT_FALSE(test, wait_done(w, HZ / 5));
	KUNIT_EXPECT_EQ(test, w->calls, 0);
	/* twice is harmless */
	rdma_addr_cancel(&w->da);
}

static void rdma_addr_noarp_device(struct kunit *test)
{
	static const u8 mac_c[ETH_ALEN] = { 0x02, 0xad, 0xd0, 0x00, 0x00, 0x0c };
	struct net_device *c;
	struct resolve_wait *w;
	struct addr_ctx *ctx = new_ctx(test);
	int ret;

	/* the fake's own kind of device: IFF_NOARP */
	c = fake_hca_kunit_netdev(test, mac_c);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	rtnl_lock();
	ret = dev_change_flags(c, c->flags | IFF_UP, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_TRUE(test, c->flags & IFF_NOARP);
	rt_add_addr4(ctx->rtc, c, "10.99.0.1", 24);
	rt_neigh4(ctx->rtc, c, "10.99.0.3", peer_mac);

	/* no ARP: the neighbour is valid at once, with what IP would use */
	w = new_wait(test, NULL);
	KUNIT_ASSERT_EQ(test, start_resolve(w, NULL, "10.99.0.2", 1000, false),
			0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 10 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, mac_c, ETH_ALEN);
	KUNIT_EXPECT_MEMEQ(test, w->da.src_dev_addr, mac_c, ETH_ALEN);
	KUNIT_EXPECT_MEMEQ(test, w->da.broadcast, c->broadcast, ETH_ALEN);

	/* a configured neighbour wins */
	w = new_wait(test, NULL);
	KUNIT_ASSERT_EQ(test, start_resolve(w, NULL, "10.99.0.3", 1000, false),
			0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 10 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, peer_mac, ETH_ALEN);
}

static void rdma_addr_resolve_by_gid_attr(struct kunit *test)
{
	struct addr_ctx *ctx = new_ctx(test);
	struct resolve_wait *w = new_wait(test, ctx->sgid4);

	/* B is reachable, but not from A's GID */
	KUNIT_EXPECT_EQ(test, start_resolve(w, "192.0.2.1", "198.51.100.2",
					    1000, true), -EHOSTUNREACH);
	/* from A's GID to A's neighbour */
	w = new_wait(test, ctx->sgid4);
	KUNIT_ASSERT_EQ(test, start_resolve(w, "192.0.2.1", "192.0.2.2", 1000,
					    true), 0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 10 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, peer_mac, ETH_ALEN);
	/* the same addresses without the GID: the routing table decides */
	w = new_wait(test, NULL);
	KUNIT_ASSERT_EQ(test, start_resolve(w, "192.0.2.1", "198.51.100.2",
					    1000, false), 0);
	KUNIT_ASSERT_TRUE(test, wait_done(w, 10 * HZ));
	KUNIT_EXPECT_EQ(test, w->status, 0);
	KUNIT_EXPECT_MEMEQ(test, w->da.dst_dev_addr, peer_b_mac, ETH_ALEN);
}

static struct kunit_case rdma_addr_cases[] = {
	KUNIT_CASE(rdma_addr_gid_ip_conversions),
	KUNIT_CASE(rdma_addr_sizes),
	KUNIT_CASE(rdma_addr_unicast_ipv4),
	KUNIT_CASE(rdma_addr_unicast_ipv6),
	KUNIT_CASE(rdma_addr_neigh_replaced),
	KUNIT_CASE(rdma_addr_incomplete_neigh),
	KUNIT_CASE(rdma_addr_find_l2_waits),
	KUNIT_CASE(rdma_addr_no_route),
	KUNIT_CASE(rdma_addr_loopback_dest),
	KUNIT_CASE(rdma_addr_wrong_egress),
	KUNIT_CASE(rdma_addr_vlan_upper),
	KUNIT_CASE(rdma_addr_bad_args),
	KUNIT_CASE(rdma_addr_eth_dmac_unicast),
	KUNIT_CASE(rdma_addr_eth_dmac_errors),
	KUNIT_CASE(rdma_addr_eth_dmac_mcast_ll),
	KUNIT_CASE(rdma_addr_ah_from_wc),
	KUNIT_CASE(rdma_addr_translate_ip),
	KUNIT_CASE(rdma_addr_resolve_ip_async),
	KUNIT_CASE(rdma_addr_resolve_ip_timeout),
	KUNIT_CASE(rdma_addr_resolve_ip_neigh_update),
	KUNIT_CASE(rdma_addr_resolve_ip_neigh_answered_at_once),
	KUNIT_CASE(rdma_addr_resolve_ip_cancel),
	KUNIT_CASE(rdma_addr_noarp_device),
	KUNIT_CASE(rdma_addr_resolve_by_gid_attr),
	{}
};

/* The suite's exit: the HCA, then the net devices it was bound to */
static void rdma_addr_suite_exit(struct kunit_suite *suite)
{
	if (bed.hca)
		fake_hca_destroy(bed.hca);
	fake_hca_netdev_free(bed.a);
	fake_hca_netdev_free(bed.b);
	memset(&bed, 0, sizeof(bed));
}

/* The suite's init: A and B, then the HCA bound to A */
static int rdma_addr_suite_init(struct kunit_suite *suite)
{
	struct fake_hca_desc *desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	struct fake_hca *hca;
	int ret;

	if (!desc)
		return -ENOMEM;
	ret = fake_hca_netdev_new_arp(&bed.a, mac_a);
	if (!ret)
		ret = fake_hca_netdev_new_arp(&bed.b, mac_b);
	if (!ret) {
		fake_hca_desc_init(desc, 1);
		desc->name = "kuaddr%d";
		fake_hca_desc_set_eth(desc, ROCE_PORT);
		desc->port[0].netdev = bed.a;
		hca = fake_hca_create_registered(desc);
		if (IS_ERR(hca))
			ret = PTR_ERR(hca);
		else
			bed.hca = hca;
	}
	kfree(desc);
	if (ret)
		rdma_addr_suite_exit(suite);
	return ret;
}

static struct kunit_suite rdma_addr_suite = {
	.name = "rdma_addr",
	.suite_init = rdma_addr_suite_init,
	.suite_exit = rdma_addr_suite_exit,
	.test_cases = rdma_addr_cases,
};

kunit_test_suite(rdma_addr_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA IP address translation and RoCE destination MACs");
MODULE_LICENSE("Dual BSD/GPL");
