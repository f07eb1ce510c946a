// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite rdma_user_mmap: the page offsets of rdma_user_mmap_entry_*
 * (core/ib_core/verbs/user_mmap.c) on a context of the suite's making:
 * ranges found past taken offsets, exact and bounded inserts, lookups by
 * offset and by mapping length, removal, and the driver's mmap_free
 * called once with the last reference, the offsets free again; a long
 * entry covering its whole range with two slots of the table.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

/* A driver entry whose mmap_free the suite counts. */
struct um_entry {
	struct rdma_user_mmap_entry rdma;
	int *freed;
};

static void um_mmap_free(struct rdma_user_mmap_entry *rdma)
{
	struct um_entry *e = container_of(rdma, struct um_entry, rdma);

	(*e->freed)++;
	kfree(e);
}

/* A context of an unregistered device whose ops have mmap_free only. */
struct um_ctx {
	struct ib_device dev;
	struct ib_ucontext uctx;
	int freed;
};

static void um_ctx_exit(void *p)
{
	struct um_ctx *c = p;

	xa_destroy(&c->uctx.mmap_xa);
}

static struct um_ctx *um_ctx(struct kunit *test)
{
	struct um_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->dev.ops.mmap_free = um_mmap_free;
	c->uctx.device = &c->dev;
	xa_init_flags(&c->uctx.mmap_xa, XA_FLAGS_ALLOC);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, um_ctx_exit, c),
			0);
	return c;
}

static struct um_entry *um_new(struct kunit *test, struct um_ctx *c)
{
	struct um_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->freed = &c->freed;
	return e;
}

/*
 * Entries take the lowest free range: 3 pages at 0..2, 1 at 3, and once
 * the first goes a 2-page entry fits in its hole; a length of a page
 * and one byte takes two.
 */
static void user_mmap_ranges(struct kunit *test)
{
	struct um_ctx *c = um_ctx(test);
	struct um_entry *a = um_new(test, c), *b = um_new(test, c);
	struct um_entry *d = um_new(test, c), *e = um_new(test, c);

	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert(&c->uctx, &a->rdma,
							  3 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_get_offset(&a->rdma), 0);
	KUNIT_EXPECT_EQ(test, a->rdma.npages, 3);
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert(&c->uctx, &b->rdma,
							  PAGE_SIZE + 1), 0);
	KUNIT_EXPECT_EQ(test, b->rdma.start_pgoff, 3);
	KUNIT_EXPECT_EQ(test, b->rdma.npages, 2);

	rdma_user_mmap_entry_remove(&a->rdma);
	KUNIT_EXPECT_EQ(test, c->freed, 1);
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert(&c->uctx, &d->rdma,
							  2 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, d->rdma.start_pgoff, 0);
	/* 3 pages do not fit in the one page left at 2: after b */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert(&c->uctx, &e->rdma,
							  3 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, e->rdma.start_pgoff, 5);

	rdma_user_mmap_entry_remove(&b->rdma);
	rdma_user_mmap_entry_remove(&d->rdma);
	rdma_user_mmap_entry_remove(&e->rdma);
	KUNIT_EXPECT_EQ(test, c->freed, 4);
	KUNIT_EXPECT_TRUE(test, xa_empty(&c->uctx.mmap_xa));
}

/* Exact and bounded inserts; a length of 0 is refused. */
static void user_mmap_bounds(struct kunit *test)
{
	struct um_ctx *c = um_ctx(test);
	struct um_entry *a = um_new(test, c), *b = um_new(test, c);
	struct um_entry *d = um_new(test, c);

	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert(&c->uctx, &d->rdma,
							  0), -EINVAL);
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_exact(&c->uctx,
								&a->rdma,
								2 * PAGE_SIZE,
								10), 0);
	KUNIT_EXPECT_EQ(test, a->rdma.start_pgoff, 10);
	/* 11 is a's: taken */
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert_exact(&c->uctx,
								&b->rdma,
								PAGE_SIZE, 11),
			-ENOMEM);
	/* starting within 9..12 for 2 pages: 12, after a */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_range(&c->uctx,
								&b->rdma,
								2 * PAGE_SIZE,
								9, 12), 0);
	KUNIT_EXPECT_EQ(test, b->rdma.start_pgoff, 12);
	/* nothing free from 10 to 13 for one page */
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert_range(&c->uctx,
								&d->rdma,
								PAGE_SIZE,
								10, 13),
			-ENOMEM);
	rdma_user_mmap_entry_remove(&a->rdma);
	rdma_user_mmap_entry_remove(&b->rdma);
	kfree(d);
	KUNIT_EXPECT_EQ(test, c->freed, 2);
	KUNIT_EXPECT_TRUE(test, xa_empty(&c->uctx.mmap_xa));
}

/*
 * A lookup finds an entry at its first page only, and not once removed;
 * its reference keeps the entry (mmap_free waits for the put), and the
 * offsets come back only then.
 */
