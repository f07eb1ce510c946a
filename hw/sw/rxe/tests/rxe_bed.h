/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bed of rxe's suites that drive the module (rdma_rxe_ud,
 * rdma_rxe_rc): two soft-RoCE devices on the two ends of a cable of the
 * suite's own -- two Ethernet net devices whose transmit is the other's
 * receive, the second in a network namespace of its own -- with IPv4 and
 * IPv6 addresses and permanent neighbours, so that the core's RoCE GID
 * management gives both devices their GIDs of both types.
 *
 * The cable is the suites' test hook on the receive path: it can damage
 * a RoCE frame's ICRC (ku_damage), look at each RoCE frame as its sender
 * made it (ku_peek: linear or with page fragments; the cable takes
 * fragments, NETIF_F_SG) and decide the fate of each RoCE frame
 * (ku_fate: pass, drop, deliver twice, or hold it back until the next
 * one has gone, which reorders the two).  A frame is linearized when it
 * is delivered, not before: a frame held back keeps its fragments.
 *
 * The bed is made by the first case that needs it and kept until the
 * suite ends (ku_bed_free() from its suite_exit): making it costs two
 * device registrations and the GID work of every address.
 */
#ifndef RXE_BED_H
#define RXE_BED_H

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/inet.h>
#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sched/signal.h>
#include <linux/umh.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <kunit/rdma_rtnl.h>

#include "../rxe.h"
#include "../rxe_test.h"

/* ------------------------------------------------------------------
 * The cable
 */

/**
 * struct ku_end - one end of the cable
 * @peer: the other end
 */
struct ku_end {
	struct net_device	*peer;
};

/* RoCE frames still to damage (their ICRC's last byte) */
static atomic_t ku_damage = ATOMIC_INIT(0);

#define KU_HDRS	(ETH_HLEN + sizeof(struct iphdr) + sizeof(struct udphdr))

static inline bool ku_roce_frame(const struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	const struct iphdr *iph = (const struct iphdr *)(eth + 1);
	const struct udphdr *udph = (const struct udphdr *)(iph + 1);

	if (skb->len < ETH_HLEN + sizeof(*iph) + sizeof(*udph))
		return false;
	if (eth->h_proto == htons(ETH_P_IBOE))
		return true;
	return eth->h_proto == htons(ETH_P_IP) &&
	       iph->protocol == IPPROTO_UDP &&
	       udph->dest == htons(RXE_ROCE_V2_PORT);
}

/* what becomes of a RoCE frame on the cable (ku_fate) */
enum ku_fate {
	KU_PASS,
	KU_DROP,
	KU_DUP,		/* delivered twice */
	KU_HOLD,	/* delivered after the next frame */
};

/*
 * The fate of the @n-th RoCE frame since ku_fate_set(), both ways; NULL:
 * every frame passes.
 */
static enum ku_fate (*ku_fate)(unsigned int n);
static atomic_t ku_frames = ATOMIC_INIT(0);
/* a frame held back (KU_HOLD) and the end it goes to */
static struct sk_buff *ku_held;
static struct net_device *ku_held_peer;
static DEFINE_SPINLOCK(ku_held_lock);

/*
 * Into @peer as virtio-net receives a frame: its first KU_LINEAR bytes
 * linear, the rest in page fragments (here the sender's, as it sent
 * them), so that a payload lies partly in each.
 */
#define KU_LINEAR	128

static inline void ku_deliver(struct sk_buff *skb, struct net_device *peer)
{
	if (!pskb_may_pull(skb, min_t(unsigned int, skb->len, KU_LINEAR))) {
		dev_kfree_skb_any(skb);
		return;
	}
	skb_scrub_packet(skb, false);
	skb->protocol = eth_type_trans(skb, peer);
	netif_rx(skb);
}

/* Deliver the frame held back, if any. */
static inline void ku_release(void)
{
	struct net_device *peer;
	struct sk_buff *skb;

	spin_lock_bh(&ku_held_lock);
	skb = ku_held;
	peer = ku_held_peer;
	ku_held = NULL;
	spin_unlock_bh(&ku_held_lock);
	if (skb)
		ku_deliver(skb, peer);
}

