// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rw": the rdma_rw API of ib_core (core/ib_core/verbs/rw.c)
 * end to end on loop devices (hw/loop on hw/sw/rdmavt).
 *
 * Every case gets a loop device of its own with a PD and two connected
 * RC QPs.  QP 0 runs the rdma_rw contexts; QP 1 owns the remote buffer,
 * a fast registration MR allowing remote READ and WRITE.  Payloads are
 * random and checked byte for byte on the other side; the MR pools are
 * checked to be full again after every context is destroyed.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>

#include "../rw_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define REMOTE_PAGES	8
#define MAX_SEND_SGE	2

static void restore_force_mr(void *p)
{
	rdma_rw_force_mr = (uintptr_t)p;
}

/* Set the force_mr parameter for the rest of the case. */
static void set_force_mr(struct kunit *test, bool on)
{
	void *old = (void *)(uintptr_t)rdma_rw_force_mr;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, restore_force_mr,
							old), 0);
	rdma_rw_force_mr = on;
}

struct rwp {
	struct ib_device	*dev;
	struct ib_pd		*pd;
	struct ib_cq		*cq[2];
	struct ib_qp		*qp[2];
	struct ib_mr		*mr;		/* remote buffer, on QP 1 */
	u8			*remote;
};

static struct ib_qp_init_attr qp_attr(struct ib_cq *cq, u32 rdma_ctxs)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 32,
			.max_recv_wr = 32,
			.max_send_sge = MAX_SEND_SGE,
			.max_recv_sge = 1,
			.max_rdma_ctxs = rdma_ctxs,
		},
		.port_num = 1,
	};

	return attr;
}

static struct ib_qp *new_qp(struct kunit *test, struct rwp *p, int i,
			    u32 rdma_ctxs)
{
	struct ib_qp_init_attr attr = qp_attr(p->cq[i], rdma_ctxs);
	struct ib_qp *qp = ib_create_qp(p->pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, destroy_qp, qp),
			0);
	return qp;
}

static int to_rts(struct ib_qp *qp, u32 dqpn, u32 dlid)
{
	struct rdma_loop_conn conn = {
		.dqpn = dqpn,
		.dlid = dlid,
		.access = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ,
		.rd_atomic = 4,
	};

	return rdma_loop_connect_qp(qp, &conn, IB_QPS_RTS);
}

/* Register @p->remote on QP 1 for remote READ and WRITE. */
static void reg_remote(struct kunit *test, struct rwp *p)
{
	struct scatterlist sg[REMOTE_PAGES];
	struct tcqe *t = new_tcqe(test);
	struct ib_reg_wr reg = {};
	int i;

	p->mr = ib_alloc_mr(p->pd, IB_MR_TYPE_MEM_REG, REMOTE_PAGES);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dereg_mr, p->mr),
			0);

	sg_init_table(sg, REMOTE_PAGES);
	for (i = 0; i < REMOTE_PAGES; i++)
		sg_set_buf(&sg[i], p->remote + i * PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(p->dev, sg, REMOTE_PAGES,
					    DMA_BIDIRECTIONAL), REMOTE_PAGES);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(p->mr, sg, REMOTE_PAGES, NULL,
					   PAGE_SIZE), REMOTE_PAGES);

	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_cqe = &t->cqe;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = p->mr;
	reg.key = p->mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		     IB_ACCESS_REMOTE_READ;
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[1], &reg.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, tcqe_wait(p->cq[1], t));
	KUNIT_ASSERT_EQ(test, t->wc.status, IB_WC_SUCCESS);
}

/* A loop device, a PD, two connected RC QPs; QP 0 has @rdma_ctxs. */
static struct rwp *new_rwp(struct kunit *test, u32 rdma_ctxs)
{
	struct rwp *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct ib_port_attr pa;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->dev = rdma_loop_add_device("kurw%d");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->dev);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, remove_loop,
							p->dev), 0);
	p->pd = ib_alloc_pd(p->dev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->pd);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dealloc_pd,
							p->pd), 0);
	for (i = 0; i < 2; i++) {
		p->cq[i] = ib_alloc_cq(p->dev, NULL, 256, 0, IB_POLL_DIRECT);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->cq[i]);
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_cq,
								p->cq[i]), 0);
	}
	p->qp[0] = new_qp(test, p, 0, rdma_ctxs);
	p->qp[1] = new_qp(test, p, 1, 0);
	KUNIT_ASSERT_EQ(test, ib_query_port(p->dev, 1, &pa), 0);
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, to_rts(p->qp[i], p->qp[!i]->qp_num,
					     pa.lid), 0);

	p->remote = kunit_kzalloc(test, REMOTE_PAGES * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->remote);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(p->remote));
	reg_remote(test, p);
	return p;
}

