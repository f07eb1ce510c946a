// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The multicast cases of the rdma_rxe_ud suite (rxe_ud_kunit.c includes
 * this file, so that they run on its bed and with its UD QPs: making a
 * bed costs seconds): QPs attached to groups through ib_attach_mcast(),
 * the net device's multicast filter, the device's limits, and datagrams
 * sent to a group over RoCE v2 (IPv4 and IPv6 groups, the receiving
 * host joined to the IP group as rdma_cm joins it) and RoCE v1, reaching
 * every attached QP and no other.  A tap on the receiving end sees the
 * destination MAC of each RoCE frame.
 */
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <net/if_inet6.h>
#include <net/ip.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_cm_ib.h>

/* groups (IPv4-mapped, IPv6); the filter case's joined by no one else */
#define KU_G4		"239.77.0.1"
#define KU_G4F		"239.77.0.9"
#define KU_G6		"ff0e::77:1"
#define KU_G6F		"ff0e::77:9"

static void ku_mgid(const char *addr, union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (strchr(addr, ':'))
		in6_pton(addr, -1, gid->raw, -1, NULL);
	else
		ipv6_addr_set_v4mapped(in_aton(addr),
				       (struct in6_addr *)gid->raw);
}

/*
 * The group's Ethernet address, computed here apart from rxe's code:
 * 01:00:5e and the low 23 bits of an IPv4 group, 33:33 and the last
 * four bytes of an IPv6 one.
 */
static void ku_mac(const union ib_gid *mgid, u8 *mac)
{
	if (ipv6_addr_v4mapped((const struct in6_addr *)mgid->raw)) {
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5e;
		mac[3] = mgid->raw[13] & 0x7f;
	} else {
		mac[0] = 0x33;
		mac[1] = 0x33;
		mac[2] = mgid->raw[12];
		mac[3] = mgid->raw[13];
	}
	mac[4] = mgid->raw[14];
	mac[5] = mgid->raw[15];
}

/* ------------------------------------------------------------------
 * Datagrams to groups (UD QPs: rxe_ud_kunit.c's struct ku_qp)
 */

/*
 * An AH of @q to the group @mgid, from @q's GID @what (4, 6) of @type,
 * its MAC resolved by the core as for any kernel caller.
 */
static struct ib_ah *ku_mc_ah(struct kunit *test, struct ku_qp *q,
			      union ib_gid *mgid, int what,
			      enum ib_gid_type type)
{
	int index = ku_gid_index(q->side, what, type);
	struct rdma_ah_attr attr = {};
	const struct ib_gid_attr *sgid;
	struct ib_ah *ah;
	int ret;

	KUNIT_ASSERT_GE(test, index, 0);
	attr.type = rdma_ah_find_type(q->side->ibdev, 1);
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_grh(&attr, mgid, 0, index, 1, 0);
	sgid = rdma_get_gid_attr(q->side->ibdev, 1, index);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sgid));
	attr.grh.sgid_attr = sgid;
	ret = ib_resolve_eth_dmac(q->side->ibdev, &attr);
	ah = ret ? ERR_PTR(ret) : rdma_create_ah(q->pd, &attr,
						 RDMA_CREATE_AH_SLEEPABLE);
	rdma_put_gid_attr(sgid);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ah), "create_ah: %ld",
			       PTR_ERR(ah));
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, ku_destroy_ah, ah), 0);
	return ah;
}

/* Send @len bytes from @q to a group through @ah; its send completes. */
static void ku_mc_send_qkey(struct kunit *test, struct ku_qp *q,
			    struct ib_ah *ah, u32 qkey, u32 len, u8 seed)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)q->sbuf,
		.length = len,
		.lkey = q->pd->local_dma_lkey,
	};
	struct ib_ud_wr wr = {
		.wr = {
			.wr_id = 2,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
		},
		.ah = ah,
		.remote_qpn = IB_MULTICAST_QPN,
		.remote_qkey = qkey,
	};
	unsigned long end = jiffies + HZ;
	struct ib_wc wc;
	u32 i;

	for (i = 0; i < len; i++)
		q->sbuf[i] = seed + i * 13;
	KUNIT_ASSERT_EQ(test, ib_post_send(q->qp, &wr.wr, NULL), 0);
	do {
		if (ib_poll_cq(q->cq, 1, &wc) == 1) {
			KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_SEND);
			return;
		}
		usleep_range(100, 200);
	} while (time_before(jiffies, end));
	KUNIT_FAIL(test, "no send completion");
}

