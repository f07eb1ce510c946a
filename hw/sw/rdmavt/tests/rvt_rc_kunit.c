// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_rc": the queue pair side of the rdmavt API on
 * loop devices: rvt_lookup_qpn() and the QP references, rvt_get_rwqe(),
 * rvt_compute_aeth() and rvt_get_credit() (alone and as the engine uses
 * them), the RNR NAK timer table,
 * rvt_add_rnr_timer(), rvt_stop_rc_timers(), rvt_del_timers_sync(), the
 * transport retry of an RC request nobody answers, and
 * rvt_ruc_loopback() running a send queue in the caller's context.
 *
 * Completions are polled straight from the CQs (IB_POLL_DIRECT) and
 * matched by wr_id.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

#define WAIT_MS		10000
#define LEN		256

static struct rvt_qp *rvt(struct ib_qp *qp)
{
	return container_of(qp, struct rvt_qp, ibqp);
}

static struct ib_qp *new_qp(struct kunit *test, struct kt_vt *vt,
			    struct ib_cq *cq, struct ib_srq *srq)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 64,
			.max_send_sge = 2,
			.max_recv_sge = 2,
		},
	};

	return kt_new_test_qp(test, vt, &attr);
}

static struct ib_srq *new_srq(struct kunit *test, struct ib_pd *pd,
			      u32 limit)
{
	struct ib_srq_init_attr attr = {
		.attr = { .max_wr = 32, .max_sge = 1, .srq_limit = limit },
	};
	struct ib_srq *srq = ib_create_srq(pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_srq,
							srq), 0);
	return srq;
}

/* @qp towards @peer, stopping at @stop; RNR retries for ever. */
static void connect(struct kunit *test, struct ib_qp *qp, struct ib_qp *peer,
		    enum ib_qp_state stop)
{
	struct rdma_loop_conn conn = {
		.dqpn = peer->qp_num,
		.dlid = rdma_loop_port_lid(qp->device),
		.rnr_retry = 7,
	};

	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(qp, &conn, stop), 0);
}

/* Two QPs connected to each other, both in RTS. */
static void connect_pair(struct kunit *test, struct ib_qp *a, struct ib_qp *b)
{
	connect(test, a, b, IB_QPS_RTS);
	connect(test, b, a, IB_QPS_RTS);
}

static u8 *new_buf(struct kunit *test, size_t len)
{
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* Through SQD: a new local ACK timeout, retry count and RNR retries. */
static void set_retries(struct kunit *test, struct ib_qp *qp, u8 timeout,
			u8 retry_cnt, u8 rnr_retry)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_SQD };

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	a.timeout = timeout;
	a.retry_cnt = retry_cnt;
	a.rnr_retry = rnr_retry;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE |
					   IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
					   IB_QP_RNR_RETRY), 0);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
}

static int post_recv(struct ib_qp *qp, struct ib_srq *srq, u64 id,
		     struct ib_sge *sge, int n)
{
	struct ib_recv_wr wr = { .wr_id = id, .sg_list = sge, .num_sge = n };

	return srq ? ib_post_srq_recv(srq, &wr, NULL) :
		     ib_post_recv(qp, &wr, NULL);
}