/* A zeroed page-aligned buffer of @len bytes. */
static u8 *new_buf(struct kunit *test, size_t len)
{
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* A scatterlist of @n entries of @len bytes each, at @bufs[i] + @off. */
static struct scatterlist *new_sgl(struct kunit *test, u8 **bufs, int n,
				   u32 off, u32 len)
{
	struct scatterlist *sg = kunit_kcalloc(test, n, sizeof(*sg),
					       GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, sg);
	sg_init_table(sg, n);
	for (i = 0; i < n; i++)
		sg_set_buf(&sg[i], bufs[i] + off, len);
	return sg;
}

static u32 pool_count(struct ib_qp *qp, struct list_head *pool)
{
	struct ib_mr *mr;
	unsigned long flags;
	u32 n = 0;

	spin_lock_irqsave(&qp->mr_lock, flags);
	list_for_each_entry(mr, pool, qp_entry)
		n++;
	spin_unlock_irqrestore(&qp->mr_lock, flags);
	return n;
}

/*
 * Run one context: init, post signaled, wait, destroy.  Return the
 * init result (the send queue entries) and check the completion.
 */
static int run_ctx(struct kunit *test, struct rwp *p, struct rdma_rw_ctx *ctx,
		   struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		   u64 raddr, enum dma_data_direction dir)
{
	struct tcqe *t = new_tcqe(test);
	int ret;

	ret = rdma_rw_ctx_init(ctx, p->qp[0], 1, sg, sg_cnt, sg_offset, raddr,
			       p->mr->rkey, dir);
	if (ret < 0)
		return ret;
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_post(ctx, p->qp[0], 1, &t->cqe,
					       NULL), 0);
	KUNIT_EXPECT_TRUE(test, tcqe_wait(p->cq[0], t));
	KUNIT_EXPECT_EQ_MSG(test, t->wc.status, IB_WC_SUCCESS, "%s",
			    ib_wc_status_msg(t->wc.status));
	KUNIT_EXPECT_EQ(test, t->wc.opcode, dir == DMA_TO_DEVICE ?
			IB_WC_RDMA_WRITE : IB_WC_RDMA_READ);
	KUNIT_EXPECT_PTR_EQ(test, t->wc.qp, p->qp[0]);
	rdma_rw_ctx_destroy(ctx, p->qp[0], 1, sg, sg_cnt, dir);
	return ret;
}

/* ------------------------------------------------------------------ */

/* One mapped entry: one SGE, one request, WRITE then READ back. */
static void rw_single_sge(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	struct rdma_rw_ctx ctx = {};
	u8 *src = new_buf(test, PAGE_SIZE), *dst = new_buf(test, PAGE_SIZE);
	struct scatterlist *sg;
	u64 raddr = p->mr->iova + 1000;

	get_random_bytes(src, PAGE_SIZE);
	sg = new_sgl(test, &src, 1, 100, 3000);
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 1, 0, raddr,
				      DMA_TO_DEVICE), 1);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 1);
	KUNIT_EXPECT_EQ(test, ctx.single.sge.lkey, p->pd->local_dma_lkey);
	KUNIT_EXPECT_EQ(test, memcmp(p->remote + 1000, src + 100, 3000), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(p->remote, 0, 1000));
	KUNIT_EXPECT_NULL(test, memchr_inv(p->remote + 4000, 0, 100));

	/* READ 2000 bytes of it, skipping 500 of the local entry */
	sg = new_sgl(test, &dst, 1, 0, 2500);
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 1, 500, raddr,
				      DMA_FROM_DEVICE), 1);
	KUNIT_EXPECT_NULL(test, memchr_inv(dst, 0, 500));
	KUNIT_EXPECT_EQ(test, memcmp(dst + 500, src + 100, 2000), 0);
	KUNIT_EXPECT_EQ(test, p->qp[0]->mrs_used, 0);
}

