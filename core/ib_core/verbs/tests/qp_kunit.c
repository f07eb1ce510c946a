// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_qp": queue pairs (core/ib_core/verbs/qp.c) end to end on
 * loop devices (hw/loop on hw/sw/rdmavt), which move real data between QPs:
 * RC SEND with several SGEs, with immediate, inline and solicited; UC;
 * the completion status of length, protection and RNR errors and the
 * flush that follows; RNR recovery; posting and modifying against the
 * state rules; ib_drain_qp() from each state; SQD; QPs of two loop
 * devices; and a client whose QPs have work posted when its device
 * goes away.
 *
 * The loop devices X and Y, each with a PD, are the suite's: made by its
 * suite_init, removed by its suite_exit (a loop device costs more to
 * make and remove than most cases take).  A case's QPs, CQs and MRs are
 * its own, released by KUnit actions in reverse order of creation; at
 * its start each case checks that the earlier ones left X and Y as made
 * (ports ACTIVE with their LIDs, as many PDs, QPs, CQs, MRs and SRQs as
 * after the suite's init, the PDs unused: qp_bed_check()), which also
 * shows that nothing of theirs can still move data.
 * verbs_unregister_with_work keeps a device of its own, whose removal
 * it tests.  Payloads are random and checked byte for byte;
 * completions are checked for
 * status, opcode, length and the QP they belong to.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>
#include <rdma/rdmavt_qp.h>
#include <rdma/restrack.h>

static struct kt_vt qp_x, qp_y;
static u32 qp_lid_x, qp_lid_y;

/* What a case checks is left as made: the tracked objects of these types. */
static const enum rdma_restrack_type qp_types[] = {
	RDMA_RESTRACK_PD, RDMA_RESTRACK_QP, RDMA_RESTRACK_CQ,
	RDMA_RESTRACK_MR, RDMA_RESTRACK_SRQ,
};

/* Their numbers on X and Y after the suite's init (the MAD layer's own). */
static int qp_count_x[ARRAY_SIZE(qp_types)], qp_count_y[ARRAY_SIZE(qp_types)];

static void qp_suite_exit(struct kunit_suite *suite)
{
	struct kt_vt *vt[] = { &qp_y, &qp_x };
	int i;

	for (i = 0; i < ARRAY_SIZE(vt); i++)
		kt_suite_vt_free(vt[i]);
}

static int qp_suite_init(struct kunit_suite *suite)
{
	int ret = kt_suite_vt_new(&qp_x, "kuvb%d");

	if (!ret)
		ret = kt_suite_vt_new(&qp_y, "kuvb%d");
	if (ret) {
		qp_suite_exit(suite);
		return ret;
	}
	qp_lid_x = kt_port_lid(qp_x.dev);
	qp_lid_y = kt_port_lid(qp_y.dev);
	for (ret = 0; ret < ARRAY_SIZE(qp_types); ret++) {
		qp_count_x[ret] = rdma_restrack_count(qp_x.dev, qp_types[ret],
						      false);
		qp_count_y[ret] = rdma_restrack_count(qp_y.dev, qp_types[ret],
						      false);
	}
	return 0;
}

/* @vt as the suite's init made it: nothing of an earlier case left. */
static void qp_vt_check(struct kunit *test, struct kt_vt *vt, u32 lid,
			const int *count)
{
	struct ib_port_attr pa;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, vt->dev);
	KUNIT_ASSERT_NOT_NULL(test, vt->pd);
	KUNIT_ASSERT_EQ(test, ib_query_port(vt->dev, 1, &pa), 0);
	KUNIT_ASSERT_EQ(test, pa.state, IB_PORT_ACTIVE);
	KUNIT_ASSERT_EQ(test, pa.lid, lid);
	for (i = 0; i < ARRAY_SIZE(qp_types); i++)
		KUNIT_ASSERT_EQ_MSG(test, rdma_restrack_count(vt->dev,
							      qp_types[i],
							      false),
				    count[i], "restrack type %d", qp_types[i]);
	KUNIT_ASSERT_EQ(test, atomic_read(&vt->pd->usecnt), 0);
}

