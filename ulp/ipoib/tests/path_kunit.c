// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "ipoib_path": the unicast path table of an IPoIB
 * interface (ulp/ipoib/path.c): lookup by GID, the bounded queue of
 * packets waiting for a path, and the shared address handles.
 */

#include <kunit/test.h>

#include "../ipoib.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static union ib_gid gid_n(u8 n)
{
	union ib_gid g = { .raw = { 0xfe, 0x80, [15] = 0 } };

	g.raw[15] = n;
	return g;
}

static void path_table_empty(void *data)
{
	struct ipoib_path_table *t = data;
	struct ipoib_path *p;

	while ((p = ipoib_path_first(t)))
		ipoib_path_del(t, p);
}

static struct ipoib_path_table *new_table(struct kunit *test)
{
	struct ipoib_path_table *t = kunit_kzalloc(test, sizeof(*t),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	ipoib_path_table_init(t);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, path_table_empty,
							t), 0);
	return t;
}

static void ipoib_path_add_find(struct kunit *test)
{
	struct ipoib_path_table *t = new_table(test);
	union ib_gid g1 = gid_n(1), g2 = gid_n(2), g3 = gid_n(3);
	struct ipoib_path *p1, *p2, *p3;

	p2 = ipoib_path_add(t, &g2, GFP_KERNEL);
	p1 = ipoib_path_add(t, &g1, GFP_KERNEL);
	p3 = ipoib_path_add(t, &g3, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p1);
	KUNIT_ASSERT_NOT_NULL(test, p2);
	KUNIT_ASSERT_NOT_NULL(test, p3);
	KUNIT_EXPECT_EQ(test, t->count, 3);
	KUNIT_EXPECT_PTR_EQ(test, ipoib_path_find(t, &g1), p1);
	KUNIT_EXPECT_PTR_EQ(test, ipoib_path_find(t, &g2), p2);
	KUNIT_EXPECT_PTR_EQ(test, ipoib_path_find(t, &g3), p3);
	KUNIT_EXPECT_MEMEQ(test, p3->dgid.raw, g3.raw, 16);
	/* a new path is unresolved and asks for a query */
	KUNIT_EXPECT_NULL(test, p1->ah);
	KUNIT_EXPECT_TRUE(test, p1->pending);
	KUNIT_EXPECT_TRUE(test, completion_done(&p1->done));

	/* one path per GID */
	KUNIT_EXPECT_NULL(test, ipoib_path_add(t, &g2, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, t->count, 3);
	g1.raw[0] = 0xfd;
	KUNIT_EXPECT_NULL(test, ipoib_path_find(t, &g1));

	/* the lowest GID first, and deletion takes only the one */
	KUNIT_EXPECT_PTR_EQ(test, ipoib_path_first(t), p1);
	ipoib_path_del(t, p1);
	KUNIT_EXPECT_EQ(test, t->count, 2);
	KUNIT_EXPECT_PTR_EQ(test, ipoib_path_first(t), p2);
	KUNIT_EXPECT_PTR_EQ(test, ipoib_path_find(t, &g3), p3);
}

static void ipoib_path_queue_bounded(struct kunit *test)
{
	struct ipoib_path_table *t = new_table(test);
	union ib_gid g = gid_n(7);
	struct ipoib_path *p = ipoib_path_add(t, &g, GFP_KERNEL);
	struct sk_buff *skb;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < IPOIB_PATH_QUEUE_MAX; i++) {
		skb = alloc_skb(32, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		KUNIT_EXPECT_TRUE(test, ipoib_path_enqueue(p, skb));
	}
	skb = alloc_skb(32, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_FALSE(test, ipoib_path_enqueue(p, skb));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&p->queue), IPOIB_PATH_QUEUE_MAX);
	kfree_skb(skb);
	/* deleting the path frees what waits on it (kmemleak would tell) */
	ipoib_path_del(t, p);
	KUNIT_EXPECT_EQ(test, t->count, 0);
	KUNIT_EXPECT_NULL(test, ipoib_path_first(t));
}

/*
 * An address handle lives while its path or a send holds it: the path's
 * deletion leaves the send's reference.
 */
static void ipoib_path_ah_shared(struct kunit *test)
{
	struct ipoib_path_table *t = new_table(test);
	union ib_gid g = gid_n(9);
	struct ipoib_path *p = ipoib_path_add(t, &g, GFP_KERNEL);
	struct ipoib_ah *ah, *send_ref;

	KUNIT_ASSERT_NOT_NULL(test, p);
	ah = ipoib_ah_wrap(NULL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ah);
	p->ah = ah;
	send_ref = ipoib_ah_get(ah);
	KUNIT_EXPECT_EQ(test, kref_read(&ah->ref), 2);
	ipoib_path_del(t, p);
	KUNIT_EXPECT_EQ(test, kref_read(&send_ref->ref), 1);
	ipoib_ah_put(send_ref);
	ipoib_ah_put(NULL);
}

static struct kunit_case ipoib_path_cases[] = {
	KUNIT_CASE(ipoib_path_add_find),
	KUNIT_CASE(ipoib_path_queue_bounded),
	KUNIT_CASE(ipoib_path_ah_shared),
	{}
};

static struct kunit_suite ipoib_path_suite = {
	.name = "ipoib_path",
	.test_cases = ipoib_path_cases,
};

kunit_test_suite(ipoib_path_suite);

MODULE_DESCRIPTION("KUnit tests of the IPoIB path table");
MODULE_LICENSE("Dual BSD/GPL");
