// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_cq": completion queues (core/ib_core/verbs/cq.c,
 * core/ib_core/verbs/cq_pool.c) on loop devices: completions through each poll
 * context, the CQ pool shared by two users, resizing a CQ with completions
 * waiting in it (and the refused resize of a pool's CQ), and a CQ that
 * overruns.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>

/* Completions arrive through each poll context of the CQ API. */
static const enum ib_poll_context poll_ctxs[] = {
	IB_POLL_DIRECT, IB_POLL_SOFTIRQ, IB_POLL_WORKQUEUE,
	IB_POLL_UNBOUND_WORKQUEUE,
};

static void poll_desc(const enum ib_poll_context *c, char *desc)
{
	static const char * const n[] = { "softirq", "workqueue",
					  "unbound_workqueue", "direct" };

	strscpy(desc, n[*c], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(poll, poll_ctxs, poll_desc);

#define NMSG	100

static void verbs_poll_context(struct kunit *test)
{
	enum ib_poll_context ctx =
		*(const enum ib_poll_context *)test->param_value;
	struct pair *p = new_pair(test, IB_QPT_RC, ctx, 7);
	struct ib_pd *pd = p->vt->pd;
	struct tcqe *s, *r;
	atomic_t sent = ATOMIC_INIT(0), recvd = ATOMIC_INIT(0);
	struct ib_sge sge, rsge;
	int i;

	s = kunit_kcalloc(test, NMSG, sizeof(*s), GFP_KERNEL);
	r = kunit_kcalloc(test, NMSG, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, p->cq[0]->poll_ctx, ctx);

	sge = sge_of(pd, p->buf[0], 16);
	rsge = sge_of(pd, p->buf[1], 16);
	for (i = 0; i < NMSG; i++) {
		tcqe_init(&r[i]);
		r[i].counter = &recvd;
		KUNIT_ASSERT_EQ(test, post_recv(p->qp[1], &r[i], &rsge, 1), 0);
	}
	for (i = 0; i < NMSG; i++) {
		tcqe_init(&s[i]);
		s[i].counter = &sent;
		KUNIT_ASSERT_EQ(test, post_send(p->qp[0], &s[i], IB_WR_SEND,
						&sge, 1, 0), 0);
	}
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[0], &s[NMSG - 1]));
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], &r[NMSG - 1]));
	KUNIT_EXPECT_EQ(test, atomic_read(&sent), NMSG);
	KUNIT_EXPECT_EQ(test, atomic_read(&recvd), NMSG);
	for (i = 0; i < NMSG; i++) {
		EXPECT_WC(test, &s[i], IB_WC_SUCCESS, IB_WC_SEND);
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	}
	/* drain before the CQs go: nothing may complete after free */
	ib_drain_qp(p->qp[0]);
	ib_drain_qp(p->qp[1]);
}