/*
 * A look at each RoCE frame that goes into the cable at @from, as its
 * sender made it (NULL: none), in the sender's context; its fate unless
 * KU_PASS (then ku_fate's).
 */
static enum ku_fate (*ku_peek)(const struct sk_buff *skb,
			       struct net_device *from);

/* Set the cable's hook (NULL: none), counting frames from 1 again. */
static inline void ku_fate_set(enum ku_fate (*fate)(unsigned int n))
{
	WRITE_ONCE(ku_fate, NULL);
	ku_release();
	atomic_set(&ku_frames, 0);
	WRITE_ONCE(ku_fate, fate);
}

static netdev_tx_t ku_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct ku_end *end = netdev_priv(dev);
	struct net_device *peer = READ_ONCE(end->peer);
	enum ku_fate (*fate)(unsigned int n) = READ_ONCE(ku_fate);
	enum ku_fate (*peek)(const struct sk_buff *skb,
			     struct net_device *from) = READ_ONCE(ku_peek);
	enum ku_fate f = KU_PASS;
	struct sk_buff *dup;

	/* the link, IP and UDP headers linear (rxe's are already) */
	if (!peer || !(READ_ONCE(peer->flags) & IFF_UP) ||
	    (skb->len >= KU_HDRS && !pskb_may_pull(skb, KU_HDRS))) {
		dev_kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	if (ku_roce_frame(skb)) {
		if (peek)
			f = peek(skb, dev);
		if (atomic_add_unless(&ku_damage, -1, 0) &&
		    !skb_ensure_writable(skb, skb->len))
			skb->data[skb->len - 1] ^= 0xff;
		if (fate && f == KU_PASS)
			f = fate(atomic_inc_return(&ku_frames));
	}
	switch (f) {
	case KU_DROP:
		dev_kfree_skb(skb);
		return NETDEV_TX_OK;
	case KU_DUP:
		dup = skb_copy(skb, GFP_ATOMIC);
		if (dup)
			ku_deliver(dup, peer);
		break;
	case KU_HOLD:
		spin_lock_bh(&ku_held_lock);
		if (!ku_held) {
			ku_held = skb;
			ku_held_peer = peer;
			skb = NULL;
		}
		spin_unlock_bh(&ku_held_lock);
		if (!skb)
			return NETDEV_TX_OK;
		break;
	default:
		break;
	}
	ku_deliver(skb, peer);
	if (f != KU_HOLD)
		ku_release();
	return NETDEV_TX_OK;
}

static const struct net_device_ops ku_netdev_ops = {
	.ndo_start_xmit = ku_xmit,
	.ndo_set_mac_address = eth_mac_addr,
};

static void ku_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &ku_netdev_ops;
	dev->priv_flags |= IFF_NO_QUEUE;
	/* page fragments: rxe sends payload in place */
	dev->hw_features |= NETIF_F_SG;
	dev->features |= NETIF_F_SG;
	eth_hw_addr_random(dev);
}

/* ------------------------------------------------------------------
 * The bed: two devices, their addresses and GIDs
 */

/**
 * struct ku_side - one device of the bed
 * @ndev: its end of the cable
 * @ibdev: the soft-RoCE device on it, referenced
 * @ip4: its IPv4 address
 * @ip6: its IPv6 address
 */
struct ku_side {
	struct net_device	*ndev;
	struct ib_device	*ibdev;
	const char		*ip4;
	const char		*ip6;
};

static struct ku_side ku_side[2] = {
	{ .ip4 = "10.77.0.1", .ip6 = "fd00:77::1" },
	{ .ip4 = "10.77.0.2", .ip6 = "fd00:77::2" },
};

/* the bed was made (ku_bed_ok: and is whole) */
static bool ku_bed_made, ku_bed_ok;

/*
 * The second device's namespace: both ends in one namespace would make
 * the peer's address a local one for the IP stack (no neighbour, a
 * martian source).  A process made by busybox "unshare -n" that sleeps
 * holds it until the suite ends.
 */