static void user_mmap_lookup(struct kunit *test)
{
	struct um_ctx *c = um_ctx(test);
	struct um_entry *a = um_new(test, c), *b = um_new(test, c);
	struct rdma_user_mmap_entry *got;
	struct vm_area_struct vma = {};

	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert(&c->uctx, &a->rdma,
							  2 * PAGE_SIZE), 0);
	got = rdma_user_mmap_entry_get_pgoff(&c->uctx, 0);
	KUNIT_EXPECT_PTR_EQ(test, got, &a->rdma);
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(&c->uctx, 1));
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(&c->uctx, 2));
	KUNIT_EXPECT_NULL(test,
			  rdma_user_mmap_entry_get_pgoff(&c->uctx,
							 (unsigned long)U32_MAX + 1));

	/* a mapping must be shared and as long as the entry */
	vm_flags_init(&vma, VM_SHARED);
	vma.vm_pgoff = 0;
	vma.vm_start = 0x100000;
	vma.vm_end = vma.vm_start + PAGE_SIZE;
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get(&c->uctx, &vma));
	vma.vm_end = vma.vm_start + 2 * PAGE_SIZE;
	vm_flags_init(&vma, 0);
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get(&c->uctx, &vma));
	vm_flags_init(&vma, VM_SHARED);
	KUNIT_EXPECT_PTR_EQ(test, rdma_user_mmap_entry_get(&c->uctx, &vma),
			    &a->rdma);
	rdma_user_mmap_entry_put(&a->rdma);

	rdma_user_mmap_entry_remove(&a->rdma);
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(&c->uctx, 0));
	/* the lookup's reference keeps it and its offsets */
	KUNIT_EXPECT_EQ(test, c->freed, 0);
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert(&c->uctx, &b->rdma,
							  PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, b->rdma.start_pgoff, 2);
	rdma_user_mmap_entry_put(got);
	KUNIT_EXPECT_EQ(test, c->freed, 1);
	rdma_user_mmap_entry_remove(&b->rdma);
	KUNIT_EXPECT_EQ(test, c->freed, 2);
	KUNIT_EXPECT_TRUE(test, xa_empty(&c->uctx.mmap_xa));
}

/*
 * A long entry covers its range though the table holds only its first
 * and last offsets: an exact insert anywhere inside it, a range insert
 * starting inside it and one overlapping its end are refused or moved
 * past it; its first page after the end is free.
 */
static void user_mmap_long_entry(struct kunit *test)
{
	struct um_ctx *c = um_ctx(test);
	struct um_entry *a = um_new(test, c), *b = um_new(test, c);
	struct um_entry *d = um_new(test, c), *e = um_new(test, c);
	unsigned long idx = 0;
	void *p;
	int slots = 0;

	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_exact(&c->uctx,
								&a->rdma,
								1000 * PAGE_SIZE,
								100), 0);
	xa_for_each(&c->uctx.mmap_xa, idx, p)
		slots++;
	KUNIT_EXPECT_EQ(test, slots, 2);
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert_exact(&c->uctx,
								&b->rdma,
								PAGE_SIZE, 600),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, rdma_user_mmap_entry_insert_exact(&c->uctx,
								&b->rdma,
								PAGE_SIZE, 1099),
			-ENOMEM);
	/* 4 pages from 98 would end at 101, inside: the next fit is 1100 */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_range(&c->uctx,
								&b->rdma,
								4 * PAGE_SIZE,
								98, 2000), 0);
	KUNIT_EXPECT_EQ(test, b->rdma.start_pgoff, 1100);
	/* 2 pages from 98 fit before it */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_range(&c->uctx,
								&d->rdma,
								2 * PAGE_SIZE,
								98, 2000), 0);
	KUNIT_EXPECT_EQ(test, d->rdma.start_pgoff, 98);
	/* inside the long entry: no page of it is found as an entry */
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(&c->uctx, 1099));
	KUNIT_EXPECT_NULL(test, rdma_user_mmap_entry_get_pgoff(&c->uctx, 500));
	rdma_user_mmap_entry_remove(&a->rdma);
	/* its offsets are free again, the middle ones too */
	KUNIT_ASSERT_EQ(test, rdma_user_mmap_entry_insert_exact(&c->uctx,
								&e->rdma,
								PAGE_SIZE, 600),
			0);
	rdma_user_mmap_entry_remove(&b->rdma);
	rdma_user_mmap_entry_remove(&d->rdma);
	rdma_user_mmap_entry_remove(&e->rdma);
	KUNIT_EXPECT_EQ(test, c->freed, 4);
	KUNIT_EXPECT_TRUE(test, xa_empty(&c->uctx.mmap_xa));
}

static struct kunit_case rdma_user_mmap_cases[] = {
	KUNIT_CASE(user_mmap_ranges),
	KUNIT_CASE(user_mmap_bounds),
	KUNIT_CASE(user_mmap_lookup),
	KUNIT_CASE(user_mmap_long_entry),
	{}
};

static struct kunit_suite rdma_user_mmap_suite = {
	.name = "rdma_user_mmap",
	.test_cases = rdma_user_mmap_cases,
};

kunit_test_suite(rdma_user_mmap_suite);

MODULE_DESCRIPTION("KUnit tests of the mmap entries of user contexts");
MODULE_LICENSE("Dual BSD/GPL");