static void ku_mc_send(struct kunit *test, struct ku_qp *q, struct ib_ah *ah,
		       u32 len, u8 seed)
{
	ku_mc_send_qkey(test, q, ah, KU_QKEY, len, seed);
}

/* @r received the datagram of @len that @s sent (ku_mc_send()). */
static void ku_got(struct kunit *test, struct ku_qp *r, struct ku_qp *s,
		   u32 len)
{
	struct ib_wc wc;

	KUNIT_ASSERT_TRUE_MSG(test, ku_poll(r, &wc), "QP %u got nothing",
			      r->qp->qp_num);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, KU_GRH + len);
	KUNIT_EXPECT_EQ(test, wc.src_qp, s->qp->qp_num);
	KUNIT_EXPECT_MEMEQ(test, r->buf + KU_GRH, s->sbuf, len);
}

/*
 * @r received nothing.  Called after a QP attached to the same group got
 * the datagram (the device delivers to all of a group's QPs in one go)
 * or the tap saw it: nothing is still on its way to @r.
 */
static void ku_none(struct kunit *test, struct ku_qp *r)
{
	struct ib_wc wc;

	KUNIT_EXPECT_EQ_MSG(test, ib_poll_cq(r->cq, 1, &wc), 0,
			    "QP %u got a datagram", r->qp->qp_num);
}

/**
 * struct ku_att - an attachment of a QP to a group, undone at the end of
 *	the case if the case did not (so that a failed case leaves no QP
 *	that cannot be destroyed)
 * @qp: the QP
 * @mgid: the group
 * @on: still attached
 */
struct ku_att {
	struct ib_qp	*qp;
	union ib_gid	mgid;
	bool		on;
};

static void ku_att_free(void *p)
{
	struct ku_att *t = p;

	if (t->on)
		ib_detach_mcast(t->qp, &t->mgid, 0);
}

static struct ku_att *ku_attach(struct kunit *test, struct ib_qp *qp,
				const union ib_gid *mgid, u16 lid)
{
	struct ku_att *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->qp = qp;
	t->mgid = *mgid;
	KUNIT_ASSERT_EQ(test, ib_attach_mcast(qp, &t->mgid, lid), 0);
	t->on = true;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_att_free, t),
			0);
	return t;
}

static void ku_detach(struct kunit *test, struct ku_att *t)
{
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(t->qp, &t->mgid, 0), 0);
	t->on = false;
}

/* ------------------------------------------------------------------
 * The net device: its multicast filter, a tap on what it receives
 */

/* References of @mac in @ndev's multicast list (0: not there). */
static int ku_mc_refs(struct net_device *ndev, const u8 *mac)
{
	struct netdev_hw_addr *ha;
	int refs = 0;

	netif_addr_lock_bh(ndev);
	netdev_for_each_mc_addr(ha, ndev)
		if (ether_addr_equal(ha->addr, mac))
			refs = ha->refcount;
	netif_addr_unlock_bh(ndev);
	return refs;
}

/*
 * The destination MAC of the last RoCE frame the tap saw, and how many
 * it saw.  The tap is a packet_type of the net device: its handler runs
 * after the handlers of every device (IP, RoCE v1) are done with the
 * frame, so a frame it counted went through rxe's receive already.
 */
static u8 ku_tap_dmac[ETH_ALEN];
static atomic_t ku_tap_frames = ATOMIC_INIT(0);
static DEFINE_SPINLOCK(ku_tap_lock);

