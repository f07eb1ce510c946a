// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_counters": what rdmavt's engine counts in its
 * hardware counters (hw/sw/rdmavt/hw_counters.c, upstream rxe's set) on
 * the loop fabric, per port and per per-QP counter.
 *
 * RC SENDs between two QPs of the suite's loop device: each message is
 * one packet (a 200-byte payload, path MTU 4096) and one ACK, so a
 * port's sent_pkts and rcvd_pkts grow by two per message, rdma_sends and
 * rdma_recvs by one.  An RNR NAK counts at both QPs, and the request that
 * has no retry left counts once.  A QP bound to a per-QP counter
 * ("rdma statistic qp bind", through netlink) counts there and no more
 * in its port's own values, while the port as "rdma statistic show"
 * reads it counts everything, also after the counter is gone.  A port
 * shut down counts link_downed.
 *
 * Values are deltas of counters read through the driver's op
 * (rvt_get_hw_stats(): the port's own values) and through nldev (the
 * port with its per-QP counters).  Every message is waited for, so the
 * counters are read on an idle device.
 */

#include <kunit/test.h>
#include <kunit/rdma_counters.h>
#include <kunit/rdma_verbs.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

#define MSGS		5
#define MSG_LEN		200

static struct kt_vt rc_vt;

static void rc_suite_exit(struct kunit_suite *suite)
{
	kt_suite_vt_free(&rc_vt);
}

static int rc_suite_init(struct kunit_suite *suite)
{
	int ret = kt_suite_vt_new(&rc_vt, "kurvc%d");

	if (ret)
		rc_suite_exit(suite);
	return ret;
}

/* The port's own values (rdmavt's op), by enum rvt_hw_counter. */
struct rc_snap {
	u64 v[RVT_NUM_HW_COUNTERS];
};

static void rc_snap(struct kunit *test, struct ib_device *dev,
		    struct rc_snap *s)
{
	struct rdma_hw_stats *st = rvt_alloc_hw_port_stats(dev, 1);

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_EXPECT_EQ(test, dev->ops.get_hw_stats(dev, st, 1, 0),
			RVT_NUM_HW_COUNTERS);
	memcpy(s->v, st->value, sizeof(s->v));
	rdma_free_hw_stats_struct(st);
}

/* What grew from @a to @b: @want, one value per counter. */
static void rc_expect(struct kunit *test, const struct rc_snap *a,
		      const struct rc_snap *b, const u64 *want)
{
	static const char * const names[RVT_NUM_HW_COUNTERS] = {
		"sent_pkts", "rcvd_pkts", "duplicate_request",
		"out_of_seq_request", "rcvd_rnr_err", "send_rnr_err",
		"rcvd_seq_err", "ack_deferred", "retry_exceeded_err",
		"retry_rnr_exceeded_err", "completer_retry_err", "send_err",
		"link_downed", "rdma_sends", "rdma_recvs",
	};
	int i;

	for (i = 0; i < RVT_NUM_HW_COUNTERS; i++)
		KUNIT_EXPECT_EQ_MSG(test, b->v[i] - a->v[i], want[i], "%s",
				    names[i]);
}

/* @n SENDs of MSG_LEN from p->qp[0] to p->qp[1], each received. */
static void rc_sends(struct kunit *test, struct kt_pair *p, int n)
{
	struct kt_tcqe *r = kt_new_tcqes(test, n), *s = kt_new_tcqes(test, n);
	u8 *sbuf, *rbuf;
	int i;

	kt_new_bufs(test, n * MSG_LEN, &sbuf, &rbuf);
	kt_post_recvs(test, p->qp[1], r, rbuf, MSG_LEN, n);
	kt_send_n(test, p->qp[0], p->cq[0], s, sbuf, MSG_LEN, n);
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], &r[i]));
		KT_EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	}
	KUNIT_EXPECT_EQ(test, memcmp(sbuf, rbuf, n * MSG_LEN), 0);
}

static void rvt_counters_sends(struct kunit *test)
{
	struct kt_pair *p = kt_new_pair_on(test, &rc_vt, IB_QPT_RC,
					   IB_POLL_DIRECT, 0);
	struct kt_nlc *c = kt_nlc_open(test);
	struct ib_device *dev = rc_vt.dev;
	u64 want[RVT_NUM_HW_COUNTERS] = {};
	struct rc_snap a, b;
	u64 sent;

	rc_snap(test, dev, &a);
	sent = kt_cnt_port(c, dev, 1, "sent_pkts");
	rc_sends(test, p, MSGS);
	rc_snap(test, dev, &b);

	want[RVT_CNT_SENT_PKTS] = 2 * MSGS;
	want[RVT_CNT_RCVD_PKTS] = 2 * MSGS;
	want[RVT_CNT_RDMA_SEND] = MSGS;
	want[RVT_CNT_RDMA_RECV] = MSGS;
	rc_expect(test, &a, &b, want);
	/* "rdma statistic show" reads the same */
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 1, "sent_pkts") - sent,
			2ULL * MSGS);
}

static void rvt_counters_rnr(struct kunit *test)
{
	struct kt_pair *p = kt_new_pair_on(test, &rc_vt, IB_QPT_RC,
					   IB_POLL_DIRECT, 0);
	struct kt_tcqe *s = kt_new_tcqe(test);
	u64 want[RVT_NUM_HW_COUNTERS] = {};
	struct rc_snap a, b;
	struct ib_sge sge;

	rc_snap(test, rc_vt.dev, &a);
	/* no receive posted, no RNR retry: the first RNR NAK fails it */
	sge = kt_sge_of(p->qp[0]->pd, p->buf[0], MSG_LEN);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KT_EXPECT_WC(test, s, IB_WC_RNR_RETRY_EXC_ERR, IB_WC_SEND);
	rc_snap(test, rc_vt.dev, &b);

	/* the request and the RNR NAK */
	want[RVT_CNT_SENT_PKTS] = 2;
	want[RVT_CNT_RCVD_PKTS] = 2;
	want[RVT_CNT_RCV_RNR] = 1;
	want[RVT_CNT_SND_RNR] = 1;
	want[RVT_CNT_RNR_RETRY_EXCEEDED] = 1;
	rc_expect(test, &a, &b, want);
}