static int post_send(struct ib_qp *qp, u64 id, struct ib_sge *sge)
{
	struct ib_send_wr wr = {
		.wr_id = id,
		.sg_list = sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	return ib_post_send(qp, &wr, NULL);
}

/* The next completion of @cq within @ms, or false. */
static bool poll_wc(struct ib_cq *cq, struct ib_wc *wc, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	do {
		if (ib_poll_cq(cq, 1, wc) == 1)
			return true;
		usleep_range(200, 500);
	} while (time_before(jiffies, end));
	return false;
}

static u32 s_flags(struct rvt_qp *qp)
{
	unsigned long flags;
	u32 f;

	spin_lock_irqsave(&qp->s_lock, flags);
	f = qp->s_flags;
	spin_unlock_irqrestore(&qp->s_lock, flags);
	return f;
}

/* Wait until (s_flags & @mask) == @want. */
static bool wait_flags(struct rvt_qp *qp, u32 mask, u32 want)
{
	unsigned long end = jiffies + msecs_to_jiffies(WAIT_MS);

	do {
		if ((s_flags(qp) & mask) == want)
			return true;
		usleep_range(200, 500);
	} while (time_before(jiffies, end));
	return false;
}

/* rvt_get_rwqe() as the engine calls it, under the QP's r_lock. */
static int take_rwqe(struct rvt_qp *r, bool wr_id_only)
{
	int ret;

	spin_lock_bh(&r->r_lock);
	ret = rvt_get_rwqe(r, wr_id_only);
	spin_unlock_bh(&r->r_lock);
	return ret;
}

/*
 * rvt_get_rwqe(): 0 with nothing posted or before RTR; 1 with r_wr_id,
 * r_len and r_sge set from the WQE (adjacent SGEs merged) and
 * RVT_R_WRID_VALID; only the ID with wr_id_only; -1 for a bad lkey,
 * whose WQE completes with IB_WC_LOC_PROT_ERR.
 */
static void rvt_get_rwqe_rules(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *qp = new_qp(test, vt, cq, NULL);
	struct rvt_qp *r = rvt(qp);
	u8 *buf = new_buf(test, 2 * LEN);
	struct ib_sge sge[2];
	struct ib_wc wc;
	int ret;

	sge[0] = kt_sge_of(vt->pd, buf, LEN);
	sge[1] = kt_sge_of(vt->pd, buf + LEN, LEN);

	/* INIT: posting works, taking does not */
	connect(test, qp, qp, IB_QPS_INIT);
	KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, 11, sge, 2), 0);
	ret = take_rwqe(r, false);
	KUNIT_EXPECT_EQ(test, ret, 0);

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &(struct ib_qp_attr) {
		.qp_state = IB_QPS_RESET }, IB_QP_STATE), 0);
	connect(test, qp, qp, IB_QPS_RTR);
	KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, 12, sge, 2), 0);
	KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, 13, sge, 1), 0);

	ret = take_rwqe(r, false);
	KUNIT_ASSERT_EQ(test, ret, 1);
	KUNIT_EXPECT_EQ(test, r->r_wr_id, 12);
	KUNIT_EXPECT_EQ(test, r->r_len, 2 * LEN);
	KUNIT_EXPECT_TRUE(test, test_bit(RVT_R_WRID_VALID, &r->r_aflags));
	/* the two buffers are adjacent in one DMA MR: one SGE */
	KUNIT_EXPECT_EQ(test, r->r_sge.num_sge, 1);
	KUNIT_EXPECT_EQ(test, r->r_sge.sge.sge_length, 2 * LEN);
	KUNIT_EXPECT_PTR_EQ(test, r->r_sge.sge.vaddr, (void *)buf);
	rvt_put_ss(&r->r_sge);
	clear_bit(RVT_R_WRID_VALID, &r->r_aflags);

	ret = take_rwqe(r, true);
	KUNIT_EXPECT_EQ(test, ret, 1);
	KUNIT_EXPECT_EQ(test, r->r_wr_id, 13);
	KUNIT_EXPECT_EQ(test, r->r_sge.num_sge, 0);

	ret = take_rwqe(r, false);
	KUNIT_EXPECT_EQ(test, ret, 0);

	/* a key of no MR */
	sge[1].lkey += 0x100;
	KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, 14, sge, 2), 0);
	ret = take_rwqe(r, false);
	KUNIT_EXPECT_EQ(test, ret, -1);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 14);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_LOC_PROT_ERR);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	/* the first SGE's reference went back */
	KUNIT_EXPECT_EQ(test, refcount_read(&container_of(vt->pd->__internal_mr,
							  struct rvt_mr,
							  ibmr)->mr.refcount),
			1);
}

static atomic_t srq_limit_events;

static void srq_handler(struct ib_event *ev, void *ctx)
{
	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		atomic_inc(&srq_limit_events);
}