/* A RoCE frame?  @skb->data at its network header. */
static bool ku_tap_roce(struct sk_buff *skb)
{
	const struct udphdr *udph;
	unsigned int off;

	if (skb->protocol == htons(ETH_P_IBOE))
		return true;
	if (skb->protocol == htons(ETH_P_IP)) {
		if (!pskb_may_pull(skb, sizeof(struct iphdr)) ||
		    ip_hdr(skb)->protocol != IPPROTO_UDP)
			return false;
		off = sizeof(struct iphdr);
	} else {
		if (!pskb_may_pull(skb, sizeof(struct ipv6hdr)) ||
		    ipv6_hdr(skb)->nexthdr != IPPROTO_UDP)
			return false;
		off = sizeof(struct ipv6hdr);
	}
	if (!pskb_may_pull(skb, off + sizeof(*udph)))
		return false;
	udph = (const struct udphdr *)(skb->data + off);
	return udph->dest == htons(RXE_ROCE_V2_PORT);
}

static int ku_tap_rcv(struct sk_buff *skb, struct net_device *ndev,
		      struct packet_type *pt, struct net_device *orig)
{
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	if (skb_mac_header_was_set(skb) && ku_tap_roce(skb)) {
		spin_lock_bh(&ku_tap_lock);
		ether_addr_copy(ku_tap_dmac, eth_hdr(skb)->h_dest);
		spin_unlock_bh(&ku_tap_lock);
		atomic_inc(&ku_tap_frames);
	}
	kfree_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type ku_tap = {
	.func = ku_tap_rcv,
};

static void ku_tap_off(void *unused)
{
	dev_remove_pack(&ku_tap);
}

/* Watch RoCE frames of @type coming in on @ndev. */
static void ku_tap_on(struct kunit *test, struct net_device *ndev, u16 type)
{
	eth_zero_addr(ku_tap_dmac);
	atomic_set(&ku_tap_frames, 0);
	ku_tap.type = htons(type);
	ku_tap.dev = ndev;
	dev_add_pack(&ku_tap);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_tap_off,
							NULL), 0);
}

/* Wait up to a second for the tap to have seen @n RoCE frames. */
static void ku_tap_wait(struct kunit *test, int n)
{
	unsigned long end = jiffies + HZ;

	while (atomic_read(&ku_tap_frames) < n) {
		if (time_after(jiffies, end)) {
			KUNIT_FAIL(test, "the tap saw %d frames, not %d",
				   atomic_read(&ku_tap_frames), n);
			return;
		}
		usleep_range(100, 200);
	}
}

/* The tap saw @n frames, the last one to the group @mgid's MAC. */
static void ku_tap_expect(struct kunit *test, const union ib_gid *mgid,
			  int n)
{
	u8 mac[ETH_ALEN], seen[ETH_ALEN];

	ku_tap_wait(test, n);
	ku_mac(mgid, mac);
	spin_lock_bh(&ku_tap_lock);
	ether_addr_copy(seen, ku_tap_dmac);
	spin_unlock_bh(&ku_tap_lock);
	KUNIT_EXPECT_MEMEQ(test, seen, mac, ETH_ALEN);
}

/* ------------------------------------------------------------------
 * IP groups, joined on the receiving device as rdma_cm joins them
 */

struct ku_ipjoin {
	struct net_device	*ndev;
	struct in6_addr		addr;
};

static void ku_ip_leave(void *p)
{
	struct ku_ipjoin *j = p;
	struct in_device *in_dev;

	if (ipv6_addr_v4mapped(&j->addr)) {
		rtnl_lock();
		in_dev = __in_dev_get_rtnl(j->ndev);
		if (in_dev)
			ip_mc_dec_group(in_dev, j->addr.s6_addr32[3]);
		rtnl_unlock();
	} else {
		ipv6_dev_mc_dec(j->ndev, &j->addr);
	}
}