static void qp_bed_check(struct kunit *test)
{
	qp_vt_check(test, &qp_x, qp_lid_x, qp_count_x);
	qp_vt_check(test, &qp_y, qp_lid_y, qp_count_y);
}

/* A pair on X, the suite's device, after the check. */
static struct kt_pair *qp_new_pair(struct kunit *test, enum ib_qp_type type,
				   enum ib_poll_context ctx, u8 rnr_retry)
{
	qp_bed_check(test);
	return kt_new_pair_on(test, &qp_x, type, ctx, rnr_retry);
}

/* X, the suite's device, after the check. */
static struct kt_vt *qp_vt(struct kunit *test)
{
	qp_bed_check(test);
	return &qp_x;
}

static void verbs_rc_send(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge ssge[3], rsge[2];
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);

	get_random_bytes(p->buf[0], KT_BUF_LEN);
	/* gather 100 + 900 + 24 bytes, scatter into 600 + 1000 */
	ssge[0] = kt_sge_of(pd, p->buf[0], 100);
	ssge[1] = kt_sge_of(pd, p->buf[0] + 1000, 900);
	ssge[2] = kt_sge_of(pd, p->buf[0] + 3000, 24);
	rsge[0] = kt_sge_of(pd, p->buf[1], 600);
	rsge[1] = kt_sge_of(pd, p->buf[1] + 2048, 1000);

	kt_tcqe_init(r);
	kt_tcqe_init(s);
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r, rsge, 2), 0);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s, IB_WR_SEND, ssge, 3, 0),
			0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], r));

	KT_EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	KUNIT_EXPECT_PTR_EQ(test, s->wc.qp, p->qp[0]);
	KT_EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_PTR_EQ(test, r->wc.qp, p->qp[1]);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 1024);
	KUNIT_EXPECT_EQ(test, r->wc.src_qp, p->qp[0]->qp_num);
	KUNIT_EXPECT_FALSE(test, r->wc.wc_flags & IB_WC_WITH_IMM);

	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1], p->buf[0], 100), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 100, p->buf[0] + 1000, 500),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 2048, p->buf[0] + 1500,
				     400), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 2448, p->buf[0] + 3000, 24),
			0);
	/* nothing written past the message */
	KUNIT_EXPECT_EQ(test, p->buf[1][2472], 0);
}

static void verbs_rc_send_imm_inline(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge ssge, rsge;
	struct ib_send_wr wr = {};
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);

	get_random_bytes(p->buf[0], 64);
	ssge.addr = (uintptr_t)p->buf[0];	/* inline: no key needed */
	ssge.length = 64;
	ssge.lkey = 0xdead;
	rsge = kt_sge_of(pd, p->buf[1], 128);

	kt_tcqe_init(r);
	kt_tcqe_init(s);
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r, &rsge, 1), 0);
	wr.wr_cqe = &s->cqe;
	wr.sg_list = &ssge;
	wr.num_sge = 1;
	wr.opcode = IB_WR_SEND_WITH_IMM;
	wr.send_flags = IB_SEND_SIGNALED | IB_SEND_INLINE | IB_SEND_SOLICITED;
	wr.ex.imm_data = cpu_to_be32(0x12345678);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr, NULL), 0);
	/* the data was copied at post time */
	memset(p->buf[0], 0, 64);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], r));
	KT_EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	KT_EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_TRUE(test, r->wc.wc_flags & IB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(r->wc.ex.imm_data), 0x12345678);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 64);
	KUNIT_EXPECT_NOT_NULL(test, memchr_inv(p->buf[1], 0, 64));

	/* too much inline data is refused at post time */
	ssge.length = 65;
	KUNIT_EXPECT_EQ(test, ib_post_send(p->qp[0], &wr, NULL), -EINVAL);
}

