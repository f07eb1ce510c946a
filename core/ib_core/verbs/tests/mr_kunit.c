// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_mr": memory regions (core/ib_core/verbs/mr.c) on loop
 * devices: fast registration of a two-page MR through IB_WR_REG_MR, RDMA WRITE
 * across its page boundary, READ back, WRITE with immediate, LOCAL_INV
 * and the access error that follows; SEND with invalidate; atomics on
 * an MR with and without remote atomic access; ib_map_mr_sg() stopping
 * at a gap and at a full MR; ib_advise_mr() with and without the driver
 * op; ib_check_mr_access() and ib_access_writable().
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>

static void verbs_rc_write_read(struct kunit *test)
{
	struct kt_pair *p = kt_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_pd *pd = p->vt->pd;
	u8 *remote, *back;
	struct kt_tcqe *t = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct ib_sge sge;
	struct ib_mr *mr;

	remote = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	back = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, remote);
	KUNIT_ASSERT_NOT_NULL(test, back);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(remote));

	kt_tcqe_init(t);
	mr = kt_new_fr_mr(test, p->vt, remote, 2,
			  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			  IB_ACCESS_REMOTE_READ, t, p->qp[1], p->cq[1]);

	/* WRITE 3000 bytes across the page boundary of the remote MR */
	get_random_bytes(p->buf[0], KT_BUF_LEN);
	sge = kt_sge_of(pd, p->buf[0], 3000);
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					   mr->iova + 2000, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, memcmp(remote + 2000, p->buf[0], 3000), 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(remote, 0, 2000));

	/* READ it back into another buffer */
	sge = kt_sge_of(pd, back, 3000);
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_rdma(p->qp[0], t, IB_WR_RDMA_READ, &sge,
					   mr->iova + 2000, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, t->wc.byte_len, 3000);
	KUNIT_EXPECT_EQ(test, memcmp(back, p->buf[0], 3000), 0);

	/* WRITE with immediate consumes a receive request */
	sge = kt_sge_of(pd, p->buf[0] + 3000, 8);
	kt_tcqe_init(r);
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r, NULL, 0), 0);
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_rdma(p->qp[0], t,
					   IB_WR_RDMA_WRITE_WITH_IMM, &sge,
					   mr->iova, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], r));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_RDMA_WRITE);
	KT_EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(r->wc.ex.imm_data), 0xc0ffee);
	KUNIT_EXPECT_EQ(test, r->wc.byte_len, 8);
	KUNIT_EXPECT_EQ(test, memcmp(remote, p->buf[0] + 3000, 8), 0);

	/* invalidate: the old rkey stops working, the QP errors out */
	kt_tcqe_init(t);
	{
		struct ib_send_wr inv = {
			.wr_cqe = &t->cqe,
			.opcode = IB_WR_LOCAL_INV,
			.send_flags = IB_SEND_SIGNALED,
			.ex.invalidate_rkey = mr->rkey,
		};

		KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[1], &inv, NULL), 0);
	}
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_LOCAL_INV);
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					   mr->iova, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[0]), IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, kt_qp_state(p->qp[1]), IB_QPS_ERR);
}

