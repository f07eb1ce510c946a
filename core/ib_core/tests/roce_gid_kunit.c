// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_roce_gid": RoCE GIDs that follow the IP stack
 * (core/ib_core/roce_gid_mgmt.c), and the destination of a RoCE address
 * vector on a VLAN (ib_resolve_eth_dmac(), ib_init_ah_attr_from_wc()).
 *
 * The suite's bed (rdma_roce_gid_suite_init(); the cases share it, its
 * registrations are what costs):
 *
 *   N  "fkhcat%d", MAC mac_n, up with ARP, in init_net
 *   a fake HCA "kurgid%d": port 1 RoCE v1 and v2 bound to N, port 2 IB
 *
 * Every case first checks the bed is as made (bed_expect_bare(): N up in
 * init_net with mac_n and no IPv4 address or global IPv6 address of the
 * suite, port 1 with the two default GIDs of N and no GID of another net
 * device) and puts it back at its end.  The network is changed as "ip"
 * would, through rtnetlink (<kunit/rdma_rtnl.h>), so the core sees the
 * notifier calls of a real system; the GID work is then waited for with
 * roce_gid_mgmt_flush(), never a sleep.
 *
 * The test kernel has no bonding driver (CONFIG_BONDING is off), so the
 * bond paths are not exercised here.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_rtnl.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/inet.h>
#include <linux/inetdevice.h>
#include <linux/pid.h>
#include <linux/rtnetlink.h>
#include <linux/sched/signal.h>
#include <linux/umh.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/net_namespace.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define ROCE_PORT	1
#define IB_PORT		2
#define GID_TBL_LEN	16
#define VLAN_ID		100
#define NETNS_WAIT_MS	5000

static const u8 mac_n[ETH_ALEN] = { 0x02, 0x9e, 0x61, 0x00, 0x00, 0x01 };
static const u8 mac_new[ETH_ALEN] = { 0x02, 0x9e, 0x61, 0x00, 0x00, 0x99 };
static const u8 peer_mac[ETH_ALEN] = { 0x02, 0x9e, 0x61, 0x00, 0x00, 0x02 };

static const enum ib_gid_type both_types[] = {
	IB_GID_TYPE_ROCE, IB_GID_TYPE_ROCE_UDP_ENCAP,
};

/* Made by rdma_roce_gid_suite_init(), shared by the cases */
static struct {
	struct net_device *n;
	struct fake_hca *hca;
} bed;

/* ------------------------------------------------------------------
 * Helpers
 */

static union ib_gid gid_of(const char *ip)
{
	union ib_gid gid = {};
	__be32 a4;

	if (in4_pton(ip, -1, (u8 *)&a4, -1, NULL) == 1)
		ipv6_addr_set_v4mapped(a4, (struct in6_addr *)gid.raw);
	else
		WARN_ON(in6_pton(ip, -1, gid.raw, -1, NULL) != 1);
	return gid;
}

/* The default GID of a MAC address: fe80:: and its modified EUI-64. */
static union ib_gid default_gid(const u8 *mac)
{
	union ib_gid gid = {};

	gid.raw[0] = 0xfe;
	gid.raw[1] = 0x80;
	gid.raw[8] = mac[0] ^ 2;
	gid.raw[9] = mac[1];
	gid.raw[10] = mac[2];
	gid.raw[11] = 0xff;
	gid.raw[12] = 0xfe;
	gid.raw[13] = mac[3];
	gid.raw[14] = mac[4];
	gid.raw[15] = mac[5];
	return gid;
}

static struct ib_device *bed_dev(void)
{
	return &bed.hca->ibdev;
}

/* Is @gid of @type with net device @ndev in port @port? */
static bool has_gid(struct ib_device *dev, u32 port, const union ib_gid *gid,
		    enum ib_gid_type type, struct net_device *ndev)
{
	const struct ib_gid_attr *attr;

	attr = rdma_find_gid_by_port(dev, gid, type, port, ndev);
	if (IS_ERR(attr))
		return false;
	rdma_put_gid_attr(attr);
	return true;
}

