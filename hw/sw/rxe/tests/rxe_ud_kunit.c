// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite of rxe's datagrams: two soft-RoCE devices on the two ends
 * of a cable of the suite's own (a pair of Ethernet net devices whose
 * transmit is the other's receive, and which can damage a frame on the
 * way; the second end in a network namespace of its own), with IPv4 and
 * IPv6 addresses and permanent neighbours, so that
 * the core's RoCE GID management gives both devices their GIDs of both
 * types.  UD SENDs both ways over RoCE v2 (IPv4, IPv6) and RoCE v1, of
 * several lengths and with immediate data; the network header in the
 * receive buffer and the address vector the core makes of it
 * (ib_init_ah_attr_from_wc()); the drops (Q_Key, ICRC) and the sends
 * that complete with an error (too long, no route); and a GSI MAD
 * request and its response between the two devices through the MAD
 * layer.
 *
 * The bed (cable, devices, addresses) is made by the first case that
 * needs it and kept until the suite ends: making it costs the GID work
 * of every address.
 */
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
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <kunit/rdma_mad.h>
#include <kunit/rdma_rtnl.h>

#include "rxe_bed.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KU_BUF		2048
#define KU_GRH		40
#define KU_QKEY		0x11110000
#define KU_CLASS	0x0b	/* a vendor class without OUI */

/* ------------------------------------------------------------------
 * UD QPs
 */

/**
 * struct ku_qp - a UD QP of the suite with its CQ and buffers
 * @side: its device
 * @pd: its PD
 * @cq: its CQ (send and receive), polled by the case
 * @qp: the QP
 * @buf: what it receives into
 * @sbuf: what it sends from
 */
struct ku_qp {
	struct ku_side	*side;
	struct ib_pd	*pd;
	struct ib_cq	*cq;
	struct ib_qp	*qp;
	u8		*buf;
	u8		*sbuf;
};

static void ku_qp_free(void *p)
{
	struct ku_qp *q = p;

	if (q->qp)
		ib_destroy_qp(q->qp);
	if (q->cq)
		ib_free_cq(q->cq);
	if (q->pd)
		ib_dealloc_pd(q->pd);
	kfree(q->buf);
	kfree(q->sbuf);
}

/* A UD QP of @s in RTS with Q_Key @qkey (its first PSNs wrap). */
static struct ku_qp *ku_new_qp_qkey(struct kunit *test, struct ku_side *s,
				    u32 qkey)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_UD,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qkey = qkey,
	};
	struct ku_qp *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	q->side = s;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_qp_free, q),
			0);
	q->buf = kzalloc(KU_BUF, GFP_KERNEL);
	q->sbuf = kzalloc(KU_BUF, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, q->buf && q->sbuf);
	q->pd = ib_alloc_pd(s->ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q->pd));
	q->cq = ib_alloc_cq(s->ibdev, NULL, 64, 0, IB_POLL_DIRECT);
	if (IS_ERR(q->cq))
		q->cq = NULL;
	KUNIT_ASSERT_NOT_NULL(test, q->cq);
	init.send_cq = q->cq;
	init.recv_cq = q->cq;
	q->qp = ib_create_qp(q->pd, &init);
	if (IS_ERR(q->qp)) {
		KUNIT_FAIL(test, "create_qp: %ld", PTR_ERR(q->qp));
		q->qp = NULL;
		return NULL;
	}
	KUNIT_ASSERT_EQ(test, ib_modify_qp(q->qp, &attr, IB_QP_STATE |
					   IB_QP_PKEY_INDEX | IB_QP_PORT |
					   IB_QP_QKEY), 0);
	attr.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(q->qp, &attr, IB_QP_STATE), 0);
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0xfffffe;	/* the first datagrams' PSNs wrap */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(q->qp, &attr, IB_QP_STATE |
					   IB_QP_SQ_PSN), 0);
	return q;
}

static struct ku_qp *ku_new_qp(struct kunit *test, struct ku_side *s)
{
	return ku_new_qp_qkey(test, s, KU_QKEY);
}

