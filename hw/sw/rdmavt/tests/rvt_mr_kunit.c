// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_rvt_mr": the SGE side of the rdmavt API on loop
 * devices: rvt_lkey_ok() and rvt_rkey_ok() (checks, merging, segment
 * positions, MR references), rvt_copy_sge(), rvt_skip_sge(),
 * rvt_update_sge(), rvt_restart_sge(), rvt_put_ss(), rvt_fast_reg_mr()
 * and rvt_invalidate_rkey().
 *
 * The fast registration MR of a case maps three pages that are not
 * adjacent in memory, so one range of its iova crosses from one segment
 * to the next at a place the test knows.
 */

#include <kunit/test.h>
#include <kunit/rdma_loop.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>

#define NPAGES	3

/* A case's device, a fast registration MR over NPAGES pages, a QP. */
struct mrt {
	struct kt_vt		*vt;
	struct ib_mr		*mr;
	struct rvt_mregion	*rmr;
	struct rvt_mregion	*dma;
	struct rvt_qp		*qp;
	struct rvt_pd		*pd;
	void			*page[NPAGES];
	u8			*buf;
};

static void free_page_action(void *p)
{
	free_page((unsigned long)p);
}

static struct rvt_mregion *mregion(struct ib_mr *mr)
{
	return &container_of(mr, struct rvt_mr, ibmr)->mr;
}

static struct rvt_qp *new_rc_qp(struct kunit *test, struct kt_vt *vt,
				struct ib_pd *pd)
{
	struct ib_cq *cq = kt_new_direct_cq(test, vt);
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 4,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	struct ib_qp *qp;

	attr.send_cq = cq;
	attr.recv_cq = cq;
	qp = ib_create_qp(pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_destroy_qp, qp),
			0);
	return container_of(qp, struct rvt_qp, ibqp);
}

static struct mrt *new_mrt(struct kunit *test)
{
	struct mrt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct scatterlist sg[NPAGES];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->vt = kt_new_vt_named(test, "kurmr%d");
	t->pd = container_of(t->vt->pd, struct rvt_pd, ibpd);
	t->dma = mregion(t->vt->pd->__internal_mr);
	t->qp = new_rc_qp(test, t->vt, t->vt->pd);
	t->buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->buf);

	/* pages 0 and 2 before page 1 in memory: never one block */
	sg_init_table(sg, NPAGES);
	for (i = 0; i < NPAGES; i++) {
		t->page[i] = (void *)get_zeroed_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, t->page[i]);
		KUNIT_ASSERT_EQ(test,
				kunit_add_action_or_reset(test, free_page_action,
							  t->page[i]), 0);
	}
	for (i = 0; i < NPAGES; i++)
		sg_set_buf(&sg[i], t->page[i], PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(t->vt->dev, sg, NPAGES,
					    DMA_BIDIRECTIONAL), NPAGES);

	t->mr = ib_alloc_mr(t->vt->pd, IB_MR_TYPE_MEM_REG, NPAGES);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->mr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dereg_mr, t->mr),
			0);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(t->mr, sg, NPAGES, NULL, PAGE_SIZE),
			NPAGES);
	t->rmr = mregion(t->mr);
	return t;
}

static u64 iova_at(struct mrt *t, u32 page, u32 off)
{
	return t->mr->iova + (u64)page * PAGE_SIZE + off;
}

/* Register the fast registration MR with @acc under its current key. */
static void fast_reg(struct kunit *test, struct mrt *t, int acc)
{
	KUNIT_ASSERT_EQ(test, rvt_fast_reg_mr(t->qp, t->mr, t->mr->lkey, acc),
			0);
}

/*
 * rvt_lkey_ok() on the PD's DMA MR: a new SGE references the MR and
 * points at the address; an SGE continuing the last one merges into it
 * (0); bad keys, another PD and an unregistered MR fail.
 */