static void ku_ip_join(struct kunit *test, struct net_device *ndev,
		       const union ib_gid *mgid)
{
	struct ku_ipjoin *j = kunit_kzalloc(test, sizeof(*j), GFP_KERNEL);
	struct in_device *in_dev;

	KUNIT_ASSERT_NOT_NULL(test, j);
	j->ndev = ndev;
	memcpy(&j->addr, mgid->raw, sizeof(j->addr));
	if (ipv6_addr_v4mapped(&j->addr)) {
		rtnl_lock();
		in_dev = __in_dev_get_rtnl(ndev);
		if (in_dev)
			ip_mc_inc_group(in_dev, j->addr.s6_addr32[3]);
		rtnl_unlock();
		KUNIT_ASSERT_NOT_NULL(test, in_dev);
	} else {
		KUNIT_ASSERT_EQ(test, ipv6_dev_mc_inc(ndev, &j->addr), 0);
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_ip_leave, j),
			0);
}

/* ------------------------------------------------------------------
 * The cases
 */

/*
 * Attach and detach: the group's MAC enters the net device's filter with
 * its first QP (one reference for the group, however many QPs) and
 * leaves with its last; the device's limits are upstream rxe's.
 */
static void rxe_mcast_filter(struct kunit *test)
{
	static const char * const groups[] = { KU_G4F, KU_G6F };
	static const u8 macs[][ETH_ALEN] = {
		{ 0x01, 0x00, 0x5e, 0x4d, 0x00, 0x09 },
		{ 0x33, 0x33, 0x00, 0x77, 0x00, 0x09 },
	};
	struct ib_device_attr *attrs;
	struct ku_att *ta, *tb;
	struct net_device *ndev;
	struct ku_qp *a, *b;
	union ib_gid mgid;
	int i;

	ku_bed(test);
	ndev = ku_side[1].ndev;
	attrs = &ku_side[1].ibdev->attrs;
	KUNIT_EXPECT_EQ(test, attrs->max_mcast_grp, 8192);
	KUNIT_EXPECT_EQ(test, attrs->max_mcast_qp_attach, 56);
	KUNIT_EXPECT_EQ(test, attrs->max_total_mcast_qp_attach, 0x70000);

	a = ku_new_qp(test, &ku_side[1]);
	b = ku_new_qp(test, &ku_side[1]);
	KUNIT_ASSERT_TRUE(test, a && b);
	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		u8 mac[ETH_ALEN];

		ku_mgid(groups[i], &mgid);
		ku_mac(&mgid, mac);
		KUNIT_EXPECT_MEMEQ(test, mac, macs[i], ETH_ALEN);
		KUNIT_EXPECT_EQ(test, ku_mc_refs(ndev, macs[i]), 0);
		KUNIT_EXPECT_EQ(test, ib_detach_mcast(a->qp, &mgid, 0),
				-EINVAL);
		ta = ku_attach(test, a->qp, &mgid, 0);
		KUNIT_EXPECT_EQ(test, ku_mc_refs(ndev, macs[i]), 1);
		/* the LID means nothing on RoCE: any finds the group */
		tb = ku_attach(test, b->qp, &mgid, 0xc001);
		KUNIT_EXPECT_EQ(test, ku_mc_refs(ndev, macs[i]), 1);
		ku_detach(test, ta);
		KUNIT_EXPECT_EQ(test, ku_mc_refs(ndev, macs[i]), 1);
		KUNIT_EXPECT_EQ(test, ib_detach_mcast(a->qp, &mgid, 0),
				-EINVAL);
		ku_detach(test, tb);
		KUNIT_EXPECT_EQ(test, ku_mc_refs(ndev, macs[i]), 0);
	}
}

/*
 * A datagram to the group @g over the sender's GID @what of @type
 * reaches every QP attached on the other device, with its payload, and
 * not the one that is not attached; after one detaches, the next reaches
 * only the other.
 */
static void ku_mc_case(struct kunit *test, const char *g, int what,
		       enum ib_gid_type type, u16 ethertype, bool join)
{
	struct ku_qp *s, *a, *b, *c;
	struct ku_att *ta, *tb;
	union ib_gid mgid;
	struct ib_ah *ah;

