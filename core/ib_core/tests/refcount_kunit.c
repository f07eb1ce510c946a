// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_device_refcount": registration references
 * (ib_device_try_get/ib_device_put) and how they hold off unregistration.
 *
 * Unregistration blocks until every holder has put its reference, so the
 * tests run it in a kthread and watch it with completions: one completed
 * by a client's remove() (unregistration has started), one when
 * ib_unregister_device() returns.
 */

#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <rdma/ib_verbs.h>

#include "../core_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* How long "still blocked" is watched, and how long completion may take. */
#define BLOCKED_MS	200
#define DONE_MS		20000

static struct fake_hca *new_registered(struct kunit *test, const char *name)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = name;
	desc->port[0].gid_tbl_len = 2;
	desc->port[0].pkey_tbl_len = 1;
	hca = fake_hca_kunit_create_registered(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);
	return hca;
}

/* ------------------------------------------------------------------
 * Unregistration in a kthread
 */

struct unreg_ctx {
	struct fake_hca		*hca;
	struct completion	done;
	bool			started;
	/* references the test holds; dropped by the cleanup if it failed */
	atomic_t		held;
};

static int unreg_thread(void *data)
{
	struct unreg_ctx *ctx = data;

	fake_hca_unregister(ctx->hca);
	/* All: the test and its cleanup may both wait for it. */
	complete_all(&ctx->done);
	return 0;
}

static void unreg_ctx_cleanup(void *data)
{
	struct unreg_ctx *ctx = data;

	/* A failed test may still hold references: let the thread finish. */
	while (atomic_dec_if_positive(&ctx->held) >= 0)
		ib_device_put(&ctx->hca->ibdev);
	if (ctx->started)
		wait_for_completion_timeout(&ctx->done,
					    msecs_to_jiffies(DONE_MS));
}

static struct unreg_ctx *unreg_ctx_new(struct kunit *test,
				       struct fake_hca *hca)
{
	struct unreg_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->hca = hca;
	init_completion(&ctx->done);
	atomic_set(&ctx->held, 0);
	fake_hca_kunit_add_action(test, unreg_ctx_cleanup, ctx);
	return ctx;
}

static void unreg_ctx_get(struct kunit *test, struct unreg_ctx *ctx)
{
	KUNIT_ASSERT_TRUE(test, ib_device_try_get(&ctx->hca->ibdev));
	atomic_inc(&ctx->held);
}

static void unreg_ctx_put(struct unreg_ctx *ctx)
{
	atomic_dec(&ctx->held);
	ib_device_put(&ctx->hca->ibdev);
}

static void unreg_start(struct kunit *test, struct unreg_ctx *ctx)
{
	struct task_struct *t;

	t = kthread_run(unreg_thread, ctx, "kunit_unreg");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	ctx->started = true;
}

static bool unreg_done_within(struct unreg_ctx *ctx, unsigned int ms)
{
	return wait_for_completion_timeout(&ctx->done,
					   msecs_to_jiffies(ms)) > 0;
}

/* A client whose remove() tells that unregistration has started. */
static struct {
	struct completion	removing;
	struct ib_device	*dev;
	bool			try_get;
	bool			by_name;
	bool			by_index;
} watch;

static int watch_add(struct ib_device *dev)
{
	return 0;
}

static void watch_remove(struct ib_device *dev, void *data)
{
	struct ib_device *found;

	if (dev != watch.dev)
		return;

	watch.try_get = ib_device_try_get(dev);
	if (watch.try_get)
		ib_device_put(dev);
	found = ib_device_get_by_name(dev_name(&dev->dev), RDMA_DRIVER_UNKNOWN);
	watch.by_name = found;
	if (found)
		ib_device_put(found);
	found = ib_device_get_by_index(&init_net, dev->index);
	watch.by_index = found;
	if (found)
		ib_device_put(found);
	complete(&watch.removing);
}

static struct ib_client watch_client = {
	.name = "kunit_refcount_watch",
	.add = watch_add,
	.remove = watch_remove,
};

KUNIT_DEFINE_ACTION_WRAPPER(unregister_client_action, ib_unregister_client,
			    struct ib_client *);

static void watch_device(struct kunit *test, struct fake_hca *hca)
{
	init_completion(&watch.removing);
	watch.dev = &hca->ibdev;
	watch.try_get = true;
	watch.by_name = true;
	watch.by_index = true;
	KUNIT_ASSERT_EQ(test, ib_register_client(&watch_client), 0);
	fake_hca_kunit_add_action(test, unregister_client_action,
				  &watch_client);
}

static bool removing_within(unsigned int ms)
{
	return wait_for_completion_timeout(&watch.removing,
					   msecs_to_jiffies(ms)) > 0;
}

/* ------------------------------------------------------------------ */

static void rdma_device_refcount_try_get_put(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuref_tg");
	struct ib_device *dev = &hca->ibdev;
	bool first, second;

	first = ib_device_try_get(dev);
	second = ib_device_try_get(dev);
	if (first)
		ib_device_put(dev);
	if (second)
		ib_device_put(dev);
	KUNIT_ASSERT_TRUE(test, first);
	KUNIT_ASSERT_TRUE(test, second);

	/* Balanced: unregistration does not wait (it would hang here). */
	fake_hca_unregister(hca);
	KUNIT_EXPECT_FALSE(test, ib_device_registered(dev));
}

