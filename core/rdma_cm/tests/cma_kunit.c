// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_cma": rdma_cm ids on fake RoCE devices, as far as
 * they go without a peer: address and route resolution and their events,
 * refusals in the wrong state, wildcard listeners across devices (also
 * one registered later), device removal with ids in every reachable
 * state, ADDR_CHANGE, destroy racing the address callback, restrack.
 *
 * The suite's bed (rdma_cma_suite_init(); the cases share it, its
 * registrations are what costs):
 *
 *   A  "fkhcat%d", MAC mac_a, up with ARP; fake HCA "kucma%d" with its
 *      RoCE port 1 bound to A and the GID ::ffff:192.0.2.1
 *   B  MAC mac_b, up with ARP; no RDMA device on it
 *
 * Each case (new_ctx()) checks that it finds the bed bare (no addresses,
 * no neighbours, A with mac_a, the HCA there without CM IDs), then gives
 * it its network with rtnetlink: 192.0.2.1/24 on A with the permanent
 * neighbour 192.0.2.2 -> peer_mac, 198.51.100.1/24 on B with
 * 198.51.100.2.  Its end (bed_reset()) puts back what the case changed
 * (A's MAC; the HCA, made anew if the case removed it), proves with a
 * resolution of its own that both queues that call ids back are done with
 * the case's work (bed_round_trip()), and takes the network away again:
 * the addresses, and every neighbour entry of A and B.
 *
 * Connecting, accepting and everything after need a peer: over iWARP
 * with iw_cm plus the fake iWARP device (rdma_cma_conn), over InfiniBand
 * on the loop fabric (rdma_cma_ib).  On RoCE the suite checks what needs
 * none: the GID entry an id binds and gives back, the local path record
 * field by field, configfs's default_roce_mode and default_roce_tos, and
 * multicast without an SA (MGIDs, the IGMP and MLD joins on the net
 * device, the event's address vector, the refusals).  The fake HCA has
 * no GSI QP, so the IB CM refuses a RoCE REQ here
 * (rdma_cma_roce_connect_no_gsi).
 *
 * Waits are barriers, never sleeps: address resolution calls back from
 * ib_core's ordered "ib_addr" workqueue, route events come from
 * rdma_cm's ordered cma_wq.  A resolution started after the ids of a
 * case, once both its events arrived, proves that every callback and
 * event queued before it has run (sentinel_resolve()).
 *
 * Module parameter full (the full tier): the race loops' full counts;
 * the quick tier runs each with fewer rounds over the same paths.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <kunit/rdma_nldev.h>
#include <kunit/rdma_rtnl.h>
#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/inet.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/delay.h>
#include <linux/wait.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/netlink.h>
#include <rdma/ib_cache.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_cm_ib.h>
#include <rdma/restrack.h>

#include "../../ib_core/core_priv.h"
#include "../cma_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static bool full;
module_param(full, bool, 0444);
MODULE_PARM_DESC(full, "full tier: the race loops at their full counts");

/* @quick rounds in the quick tier, @all in the full one */
static unsigned int rounds(unsigned int quick, unsigned int all)
{
	return full ? all : quick;
}

#define ROCE_PORT	1
#define EV_MAX		16
#define EV_WAIT		(10 * HZ)
#define TEST_PORT	48000

static const u8 mac_a[ETH_ALEN] = { 0x02, 0xad, 0xd0, 0x00, 0x01, 0x0a };
static const u8 mac_b[ETH_ALEN] = { 0x02, 0xad, 0xd0, 0x00, 0x01, 0x0b };
static const u8 mac_new[ETH_ALEN] = { 0x02, 0xad, 0xd0, 0x00, 0x01, 0x0c };
static const u8 peer_mac[ETH_ALEN] = { 0x02, 0x5e, 0xe0, 0x00, 0x01, 0x02 };

/* ------------------------------------------------------------------
 * rtnetlink (<kunit/rdma_rtnl.h>): addresses /24 and neighbours
 */

/* "ip address add|del IP/24 dev DEV" (@type RTM_NEWADDR or RTM_DELADDR) */
static int rt_try_addr4(struct kt_rtnl *c, u16 type, struct net_device *ndev,
			const char *ip)
{
	return kt_rtnl_addr(c, type, ndev->ifindex, ip, 24);
}

static void rt_addr4(struct kunit *test, struct kt_rtnl *c,
		     struct net_device *ndev, const char *ip)
{
	KUNIT_ASSERT_EQ_MSG(test, rt_try_addr4(c, RTM_NEWADDR, ndev, ip), 0,
			    "%s", ip);
}

static int rt_try_neigh4(struct kt_rtnl *c, struct net_device *ndev,
			 const char *ip, const u8 *mac)
{
	return kt_rtnl_neigh(c, ndev->ifindex, ip, mac);
}

static void rt_neigh4(struct kunit *test, struct kt_rtnl *c,
		      struct net_device *ndev, const char *ip, const u8 *mac)
{
	KUNIT_ASSERT_EQ_MSG(test, rt_try_neigh4(c, ndev, ip, mac), 0, "%s",
			    ip);
}

/* ------------------------------------------------------------------
 * The test network and devices
 */

struct cma_ctx {
	struct kunit *test;
	struct kt_rtnl *rtc;
	struct net_device *a;
	struct net_device *b;
	struct fake_hca *hca;
	struct ib_device *dev;
};

/* Made by rdma_cma_suite_init(), shared by the cases */
static struct {
	struct net_device *a;
	struct net_device *b;
	struct fake_hca *hca;	/* NULL while a case removed it */
} bed;

/* A fake HCA whose RoCE port 1 is bound to @ndev and owns @ip's GID. */
static struct fake_hca *new_roce_hca(struct kunit *test,
				     struct net_device *ndev, const char *ip)
{
	struct ib_gid_attr attr = { .gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP };
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;
	union ib_gid gid;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kucma%d";
	fake_hca_desc_set_eth(desc, ROCE_PORT);
	desc->port[0].netdev = ndev;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	if (ip) {
		ipv6_addr_set_v4mapped(in_aton(ip), (struct in6_addr *)gid.raw);
		RCU_INIT_POINTER(attr.ndev, ndev);
		KUNIT_ASSERT_EQ(test, ib_cache_gid_add(&hca->ibdev, ROCE_PORT,
						       &gid, &attr), 0);
	}
	return hca;
}

/* The bed's HCA: RoCE port 1 bound to A, with 192.0.2.1's GID */
static int bed_new_hca(void)
{
	struct ib_gid_attr attr = { .gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP };
	struct fake_hca_desc *desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	struct fake_hca *hca;
	union ib_gid gid;
	int ret;

	if (!desc)
		return -ENOMEM;
	fake_hca_desc_init(desc, 1);
	desc->name = "kucma%d";
	fake_hca_desc_set_eth(desc, ROCE_PORT);
	desc->port[0].netdev = bed.a;
	hca = fake_hca_create_registered(desc);
	kfree(desc);
	if (IS_ERR(hca))
		return PTR_ERR(hca);
	ipv6_addr_set_v4mapped(in_aton("192.0.2.1"), (struct in6_addr *)gid.raw);
	RCU_INIT_POINTER(attr.ndev, bed.a);
	ret = ib_cache_gid_add(&hca->ibdev, ROCE_PORT, &gid, &attr);
	if (ret) {
		fake_hca_destroy(hca);
		return ret;
	}
	bed.hca = hca;
	return 0;
}

/* A case removes the bed's HCA; bed_reset() makes it anew. */
static void bed_remove_hca(struct cma_ctx *ctx)
{
	struct fake_hca *hca = bed.hca;

	bed.hca = NULL;
	ctx->hca = NULL;
	fake_hca_destroy(hca);
}

/* As "ip link set DEV down; ip link set DEV address MAC; ... up" */
static int set_mac(struct net_device *ndev, const u8 *mac)
{
	struct sockaddr sa = { .sa_family = ndev->type };
	int ret;

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

static bool has_neigh(struct net_device *ndev, const char *ip)
{
	__be32 a = in_aton(ip);
	struct neighbour *n = neigh_lookup(&arp_tbl, &a, ndev);

	if (n)
		neigh_release(n);
	return n;
}

static int cm_ids_of(struct ib_device *dev);
static void bed_round_trip(struct kunit *test);

/*
 * The bed as every case finds it: A and B up with ARP, A with mac_a,
 * without addresses or the neighbours of the cases; the HCA there, with
 * no CM ID.
 */
static void bed_expect_bare(struct kunit *test)
{
	static const char * const peers[] = { "192.0.2.2", "198.51.100.2" };
	struct net_device *nds[] = { bed.a, bed.b };
	bool v4_addr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, bed.hca);
	KUNIT_ASSERT_EQ(test, cm_ids_of(&bed.hca->ibdev), 0);
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
		KUNIT_ASSERT_FALSE_MSG(test, has_neigh(nds[i], peers[i]),
				       "neighbour %s left", peers[i]);
	}
	KUNIT_ASSERT_TRUE(test, ether_addr_equal(bed.a->dev_addr, mac_a));
}

/*
 * KUnit action, the end of a case (its ids and own devices went): A's MAC
 * and the HCA as they were, a round trip through both callback queues
 * behind whatever the case left on them, then its addresses and every
 * neighbour entry of A and B gone.
 */
static void bed_reset(void *arg)
{
	struct cma_ctx *ctx = arg;
	struct kunit *test = ctx->test;
	int ret;

	if (!ether_addr_equal(bed.a->dev_addr, mac_a))
		KUNIT_EXPECT_EQ_MSG(test, set_mac(bed.a, mac_a), 0,
				    "cleanup: MAC of %s", bed.a->name);
	if (!bed.hca)
		KUNIT_EXPECT_EQ_MSG(test, bed_new_hca(), 0,
				    "cleanup: the HCA not made again");
	/* the GIDs A's new MAC and addresses give, for the round trip */
	roce_gid_mgmt_flush();
	/* taking A down flushed its neighbours: the round trip's one */
	KUNIT_EXPECT_EQ(test, rt_try_neigh4(ctx->rtc, bed.a, "192.0.2.2",
					    peer_mac), 0);
	if (bed.hca) {
		bed_round_trip(test);
		KUNIT_EXPECT_EQ_MSG(test, cm_ids_of(&bed.hca->ibdev), 0,
				    "cleanup: CM IDs left");
	}
	ret = rt_try_addr4(ctx->rtc, RTM_DELADDR, bed.a, "192.0.2.1");
	KUNIT_EXPECT_TRUE_MSG(test, !ret || ret == -EADDRNOTAVAIL,
			      "cleanup: address of A: %d", ret);
	ret = rt_try_addr4(ctx->rtc, RTM_DELADDR, bed.b, "198.51.100.1");
	KUNIT_EXPECT_TRUE_MSG(test, !ret || ret == -EADDRNOTAVAIL,
			      "cleanup: address of B: %d", ret);
	neigh_ifdown(&arp_tbl, bed.a);
	neigh_ifdown(&arp_tbl, bed.b);
}

static struct cma_ctx *new_ctx(struct kunit *test)
{
	struct cma_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	bed_expect_bare(test);
	ctx->test = test;
	ctx->rtc = kt_rtnl_open(test, &init_net);
	KUNIT_ASSERT_NOT_NULL(test, ctx->rtc);
	ctx->a = bed.a;
	ctx->b = bed.b;
	ctx->hca = bed.hca;
	ctx->dev = &bed.hca->ibdev;
	/* after the case's ids and devices, before its socket goes */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, bed_reset, ctx),
			0);
	rt_addr4(test, ctx->rtc, ctx->a, "192.0.2.1");
	rt_neigh4(test, ctx->rtc, ctx->a, "192.0.2.2", peer_mac);
	rt_addr4(test, ctx->rtc, ctx->b, "198.51.100.1");
	rt_neigh4(test, ctx->rtc, ctx->b, "198.51.100.2", peer_mac);
	/* GIDs follow addresses (roce_gid_mgmt.c): 192.0.2.1's is there */
	roce_gid_mgmt_flush();
	return ctx;
}