static struct pid *ku_ns_pid;
static struct net *ku_ns;

#define KU_NETNS_WAIT_MS	5000

static int ku_note_pid(struct subprocess_info *info, struct cred *new)
{
	ku_ns_pid = get_pid(task_pid(current));
	return 0;
}

static inline struct net *ku_new_netns(struct kunit *test)
{
	static const char * const argv[] = {
		"/bin/busybox", "unshare", "-n", "/bin/busybox", "sleep",
		"3600", NULL
	};
	static const char * const envp[] = {
		"PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL
	};
	struct subprocess_info *info;
	unsigned long deadline;

	/* the helper only reads them */
	info = call_usermodehelper_setup(argv[0], (char **)argv, (char **)envp,
					 GFP_KERNEL, ku_note_pid, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_ASSERT_EQ(test, call_usermodehelper_exec(info, UMH_WAIT_EXEC),
			0);
	KUNIT_ASSERT_NOT_NULL(test, ku_ns_pid);
	/* unshare(CLONE_NEWNET) comes after the exec we waited for */
	deadline = jiffies + msecs_to_jiffies(KU_NETNS_WAIT_MS);
	do {
		struct task_struct *task = get_pid_task(ku_ns_pid, PIDTYPE_PID);
		struct net *net = NULL;

		if (task) {
			net = get_net_ns_by_pid(task_pid_nr(task));
			put_task_struct(task);
		}
		if (!IS_ERR_OR_NULL(net) && !net_eq(net, &init_net))
			return net;
		if (!IS_ERR_OR_NULL(net))
			put_net(net);
		usleep_range(2000, 4000);
	} while (time_before(jiffies, deadline));
	KUNIT_FAIL_AND_ABORT(test, "no namespace of its own within %d ms",
			     KU_NETNS_WAIT_MS);
	return NULL;
}

/* the GID of @s of @type for @what: 4 (its IPv4 address), 6, or 0 (the
 * default link-local GID)
 */
static inline void ku_gid(struct ku_side *s, int what, union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (what == 4) {
		ipv6_addr_set_v4mapped(in_aton(s->ip4),
				       (struct in6_addr *)gid->raw);
	} else if (what == 6) {
		in6_pton(s->ip6, -1, gid->raw, -1, NULL);
	} else {
		gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
		addrconf_addr_eui48(&gid->raw[8], s->ndev->dev_addr);
	}
}

/* Wait until the core gave @s the GID (@what, @type); its index or -1. */
static inline int ku_gid_index(struct ku_side *s, int what, enum ib_gid_type type)
{
	unsigned long end = jiffies + 5 * HZ;
	const struct ib_gid_attr *attr;
	union ib_gid gid;
	int index;

	ku_gid(s, what, &gid);
	do {
		attr = rdma_find_gid(s->ibdev, &gid, type, NULL);
		if (!IS_ERR(attr)) {
			index = attr->index;
			rdma_put_gid_attr(attr);
			return index;
		}
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	return -1;
}

/*
 * Whether @s's GID @what of @type left its table within five seconds
 * (the core drops a GID in a work item after its address goes).
 */
static inline bool ku_gid_gone(struct ku_side *s, int what,
			       enum ib_gid_type type)
{
	unsigned long end = jiffies + 5 * HZ;
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	ku_gid(s, what, &gid);
	do {
		attr = rdma_find_gid(s->ibdev, &gid, type, NULL);
		if (IS_ERR(attr))
			return true;
		rdma_put_gid_attr(attr);
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	return false;
}

static inline void ku_bed_free(void)
{
	int i;

	ku_fate_set(NULL);
	for (i = 0; i < 2; i++) {
		if (ku_side[i].ibdev)
			ib_device_put(ku_side[i].ibdev);
		ku_side[i].ibdev = NULL;
	}
	for (i = 0; i < 2; i++) {
		if (!ku_side[i].ndev)
			continue;
		/* the device goes with it (NETDEV_UNREGISTER) */
		unregister_netdev(ku_side[i].ndev);
		free_netdev(ku_side[i].ndev);
		ku_side[i].ndev = NULL;
	}
	if (ku_ns_pid) {
		kill_pid(ku_ns_pid, SIGKILL, 1);
		put_pid(ku_ns_pid);
		ku_ns_pid = NULL;
	}
	if (ku_ns)
		put_net(ku_ns);
	ku_ns = NULL;
	ku_bed_made = false;
	ku_bed_ok = false;
}

static inline void ku_bed(struct kunit *test)
{
	static const char * const name[] = { "rxek0", "rxek1" };
	ktime_t t0 = ktime_get();
	struct kt_rtnl *c;
	int i, ret;

	if (ku_bed_made) {
		KUNIT_ASSERT_TRUE_MSG(test, ku_bed_ok, "no bed: see case 1");
		return;
	}
	ku_bed_made = true;
	for (i = 0; i < 2; i++) {
		ku_side[i].ndev = alloc_netdev(sizeof(struct ku_end), "rxeku%d",
					       NET_NAME_ENUM, ku_setup);
		KUNIT_ASSERT_NOT_NULL(test, ku_side[i].ndev);
		ret = register_netdev(ku_side[i].ndev);
		if (ret) {
			free_netdev(ku_side[i].ndev);
			ku_side[i].ndev = NULL;
		}
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	for (i = 0; i < 2; i++) {
		struct ku_end *end = netdev_priv(ku_side[i].ndev);

		WRITE_ONCE(end->peer, ku_side[!i].ndev);
	}
	ku_ns = ku_new_netns(test);
	kunit_info(test, "namespace at %lld ms\n",
		   ktime_ms_delta(ktime_get(), t0));
	rtnl_lock();
	ret = dev_change_net_namespace(ku_side[1].ndev, ku_ns, "rxeku%d");
	for (i = 0; i < 2 && !ret; i++)
		ret = dev_change_flags(ku_side[i].ndev,
				       ku_side[i].ndev->flags | IFF_UP, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	kunit_info(test, "moved and up at %lld ms\n",
		   ktime_ms_delta(ktime_get(), t0));
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, rxe_test.device_add(name[i],
							  ku_side[i].ndev), 0);
		kunit_info(test, "device %d at %lld ms\n", i,
			   ktime_ms_delta(ktime_get(), t0));
		ku_side[i].ibdev = ib_device_get_by_netdev(ku_side[i].ndev,
							   RDMA_DRIVER_RXE);
		KUNIT_ASSERT_NOT_NULL(test, ku_side[i].ibdev);
	}
	kunit_info(test, "devices at %lld ms\n",
		   ktime_ms_delta(ktime_get(), t0));
	for (i = 0; i < 2; i++) {
		int ifi = ku_side[i].ndev->ifindex;
		const u8 *mac = ku_side[!i].ndev->dev_addr;

		c = kt_rtnl_open(test, dev_net(ku_side[i].ndev));
		KUNIT_ASSERT_NOT_NULL(test, c);

		KUNIT_ASSERT_EQ(test, kt_rtnl_addr(c, RTM_NEWADDR, ifi,
						   ku_side[i].ip4, 24), 0);
		KUNIT_ASSERT_EQ(test, kt_rtnl_addr(c, RTM_NEWADDR, ifi,
						   ku_side[i].ip6, 64), 0);
		KUNIT_ASSERT_EQ(test, kt_rtnl_neigh(c, ifi, ku_side[!i].ip4,
						    mac), 0);
		KUNIT_ASSERT_EQ(test, kt_rtnl_neigh(c, ifi, ku_side[!i].ip6,
						    mac), 0);
	}
	kunit_info(test, "addresses at %lld ms\n",
		   ktime_ms_delta(ktime_get(), t0));
	/* the GIDs of the addresses: every case needs some */
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_GE(test, ku_gid_index(&ku_side[i], 6,
						   IB_GID_TYPE_ROCE_UDP_ENCAP),
				0);
	ku_bed_ok = true;
	kunit_info(test, "bed made in %lld ms\n",
		   ktime_ms_delta(ktime_get(), t0));
}

#endif /* RXE_BED_H */
