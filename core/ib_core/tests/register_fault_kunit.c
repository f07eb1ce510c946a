// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_register_fault": ib_register_device() under injected
 * failures must fail cleanly - the failure's own error code (-ENOMEM for
 * a failed allocation, the driver's error for a failed op), no device
 * left visible, the name free again, the device still deallocatable,
 * nothing leaked (the test VM's kmemleak scan at the end checks that
 * globally, KASAN checks every access on the error paths).
 *
 * Two sources of failures:
 *
 *  - failslab (mm/failslab.c, Documentation/fault-injection/): for
 *    N = 1, 2, ... the Nth slab allocation of this task fails, through
 *    the task's fail-nth counter (current->fail_nth, what
 *    /proc/self/fail-nth sets), with ignore-gfp-wait=N so that
 *    GFP_KERNEL allocations count too; until a registration passes with
 *    the counter not used up: every allocation of the path has failed
 *    once.  fail-nth rather than a byte budget (`space`, `times`=1,
 *    growing by 8 bytes per round): the registration allocates tens of
 *    KB, so 8-byte steps take thousands of registrations, far beyond
 *    KUnit's 300 s per test on the debug kernel under TCG (~30 ms each);
 *    fail-nth needs one per allocation and misses none.
 *
 *  - the fake driver: the Nth driver op call of the registration fails,
 *    for every N of a complete registration.
 *
 * failslab is configured through its debugfs files (see
 * fake_hca_kunit_failslab() in fake_hca_helpers.c);
 * without them (kernel without CONFIG_FAILSLAB or
 * CONFIG_FAULT_INJECTION_DEBUG_FS, debugfs not mounted) the suite fails
 * rather than skips, so a test bed that lost them is noticed.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define DEV_NAME	"kufault"

/*
 * The quick tier (make check) fails each of the first QUICK_ALL
 * allocations and op calls, then every QUICK_STRIDE-th from an offset
 * that changes with every run (printed), so that runs together cover
 * every one; the full tier (make check-full, full=1) fails each of them.
 * The first ones are never left out: later allocations of the path come
 * in repeating groups (one per GID, say), and a sample in step with a
 * group could miss every allocation whose failure fails the registration.
 */
static bool full;
module_param(full, bool, 0444);
MODULE_PARM_DESC(full, "fail every allocation and op call, not a sample");
#define QUICK_ALL	16
#define QUICK_STRIDE	4

struct fault_walk {
	unsigned int offset;	/* 0 in the full tier */
};

static void fault_walk_init(struct kunit *test, struct fault_walk *w)
{
	w->offset = 0;
	if (full)
		return;
	w->offset = 1 + get_random_u32_below(QUICK_STRIDE);
	kunit_info(test, "quick tier: each of the first %u, then every %u-th from %u (full=1: each)\n",
		   QUICK_ALL, QUICK_STRIDE, QUICK_ALL + w->offset);
}

/* The N to fail after @n. */
static unsigned int fault_walk_next(const struct fault_walk *w, unsigned int n)
{
	if (!w->offset || n < QUICK_ALL)
		return n + 1;
	if (n == QUICK_ALL)
		return n + w->offset;
	return n + QUICK_STRIDE;
}

/* ------------------------------------------------------------------ */

static struct fake_hca_desc *small_desc(struct kunit *test, bool roce)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, roce ? 2 : 1);

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = DEV_NAME;
	desc->port[0].gid_tbl_len = 2;
	desc->port[0].pkey_tbl_len = 2;
	if (roce) {
		fake_hca_desc_set_eth(desc, 2);
		desc->port[1].gid_tbl_len = 2;
		/* One net device for all rounds: creating one is slow. */
		desc->port[1].netdev = fake_hca_kunit_netdev(test, NULL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, desc->port[1].netdev);
	}
	return desc;
}

static bool name_registered(const char *name)
{
	struct ib_device *dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);

	if (!dev)
		return false;
	ib_device_put(dev);
	return true;
}

/* After a failed registration: nothing of the device may be visible. */
static void expect_clean_failure(struct kunit *test, struct fake_hca *hca,
				 const char *what)
{
	KUNIT_EXPECT_FALSE_MSG(test, ib_device_registered(&hca->ibdev),
			       "%s: registered after failing", what);
	KUNIT_EXPECT_FALSE_MSG(test, name_registered(DEV_NAME),
			       "%s: name still taken", what);
	KUNIT_EXPECT_FALSE_MSG(test, fake_hca_sysfs_present(DEV_NAME),
			       "%s: still in sysfs", what);
	KUNIT_EXPECT_FALSE_MSG(test, fake_hca_try_get_put(&hca->ibdev),
			       "%s: references can be taken", what);
}

static void rdma_register_fault_failslab_present(struct kunit *test)
{
	struct fake_hca_failslab *fs = fake_hca_kunit_failslab(test);

	/* The knobs are where they should be: the defaults are sane. */
	KUNIT_EXPECT_GE(test, fs->old_interval, 1);
	KUNIT_EXPECT_LE(test, fs->old_probability, 100);
}