static int ku_post_recv(struct ku_qp *q, u32 len)
{
	struct ib_sge sge = {
		.addr = (uintptr_t)q->buf,
		.length = len,
		.lkey = q->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };

	memset(q->buf, 0, KU_BUF);
	return ib_post_recv(q->qp, &wr, NULL);
}

/* held around rdma_create_ah(): the AHs are made in atomic context */
static DEFINE_SPINLOCK(ku_ah_lock);

/*
 * An AH on @pd of @from to @to's GID @what of @type, its destination MAC
 * resolved first as kernel callers do (ib_resolve_eth_dmac()).
 */
static struct ib_ah *ku_ah_on(struct kunit *test, struct ib_pd *pd,
			      struct ku_side *from, struct ku_side *to,
			      int what, enum ib_gid_type type)
{
	struct rdma_ah_attr attr = {};
	const struct ib_gid_attr *sgid;
	union ib_gid dgid;
	struct ib_ah *ah;
	int index = ku_gid_index(from, what, type);
	int ret;

	KUNIT_ASSERT_GE_MSG(test, index, 0, "no GID %d of type %d", what,
			    type);
	KUNIT_ASSERT_GE(test, ku_gid_index(to, what, type), 0);
	ku_gid(to, what, &dgid);
	attr.type = rdma_ah_find_type(from->ibdev, 1);
	rdma_ah_set_port_num(&attr, 1);
	rdma_ah_set_grh(&attr, &dgid, 0, index, 64, 0);
	sgid = rdma_get_gid_attr(from->ibdev, 1, index);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sgid));
	attr.grh.sgid_attr = sgid;
	ret = ib_resolve_eth_dmac(from->ibdev, &attr);
	/*
	 * Made in atomic context, as the IB CM makes its AHs (under its
	 * MAD agent's spinlock): nothing below may sleep.
	 */
	spin_lock_bh(&ku_ah_lock);
	ah = ret ? ERR_PTR(ret) : rdma_create_ah(pd, &attr, 0);
	spin_unlock_bh(&ku_ah_lock);
	rdma_put_gid_attr(sgid);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ah), "create_ah: %ld",
			       PTR_ERR(ah));
	return ah;
}

static struct ib_ah *ku_ah(struct kunit *test, struct ku_qp *q,
			   struct ku_side *to, int what, enum ib_gid_type type)
{
	return ku_ah_on(test, q->pd, q->side, to, what, type);
}

static void ku_destroy_ah(void *ah)
{
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
}

static int ku_send(struct ku_qp *q, struct ib_ah *ah, u32 dqpn, u32 qkey,
		   u32 len, bool imm)
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
			.num_sge = len ? 1 : 0,
			.opcode = imm ? IB_WR_SEND_WITH_IMM : IB_WR_SEND,
			.ex.imm_data = cpu_to_be32(0xabcd0000 | len),
		},
		.ah = ah,
		.remote_qpn = dqpn,
		.remote_qkey = qkey,
	};

	return ib_post_send(q->qp, &wr.wr, NULL);
}

/* The next completion of @q within a second; false if none came. */
static bool ku_poll(struct ku_qp *q, struct ib_wc *wc)
{
	unsigned long end = jiffies + HZ;

	do {
		if (ib_poll_cq(q->cq, 1, wc) == 1)
			return true;
		usleep_range(100, 200);
	} while (time_before(jiffies, end));
	return false;
}

/*
 * A datagram of @len from @a to @b through @ah, checked where it lands:
 * in the receive WQE @b has posted first.
 */
static void ku_check(struct kunit *test, struct ku_qp *a, struct ku_qp *b,
		     struct ib_ah *ah, u32 len, bool imm, int nh)
{
	struct ib_wc wc, rwc;
	u32 i;