static void rvt_lkey_ok_dma(struct kunit *test)
{
	struct mrt *t = new_mrt(test);
	struct rvt_lkey_table *rkt = &t->qp->rdi->lkey_table;
	struct ib_sge a = {
		.addr = (uintptr_t)t->buf,
		.length = 100,
		.lkey = t->vt->pd->local_dma_lkey,
	};
	struct ib_sge b = a, c = a;
	struct rvt_sge isge[2] = {}, spare = {};
	struct ib_pd *pd2;
	unsigned int refs = refcount_read(&t->dma->refcount);

	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge[0], NULL, &a, 0),
			1);
	KUNIT_EXPECT_PTR_EQ(test, isge[0].mr, t->dma);
	KUNIT_EXPECT_PTR_EQ(test, isge[0].vaddr, (void *)t->buf);
	KUNIT_EXPECT_EQ(test, isge[0].sge_length, 100);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->dma->refcount), refs + 1);

	/* continues where the last one ends: merged, no new reference */
	b.addr += 100;
	b.length = 50;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge[1], &isge[0], &b,
					  IB_ACCESS_LOCAL_WRITE), 0);
	KUNIT_EXPECT_EQ(test, isge[0].sge_length, 150);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->dma->refcount), refs + 1);

	/* a gap: a new SGE */
	c.addr += 200;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge[1], &isge[0], &c,
					  0), 1);
	KUNIT_EXPECT_PTR_EQ(test, isge[1].vaddr, (void *)(t->buf + 200));
	KUNIT_EXPECT_EQ(test, refcount_read(&t->dma->refcount), refs + 2);
	rvt_put_mr(isge[0].mr);
	rvt_put_mr(isge[1].mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->dma->refcount), refs);

	/* a key of no MR, key 0, another key byte of the same index */
	c.lkey = a.lkey + 0x100;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &spare, NULL, &c, 0),
			-EINVAL);
	c.lkey = 0;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &spare, NULL, &c, 0),
			-EINVAL);
	c.lkey = a.lkey ^ 1;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &spare, NULL, &c, 0),
			-EINVAL);

	/* the DMA MR of this PD is no key of another PD */
	pd2 = ib_alloc_pd(t->vt->dev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd2);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dealloc_pd, pd2),
			0);
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, container_of(pd2, struct rvt_pd,
							    ibpd),
					  &spare, NULL, &a, 0), -EINVAL);

	/* the fast registration MR is not registered yet */
	c.lkey = t->mr->lkey;
	c.addr = iova_at(t, 0, 0);
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &spare, NULL, &c, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->dma->refcount), refs);
}

/*
 * rvt_lkey_ok() on a fast registration MR: the SGE starts in the right
 * segment at the right offset, its first piece ends with the segment,
 * access and bounds are checked, and a registration of another access
 * or an invalidated one fails.
 */
static void rvt_lkey_ok_fast_reg(struct kunit *test)
{
	struct mrt *t = new_mrt(test);
	struct rvt_lkey_table *rkt = &t->qp->rdi->lkey_table;
	struct ib_sge s = {
		.addr = iova_at(t, 1, PAGE_SIZE - 10),
		.length = 30,
		.lkey = t->mr->lkey,
	};
	struct rvt_sge isge = {}, next = {};

	fast_reg(test, t, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge, NULL, &s,
					  IB_ACCESS_LOCAL_WRITE), 1);
	KUNIT_EXPECT_PTR_EQ(test, isge.mr, t->rmr);
	KUNIT_EXPECT_PTR_EQ(test, isge.vaddr, t->page[1] + PAGE_SIZE - 10);
	KUNIT_EXPECT_EQ(test, isge.length, 10);
	KUNIT_EXPECT_EQ(test, isge.sge_length, 30);
	KUNIT_EXPECT_EQ(test, isge.m, 0);
	KUNIT_EXPECT_EQ(test, isge.n, 1);
	/* the next bytes of the MR make a new SGE: never merged */
	s.addr += 30;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &next, &isge, &s, 0), 1);
	KUNIT_EXPECT_EQ(test, isge.sge_length, 30);
	KUNIT_EXPECT_PTR_EQ(test, next.vaddr, t->page[2] + 20);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->rmr->refcount), 3);
	rvt_put_mr(isge.mr);
	rvt_put_mr(next.mr);

	/* the last byte, and one past it */
	s.addr = iova_at(t, NPAGES - 1, PAGE_SIZE - 1);
	s.length = 1;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge, NULL, &s, 0), 1);
	KUNIT_EXPECT_PTR_EQ(test, isge.vaddr,
			    t->page[NPAGES - 1] + PAGE_SIZE - 1);
	rvt_put_mr(isge.mr);
	s.length = 2;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge, NULL, &s, 0),
			-EINVAL);
	s.addr = iova_at(t, 0, 0) - 1;
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge, NULL, &s, 0),
			-EINVAL);

	/* registered without local write: only reads pass */
	fast_reg(test, t, 0);
	s.addr = iova_at(t, 0, 0);
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge, NULL, &s,
					  IB_ACCESS_LOCAL_WRITE), -EINVAL);
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge, NULL, &s, 0), 1);
	rvt_put_mr(isge.mr);

	/* invalidated: nothing passes until it is registered again */
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp, t->mr->lkey), 0);
	KUNIT_EXPECT_EQ(test, rvt_lkey_ok(rkt, t->pd, &isge, NULL, &s, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->rmr->refcount), 1);
}

