// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_cma_fault": rdma_cm under failing allocations.  Each
 * round makes the nth allocation of create + bind + listen fail (the
 * task's fail-nth counter of failslab), until a round sees no failure:
 * every failure must come out as -ENOMEM and leave nothing behind
 * (kmemleak and the restrack count check that), a round that survives
 * must have a working listener.  A fake RoCE device makes the wildcard
 * listen allocate a per-device listener.
 *
 * failslab is driven through its debugfs variables as in
 * register_fault_kunit.c; built only on kernels with CONFIG_FAILSLAB.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <rdma/rdma_cm.h>
#include <rdma/restrack.h>

#define FAILSLAB_DIR	"/sys/kernel/debug/failslab/"

struct failslab {
	atomic_t	*times;
	unsigned long	*probability;
	unsigned long	*verbose;
	bool		*task_filter;
	bool		*ignore_gfp_wait;
	int		old_times;
	unsigned long	old_probability, old_verbose;
	bool		old_task_filter, old_ignore_gfp_wait;
};

static void *failslab_knob(struct kunit *test, const char *name)
{
	struct path path;
	char file[64];
	void *var;

	snprintf(file, sizeof(file), FAILSLAB_DIR "%s", name);
	KUNIT_ASSERT_EQ_MSG(test, kern_path(file, LOOKUP_FOLLOW, &path), 0,
			    "%s (needs CONFIG_FAULT_INJECTION_DEBUG_FS, debugfs)",
			    file);
	var = d_inode(path.dentry)->i_private;
	path_put(&path);
	KUNIT_ASSERT_NOT_NULL(test, var);
	return var;
}

static void failslab_restore(void *data)
{
	struct failslab *fs = data;

	atomic_set(fs->times, 0);
	current->fail_nth = 0;
	WRITE_ONCE(*fs->ignore_gfp_wait, fs->old_ignore_gfp_wait);
	WRITE_ONCE(*fs->task_filter, fs->old_task_filter);
	WRITE_ONCE(*fs->verbose, fs->old_verbose);
	WRITE_ONCE(*fs->probability, fs->old_probability);
	atomic_set(fs->times, fs->old_times);
}

static void failslab_setup(struct kunit *test)
{
	struct failslab *fs = kunit_kzalloc(test, sizeof(*fs), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fs);
	fs->times = failslab_knob(test, "times");
	fs->probability = failslab_knob(test, "probability");
	fs->verbose = failslab_knob(test, "verbose");
	fs->task_filter = failslab_knob(test, "task-filter");
	fs->ignore_gfp_wait = failslab_knob(test, "ignore-gfp-wait");
	fs->old_times = atomic_read(fs->times);
	fs->old_probability = READ_ONCE(*fs->probability);
	fs->old_verbose = READ_ONCE(*fs->verbose);
	fs->old_task_filter = READ_ONCE(*fs->task_filter);
	fs->old_ignore_gfp_wait = READ_ONCE(*fs->ignore_gfp_wait);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, failslab_restore,
							fs), 0);
	WRITE_ONCE(*fs->probability, 0);
	WRITE_ONCE(*fs->task_filter, true);
	WRITE_ONCE(*fs->ignore_gfp_wait, false);
	WRITE_ONCE(*fs->verbose, 0);
}

static int no_events(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	return 0;
}

/* create, bind to 0.0.0.0:0, listen */
static int create_bind_listen(struct rdma_cm_id **out)
{
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct rdma_cm_id *id;
	int ret;

	*out = NULL;
	id = rdma_create_id(&init_net, no_events, NULL, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	*out = id;
	ret = rdma_bind_addr(id, (struct sockaddr *)&any);
	if (ret)
		return ret;
	return rdma_listen(id, 4);
}

static void rdma_cma_fault_create_bind_listen(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	unsigned int nth, failed = 0;
	struct fake_hca *hca;
	bool passed = false;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kucmaf%d";
	fake_hca_desc_set_eth(desc, 1);
	desc->port[0].netdev = fake_hca_kunit_netdev(test, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, desc->port[0].netdev);
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	failslab_setup(test);

	for (nth = 1; nth < 1000 && !passed; nth++) {
		struct rdma_cm_id *id;
		unsigned int left;
		int ret;

		current->fail_nth = nth;
		ret = create_bind_listen(&id);
		left = current->fail_nth;
		current->fail_nth = 0;

		if (ret) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
					    "allocation %u", nth);
			KUNIT_EXPECT_EQ_MSG(test, left, 0,
					    "allocation %u: failed without injection",
					    nth);
			failed++;
		} else {
			/* a working listener: listening again is refused */
			KUNIT_EXPECT_EQ(test, rdma_listen(id, 4), -EINVAL);
			passed = left != 0;
			/* (a tolerated failure may have cost the entry) */
			if (passed)
				KUNIT_EXPECT_EQ(test,
						rdma_restrack_count(&hca->ibdev,
								    RDMA_RESTRACK_CM_ID,
								    false), 1);
		}
		if (id)
			rdma_destroy_id(id);
		KUNIT_EXPECT_EQ_MSG(test,
				    rdma_restrack_count(&hca->ibdev,
							RDMA_RESTRACK_CM_ID,
							false), 0,
				    "allocation %u: ids left", nth);
	}
	KUNIT_EXPECT_TRUE(test, passed);
	KUNIT_EXPECT_GT(test, failed, 0);
}

static struct kunit_case rdma_cma_fault_cases[] = {
	KUNIT_CASE(rdma_cma_fault_create_bind_listen),
	{}
};

static struct kunit_suite rdma_cma_fault_suite = {
	.name = "rdma_cma_fault",
	.test_cases = rdma_cma_fault_cases,
};

kunit_test_suite(rdma_cma_fault_suite);

MODULE_DESCRIPTION("KUnit tests of rdma_cm under failing allocations");
MODULE_LICENSE("Dual BSD/GPL");