/*
 * From an SRQ: the WQE's keys are checked in the SRQ's PD (not the QP's),
 * and taking the WQE that crosses the armed limit raises the event once.
 */
static void rvt_get_rwqe_srq(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_pd *pd2 = ib_alloc_pd(vt->dev, 0);
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_srq *srq;
	struct ib_qp *qp;
	struct rvt_qp *r;
	u8 *buf = new_buf(test, LEN);
	struct ib_sge sge;
	int i, ret;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd2);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dealloc_pd, pd2),
			0);
	srq = new_srq(test, pd2, 0);
	srq->event_handler = srq_handler;
	qp = new_qp(test, vt, cq, srq);
	r = rvt(qp);
	connect(test, qp, qp, IB_QPS_RTR);
	atomic_set(&srq_limit_events, 0);

	sge = kt_sge_of(pd2, buf, LEN);
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, post_recv(qp, srq, 20 + i, &sge, 1), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_srq(srq, &(struct ib_srq_attr) {
		.srq_limit = 3 }, IB_SRQ_LIMIT), 0);

	for (i = 0; i < 2; i++) {
		ret = take_rwqe(r, false);
		KUNIT_ASSERT_EQ(test, ret, 1);
		KUNIT_EXPECT_EQ(test, r->r_wr_id, 20 + i);
		KUNIT_EXPECT_EQ(test, r->r_len, LEN);
		rvt_put_ss(&r->r_sge);
		/* 3 left after the first: not below the limit yet */
		KUNIT_EXPECT_EQ(test, atomic_read(&srq_limit_events), i);
	}
	/* the QP's own PD has no such key: an lkey of pd2 passes only here */
	KUNIT_EXPECT_NE(test, vt->pd->local_dma_lkey, pd2->local_dma_lkey);
}

/*
 * rvt_compute_aeth(): the MSN and the largest credit code not above the
 * receive WQEs posted; code 31 on an SRQ.  rvt_get_credit(): code 31
 * makes credits unlimited; otherwise the LSN moves to MSN + credits when
 * that is further on, waking a requester waiting for credit.
 */
static void rvt_aeth_credits(struct kunit *test)
{
	static const struct { u32 posted, code; } cases[] = {
		{ 0, 0 }, { 1, 1 }, { 4, 4 }, { 5, 4 }, { 7, 5 }, { 12, 7 },
		{ 63, 11 },
	};
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *qp = new_qp(test, vt, cq, NULL);
	struct ib_qp *sq = new_qp(test, vt, cq, new_srq(test, vt->pd, 0));
	struct rvt_qp *r = rvt(qp);
	u8 *buf = new_buf(test, LEN);
	struct ib_sge sge;
	unsigned long flags;
	u32 posted = 0, aeth;
	int i;

	sge = kt_sge_of(vt->pd, buf, LEN);
	connect(test, qp, qp, IB_QPS_RTR);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		while (posted < cases[i].posted) {
			KUNIT_ASSERT_EQ(test, post_recv(qp, NULL, posted, &sge,
							1), 0);
			posted++;
		}
		r->r_msn = 0x123456 + i;
		aeth = be32_to_cpu(rvt_compute_aeth(r));
		KUNIT_EXPECT_EQ(test, aeth & IB_MSN_MASK, 0x123456 + i);
		KUNIT_EXPECT_EQ_MSG(test, aeth >> IB_AETH_CREDIT_SHIFT,
				    cases[i].code, "%u posted",
				    cases[i].posted);
	}
	aeth = be32_to_cpu(rvt_compute_aeth(rvt(sq)));
	KUNIT_EXPECT_EQ(test, aeth >> IB_AETH_CREDIT_SHIFT,
			IB_AETH_CREDIT_INVAL);

	/* a requester: LSN from MSN 10 + code 3 (3 credits) = 13 */
	spin_lock_irqsave(&r->s_lock, flags);
	r->s_lsn = 0;
	r->s_flags |= RVT_S_WAIT_SSN_CREDIT;
	rvt_get_credit(r, 3 << IB_AETH_CREDIT_SHIFT | 10);
	KUNIT_EXPECT_EQ(test, r->s_lsn, 13);
	KUNIT_EXPECT_FALSE(test, r->s_flags & RVT_S_WAIT_SSN_CREDIT);
	/* an older ACK moves nothing and wakes nobody */
	r->s_flags |= RVT_S_WAIT_SSN_CREDIT;
	rvt_get_credit(r, 1 << IB_AETH_CREDIT_SHIFT | 10);
	KUNIT_EXPECT_EQ(test, r->s_lsn, 13);
	KUNIT_EXPECT_TRUE(test, r->s_flags & RVT_S_WAIT_SSN_CREDIT);
	/* wrapping around 2^24 still counts as further on */
	r->s_lsn = IB_MSN_MASK - 1;
	rvt_get_credit(r, 4 << IB_AETH_CREDIT_SHIFT | (IB_MSN_MASK - 1));
	KUNIT_EXPECT_EQ(test, r->s_lsn, 2);
	KUNIT_EXPECT_FALSE(test, r->s_flags & RVT_S_UNLIMITED_CREDIT);
	rvt_get_credit(r, IB_AETH_CREDIT_INVAL << IB_AETH_CREDIT_SHIFT);
	KUNIT_EXPECT_TRUE(test, r->s_flags & RVT_S_UNLIMITED_CREDIT);
	KUNIT_EXPECT_EQ(test, r->s_lsn, 2);
	r->s_flags &= ~(RVT_S_UNLIMITED_CREDIT | RVT_S_WAIT_SSN_CREDIT);
	spin_unlock_irqrestore(&r->s_lock, flags);
}

