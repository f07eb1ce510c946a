// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_srq": shared receive queues (core/ib_core/verbs/srq.c) on
 * loop devices: an SRQ feeding two QPs, its limit event, draining a QP on
 * it, and resizing it with receives posted.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>

/* An SRQ feeds two QPs; the limit event fires once armed. */
static atomic_t srq_limit_events;

static void srq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		atomic_inc(&srq_limit_events);
}

static void verbs_srq(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_srq_init_attr sattr = {
		.event_handler = srq_event,
		.attr = { .max_wr = 16, .max_sge = 2 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct ib_srq_attr qattr;
	struct ib_qp *a, *b, *c;
	struct ib_sge sge, rsge;
	struct tcqe *r = new_tcqes(test, 4), *s = new_tcqes(test, 2);
	unsigned long start;
	struct ib_srq *srq;
	u8 *sbuf, *rbuf;
	int i;

	atomic_set(&srq_limit_events, 0);
	srq = ib_create_srq(vt->pd, &sattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_srq,
							srq), 0);
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &qattr), 0);
	KUNIT_EXPECT_EQ(test, qattr.max_wr, 16);

	a = new_qp(test, vt, IB_QPT_RC, cq, cq);
	b = new_qp_on(test, vt, vt->pd, IB_QPT_RC, cq, cq, srq);
	c = new_qp_on(test, vt, vt->pd, IB_QPT_RC, cq, cq, srq);
	KUNIT_EXPECT_EQ(test, atomic_read(&srq->usecnt), 2);
	/* b and c both answer a: b first, then c */
	KUNIT_ASSERT_EQ(test, to_rts(a, b->qp_num, port_lid(vt->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, to_rts(b, a->qp_num, port_lid(vt->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, to_rts(c, a->qp_num, port_lid(vt->dev), 0), 0);

	sbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 4 * 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	for (i = 0; i < 4; i++) {
		struct ib_recv_wr wr = { .sg_list = &rsge, .num_sge = 1 };

		rsge = sge_of(vt->pd, rbuf + i * 64, 64);
		tcqe_init(&r[i]);
		wr.wr_cqe = &r[i].cqe;
		KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, &wr, NULL), 0);
	}
	qattr.srq_limit = 3;
	KUNIT_ASSERT_EQ(test, ib_modify_srq(srq, &qattr, IB_SRQ_LIMIT), 0);

	get_random_bytes(sbuf, 64);
	sge = sge_of(vt->pd, sbuf, 64);
	for (i = 0; i < 2; i++) {
		tcqe_init(&s[i]);
		KUNIT_ASSERT_EQ(test, post_send(a, &s[i], IB_WR_SEND, &sge, 1,
						0), 0);
		KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, &s[i]));
		EXPECT_WC(test, &s[i], IB_WC_SUCCESS, IB_WC_SEND);
		KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, &r[i]));
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
		KUNIT_EXPECT_PTR_EQ(test, r[i].wc.qp, b);
		KUNIT_EXPECT_EQ(test, memcmp(rbuf + i * 64, sbuf, 64), 0);
	}
	/* 2 left < limit 3: one event, then disarmed */
	KUNIT_EXPECT_EQ(test, atomic_read(&srq_limit_events), 1);

	/* an SRQ with QPs attached cannot go */
	KUNIT_EXPECT_EQ(test, ib_destroy_srq_user(srq, NULL), -EBUSY);
	/*
	 * Draining a QP on an SRQ waits for the last WQE event (and gives up
	 * after a minute without it): it must come at once.
	 */
	start = jiffies;
	ib_drain_qp(c);
	KUNIT_EXPECT_EQ(test, qp_state(c), IB_QPS_ERR);
	KUNIT_EXPECT_LT(test, jiffies - start, 10 * HZ);
}

/*
 * An SRQ grows with receives posted, which it hands out in order; it
 * cannot shrink below what it holds; limit and size change in one call.
 */
static void verbs_srq_resize(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = 4, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct tcqe *r = new_tcqes(test, 10), *s = new_tcqes(test, 10);
	struct ib_srq_attr qattr = {};
	struct ib_recv_wr wr = { .num_sge = 1 };
	struct ib_sge rsge;
	struct ib_srq *srq;
	struct ib_qp *a, *b;
	u8 *sbuf, *rbuf;
	int i;

	srq = ib_create_srq(vt->pd, &sattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_srq,
							srq), 0);
	a = new_qp(test, vt, IB_QPT_RC, cq, cq);
	b = new_qp_on(test, vt, vt->pd, IB_QPT_RC, cq, cq, srq);
	connect_rc(test, vt, a, b);

	new_bufs(test, 10 * 32, &sbuf, &rbuf);

	wr.sg_list = &rsge;
	for (i = 0; i < 10; i++) {
		rsge = sge_of(vt->pd, rbuf + i * 32, 32);
		tcqe_init(&r[i]);
		wr.wr_cqe = &r[i].cqe;
		if (i == 4) {
			/* full with 4: it cannot shrink to 2, it grows to 10 */
			KUNIT_EXPECT_EQ(test, ib_post_srq_recv(srq, &wr, NULL),
					-ENOMEM);
			qattr.max_wr = 2;
			KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &qattr,
							    IB_SRQ_MAX_WR),
					-EINVAL);
			qattr.max_wr = 10;
			qattr.srq_limit = 10;
			KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &qattr,
							    IB_SRQ_MAX_WR |
							    IB_SRQ_LIMIT),
					-EINVAL);
			qattr.srq_limit = 0;
			KUNIT_ASSERT_EQ(test, ib_modify_srq(srq, &qattr,
							    IB_SRQ_MAX_WR), 0);
			KUNIT_ASSERT_EQ(test, ib_query_srq(srq, &qattr), 0);
			KUNIT_EXPECT_EQ(test, qattr.max_wr, 10);
		}
		KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, &wr, NULL), 0);
	}
	send_n(test, a, cq, s, sbuf, 32, 10);
	for (i = 0; i < 10; i++) {
		KUNIT_ASSERT_TRUE(test, tcqe_wait(cq, &r[i]));
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	}
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 10 * 32), 0);
}

static struct kunit_case rdma_srq_cases[] = {
	KUNIT_CASE(verbs_srq),
	KUNIT_CASE(verbs_srq_resize),
	{}
};

static struct kunit_suite rdma_srq_suite = {
	.name = "rdma_srq",
	.test_cases = rdma_srq_cases,
};

kunit_test_suite(rdma_srq_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA shared receive queues on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