/* @ip's GID of both types on @ndev is in the bed's RoCE port, or not. */
static void expect_ip_gid(struct kunit *test, struct ib_device *dev,
			  const char *ip, struct net_device *ndev, bool there)
{
	union ib_gid gid = gid_of(ip);
	int i;

	for (i = 0; i < ARRAY_SIZE(both_types); i++)
		KUNIT_EXPECT_EQ_MSG(test, has_gid(dev, ROCE_PORT, &gid,
						  both_types[i], ndev), there,
				    "GID %s (%s) on %s", ip,
				    ib_cache_gid_type_str(both_types[i]),
				    ndev->name);
}

/* How many valid entries of port @port have net device @ndev? */
static unsigned int gids_of_ndev(struct ib_device *dev, u32 port,
				 struct net_device *ndev)
{
	unsigned int n = 0;
	int ix;

	for (ix = 0; ix < GID_TBL_LEN; ix++) {
		const struct ib_gid_attr *attr = rdma_get_gid_attr(dev, port,
								   ix);

		if (IS_ERR(attr))
			continue;
		if (rcu_access_pointer(attr->ndev) == ndev)
			n++;
		rdma_put_gid_attr(attr);
	}
	return n;
}

/* Valid entries of port @port whose net device is not @ndev */
static unsigned int gids_not_of_ndev(struct ib_device *dev, u32 port,
				     struct net_device *ndev)
{
	unsigned int n = 0;
	int ix;

	for (ix = 0; ix < GID_TBL_LEN; ix++) {
		const struct ib_gid_attr *attr = rdma_get_gid_attr(dev, port,
								   ix);

		if (IS_ERR(attr))
			continue;
		if (rcu_access_pointer(attr->ndev) != ndev)
			n++;
		rdma_put_gid_attr(attr);
	}
	return n;
}

/*
 * Slots 0 and 1 hold the default GIDs of @ndev made from @mac, one per
 * type, and the driver was told.
 */
static void expect_defaults(struct kunit *test, struct fake_hca *hca,
			    struct net_device *ndev, const u8 *mac)
{
	union ib_gid want = default_gid(mac);
	bool seen[IB_GID_TYPE_SIZE] = {};
	int ix;

	for (ix = 0; ix < 2; ix++) {
		const struct ib_gid_attr *attr;
		struct fake_hca_hw_gid hw;

		attr = rdma_get_gid_attr(&hca->ibdev, ROCE_PORT, ix);
		KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, attr, "no GID at %d",
						 ix);
		KUNIT_EXPECT_MEMEQ(test, attr->gid.raw, want.raw, 16);
		KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(attr->ndev),
				    ndev);
		if (attr->gid_type < IB_GID_TYPE_SIZE)
			seen[attr->gid_type] = true;
		rdma_put_gid_attr(attr);

		KUNIT_ASSERT_TRUE(test, fake_hca_hw_gid(hca, ROCE_PORT, ix,
							&hw));
		KUNIT_EXPECT_MEMEQ(test, hw.gid.raw, want.raw, 16);
		KUNIT_EXPECT_EQ(test, hw.ifindex, ndev->ifindex);
	}
	KUNIT_EXPECT_TRUE(test, seen[IB_GID_TYPE_ROCE]);
	KUNIT_EXPECT_TRUE(test, seen[IB_GID_TYPE_ROCE_UDP_ENCAP]);
}

/* The bed as every case finds it. */
static void bed_expect_bare(struct kunit *test)
{
	static const char * const ips[] = {
		"192.0.2.1", "2001:db8:1::1", "198.51.100.1",
	};
	bool v4_addr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, bed.hca);
	KUNIT_ASSERT_NOT_NULL(test, bed.n);
	KUNIT_ASSERT_TRUE(test, net_eq(dev_net(bed.n), &init_net));
	KUNIT_ASSERT_EQ(test, bed.n->flags & (IFF_UP | IFF_NOARP), IFF_UP);
	KUNIT_ASSERT_MEMEQ(test, bed.n->dev_addr, mac_n, ETH_ALEN);
	rcu_read_lock();
	v4_addr = __in_dev_get_rcu(bed.n) &&
		  rcu_access_pointer(__in_dev_get_rcu(bed.n)->ifa_list);
	rcu_read_unlock();
	KUNIT_ASSERT_FALSE(test, v4_addr);

	roce_gid_mgmt_flush();
	expect_defaults(test, bed.hca, bed.n, mac_n);
	KUNIT_ASSERT_EQ(test, gids_not_of_ndev(bed_dev(), ROCE_PORT, bed.n), 0);
	for (i = 0; i < ARRAY_SIZE(ips); i++)
		expect_ip_gid(test, bed_dev(), ips[i], bed.n, false);
}