static void verbs_rc_atomics(struct kunit *test)
{
	struct kt_pair *p = kt_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	u64 *target = (u64 *)p->buf[1], *result = (u64 *)p->buf[0];
	struct ib_atomic_wr wr = {};
	struct ib_pd *pd;
	struct ib_sge sge;
	struct kt_tcqe *t = kt_new_tcqe(test);

	/* remote access through the unsafe global rkey of a second PD */
	pd = ib_alloc_pd(p->vt->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	ib_dealloc_pd(pd);

	*target = 40;
	sge = kt_sge_of(p->vt->pd, result, 8);
	wr.wr.wr_cqe = &t->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.remote_addr = (uintptr_t)target;
	wr.rkey = p->vt->pd->__internal_mr->rkey;
	wr.compare_add = 2;

	/* the PD's DMA MR has no remote rights: access error */
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
	KUNIT_EXPECT_EQ(test, *target, 40);
}

static void verbs_rc_atomics_ok(struct kunit *test)
{
	struct kt_pair *p = kt_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_atomic_wr wr = {};
	u64 *target, *result;
	struct ib_sge sge;
	struct ib_mr *mr;
	struct kt_tcqe *t = kt_new_tcqe(test);

	target = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	result = kunit_kzalloc(test, 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, target);
	KUNIT_ASSERT_NOT_NULL(test, result);
	KUNIT_ASSERT_TRUE(test, PAGE_ALIGNED(target));
	mr = kt_new_fr_mr(test, p->vt, (u8 *)target, 1,
			  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_ATOMIC, t,
			  p->qp[1], p->cq[1]);
	*target = 40;

	sge = kt_sge_of(p->vt->pd, result, 8);
	wr.wr.wr_cqe = &t->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.remote_addr = mr->iova;
	wr.rkey = mr->rkey;
	wr.compare_add = 2;
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, t->wc.byte_len, 8);
	KUNIT_EXPECT_EQ(test, *result, 40);
	KUNIT_EXPECT_EQ(test, *target, 42);

	/* compare and swap: a mismatch leaves the target alone */
	wr.wr.opcode = IB_WR_ATOMIC_CMP_AND_SWP;
	wr.compare_add = 41;
	wr.swap = 7;
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_COMP_SWAP);
	KUNIT_EXPECT_EQ(test, *result, 42);
	KUNIT_EXPECT_EQ(test, *target, 42);
	wr.compare_add = 42;
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_COMP_SWAP);
	KUNIT_EXPECT_EQ(test, *target, 7);

	/* misaligned target: remote access error */
	wr.remote_addr = mr->iova + 4;
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr.wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
}

/* SEND with invalidate ends the responder's registration. */
static void verbs_rc_send_inv(struct kunit *test)
{
	struct kt_pair *p = kt_new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct kt_tcqe *t = kt_new_tcqe(test), *r = kt_new_tcqe(test);
	struct ib_send_wr wr = {};
	struct ib_sge sge, rsge;
	struct ib_mr *mr;
	u8 *remote;

	remote = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, remote);
	mr = kt_new_fr_mr(test, p->vt, remote, 1,
			  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, t,
			  p->qp[1], p->cq[1]);

	sge = kt_sge_of(p->vt->pd, p->buf[0], 16);
	rsge = kt_sge_of(p->vt->pd, p->buf[1], 16);
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_recv(p->qp[1], r, &rsge, 1), 0);
	wr.wr_cqe = &t->cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IB_WR_SEND_WITH_INV;
	wr.send_flags = IB_SEND_SIGNALED;
	wr.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp[0], &wr, NULL), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[1], r));
	KT_EXPECT_WC(test, t, IB_WC_SUCCESS, IB_WC_SEND);
	KT_EXPECT_WC(test, r, IB_WC_SUCCESS, IB_WC_RECV);
	KUNIT_EXPECT_TRUE(test, r->wc.wc_flags & IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, r->wc.ex.invalidate_rkey, mr->rkey);

	/* the invalidated rkey no longer opens the MR */
	kt_tcqe_init(t);
	KUNIT_ASSERT_EQ(test, kt_post_rdma(p->qp[0], t, IB_WR_RDMA_WRITE, &sge,
					   mr->iova, mr->rkey), 0);
	KUNIT_ASSERT_TRUE(test, kt_tcqe_wait(p->cq[0], t));
	KT_EXPECT_WC(test, t, IB_WC_REM_ACCESS_ERR, 0);
	KUNIT_EXPECT_NULL(test, memchr_inv(remote, 0, PAGE_SIZE));
}