	for (i = 0; i < len; i++)
		a->sbuf[i] = i * 7 + len;
	KUNIT_ASSERT_EQ(test, ku_send(a, ah, b->qp->qp_num, KU_QKEY, len, imm),
			0);
	KUNIT_ASSERT_TRUE(test, ku_poll(a, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_SEND);
	KUNIT_ASSERT_TRUE_MSG(test, ku_poll(b, &rwc), "len %u lost", len);
	KUNIT_EXPECT_EQ_MSG(test, rwc.status, IB_WC_SUCCESS,
			    "len %u: byte_len %u", len, rwc.byte_len);
	KUNIT_EXPECT_EQ(test, rwc.byte_len, KU_GRH + len);
	KUNIT_EXPECT_EQ(test, rwc.src_qp, a->qp->qp_num);
	KUNIT_EXPECT_TRUE(test, rwc.wc_flags & IB_WC_GRH);
	KUNIT_EXPECT_TRUE(test, rwc.wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE);
	KUNIT_EXPECT_EQ(test, rwc.network_hdr_type,
			nh == 4 ? RDMA_NETWORK_IPV4 : nh == 6 ?
			RDMA_NETWORK_IPV6 : RDMA_NETWORK_ROCE_V1);
	KUNIT_EXPECT_EQ(test, !!(rwc.wc_flags & IB_WC_WITH_IMM), imm);
	if (imm)
		KUNIT_EXPECT_EQ(test, be32_to_cpu(rwc.ex.imm_data),
				0xabcd0000 | len);
	KUNIT_EXPECT_MEMEQ(test, b->buf + KU_GRH, a->sbuf, len);
}

/* ku_check() into a receive WQE of just the size. */
static void ku_one(struct kunit *test, struct ku_qp *a, struct ku_qp *b,
		   struct ib_ah *ah, u32 len, bool imm, int nh)
{
	KUNIT_ASSERT_EQ(test, ku_post_recv(b, KU_GRH + len), 0);
	ku_check(test, a, b, ah, len, imm, nh);
}

/* Send both ways over GIDs @what of @type, several lengths. */
static void ku_both_ways(struct kunit *test, int what, enum ib_gid_type type,
			 int nh)
{
	static const u32 lens[] = { 0, 1, 3, 4, 257, 1024 };
	struct ku_qp *q[2];
	struct ib_ah *ah[2];
	struct rdma_ah_attr av;
	union ib_gid gid;
	struct ib_wc wc;
	int i, j;

	ku_bed(test);
	for (i = 0; i < 2; i++)
		q[i] = ku_new_qp(test, &ku_side[i]);
	KUNIT_ASSERT_TRUE(test, q[0] && q[1]);
	for (i = 0; i < 2; i++) {
		ah[i] = ku_ah(test, q[i], &ku_side[!i], what, type);
		KUNIT_ASSERT_EQ(test,
				kunit_add_action_or_reset(test, ku_destroy_ah,
							  ah[i]), 0);
	}
	for (j = 0; j < ARRAY_SIZE(lens); j++)
		for (i = 0; i < 2; i++)
			ku_one(test, q[i], q[!i], ah[i], lens[j], j & 1,
			       nh);

	/* the header in the buffer as the core reads it for a reply */
	ku_one(test, q[0], q[1], ah[0], 8, false, nh);
	if (nh == 4) {
		__be32 s = in_aton(ku_side[0].ip4), d = in_aton(ku_side[1].ip4);

		KUNIT_EXPECT_MEMEQ(test, q[1]->buf + 20 + 12, &s, 4);
		KUNIT_EXPECT_MEMEQ(test, q[1]->buf + 20 + 16, &d, 4);
	}
	memset(&wc, 0, sizeof(wc));
	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc.network_hdr_type = nh == 4 ? RDMA_NETWORK_IPV4 : nh == 6 ?
			      RDMA_NETWORK_IPV6 : RDMA_NETWORK_ROCE_V1;
	wc.src_qp = q[0]->qp->qp_num;
	memset(&av, 0, sizeof(av));
	KUNIT_ASSERT_EQ(test, ib_init_ah_attr_from_wc(ku_side[1].ibdev, 1, &wc,
						      (void *)q[1]->buf, &av),
			0);
	ku_gid(&ku_side[0], what, &gid);
	KUNIT_EXPECT_MEMEQ(test, av.grh.dgid.raw, gid.raw, 16);
	KUNIT_EXPECT_EQ(test, av.grh.sgid_attr->gid_type, type);
	ku_gid(&ku_side[1], what, &gid);
	KUNIT_EXPECT_MEMEQ(test, av.grh.sgid_attr->gid.raw, gid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, av.roce.dmac, ku_side[0].ndev->dev_addr,
			   ETH_ALEN);
	rdma_destroy_ah_attr(&av);
}

static void rxe_ud_v2_ipv4(struct kunit *test)
{
	ku_both_ways(test, 4, IB_GID_TYPE_ROCE_UDP_ENCAP, 4);
}

static void rxe_ud_v2_ipv6(struct kunit *test)
{
	ku_both_ways(test, 6, IB_GID_TYPE_ROCE_UDP_ENCAP, 6);
}

static void rxe_ud_v1(struct kunit *test)
{
	ku_both_ways(test, 0, IB_GID_TYPE_ROCE, 1);
}

/*
 * What a receiver drops is counted and never completes: a wrong Q_Key, a
 * damaged ICRC (v2 and v1).  A datagram that does not fit the receive
 * buffer completes in error there; one longer than the MTU fails at the
 * sender.  The QPs stay in RTS and the next datagram goes through.
 */
static void rxe_ud_drops(struct kunit *test)
{
	struct rxe_dev *rb;
	struct ku_qp *a, *b;
	struct ib_ah *ah, *ah1;
	s64 qkey, icrc;
	struct ib_wc wc;

	ku_bed(test);
	a = ku_new_qp(test, &ku_side[0]);
	b = ku_new_qp(test, &ku_side[1]);
	KUNIT_ASSERT_TRUE(test, a && b);
	rb = to_rxe_dev(ku_side[1].ibdev);
	ah = ku_ah(test, a, &ku_side[1], 4, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_destroy_ah,
							ah), 0);
	ah1 = ku_ah(test, a, &ku_side[1], 0, IB_GID_TYPE_ROCE);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_destroy_ah,
							ah1), 0);
	qkey = atomic64_read(&rb->drops[RXE_DROP_QKEY]);
	icrc = atomic64_read(&rb->drops[RXE_DROP_ICRC]);

	/* a wrong Q_Key, then two damaged frames; the receive WQE waits */
	KUNIT_ASSERT_EQ(test, ku_post_recv(b, KU_GRH + 16), 0);
	KUNIT_ASSERT_EQ(test, ku_send(a, ah, b->qp->qp_num, KU_QKEY + 1, 16,
				      false), 0);
	KUNIT_ASSERT_TRUE(test, ku_poll(a, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	atomic_set(&ku_damage, 2);
	KUNIT_ASSERT_EQ(test, ku_send(a, ah, b->qp->qp_num, KU_QKEY, 16,
				      false), 0);
	KUNIT_ASSERT_TRUE(test, ku_poll(a, &wc));
	KUNIT_ASSERT_EQ(test, ku_send(a, ah1, b->qp->qp_num, KU_QKEY, 16,
				      false), 0);
	KUNIT_ASSERT_TRUE(test, ku_poll(a, &wc));
	KUNIT_EXPECT_EQ(test, atomic_read(&ku_damage), 0);
	/* the good one takes the WQE the others did not */
	ku_check(test, a, b, ah, 16, true, 4);
	KUNIT_EXPECT_EQ(test, atomic64_read(&rb->drops[RXE_DROP_QKEY]),
			qkey + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&rb->drops[RXE_DROP_ICRC]),
			icrc + 2);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(b->cq, 1, &wc), 0);

	/* 100 bytes into a buffer of 40 + 64 */
	KUNIT_ASSERT_EQ(test, ku_post_recv(b, KU_GRH + 64), 0);
	KUNIT_ASSERT_EQ(test, ku_send(a, ah, b->qp->qp_num, KU_QKEY, 100,
				      false), 0);
	KUNIT_ASSERT_TRUE(test, ku_poll(a, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, ku_poll(b, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_LEN_ERR);

	/* more than the MTU (1024 on a 1500-byte net device) */
	KUNIT_ASSERT_EQ(test, ku_send(a, ah, b->qp->qp_num, KU_QKEY, 1025,
				      false), 0);
	KUNIT_ASSERT_TRUE(test, ku_poll(a, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_LEN_ERR);
	ku_one(test, a, b, ah, 1024, false, 4);
}

/*
 * A datagram whose source address went away (no route from it) completes
 * at once with an error; the QP stays in RTS.
 */
static void rxe_ud_no_route(struct kunit *test)
{
	struct ku_qp *a, *b;
	struct kt_rtnl *c;
	struct ib_ah *ah;
	struct ib_wc wc;
	int ifi;

	ku_bed(test);
	a = ku_new_qp(test, &ku_side[0]);
	b = ku_new_qp(test, &ku_side[1]);
	KUNIT_ASSERT_TRUE(test, a && b);
	ah = ku_ah(test, a, &ku_side[1], 4, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_destroy_ah,
							ah), 0);
	c = kt_rtnl_open(test, &init_net);
	KUNIT_ASSERT_NOT_NULL(test, c);
	ifi = ku_side[0].ndev->ifindex;
	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(c, RTM_DELADDR, ifi,
					   ku_side[0].ip4, 24), 0);
	KUNIT_EXPECT_EQ(test, ku_send(a, ah, b->qp->qp_num, KU_QKEY, 8, false),
			0);
	KUNIT_EXPECT_TRUE(test, ku_poll(a, &wc));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_QP_OP_ERR);
	/*
	 * The GID goes after the address, in a work item: once it is gone
	 * the address comes back (else the lookup below could find the old
	 * entry on its way out, and an AH on it is refused).
	 */
	KUNIT_ASSERT_TRUE(test, ku_gid_gone(&ku_side[0], 4,
					    IB_GID_TYPE_ROCE_UDP_ENCAP));
	/* the address back; the route with it */
	KUNIT_ASSERT_EQ(test, kt_rtnl_addr(c, RTM_NEWADDR, ifi,
					   ku_side[0].ip4, 24), 0);
	/* the old AH holds the GID that went: a new one takes the new */
	ah = ku_ah(test, a, &ku_side[1], 4, IB_GID_TYPE_ROCE_UDP_ENCAP);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ku_destroy_ah,
							ah), 0);
	ku_one(test, a, b, ah, 8, false, 4);
}