/* UC: WRITE works, a missing receive loses the message silently. */
static void verbs_uc(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_UC, IB_POLL_DIRECT, 0);
	struct kt_tcqe *t = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct ib_sge sge, rsge;
	struct ib_mr *mr;
	u8 *remote;

	remote = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, remote);
	mr = kt_new_fr_mr(test, p->vt, remote, 1,
			  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, t,
			  p->qp[1], p->cq[1]);

	get_random_bytes(p->buf[0], 100);
	sge = kt_sge_of(p->vt->pd, p->buf[0], 100);
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					   mr->iova + 8, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(remote + 8, p->buf[0], 100), 0);

	/* READ is not a UC operation */
	kt_tcqe_init(t);
	KUNIT_EXPECT_EQ(test, kt_post_rdma(p->qp[0], t, IB_WR_RDMA_READ, &sge,
					   mr->iova, mr->rkey), -EINVAL);

	/* no receive posted: the sender completes, nothing arrives */
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], t, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_SEND);
	rsge = kt_sge_of(p->vt->pd, p->buf[1], 100);
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r, &rsge, 1), 0);
	KUNIT_EXPECT_TRUE(test, kt_cq_stays_empty(p->cq[1], r));
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[0]), IB_QPS_RTS);
	ib_drain_qp(p->qp[1]);
	KT_EXPECT_WC(test, r, IB_WC_WR_FLUSH_ERR, 0);
}

/* Errors: each with the status IBTA gives, then everything flushes. */
static void verbs_rc_errors(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge, rsge;
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct kt_tcqe *s2 = kt_new_tcqe(test), *r2 = kt_new_tcqe(test);

	/* receive buffer too small: LOC_LEN_ERR there, REM_INV_REQ here */
	sge = kt_sge_of(pd, p->buf[0], 200);
	rsge = kt_sge_of(pd, p->buf[1], 100);
	kt_tcqe_init(r);
	kt_tcqe_init(r2);
	kt_tcqe_init(s);
	kt_tcqe_init(s2);
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r2, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s2, IB_WR_SEND, &sge, 1,
					   0), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], r));
	KT_EXPECT_WC(test, s, IB_WC_REM_INV_REQ_ERR, 0);
	KT_EXPECT_WC(test, r, IB_WC_LOC_LEN_ERR, 0);
	/* the rest is flushed on both sides */
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s2));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], r2));
	KT_EXPECT_WC(test, s2, IB_WC_WR_FLUSH_ERR, 0);
	KT_EXPECT_WC(test, r2, IB_WC_WR_FLUSH_ERR, 0);
	KUNIT_EXPECT_PTR_EQ(test, s2->wc.qp, p->qp[0]);
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[1]), IB_QPS_ERR);

	/* work posted to an errored QP completes as flushed */
	kt_tcqe_init(s);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KT_EXPECT_WC(test, s, IB_WC_WR_FLUSH_ERR, 0);
}

static void verbs_rc_local_errors(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge;
	struct kt_tcqe *s = kt_new_tcqe(test);

	/* a wrong lkey is a local protection error */
	sge = kt_sge_of(pd, p->buf[0], 16);
	sge.lkey ^= 0x100;
	kt_tcqe_init(s);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KT_EXPECT_WC(test, s, IB_WC_LOC_PROT_ERR, 0);
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[0]), IB_QPS_ERR);
	/* the responder saw nothing */
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[1]), IB_QPS_RTS);
}

static void verbs_rc_rnr(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 2);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge;
	struct kt_tcqe *s = kt_new_tcqe(test);

	/* no receive request, two retries: RNR retry exceeded */
	sge = kt_sge_of(pd, p->buf[0], 16);
	kt_tcqe_init(s);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KT_EXPECT_WC(test, s, IB_WC_RNR_RETRY_EXC_ERR, 0);
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[0]), IB_QPS_ERR);
}

static void verbs_rc_rnr_recovers(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 7);
	struct ib_pd *pd = p->vt->pd;
	struct ib_sge sge, rsge;
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);

	/* rnr_retry 7 retries for ever: the late receive is found */
	get_random_bytes(p->buf[0], 32);
	sge = kt_sge_of(pd, p->buf[0], 32);
	rsge = kt_sge_of(pd, p->buf[1], 32);
	kt_tcqe_init(s);
	kt_tcqe_init(r);
	KUNIT_ASSERT_EQ(test, kt_post_send(p->qp[0], s, IB_WR_SEND, &sge, 1, 0),
			0);
	KUNIT_EXPECT_TRUE(test, kt_cq_stays_empty(p->cq[0], s));
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r, &rsge, 1), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], r));
	KT_EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	KT_EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[0], p->buf[1], 32), 0);
}