/* Five entries with max_send_sge 2: three requests, in order. */
static void rw_multi_sge(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	struct rdma_rw_ctx ctx = {};
	u8 *src[5], *dst[5], *expect;
	struct scatterlist *sg;
	int i;

	expect = new_buf(test, 5 * 700);
	for (i = 0; i < 5; i++) {
		src[i] = new_buf(test, 1024);
		dst[i] = new_buf(test, 1024);
		get_random_bytes(src[i], 1024);
		memcpy(expect + i * 700, src[i] + 7, 700);
	}

	sg = new_sgl(test, src, 5, 7, 700);
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 5, 0, p->mr->iova,
				      DMA_TO_DEVICE),
			DIV_ROUND_UP(5, MAX_SEND_SGE));
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, DIV_ROUND_UP(5, MAX_SEND_SGE));
	KUNIT_EXPECT_EQ(test, memcmp(p->remote, expect, 5 * 700), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(p->remote + 5 * 700, 0, 100));

	/*
	 * READ back, starting 900 bytes in: the second entry at 200, so
	 * four entries (two requests) take 4 * 700 - 200 bytes.
	 */
	sg = new_sgl(test, dst, 5, 0, 700);
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 5, 900, p->mr->iova,
				      DMA_FROM_DEVICE), 2);
	KUNIT_EXPECT_NULL(test, memchr_inv(dst[0], 0, 1024));
	KUNIT_EXPECT_NULL(test, memchr_inv(dst[1], 0, 200));
	KUNIT_EXPECT_EQ(test, memcmp(dst[1] + 200, expect, 500), 0);
	for (i = 2; i < 5; i++)
		KUNIT_EXPECT_EQ(test, memcmp(dst[i], expect + 500 + (i - 2) * 700,
					     700), 0);
}

/*
 * force_mr: a QP created with it gets an MR pool; every transfer
 * registers its memory (REG_MR before the request) and the second use
 * of an MR invalidates its old key first.
 */
static void rw_force_mr(struct kunit *test)
{
	struct rwp *p;
	struct rdma_rw_ctx ctx = {};
	u8 *src[3], *dst[3];
	struct scatterlist *sg;
	int i;

	set_force_mr(test, true);
	p = new_rwp(test, 4);
	KUNIT_EXPECT_EQ(test, pool_count(p->qp[0], &p->qp[0]->rdma_mrs), 4);
	KUNIT_EXPECT_TRUE(test, list_empty(&p->qp[0]->sig_mrs));

	for (i = 0; i < 3; i++) {
		src[i] = new_buf(test, PAGE_SIZE);
		dst[i] = new_buf(test, PAGE_SIZE);
		KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(src[i]));
		KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(dst[i]));
		get_random_bytes(src[i], PAGE_SIZE);
	}

	/* three pages in one MR: REG_MR + WRITE */
	sg = new_sgl(test, src, 3, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 3, 0, p->mr->iova,
				      DMA_TO_DEVICE), 2);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 1);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, memcmp(p->remote + i * PAGE_SIZE, src[i],
					     PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, p->qp[0]->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_count(p->qp[0], &p->qp[0]->rdma_mrs), 4);

	/* READ back from page 1 on; the MR taken was used: LOCAL_INV too */
	sg = new_sgl(test, dst, 2, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 2, 0,
				      p->mr->iova + PAGE_SIZE,
				      DMA_FROM_DEVICE), 3);
	KUNIT_EXPECT_EQ(test, memcmp(dst[0], src[1], PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst[1], src[2], PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, p->qp[0]->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_count(p->qp[0], &p->qp[0]->rdma_mrs), 4);

	/* a page that does not start on a boundary cannot follow another */
	sg = new_sgl(test, src, 2, 8, PAGE_SIZE - 8);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, p->qp[0], 1, sg, 2, 0,
					       p->mr->iova, p->mr->rkey,
					       DMA_TO_DEVICE), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->qp[0]->mrs_used, 0);
}

/*
 * Several MRs per context: the device's page list made short, five
 * pages need three registrations; a pool of two cannot serve it.
 */