struct addr_del {
	struct kt_rtnl *c;
	int ifindex;	/* the device may be gone by then */
	const char *ip;
	u8 prefixlen;
};

/* KUnit action: the address a case added goes (it may be gone already) */
static void addr_del_action(void *arg)
{
	struct addr_del *d = arg;

	kt_rtnl_addr(d->c, RTM_DELADDR, d->ifindex, d->ip, d->prefixlen);
	roce_gid_mgmt_flush();
}

/* "ip address add IP/PREFIXLEN dev NDEV" until the case ends */
static void add_addr(struct kunit *test, struct kt_rtnl *c,
		     struct net_device *ndev, const char *ip, u8 prefixlen)
{
	struct addr_del *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ_MSG(test, kt_rtnl_addr(c, RTM_NEWADDR, ndev->ifindex,
					       ip, prefixlen), 0,
			    "address %s on %s", ip, ndev->name);
	d->c = c;
	d->ifindex = ndev->ifindex;
	d->ip = ip;
	d->prefixlen = prefixlen;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, addr_del_action,
							d), 0);
}

struct link_del {
	struct kt_rtnl *c;
	int ifindex;
};

static void link_del_action(void *arg)
{
	struct link_del *d = arg;

	kt_rtnl_del_link(d->c, d->ifindex);
	roce_gid_mgmt_flush();
}

/* A VLAN device over @lower, up, deleted at the case's end */
static struct net_device *add_vlan(struct kunit *test, struct kt_rtnl *c,
				   struct net_device *lower, const char *name,
				   u16 id, int *ifindex)
{
	struct link_del *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct net_device *vlan;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, d);
	ret = kt_rtnl_add_vlan(c, lower, name, id, ifindex);
	if (*ifindex) {
		d->c = c;
		d->ifindex = *ifindex;
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
								link_del_action,
								d), 0);
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "vlan %s", name);
	/* lives until link_del_action(), which runs after the case */
	vlan = dev_get_by_index(&init_net, *ifindex);
	KUNIT_ASSERT_NOT_NULL(test, vlan);
	dev_put(vlan);
	return vlan;
}

static struct kt_rtnl *new_case(struct kunit *test)
{
	struct kt_rtnl *c;

	bed_expect_bare(test);
	c = kt_rtnl_open(test, &init_net);
	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

/* ------------------------------------------------------------------
 * Cases
 */

/*
 * The GID types of a port, and the default GIDs the registration scan
 * installed: one per type, made from N's MAC, with N as net device.
 */
static void roce_gid_types_and_defaults(struct kunit *test)
{
	bed_expect_bare(test);
	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(bed_dev(), ROCE_PORT),
			BIT(IB_GID_TYPE_ROCE) | BIT(IB_GID_TYPE_ROCE_UDP_ENCAP));
	KUNIT_EXPECT_EQ(test, roce_gid_type_mask_support(bed_dev(), IB_PORT),
			BIT(IB_GID_TYPE_IB));
	/* the IB port's table is the driver's, untouched by N */
	KUNIT_EXPECT_EQ(test, gids_of_ndev(bed_dev(), IB_PORT, bed.n), 0);
}