static struct sockaddr *ip4(struct sockaddr_storage *ss, const char *ip,
			    u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = in_aton(ip);
	sin->sin_port = htons(port);
	return (struct sockaddr *)ss;
}

/* ------------------------------------------------------------------
 * An event log per id (its context)
 */

struct ev_log {
	struct kunit *test;
	spinlock_t lock;		/* the arrays and counters */
	wait_queue_head_t wq;
	enum rdma_cm_event_type ev[EV_MAX];
	int status[EV_MAX];
	unsigned int n;
	/* what the handler returns, per event type */
	int ret[RDMA_CM_EVENT_TIMEWAIT_EXIT + 1];
	/* destroy the id from a work on this event (-1: never) */
	int destroy_on;
	struct work_struct destroy_work;
	struct rdma_cm_id *id;
	bool destroyed;			/* no event may come after this */
	bool late_event;
	/* the last MULTICAST_JOIN's (its sgid_attr only compared) */
	struct rdma_ud_param ud;
	/* the handler holds this event until @release (-1: none) */
	int block_on;
	struct completion blocked;
	struct completion release;
};

static void ev_destroy_work(struct work_struct *work)
{
	struct ev_log *log = container_of(work, struct ev_log, destroy_work);

	rdma_destroy_id(log->id);
	WRITE_ONCE(log->destroyed, true);
	wake_up(&log->wq);
}

static int ev_handler(struct rdma_cm_id *id, struct rdma_cm_event *event)
{
	struct ev_log *log = id->context;
	int ret;

	spin_lock(&log->lock);
	if (log->destroyed)
		log->late_event = true;
	if (log->n < EV_MAX) {
		log->ev[log->n] = event->event;
		log->status[log->n] = event->status;
	}
	log->n++;
	ret = log->ret[event->event];
	if (event->event == RDMA_CM_EVENT_MULTICAST_JOIN)
		log->ud = event->param.ud;
	spin_unlock(&log->lock);
	if ((int)event->event == log->block_on) {
		complete(&log->blocked);
		KUNIT_EXPECT_TRUE(log->test,
				  wait_for_completion_timeout(&log->release,
							      EV_WAIT));
	}
	if (ret)
		WRITE_ONCE(log->destroyed, true);
	if ((int)event->event == log->destroy_on)
		queue_work(system_unbound_wq, &log->destroy_work);
	wake_up(&log->wq);
	return ret;
}

static void id_destroy_action(void *data)
{
	struct ev_log *log = data;

	flush_work(&log->destroy_work);
	if (!READ_ONCE(log->destroyed)) {
		rdma_destroy_id(log->id);
		log->destroyed = true;
	}
	KUNIT_EXPECT_FALSE(log->test, log->late_event);
}

static struct ev_log *new_id(struct kunit *test, enum ib_qp_type qpt)
{
	struct ev_log *log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, log);
	log->test = test;
	spin_lock_init(&log->lock);
	init_waitqueue_head(&log->wq);
	INIT_WORK(&log->destroy_work, ev_destroy_work);
	log->destroy_on = -1;
	log->block_on = -1;
	init_completion(&log->blocked);
	init_completion(&log->release);
	log->id = rdma_create_id(&init_net, ev_handler, log,
				 qpt == IB_QPT_UD ? RDMA_PS_UDP : RDMA_PS_TCP,
				 qpt);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, log->id);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, id_destroy_action,
							log), 0);
	return log;
}

/* Wait for the @nth event (1-based) and check it. */
static void expect_event(struct kunit *test, struct ev_log *log,
			 unsigned int nth, enum rdma_cm_event_type type,
			 int status)
{
	KUNIT_ASSERT_TRUE_MSG(test,
			      wait_event_timeout(log->wq,
						 READ_ONCE(log->n) >= nth,
						 EV_WAIT),
			      "no event %u (%s)", nth, rdma_event_msg(type));
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(log->ev[nth - 1]),
			   rdma_event_msg(type));
	KUNIT_EXPECT_EQ(test, log->status[nth - 1], status);
}

static int cm_ids_of(struct ib_device *dev)
{
	return rdma_restrack_count(dev, RDMA_RESTRACK_CM_ID, false);
}

/* Resolve address and route of @log's id towards 192.0.2.2. */
static void resolve_to_peer(struct kunit *test, struct ev_log *log)
{
	struct sockaddr_storage dst;

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, log, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(log->id, 1000), 0);
	expect_event(test, log, 2, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
}

static enum rdma_cm_state st(struct rdma_cm_id *id)
{
	return READ_ONCE(to_id_priv(id)->state);
}

/*
 * A barrier for both queues that call ids back: a new id resolves the
 * address of 192.0.2.2 (a permanent neighbour: its callback is queued on
 * "ib_addr" at once) and, when the device is still there, the route (its
 * event is queued on cma_wq).  Both queues are ordered, so once these
 * events arrived every callback and event queued before them has run.
 * Without a device the address callback gives ADDR_ERROR -ENODEV, which
 * serves as well.
 */
static void sentinel_resolve(struct kunit *test, bool route)
{
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage dst;

	if (route) {
		resolve_to_peer(test, log);
		return;
	}
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	KUNIT_ASSERT_TRUE_MSG(test,
			      wait_event_timeout(log->wq,
						 READ_ONCE(log->n) >= 1,
						 EV_WAIT),
			      "the sentinel's address callback never came");
}

/*
 * The round trip of bed_reset(): sentinel_resolve() with an id of its
 * own (no KUnit action: it runs as one), destroyed before it returns.
 */
static void bed_round_trip(struct kunit *test)
{
	struct ev_log *log = kzalloc(sizeof(*log), GFP_KERNEL);
	struct sockaddr_storage dst;
	bool ok = false;

	if (!log) {
		KUNIT_FAIL(test, "cleanup: no memory for the round trip");
		return;
	}
	log->test = test;
	spin_lock_init(&log->lock);
	init_waitqueue_head(&log->wq);
	log->destroy_on = -1;
	log->block_on = -1;
	log->id = rdma_create_id(&init_net, ev_handler, log, RDMA_PS_TCP,
				 IB_QPT_RC);
	if (IS_ERR(log->id)) {
		KUNIT_FAIL(test, "cleanup: no id for the round trip");
		kfree(log);
		return;
	}
	if (!rdma_resolve_addr(log->id, NULL, ip4(&dst, "192.0.2.2",
						  TEST_PORT), 1000) &&
	    wait_event_timeout(log->wq, READ_ONCE(log->n) >= 1, EV_WAIT) &&
	    log->ev[0] == RDMA_CM_EVENT_ADDR_RESOLVED &&
	    !rdma_resolve_route(log->id, 1000) &&
	    wait_event_timeout(log->wq, READ_ONCE(log->n) >= 2, EV_WAIT))
		ok = log->ev[1] == RDMA_CM_EVENT_ROUTE_RESOLVED;
	rdma_destroy_id(log->id);
	KUNIT_EXPECT_TRUE_MSG(test, ok, "cleanup: no round trip (%u events)",
			      log->n);
	kfree(log);
}

/* The GID of an IPv4 address, IPv4-mapped */
static void gid4(union ib_gid *gid, const char *ip)
{
	ipv6_addr_set_v4mapped(in_aton(ip), (struct in6_addr *)gid->raw);
}