static void rw_force_mr_multi(struct kunit *test)
{
	struct rwp *p;
	struct rdma_rw_ctx ctx = {};
	u8 *src[5], *dst[5];
	struct scatterlist *sg;
	int i;

	set_force_mr(test, true);
	p = new_rwp(test, 4);
	/* a test device of our own: shorten what rdma_rw maps per MR */
	p->dev->attrs.max_fast_reg_page_list_len = 2;

	for (i = 0; i < 5; i++) {
		src[i] = new_buf(test, PAGE_SIZE);
		dst[i] = new_buf(test, PAGE_SIZE);
		KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(src[i]));
		get_random_bytes(src[i], PAGE_SIZE);
	}

	sg = new_sgl(test, src, 5, 0, PAGE_SIZE);
	/* the first use of three MRs: 3 x (REG_MR + WRITE) */
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 5, 0, p->mr->iova,
				      DMA_TO_DEVICE), 6);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 3);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, memcmp(p->remote + i * PAGE_SIZE, src[i],
					     PAGE_SIZE), 0);

	sg = new_sgl(test, dst, 5, 0, PAGE_SIZE);
	/* the same three MRs again: 3 x (LOCAL_INV + REG_MR + READ) */
	KUNIT_EXPECT_EQ(test, run_ctx(test, p, &ctx, sg, 5, 0, p->mr->iova,
				      DMA_FROM_DEVICE), 9);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, memcmp(dst[i], src[i], PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, p->qp[0]->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, pool_count(p->qp[0], &p->qp[0]->rdma_mrs), 4);

	/* take two MRs away: the context needs three */
	{
		struct ib_mr *a = ib_mr_pool_get(p->qp[0], &p->qp[0]->rdma_mrs);
		struct ib_mr *b = ib_mr_pool_get(p->qp[0], &p->qp[0]->rdma_mrs);

		KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, p->qp[0], 1, sg, 5,
						       0, p->mr->iova,
						       p->mr->rkey,
						       DMA_FROM_DEVICE),
				-EAGAIN);
		KUNIT_EXPECT_EQ(test, p->qp[0]->mrs_used, 2);
		ib_mr_pool_put(p->qp[0], &p->qp[0]->rdma_mrs, a);
		ib_mr_pool_put(p->qp[0], &p->qp[0]->rdma_mrs, b);
	}
	KUNIT_EXPECT_EQ(test, pool_count(p->qp[0], &p->qp[0]->rdma_mrs), 4);
}