/* ib_map_mr_sg(): a gap between entries ends the mapping there. */
static void verbs_map_mr_sg_gap(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt(test);
	struct scatterlist sg[3];
	unsigned int offset = 100;
	struct ib_mr *mr;
	u8 *buf;

	buf = kunit_kzalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mr = ib_alloc_mr(vt->pd, IB_MR_TYPE_MEM_REG, 8);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, mr),
			0);

	/* page 0 (from byte 100), page 1, then a jump to page 3: gap */
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], buf, PAGE_SIZE);
	sg_set_buf(&sg[1], buf + PAGE_SIZE, PAGE_SIZE / 2);
	sg_set_buf(&sg[2], buf + 3 * PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(vt->dev, sg, 3, DMA_TO_DEVICE), 3);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 3, &offset, PAGE_SIZE), 2);
	KUNIT_EXPECT_EQ(test, mr->iova, (u64)(uintptr_t)buf + 100);
	KUNIT_EXPECT_EQ(test, mr->length, (u64)PAGE_SIZE - 100 + PAGE_SIZE / 2);
	KUNIT_EXPECT_EQ(test, offset, 0);

	/* more pages than the MR holds: partial, offset says where */
	sg_init_table(sg, 1);
	sg_set_buf(&sg[0], buf, 4 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(vt->dev, sg, 1, DMA_TO_DEVICE), 1);
	mr->page_size = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sg, 1, NULL, SZ_1K), 0);
	KUNIT_EXPECT_EQ(test, mr->length, 8 * SZ_1K);
}

/* What the stand-in advise_mr op below was called with. */
static struct {
	unsigned int calls;
	struct ib_pd *pd;
	enum ib_uverbs_advise_mr_advice advice;
	u32 flags;
	struct ib_sge *sg_list;
	u32 num_sge;
	bool attrs;
} advised;

static int advise_mr_record(struct ib_pd *pd,
			    enum ib_uverbs_advise_mr_advice advice, u32 flags,
			    struct ib_sge *sg_list, u32 num_sge,
			    struct uverbs_attr_bundle *attrs)
{
	advised.calls++;
	advised.pd = pd;
	advised.advice = advice;
	advised.flags = flags;
	advised.sg_list = sg_list;
	advised.num_sge = num_sge;
	advised.attrs = attrs;
	return -EFAULT;
}

/* the device's own advise_mr (rdmavt's, for its ODP MRs), put back */
static int (*advise_mr_saved)(struct ib_pd *pd,
			      enum ib_uverbs_advise_mr_advice advice,
			      u32 flags, struct ib_sge *sg_list, u32 num_sge,
			      struct uverbs_attr_bundle *attrs);

static void advise_mr_restore(void *dev)
{
	((struct ib_device *)dev)->ops.advise_mr = advise_mr_saved;
}

/*
 * ib_advise_mr(): -EOPNOTSUPP without the driver op (the case takes the
 * loop device's away, then gives it back); with one, an empty list is
 * done without calling it and any other reaches it unchanged, its
 * result returned.
 */
static void verbs_advise_mr(struct kunit *test)
{
	struct kt_vt *vt = kt_new_vt(test);
	struct ib_sge sge[2] = {
		{ .addr = 0x1000, .length = 64, .lkey = 7 },
		{ .addr = 0x2000, .length = 32, .lkey = 7 },
	};

	advise_mr_saved = vt->dev->ops.advise_mr;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, advise_mr_restore,
							vt->dev), 0);
	vt->dev->ops.advise_mr = NULL;
	KUNIT_EXPECT_EQ(test, ib_advise_mr(vt->pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, sge, 2), -EOPNOTSUPP);

	memset(&advised, 0, sizeof(advised));
	vt->dev->ops.advise_mr = advise_mr_record;
	KUNIT_EXPECT_EQ(test, ib_advise_mr(vt->pd,
					   IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
					   0, sge, 0), 0);
	KUNIT_EXPECT_EQ(test, advised.calls, 0);

	KUNIT_EXPECT_EQ(test,
			ib_advise_mr(vt->pd,
				     IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
				     IB_UVERBS_ADVISE_MR_FLAG_FLUSH, sge, 2),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, advised.calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, advised.pd, vt->pd);
	KUNIT_EXPECT_EQ(test, advised.advice,
			IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE);
	KUNIT_EXPECT_EQ(test, advised.flags, IB_UVERBS_ADVISE_MR_FLAG_FLUSH);
	KUNIT_EXPECT_PTR_EQ(test, advised.sg_list, &sge[0]);
	KUNIT_EXPECT_EQ(test, advised.num_sge, 2);
	KUNIT_EXPECT_FALSE(test, advised.attrs);
}