/* The id's bound GID entry: @ip's GID of @type on @ndev. */
static void expect_sgid(struct kunit *test, struct rdma_cm_id *id,
			const char *ip, enum ib_gid_type type,
			struct net_device *ndev)
{
	const struct ib_gid_attr *attr = id->route.addr.dev_addr.sgid_attr;
	struct net_device *gid_ndev;
	union ib_gid want;

	KUNIT_ASSERT_NOT_NULL(test, attr);
	gid4(&want, ip);
	KUNIT_EXPECT_MEMEQ(test, attr->gid.raw, want.raw, 16);
	KUNIT_EXPECT_EQ(test, attr->gid_type, type);
	KUNIT_EXPECT_EQ(test, to_id_priv(id)->gid_type, type);
	KUNIT_EXPECT_PTR_EQ(test, attr->device, id->device);
	KUNIT_EXPECT_EQ(test, attr->port_num, id->port_num);
	rcu_read_lock();
	gid_ndev = rdma_read_gid_attr_ndev_rcu(attr);
	KUNIT_EXPECT_PTR_EQ(test, gid_ndev, ndev);
	rcu_read_unlock();
}

/* The references of the GID entry of @ip (type @type) on @dev's port 1 */
static const struct ib_gid_attr *hold_gid(struct kunit *test,
					  struct ib_device *dev,
					  struct net_device *ndev,
					  const char *ip,
					  enum ib_gid_type type)
{
	const struct ib_gid_attr *attr;
	union ib_gid gid;

	gid4(&gid, ip);
	attr = rdma_find_gid_by_port(dev, &gid, type, ROCE_PORT, ndev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	return attr;
}

/* Does the net device's multicast list hold @mac? */
static bool has_mc(struct net_device *ndev, const u8 *mac)
{
	struct netdev_hw_addr *ha;
	bool found = false;

	netif_addr_lock_bh(ndev);
	netdev_for_each_mc_addr(ha, ndev)
		if (ether_addr_equal(ha->addr, mac))
			found = true;
	netif_addr_unlock_bh(ndev);
	return found;
}

/* ------------------------------------------------------------------
 * Cases
 */

/* The whole active side up to connecting, on RoCE. */
static void rdma_cma_resolve_roce(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct rdma_cm_id *id = log->id;
	struct sockaddr_in *src = (struct sockaddr_in *)&id->route.addr.src_addr;
	struct sa_path_rec *rec;
	union ib_gid sgid, dgid, want;

	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 0);
	resolve_to_peer(test, log);
	KUNIT_EXPECT_PTR_EQ(test, id->device, ctx->dev);
	KUNIT_EXPECT_EQ(test, id->port_num, ROCE_PORT);
	KUNIT_EXPECT_EQ(test, ntohl(src->sin_addr.s_addr),
			ntohl(in_aton("192.0.2.1")));
	KUNIT_EXPECT_NE(test, ntohs(src->sin_port), 0);
	KUNIT_EXPECT_MEMEQ(test, id->route.addr.dev_addr.dst_dev_addr,
			   peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 1);

	rec = id->route.path_rec;
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, id->route.num_pri_alt_paths, 1);
	KUNIT_EXPECT_EQ(test, rec->rec_type, SA_PATH_REC_TYPE_ROCE_V2);
	KUNIT_EXPECT_MEMEQ(test, rec->roce.dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_TRUE(test, rec->roce.route_resolved);
	KUNIT_EXPECT_NE(test, rec->mtu, 0);
	ipv6_addr_set_v4mapped(in_aton("192.0.2.1"), (struct in6_addr *)want.raw);
	KUNIT_EXPECT_MEMEQ(test, rec->sgid.raw, want.raw, 16);
	rdma_read_gids(id, &sgid, &dgid);
	KUNIT_EXPECT_MEMEQ(test, sgid.raw, want.raw, 16);
	ipv6_addr_set_v4mapped(in_aton("192.0.2.2"), (struct in6_addr *)want.raw);
	KUNIT_EXPECT_MEMEQ(test, dgid.raw, want.raw, 16);
	KUNIT_EXPECT_EQ(test, st(id), RDMA_CM_ROUTE_RESOLVED);

	/* the local path record, field by field */
	KUNIT_EXPECT_EQ(test, be16_to_cpu(rec->pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, rec->reversible, 1);
	KUNIT_EXPECT_EQ(test, rec->hop_limit, 64);	/* the route's TTL */
	KUNIT_EXPECT_EQ(test, rec->traffic_class, 0);
	KUNIT_EXPECT_EQ(test, rec->sl, 0);
	/* 1500 bytes: 1024 (the port's active MTU is 1024 too) */
	KUNIT_EXPECT_EQ(test, rec->mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, rec->mtu_selector, IB_SA_EQ);
	KUNIT_EXPECT_EQ(test, rec->rate, IB_RATE_PORT_CURRENT);
	KUNIT_EXPECT_EQ(test, rec->packet_life_time, CMA_IBOE_PACKET_LIFETIME);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(rec->flow_label),
			(ntohs(src->sin_port) * 31 + TEST_PORT) & 0xfffff);

	/* the GID entry of the source address, bound to the id */
	expect_sgid(test, id, "192.0.2.1", IB_GID_TYPE_ROCE_UDP_ENCAP, ctx->a);

	/* the text helpers of RoCE */
	KUNIT_EXPECT_STREQ(test, rdma_reject_msg(id, 28), "consumer defined");
	KUNIT_EXPECT_EQ(test, log->n, 2);
}

/*
 * Connecting on RoCE goes to the IB CM with the id's GID entry; the fake
 * HCA has no GSI QP (no verbs), so the IB CM has no port for it and
 * refuses the REQ with -EINVAL.  The refusal leaves the id routed, with
 * its GID entry and no IB CM ID: a second try is refused the same way,
 * not for its state.
 */
static void rdma_cma_roce_connect_no_gsi(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct rdma_conn_param param = {};

	resolve_to_peer(test, log);
	KUNIT_ASSERT_PTR_EQ(test, log->id->device, ctx->dev);
	KUNIT_EXPECT_EQ(test, rdma_connect(log->id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, st(log->id), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_NULL(test, to_id_priv(log->id)->cm_id.ib);
	KUNIT_EXPECT_NOT_NULL(test, log->id->route.addr.dev_addr.sgid_attr);
	KUNIT_EXPECT_EQ(test, rdma_connect(log->id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(log->id, 1000), -EINVAL);
	KUNIT_EXPECT_EQ(test, log->n, 2);
}

/*
 * The id takes one reference on its source's GID entry where it attaches
 * (bind, address resolution) and gives it back when destroyed; a bind
 * that fails after finding the entry, and a resolution that finds no
 * device, keep none.
 */
static void rdma_cma_roce_sgid_attr_refs(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	const struct ib_gid_attr *attr =
		hold_gid(test, ctx->dev, ctx->a, "192.0.2.1",
			 IB_GID_TYPE_ROCE_UDP_ENCAP);
	struct ev_log *bound = new_id(test, IB_QPT_RC);
	struct ev_log *clash = new_id(test, IB_QPT_RC);
	struct ev_log *conn = new_id(test, IB_QPT_RC);
	struct ev_log *nodev = new_id(test, IB_QPT_RC);
	struct sockaddr_storage ss;
	unsigned int base = ib_gid_attr_refcount(attr);

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(bound->id, ip4(&ss, "192.0.2.1",
							    TEST_PORT + 30)), 0);
	KUNIT_EXPECT_PTR_EQ(test, bound->id->route.addr.dev_addr.sgid_attr,
			    attr);
	KUNIT_EXPECT_EQ(test, ib_gid_attr_refcount(attr), base + 1);
	/* the port is taken: refused after the entry was found */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(clash->id,
					     ip4(&ss, "192.0.2.1",
						 TEST_PORT + 30)), -EADDRINUSE);
	KUNIT_EXPECT_NULL(test, clash->id->route.addr.dev_addr.sgid_attr);
	KUNIT_EXPECT_EQ(test, ib_gid_attr_refcount(attr), base + 1);

	resolve_to_peer(test, conn);
	KUNIT_EXPECT_PTR_EQ(test, conn->id->route.addr.dev_addr.sgid_attr,
			    attr);
	KUNIT_EXPECT_EQ(test, ib_gid_attr_refcount(attr), base + 2);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(nodev->id, NULL,
						ip4(&ss, "198.51.100.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, nodev, 1, RDMA_CM_EVENT_ADDR_ERROR, -ENODEV);
	KUNIT_EXPECT_NULL(test, nodev->id->route.addr.dev_addr.sgid_attr);
	KUNIT_EXPECT_EQ(test, ib_gid_attr_refcount(attr), base + 2);

	kunit_release_action(test, id_destroy_action, bound);
	KUNIT_EXPECT_EQ(test, ib_gid_attr_refcount(attr), base + 1);
	kunit_release_action(test, id_destroy_action, conn);
	KUNIT_EXPECT_EQ(test, ib_gid_attr_refcount(attr), base);
	rdma_put_gid_attr(attr);
}

static void mtu_restore(void *arg)
{
	struct net_device *ndev = arg;

	rtnl_lock();
	dev_set_mtu(ndev, ETH_DATA_LEN);
	rtnl_unlock();
}

static void tos_restore(void *arg)
{
	struct cma_device *cma_dev = arg;

	cma_set_default_roce_tos(cma_dev, ROCE_PORT, 0);
	cma_dev_put(cma_dev);
}

/*
 * The traffic class of a RoCE path is the id's ToS, else the port's
 * default_roce_tos (configfs); its MTU the net device's when that is the
 * smaller (A at 1100 bytes: 512).
 */
static void rdma_cma_roce_route_tos_mtu(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *own = new_id(test, IB_QPT_RC);
	struct ev_log *dflt = new_id(test, IB_QPT_RC);
	struct ev_log *small = new_id(test, IB_QPT_RC);
	struct cma_device *cma_dev = cma_find_device(ctx->dev);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, cma_dev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tos_restore,
							cma_dev), 0);
	rdma_set_service_type(own->id, 0x60);
	KUNIT_ASSERT_EQ(test, cma_set_default_roce_tos(cma_dev, ROCE_PORT, 32),
			0);
	KUNIT_EXPECT_EQ(test, cma_default_roce_tos(cma_dev, ROCE_PORT), 32);
	resolve_to_peer(test, own);
	resolve_to_peer(test, dflt);
	KUNIT_EXPECT_EQ(test, own->id->route.path_rec->traffic_class, 0x60);
	KUNIT_EXPECT_EQ(test, dflt->id->route.path_rec->traffic_class, 32);
	/* no traffic classes on A: service level 0 */
	KUNIT_EXPECT_EQ(test, dflt->id->route.path_rec->sl, 0);

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mtu_restore,
							ctx->a), 0);
	rtnl_lock();
	ret = dev_set_mtu(ctx->a, 1100);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, ret, 0);
	resolve_to_peer(test, small);
	KUNIT_EXPECT_EQ(test, small->id->route.path_rec->mtu, IB_MTU_512);
}