/* IPv4 and IPv6 addresses come and go as GIDs of both types. */
static void roce_gid_ip_addresses(struct kunit *test)
{
	struct kt_rtnl *c = new_case(test);
	unsigned int calls;

	add_addr(test, c, bed.n, "192.0.2.1", 24);
	add_addr(test, c, bed.n, "2001:db8:1::1", 64);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "192.0.2.1", bed.n, true);
	expect_ip_gid(test, bed_dev(), "2001:db8:1::1", bed.n, true);

	/* an address of a device that is not the port's makes no GID */
	KUNIT_EXPECT_EQ(test, gids_not_of_ndev(bed_dev(), ROCE_PORT, bed.n), 0);

	calls = fake_hca_op_calls(bed.hca, FAKE_HCA_OP_DEL_GID);
	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(c, RTM_DELADDR, bed.n->ifindex,
					   "192.0.2.1", 24), 0);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "192.0.2.1", bed.n, false);
	expect_ip_gid(test, bed_dev(), "2001:db8:1::1", bed.n, true);
	/* the driver was told, once per type */
	KUNIT_EXPECT_EQ(test, fake_hca_op_calls(bed.hca, FAKE_HCA_OP_DEL_GID),
			calls + 2);

	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(c, RTM_DELADDR, bed.n->ifindex,
					   "2001:db8:1::1", 64), 0);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "2001:db8:1::1", bed.n, false);
	/* the default GIDs stay */
	expect_defaults(test, bed.hca, bed.n, mac_n);
}

/*
 * A VLAN device over N: its addresses are the port's, with the VLAN as net
 * device (so its VLAN ID); deleting the VLAN takes them away.
 */
static void roce_gid_vlan(struct kunit *test)
{
	struct kt_rtnl *c = new_case(test);
	union ib_gid gid = gid_of("198.51.100.1");
	const struct ib_gid_attr *attr;
	struct net_device *vlan;
	u8 smac[ETH_ALEN];
	u16 vlan_id;
	int ifindex;

	vlan = add_vlan(test, c, bed.n, "kurgid.100", VLAN_ID, &ifindex);
	add_addr(test, c, vlan, "198.51.100.1", 24);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "198.51.100.1", vlan, true);
	/* not under N's name: the VLAN is what it belongs to */
	expect_ip_gid(test, bed_dev(), "198.51.100.1", bed.n, false);

	attr = rdma_find_gid_by_port(bed_dev(), &gid,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, ROCE_PORT,
				     vlan);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, &vlan_id, smac), 0);
	KUNIT_EXPECT_EQ(test, vlan_id, VLAN_ID);
	KUNIT_EXPECT_MEMEQ(test, smac, mac_n, ETH_ALEN);
	rdma_put_gid_attr(attr);

	/* N's own default GID has no VLAN */
	attr = rdma_get_gid_attr(bed_dev(), ROCE_PORT, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, rdma_read_gid_l2_fields(attr, &vlan_id, NULL), 0);
	KUNIT_EXPECT_EQ(test, vlan_id, 0xffff);
	rdma_put_gid_attr(attr);

	KUNIT_ASSERT_EQ(test, kt_rtnl_del_link(c, ifindex), 0);
	roce_gid_mgmt_flush();
	/* every GID of the VLAN went with it (its link-local one too) */
	KUNIT_EXPECT_EQ(test, gids_not_of_ndev(bed_dev(), ROCE_PORT, bed.n), 0);
	KUNIT_EXPECT_FALSE(test, has_gid(bed_dev(), ROCE_PORT, &gid,
					 IB_GID_TYPE_ROCE_UDP_ENCAP, NULL));
}

static int set_mac(struct net_device *ndev, const u8 *mac)
{
	struct sockaddr sa = { .sa_family = ndev->type };
	int ret;

	/* as "ip link set N down; ip link set N address MAC; ... up" */
	memcpy(sa.sa_data, mac, ETH_ALEN);
	rtnl_lock();
	ret = dev_change_flags(ndev, ndev->flags & ~IFF_UP, NULL);
	if (!ret)
		ret = dev_set_mac_address(ndev, &sa, NULL);
	if (!ret)
		ret = dev_change_flags(ndev, ndev->flags | IFF_UP, NULL);
	rtnl_unlock();
	return ret;
}

static void mac_restore_action(void *arg)
{
	struct kunit *test = arg;

	KUNIT_EXPECT_EQ(test, set_mac(bed.n, mac_n), 0);
	roce_gid_mgmt_flush();
}

