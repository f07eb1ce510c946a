// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_mw": rdmavt's memory windows (hw/sw/rdmavt/mw.c)
 * on a loop device that has them (RDMA_LOOP_MEM_WINDOWS): type 1 and
 * type 2B windows allocated through the device's ops, as ib_uverbs does,
 * bound by BIND_MW requests on a QP's send queue, remote accesses through
 * them checked by rvt_rkey_ok() and carried by an RDMA WRITE between two
 * connected QPs, invalidation, and the rules of IBA 10.6.7 that make a
 * bind fail (IB_WC_MW_BIND_ERR).
 */
#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

#define WACC	(IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ)
/* an address @off bytes into the case's MR */
#define B(off)	(t->base + (off))

/* A case's device, two QPs connected to each other, an MR over a page. */
struct mwt {
	struct kt_vt	*vt;
	struct ib_cq	*cq;
	struct ib_qp	*a, *b;
	struct ib_mr	*mr;
	u64		base;
	void		*page;
	u8		*src;
};

static void free_page_action(void *p)
{
	free_page((unsigned long)p);
}

static void kt_dealloc_mw(void *p)
{
	struct ib_mw *mw = p;

	mw->device->ops.dealloc_mw(mw);
	kfree(mw);
}

static struct ib_qp *new_qp(struct kunit *test, struct mwt *t)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.send_cq = t->cq,
		.recv_cq = t->cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return kt_new_test_qp(test, t->vt, &attr);
}

static void connect(struct kunit *test, struct ib_qp *qp, struct ib_qp *peer)
{
	struct rdma_loop_conn conn = {
		.dqpn = peer->qp_num,
		.dlid = rdma_loop_port_lid(qp->device),
		.access = WACC,
		.rnr_retry = 7,
	};

	KUNIT_ASSERT_EQ(test, rdma_loop_connect_qp(qp, &conn, IB_QPS_RTS), 0);
}

/* Post @wr on @qp and wait for its completion; its status. */
static enum ib_wc_status run(struct kunit *test, struct mwt *t,
			     struct ib_qp *qp, struct ib_send_wr *wr)
{
	struct kt_tcqe *c = kt_new_tcqe(test);
	const struct ib_send_wr *bad;

	wr->wr_cqe = &c->cqe;
	wr->send_flags |= IB_SEND_SIGNALED;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, wr, &bad), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(t->cq, c));
	return c->wc.status;
}

/* Register the MR over the case's page with @acc, by a REG_MR on QP a. */
static void reg_mr(struct kunit *test, struct mwt *t, int acc)
{
	struct ib_reg_wr wr = {
		.wr.opcode = IB_WR_REG_MR,
		.mr = t->mr,
		.key = t->mr->rkey,
		.access = acc,
	};
	struct scatterlist sg;

	sg_init_one(&sg, t->page, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(t->vt->dev, &sg, 1,
					    DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(t->mr, &sg, 1, NULL, PAGE_SIZE), 1);
	t->base = t->mr->iova;
	KUNIT_ASSERT_EQ(test, run(test, t, t->a, &wr.wr), IB_WC_SUCCESS);
}

static struct mwt *new_mwt(struct kunit *test, int mr_acc)
{
	struct mwt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->vt = kt_new_vt_flags(test, "kurmw%d", RDMA_LOOP_MEM_WINDOWS);
	t->cq = kt_new_direct_cq(test, t->vt);
	t->a = new_qp(test, t);
	t->b = new_qp(test, t);
	connect(test, t->a, t->b);
	connect(test, t->b, t->a);
	t->page = (void *)get_zeroed_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->page);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, free_page_action,
							t->page), 0);
	t->src = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->src);
	t->mr = ib_alloc_mr(t->vt->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr,
							t->mr), 0);
	reg_mr(test, t, mr_acc);
	return t;
}

/* A window of @type, as ib_uverbs' ALLOC_MW makes one. */
static struct ib_mw *new_mw(struct kunit *test, struct mwt *t,
			    enum ib_mw_type type)
{
	struct ib_device *dev = t->vt->dev;
	struct ib_mw *mw = rdma_zalloc_drv_obj(dev, ib_mw);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->device = dev;
	mw->pd = t->vt->pd;
	mw->type = type;
	ret = dev->ops.alloc_mw(mw, NULL);
	if (ret)
		kfree(mw);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dealloc_mw,
							mw), 0);
	return mw;
}