/*
 * rvt_rkey_ok(): 1 and a referencing SGE for an allowed access, 0 for
 * the wrong access, a range outside, a stale key byte after the MR got
 * a new key, and after invalidation (which works once).
 */
static void rvt_rkey_ok_rules(struct kunit *test)
{
	struct mrt *t = new_mrt(test);
	u32 old = t->mr->rkey;
	struct rvt_sge s = {};

	fast_reg(test, t, IB_ACCESS_REMOTE_WRITE | IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_EQ(test, rvt_rkey_ok(t->qp, &s, 100, iova_at(t, 0, 5),
					  old, IB_ACCESS_REMOTE_WRITE), 1);
	KUNIT_EXPECT_PTR_EQ(test, s.mr, t->rmr);
	KUNIT_EXPECT_PTR_EQ(test, s.vaddr, t->page[0] + 5);
	KUNIT_EXPECT_EQ(test, s.sge_length, 100);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->rmr->refcount), 2);
	rvt_put_mr(s.mr);

	KUNIT_EXPECT_EQ(test, rvt_rkey_ok(t->qp, &s, 100, iova_at(t, 0, 5),
					  old, IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, rvt_rkey_ok(t->qp, &s, 100,
					  iova_at(t, NPAGES - 1, PAGE_SIZE - 50),
					  old, IB_ACCESS_REMOTE_WRITE), 0);

	/* a new key byte: the old key is gone */
	ib_update_fast_reg_key(t->mr, ib_inc_rkey(old));
	KUNIT_EXPECT_EQ(test, rvt_fast_reg_mr(t->qp, t->mr, t->mr->rkey,
					      IB_ACCESS_REMOTE_WRITE), 0);
	KUNIT_EXPECT_EQ(test, rvt_rkey_ok(t->qp, &s, 8, iova_at(t, 0, 0), old,
					  IB_ACCESS_REMOTE_WRITE), 0);
	KUNIT_ASSERT_EQ(test, rvt_rkey_ok(t->qp, &s, 8, iova_at(t, 0, 0),
					  t->mr->rkey, IB_ACCESS_REMOTE_WRITE),
			1);
	rvt_put_mr(s.mr);

	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp, old), -EINVAL);
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp, t->mr->rkey), 0);
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp, t->mr->rkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rvt_rkey_ok(t->qp, &s, 8, iova_at(t, 0, 0),
					  t->mr->rkey, IB_ACCESS_REMOTE_WRITE),
			0);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->rmr->refcount), 1);
}

/*
 * rvt_fast_reg_mr(): -EACCES from a QP of another PD, -EINVAL for the
 * key of another index and for a DMA MR; rvt_invalidate_rkey() refuses
 * a DMA MR and key 0.
 */
