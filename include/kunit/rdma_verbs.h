/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit helpers of the kernel verbs suites of ib_core
 * (core/ib_core/verbs/tests: rdma_pd, rdma_qp, rdma_cq, rdma_mr, rdma_srq,
 * rdma_ah, rdma_wq, rdma_restrack), which run end to end on loop devices: a
 * case's loop device and PD (from <kunit/rdma_loop.h>), CQs and QPs released by
 * KUnit actions, a pair of connected RC or UC QPs, posting work
 * requests, fast registration of an MR, and checks of completions.
 */
#ifndef KUNIT_RDMA_VERBS_H
#define KUNIT_RDMA_VERBS_H

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_loop.h>

#define KT_BUF_LEN		4096

/* No completion arrives on @cq for a while. */
static inline bool kt_cq_stays_empty(struct ib_cq *cq, struct kt_tcqe *t)
{
	msleep(50);
	if (cq->poll_ctx == IB_POLL_DIRECT)
		ib_process_cq_direct(cq, -1);
	return !completion_done(&t->done);
}

static inline struct kt_vt *kt_new_vt(struct kunit *test)
{
	return kt_new_vt_named(test, "kuvb%d");
}

static inline struct ib_cq *kt_new_cq(struct kunit *test, struct kt_vt *vt,
				      enum ib_poll_context ctx)
{
	struct ib_cq *cq = ib_alloc_cq(vt->dev, NULL, 256, 0, ctx);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_free_cq, cq), 0);
	return cq;
}

static inline struct ib_qp *kt_new_qp_on(struct kunit *test, struct kt_vt *vt,
					 struct ib_pd *pd, enum ib_qp_type type,
					 struct ib_cq *scq, struct ib_cq *rcq,
					 struct ib_srq *srq)
{
	struct ib_qp_init_attr attr = {
		.send_cq = scq,
		.recv_cq = rcq,
		.srq = srq,
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 128,
			.max_recv_wr = srq ? 0 : 128,
			.max_send_sge = 4,
			.max_recv_sge = srq ? 0 : 4,
			.max_inline_data = 64,
		},
		.port_num = 1,
	};
	struct ib_qp *qp = ib_create_qp(pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_qp, qp),
			0);
	return qp;
}

static inline struct ib_qp *kt_new_qp(struct kunit *test, struct kt_vt *vt,
				      enum ib_qp_type type, struct ib_cq *scq,
				      struct ib_cq *rcq)
{
	return kt_new_qp_on(test, vt, vt->pd, type, scq, rcq, NULL);
}

static inline u32 kt_port_lid(struct ib_device *dev)
{
	return rdma_loop_port_lid(dev);
}

/*
 * RESET -> INIT -> RTR -> RTS of a connected QP towards @dqpn at @dlid,
 * stopping at @stop.
 */
static inline int kt_to_state(struct ib_qp *qp, u32 dqpn, u32 dlid, u8 rnr_retry,
			      enum ib_qp_state stop)
{
	struct rdma_loop_conn conn = {
		.dqpn = dqpn,
		.dlid = dlid,
		.access = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			  IB_ACCESS_REMOTE_ATOMIC,
		.rd_atomic = 4,
		.rnr_retry = rnr_retry,
	};

	return rdma_loop_connect_qp(qp, &conn, stop);
}

static inline int kt_to_rts(struct ib_qp *qp, u32 dqpn, u32 dlid, u8 rnr_retry)
{
	return kt_to_state(qp, dqpn, dlid, rnr_retry, IB_QPS_RTS);
}

/* Two connected QPs of @type, each with its own direct CQ. */
struct kt_pair {
	struct kt_vt	*vt;
	struct ib_cq	*cq[2];
	struct ib_qp	*qp[2];
	u8		*buf[2];
};

/* A pair on @vt, a loop device and PD the caller made (a suite's). */
static inline struct kt_pair *kt_new_pair_on(struct kunit *test,
					     struct kt_vt *vt,
					     enum ib_qp_type type,
					     enum ib_poll_context ctx,
					     u8 rnr_retry)
{
	struct kt_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->vt = vt;
	for (i = 0; i < 2; i++) {
		p->cq[i] = kt_new_cq(test, p->vt, ctx);
		p->qp[i] = kt_new_qp(test, p->vt, type, p->cq[i], p->cq[i]);
		p->buf[i] = kunit_kzalloc(test, KT_BUF_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p->buf[i]);
	}
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, kt_to_rts(p->qp[i], p->qp[!i]->qp_num,
						kt_port_lid(p->vt->dev), rnr_retry),
				0);
	return p;
}

/* A pair on a loop device of the case's own. */
static inline struct kt_pair *kt_new_pair(struct kunit *test, enum ib_qp_type type,
					  enum ib_poll_context ctx, u8 rnr_retry)
{
	return kt_new_pair_on(test, kt_new_vt(test), type, ctx, rnr_retry);
}

static inline int kt_post_recv(struct ib_qp *qp, struct kt_tcqe *t,
			       struct ib_sge *sge, int num_sge)
{
	struct ib_recv_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = sge,
		.num_sge = num_sge,
	};

	return ib_post_recv(qp, &wr, NULL);
}

