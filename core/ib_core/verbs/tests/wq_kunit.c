// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_wq": receive work queues (ib_create_wq() in
 * core/ib_core/verbs/srq.c) on a loop device, whose driver has none.
 */

#include <kunit/test.h>
#include <kunit/rdma_verbs.h>

/*
 * Receive work queues are optional for drivers and rdmavt has none (as
 * upstream's software drivers): ib_create_wq() says -EOPNOTSUPP and
 * leaves the PD and CQ untouched.
 */
static void verbs_wq_unsupported(struct kunit *test)
{
	struct vt *vt = new_vt(test);
	struct ib_cq *cq = new_cq(test, vt, IB_POLL_DIRECT);
	struct ib_wq_init_attr attr = {
		.wq_type = IB_WQT_RQ,
		.max_wr = 16,
		.max_sge = 1,
		.cq = cq,
	};
	int pd_users = atomic_read(&vt->pd->usecnt);
	int cq_users = atomic_read(&cq->usecnt);

	KUNIT_EXPECT_EQ(test, PTR_ERR(ib_create_wq(vt->pd, &attr)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, atomic_read(&vt->pd->usecnt), pd_users);
	KUNIT_EXPECT_EQ(test, atomic_read(&cq->usecnt), cq_users);
}

static struct kunit_case rdma_wq_cases[] = {
	KUNIT_CASE(verbs_wq_unsupported),
	{}
};

static struct kunit_suite rdma_wq_suite = {
	.name = "rdma_wq",
	.test_cases = rdma_wq_cases,
};

kunit_test_suite(rdma_wq_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA receive work queues on loop devices");
MODULE_LICENSE("Dual BSD/GPL");