static void rvt_fast_reg_rules(struct kunit *test)
{
	struct mrt *t = new_mrt(test);
	struct ib_pd *pd2 = ib_alloc_pd(t->vt->dev, 0);
	struct rvt_qp *qp2;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd2);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_dealloc_pd, pd2),
			0);
	qp2 = new_rc_qp(test, t->vt, pd2);
	KUNIT_EXPECT_EQ(test, rvt_fast_reg_mr(qp2, t->mr, t->mr->lkey, 0),
			-EACCES);
	KUNIT_EXPECT_EQ(test, rvt_fast_reg_mr(t->qp, t->mr,
					      t->mr->lkey + 0x100, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, rvt_fast_reg_mr(t->qp, t->vt->pd->__internal_mr,
					      t->vt->pd->local_dma_lkey, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp,
						  t->vt->pd->local_dma_lkey),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp, 0), -EINVAL);
	/* not registered: nothing to invalidate */
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp, t->mr->lkey),
			-EINVAL);
	fast_reg(test, t, 0);
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(qp2, t->mr->lkey), -EINVAL);
	KUNIT_EXPECT_EQ(test, rvt_invalidate_rkey(t->qp, t->mr->lkey), 0);
}

/* A walk over two SGEs: 30 bytes across pages 0/1 of the MR, 40 in buf. */
static void two_sge_walk(struct kunit *test, struct mrt *t,
			 struct rvt_sge_state *ss, struct rvt_sge *rest)
{
	struct rvt_lkey_table *rkt = &t->qp->rdi->lkey_table;
	struct ib_sge a = {
		.addr = iova_at(t, 0, PAGE_SIZE - 20),
		.length = 30,
		.lkey = t->mr->lkey,
	};
	struct ib_sge b = {
		.addr = (uintptr_t)t->buf,
		.length = 40,
		.lkey = t->vt->pd->local_dma_lkey,
	};

	KUNIT_ASSERT_EQ(test, rvt_lkey_ok(rkt, t->pd, &ss->sge, NULL, &a,
					  IB_ACCESS_LOCAL_WRITE), 1);
	KUNIT_ASSERT_EQ(test, rvt_lkey_ok(rkt, t->pd, rest, &ss->sge, &b,
					  IB_ACCESS_LOCAL_WRITE), 1);
	ss->sg_list = rest;
	ss->num_sge = 2;
	ss->total_len = 70;
}

/*
 * rvt_copy_sge() fills a walk in order across the segment boundary and
 * the next SGE; with release it drops each finished SGE's reference and
 * rvt_put_ss() drops the rest.  copy_last changes nothing in the result.
 */
static void rvt_copy_sge_walk(struct kunit *test)
{
	struct mrt *t = new_mrt(test);
	struct rvt_sge_state ss = {};
	struct rvt_sge rest;
	unsigned int dma_refs = refcount_read(&t->dma->refcount);
	u8 data[70];
	int pass;

	fast_reg(test, t, IB_ACCESS_LOCAL_WRITE);
	for (pass = 0; pass < 2; pass++) {
		get_random_bytes(data, sizeof(data));
		memset(t->buf, 0, 64);
		two_sge_walk(test, t, &ss, &rest);

		/* 25: the first SGE's 20 + 5 of its next segment */
		rvt_copy_sge(t->qp, &ss, data, 25, true, pass);
		KUNIT_EXPECT_EQ(test, ss.num_sge, 2);
		KUNIT_EXPECT_PTR_EQ(test, ss.sge.vaddr, t->page[1] + 5);
		KUNIT_EXPECT_EQ(test, ss.sge.sge_length, 5);
		KUNIT_EXPECT_EQ(test, ss.sge.m, 0);
		KUNIT_EXPECT_EQ(test, ss.sge.n, 1);
		/* finish the first SGE and 10 bytes of the second */
		rvt_copy_sge(t->qp, &ss, data + 25, 15, true, pass);
		KUNIT_EXPECT_EQ(test, ss.num_sge, 1);
		KUNIT_EXPECT_EQ(test, refcount_read(&t->rmr->refcount), 1);
		KUNIT_EXPECT_EQ(test, refcount_read(&t->dma->refcount),
				dma_refs + 1);

		KUNIT_EXPECT_EQ(test, memcmp(t->page[0] + PAGE_SIZE - 20, data,
					     20), 0);
		KUNIT_EXPECT_EQ(test, memcmp(t->page[1], data + 20, 10), 0);
		KUNIT_EXPECT_EQ(test, memcmp(t->buf, data + 30, 10), 0);
		KUNIT_EXPECT_EQ(test, t->buf[10], 0);

		rvt_put_ss(&ss);
		KUNIT_EXPECT_EQ(test, ss.num_sge, 0);
		KUNIT_EXPECT_EQ(test, refcount_read(&t->dma->refcount),
				dma_refs);
	}
}