/* ------------------------------------------------------------------
 * A MAD between the two devices
 */

/**
 * struct ku_mad - what an agent of the MAD case saw
 * @sent: its request's send completed
 * @got: a response (or a request, on the answering side) arrived
 * @status: the status of the send completion
 * @data: the first data byte of the response
 */
struct ku_mad {
	struct completion	sent;
	struct completion	got;
	enum ib_wc_status	status;
	u8			data;
};

static void ku_mad_send(struct ib_mad_agent *agent,
			struct ib_mad_send_wc *swc)
{
	struct ku_mad *m = agent->context;

	if (kt_mad_is_reply(swc->send_buf)) {
		kt_mad_reply_free(swc->send_buf);
		return;
	}
	m->status = swc->status;
	rdma_destroy_ah(swc->send_buf->ah, RDMA_DESTROY_AH_SLEEPABLE);
	ib_free_send_mad(swc->send_buf);
	complete(&m->sent);
}

static void ku_mad_recv(struct ib_mad_agent *agent,
			struct ib_mad_send_buf *send_buf,
			struct ib_mad_recv_wc *rwc)
{
	struct ku_mad *m = agent->context;

	if (!ib_response_mad(&rwc->recv_buf.mad->mad_hdr))
		kt_mad_answer_get(agent, rwc);
	else
		m->data = rwc->recv_buf.mad->data[0];
	ib_free_recv_mad(rwc);
	complete(&m->got);
}