/* The MAC address changes: the default GIDs follow it. */
static void roce_gid_mac_change(struct kunit *test)
{
	struct kt_rtnl *c = new_case(test);
	union ib_gid old = default_gid(mac_n);
	int i;

	add_addr(test, c, bed.n, "192.0.2.1", 24);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							mac_restore_action,
							test), 0);
	KUNIT_ASSERT_EQ(test, set_mac(bed.n, mac_new), 0);
	roce_gid_mgmt_flush();

	expect_defaults(test, bed.hca, bed.n, mac_new);
	/* the old default GIDs are gone, the address is still there */
	for (i = 0; i < ARRAY_SIZE(both_types); i++)
		KUNIT_EXPECT_FALSE(test, has_gid(bed_dev(), ROCE_PORT, &old,
						 both_types[i], bed.n));
	expect_ip_gid(test, bed_dev(), "192.0.2.1", bed.n, true);
}

/*
 * A network namespace of its own: a process made by busybox
 * "unshare -n" that sleeps until the case ends.
 */
struct other_ns {
	struct pid *pid;
	struct net *net;
};

static int note_pid(struct subprocess_info *info, struct cred *new)
{
	struct other_ns *o = info->data;

	o->pid = get_pid(task_pid(current));
	return 0;
}

static void other_ns_action(void *arg)
{
	struct other_ns *o = arg;

	if (o->pid) {
		kill_pid(o->pid, SIGKILL, 1);
		put_pid(o->pid);
	}
	if (o->net)
		put_net(o->net);
}

static struct net *new_netns(struct kunit *test)
{
	static const char * const argv[] = {
		"/bin/busybox", "unshare", "-n", "/bin/busybox", "sleep",
		"3600", NULL
	};
	static const char * const envp[] = {
		"PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL
	};
	struct other_ns *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	struct subprocess_info *info;
	unsigned long deadline;

	KUNIT_ASSERT_NOT_NULL(test, o);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, other_ns_action,
							o), 0);
	/* the helper only reads them */
	info = call_usermodehelper_setup(argv[0], (char **)argv, (char **)envp,
					 GFP_KERNEL, note_pid, NULL, o);
	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_ASSERT_EQ(test, call_usermodehelper_exec(info, UMH_WAIT_EXEC),
			0);
	KUNIT_ASSERT_NOT_NULL(test, o->pid);

	/* unshare(CLONE_NEWNET) comes after the exec we waited for */
	deadline = jiffies + msecs_to_jiffies(NETNS_WAIT_MS);
	do {
		struct task_struct *task = get_pid_task(o->pid, PIDTYPE_PID);
		struct net *net = NULL;

		if (task) {
			net = get_net_ns_by_pid(task_pid_nr(task));
			put_task_struct(task);
		}
		if (!IS_ERR_OR_NULL(net) && !net_eq(net, &init_net)) {
			o->net = net;
			return net;
		}
		if (!IS_ERR_OR_NULL(net))
			put_net(net);
		msleep(20);
	} while (time_before(jiffies, deadline));
	KUNIT_FAIL_AND_ABORT(test, "no namespace of its own within %d ms",
			     NETNS_WAIT_MS);
	return NULL;
}

/* "ip link set NDEV netns NET", then up */
static int move_ndev(struct net_device *ndev, struct net *net)
{
	int ret;

	rtnl_lock();
	ret = dev_change_net_namespace(ndev, net, "fkhcat%d");
	if (!ret)
		ret = dev_change_flags(ndev, ndev->flags | IFF_UP, NULL);
	rtnl_unlock();
	return ret;
}

static void move_back_action(void *arg)
{
	struct kunit *test = arg;

	if (!net_eq(dev_net(bed.n), &init_net))
		KUNIT_EXPECT_EQ(test, move_ndev(bed.n, &init_net), 0);
	roce_gid_mgmt_flush();
}

/*
 * N moves to another namespace and back: its address GIDs go with the
 * addresses, its default GIDs come back at once in the new namespace,
 * and an address given to it there becomes a GID too (GIDs do not care
 * about namespaces; rdma_cm does).
 */