static void rdma_register_fault_failslab(struct kunit *test)
{
	const bool roce = *(const bool *)test->param_value;
	struct fake_hca_desc *desc = small_desc(test, roce);
	unsigned int nth, last = 0, failed = 0, survived = 0;
	struct fault_walk walk;
	int other_errors = 0;
	bool passed = false;

	fake_hca_kunit_failslab(test);
	fault_walk_init(test, &walk);

	for (nth = 1; nth < 100000 && !passed;
	     last = nth, nth = fault_walk_next(&walk, nth)) {
		struct fake_hca *hca;
		unsigned int left;
		char what[32];
		int ret;

		hca = fake_hca_kunit_create(test, desc);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);

		current->fail_nth = nth;
		ret = fake_hca_register(hca);
		left = current->fail_nth;
		current->fail_nth = 0;

		snprintf(what, sizeof(what), "allocation %u", nth);
		if (ret) {
			/* The allocation failed, and the error made it out. */
			KUNIT_EXPECT_EQ_MSG(test, left, 0,
					    "%s: failed (%d) without injection",
					    what, ret);
			KUNIT_EXPECT_LT(test, ret, 0);
			/*
			 * A failed allocation is -ENOMEM all the way out;
			 * another error hides it (the first few are named).
			 */
			if (ret != -ENOMEM && other_errors++ < 5)
				KUNIT_FAIL(test, "%s: error %d, not -ENOMEM",
					   what, ret);
			expect_clean_failure(test, hca, what);
			failed++;
		} else {
			KUNIT_EXPECT_TRUE_MSG(test, name_registered(DEV_NAME),
					      "%s: registered but not found",
					      what);
			if (left)
				passed = true;	/* fewer than nth allocations */
			else
				survived++;	/* a failure was tolerated */
		}
		fake_hca_kunit_destroy(test, hca);
		KUNIT_ASSERT_FALSE_MSG(test, name_registered(DEV_NAME),
				       "%s: name not freed", what);
	}

	kunit_info(test, "fewer than %u allocations, %u failed registrations, %u survived a failed allocation\n",
		   last, failed, survived);
	KUNIT_EXPECT_TRUE_MSG(test, passed, "still failing after %u allocations",
			      last);
	KUNIT_EXPECT_EQ_MSG(test, other_errors, 0,
			    "registrations that failed with an error other than -ENOMEM");
	/* Registration allocates: failing those must have failed it. */
	KUNIT_EXPECT_GT(test, failed, 0);
}

static const bool roce_params[] = { false, true };

static void roce_param_desc(const bool *roce, char *desc)
{
	strscpy(desc, *roce ? "IB and RoCE port" : "IB port",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(roce, roce_params, roce_param_desc);

static void rdma_register_fault_driver_ops(struct kunit *test)
{
	const bool roce = *(const bool *)test->param_value;
	struct fake_hca_desc *desc = small_desc(test, roce);
	unsigned int total, n, failed = 0;
	struct fault_walk walk;
	struct fake_hca *hca;

	/* How many op calls does one registration make? */
	hca = fake_hca_kunit_create(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	KUNIT_ASSERT_EQ(test, fake_hca_register(hca), 0);
	total = fake_hca_op_calls(hca, FAKE_HCA_OP_ANY);
	fake_hca_kunit_destroy(test, hca);
	KUNIT_ASSERT_GT(test, total, 0);

	fault_walk_init(test, &walk);
	for (n = 1; n <= total; n = fault_walk_next(&walk, n)) {
		char what[32];
		int ret;

		hca = fake_hca_kunit_create(test, desc);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
		fake_hca_fail_nth(hca, FAKE_HCA_OP_ANY, n, -EIO);
		ret = fake_hca_register(hca);
		snprintf(what, sizeof(what), "op call %u of %u", n, total);

		KUNIT_EXPECT_EQ_MSG(test, fake_hca_faults_fired(hca), 1,
				    "%s: fault did not fire", what);
		if (ret) {
			/* The driver's error, not another one. */
			KUNIT_EXPECT_EQ_MSG(test, ret, -EIO, "%s", what);
			expect_clean_failure(test, hca, what);
			failed++;
		} else {
			KUNIT_EXPECT_TRUE_MSG(test, name_registered(DEV_NAME),
					      "%s: registered but not found",
					      what);
		}
		fake_hca_kunit_destroy(test, hca);
		KUNIT_ASSERT_FALSE_MSG(test, name_registered(DEV_NAME),
				       "%s: name not freed", what);
	}
	kunit_info(test, "%u op calls, %u failed registrations\n", total,
		   failed);
	KUNIT_EXPECT_GT(test, failed, 0);
}

static void rdma_register_fault_suite_exit(struct kunit_suite *suite)
{
	fake_hca_failslab_disarm();
}

static struct kunit_case rdma_register_fault_cases[] = {
	KUNIT_CASE(rdma_register_fault_failslab_present),
	KUNIT_CASE_PARAM_ATTR(rdma_register_fault_failslab, roce_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(rdma_register_fault_driver_ops, roce_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite rdma_register_fault_suite = {
	.name = "rdma_register_fault",
	.suite_exit = rdma_register_fault_suite_exit,
	.test_cases = rdma_register_fault_cases,
};

kunit_test_suite(rdma_register_fault_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA device registration under failures");
MODULE_LICENSE("Dual BSD/GPL");