/* BIND_MW of @mw on @qp: @len bytes at iova @addr, key byte @key. */
static enum ib_wc_status bind(struct kunit *test, struct mwt *t,
			      struct ib_qp *qp, struct ib_mw *mw, u64 addr,
			      u64 len, u8 key, int acc)
{
	struct rvt_bind_wr b = {
		.wr.opcode = IB_WR_BIND_MW,
		.addr = addr,
		.length = len,
		.mw_rkey = mw->rkey,
		.rkey = (mw->rkey & ~0xffU) | key,
		.mr_lkey = t->mr->lkey,
		.access = acc,
	};

	return run(test, t, qp, &b.wr);
}

/* Does @qp, as a responder, let @len bytes at @vaddr under @rkey in? */
static bool reaches(struct ib_qp *qp, u64 vaddr, u32 len, u32 rkey, int acc)
{
	struct rvt_qp *rqp = container_of(qp, struct rvt_qp, ibqp);
	struct rvt_sge sge = {};

	if (!rvt_rkey_ok(rqp, &sge, len, vaddr, rkey, acc))
		return false;
	rvt_put_mr(sge.mr);
	return true;
}

static int num_mw(struct mwt *t)
{
	return atomic_read(&container_of(t->mr, struct rvt_mr,
					 ibmr)->mr.num_mw);
}

/*
 * A type 1 window: bound to part of the MR with a new key byte, it lets
 * in what its bounds and rights say, and carries an RDMA WRITE; the MR
 * is not deregistered while the window is bound; unbound (length 0),
 * its key reaches nothing.
 */
static void rvt_mw_type1(struct kunit *test)
{
	struct mwt *t = new_mwt(test, IB_ACCESS_LOCAL_WRITE |
				IB_ACCESS_MW_BIND);
	struct ib_mw *mw = new_mw(test, t, IB_MW_TYPE_1);
	struct ib_sge sge;
	struct ib_rdma_wr w = {};
	u32 old = mw->rkey;

	/* the MR itself grants no remote access: only the window does */
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0x40), 16, t->mr->rkey,
					 IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0x40), 16, mw->rkey,
					 IB_ACCESS_REMOTE_WRITE));
	/* a local right asked too is ignored (pyverbs' MWTest asks it) */
	KUNIT_ASSERT_EQ(test, bind(test, t, t->a, mw, B(0x40), 256,
				   (old + 1) & 0xff,
				   WACC | IB_ACCESS_LOCAL_WRITE), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, mw->rkey, (old & ~0xffU) | ((old + 1) & 0xff));
	KUNIT_EXPECT_EQ(test, num_mw(t), 1);
	KUNIT_EXPECT_TRUE(test, reaches(t->a, B(0x40), 256, mw->rkey,
					IB_ACCESS_REMOTE_WRITE));
	/* a type 1 window is any QP's of the PD */
	KUNIT_EXPECT_TRUE(test, reaches(t->b, B(0x100), 64, mw->rkey,
					IB_ACCESS_REMOTE_READ));
	/* its old key, past its bounds, before it, a right not granted */
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0x40), 16, old,
					 IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0x130), 32, mw->rkey,
					 IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0x3f), 8, mw->rkey,
					 IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0x40), 8, mw->rkey,
					 IB_ACCESS_REMOTE_ATOMIC));

	/* an RDMA WRITE from b lands through the window */
	memset(t->src, 0x5c, 32);
	sge = kt_sge_of(t->vt->pd, t->src, 32);
	w.wr.opcode = IB_WR_RDMA_WRITE;
	w.wr.sg_list = &sge;
	w.wr.num_sge = 1;
	w.remote_addr = B(0x80);
	w.rkey = mw->rkey;
	KUNIT_ASSERT_EQ(test, run(test, t, t->b, &w.wr), IB_WC_SUCCESS);
	KUNIT_EXPECT_MEMEQ(test, (u8 *)t->page + 0x80, t->src, 32);

	/* bound, the MR stays */
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(t->mr), -EBUSY);
	/* unbound: nothing through it; the MR may go */
	KUNIT_ASSERT_EQ(test, bind(test, t, t->a, mw, 0, 0, mw->rkey & 0xff,
				   0), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, num_mw(t), 0);
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0x40), 16, mw->rkey,
					 IB_ACCESS_REMOTE_WRITE));
}

/*
 * A type 2B window: bound through QP a, only a reaches memory through
 * it; bound again while valid fails; LOCAL_INV makes it free, and it
 * binds again; a zero-based one takes offsets.
 */