static void roce_gid_netns_move(struct kunit *test)
{
	struct kt_rtnl *c = new_case(test);
	struct kt_rtnl *c_other;
	struct net *net;

	add_addr(test, c, bed.n, "192.0.2.1", 24);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "192.0.2.1", bed.n, true);

	net = new_netns(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							move_back_action,
							test), 0);
	c_other = kt_rtnl_open(test, net);
	KUNIT_ASSERT_NOT_NULL(test, c_other);

	KUNIT_ASSERT_EQ(test, move_ndev(bed.n, net), 0);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "192.0.2.1", bed.n, false);
	expect_defaults(test, bed.hca, bed.n, mac_n);
	KUNIT_EXPECT_EQ(test, gids_not_of_ndev(bed_dev(), ROCE_PORT, bed.n), 0);

	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(c_other, RTM_NEWADDR, bed.n->ifindex,
					   "203.0.113.1", 24), 0);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "203.0.113.1", bed.n, true);

	/* back home without the address it had there */
	KUNIT_ASSERT_EQ(test, move_ndev(bed.n, &init_net), 0);
	roce_gid_mgmt_flush();
	expect_ip_gid(test, bed_dev(), "203.0.113.1", bed.n, false);
	expect_defaults(test, bed.hca, bed.n, mac_n);
}

/*
 * The scans: a port emptied by roce_del_all_netdev_gids() gets its
 * default and address GIDs back from rdma_roce_rescan_port() and
 * rdma_roce_rescan_device(); a device registered when N already has an
 * address, and one whose port is bound to N later, have that address's
 * GID at once.
 */
static void roce_gid_rescan(struct kunit *test)
{
	struct kt_rtnl *c = new_case(test);
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *late;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	add_addr(test, c, bed.n, "2001:db8:1::1", 64);
	roce_gid_mgmt_flush();

	roce_del_all_netdev_gids(bed_dev(), ROCE_PORT, bed.n);
	KUNIT_EXPECT_EQ(test, gids_of_ndev(bed_dev(), ROCE_PORT, bed.n), 0);
	KUNIT_EXPECT_EQ(test, fake_hca_hw_gid_count(bed.hca, ROCE_PORT), 0);
	rdma_roce_rescan_port(bed_dev(), ROCE_PORT);
	expect_defaults(test, bed.hca, bed.n, mac_n);
	expect_ip_gid(test, bed_dev(), "2001:db8:1::1", bed.n, true);

	roce_del_all_netdev_gids(bed_dev(), ROCE_PORT, bed.n);
	rdma_roce_rescan_device(bed_dev());
	expect_defaults(test, bed.hca, bed.n, mac_n);
	expect_ip_gid(test, bed_dev(), "2001:db8:1::1", bed.n, true);

	/* registered after the address: no flush, the scan did it */
	desc->name = "kurgidl%d";
	fake_hca_desc_set_eth(desc, ROCE_PORT);
	desc->port[0].roce_v1 = true;
	desc->port[0].netdev = bed.n;
	late = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, late);
	expect_defaults(test, late, bed.n, mac_n);
	expect_ip_gid(test, &late->ibdev, "2001:db8:1::1", bed.n, true);

	/* a port bound to N after registration */
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&late->ibdev, NULL,
						   ROCE_PORT), 0);
	KUNIT_EXPECT_EQ(test, gids_of_ndev(&late->ibdev, ROCE_PORT, bed.n), 0);
	KUNIT_ASSERT_EQ(test, ib_device_set_netdev(&late->ibdev, bed.n,
						   ROCE_PORT), 0);
	expect_defaults(test, late, bed.n, mac_n);
	expect_ip_gid(test, &late->ibdev, "2001:db8:1::1", bed.n, true);
}

/*
 * ib_init_ah_attr_from_wc() on the bed's RoCE port, for a call expected
 * to fail: an address vector it makes anyway is released at once, so a
 * core bug costs a failed expectation, not a GID reference that outlives
 * the suite.
 */
static int ah_from_wc_put(const struct ib_wc *wc,
			  const union rdma_network_hdr *hdr)
{
	struct rdma_ah_attr ah;
	int ret;

	ret = ib_init_ah_attr_from_wc(bed_dev(), ROCE_PORT, wc, &hdr->ibgrh,
				      &ah);
	if (!ret)
		rdma_destroy_ah_attr(&ah);
	return ret;
}