static void cma_dev_put_action(void *arg)
{
	cma_dev_put(arg);
}

/*
 * default_roce_mode: a port that speaks RoCE v1 and v2 (B's) binds ids to
 * the GID of the type configfs names, v2 until told otherwise, and the
 * path and the multicast group follow it: RoCE v1 path record, no flow
 * label, MGID ff0e::ffff:<group>, hop limit 1, no IGMP join.  A v2-only
 * port refuses v1.  The port's active MTU (512) bounds the path's.
 */
static void rdma_cma_roce_default_mode(struct kunit *test)
{
	static const u8 mac_v1_mc[ETH_ALEN] = { 0x33, 0x33, 0xef, 0x01, 0x01, 0x02 };
	static const u8 mac_v2_mc[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x01, 0x02 };
	struct cma_ctx *ctx = new_ctx(test);
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct ev_log *v2, *v1, *ud;
	struct cma_device *cma_dev, *bed_dev;
	struct sockaddr_storage ss;
	struct fake_hca *hca;
	union ib_gid want;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kucmv%d";
	fake_hca_desc_set_eth(desc, ROCE_PORT);
	desc->port[0].netdev = ctx->b;
	desc->port[0].roce_v1 = true;
	desc->port[0].active_mtu = IB_MTU_512;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	roce_gid_mgmt_flush();	/* B's GIDs of both types */
	cma_dev = cma_find_device(&hca->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, cma_dev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							cma_dev_put_action,
							cma_dev), 0);
	v2 = new_id(test, IB_QPT_RC);
	v1 = new_id(test, IB_QPT_RC);
	ud = new_id(test, IB_QPT_UD);

	KUNIT_EXPECT_EQ(test, cma_default_gid_type(cma_dev, ROCE_PORT),
			IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(v2->id, NULL,
						ip4(&ss, "198.51.100.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, v2, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_ASSERT_PTR_EQ(test, v2->id->device, &hca->ibdev);
	expect_sgid(test, v2->id, "198.51.100.1", IB_GID_TYPE_ROCE_UDP_ENCAP,
		    ctx->b);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(v2->id, 1000), 0);
	expect_event(test, v2, 2, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	KUNIT_EXPECT_EQ(test, v2->id->route.path_rec->rec_type,
			SA_PATH_REC_TYPE_ROCE_V2);
	/* the net device allows 1024, the port 512 */
	KUNIT_EXPECT_EQ(test, v2->id->route.path_rec->mtu, IB_MTU_512);

	KUNIT_ASSERT_EQ(test, cma_set_default_gid_type(cma_dev, ROCE_PORT,
						       IB_GID_TYPE_ROCE), 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(v1->id, NULL,
						ip4(&ss, "198.51.100.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, v1, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	expect_sgid(test, v1->id, "198.51.100.1", IB_GID_TYPE_ROCE, ctx->b);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(v1->id, 1000), 0);
	expect_event(test, v1, 2, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	KUNIT_EXPECT_EQ(test, v1->id->route.path_rec->rec_type,
			SA_PATH_REC_TYPE_ROCE_V1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(v1->id->route.path_rec->flow_label), 0);
	/* the v2 id keeps what it was bound to */
	KUNIT_EXPECT_EQ(test, v2->id->route.addr.dev_addr.sgid_attr->gid_type,
			IB_GID_TYPE_ROCE_UDP_ENCAP);

	/* multicast on RoCE v1: no IP group joined */
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ud->id, ip4(&ss, "198.51.100.1",
							 TEST_PORT + 31)), 0);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(ud->id,
						  ip4(&ss, "239.1.1.2", 0),
						  BIT(FULLMEMBER_JOIN), ud), 0);
	expect_event(test, ud, 1, RDMA_CM_EVENT_MULTICAST_JOIN, 0);
	memset(&want, 0, sizeof(want));
	want.raw[0] = 0xff;
	want.raw[1] = 0x0e;
	want.raw[10] = 0xff;
	want.raw[11] = 0xff;
	want.raw[12] = 239;
	want.raw[13] = 1;
	want.raw[14] = 1;
	want.raw[15] = 2;
	KUNIT_EXPECT_MEMEQ(test, ud->ud.ah_attr.grh.dgid.raw, want.raw, 16);
	KUNIT_EXPECT_EQ(test, ud->ud.ah_attr.grh.hop_limit, 1);
	KUNIT_EXPECT_MEMEQ(test, ud->ud.ah_attr.roce.dmac, mac_v1_mc, ETH_ALEN);
	KUNIT_EXPECT_FALSE(test, has_mc(ctx->b, mac_v2_mc));
	KUNIT_EXPECT_FALSE(test, has_mc(ctx->b, mac_v1_mc));

	/* the bed's port speaks v2 only */
	bed_dev = cma_find_device(ctx->dev);
	KUNIT_ASSERT_NOT_NULL(test, bed_dev);
	KUNIT_EXPECT_EQ(test, cma_set_default_gid_type(bed_dev, ROCE_PORT,
						       IB_GID_TYPE_ROCE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cma_default_gid_type(bed_dev, ROCE_PORT),
			IB_GID_TYPE_ROCE_UDP_ENCAP);
	cma_dev_put(bed_dev);
}

/* Address resolution that finds no RDMA device: ADDR_ERROR, then retry. */
static void rdma_cma_addr_error(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage dst;

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "198.51.100.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, log, 1, RDMA_CM_EVENT_ADDR_ERROR, -ENODEV);
	KUNIT_EXPECT_NULL(test, log->id->device);
	/* bound again: a new resolution may start */
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, log, 2, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_EXPECT_PTR_EQ(test, log->id->device, ctx->dev);
	/* and resolving again once resolved is refused */
	KUNIT_EXPECT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), -EINVAL);
}

/* Destination "any": this host, on the first device with an active port. */
static void rdma_cma_resolve_loopback(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage dst;

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "0.0.0.0", TEST_PORT),
						1000), 0);
	expect_event(test, log, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_EXPECT_NOT_NULL(test, log->id->device);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev) +
			(log->id->device != ctx->dev), 1);
}

/* Calls in the wrong state, with their exact errors. */
static void rdma_cma_wrong_state(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct rdma_cm_id *id = log->id;
	struct rdma_conn_param param = {};
	struct sockaddr_storage ss;
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	int mask;

	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 1000), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_connect(id, &param), -EINVAL);
	rdma_lock_handler(id);
	KUNIT_EXPECT_EQ(test, rdma_accept(id, &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_connect_locked(id, &param), -EINVAL);
	rdma_unlock_handler(id);
	KUNIT_EXPECT_EQ(test, rdma_reject(id, NULL, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_disconnect(id), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_notify(id, IB_EVENT_COMM_EST), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_init_qp_attr(id, &attr, &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(id, ip4(&ss, "239.1.1.1", 0),
						  1, NULL), -EINVAL);
	KUNIT_EXPECT_NULL(test, rdma_iw_cm_id(id));

	/* bound to A's address: on the RoCE device */
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(id, ip4(&ss, "192.0.2.1",
						     TEST_PORT + 1)), 0);
	KUNIT_EXPECT_PTR_EQ(test, id->device, ctx->dev);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 1000), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(id, 0), -EINVAL);
	/* INIT attributes need no connection */
	KUNIT_ASSERT_EQ(test, rdma_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_STATE | IB_QP_PKEY_INDEX |
			IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	KUNIT_EXPECT_EQ(test, attr.port_num, ROCE_PORT);
	KUNIT_EXPECT_EQ(test, log->n, 0);
}

/*
 * A listener on a RoCE device listens through the IB CM, on the service
 * ID of its port space and port; listening again is refused for the
 * state.
 */
static void rdma_cma_roce_listen(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(log->id, ip4(&ss, "192.0.2.1",
							  TEST_PORT + 1)), 0);
	KUNIT_ASSERT_PTR_EQ(test, log->id->device, ctx->dev);
	KUNIT_EXPECT_EQ(test, rdma_listen(log->id, 1), 0);
	KUNIT_EXPECT_EQ(test, st(log->id), RDMA_CM_LISTEN);
	KUNIT_ASSERT_NOT_NULL(test, to_id_priv(log->id)->cm_id.ib);
	KUNIT_EXPECT_EQ(test,
			be64_to_cpu(to_id_priv(log->id)->cm_id.ib->service_id),
			RDMA_IB_IP_PS_TCP | (TEST_PORT + 1));
	KUNIT_EXPECT_EQ(test, rdma_listen(log->id, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, log->n, 0);
}