/*
 * ib_check_mr_access() and ib_access_writable() on a device whose
 * capabilities the case sets: every rule, with its errno.
 */
static void verbs_check_mr_access(struct kunit *test)
{
	struct ib_device *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	const unsigned int lw = IB_ACCESS_LOCAL_WRITE;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, 0), 0);
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, IB_ACCESS_REMOTE_READ),
			0);
	/* remote write and atomics need local write */
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, IB_ACCESS_REMOTE_WRITE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, IB_ACCESS_REMOTE_ATOMIC),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, lw |
						 IB_ACCESS_REMOTE_WRITE |
						 IB_ACCESS_REMOTE_ATOMIC), 0);
	/* a bit no device knows */
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, lw | (1U << 30)),
			-EINVAL);
	/* capabilities the device lacks, then has */
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, IB_ACCESS_ON_DEMAND),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, IB_ACCESS_FLUSH_GLOBAL),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test,
			ib_check_mr_access(dev, IB_ACCESS_FLUSH_PERSISTENT),
			-EOPNOTSUPP);
	dev->attrs.kernel_cap_flags = IBK_ON_DEMAND_PAGING;
	dev->attrs.device_cap_flags = IB_DEVICE_FLUSH_GLOBAL;
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, IB_ACCESS_ON_DEMAND), 0);
	KUNIT_EXPECT_EQ(test, ib_check_mr_access(dev, IB_ACCESS_FLUSH_GLOBAL),
			0);
	KUNIT_EXPECT_EQ(test,
			ib_check_mr_access(dev, IB_ACCESS_FLUSH_PERSISTENT),
			-EOPNOTSUPP);
	dev->attrs.device_cap_flags |= IB_DEVICE_FLUSH_PERSISTENT;
	KUNIT_EXPECT_EQ(test,
			ib_check_mr_access(dev, IB_ACCESS_FLUSH_PERSISTENT),
			0);

	KUNIT_EXPECT_FALSE(test, ib_access_writable(IB_ACCESS_REMOTE_READ));
	KUNIT_EXPECT_FALSE(test, ib_access_writable(IB_ACCESS_FLUSH_GLOBAL));
	KUNIT_EXPECT_TRUE(test, ib_access_writable(lw));
	KUNIT_EXPECT_TRUE(test, ib_access_writable(IB_ACCESS_REMOTE_WRITE));
	KUNIT_EXPECT_TRUE(test, ib_access_writable(IB_ACCESS_REMOTE_ATOMIC));
	KUNIT_EXPECT_TRUE(test, ib_access_writable(IB_ACCESS_MW_BIND));
}

static struct kunit_case rdma_mr_cases[] = {
	KUNIT_CASE(verbs_rc_write_read),
	KUNIT_CASE(verbs_rc_atomics),
	KUNIT_CASE(verbs_rc_atomics_ok),
	KUNIT_CASE(verbs_rc_send_inv),
	KUNIT_CASE(verbs_map_mr_sg_gap),
	KUNIT_CASE(verbs_advise_mr),
	KUNIT_CASE(verbs_check_mr_access),
	{}
};

static struct kunit_suite rdma_mr_suite = {
	.name = "rdma_mr",
	.test_cases = rdma_mr_cases,
};

kunit_test_suite(rdma_mr_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA memory regions on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