	ku_bed(test);
	ku_mgid(g, &mgid);
	s = ku_new_qp(test, &ku_side[0]);
	a = ku_new_qp(test, &ku_side[1]);
	b = ku_new_qp(test, &ku_side[1]);
	c = ku_new_qp(test, &ku_side[1]);
	KUNIT_ASSERT_TRUE(test, s && a && b && c);
	if (join)
		ku_ip_join(test, ku_side[1].ndev, &mgid);
	ta = ku_attach(test, a->qp, &mgid, 0);
	tb = ku_attach(test, b->qp, &mgid, 0);
	ah = ku_mc_ah(test, s, &mgid, what, type);
	ku_tap_on(test, ku_side[1].ndev, ethertype);

	KUNIT_ASSERT_EQ(test, ku_post_recv(a, KU_BUF), 0);
	KUNIT_ASSERT_EQ(test, ku_post_recv(b, KU_BUF), 0);
	KUNIT_ASSERT_EQ(test, ku_post_recv(c, KU_BUF), 0);
	ku_mc_send(test, s, ah, 300, 1);
	ku_got(test, a, s, 300);
	ku_got(test, b, s, 300);
	ku_none(test, c);
	ku_tap_expect(test, &mgid, 1);
	/* the destination address is the group's */
	if (what == 4)
		KUNIT_EXPECT_MEMEQ(test, a->buf + 20 + 16, &mgid.raw[12], 4);
	else
		KUNIT_EXPECT_MEMEQ(test, a->buf + 24, mgid.raw, 16);

	ku_detach(test, tb);
	KUNIT_ASSERT_EQ(test, ku_post_recv(a, KU_BUF), 0);
	KUNIT_ASSERT_EQ(test, ku_post_recv(b, KU_BUF), 0);
	ku_mc_send(test, s, ah, 1000, 2);
	ku_got(test, a, s, 1000);
	ku_none(test, b);
	ku_none(test, c);
	ku_detach(test, ta);
}

/* RoCE v2, an IPv4 group (IGMP joined on the receiving device) */
static void rxe_mcast_v4(struct kunit *test)
{
	ku_mc_case(test, KU_G4, 4, IB_GID_TYPE_ROCE_UDP_ENCAP, ETH_P_IP, true);
}

/* RoCE v2, an IPv6 group (MLD joined) */
static void rxe_mcast_v6(struct kunit *test)
{
	ku_mc_case(test, KU_G6, 6, IB_GID_TYPE_ROCE_UDP_ENCAP, ETH_P_IPV6,
		   true);
}

/* RoCE v1: the group in the GRH, no IP group */
static void rxe_mcast_v1(struct kunit *test)
{
	ku_mc_case(test, KU_G6, 6, IB_GID_TYPE_ROCE, ETH_P_IBOE, false);
}

/* ------------------------------------------------------------------
 * Through rdma_cm
 */

#define KU_CM_WAIT_MS	5000

/**
 * struct ku_cm - an rdma_cm id of the case joined to a group
 * @id: the id
 * @q: the QP its join's address vector is made on
 * @done: the join's event came
 * @event: which event
 * @ah: the AH of the join's address vector (MULTICAST_JOIN)
 * @mgid: the group's MGID from the event
 * @qkey: the Q_Key from the event
 */
struct ku_cm {
	struct rdma_cm_id	*id;
	struct ku_qp		*q;
	struct completion	done;
	enum rdma_cm_event_type	event;
	struct ib_ah		*ah;
	union ib_gid		mgid;
	u32			qkey;
};

/* cma_wq, process context */
static int ku_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct ku_cm *c = id->context;
	struct ib_ah *ah;

	if (ev->event != RDMA_CM_EVENT_MULTICAST_JOIN &&
	    ev->event != RDMA_CM_EVENT_MULTICAST_ERROR)
		return 0;
	if (ev->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
		c->mgid = ev->param.ud.ah_attr.grh.dgid;
		c->qkey = ev->param.ud.qkey;
		ah = rdma_create_ah(c->q->pd, &ev->param.ud.ah_attr,
				    RDMA_CREATE_AH_SLEEPABLE);
		c->ah = IS_ERR(ah) ? NULL : ah;
	}
	c->event = ev->event;
	complete(&c->done);
	return 0;
}