/* Posting and modifying against the QP state rules. */
static void verbs_qp_state_rules(struct kunit *test)
{
	struct kt_vt *vt = qp_vt(test);
	struct ib_cq *cq = kt_new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_qp *qp = kt_new_qp(test, vt, IB_QPT_RC, cq, cq);
	struct ib_qp_attr a = {};
	struct ib_sge sge;
	struct kt_tcqe *t = kt_new_tcqe(test);
	u8 buf[8];

	sge = kt_sge_of(vt->pd, buf, sizeof(buf));
	kt_tcqe_init(t);
	KUNIT_EXPECT_EQ(test, kt_qp_state(qp), IB_QPS_RESET);
	KUNIT_EXPECT_EQ(test, kt_post_recv(qp, t, &sge, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, kt_post_send(qp, t, IB_WR_SEND, &sge, 1, 0),
			-EINVAL);

	/* RESET -> RTR skips INIT; RESET -> INIT without the port fails */
	a.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), -EINVAL);
	a.qp_state = IB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), -EINVAL);
	a.port_num = 1;
	a.qp_access_flags = 0;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
	KUNIT_EXPECT_EQ(test, kt_qp_state(qp), IB_QPS_INIT);
	/* a port that does not exist */
	a.port_num = 2;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_PORT), -EINVAL);

	/* INIT takes receives but no sends */
	KUNIT_EXPECT_EQ(test, kt_post_recv(qp, t, &sge, 1), 0);
	KUNIT_EXPECT_EQ(test, kt_post_send(qp, t, IB_WR_SEND, &sge, 1, 0),
			-EINVAL);

	/* too many SGEs */
	{
		struct ib_sge many[5] = {};
		struct ib_recv_wr wr = { .sg_list = many, .num_sge = 5 };
		const struct ib_recv_wr *bad = NULL;

		KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &wr, &bad), -EINVAL);
		KUNIT_EXPECT_PTR_EQ(test, bad, &wr);
	}

	/* back to RESET forgets the receive without a completion */
	a.qp_state = IB_QPS_RESET;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	KUNIT_EXPECT_TRUE(test, kt_cq_stays_empty(cq, t));
	/* RESET -> ERR is not an arrow of the diagram */
	a.qp_state = IB_QPS_ERR;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), -EINVAL);
}

/* ib_drain_qp() from each state a QP can be drained in. */
static const enum ib_qp_state drain_states[] = {
	IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS, IB_QPS_ERR,
};