/* Two users share a pool CQ; room comes back on put. */
static void verbs_cq_pool(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *a, *b, *c;

	a = ib_cq_pool_get(vt->dev, 100, -1, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = ib_cq_pool_get(vt->dev, 200, -1, IB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_PTR_EQ(test, a, b);	/* one vector, room for both */
	KUNIT_EXPECT_TRUE(test, a->shared);
	KUNIT_EXPECT_EQ(test, a->cqe_used, 300);
	KUNIT_EXPECT_GE(test, a->cqe, 300);
	/* a shared CQ cannot be moderated or resized by a user */
	KUNIT_EXPECT_EQ(test, rdma_set_cq_moderation(a, 4, 4), -EOPNOTSUPP);

	/* another context has a pool of its own */
	c = ib_cq_pool_get(vt->dev, 10, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_EXPECT_PTR_NE(test, c, a);
	KUNIT_EXPECT_EQ(test, c->poll_ctx, IB_POLL_SOFTIRQ);

	/* more than a CQ can hold is refused */
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_cq_pool_get(vt->dev, 1U << 30, 0,
						      IB_POLL_WORKQUEUE)));

	ib_cq_pool_put(a, 100);
	KUNIT_EXPECT_EQ(test, b->cqe_used, 200);
	ib_cq_pool_put(b, 200);
	KUNIT_EXPECT_EQ(test, a->cqe_used, 0);
	ib_cq_pool_put(c, 10);
	/* the pool is freed when the device unregisters */
}

/*
 * A CQ grows with completions waiting in it, which it keeps in order; it
 * cannot shrink below what waits; shared CQs cannot be resized.
 */
static void verbs_cq_resize(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *scq = new_cq(test, vt, IB_POLL_DIRECT), *rcq, *pcq;
	struct tcqe *r = new_tcqes(test, 12), *s = new_tcqes(test, 12);
	struct ib_device_attr *da = &vt->dev->attrs;
	struct ib_qp *a, *b;
	u8 *sbuf, *rbuf;
	int i;

	rcq = ib_alloc_cq(vt->dev, NULL, 4, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rcq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_cq, rcq),
			0);
	KUNIT_ASSERT_EQ(test, rcq->cqe, 4);
	a = new_qp(test, vt, IB_QPT_RC, scq, scq);
	b = new_qp(test, vt, IB_QPT_RC, scq, rcq);
	connect_rc(test, vt, a, b);

	new_bufs(test, 12 * 32, &sbuf, &rbuf);

	/* a sender's completion follows its receiver's: 3 wait in rcq */
	post_recvs(test, b, r, rbuf, 32, 3);
	send_n(test, a, scq, s, sbuf, 32, 3);

	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, da->max_cqe + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcq->cqe, 4);
	KUNIT_ASSERT_EQ(test, ib_resize_cq(rcq, 12), 0);
	KUNIT_EXPECT_EQ(test, rcq->cqe, 12);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_FALSE(test, completion_done(&r[i].done));
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(rcq, -1), 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, completion_done(&r[i].done));
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	}

	/* 12 completions now fit where 4 did */
	post_recvs(test, b, r, rbuf, 32, 12);
	send_n(test, a, scq, s, sbuf, 32, 12);
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(rcq, -1), 12);
	for (i = 0; i < 12; i++)
		EXPECT_WC(test, &r[i], IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 12 * 32), 0);
	/* shrinking an empty CQ works */
	KUNIT_EXPECT_EQ(test, ib_resize_cq(rcq, 1), 0);
	KUNIT_EXPECT_EQ(test, rcq->cqe, 1);

	pcq = ib_cq_pool_get(vt->dev, 8, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pcq);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(pcq, 64), -EOPNOTSUPP);
	ib_cq_pool_put(pcq, 8);
}

static atomic_t cq_err_events;

static void cq_event(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_CQ_ERR && ev->element.cq == ctx)
		atomic_inc(&cq_err_events);
}

/* A CQ that overruns reports IB_EVENT_CQ_ERR and keeps what it held. */
static void verbs_cq_overrun(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq_init_attr cattr = { .cqe = 2 };
	struct ib_cq *scq = new_cq(test, vt, IB_POLL_DIRECT), *rcq;
	struct tcqe *r = new_tcqes(test, 3), *s = new_tcqes(test, 3);
	struct ib_wc wc[4];
	struct ib_qp *a, *b;
	u8 *sbuf, *rbuf;
	int i;

	atomic_set(&cq_err_events, 0);
	rcq = ib_create_cq(vt->dev, NULL, cq_event, NULL, &cattr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rcq);
	rcq->cq_context = rcq;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_cq, rcq),
			0);
	a = new_qp(test, vt, IB_QPT_RC, scq, scq);
	b = new_qp(test, vt, IB_QPT_RC, scq, rcq);
	connect_rc(test, vt, a, b);

	new_bufs(test, 3 * 16, &sbuf, &rbuf);
	post_recvs(test, b, r, rbuf, 16, 3);
	send_n(test, a, scq, s, sbuf, 16, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq_err_events), 0);
	send_n(test, a, scq, s, sbuf + 32, 16, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq_err_events), 1);

	/* the two that fitted, in order; the third is lost */
	KUNIT_ASSERT_EQ(test, ib_poll_cq(rcq, ARRAY_SIZE(wc), wc), 2);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_SUCCESS);
		KUNIT_EXPECT_PTR_EQ(test, wc[i].wr_cqe, &r[i].cqe);
	}
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 3 * 16), 0);
}

static struct kunit_case rdma_cq_cases[] = {
	KUNIT_CASE_PARAM(verbs_poll_context, poll_gen_params),
	KUNIT_CASE(verbs_cq_pool),
	KUNIT_CASE(verbs_cq_resize),
	KUNIT_CASE(verbs_cq_overrun),
	{}
};

static struct kunit_suite rdma_cq_suite = {
	.name = "rdma_cq",
	.test_cases = rdma_cq_cases,
};

kunit_test_suite(rdma_cq_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA completion queues on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