/*
 * The engine: each RC SEND that succeeds brings the requester the
 * responder's credits (LSN = MSN + what is still posted), and a
 * responder on an SRQ makes them unlimited.
 */
static void rvt_credits_on_the_wire(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_srq *srq = new_srq(test, vt->pd, 0);
	struct ib_qp *a = new_qp(test, vt, cq, NULL);
	struct ib_qp *b = new_qp(test, vt, cq, NULL);
	struct ib_qp *c = new_qp(test, vt, cq, NULL);
	struct ib_qp *d = new_qp(test, vt, cq, srq);
	u8 *buf = new_buf(test, LEN);
	struct ib_sge sge;
	struct ib_wc wc;
	int i;

	sge = kt_sge_of(vt->pd, buf, LEN);
	connect_pair(test, a, b);
	connect_pair(test, c, d);

	/* 8 posted, 2 consumed: MSN 2, 6 left (code 5 grants 6): LSN 8 */
	for (i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, post_recv(b, NULL, 100 + i, &sge, 1), 0);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, post_send(a, i, &sge), 0);
		KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
		KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	}
	KUNIT_EXPECT_EQ(test, rvt(b)->r_msn, 2);
	KUNIT_EXPECT_EQ(test, rvt(a)->s_lsn, 8);
	KUNIT_EXPECT_FALSE(test, s_flags(rvt(a)) & RVT_S_UNLIMITED_CREDIT);

	KUNIT_ASSERT_EQ(test, post_recv(d, srq, 200, &sge, 1), 0);
	KUNIT_ASSERT_EQ(test, post_send(c, 2, &sge), 0);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_TRUE(test, s_flags(rvt(c)) & RVT_S_UNLIMITED_CREDIT);
}

/*
 * The RNR NAK timer: the IBTA table, a timer that runs out by itself,
 * one stopped by rvt_stop_rc_timers(), rvt_del_timers_sync(), and the
 * engine waiting on the responder's timer until a receive comes.
 */