static void addr6_del(void *arg)
{
	struct cma_ctx *ctx = arg;

	kt_rtnl_addr(ctx->rtc, RTM_DELADDR, ctx->a->ifindex, "2001:db8::1",
		     64);
	roce_gid_mgmt_flush();
}

/*
 * Multicast on RoCE v2 without an SA: the MGID of an IPv4 group is
 * IPv4-mapped, of an IPv6 group the group itself; a full member joins
 * the IP group on the net device (IGMP, MLD: the device's multicast list
 * holds the group's MAC) and leaves it on rdma_leave_multicast() or the
 * id's destruction; a send-only member joins no IP group.  The event
 * carries the group's address vector: GRH to the MGID from the id's GID
 * entry, hop limit 64, the group's MAC, QPN 0xffffff and the Q_Key; its
 * reference on the GID entry is gone once the group is left.
 */
static void rdma_cma_roce_multicast(struct kunit *test)
{
	static const u8 mac1[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x01, 0x01 };
	static const u8 mac2[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x01, 0x02 };
	static const u8 mac6[ETH_ALEN] = { 0x33, 0x33, 0x00, 0x01, 0x00, 0x02 };
	struct cma_ctx *ctx = new_ctx(test);
	const struct ib_gid_attr *attr =
		hold_gid(test, ctx->dev, ctx->a, "192.0.2.1",
			 IB_GID_TYPE_ROCE_UDP_ENCAP);
	struct ev_log *ud = new_id(test, IB_QPT_UD);
	struct ev_log *ud6 = new_id(test, IB_QPT_UD);
	struct sockaddr_in6 *s6 = kunit_kzalloc(test, sizeof(*s6), GFP_KERNEL);
	struct sockaddr_storage ss;
	struct rdma_ah_attr *ah = &ud->ud.ah_attr;
	unsigned int base;
	union ib_gid want;
	int ctx_token;

	KUNIT_ASSERT_NOT_NULL(test, s6);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ud->id, ip4(&ss, "192.0.2.1",
							 TEST_PORT + 2)), 0);
	KUNIT_ASSERT_PTR_EQ(test, ud->id->device, ctx->dev);
	base = ib_gid_attr_refcount(attr);
	KUNIT_EXPECT_FALSE(test, has_mc(ctx->a, mac1));

	KUNIT_ASSERT_EQ(test, rdma_join_multicast(ud->id,
						  ip4(&ss, "239.1.1.1", 0),
						  BIT(FULLMEMBER_JOIN),
						  &ctx_token), 0);
	expect_event(test, ud, 1, RDMA_CM_EVENT_MULTICAST_JOIN, 0);
	KUNIT_EXPECT_TRUE(test, has_mc(ctx->a, mac1));
	KUNIT_EXPECT_EQ(test, ah->type, RDMA_AH_ATTR_TYPE_ROCE);
	KUNIT_EXPECT_TRUE(test, ah->ah_flags & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, ah->port_num, ROCE_PORT);
	gid4(&want, "239.1.1.1");
	KUNIT_EXPECT_MEMEQ(test, ah->grh.dgid.raw, want.raw, 16);
	KUNIT_EXPECT_PTR_EQ(test, ah->grh.sgid_attr, attr);
	KUNIT_EXPECT_EQ(test, ah->grh.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, ah->grh.traffic_class, 0);
	KUNIT_EXPECT_MEMEQ(test, ah->roce.dmac, mac1, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, ud->ud.qp_num, 0xffffff);
	KUNIT_EXPECT_EQ(test, ud->ud.qkey, RDMA_UDP_QKEY);
	KUNIT_EXPECT_PTR_EQ(test, ud->ud.private_data, (const void *)&ctx_token);

	/* send-only: the event, no IP group */
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(ud->id,
						  ip4(&ss, "239.1.1.2", 0),
						  BIT(SENDONLY_FULLMEMBER_JOIN),
						  NULL), 0);
	expect_event(test, ud, 2, RDMA_CM_EVENT_MULTICAST_JOIN, 0);
	KUNIT_EXPECT_FALSE(test, has_mc(ctx->a, mac2));

	/* leaving: the IP group goes, the events' GID references too */
	rdma_leave_multicast(ud->id, ip4(&ss, "239.1.1.1", 0));
	KUNIT_EXPECT_FALSE(test, has_mc(ctx->a, mac1));
	rdma_leave_multicast(ud->id, ip4(&ss, "239.1.1.2", 0));
	KUNIT_EXPECT_TRUE(test, list_empty(&to_id_priv(ud->id)->mc_list));
	KUNIT_EXPECT_EQ(test, ib_gid_attr_refcount(attr), base);
	rdma_put_gid_attr(attr);

	/* IPv6: MLD, the group is the MGID; destroying the id leaves it */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, addr6_del, ctx),
			0);
	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(ctx->rtc, RTM_NEWADDR,
					   ctx->a->ifindex, "2001:db8::1", 64),
			0);
	roce_gid_mgmt_flush();
	s6->sin6_family = AF_INET6;
	KUNIT_ASSERT_EQ(test, in6_pton("2001:db8::1", -1,
				       s6->sin6_addr.s6_addr, -1, NULL), 1);
	s6->sin6_port = htons(TEST_PORT + 4);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ud6->id, (struct sockaddr *)s6),
			0);
	KUNIT_ASSERT_PTR_EQ(test, ud6->id->device, ctx->dev);
	memset(s6, 0, sizeof(*s6));
	s6->sin6_family = AF_INET6;
	KUNIT_ASSERT_EQ(test, in6_pton("ff0e::1:2", -1, s6->sin6_addr.s6_addr,
				       -1, NULL), 1);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(ud6->id,
						  (struct sockaddr *)s6,
						  BIT(FULLMEMBER_JOIN), NULL),
			0);
	expect_event(test, ud6, 1, RDMA_CM_EVENT_MULTICAST_JOIN, 0);
	KUNIT_EXPECT_MEMEQ(test, ud6->ud.ah_attr.grh.dgid.raw,
			   s6->sin6_addr.s6_addr, 16);
	KUNIT_EXPECT_MEMEQ(test, ud6->ud.ah_attr.roce.dmac, mac6, ETH_ALEN);
	KUNIT_EXPECT_TRUE(test, has_mc(ctx->a, mac6));
	kunit_release_action(test, id_destroy_action, ud6);
	KUNIT_EXPECT_FALSE(test, has_mc(ctx->a, mac6));
}

static void v6_reset(void *arg)
{
	struct cma_ctx *ctx = arg;

	addr6_del(ctx);
	neigh_ifdown(&nd_tbl, ctx->a);
}

static struct sockaddr *ip6(struct sockaddr_storage *ss, const char *ip,
			    u16 port, u32 flowinfo)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	sin6->sin6_family = AF_INET6;
	WARN_ON(in6_pton(ip, -1, sin6->sin6_addr.s6_addr, -1, NULL) != 1);
	sin6->sin6_port = htons(port);
	sin6->sin6_flowinfo = htonl(flowinfo);
	return (struct sockaddr *)ss;
}

/*
 * An IPv6 RoCE v2 path: the GIDs are the addresses, the source's flow
 * label is the path's (a source without one gets the ports' hash), the
 * hop limit the IPv6 route's; rdma_set_ib_path() instead of the route
 * resolution fills in the Ethernet side of the path it is given.
 */
static void rdma_cma_roce_route_ipv6(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *fl = new_id(test, IB_QPT_RC);
	struct ev_log *set = new_id(test, IB_QPT_RC);
	struct sockaddr_storage src, dst;
	struct sa_path_rec *rec, given = {};
	struct in6_addr a6;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, v6_reset, ctx),
			0);
	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(ctx->rtc, RTM_NEWADDR,
					   ctx->a->ifindex, "2001:db8::1", 64),
			0);
	KUNIT_ASSERT_EQ(test, kt_rtnl_neigh(ctx->rtc, ctx->a->ifindex,
					    "2001:db8::2", peer_mac), 0);
	roce_gid_mgmt_flush();

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(fl->id,
						ip6(&src, "2001:db8::1", 0,
						    0x12345),
						ip6(&dst, "2001:db8::2",
						    TEST_PORT, 0), 1000), 0);
	expect_event(test, fl, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_ASSERT_PTR_EQ(test, fl->id->device, ctx->dev);
	KUNIT_ASSERT_NOT_NULL(test, fl->id->route.addr.dev_addr.sgid_attr);
	KUNIT_ASSERT_EQ(test, in6_pton("2001:db8::1", -1, a6.s6_addr, -1,
				       NULL), 1);
	KUNIT_EXPECT_MEMEQ(test, fl->id->route.addr.dev_addr.sgid_attr->gid.raw,
			   a6.s6_addr, 16);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(fl->id, 1000), 0);
	expect_event(test, fl, 2, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	rec = fl->id->route.path_rec;
	KUNIT_EXPECT_MEMEQ(test, rec->sgid.raw, a6.s6_addr, 16);
	KUNIT_ASSERT_EQ(test, in6_pton("2001:db8::2", -1, a6.s6_addr, -1,
				       NULL), 1);
	KUNIT_EXPECT_MEMEQ(test, rec->dgid.raw, a6.s6_addr, 16);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(rec->flow_label), 0x12345);
	KUNIT_EXPECT_EQ(test, rec->hop_limit, 64);
	KUNIT_EXPECT_MEMEQ(test, rec->roce.dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, rec->rec_type, SA_PATH_REC_TYPE_ROCE_V2);

	/* a path from elsewhere: the Ethernet fields are set on it */
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(set->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, set, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	given.mtu = IB_MTU_256;
	given.traffic_class = 7;
	KUNIT_ASSERT_EQ(test, rdma_set_ib_path(set->id, &given), 0);
	rec = set->id->route.path_rec;
	KUNIT_EXPECT_EQ(test, rec->rec_type, SA_PATH_REC_TYPE_ROCE_V2);
	KUNIT_EXPECT_TRUE(test, rec->roce.route_resolved);
	KUNIT_EXPECT_MEMEQ(test, rec->roce.dmac, peer_mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, rec->mtu, IB_MTU_256);
	KUNIT_EXPECT_EQ(test, rec->traffic_class, 7);
	KUNIT_EXPECT_EQ(test, st(set->id), RDMA_CM_ROUTE_RESOLVED);
}