static inline int kt_post_send(struct ib_qp *qp, struct kt_tcqe *t,
			       enum ib_wr_opcode op, struct ib_sge *sge,
			       int num_sge, int flags)
{
	struct ib_send_wr wr = {
		.wr_cqe = &t->cqe,
		.sg_list = sge,
		.num_sge = num_sge,
		.opcode = op,
		.send_flags = IB_SEND_SIGNALED | flags,
	};

	return ib_post_send(qp, &wr, NULL);
}

static inline int kt_post_rdma(struct ib_qp *qp, struct kt_tcqe *t,
			       enum ib_wr_opcode op, struct ib_sge *sge, u64 raddr,
			       u32 rkey)
{
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &t->cqe,
			.sg_list = sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
			.ex.imm_data = cpu_to_be32(0xc0ffee),
		},
		.remote_addr = raddr,
		.rkey = rkey,
	};

	return ib_post_send(qp, &wr.wr, NULL);
}

static inline enum ib_qp_state kt_qp_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr a;

	if (ib_query_qp(qp, &a, IB_QP_STATE, &init))
		return -1;
	return a.qp_state;
}

#define KT_EXPECT_WC(test, t, st, op)					\
	do {								\
		KUNIT_EXPECT_EQ_MSG(test, (t)->wc.status, st, "%s",	\
				    ib_wc_status_msg((t)->wc.status));	\
		if ((st) == IB_WC_SUCCESS)				\
			KUNIT_EXPECT_EQ(test, (t)->wc.opcode, op);	\
	} while (0)

static inline struct ib_mr *kt_new_fr_mr(struct kunit *test, struct kt_vt *vt,
					 u8 *buf, int npages, int access,
					 struct kt_tcqe *t, struct ib_qp *qp,
					 struct ib_cq *cq)
{
	struct scatterlist *sg;
	struct ib_reg_wr reg = {};
	struct ib_mr *mr;
	int i, n;

	sg = kunit_kcalloc(test, npages, sizeof(*sg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sg);
	mr = ib_alloc_mr(vt->pd, IB_MR_TYPE_MEM_REG, npages);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, mr),
			0);

	sg_init_table(sg, npages);
	for (i = 0; i < npages; i++)
		sg_set_buf(&sg[i], buf + i * PAGE_SIZE, PAGE_SIZE);
	n = ib_dma_map_sg(vt->dev, sg, npages, DMA_BIDIRECTIONAL);
	KUNIT_ASSERT_EQ(test, n, npages);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sg, n, NULL, PAGE_SIZE), n);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)npages * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, mr->iova, (u64)(uintptr_t)buf);

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_cqe = &t->cqe;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.key = mr->rkey;
	reg.access = access;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &reg.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_REG_MR);
	return mr;
}

/* Connect two RC QPs of one loop device to each other. */
static inline void kt_connect_rc(struct kunit *test, struct kt_vt *vt,
				 struct ib_qp *a, struct ib_qp *b)
{
	KUNIT_ASSERT_EQ(test, kt_to_rts(a, b->qp_num, kt_port_lid(vt->dev), 0), 0);
	KUNIT_ASSERT_EQ(test, kt_to_rts(b, a->qp_num, kt_port_lid(vt->dev), 0), 0);
}

/* A send buffer of random bytes and a zeroed receive buffer. */
static inline void kt_new_bufs(struct kunit *test, size_t len, u8 **sbuf,
			       u8 **rbuf)
{
	*sbuf = kunit_kzalloc(test, len, GFP_KERNEL);
	*rbuf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *sbuf);
	KUNIT_ASSERT_NOT_NULL(test, *rbuf);
	get_random_bytes(*sbuf, len);
}

/* Post @n receives of @len bytes each into @rbuf on @qp. */
static inline void kt_post_recvs(struct kunit *test, struct ib_qp *qp,
				 struct kt_tcqe *r, u8 *rbuf, u32 len, int n)
{
	struct ib_sge rsge;
	int i;

	for (i = 0; i < n; i++) {
		rsge = kt_sge_of(qp->pd, rbuf + i * len, len);
		kt_tcqe_init(&r[i]);
		KUNIT_ASSERT_EQ(test, kt_post_recv(qp, &r[i], &rsge, 1), 0);
	}
}

/* Send @n messages of @len bytes from @sbuf on @qp and wait for each. */
static inline void kt_send_n(struct kunit *test, struct ib_qp *qp,
			     struct ib_cq *cq, struct kt_tcqe *s, u8 *sbuf, u32 len,
			     int n)
{
	struct ib_sge sge;
	int i;

	for (i = 0; i < n; i++) {
		sge = kt_sge_of(qp->pd, sbuf + i * len, len);
		kt_tcqe_init(&s[i]);
		KUNIT_ASSERT_EQ(test, kt_post_send(qp, &s[i], IB_WR_SEND, &sge, 1,
						   0), 0);
		KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(cq, &s[i]));
		KT_EXPECT_WC(test, &s[i], IB_WC_SUCCESS, IB_WC_SEND);
	}
}

#endif /* KUNIT_RDMA_VERBS_H */