/* rdma_rw_ctx_wrs() with a caller's SEND chained after the WRITEs. */
static void rw_chain(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	struct tcqe *ts = new_tcqe(test), *tr = new_tcqe(test);
	struct rdma_rw_ctx ctx = {};
	u8 *src[3], *msg = new_buf(test, 64), *rbuf = new_buf(test, 64);
	struct ib_sge ssge, rsge;
	struct ib_send_wr send = {}, *first;
	struct ib_recv_wr recv = {};
	struct scatterlist *sg;
	int i, ret;

	for (i = 0; i < 3; i++) {
		src[i] = new_buf(test, 512);
		get_random_bytes(src[i], 512);
	}
	get_random_bytes(msg, 64);

	rsge.addr = ib_dma_map_single(p->dev, rbuf, 64, DMA_FROM_DEVICE);
	rsge.length = 64;
	rsge.lkey = p->pd->local_dma_lkey;
	recv.wr_cqe = &tr->cqe;
	recv.sg_list = &rsge;
	recv.num_sge = 1;
	KUNIT_ASSERT_EQ(test, ib_post_recv(p->qp[1], &recv, NULL), 0);

	ssge.addr = ib_dma_map_single(p->dev, msg, 64, DMA_TO_DEVICE);
	ssge.length = 64;
	ssge.lkey = p->pd->local_dma_lkey;
	send.wr_cqe = &ts->cqe;
	send.opcode = IB_WR_SEND;
	send.send_flags = IB_SEND_SIGNALED;
	send.sg_list = &ssge;
	send.num_sge = 1;

	sg = new_sgl(test, src, 3, 0, 512);
	ret = rdma_rw_ctx_init(&ctx, p->qp[0], 1, sg, 3, 0, p->mr->iova,
			       p->mr->rkey, DMA_TO_DEVICE);
	KUNIT_ASSERT_EQ(test, ret, 2);

	first = rdma_rw_ctx_wrs(&ctx, p->qp[0], 1, NULL, &send);
	KUNIT_EXPECT_PTR_EQ(test, first, &ctx.map.wrs[0].wr);
	KUNIT_EXPECT_PTR_EQ(test, first->next, &ctx.map.wrs[1].wr);
	KUNIT_EXPECT_PTR_EQ(test, ctx.map.wrs[1].wr.next, &send);
	/* the caller's request signals; the context's stay silent */
	KUNIT_EXPECT_FALSE(test, ctx.map.wrs[1].wr.send_flags &
				 IB_SEND_SIGNALED);
	KUNIT_EXPECT_EQ(test, first->num_sge, MAX_SEND_SGE);
	KUNIT_EXPECT_EQ(test, ctx.map.wrs[1].wr.num_sge, 1);

	KUNIT_EXPECT_EQ(test, ib_post_send(p->qp[0], first, NULL), 0);
	KUNIT_EXPECT_TRUE(test, tcqe_wait(p->cq[0], ts));
	KUNIT_EXPECT_TRUE(test, tcqe_wait(p->cq[1], tr));
	KUNIT_EXPECT_EQ(test, ts->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, ts->wc.opcode, IB_WC_SEND);
	KUNIT_EXPECT_EQ(test, tr->wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, tr->wc.byte_len, 64);
	KUNIT_EXPECT_EQ(test, memcmp(rbuf, msg, 64), 0);
	/* the WRITEs ran before the SEND arrived */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, memcmp(p->remote + i * 512, src[i], 512),
				0);
	/* and only the SEND completed */
	KUNIT_EXPECT_EQ(test, ib_process_cq_direct(p->cq[0], -1), 0);
	rdma_rw_ctx_destroy(&ctx, p->qp[0], 1, sg, 3, DMA_TO_DEVICE);

	/* without a chain the last request signals the given cqe */
	sg = new_sgl(test, src, 1, 0, 512);
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, p->qp[0], 1, sg, 1, 0,
					       p->mr->iova, p->mr->rkey,
					       DMA_TO_DEVICE), 1);
	tcqe_reinit(ts);
	first = rdma_rw_ctx_wrs(&ctx, p->qp[0], 1, &ts->cqe, NULL);
	KUNIT_EXPECT_PTR_EQ(test, first, &ctx.single.wr.wr);
	KUNIT_EXPECT_NULL(test, first->next);
	KUNIT_EXPECT_PTR_EQ(test, first->wr_cqe, &ts->cqe);
	KUNIT_EXPECT_TRUE(test, first->send_flags & IB_SEND_SIGNALED);
	rdma_rw_ctx_destroy(&ctx, p->qp[0], 1, sg, 1, DMA_TO_DEVICE);
}

/* rdma_rw_mr_factor(): per SGE limit without MRs, per MR with them. */
static void rw_mr_factor(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	u32 sge_rd = p->dev->attrs.max_sge_rd;
	u32 mr_len = min_t(u32, p->dev->attrs.max_fast_reg_page_list_len, 256);

	KUNIT_ASSERT_GT(test, sge_rd, 0);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(p->dev, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(p->dev, 1, sge_rd), 1);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(p->dev, 1, sge_rd + 1), 2);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(p->dev, 1, 10 * sge_rd), 10);

	set_force_mr(test, true);
	KUNIT_EXPECT_EQ(test, mr_len, 256);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(p->dev, 1, 256), 1);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(p->dev, 1, 257), 2);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(p->dev, 1, 1024), 4);
}

/* rdma_rw_init_qp(): the send queue grows by what the contexts need. */
static void rw_init_qp(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	struct ib_qp_init_attr attr = qp_attr(p->cq[0], 5);

	rdma_rw_init_qp(p->dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, 32 + 5);

	attr = qp_attr(p->cq[0], 5);
	attr.create_flags = IB_QP_CREATE_INTEGRITY_EN;
	rdma_rw_init_qp(p->dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, 32 + 3 * 5);

	attr = qp_attr(p->cq[0], p->dev->attrs.max_qp_wr);
	rdma_rw_init_qp(p->dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, p->dev->attrs.max_qp_wr);

	set_force_mr(test, true);
	attr = qp_attr(p->cq[0], 5);
	rdma_rw_init_qp(p->dev, &attr);
	KUNIT_EXPECT_EQ(test, attr.cap.max_send_wr, 32 + 3 * 5);
}

/*
 * rdma_rw_max_send_wr(): one request per context, three where MRs or
 * integrity are used; no cap at max_qp_wr, UINT_MAX on overflow.
 */