/*
 * Destination MACs on a VLAN: a unicast GID resolved through the VLAN's
 * neighbour, a multicast and a link-local GID mapped without asking; the
 * answer to a packet received on the VLAN leaves from the VLAN's GID.
 */
static void roce_gid_dmac_on_vlan(struct kunit *test)
{
	static const u8 mc6_mac[ETH_ALEN] = { 0x33, 0x33, 0x00, 0x00, 0x00,
					      0x01 };
	static const u8 mc4_mac[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x02,
					      0x03 };
	struct kt_rtnl *c = new_case(test);
	union ib_gid sgid = gid_of("198.51.100.1");
	union ib_gid peer = gid_of("198.51.100.2");
	union ib_gid ll = default_gid(peer_mac);
	union rdma_network_hdr hdr = {};
	const struct ib_gid_attr *attr;
	struct rdma_ah_attr ah = {};
	struct net_device *vlan;
	struct ib_wc wc = {};
	int ifindex;

	vlan = add_vlan(test, c, bed.n, "kurgid.100", VLAN_ID, &ifindex);
	add_addr(test, c, vlan, "198.51.100.1", 24);
	KUNIT_ASSERT_EQ(test, kt_rtnl_neigh(c, vlan->ifindex, "198.51.100.2",
					    peer_mac), 0);
	roce_gid_mgmt_flush();

	attr = rdma_find_gid_by_port(bed_dev(), &sgid,
				     IB_GID_TYPE_ROCE_UDP_ENCAP, ROCE_PORT,
				     vlan);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	ah.type = RDMA_AH_ATTR_TYPE_ROCE;
	ah.port_num = ROCE_PORT;
	ah.ah_flags = IB_AH_GRH;
	ah.grh.sgid_attr = attr;
	ah.grh.sgid_index = attr->index;

	ah.grh.dgid = peer;
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(bed_dev(), &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, peer_mac, ETH_ALEN);

	ah.grh.dgid = gid_of("ff0e::1");
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(bed_dev(), &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, mc6_mac, ETH_ALEN);
	ah.grh.dgid = gid_of("239.1.2.3");
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(bed_dev(), &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, mc4_mac, ETH_ALEN);

	ah.grh.dgid = ll;
	KUNIT_EXPECT_EQ(test, ib_resolve_eth_dmac(bed_dev(), &ah), 0);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, ah.grh.hop_limit, 1);
	rdma_put_gid_attr(attr);

	/* a RoCE v2 IPv4 packet from the peer, tagged with the VLAN */
	hdr.roce4grh.version = 4;
	hdr.roce4grh.ihl = 5;
	hdr.roce4grh.ttl = 60;
	hdr.roce4grh.protocol = IPPROTO_UDP;
	hdr.roce4grh.saddr = in_aton("198.51.100.2");
	hdr.roce4grh.daddr = in_aton("198.51.100.1");
	hdr.roce4grh.check = ip_fast_csum((u8 *)&hdr.roce4grh, 5);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 4);
	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_VLAN;
	wc.vlan_id = VLAN_ID;
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(bed_dev(), ROCE_PORT, &wc,
						      &hdr.ibgrh, &ah), 0);
	KUNIT_EXPECT_EQ(test, ah.grh.sgid_attr->gid_type,
			IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(ah.grh.sgid_attr->ndev),
			    vlan);
	KUNIT_EXPECT_MEMEQ(test, ah.grh.dgid.raw, peer.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, peer_mac, ETH_ALEN);
	rdma_destroy_ah_attr(&ah);

	/* untagged, it matches no GID of that address: it is on the VLAN */
	wc.wc_flags = IB_WC_GRH;
	KUNIT_EXPECT_EQ(test, ah_from_wc_put(&wc, &hdr), -ENOENT);
	/* RoCE without IB_WC_GRH is refused */
	wc.wc_flags = IB_WC_WITH_VLAN;
	KUNIT_EXPECT_EQ(test, ah_from_wc_put(&wc, &hdr), -EPROTOTYPE);
}

/*
 * The network header of a receive: a RoCE v1 GRH (IP version 6, next
 * header the BTH) is not taken for RoCE v2 IPv6.
 */