static void drain_desc(const enum ib_qp_state *s, char *desc)
{
	static const char * const n[] = { "RESET", "INIT", "RTR", "RTS",
					  "SQD", "SQE", "ERR" };

	strscpy(desc, n[*s], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(drain, drain_states, drain_desc);

static void verbs_drain(struct kunit *test)
{
	enum ib_qp_state target = *(const enum ib_qp_state *)test->param_value;
	struct kt_vt *vt = qp_vt(test);
	struct ib_cq *cq = kt_new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_qp *qp = kt_new_qp(test, vt, IB_QPT_RC, cq, cq);
	struct ib_qp *peer = kt_new_qp(test, vt, IB_QPT_RC, cq, cq);
	struct ib_qp_attr a = {};
	struct kt_tcqe *r = kt_new_tcqes(test, 3), *s = kt_new_tcqe(test);
	struct ib_sge sge;
	u8 *buf;
	int i;

	buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	sge = kt_sge_of(vt->pd, buf, 64);

	a.qp_state = IB_QPS_INIT;
	a.port_num = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX |
					   IB_QP_ACCESS_FLAGS), 0);
	for (i = 0; i < 3; i++) {
		kt_tcqe_init(&r[i]);
		KUNIT_ASSERT_EQ(test, kt_post_recv(qp, &r[i], &sge, 1), 0);
	}
	kt_tcqe_init(s);
	if (target == IB_QPS_RTR || target == IB_QPS_RTS) {
		a.qp_state = IB_QPS_RESET;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
		KUNIT_ASSERT_EQ(test, kt_to_state(qp, peer->qp_num,
						  kt_port_lid(vt->dev), 7, target),
				0);
		KUNIT_ASSERT_EQ(test, kt_qp_state(qp), target);
		for (i = 0; i < 3; i++) {
			kt_tcqe_init(&r[i]);
			KUNIT_ASSERT_EQ(test, kt_post_recv(qp, &r[i], &sge, 1),
					0);
		}
		/* in RTS, a send the peer (in RESET) never answers */
		if (target == IB_QPS_RTS)
			KUNIT_ASSERT_EQ(test, kt_post_send(qp, s, IB_WR_SEND,
							   &sge, 1, 0), 0);
	} else if (target == IB_QPS_ERR) {
		a.qp_state = IB_QPS_ERR;
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE), 0);
	}

	ib_drain_qp(qp);

	KUNIT_EXPECT_EQ(test, kt_qp_state(qp), IB_QPS_ERR);
	/* every receive completed (flushed) before the drain returned */
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, completion_done(&r[i].done));
		KT_EXPECT_WC(test, &r[i], IB_WC_WR_FLUSH_ERR, 0);
	}
	if (target == IB_QPS_RTS) {
		KUNIT_EXPECT_TRUE(test, completion_done(&s->done));
		KUNIT_EXPECT_NE(test, s->wc.status, IB_WC_SUCCESS);
	}
}

static atomic_t sq_drained_events;

/*
 * The send engine of @qp (a loop device's QP, rdmavt's) has run to its
 * end: its work item, which a state change queues, ran (the engine a post
 * runs in the poster's context ended with the post).  What it would
 * report or complete has been by now.
 */
static void sq_settle(struct ib_qp *qp)
{
	flush_delayed_work(&ibqp_to_rvtqp(qp)->send_work);
}

/* Nothing completed for @t on @cq, after @qp's engine ran. */
static bool sq_held(struct ib_qp *qp, struct ib_cq *cq, struct kt_tcqe *t)
{
	sq_settle(qp);
	if (cq->poll_ctx == IB_POLL_DIRECT)
		ib_process_cq_direct(cq, -1);
	return !completion_done(&t->done);
}

static void qp_event(struct ib_event *ev, void *ctx)
{
	struct kt_tcqe *t = ctx;

	if (ev->event == IB_EVENT_SQ_DRAINED) {
		atomic_inc(&sq_drained_events);
		complete(&t->done);
	}
}

/*
 * RTS -> SQD stops the send queue and, when asked, reports that it has
 * drained; requests posted in SQD wait for the return to RTS.
 */
static void verbs_sqd(struct kunit *test)
{
	struct kt_pair *p = qp_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct kt_tcqe *r = kt_new_tcqes(test, 2), *s = kt_new_tcqes(test, 2);
	struct kt_tcqe *ev = kt_new_tcqe(test);
	struct ib_qp *a = p->qp[0], *b = p->qp[1];
	struct ib_qp_attr attr = {};
	struct ib_sge sge;

	atomic_set(&sq_drained_events, 0);
	a->qp_context = ev;
	a->event_handler = qp_event;
	get_random_bytes(p->buf[0], 2 * 64);
	kt_post_recvs(test, b, r, p->buf[1], 64, 2);

	attr.qp_state = IB_QPS_SQD;
	attr.en_sqd_async_notify = 1;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE |
					   IB_QP_EN_SQD_ASYNC_NOTIFY), 0);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ev->done,
							    HZ * 10));
	KUNIT_EXPECT_EQ(test, kt_qp_state(a), IB_QPS_SQD);

	/* posted in SQD: held */
	sge = kt_sge_of(a->pd, p->buf[0], 64);
	KUNIT_ASSERT_EQ(test, kt_post_send(a, &s[0], IB_WR_SEND, &sge, 1, 0), 0);
	KUNIT_EXPECT_TRUE(test, sq_held(a, p->cq[0], &s[0]));
	KUNIT_EXPECT_TRUE(test, sq_held(a, p->cq[1], &r[0]));

	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], &s[0]));
	KT_EXPECT_WC(test, &s[0], IB_WC_SUCCESS, IB_WC_SEND);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], &r[0]));
	KT_EXPECT_WC(test, &r[0], IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1], p->buf[0], 64), 0);

	/*
	 * Without the notify flag SQD is as quiet as before: the engine the
	 * change to SQD queued has run, and reported nothing.
	 */
	attr.qp_state = IB_QPS_SQD;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	sq_settle(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&sq_drained_events), 1);
	/* SQD -> SQD may change attributes; then back to RTS */
	attr.timeout = 15;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE |
					   IB_QP_TIMEOUT), 0);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_modify_qp(a, &attr, IB_QP_STATE), 0);
	sge = kt_sge_of(a->pd, p->buf[0] + 64, 64);
	KUNIT_ASSERT_EQ(test, kt_post_send(a, &s[1], IB_WR_SEND, &sge, 1, 0), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], &s[1]));
	KT_EXPECT_WC(test, &s[1], IB_WC_SUCCESS, IB_WC_SEND);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], &r[1]));
	KUNIT_EXPECT_EQ(test, memcmp(p->buf[1] + 64, p->buf[0] + 64, 64), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&sq_drained_events), 1);
}

