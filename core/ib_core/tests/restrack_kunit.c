// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_restrack": verbs objects of a kernel user in the
 * resource tracker (core/ib_core/restrack.c) with their owner's name, and the
 * use counts of their parents (PD, CQ), on a loop device.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>
#include <rdma/restrack.h>

/* Objects are tracked with their owner and counted in their parents. */
static void verbs_restrack(struct kunit *test)
{
	struct pair *p = new_pair(test, IB_QPT_RC, IB_POLL_DIRECT, 0);
	struct ib_device *dev = p->vt->dev;
	struct ib_mr *mr;

	/* besides the pair's, the MAD layer's QP0, QP1 and their CQ */
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_QP,
						  false), 2 + 2);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_CQ,
						  false), 2 + 1);
	KUNIT_EXPECT_STREQ(test, p->qp[0]->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_STREQ(test, p->cq[0]->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_EQ(test, p->qp[0]->res.id, p->qp[0]->qp_num);
	/* PD: 2 QPs and the internal DMA MR is not counted by the core */
	KUNIT_EXPECT_EQ(test, atomic_read(&p->vt->pd->usecnt), 2);
	/* a QP counts once as send and once as receive CQ user */
	KUNIT_EXPECT_EQ(test, atomic_read(&p->cq[0]->usecnt), 2);

	mr = ib_alloc_mr(p->vt->pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, rdma_restrack_count(dev, RDMA_RESTRACK_MR,
						  false), 1);
	KUNIT_EXPECT_STREQ(test, mr->res.kern_name, KBUILD_MODNAME);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->vt->pd->usecnt), 3);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->vt->pd->usecnt), 2);
	/* a CQ with a QP on it cannot be destroyed */
	KUNIT_EXPECT_EQ(test, ib_destroy_cq_user(p->cq[1], NULL), -EBUSY);
}

static struct kunit_case rdma_restrack_cases[] = {
	KUNIT_CASE(verbs_restrack),
	{}
};

static struct kunit_suite rdma_restrack_suite = {
	.name = "rdma_restrack",
	.test_cases = rdma_restrack_cases,
};

kunit_test_suite(rdma_restrack_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA resource tracking on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