static void rvt_counters_per_qp(struct kunit *test)
{
	struct kt_pair *p = kt_new_pair_on(test, &rc_vt, IB_QPT_RC,
					   IB_POLL_DIRECT, 0);
	struct kt_pair *q = kt_new_pair_on(test, &rc_vt, IB_QPT_RC,
					   IB_POLL_DIRECT, 0);
	struct kt_nlc *c = kt_nlc_open(test);
	struct ib_device *dev = rc_vt.dev;
	u64 want[RVT_NUM_HW_COUNTERS] = {};
	u64 total, v, sends;
	struct rc_snap a, b;
	u32 cnt = 0;

	KUNIT_ASSERT_EQ(test, kt_cnt_bind(c, dev, 1, p->qp[0]->qp_num, 0,
					  &cnt), 0);
	rc_snap(test, dev, &a);
	total = kt_cnt_port(c, dev, 1, "sent_pkts");
	sends = kt_cnt_port(c, dev, 1, "rdma_sends");

	rc_sends(test, p, MSGS);
	rc_sends(test, q, MSGS + 1);

	/* the bound QP: its requests, the ACKs it got, its SENDs */
	KUNIT_ASSERT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "sent_pkts", &v),
			0);
	KUNIT_EXPECT_EQ(test, v, (u64)MSGS);
	KUNIT_ASSERT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "rcvd_pkts", &v),
			0);
	KUNIT_EXPECT_EQ(test, v, (u64)MSGS);
	KUNIT_ASSERT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "rdma_sends", &v),
			0);
	KUNIT_EXPECT_EQ(test, v, (u64)MSGS);
	KUNIT_ASSERT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "rdma_recvs", &v),
			0);
	KUNIT_EXPECT_EQ(test, v, 0ULL);

	/* the port's own values: everything else */
	rc_snap(test, dev, &b);
	want[RVT_CNT_SENT_PKTS] = MSGS + 2 * (MSGS + 1);
	want[RVT_CNT_RCVD_PKTS] = MSGS + 2 * (MSGS + 1);
	want[RVT_CNT_RDMA_SEND] = MSGS + 1;
	want[RVT_CNT_RDMA_RECV] = MSGS + MSGS + 1;
	rc_expect(test, &a, &b, want);
	/* the port as shown: both */
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 1, "sent_pkts") - total,
			(u64)(2 * MSGS + 2 * (MSGS + 1)));
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 1, "rdma_sends") - sends,
			(u64)(2 * MSGS + 1));

	/* unbound, the counter goes, and the port keeps what it counted */
	KUNIT_ASSERT_EQ(test, kt_cnt_unbind(c, dev, 1, p->qp[0]->qp_num, cnt),
			0);
	KUNIT_EXPECT_EQ(test, kt_cnt_counter(c, dev, 1, cnt, "sent_pkts", &v),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 1, "sent_pkts") - total,
			(u64)(2 * MSGS + 2 * (MSGS + 1)));
	/* and the QP counts in the port again */
	rc_snap(test, dev, &a);
	rc_sends(test, p, 1);
	rc_snap(test, dev, &b);
	KUNIT_EXPECT_EQ(test, b.v[RVT_CNT_SENT_PKTS] - a.v[RVT_CNT_SENT_PKTS],
			2ULL);
	KUNIT_EXPECT_EQ(test, kt_cnt_port(c, dev, 1, "sent_pkts") - total,
			(u64)(2 * MSGS + 2 * (MSGS + 1) + 2));
}

static void rvt_counters_link_downed(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurvd%d");
	struct ib_port_modify pm = {};
	u64 want[RVT_NUM_HW_COUNTERS] = {};
	struct ib_port_attr pa;
	struct rc_snap a, b;

	rc_snap(test, vt->dev, &a);
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, IB_PORT_SHUTDOWN,
					     &pm), 0);
	KUNIT_ASSERT_EQ(test, ib_query_port(vt->dev, 1, &pa), 0);
	KUNIT_EXPECT_EQ(test, pa.state, IB_PORT_DOWN);
	/* down already: no second count */
	KUNIT_ASSERT_EQ(test, ib_modify_port(vt->dev, 1, IB_PORT_SHUTDOWN,
					     &pm), 0);
	rc_snap(test, vt->dev, &b);
	want[RVT_CNT_LINK_DOWNED] = 1;
	rc_expect(test, &a, &b, want);
}

static struct kunit_case rdma_rvt_counters_cases[] = {
	KUNIT_CASE(rvt_counters_sends),
	KUNIT_CASE(rvt_counters_rnr),
	KUNIT_CASE(rvt_counters_per_qp),
	KUNIT_CASE(rvt_counters_link_downed),
	{}
};

static struct kunit_suite rdma_rvt_counters_suite = {
	.name = "rdma_rvt_counters",
	.suite_init = rc_suite_init,
	.suite_exit = rc_suite_exit,
	.test_cases = rdma_rvt_counters_cases,
};

kunit_test_suite(rdma_rvt_counters_suite);

MODULE_DESCRIPTION("KUnit suite rdma_rvt_counters: what rdmavt's engine counts");
MODULE_LICENSE("Dual BSD/GPL");