/* A QP of one loop device talks to a QP of another (by LID). */
static void verbs_two_devices(struct kunit *test)
{
	struct kt_vt *x = qp_vt(test), *y = &qp_y;
	struct ib_cq *cx = kt_new_cq(test, x, IB_POLL_DIRECT);
	struct ib_cq *cy = kt_new_cq(test, y, IB_POLL_DIRECT);
	struct ib_qp *qx = kt_new_qp(test, x, IB_QPT_RC, cx, cx);
	struct ib_qp *qy = kt_new_qp(test, y, IB_QPT_RC, cy, cy);
	struct ib_sge sge, rsge;
	struct kt_tcqe *s = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	u8 *sbuf, *rbuf;

	KUNIT_ASSERT_NE(test, kt_port_lid(x->dev), kt_port_lid(y->dev));
	KUNIT_ASSERT_EQ(test, kt_to_rts(qx, qy->qp_num, kt_port_lid(y->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, kt_to_rts(qy, qx->qp_num, kt_port_lid(x->dev), 0), 0);

	sbuf = kunit_kzalloc(test, 512, GFP_KERNEL);
	rbuf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	get_random_bytes(sbuf, 512);
	sge = kt_sge_of(x->pd, sbuf, 512);
	rsge = kt_sge_of(y->pd, rbuf, 512);
	kt_tcqe_init(s);
	kt_tcqe_init(r);
	KUNIT_ASSERT_EQ(test, kt_post_recv(qy, r, &rsge, 1), 0);
	KUNIT_ASSERT_EQ(test, kt_post_send(qx, s, IB_WR_SEND, &sge, 1, 0), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cx, s));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cy, r));
	KT_EXPECT_WC(test, s, IB_WC_SUCCESS, IB_WC_SEND);
	KT_EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, r->wc.slid, kt_port_lid(x->dev));
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, sbuf, 512), 0);
}

/*
 * A client with QPs and posted work on a device that goes away: its
 * remove() drains and frees everything, and the unregistration finishes.
 */
struct ulp {
	struct ib_pd	*pd;
	struct ib_cq	*cq;
	struct ib_qp	*qp[2];
	struct kt_tcqe	r[8], s;
	u8		*buf;
	bool		added, removed;
	int		flushed;
};

static struct ib_device *ulp_dev;
static struct ulp ulp_state;