static void rdma_device_refcount_unregistered_device(struct kunit *test)
{
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	KUNIT_ASSERT_NOT_NULL(test, desc);
	desc->name = "kuref_ur";
	hca = fake_hca_kunit_create(test, desc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hca);

	/* Not yet registered. */
	KUNIT_EXPECT_FALSE(test, fake_hca_try_get_put(&hca->ibdev));

	KUNIT_ASSERT_EQ(test, fake_hca_register(hca), 0);
	KUNIT_EXPECT_TRUE(test, fake_hca_try_get_put(&hca->ibdev));

	/* No longer registered. */
	fake_hca_unregister(hca);
	KUNIT_EXPECT_FALSE(test, fake_hca_try_get_put(&hca->ibdev));
}

static void rdma_device_refcount_holder_blocks_unregister(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuref_hb");
	struct unreg_ctx *ctx = unreg_ctx_new(test, hca);

	watch_device(test, hca);
	unreg_ctx_get(test, ctx);
	unreg_start(test, ctx);

	/* Unregistration has begun ... */
	KUNIT_ASSERT_TRUE(test, removing_within(DONE_MS));
	KUNIT_EXPECT_FALSE(test, ib_device_registered(&hca->ibdev));
	/* ... and waits for us. */
	KUNIT_EXPECT_FALSE(test, unreg_done_within(ctx, BLOCKED_MS));
	/* No new references meanwhile. */
	KUNIT_EXPECT_FALSE(test, fake_hca_try_get_put(&hca->ibdev));

	unreg_ctx_put(ctx);
	KUNIT_EXPECT_TRUE(test, unreg_done_within(ctx, DONE_MS));
	KUNIT_EXPECT_FALSE(test, fake_hca_sysfs_present("kuref_hb"));
}

static void rdma_device_refcount_every_holder_counts(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuref_eh");
	struct unreg_ctx *ctx = unreg_ctx_new(test, hca);
	struct ib_device *by_name;

	watch_device(test, hca);
	unreg_ctx_get(test, ctx);
	/* A lookup by name hands out the same kind of reference. */
	by_name = ib_device_get_by_name("kuref_eh", RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_PTR_EQ(test, by_name, &hca->ibdev);
	atomic_inc(&ctx->held);
	unreg_start(test, ctx);

	KUNIT_ASSERT_TRUE(test, removing_within(DONE_MS));
	unreg_ctx_put(ctx);
	KUNIT_EXPECT_FALSE(test, unreg_done_within(ctx, BLOCKED_MS));
	unreg_ctx_put(ctx);
	KUNIT_EXPECT_TRUE(test, unreg_done_within(ctx, DONE_MS));
}

static void rdma_device_refcount_no_get_while_unregistering(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuref_ng");

	watch_device(test, hca);
	fake_hca_unregister(hca);

	KUNIT_ASSERT_TRUE(test, completion_done(&watch.removing));
	/* Inside remove(): the device is on its way out for everyone. */
	KUNIT_EXPECT_FALSE(test, watch.try_get);
	KUNIT_EXPECT_FALSE(test, watch.by_name);
	KUNIT_EXPECT_FALSE(test, watch.by_index);
}

/* An event handler that blocks until the test lets it go. */
struct blocking_handler {
	struct ib_event_handler	handler;
	struct completion	entered;
	struct completion	release;
};

static void blocking_handler_fn(struct ib_event_handler *handler,
				struct ib_event *event)
{
	struct blocking_handler *bh =
		container_of(handler, struct blocking_handler, handler);

	complete(&bh->entered);
	wait_for_completion_timeout(&bh->release, msecs_to_jiffies(2 * DONE_MS));
}

static void blocking_handler_cleanup(void *data)
{
	struct blocking_handler *bh = data;

	complete_all(&bh->release);
	ib_unregister_event_handler(&bh->handler);
}

static void rdma_device_refcount_pending_event_holds(struct kunit *test)
{
	struct fake_hca *hca = new_registered(test, "kuref_ev");
	struct unreg_ctx *ctx = unreg_ctx_new(test, hca);
	struct blocking_handler *bh;

	bh = kunit_kzalloc(test, sizeof(*bh), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bh);
	init_completion(&bh->entered);
	init_completion(&bh->release);
	INIT_IB_EVENT_HANDLER(&bh->handler, &hca->ibdev, blocking_handler_fn);
	ib_register_event_handler(&bh->handler);
	fake_hca_kunit_add_action(test, blocking_handler_cleanup, bh);

	fake_hca_dispatch_port_event(hca, 1, IB_EVENT_SM_CHANGE);
	KUNIT_ASSERT_TRUE(test,
			  wait_for_completion_timeout(&bh->entered,
						      msecs_to_jiffies(DONE_MS)));

	/* The event being delivered keeps the device registered ... */
	unreg_start(test, ctx);
	KUNIT_EXPECT_FALSE(test, unreg_done_within(ctx, BLOCKED_MS));

	/* ... until the handler returns. */
	complete_all(&bh->release);
	KUNIT_EXPECT_TRUE(test, unreg_done_within(ctx, DONE_MS));
}

static struct kunit_case rdma_device_refcount_cases[] = {
	KUNIT_CASE(rdma_device_refcount_try_get_put),
	KUNIT_CASE(rdma_device_refcount_unregistered_device),
	KUNIT_CASE(rdma_device_refcount_holder_blocks_unregister),
	KUNIT_CASE(rdma_device_refcount_every_holder_counts),
	KUNIT_CASE(rdma_device_refcount_no_get_while_unregistering),
	KUNIT_CASE(rdma_device_refcount_pending_event_holds),
	{}
};

static struct kunit_suite rdma_device_refcount_suite = {
	.name = "rdma_device_refcount",
	.test_cases = rdma_device_refcount_cases,
};

kunit_test_suite(rdma_device_refcount_suite);

MODULE_DESCRIPTION("KUnit tests of RDMA device references");
MODULE_LICENSE("Dual BSD/GPL");