static void rw_max_send_wr(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	u32 big = p->dev->attrs.max_qp_wr;

	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(p->dev, 1, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(p->dev, 1, 5, 0), 5);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(p->dev, 1, 5,
						  IB_QP_CREATE_INTEGRITY_EN),
			15);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(p->dev, 1, big,
						  IB_QP_CREATE_INTEGRITY_EN),
			3 * big);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(p->dev, 1, UINT_MAX / 3 + 1,
						  IB_QP_CREATE_INTEGRITY_EN),
			UINT_MAX);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(p->dev, 1, UINT_MAX, 0),
			UINT_MAX);

	set_force_mr(test, true);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(p->dev, 1, 5, 0), 15);
}

/*
 * ib_create_qp() with max_rdma_ctxs: the send queue grows, MRs come only
 * where rdma_rw may use them, and ib_destroy_qp() frees them (each MR
 * counts in its PD's usecnt).
 */
static void rw_qp_pools(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	struct ib_qp_init_attr attr = qp_attr(p->cq[0], 6);
	int base = atomic_read(&p->pd->usecnt);
	struct ib_qp *qp;

	qp = ib_create_qp(p->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_GE(test, attr.cap.max_send_wr, 32 + 6);
	KUNIT_EXPECT_TRUE(test, list_empty(&qp->rdma_mrs));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->pd->usecnt), base + 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);

	set_force_mr(test, true);
	attr = qp_attr(p->cq[0], 6);
	qp = ib_create_qp(p->pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_GE(test, attr.cap.max_send_wr, 32 + 3 * 6);
	KUNIT_EXPECT_EQ(test, pool_count(qp, &qp->rdma_mrs), 6);
	KUNIT_EXPECT_TRUE(test, list_empty(&qp->sig_mrs));
	KUNIT_EXPECT_EQ(test, qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->pd->usecnt), base + 1 + 6);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->pd->usecnt), base);
}

/* Bad arguments and missing integrity offload give clean errors. */
static void rw_errors(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	struct rdma_rw_ctx ctx = {};
	struct ib_sig_attrs sig = {};
	struct ib_qp_init_attr attr;
	struct ib_mr_status st;
	u8 *buf = new_buf(test, PAGE_SIZE);
	struct scatterlist *sg = new_sgl(test, &buf, 1, 0, 512);
	struct ib_mr *mr;

	/* nothing to map, or an offset past the list */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, p->qp[0], 1, sg, 0, 0,
					       p->mr->iova, p->mr->rkey,
					       DMA_TO_DEVICE), -EIO);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, p->qp[0], 1, sg, 1, 512,
					       p->mr->iova, p->mr->rkey,
					       DMA_TO_DEVICE), -EIO);

	/* the loop device has no integrity offload */
	sig.mem.sig_type = IB_SIG_TYPE_NONE;
	sig.wire.sig_type = IB_SIG_TYPE_T10_DIF;
	sig.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_REFTAG;
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, p->qp[0], 1, sg,
							 1, NULL, 0, &sig,
							 p->mr->iova,
							 p->mr->rkey,
							 DMA_TO_DEVICE),
			-EOPNOTSUPP);
	mr = ib_alloc_mr_integrity(p->pd, 4, 4);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_check_mr_status(p->mr, IB_MR_CHECK_SIG_STATUS,
						 &st), -EOPNOTSUPP);
	attr = qp_attr(p->cq[0], 2);
	attr.create_flags = IB_QP_CREATE_INTEGRITY_EN;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ib_create_qp(p->pd, &attr)),
			-EINVAL);

	/* an MR pool that is empty: -EAGAIN, nothing taken */
	set_force_mr(test, true);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx, p->qp[0], 1, sg, 1, 0,
					       p->mr->iova, p->mr->rkey,
					       DMA_TO_DEVICE), -EAGAIN);
	KUNIT_EXPECT_EQ(test, p->qp[0]->mrs_used, 0);
}

/*
 * Integrity plumbing with test-only driver ops on the test's own loop
 * device: the "integrity MR" is a plain rdmavt MR that maps the data
 * and counts the protection information into its length.  rdmavt cannot
 * execute IB_WR_REG_MR_INTEGRITY, so the requests are checked, not
 * posted.
 */
static struct {
	int	data_nents;
	int	meta_nents;
} fake_pi;