static void roce_gid_header_kinds(struct kunit *test)
{
	struct kt_rtnl *c = new_case(test);
	union ib_gid peer = gid_of("2001:db8:1::2");
	union ib_gid own = gid_of("2001:db8:1::1");
	union rdma_network_hdr hdr = {};
	struct rdma_ah_attr ah;
	struct ib_wc wc = { .wc_flags = IB_WC_GRH };

	add_addr(test, c, bed.n, "2001:db8:1::1", 64);
	KUNIT_ASSERT_EQ(test, kt_rtnl_neigh(c, bed.n->ifindex, "2001:db8:1::2",
					    peer_mac), 0);
	roce_gid_mgmt_flush();

	hdr.ibgrh.version_tclass_flow = cpu_to_be32(6 << 28);
	hdr.ibgrh.hop_limit = 64;
	hdr.ibgrh.sgid = peer;
	hdr.ibgrh.dgid = own;
	hdr.ibgrh.next_hdr = 0x1b;	/* the BTH: RoCE v1 */
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(&hdr), 6);
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(bed_dev(), ROCE_PORT, &wc,
						      &hdr.ibgrh, &ah), 0);
	KUNIT_EXPECT_EQ(test, ah.grh.sgid_attr->gid_type, IB_GID_TYPE_ROCE);
	KUNIT_EXPECT_MEMEQ(test, ah.roce.dmac, peer_mac, ETH_ALEN);
	rdma_destroy_ah_attr(&ah);

	hdr.ibgrh.next_hdr = IPPROTO_UDP;	/* RoCE v2 */
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(bed_dev(), ROCE_PORT, &wc,
						      &hdr.ibgrh, &ah), 0);
	KUNIT_EXPECT_EQ(test, ah.grh.sgid_attr->gid_type,
			IB_GID_TYPE_ROCE_UDP_ENCAP);
	rdma_destroy_ah_attr(&ah);
}

static struct kunit_case rdma_roce_gid_cases[] = {
	KUNIT_CASE(roce_gid_types_and_defaults),
	KUNIT_CASE(roce_gid_ip_addresses),
	KUNIT_CASE(roce_gid_vlan),
	KUNIT_CASE(roce_gid_mac_change),
	KUNIT_CASE(roce_gid_netns_move),
	KUNIT_CASE(roce_gid_rescan),
	KUNIT_CASE(roce_gid_dmac_on_vlan),
	KUNIT_CASE(roce_gid_header_kinds),
	{}
};

/* The suite's exit: the HCA, then the net device it was bound to */
static void rdma_roce_gid_suite_exit(struct kunit_suite *suite)
{
	if (bed.hca)
		fake_hca_destroy(bed.hca);
	fake_hca_netdev_free(bed.n);
	memset(&bed, 0, sizeof(bed));
}

static int rdma_roce_gid_suite_init(struct kunit_suite *suite)
{
	struct fake_hca_desc *desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	struct fake_hca *hca;
	int ret;

	if (!desc)
		return -ENOMEM;
	ret = fake_hca_netdev_new_arp(&bed.n, mac_n);
	if (!ret) {
		fake_hca_desc_init(desc, 2);
		desc->name = "kurgid%d";
		fake_hca_desc_set_eth(desc, ROCE_PORT);
		desc->port[0].roce_v1 = true;
		desc->port[0].netdev = bed.n;
		hca = fake_hca_create_registered(desc);
		if (IS_ERR(hca))
			ret = PTR_ERR(hca);
		else
			bed.hca = hca;
	}
	kfree(desc);
	if (ret)
		rdma_roce_gid_suite_exit(suite);
	return ret;
}

static struct kunit_suite rdma_roce_gid_suite = {
	.name = "rdma_roce_gid",
	.suite_init = rdma_roce_gid_suite_init,
	.suite_exit = rdma_roce_gid_suite_exit,
	.test_cases = rdma_roce_gid_cases,
};

kunit_test_suite(rdma_roce_gid_suite);

MODULE_DESCRIPTION("KUnit tests of RoCE GIDs that follow the IP stack");
MODULE_LICENSE("Dual BSD/GPL");