static struct ib_mad_agent *ku_agent(struct kunit *test, struct ku_side *s,
				     struct ku_mad *m)
{
	struct ib_mad_reg_req req = {
		.mgmt_class = KU_CLASS,
		.mgmt_class_version = 1,
	};
	struct ib_mad_agent *agent;

	__set_bit(IB_MGMT_METHOD_GET, req.method_mask);
	init_completion(&m->sent);
	init_completion(&m->got);
	agent = ib_register_mad_agent(s->ibdev, 1, IB_QPT_GSI, &req, 0,
				      ku_mad_send, ku_mad_recv, m, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(agent), "agent: %ld",
			       PTR_ERR(agent));
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, kt_unregister_agent,
						  agent), 0);
	return agent;
}

/*
 * A Get from one device's QP1 to the other's over RoCE v2, answered by
 * the other's agent through an address vector made from the request's
 * completion: the response comes and the request's send completes.
 */
static void rxe_ud_mad(struct kunit *test)
{
	struct ib_mad_agent *agent;
	struct ib_mad_send_buf *sb;
	struct ku_mad m[2];
	struct ib_mad *mad;
	struct ib_ah *ah;

	ku_bed(test);
	agent = ku_agent(test, &ku_side[0], &m[0]);
	ku_agent(test, &ku_side[1], &m[1]);
	ah = ku_ah_on(test, agent->qp->pd, &ku_side[0], &ku_side[1], 4,
		      IB_GID_TYPE_ROCE_UDP_ENCAP);
	sb = ib_create_send_mad(agent, 1, 0, 0, IB_MGMT_MAD_HDR,
				IB_MGMT_MAD_DATA, GFP_KERNEL,
				IB_MGMT_BASE_VERSION);
	if (IS_ERR(sb))
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sb));
	mad = sb->mad;
	mad->mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	mad->mad_hdr.mgmt_class = KU_CLASS;
	mad->mad_hdr.class_version = 1;
	mad->mad_hdr.method = IB_MGMT_METHOD_GET;
	mad->mad_hdr.attr_id = cpu_to_be16(0x10);
	mad->mad_hdr.tid = cpu_to_be64((u64)agent->hi_tid << 32 | 7);
	sb->ah = ah;
	sb->timeout_ms = 2000;
	sb->retries = 0;
	if (ib_post_send_mad(sb, NULL)) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		ib_free_send_mad(sb);
		KUNIT_FAIL(test, "post_send_mad failed");
		return;
	}
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&m[1].got, HZ));
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&m[0].got, HZ));
	KUNIT_EXPECT_EQ(test, m[0].data, 0xab);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&m[0].sent,
							    3 * HZ));
	KUNIT_EXPECT_EQ(test, m[0].status, IB_WC_SUCCESS);
}