static void rvt_mw_type2(struct kunit *test)
{
	struct mwt *t = new_mwt(test, IB_ACCESS_LOCAL_WRITE |
				IB_ACCESS_MW_BIND);
	struct ib_mw *mw = new_mw(test, t, IB_MW_TYPE_2);
	struct ib_send_wr inv = { .opcode = IB_WR_LOCAL_INV };

	KUNIT_ASSERT_EQ(test, bind(test, t, t->a, mw, B(0), 512, 7, WACC),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, reaches(t->a, B(0), 512, mw->rkey,
					IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_FALSE(test, reaches(t->b, B(0), 16, mw->rkey,
					 IB_ACCESS_REMOTE_WRITE));

	inv.ex.invalidate_rkey = mw->rkey;
	KUNIT_ASSERT_EQ(test, run(test, t, t->a, &inv), IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, reaches(t->a, B(0), 16, mw->rkey,
					 IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_EQ(test, num_mw(t), 0);

	/* free again: a zero-based binding 0x200 bytes into the MR */
	KUNIT_ASSERT_EQ(test, bind(test, t, t->a, mw, B(0x200), 256, 8,
				   WACC | IB_ZERO_BASED), IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, reaches(t->a, 0, 256, mw->rkey,
					IB_ACCESS_REMOTE_READ));
	KUNIT_EXPECT_FALSE(test, reaches(t->a, 200, 100, mw->rkey,
					 IB_ACCESS_REMOTE_READ));
	/* bound while valid: the bind fails, and so does the QP */
	KUNIT_EXPECT_EQ(test, bind(test, t, t->a, mw, B(0), 16, 9, WACC),
			IB_WC_MW_BIND_ERR);
}

/* The binds IBA 10.6.7 refuses, each on a fresh pair of QPs. */
static void rvt_mw_bind_refused(struct kunit *test)
{
	struct mwt *t = new_mwt(test, IB_ACCESS_LOCAL_WRITE);
	struct ib_mw *mw1 = new_mw(test, t, IB_MW_TYPE_1);

	/* the MR grants no MW_BIND */
	KUNIT_EXPECT_EQ(test, bind(test, t, t->a, mw1, B(0), 64, 1, WACC),
			IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_EQ(test, num_mw(t), 0);
}

static void rvt_mw_bind_rules(struct kunit *test)
{
	static const struct {
		const char *what;
		enum ib_mw_type type;
		s64 off;
		u64 len;
		int acc;
	} bad[] = {
		{ "past the MR's end", IB_MW_TYPE_1, 0xf00, 0x200, WACC },
		{ "before the MR", IB_MW_TYPE_1, -0x100, 0x200, WACC },
		{ "type 1 zero-based", IB_MW_TYPE_1, 0, 64,
		  WACC | IB_ZERO_BASED },
		{ "type 2 to nothing", IB_MW_TYPE_2, 0, 0, WACC },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct mwt *t = new_mwt(test, IB_ACCESS_LOCAL_WRITE |
					IB_ACCESS_MW_BIND);
		struct ib_mw *mw = new_mw(test, t, bad[i].type);

		KUNIT_EXPECT_EQ_MSG(test, bind(test, t, t->a, mw, B(bad[i].off),
					       bad[i].len, 3, bad[i].acc),
				    IB_WC_MW_BIND_ERR, "%s", bad[i].what);
		KUNIT_EXPECT_EQ(test, num_mw(t), 0);
	}
}

/* A window that goes while bound lets its MR go too. */
static void rvt_mw_dealloc_bound(struct kunit *test)
{
	struct mwt *t = new_mwt(test, IB_ACCESS_LOCAL_WRITE |
				IB_ACCESS_MW_BIND);
	struct ib_device *dev = t->vt->dev;
	struct ib_mw *mw = rdma_zalloc_drv_obj(dev, ib_mw);

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->device = dev;
	mw->pd = t->vt->pd;
	mw->type = IB_MW_TYPE_2;
	KUNIT_ASSERT_EQ(test, dev->ops.alloc_mw(mw, NULL), 0);
	KUNIT_EXPECT_EQ(test, bind(test, t, t->a, mw, B(0), 64, 2, WACC),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, num_mw(t), 1);
	KUNIT_EXPECT_EQ(test, dev->ops.dealloc_mw(mw), 0);
	kfree(mw);
	KUNIT_EXPECT_EQ(test, num_mw(t), 0);
}

static struct kunit_case rvt_mw_cases[] = {
	KUNIT_CASE(rvt_mw_type1),
	KUNIT_CASE(rvt_mw_type2),
	KUNIT_CASE(rvt_mw_bind_refused),
	KUNIT_CASE(rvt_mw_bind_rules),
	KUNIT_CASE(rvt_mw_dealloc_bound),
	{}
};

static struct kunit_suite rvt_mw_suite = {
	.name = "rdma_rvt_mw",
	.test_cases = rvt_mw_cases,
};

kunit_test_suite(rvt_mw_suite);

MODULE_DESCRIPTION("KUnit tests of rdmavt's memory windows");
MODULE_LICENSE("Dual BSD/GPL");