/*
 * Joins RoCE refuses with -EINVAL, joining nothing and telling nothing:
 * a group address that is not multicast, the wildcard, a JoinState other
 * than full or send-only full member, a connected id.
 */
static void rdma_cma_roce_multicast_refused(struct kunit *test)
{
	static const u8 mac1[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0x01, 0x01, 0x01 };
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *ud = new_id(test, IB_QPT_UD);
	struct ev_log *rc = new_id(test, IB_QPT_RC);
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(ud->id, ip4(&ss, "192.0.2.1",
							 TEST_PORT + 2)), 0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(rc->id, ip4(&ss, "192.0.2.1",
							 TEST_PORT + 3)), 0);
	KUNIT_ASSERT_PTR_EQ(test, ud->id->device, ctx->dev);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(ud->id,
						  ip4(&ss, "192.0.2.9", 0),
						  BIT(FULLMEMBER_JOIN), NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(ud->id,
						  ip4(&ss, "0.0.0.0", 0),
						  BIT(FULLMEMBER_JOIN), NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(ud->id,
						  ip4(&ss, "239.1.1.1", 0),
						  BIT(NONMEMBER_JOIN), NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_join_multicast(rc->id,
						  ip4(&ss, "239.1.1.1", 0),
						  BIT(FULLMEMBER_JOIN), NULL),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, list_empty(&to_id_priv(ud->id)->mc_list));
	KUNIT_EXPECT_TRUE(test, list_empty(&to_id_priv(rc->id)->mc_list));
	KUNIT_EXPECT_FALSE(test, has_mc(ctx->a, mac1));
	rdma_leave_multicast(ud->id, ip4(&ss, "239.1.1.1", 0));
	KUNIT_EXPECT_EQ(test, st(ud->id), RDMA_CM_ADDR_BOUND);
	KUNIT_EXPECT_EQ(test, ud->n + rc->n, 0);
}

/* A wildcard listener covers every device, also one registered later. */
static void rdma_cma_listen_all_devices(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage ss;
	struct fake_hca *late;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(log->id, ip4(&ss, "0.0.0.0",
							  TEST_PORT + 3)), 0);
	KUNIT_ASSERT_EQ(test, rdma_listen(log->id, 8), 0);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 1);

	late = new_roce_hca(test, ctx->b, NULL);
	KUNIT_EXPECT_EQ(test, cm_ids_of(&late->ibdev), 1);

	/* a listener's device goes away under it: no event, still listening */
	bed_remove_hca(ctx);
	KUNIT_EXPECT_EQ(test, log->n, 0);
	KUNIT_EXPECT_EQ(test, rdma_listen(log->id, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, cm_ids_of(&late->ibdev), 1);

	kunit_release_action(test, id_destroy_action, log);
	KUNIT_EXPECT_EQ(test, cm_ids_of(&late->ibdev), 0);
}

/*
 * The device goes away with ids in every state reachable without a peer:
 * each hears DEVICE_REMOVAL once; one is destroyed by its handler's
 * return value, the others from a work while the removal waits.
 */
static void rdma_cma_device_removal(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *bound = new_id(test, IB_QPT_RC);
	struct ev_log *addr = new_id(test, IB_QPT_RC);
	struct ev_log *route = new_id(test, IB_QPT_RC);
	struct ev_log *self = new_id(test, IB_QPT_RC);
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(bound->id,
					     ip4(&ss, "192.0.2.1", 0)), 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(addr->id, NULL,
						ip4(&ss, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, addr, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	resolve_to_peer(test, route);
	resolve_to_peer(test, self);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 4);

	bound->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	addr->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	route->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	self->ret[RDMA_CM_EVENT_DEVICE_REMOVAL] = 1;

	bed_remove_hca(ctx);

	expect_event(test, bound, 1, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_event(test, addr, 2, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_event(test, route, 3, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	expect_event(test, self, 3, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	KUNIT_EXPECT_EQ(test, bound->n + addr->n + route->n + self->n,
			1 + 2 + 3 + 3);
}

/*
 * Whatever @log heard before its id was destroyed (@seen events): at
 * most @max, each the one expected at its place (@types) with status 0.
 */
static void expect_heard(struct kunit *test, struct ev_log *log,
			 unsigned int seen, unsigned int max,
			 const enum rdma_cm_event_type *types)
{
	unsigned int i;

	KUNIT_EXPECT_LE(test, seen, max);
	for (i = 0; i < min(seen, max); i++) {
		KUNIT_EXPECT_STREQ(test, rdma_event_msg(log->ev[i]),
				   rdma_event_msg(types[i]));
		KUNIT_EXPECT_EQ(test, log->status[i], 0);
	}
}

/*
 * Destroy while the address callback may run (at once, or a little
 * later): the destroy returns with ADDR_RESOLVED heard or not, and never
 * an event after it returned.  To see that, the log of every id is read
 * again after a barrier (sentinel_resolve()) behind which any callback
 * the destroys left queued would have run: the count of events must be
 * the one each destroy returned with.
 */
static void rdma_cma_destroy_races_resolve(struct kunit *test)
{
	static const enum rdma_cm_event_type types[] = {
		RDMA_CM_EVENT_ADDR_RESOLVED,
	};
	unsigned int i, count = rounds(40, 200);
	struct cma_ctx *ctx = new_ctx(test);
	unsigned int resolved = 0, after = 0;
	struct sockaddr_storage dst;
	struct ev_log **logs;
	unsigned int *seen;

	logs = kunit_kcalloc(test, count, sizeof(*logs), GFP_KERNEL);
	seen = kunit_kcalloc(test, count, sizeof(*seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, logs);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (i = 0; i < count; i++) {
		struct ev_log *log = new_id(test, IB_QPT_RC);

		logs[i] = log;
		KUNIT_ASSERT_EQ(test,
				rdma_resolve_addr(log->id, NULL,
						  ip4(&dst, "192.0.2.2",
						      TEST_PORT), 1000), 0);
		if (i & 1)
			udelay(i % 50);
		kunit_release_action(test, id_destroy_action, log);
		seen[i] = READ_ONCE(log->n);
		expect_heard(test, log, seen[i], 1, types);
		resolved += seen[i];
	}
	/* whatever raced, every id is gone from the device */
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 0);

	sentinel_resolve(test, false);
	for (i = 0; i < count; i++)
		after += READ_ONCE(logs[i]->n);
	KUNIT_EXPECT_EQ_MSG(test, after, resolved,
			    "events after rdma_destroy_id() returned");
	kunit_info(test, "%u of %u ids heard ADDR_RESOLVED before the destroy\n",
		   resolved, count);
}

/*
 * Route resolution queued when the id is destroyed: the destroy returns
 * with ROUTE_RESOLVED heard or not, and nothing comes after it (read
 * again behind a barrier on cma_wq, as above).
 */
static void rdma_cma_destroy_races_route(struct kunit *test)
{
	static const enum rdma_cm_event_type types[] = {
		RDMA_CM_EVENT_ADDR_RESOLVED, RDMA_CM_EVENT_ROUTE_RESOLVED,
	};
	unsigned int i, count = rounds(20, 100);
	struct cma_ctx *ctx = new_ctx(test);
	unsigned int heard = 0, after = 0;
	struct sockaddr_storage dst;
	struct ev_log **logs;
	unsigned int *seen;

	logs = kunit_kcalloc(test, count, sizeof(*logs), GFP_KERNEL);
	seen = kunit_kcalloc(test, count, sizeof(*seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, logs);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (i = 0; i < count; i++) {
		struct ev_log *log = new_id(test, IB_QPT_RC);

		logs[i] = log;
		KUNIT_ASSERT_EQ(test,
				rdma_resolve_addr(log->id, NULL,
						  ip4(&dst, "192.0.2.2",
						      TEST_PORT), 1000), 0);
		expect_event(test, log, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
		KUNIT_ASSERT_EQ(test, rdma_resolve_route(log->id, 1000), 0);
		if (i & 1)
			udelay(i % 20);
		kunit_release_action(test, id_destroy_action, log);
		seen[i] = READ_ONCE(log->n);
		KUNIT_EXPECT_GE(test, seen[i], 1);
		expect_heard(test, log, seen[i], 2, types);
		heard += seen[i];
	}
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 0);

	sentinel_resolve(test, true);
	for (i = 0; i < count; i++)
		after += READ_ONCE(logs[i]->n);
	KUNIT_EXPECT_EQ_MSG(test, after, heard,
			    "events after rdma_destroy_id() returned");
}

/*
 * The device goes away while an id on it waits for a neighbour that never
 * answers: DEVICE_REMOVAL, then the destroy cancels the resolution (no
 * ADDR_RESOLVED or ADDR_ERROR ever comes).  To see "never", the
 * neighbour is made valid after the destroy: that makes every pending
 * resolution try again at once (ib_addr's netevent handler), and the
 * sentinel's callback behind them on the ordered queue is the barrier.
 */
static void rdma_cma_removal_during_resolve(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage ss;

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(log->id,
					     ip4(&ss, "192.0.2.1", 0)), 0);
	/* 192.0.2.3 has no neighbour entry: ARP goes out, nobody answers */
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&ss, "192.0.2.3",
						    TEST_PORT), 60000), 0);
	log->destroy_on = RDMA_CM_EVENT_DEVICE_REMOVAL;
	bed_remove_hca(ctx);
	expect_event(test, log, 1, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	KUNIT_ASSERT_TRUE(test, wait_event_timeout(log->wq,
						   READ_ONCE(log->destroyed),
						   EV_WAIT));
	rt_neigh4(test, ctx->rtc, ctx->a, "192.0.2.3", peer_mac);
	sentinel_resolve(test, false);
	KUNIT_EXPECT_EQ(test, READ_ONCE(log->n), 1);
}

struct destroyer {
	struct work_struct work;
	struct ev_log **logs;
	unsigned int count;
	unsigned int started;	/* ids whose destroy began */
};

static void destroyer_work(struct work_struct *work)
{
	struct destroyer *d = container_of(work, struct destroyer, work);
	unsigned int i;

	for (i = 0; i < d->count; i++) {
		WRITE_ONCE(d->started, i + 1);
		rdma_destroy_id(d->logs[i]->id);
		WRITE_ONCE(d->logs[i]->destroyed, true);
		usleep_range(20, 60);
	}
}

/*
 * Owners destroy their ids while the device is being removed: some hear
 * DEVICE_REMOVAL first, some not; the removal waits for all of them.
 */
static void rdma_cma_destroy_races_removal(struct kunit *test)
{
	static const enum rdma_cm_event_type types[] = {
		RDMA_CM_EVENT_DEVICE_REMOVAL,
	};
	struct cma_ctx *ctx = new_ctx(test);
	struct destroyer d = { .count = 16 };
	struct sockaddr_storage ss;
	unsigned int i, removals = 0;

	d.logs = kunit_kcalloc(test, d.count, sizeof(*d.logs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d.logs);
	for (i = 0; i < d.count; i++) {
		d.logs[i] = new_id(test, IB_QPT_RC);
		KUNIT_ASSERT_EQ(test, rdma_bind_addr(d.logs[i]->id,
						     ip4(&ss, "192.0.2.1", 0)),
				0);
	}
	KUNIT_ASSERT_EQ(test, cm_ids_of(ctx->dev), d.count);

	INIT_WORK_ONSTACK(&d.work, destroyer_work);
	queue_work(system_unbound_wq, &d.work);
	bed_remove_hca(ctx);
	/* the removal waited for the last id: its destroy had begun */
	KUNIT_EXPECT_EQ(test, READ_ONCE(d.started), d.count);
	flush_work(&d.work);
	destroy_work_on_stack(&d.work);

	/* each id heard DEVICE_REMOVAL (status 0) once, or nothing */
	for (i = 0; i < d.count; i++) {
		expect_heard(test, d.logs[i], d.logs[i]->n, 1, types);
		removals += d.logs[i]->n;
	}
	kunit_info(test, "%u of %u ids heard DEVICE_REMOVAL\n", removals,
		   d.count);
}

struct churn {
	struct work_struct work;
	struct kunit *test;
	unsigned int rounds;	/* at least, and on until @stop */
	bool stop;
	int errors;
};

/* Wildcard listeners hear nothing when their devices come and go. */
static int churn_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct churn *c = id->context;

	c->errors++;
	return 0;
}

/* Wildcard listeners made and destroyed in a loop. */
static void listener_churn_work(struct work_struct *work)
{
	struct churn *c = container_of(work, struct churn, work);
	struct sockaddr_in any = { .sin_family = AF_INET };
	unsigned int i;

	for (i = 0; i < c->rounds || !READ_ONCE(c->stop); i++) {
		struct rdma_cm_id *id;

		id = rdma_create_id(&init_net, churn_handler, c, RDMA_PS_TCP,
				    IB_QPT_RC);
		if (IS_ERR(id)) {
			c->errors++;
			continue;
		}
		if (rdma_bind_addr(id, (struct sockaddr *)&any) ||
		    rdma_listen(id, 4))
			c->errors++;
		rdma_destroy_id(id);
	}
}

static void churn_stop(void *data)
{
	struct churn *c = data;

	WRITE_ONCE(c->stop, true);
	flush_work(&c->work);
}

/*
 * Devices come and go while wildcard listeners come and go: the churn
 * goes on until the last device went, so the two always overlap.
 */
static void rdma_cma_listen_races_devices(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	unsigned int i, devices = rounds(3, 10);
	struct churn *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	c->rounds = rounds(20, 200);
	INIT_WORK(&c->work, listener_churn_work);
	queue_work(system_unbound_wq, &c->work);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, churn_stop, c),
			0);
	for (i = 0; i < devices; i++) {
		struct fake_hca *hca = new_roce_hca(test, ctx->b, NULL);

		fake_hca_kunit_destroy(test, hca);
	}
	kunit_release_action(test, churn_stop, c);
	KUNIT_EXPECT_EQ(test, c->errors, 0);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 0);
}