#include "rxe_ud_mcast.c"

static void rxe_ud_suite_exit(struct kunit_suite *suite)
{
	ku_bed_free();
}

static struct kunit_case rxe_ud_cases[] = {
	KUNIT_CASE(rxe_ud_v2_ipv4),
	KUNIT_CASE(rxe_ud_v2_ipv6),
	KUNIT_CASE(rxe_ud_v1),
	KUNIT_CASE(rxe_ud_drops),
	KUNIT_CASE(rxe_ud_no_route),
	KUNIT_CASE(rxe_ud_mad),
	KUNIT_CASE(rxe_mcast_filter),
	KUNIT_CASE(rxe_mcast_v4),
	KUNIT_CASE(rxe_mcast_v6),
	KUNIT_CASE(rxe_mcast_v1),
	KUNIT_CASE(rxe_mcast_rdma_cm),
	{}
};

static struct kunit_suite rxe_ud_suite = {
	.name = "rdma_rxe_ud",
	.suite_exit = rxe_ud_suite_exit,
	.test_cases = rxe_ud_cases,
};

kunit_test_suite(rxe_ud_suite);

MODULE_DESCRIPTION("KUnit suite of rdma_rxe's UD and GSI datagrams");
MODULE_LICENSE("Dual BSD/GPL");