/*
 * rvt_skip_sge() moves like a copy without writing; rvt_restart_sge()
 * rewinds a request's walk to any byte and returns what is left.
 */
static void rvt_skip_restart(struct kunit *test)
{
	struct mrt *t = new_mrt(test);
	struct rvt_swqe *wqe;
	struct rvt_sge_state ss = {};
	struct rvt_sge rest;

	fast_reg(test, t, IB_ACCESS_LOCAL_WRITE);
	memset(t->buf, 0x5a, 64);
	two_sge_walk(test, t, &ss, &rest);
	rvt_skip_sge(&ss, 35, false);
	KUNIT_EXPECT_EQ(test, ss.num_sge, 1);
	KUNIT_EXPECT_PTR_EQ(test, ss.sge.vaddr, (void *)(t->buf + 5));
	KUNIT_EXPECT_EQ(test, ss.sge.sge_length, 35);
	KUNIT_EXPECT_EQ(test, t->buf[0], 0x5a);

	/* a request made of the same two SGEs */
	wqe = kunit_kzalloc(test, struct_size(wqe, sg_list, 2), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wqe);
	two_sge_walk(test, t, &ss, &rest);
	wqe->sg_list[0] = ss.sge;
	wqe->sg_list[1] = rest;
	wqe->wr.num_sge = 2;
	wqe->length = 70;

	memset(&ss, 0, sizeof(ss));
	KUNIT_EXPECT_EQ(test, rvt_restart_sge(&ss, wqe, 0), 70);
	KUNIT_EXPECT_EQ(test, ss.num_sge, 2);
	KUNIT_EXPECT_PTR_EQ(test, ss.sge.vaddr, t->page[0] + PAGE_SIZE - 20);
	KUNIT_EXPECT_EQ(test, ss.total_len, 70);

	KUNIT_EXPECT_EQ(test, rvt_restart_sge(&ss, wqe, 22), 48);
	KUNIT_EXPECT_PTR_EQ(test, ss.sge.vaddr, t->page[1] + 2);
	KUNIT_EXPECT_EQ(test, ss.sge.sge_length, 8);

	KUNIT_EXPECT_EQ(test, rvt_restart_sge(&ss, wqe, 45), 25);
	KUNIT_EXPECT_EQ(test, ss.num_sge, 1);
	KUNIT_EXPECT_PTR_EQ(test, ss.sge.vaddr, (void *)(t->buf + 15));

	/* the walk to the end: nothing left; no references were dropped */
	rvt_skip_sge(&ss, 25, false);
	KUNIT_EXPECT_EQ(test, ss.num_sge, 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->rmr->refcount), 3);
	rvt_put_mr(wqe->sg_list[0].mr);
	rvt_put_mr(wqe->sg_list[1].mr);
	rvt_put_mr(t->rmr);
	rvt_put_mr(t->dma);
	KUNIT_EXPECT_EQ(test, refcount_read(&t->rmr->refcount), 1);
}

static struct kunit_case rdma_rvt_mr_cases[] = {
	KUNIT_CASE(rvt_lkey_ok_dma),
	KUNIT_CASE(rvt_lkey_ok_fast_reg),
	KUNIT_CASE(rvt_rkey_ok_rules),
	KUNIT_CASE(rvt_fast_reg_rules),
	KUNIT_CASE(rvt_copy_sge_walk),
	KUNIT_CASE(rvt_skip_restart),
	{}
};

static struct kunit_suite rdma_rvt_mr_suite = {
	.name = "rdma_rvt_mr",
	.test_cases = rdma_rvt_mr_cases,
};

kunit_test_suite(rdma_rvt_mr_suite);

MODULE_DESCRIPTION("KUnit tests of the rdmavt MR and SGE API");
MODULE_LICENSE("Dual BSD/GPL");