static void rvt_rnr_timer(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *a = new_qp(test, vt, cq, NULL);
	struct ib_qp *b = new_qp(test, vt, cq, NULL);
	struct rvt_qp *ra = rvt(a);
	u8 *buf = new_buf(test, LEN);
	struct ib_sge sge;
	unsigned long flags;
	struct ib_wc wc;

	KUNIT_EXPECT_EQ(test, rvt_rnr_tbl_to_usec(0), 655360);
	KUNIT_EXPECT_EQ(test, rvt_rnr_tbl_to_usec(1), 10);
	KUNIT_EXPECT_EQ(test, rvt_rnr_tbl_to_usec(14), 1280);
	KUNIT_EXPECT_EQ(test, rvt_rnr_tbl_to_usec(31), 491520);
	KUNIT_EXPECT_EQ(test, rvt_aeth_to_usec(IB_RNR_NAK <<
					       IB_AETH_CREDIT_SHIFT |
					       18 << IB_AETH_CREDIT_SHIFT | 77),
			5120);

	connect_pair(test, a, b);

	/* 10.24 ms: runs out and clears the flag */
	spin_lock_irqsave(&ra->s_lock, flags);
	rvt_add_rnr_timer(ra, 20 << IB_AETH_CREDIT_SHIFT);
	KUNIT_EXPECT_TRUE(test, ra->s_flags & RVT_S_WAIT_RNR);
	spin_unlock_irqrestore(&ra->s_lock, flags);
	KUNIT_EXPECT_TRUE(test, wait_flags(ra, RVT_S_WAIT_RNR, 0));

	/* 655 ms: stopped long before */
	spin_lock_irqsave(&ra->s_lock, flags);
	rvt_add_rnr_timer(ra, 0);
	rvt_stop_rc_timers(ra);
	KUNIT_EXPECT_FALSE(test, ra->s_flags & RVT_S_WAIT_RNR);
	spin_unlock_irqrestore(&ra->s_lock, flags);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&ra->s_rnr_timer));

	spin_lock_irqsave(&ra->s_lock, flags);
	rvt_add_rnr_timer(ra, 0);
	spin_unlock_irqrestore(&ra->s_lock, flags);
	rvt_del_timers_sync(ra);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&ra->s_rnr_timer));
	spin_lock_irqsave(&ra->s_lock, flags);
	ra->s_flags &= ~RVT_S_WAIT_RNR;
	spin_unlock_irqrestore(&ra->s_lock, flags);

	/* the responder answers RNR with 40.96 ms (code 24) */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(b, &(struct ib_qp_attr) {
		.min_rnr_timer = 24 }, IB_QP_MIN_RNR_TIMER), 0);
	sge = kt_sge_of(vt->pd, buf, LEN);
	KUNIT_ASSERT_EQ(test, post_send(a, 1, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wait_flags(ra, RVT_S_WAIT_RNR,
					   RVT_S_WAIT_RNR));
	KUNIT_EXPECT_FALSE(test, poll_wc(cq, &wc, 20));
	KUNIT_ASSERT_EQ(test, post_recv(b, NULL, 2, &sge, 1), 0);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, s_flags(ra) & RVT_S_WAIT_RNR, 0);
}

/*
 * A QP waiting out a long RNR timer goes to the error state: the timer
 * stops and the request flushes at once.
 */
static void rvt_rnr_wait_then_error(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *a = new_qp(test, vt, cq, NULL);
	struct ib_qp *b = new_qp(test, vt, cq, NULL);
	u8 *buf = new_buf(test, LEN);
	struct ib_sge sge;
	struct ib_wc wc;

	connect_pair(test, a, b);
	/* code 0: 655 ms */
	KUNIT_ASSERT_EQ(test, ib_modify_qp(b, &(struct ib_qp_attr) {
		.min_rnr_timer = 0 }, IB_QP_MIN_RNR_TIMER), 0);
	sge = kt_sge_of(vt->pd, buf, LEN);
	KUNIT_ASSERT_EQ(test, post_send(a, 7, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wait_flags(rvt(a), RVT_S_WAIT_RNR,
					   RVT_S_WAIT_RNR));
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &(struct ib_qp_attr) {
		.qp_state = IB_QPS_ERR }, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, s_flags(rvt(a)) & RVT_S_WAIT_RNR, 0);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, 300));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 7);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
}