static struct ib_mr *fake_alloc_mr_integrity(struct ib_pd *pd,
					     u32 max_num_data_sg,
					     u32 max_num_meta_sg)
{
	return pd->device->ops.alloc_mr(pd, IB_MR_TYPE_MEM_REG,
					max_num_data_sg);
}

static int fake_map_mr_sg_pi(struct ib_mr *mr, struct scatterlist *data_sg,
			     int data_sg_nents, unsigned int *data_sg_offset,
			     struct scatterlist *meta_sg, int meta_sg_nents,
			     unsigned int *meta_sg_offset)
{
	struct scatterlist *s;
	int n, i;

	fake_pi.data_nents = data_sg_nents;
	fake_pi.meta_nents = meta_sg_nents;
	n = mr->device->ops.map_mr_sg(mr, data_sg, data_sg_nents,
				      data_sg_offset);
	if (n != data_sg_nents)
		return -EINVAL;
	for_each_sg(meta_sg, s, meta_sg_nents, i)
		mr->length += sg_dma_len(s);
	return 0;
}

static int fake_check_mr_status(struct ib_mr *mr, u32 check_mask,
				struct ib_mr_status *mr_status)
{
	mr_status->fail_status = check_mask;
	mr_status->sig_err.err_type = IB_SIG_BAD_REFTAG;
	mr_status->sig_err.key = mr->lkey;
	return 0;
}