static int ulp_add(struct ib_device *dev)
{
	struct ulp *u = &ulp_state;
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_sge sge;
	int i, j;

	if (dev != ulp_dev)
		return -EOPNOTSUPP;
	u->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(u->pd))
		return PTR_ERR(u->pd);
	u->cq = ib_alloc_cq(dev, u, 64, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(u->cq))
		goto err_pd;
	attr.send_cq = u->cq;
	attr.recv_cq = u->cq;
	for (i = 0; i < 2; i++) {
		u->qp[i] = ib_create_qp(u->pd, &attr);
		if (IS_ERR(u->qp[i]))
			goto err_qp;
	}
	for (i = 0; i < 2; i++)
		if (kt_to_rts(u->qp[i], u->qp[!i]->qp_num, kt_port_lid(dev), 7))
			goto err_qp;
	sge = kt_sge_of(u->pd, u->buf, 64);
	for (j = 0; j < 8; j++) {
		kt_tcqe_init(&u->r[j]);
		if (kt_post_recv(u->qp[0], &u->r[j], &sge, 1))
			goto err_qp;
	}
	/* a send nobody receives: it waits for ever (RNR retry 7) */
	kt_tcqe_init(&u->s);
	if (kt_post_send(u->qp[0], &u->s, IB_WR_SEND, &sge, 1, 0))
		goto err_qp;
	u->added = true;
	return 0;

err_qp:
	while (i-- > 0)
		ib_destroy_qp(u->qp[i]);
	ib_free_cq(u->cq);
err_pd:
	ib_dealloc_pd(u->pd);
	return -ENOMEM;
}

static void ulp_remove(struct ib_device *dev, void *client_data)
{
	struct ulp *u = &ulp_state;
	int i;

	if (!u->added || dev != ulp_dev)
		return;
	for (i = 0; i < 2; i++)
		ib_drain_qp(u->qp[i]);
	for (i = 0; i < 8; i++)
		if (completion_done(&u->r[i].done) &&
		    u->r[i].wc.status == IB_WC_WR_FLUSH_ERR)
			u->flushed++;
	if (completion_done(&u->s.done) &&
	    u->s.wc.status == IB_WC_WR_FLUSH_ERR)
		u->flushed++;
	for (i = 0; i < 2; i++)
		ib_destroy_qp(u->qp[i]);
	ib_free_cq(u->cq);
	ib_dealloc_pd(u->pd);
	u->removed = true;
}

static struct ib_client ulp_client = {
	.name = "rdma_qp_kunit_ulp",
	.add = ulp_add,
	.remove = ulp_remove,
};

static void verbs_unregister_with_work(struct kunit *test)
{
	struct ib_device *dev;

	memset(&ulp_state, 0, sizeof(ulp_state));
	ulp_state.buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ulp_state.buf);

	dev = rdma_loop_add_device("kuvb%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	ulp_dev = dev;
	if (ib_register_client(&ulp_client)) {
		rdma_loop_remove_device(dev);
		KUNIT_FAIL(test, "client registration failed");
		return;
	}
	KUNIT_EXPECT_TRUE(test, ulp_state.added);
	/* let the send spin in RNR retries for a moment */
	msleep(20);

	rdma_loop_remove_device(dev);
	KUNIT_EXPECT_TRUE(test, ulp_state.removed);
	KUNIT_EXPECT_EQ(test, ulp_state.flushed, 9);
	ib_unregister_client(&ulp_client);
	ulp_dev = NULL;
}

static struct kunit_case rdma_qp_cases[] = {
	KUNIT_CASE(verbs_rc_send),
	KUNIT_CASE(verbs_rc_send_imm_inline),
	KUNIT_CASE(verbs_uc),
	KUNIT_CASE(verbs_rc_errors),
	KUNIT_CASE(verbs_rc_local_errors),
	KUNIT_CASE(verbs_rc_rnr),
	KUNIT_CASE(verbs_rc_rnr_recovers),
	KUNIT_CASE(verbs_qp_state_rules),
	KUNIT_CASE_PARAM(verbs_drain, drain_gen_params),
	KUNIT_CASE(verbs_sqd),
	KUNIT_CASE(verbs_two_devices),
	KUNIT_CASE(verbs_unregister_with_work),
	{}
};

static struct kunit_suite rdma_qp_suite = {
	.name = "rdma_qp",
	.suite_init = qp_suite_init,
	.suite_exit = qp_suite_exit,
	.test_cases = rdma_qp_cases,
};

kunit_test_suite(rdma_qp_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA queue pairs on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