/*
 * An RC request nobody answers is sent again after each local ACK
 * timeout (RVT_S_TIMER) and fails with IB_WC_RETRY_EXC_ERR after
 * retry_cnt retries; a responder that gets ready in time is reached.
 */
static void rvt_transport_retry(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *a = new_qp(test, vt, cq, NULL);
	struct ib_qp *b = new_qp(test, vt, cq, NULL);
	struct ib_qp *c = new_qp(test, vt, cq, NULL);
	u8 *buf = new_buf(test, LEN);
	struct ib_qp_attr attr;
	unsigned long start;
	struct ib_sge sge;
	struct ib_wc wc;

	sge = kt_sge_of(vt->pd, buf, LEN);

	/* b stays in INIT: a's request finds no responder */
	connect(test, a, b, IB_QPS_RTS);
	connect(test, b, a, IB_QPS_INIT);
	/* 4.096 us << 16 = 268 ms per try, 3 retries */
	set_retries(test, a, 16, 3, 7);
	start = jiffies;
	KUNIT_ASSERT_EQ(test, post_send(a, 1, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wait_flags(rvt(a), RVT_S_TIMER, RVT_S_TIMER));
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_RETRY_EXC_ERR);
	/* three waits of a timeout each */
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - start), 3 * 268);
	KUNIT_ASSERT_EQ(test, ib_query_qp(a, &attr, IB_QP_STATE,
					  &(struct ib_qp_init_attr) {}), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_ERR);

	/* c's responder b answers only after a few tries */
	connect(test, c, b, IB_QPS_RTS);
	set_retries(test, c, 17, 7, 7);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RESET;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(b, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_EQ(test, post_send(c, 2, &sge), 0);
	KUNIT_ASSERT_TRUE(test, wait_flags(rvt(c), RVT_S_TIMER, RVT_S_TIMER));
	connect(test, b, c, IB_QPS_RTR);
	KUNIT_ASSERT_EQ(test, post_recv(b, NULL, 3, &sge, 1), 0);
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_ASSERT_TRUE(test, poll_wc(cq, &wc, WAIT_MS));
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
}

/*
 * rvt_ruc_loopback() runs a send queue in the caller's context: three
 * SENDs held back by SQD are all delivered and completed when it
 * returns, without waiting for the engine's work item.
 */
static void rvt_ruc_loopback_runs_here(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *a = new_qp(test, vt, cq, NULL);
	struct ib_qp *b = new_qp(test, vt, cq, NULL);
	struct rvt_qp *ra = rvt(a);
	u8 *src = new_buf(test, 3 * LEN);
	u8 *dst = new_buf(test, 3 * LEN);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_SQD };
	struct ib_sge s, r;
	struct ib_wc *wc;
	int i, n = 0;

	/* in test memory: six of them on the stack are too many */
	wc = kunit_kcalloc(test, 6, sizeof(*wc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wc);
	get_random_bytes(src, 3 * LEN);
	connect_pair(test, a, b);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	for (i = 0; i < 3; i++) {
		s = kt_sge_of(vt->pd, src + i * LEN, LEN);
		r = kt_sge_of(vt->pd, dst + i * LEN, LEN);
		KUNIT_ASSERT_EQ(test, post_recv(b, NULL, 10 + i, &r, 1), 0);
		KUNIT_ASSERT_EQ(test, post_send(a, i, &s), 0);
	}
	/* the work item saw SQD and stopped; nothing kicks it again */
	flush_delayed_work(&ra->send_work);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 6, wc), 0);
	WRITE_ONCE(ra->state, IB_QPS_RTS);

	rvt_ruc_loopback(ra);
	KUNIT_EXPECT_EQ(test, ra->sq_tail, ra->sq_head);
	while (n < 6) {
		int got = ib_poll_cq(cq, 6 - n, wc + n);

		if (got <= 0)
			break;
		n += got;
	}
	KUNIT_EXPECT_EQ(test, n, 6);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, memcmp(src, dst, 3 * LEN), 0);
}