static void rw_signature(struct kunit *test)
{
	struct rwp *p = new_rwp(test, 0);
	struct ib_qp *qp = p->qp[0];
	struct ib_device *dev = p->dev;
	struct rdma_rw_ctx ctx = {};
	struct ib_sig_attrs sig = {
		.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_APPTAG,
		.mem.sig_type = IB_SIG_TYPE_T10_DIF,
		.wire.sig_type = IB_SIG_TYPE_NONE,
		.meta_length = 16,
	};
	u8 *data[2], *meta = new_buf(test, 64);
	struct scatterlist *sg, *prot;
	struct ib_send_wr *first;
	struct ib_mr_status st = {};
	struct ib_mr *mr;
	u32 old_key;
	int i;

	for (i = 0; i < 2; i++)
		data[i] = new_buf(test, PAGE_SIZE);
	sg = new_sgl(test, data, 2, 0, PAGE_SIZE);
	prot = new_sgl(test, &meta, 1, 0, 16);

	/* the driver ops alone are not enough: IBK_INTEGRITY_HANDOVER too */
	dev->ops.alloc_mr_integrity = fake_alloc_mr_integrity;
	dev->ops.map_mr_sg_pi = fake_map_mr_sg_pi;
	dev->ops.check_mr_status = fake_check_mr_status;
	mr = ib_alloc_mr_integrity(p->pd, 4, 4);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EOPNOTSUPP);
	dev->attrs.kernel_cap_flags |= IBK_INTEGRITY_HANDOVER;
	dev->attrs.max_pi_fast_reg_page_list_len = 4;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ib_alloc_mr_integrity(p->pd, 4,
								    0)),
			-EINVAL);

	/* what ib_create_qp() does for an integrity QP with two contexts */
	qp->integrity_en = true;
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(qp, &qp->sig_mrs, 2,
					      IB_MR_TYPE_INTEGRITY, 4, 4), 0);
	KUNIT_EXPECT_EQ(test, pool_count(qp, &qp->sig_mrs), 2);
	mr = list_first_entry(&qp->sig_mrs, struct ib_mr, qp_entry);
	KUNIT_EXPECT_EQ(test, mr->type, IB_MR_TYPE_INTEGRITY);
	KUNIT_ASSERT_NOT_NULL(test, mr->sig_attrs);
	KUNIT_EXPECT_NULL(test, memchr_inv(mr->sig_attrs, 0,
					   sizeof(*mr->sig_attrs)));

	KUNIT_EXPECT_EQ(test, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						 &st), 0);
	KUNIT_EXPECT_EQ(test, st.fail_status, IB_MR_CHECK_SIG_STATUS);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_REFTAG);
	KUNIT_EXPECT_EQ(test, st.sig_err.key, mr->lkey);

	/* more entries than an MR maps */
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_signature_init(&ctx, qp, 1, sg, 300,
							 NULL, 0, &sig,
							 p->mr->iova,
							 p->mr->rkey,
							 DMA_TO_DEVICE),
			-EINVAL);

	/* REG_MR_INTEGRITY + WRITE; the wire sees the data only */
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_signature_init(&ctx, qp, 1, sg, 2,
							 prot, 1, &sig,
							 p->mr->iova,
							 p->mr->rkey,
							 DMA_TO_DEVICE), 2);
	KUNIT_EXPECT_EQ(test, qp->mrs_used, 1);
	KUNIT_EXPECT_EQ(test, fake_pi.data_nents, 2);
	KUNIT_EXPECT_EQ(test, fake_pi.meta_nents, 1);
	mr = ctx.reg->mr;
	KUNIT_EXPECT_EQ(test, memcmp(mr->sig_attrs, &sig, sizeof(sig)), 0);
	KUNIT_EXPECT_EQ(test, ctx.reg->sge.length, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ctx.reg->reg_wr.wr.opcode,
			IB_WR_REG_MR_INTEGRITY);
	KUNIT_EXPECT_EQ(test, ctx.reg->wr.wr.opcode, IB_WR_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, ctx.reg->wr.rkey, p->mr->rkey);

	old_key = mr->lkey;
	first = rdma_rw_ctx_wrs(&ctx, qp, 1, NULL, NULL);
	KUNIT_EXPECT_PTR_EQ(test, first, &ctx.reg->reg_wr.wr);
	KUNIT_EXPECT_PTR_EQ(test, first->next, &ctx.reg->wr.wr);
	KUNIT_EXPECT_NE(test, mr->lkey, old_key);
	KUNIT_EXPECT_EQ(test, mr->lkey >> 8, old_key >> 8);
	KUNIT_EXPECT_EQ(test, ctx.reg->reg_wr.key, mr->lkey);
	KUNIT_EXPECT_EQ(test, ctx.reg->sge.lkey, mr->lkey);
	KUNIT_EXPECT_TRUE(test, mr->need_inval);
	rdma_rw_ctx_destroy_signature(&ctx, qp, 1, sg, 2, prot, 1,
				      DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, qp->mrs_used, 0);

	/* READ with wire protection: the PI travels too; the MR is reused */
	sig.wire.sig_type = IB_SIG_TYPE_T10_DIF;
	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_signature_init(&ctx, qp, 1, sg, 2,
							 prot, 1, &sig,
							 p->mr->iova,
							 p->mr->rkey,
							 DMA_FROM_DEVICE), 3);
	KUNIT_EXPECT_PTR_EQ(test, ctx.reg->mr, mr);
	KUNIT_EXPECT_EQ(test, ctx.reg->sge.length, 2 * PAGE_SIZE + 16);
	KUNIT_EXPECT_EQ(test, ctx.reg->wr.wr.opcode, IB_WR_RDMA_READ);
	KUNIT_EXPECT_EQ(test, ctx.reg->inv_wr.opcode, IB_WR_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, ctx.reg->inv_wr.ex.invalidate_rkey, mr->lkey);
	first = rdma_rw_ctx_wrs(&ctx, qp, 1, NULL, NULL);
	KUNIT_EXPECT_PTR_EQ(test, first, &ctx.reg->inv_wr);
	rdma_rw_ctx_destroy_signature(&ctx, qp, 1, sg, 2, prot, 1,
				      DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, pool_count(qp, &qp->sig_mrs), 2);
	/* ib_destroy_qp() frees the pool */
}

static struct kunit_case rdma_rw_cases[] = {
	KUNIT_CASE(rw_single_sge),
	KUNIT_CASE(rw_multi_sge),
	KUNIT_CASE(rw_force_mr),
	KUNIT_CASE(rw_force_mr_multi),
	KUNIT_CASE(rw_chain),
	KUNIT_CASE(rw_mr_factor),
	KUNIT_CASE(rw_init_qp),
	KUNIT_CASE(rw_max_send_wr),
	KUNIT_CASE(rw_qp_pools),
	KUNIT_CASE(rw_errors),
	KUNIT_CASE(rw_signature),
	{}
};

static struct kunit_suite rdma_rw_suite = {
	.name = "rdma_rw",
	.test_cases = rdma_rw_cases,
};

kunit_test_suite(rdma_rw_suite);

MODULE_DESCRIPTION("KUnit tests of the rdma_rw API on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