/* A new MAC on the bound net device: ADDR_CHANGE. */
static void rdma_cma_addr_change(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage dst;

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, log, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);

	/* as "ip link set A down; ... address MAC; ... up" */
	KUNIT_ASSERT_EQ(test, set_mac(ctx->a, mac_new), 0);
	expect_event(test, log, 2, RDMA_CM_EVENT_ADDR_CHANGE, 0);
}

/*
 * A handler that refuses ADDR_RESOLVED or ADDR_ERROR (RDS does so) has
 * its id destroyed by rdma_cm inside the address callback, that is in
 * the callback's own work on ib_core's ordered "ib_addr" queue.  The
 * destroy must not wait for that work (it would wait for itself, and
 * every later resolution on the host would queue behind it): the
 * resolution started afterwards still calls back.
 */
static void rdma_cma_addr_handler_nonzero(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *ok = new_id(test, IB_QPT_RC);
	struct ev_log *err = new_id(test, IB_QPT_RC);
	struct sockaddr_storage dst;

	ok->ret[RDMA_CM_EVENT_ADDR_RESOLVED] = -ECONNABORTED;
	err->ret[RDMA_CM_EVENT_ADDR_ERROR] = -ECONNABORTED;
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(ok->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, ok, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(err->id, NULL,
						ip4(&dst, "198.51.100.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, err, 1, RDMA_CM_EVENT_ADDR_ERROR, -ENODEV);
	/* both callbacks returned: this one is queued behind them */
	sentinel_resolve(test, false);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 1);
}

/* As "ip link set A down; ip link set A address mac_new; ... up" */
static void change_mac(struct kunit *test, struct net_device *ndev)
{
	KUNIT_ASSERT_EQ(test, set_mac(ndev, mac_new), 0);
}

/*
 * A handler refusing an event delivered from rdma_cm's ordered cma_wq
 * while another event of its id is queued behind it there: the destroy
 * that follows must not wait on cma_wq for that event's reference (the
 * queue runs one work at a time: it would wait for itself).  @hold keeps
 * cma_wq busy until the refused ROUTE_RESOLVED and an ADDR_CHANGE of the
 * same id are both queued (@hold's own ADDR_CHANGE with them); @hold
 * hearing its ADDR_CHANGE proves cma_wq ran on, and the refusing id hears
 * nothing after its refusal.  (Taking A down flushes its neighbours: no
 * resolution towards 192.0.2.2 after this.)
 */
static void rdma_cma_work_handler_nonzero(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *hold = new_id(test, IB_QPT_RC);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct sockaddr_storage dst;

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(hold->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, hold, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(log->id, NULL,
						ip4(&dst, "192.0.2.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, log, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);

	hold->block_on = RDMA_CM_EVENT_ROUTE_RESOLVED;
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(hold->id, 1000), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&hold->blocked,
							    EV_WAIT));
	log->ret[RDMA_CM_EVENT_ROUTE_RESOLVED] = -ECONNABORTED;
	KUNIT_EXPECT_EQ(test, rdma_resolve_route(log->id, 1000), 0);
	change_mac(test, ctx->a);	/* ADDR_CHANGE of both, queued */
	complete(&hold->release);

	expect_event(test, log, 2, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	/* queued behind the refused event: cma_wq went on */
	expect_event(test, hold, 3, RDMA_CM_EVENT_ADDR_CHANGE, 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(log->n), 2);
}

/*
 * A port without a connection manager answers as upstream's does:
 * -ENOSYS for listen, connect and the QP attributes, and a wildcard
 * listen fails on its device instead of skipping it.  Its RoCE route
 * needs no CM and resolves; the ACK timeout set before gives the path's
 * packet life time (upstream: timeout - 1, IBTA 12.7.34), and the RNR
 * timer is a 5-bit value.  The device: port 1 RoCE without a CM on B
 * (198.51.100.1), port 2 InfiniBand, so that rdma_cm takes the device.
 */
static void rdma_cma_no_cm_port(struct kunit *test)
{
	struct ib_gid_attr attr = { .gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP };
	struct cma_ctx *ctx = new_ctx(test);
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 2);
	struct ev_log *bound, *conn, *any;
	struct rdma_conn_param param = {};
	struct sockaddr_storage ss;
	struct ib_qp_attr qp_attr = { .qp_state = IB_QPS_INIT };
	struct fake_hca *hca;
	union ib_gid gid;
	int mask;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kucmn%d";
	fake_hca_desc_set_eth(desc, 1);
	desc->port[0].netdev = ctx->b;
	desc->port[0].no_cm = true;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	ipv6_addr_set_v4mapped(in_aton("198.51.100.1"),
			       (struct in6_addr *)gid.raw);
	RCU_INIT_POINTER(attr.ndev, ctx->b);
	KUNIT_ASSERT_EQ(test, ib_cache_gid_add(&hca->ibdev, 1, &gid, &attr), 0);
	/* made after the device: their destroy comes before its removal */
	bound = new_id(test, IB_QPT_RC);
	conn = new_id(test, IB_QPT_RC);
	any = new_id(test, IB_QPT_RC);

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(bound->id,
					     ip4(&ss, "198.51.100.1",
						 TEST_PORT + 20)), 0);
	KUNIT_ASSERT_PTR_EQ(test, bound->id->device, &hca->ibdev);
	KUNIT_EXPECT_EQ(test, rdma_listen(bound->id, 1), -ENOSYS);
	KUNIT_EXPECT_EQ(test, st(bound->id), RDMA_CM_ADDR_BOUND);

	KUNIT_ASSERT_EQ(test, rdma_resolve_addr(conn->id, NULL,
						ip4(&ss, "198.51.100.2",
						    TEST_PORT), 1000), 0);
	expect_event(test, conn, 1, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	KUNIT_ASSERT_PTR_EQ(test, conn->id->device, &hca->ibdev);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(conn->id, 0x20), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_min_rnr_timer(conn->id, 0x1f), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_ack_timeout(conn->id, 14), 0);
	KUNIT_ASSERT_EQ(test, rdma_resolve_route(conn->id, 1000), 0);
	expect_event(test, conn, 2, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	KUNIT_ASSERT_NOT_NULL(test, conn->id->route.path_rec);
	KUNIT_EXPECT_EQ(test, conn->id->route.path_rec->packet_life_time, 13);
	KUNIT_EXPECT_EQ(test, rdma_connect(conn->id, &param), -ENOSYS);
	KUNIT_EXPECT_EQ(test, st(conn->id), RDMA_CM_ROUTE_RESOLVED);
	KUNIT_EXPECT_EQ(test, rdma_init_qp_attr(conn->id, &qp_attr, &mask),
			-ENOSYS);

	/* a wildcard listener cannot cover the device: refused, undone */
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(any->id,
					     ip4(&ss, "0.0.0.0",
						 TEST_PORT + 21)), 0);
	KUNIT_EXPECT_EQ(test, rdma_listen(any->id, 1), -ENOSYS);
	KUNIT_EXPECT_EQ(test, st(any->id), RDMA_CM_ADDR_BOUND);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, cm_ids_of(&hca->ibdev), 2);
}

/* restrack: an id is found by its number and maps back to itself. */
static void rdma_cma_restrack(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct ev_log *other = new_id(test, IB_QPT_RC);
	struct rdma_restrack_entry *res = NULL;
	struct sockaddr_storage ss;
	u32 id;

	/* unattached ids are not tracked */
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(other->id, ip4(&ss, "0.0.0.0", 0)),
			0);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 0);

	KUNIT_ASSERT_EQ(test, rdma_bind_addr(log->id, ip4(&ss, "192.0.2.1", 0)),
			0);
	KUNIT_ASSERT_EQ(test, cm_ids_of(ctx->dev), 1);
	/* the one CM ID of the device, whatever number it got */
	for (id = 0; id < 4096 && IS_ERR_OR_NULL(res); id++)
		res = rdma_restrack_get_byid(ctx->dev, RDMA_RESTRACK_CM_ID, id);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, res);
	KUNIT_EXPECT_PTR_EQ(test, rdma_res_to_id(res), log->id);
	KUNIT_EXPECT_TRUE(test, rdma_is_kernel_res(res));
	KUNIT_EXPECT_STREQ(test, res->kern_name, KBUILD_MODNAME);
	rdma_restrack_put(res);

	kunit_release_action(test, id_destroy_action, log);
	KUNIT_EXPECT_EQ(test, cm_ids_of(ctx->dev), 0);
}