static void ku_cm_free(void *p)
{
	struct ku_cm *c = p;

	if (c->id)
		rdma_destroy_id(c->id);
	if (c->ah)
		rdma_destroy_ah(c->ah, RDMA_DESTROY_AH_SLEEPABLE);
}

/*
 * An id of @s bound to its IPv4 address, joined to @group (@state: full
 * member or send-only), its QP on the id's device.
 */
static struct ku_cm *ku_cm_join(struct kunit *test, struct ku_side *s,
				struct sockaddr_in *group, u8 state)
{
	struct ku_cm *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned long left;
	struct sockaddr_in src = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = in_aton(s->ip4),
	};

	KUNIT_ASSERT_NOT_NULL(test, c);
	init_completion(&c->done);
	c->q = ku_new_qp_qkey(test, s, RDMA_UDP_QKEY);
	KUNIT_ASSERT_NOT_NULL(test, c->q);
	c->id = rdma_create_id(dev_net(s->ndev), ku_cm_handler, c,
			       RDMA_PS_UDP, IB_QPT_UD);
	if (IS_ERR(c->id))
		c->id = NULL;
	KUNIT_ASSERT_NOT_NULL(test, c->id);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_cm_free, c),
			0);
	KUNIT_ASSERT_EQ(test, rdma_bind_addr(c->id, (struct sockaddr *)&src),
			0);
	KUNIT_ASSERT_PTR_EQ(test, c->id->device, s->ibdev);
	KUNIT_ASSERT_EQ(test, rdma_join_multicast(c->id,
						  (struct sockaddr *)group,
						  state, NULL), 0);
	left = wait_for_completion_timeout(&c->done,
					   msecs_to_jiffies(KU_CM_WAIT_MS));
	KUNIT_ASSERT_NE_MSG(test, left, 0, "no join event in %d ms",
			    KU_CM_WAIT_MS);
	KUNIT_ASSERT_EQ(test, c->event, RDMA_CM_EVENT_MULTICAST_JOIN);
	KUNIT_ASSERT_NOT_NULL(test, c->ah);
	KUNIT_EXPECT_EQ(test, c->qkey, RDMA_UDP_QKEY);
	return c;
}

/*
 * End to end through rdma_cm over RoCE v2: the receiving side joins the
 * IPv4 group as a full member (rdma_cm joins the IP group) and attaches
 * its QP to the MGID of the join's event; the sending side joins send
 * only and sends through the AH of its event.  Then the receiver leaves
 * the group and detaches: the next datagram reaches no one.
 */
static void rxe_mcast_rdma_cm(struct kunit *test)
{
	struct sockaddr_in group = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = in_aton("239.77.0.2"),
	};
	struct ku_cm *rx, *tx;
	union ib_gid mgid;
	struct ku_att *t;

	ku_bed(test);
	ku_mgid("239.77.0.2", &mgid);
	rx = ku_cm_join(test, &ku_side[1], &group, BIT(FULLMEMBER_JOIN));
	tx = ku_cm_join(test, &ku_side[0], &group,
			BIT(SENDONLY_FULLMEMBER_JOIN));
	KUNIT_EXPECT_MEMEQ(test, rx->mgid.raw, mgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, tx->mgid.raw, mgid.raw, 16);
	t = ku_attach(test, rx->q->qp, &rx->mgid, 0);
	ku_tap_on(test, ku_side[1].ndev, ETH_P_IP);

	KUNIT_ASSERT_EQ(test, ku_post_recv(rx->q, KU_BUF), 0);
	ku_mc_send_qkey(test, tx->q, tx->ah, tx->qkey, 500, 3);
	ku_got(test, rx->q, tx->q, 500);
	ku_tap_expect(test, &mgid, 1);

	rdma_leave_multicast(rx->id, (struct sockaddr *)&group);
	ku_detach(test, t);
	ku_mc_send_qkey(test, tx->q, tx->ah, tx->qkey, 500, 4);
	/* the receiving host is no member any more (IP, rxe): dropped */
	ku_tap_wait(test, 2);
	ku_none(test, rx->q);
}