/*
 * rvt_lookup_qpn() under RCU: a QP by number, the SMI and GSI QPs of a
 * port (the MAD layer's) by numbers 0 and 1 and that port, nothing for
 * a number in no use or a QP that is destroyed; rvt_get_qp() /
 * rvt_put_qp() count.
 */
static void rvt_lookup_qpn_rules(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt_named(test, "kurrc%d");
	struct rvt_dev_info *rdi = ib_to_rvt(vt->dev);
	struct rvt_ibport *rvp = rdi->ports[0];
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp *qp = new_qp(test, vt, cq, NULL);
	struct ib_qp_init_attr gattr = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_GSI,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.port_num = 1,
	};
	struct ib_qp *rc;
	struct rvt_qp *found[4];
	u32 qpn;

	/* the MAD layer holds the port's QP0 and QP1: one of each per port */
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(vt->pd, &gattr)), -EEXIST);
	gattr.qp_type = IB_QPT_SMI;
	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_qp(vt->pd, &gattr)), -EEXIST);

	rc = ib_create_qp(vt->pd, &(struct ib_qp_init_attr) {
		.send_cq = cq, .recv_cq = cq, .qp_type = IB_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	});
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rc);
	qpn = rc->qp_num;

	rcu_read_lock();
	found[0] = rvt_lookup_qpn(rdi, rvp, qp->qp_num);
	found[1] = rvt_lookup_qpn(rdi, rvp, 1);
	found[2] = rvt_lookup_qpn(rdi, rvp, 0);
	found[3] = rvt_lookup_qpn(rdi, rvp, qpn);
	rvt_get_qp(found[0]);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, found[0], rvt(qp));
	KUNIT_ASSERT_NOT_NULL(test, found[1]);
	KUNIT_EXPECT_EQ(test, found[1]->ibqp.qp_type, IB_QPT_GSI);
	KUNIT_EXPECT_EQ(test, found[1]->ibqp.qp_num, 1);
	KUNIT_ASSERT_NOT_NULL(test, found[2]);
	KUNIT_EXPECT_EQ(test, found[2]->ibqp.qp_type, IB_QPT_SMI);
	KUNIT_EXPECT_EQ(test, found[2]->ibqp.qp_num, 0);
	KUNIT_EXPECT_PTR_EQ(test, found[3], rvt(rc));
	KUNIT_EXPECT_EQ(test, refcount_read(&rvt(qp)->refcount), 2);
	rvt_put_qp(found[0]);
	KUNIT_EXPECT_EQ(test, refcount_read(&rvt(qp)->refcount), 1);

	KUNIT_ASSERT_EQ(test, ib_destroy_qp(rc), 0);
	rcu_read_lock();
	found[3] = rvt_lookup_qpn(rdi, rvp, qpn);
	found[0] = rvt_lookup_qpn(rdi, rvp, 0xfffffe);
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, found[3]);
	KUNIT_EXPECT_NULL(test, found[0]);
}

static struct kunit_case rdma_rvt_rc_cases[] = {
	KUNIT_CASE(rvt_lookup_qpn_rules),
	KUNIT_CASE(rvt_get_rwqe_rules),
	KUNIT_CASE(rvt_get_rwqe_srq),
	KUNIT_CASE(rvt_aeth_credits),
	KUNIT_CASE(rvt_credits_on_the_wire),
	KUNIT_CASE(rvt_rnr_timer),
	KUNIT_CASE(rvt_rnr_wait_then_error),
	KUNIT_CASE(rvt_transport_retry),
	KUNIT_CASE(rvt_ruc_loopback_runs_here),
	{}
};

static struct kunit_suite rdma_rvt_rc_suite = {
	.name = "rdma_rvt_rc",
	.test_cases = rdma_rvt_rc_cases,
};

kunit_test_suite(rdma_rvt_rc_suite);

MODULE_DESCRIPTION("KUnit tests of the rdmavt QP, credit and timer API");
MODULE_LICENSE("Dual BSD/GPL");