/* "rdma res show cm_id": the nldev entry of a bound id. */
static void rdma_cma_nldev_entry(struct kunit *test)
{
	struct cma_ctx *ctx = new_ctx(test);
	struct ev_log *log = new_id(test, IB_QPT_RC);
	struct nlattr **tb = kt_tb_alloc(test);
	struct kt_nlc *c = kt_nlc_open(test);
	struct rdma_restrack_entry *res = NULL;
	struct sockaddr_storage ss;
	struct sockaddr_in *sin;
	struct nlmsghdr *reply;
	struct kt_req *r;
	u32 idn;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(log->id,
					     ip4(&ss, "192.0.2.1",
						 TEST_PORT + 9)), 0);
	for (idn = 0; idn < 4096 && IS_ERR_OR_NULL(res); idn++)
		res = rdma_restrack_get_byid(ctx->dev, RDMA_RESTRACK_CM_ID, idn);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, res);
	idn = res->id;
	rdma_restrack_put(res);

	kt_req_init(r, RDMA_NLDEV_CMD_RES_CM_ID_GET, 0);
	kt_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, ctx->dev->index);
	/* CM IDs belong to a port, as QPs */
	kt_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, ROCE_PORT);
	kt_req_u32(r, RDMA_NLDEV_ATTR_RES_CM_IDN, idn);
	KUNIT_ASSERT_EQ(test, kt_nlc_do(c, r, &reply), 0);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_ASSERT_EQ(test, nla_parse_deprecated(tb, RDMA_NLDEV_ATTR_MAX - 1,
						   nlmsg_attrdata(reply, 0),
						   nlmsg_attrlen(reply, 0),
						   NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_CM_IDN]),
			idn);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_RES_PS]),
			(u32)RDMA_PS_TCP);
	/* RDMA_CM_ADDR_BOUND: 7 in upstream's numbering */
	KUNIT_EXPECT_EQ(test, kt_attr_u8(test, tb[RDMA_NLDEV_ATTR_RES_STATE]), 7);
	KUNIT_EXPECT_EQ(test, kt_attr_u32(test, tb[RDMA_NLDEV_ATTR_PORT_INDEX]),
			ROCE_PORT);
	KUNIT_EXPECT_STREQ(test, kt_attr_str(test, tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]),
			   KBUILD_MODNAME);
	KUNIT_ASSERT_NOT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_SRC_ADDR]);
	KUNIT_ASSERT_EQ(test, nla_len(tb[RDMA_NLDEV_ATTR_RES_SRC_ADDR]),
			(int)sizeof(struct __kernel_sockaddr_storage));
	sin = nla_data(tb[RDMA_NLDEV_ATTR_RES_SRC_ADDR]);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
			ntohl(in_aton("192.0.2.1")));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), TEST_PORT + 9);
	/* no QP: no local QP number */
	KUNIT_EXPECT_NULL(test, tb[RDMA_NLDEV_ATTR_RES_LQPN]);
}

static void rdma_cma_event_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(RDMA_CM_EVENT_ADDR_RESOLVED),
			   "address resolved");
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(RDMA_CM_EVENT_TIMEWAIT_EXIT),
			   "timewait exit");
	KUNIT_EXPECT_STREQ(test, rdma_event_msg(99), "unrecognized event");
}

static struct kunit_case rdma_cma_cases[] = {
	KUNIT_CASE(rdma_cma_resolve_roce),
	KUNIT_CASE(rdma_cma_roce_connect_no_gsi),
	KUNIT_CASE(rdma_cma_roce_sgid_attr_refs),
	KUNIT_CASE(rdma_cma_roce_route_tos_mtu),
	KUNIT_CASE(rdma_cma_roce_default_mode),
	KUNIT_CASE(rdma_cma_roce_route_ipv6),
	KUNIT_CASE(rdma_cma_addr_error),
	KUNIT_CASE(rdma_cma_resolve_loopback),
	KUNIT_CASE(rdma_cma_wrong_state),
	KUNIT_CASE(rdma_cma_roce_listen),
	KUNIT_CASE(rdma_cma_roce_multicast),
	KUNIT_CASE(rdma_cma_roce_multicast_refused),
	KUNIT_CASE(rdma_cma_listen_all_devices),
	KUNIT_CASE(rdma_cma_device_removal),
	KUNIT_CASE(rdma_cma_destroy_races_resolve),
	KUNIT_CASE(rdma_cma_destroy_races_route),
	KUNIT_CASE(rdma_cma_removal_during_resolve),
	KUNIT_CASE(rdma_cma_destroy_races_removal),
	KUNIT_CASE(rdma_cma_listen_races_devices),
	KUNIT_CASE(rdma_cma_addr_change),
	KUNIT_CASE(rdma_cma_no_cm_port),
	KUNIT_CASE(rdma_cma_work_handler_nonzero),
	KUNIT_CASE(rdma_cma_addr_handler_nonzero),
	KUNIT_CASE(rdma_cma_restrack),
	KUNIT_CASE(rdma_cma_nldev_entry),
	KUNIT_CASE(rdma_cma_event_names),
	{}
};

/* The suite's exit: the HCA, then the net devices */
static void rdma_cma_suite_exit(struct kunit_suite *suite)
{
	if (bed.hca)
		fake_hca_destroy(bed.hca);
	fake_hca_netdev_free(bed.a);
	fake_hca_netdev_free(bed.b);
	memset(&bed, 0, sizeof(bed));
}

/* The suite's init: A and B, then the HCA on A */
static int rdma_cma_suite_init(struct kunit_suite *suite)
{
	int ret;

	ret = fake_hca_netdev_new_arp(&bed.a, mac_a);
	if (!ret)
		ret = fake_hca_netdev_new_arp(&bed.b, mac_b);
	if (!ret)
		ret = bed_new_hca();
	if (ret)
		rdma_cma_suite_exit(suite);
	return ret;
}

static struct kunit_suite rdma_cma_suite = {
	.name = "rdma_cma",
	.suite_init = rdma_cma_suite_init,
	.suite_exit = rdma_cma_suite_exit,
	.test_cases = rdma_cma_cases,
};

kunit_test_suite(rdma_cma_suite);

MODULE_DESCRIPTION("KUnit tests of the RDMA connection manager");
MODULE_LICENSE("Dual BSD/GPL");
