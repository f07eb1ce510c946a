// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_uverbs_uobj": a file's object table
 * (core/ib_uverbs/uverbs_uobj.c) on a file of its own making, with a
 * test type whose destruction the cases control: handles reserved then
 * committed or given back, lookups by handle and type, shared and
 * exclusive holds (-EBUSY the other way), a destruction refused and
 * retried, and a context's end destroying newest first and retrying
 * what refused.
 */
#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "../uverbs_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KU_MAX	8

/* A test object: whether its destruction is refused, when it went. */
struct ku_obj {
	int refuse;		/* destructions left to refuse */
	int order;		/* 1, 2, ... in destruction order; 0: alive */
	enum rdma_remove_reason why;
};

struct ku_env {
	struct ib_uverbs_file file;
	struct uverbs_attr_bundle attrs;
	struct ku_obj obj[KU_MAX];
	int destroyed;
};

static struct ku_env *ku_env_of(struct ib_uobject *uobj)
{
	return container_of(uobj->ufile, struct ku_env, file);
}

static int ku_destroy(struct ib_uobject *uobj, enum rdma_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	struct ku_obj *o = uobj->object;

	if (o->refuse) {
		o->refuse--;
		return -EBUSY;
	}
	o->why = why;
	o->order = ++ku_env_of(uobj)->destroyed;
	return 0;
}

static const struct uverbs_api_object ku_type = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR(ku_destroy),
	.type_class = &uverbs_idr_class,
	.id = 0x1000,
};

static const struct uverbs_api_object ku_other_type = {
	.type_attrs = &UVERBS_TYPE_ALLOC_IDR(ku_destroy),
	.type_class = &uverbs_idr_class,
	.id = 0x1001,
};

static int rdma_uverbs_uobj_init(struct kunit *test)
{
	struct ku_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	if (!e || !desc)
		return -ENOMEM;
	/* a registered device: handles are charged to the rdma cgroup on it */
	desc->name = "kuuobj%d";
	hca = fake_hca_kunit_create_registered(test, desc);
	if (IS_ERR_OR_NULL(hca))
		return hca ? PTR_ERR(hca) : -ENOMEM;
	xa_init_flags(&e->file.objects, XA_FLAGS_ALLOC);
	spin_lock_init(&e->file.uobjects_lock);
	INIT_LIST_HEAD(&e->file.uobjects);
	mutex_init(&e->file.ucontext_lock);
	/* creating needs a context; only its device is used */
	e->file.ucontext = kunit_kzalloc(test, sizeof(*e->file.ucontext),
					 GFP_KERNEL);
	if (!e->file.ucontext)
		return -ENOMEM;
	e->file.ucontext->device = &hca->ibdev;
	e->attrs.ufile = &e->file;
	test->priv = e;
	return 0;
}

static void rdma_uverbs_uobj_exit(struct kunit *test)
{
	struct ku_env *e = test->priv;

	/* whatever a case left: as a context's end would */
	mutex_lock(&e->file.ucontext_lock);
	uverbs_uobj_destroy_all(&e->file, RDMA_REMOVE_CLOSE);
	mutex_unlock(&e->file.ucontext_lock);
	KUNIT_EXPECT_TRUE(test, xa_empty(&e->file.objects));
	xa_destroy(&e->file.objects);
	/* the objects' memory goes after a grace period */
	rcu_barrier();
}

/* The errno of looking @id up as @type, held @mode; 0 if found. */
static long ku_get_err(struct ku_env *e, const struct uverbs_api_object *type,
		       u32 id, enum rdma_lookup_mode mode)
{
	struct ib_uobject *uobj = uverbs_obj_get(&e->attrs, type, id, mode);

	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uverbs_obj_put(uobj, mode);
	return 0;
}

/* Object @i of the environment, created and committed: its handle. */
static u32 ku_new(struct kunit *test, int i)
{
	struct ku_env *e = test->priv;
	struct ib_uobject *uobj = rdma_alloc_begin_uobject(&ku_type, &e->attrs);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, uobj);
	uobj->object = &e->obj[i];
	rdma_alloc_commit_uobject(uobj, &e->attrs);
	return uobj->id;
}

/* A created object is invisible until committed; an abort frees the id. */
static void uverbs_uobj_create_commit_abort(struct kunit *test)
{
	struct ku_env *e = test->priv;
	struct ib_uobject *a, *b, *got;
	u32 id;

	a = rdma_alloc_begin_uobject(&ku_type, &e->attrs);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	a->object = &e->obj[0];
	KUNIT_EXPECT_EQ(test, a->id, 0);
	got = uverbs_obj_get(&e->attrs, &ku_type, a->id, UVERBS_LOOKUP_READ);
	KUNIT_EXPECT_EQ(test, PTR_ERR(got), -EINVAL);
	b = rdma_alloc_begin_uobject(&ku_type, &e->attrs);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, b->id, 1);
	rdma_alloc_abort_uobject(b, &e->attrs, false);
	rdma_alloc_commit_uobject(a, &e->attrs);
	got = uverbs_obj_get(&e->attrs, &ku_type, a->id, UVERBS_LOOKUP_READ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(got));
	KUNIT_EXPECT_PTR_EQ(test, got, a);
	uverbs_obj_put(got, UVERBS_LOOKUP_READ);
	/* the aborted handle is free again */
	id = ku_new(test, 1);
	KUNIT_EXPECT_EQ(test, id, 1U);
}

/* A handle names an object of one type only. */
static void uverbs_uobj_wrong_type(struct kunit *test)
{
	struct ku_env *e = test->priv;
	u32 id = ku_new(test, 0);

	KUNIT_EXPECT_EQ(test, ku_get_err(e, &ku_other_type, id, UVERBS_LOOKUP_READ), -EINVAL);
	KUNIT_EXPECT_EQ(test, ku_get_err(e, &ku_type, id + 1, UVERBS_LOOKUP_READ),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ku_get_err(e, &ku_type, U32_MAX, UVERBS_LOOKUP_WRITE),
			-EINVAL);
}

/* Shared holds stack; an exclusive one excludes both ways. */
static void uverbs_uobj_holds(struct kunit *test)
{
	struct ku_env *e = test->priv;
	struct ib_uobject *s1, *s2, *x;
	u32 id = ku_new(test, 0);

	s1 = uverbs_obj_get(&e->attrs, &ku_type, id, UVERBS_LOOKUP_READ);
	s2 = uverbs_obj_get(&e->attrs, &ku_type, id, UVERBS_LOOKUP_READ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(s2));
	KUNIT_EXPECT_EQ(test, atomic_read(&s1->usecnt), 2);
	KUNIT_EXPECT_EQ(test, ku_get_err(e, &ku_type, id, UVERBS_LOOKUP_WRITE), -EBUSY);
	uverbs_obj_put(s1, UVERBS_LOOKUP_READ);
	uverbs_obj_put(s2, UVERBS_LOOKUP_READ);
	x = uverbs_obj_get(&e->attrs, &ku_type, id, UVERBS_LOOKUP_WRITE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x));
	KUNIT_EXPECT_EQ(test, ku_get_err(e, &ku_type, id, UVERBS_LOOKUP_READ), -EBUSY);
	KUNIT_EXPECT_EQ(test, ku_get_err(e, &ku_type, id, UVERBS_LOOKUP_WRITE), -EBUSY);
	uverbs_obj_put(x, UVERBS_LOOKUP_WRITE);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->usecnt), 0);
}

/* A refused destruction keeps object and handle; the next one works. */
static void uverbs_uobj_destroy_refused(struct kunit *test)
{
	struct ku_env *e = test->priv;
	struct ib_uobject *x;
	u32 id = ku_new(test, 0);

	e->obj[0].refuse = 1;
	x = uverbs_obj_get(&e->attrs, &ku_type, id, UVERBS_LOOKUP_WRITE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x));
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(&e->attrs, x), -EBUSY);
	uverbs_obj_put(x, UVERBS_LOOKUP_WRITE);
	KUNIT_EXPECT_EQ(test, e->obj[0].order, 0);

	x = uverbs_obj_get(&e->attrs, &ku_type, id, UVERBS_LOOKUP_WRITE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x));
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(&e->attrs, x), 0);
	/* the command's hold outlives the object */
	uverbs_obj_put(x, UVERBS_LOOKUP_WRITE);
	KUNIT_EXPECT_EQ(test, e->obj[0].order, 1);
	KUNIT_EXPECT_EQ(test, e->obj[0].why, RDMA_REMOVE_DESTROY);
	KUNIT_EXPECT_EQ(test, ku_get_err(e, &ku_type, id, UVERBS_LOOKUP_READ), -EINVAL);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->file.uobjects));
}

/* The context's end: newest first, a refusing object after the rest. */
static void uverbs_uobj_destroy_all_order(struct kunit *test)
{
	struct ku_env *e = test->priv;
	int i;

	for (i = 0; i < 4; i++)
		ku_new(test, i);
	/*
	 * object 2 refuses once, as while a newer one still used it: it
	 * goes in the second pass, after the others
	 */
	e->obj[2].refuse = 1;
	mutex_lock(&e->file.ucontext_lock);
	uverbs_uobj_destroy_all(&e->file, RDMA_REMOVE_DRIVER_REMOVE);
	mutex_unlock(&e->file.ucontext_lock);
	KUNIT_EXPECT_EQ(test, e->obj[3].order, 1);
	KUNIT_EXPECT_EQ(test, e->obj[1].order, 2);
	KUNIT_EXPECT_EQ(test, e->obj[0].order, 3);
	KUNIT_EXPECT_EQ(test, e->obj[2].order, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, e->obj[i].why, RDMA_REMOVE_DRIVER_REMOVE);
	KUNIT_EXPECT_TRUE(test, xa_empty(&e->file.objects));
	KUNIT_EXPECT_TRUE(test, list_empty(&e->file.uobjects));
}

static struct kunit_case rdma_uverbs_uobj_cases[] = {
	KUNIT_CASE(uverbs_uobj_create_commit_abort),
	KUNIT_CASE(uverbs_uobj_wrong_type),
	KUNIT_CASE(uverbs_uobj_holds),
	KUNIT_CASE(uverbs_uobj_destroy_refused),
	KUNIT_CASE(uverbs_uobj_destroy_all_order),
	{}
};

static struct kunit_suite rdma_uverbs_uobj_suite = {
	.name = "rdma_uverbs_uobj",
	.init = rdma_uverbs_uobj_init,
	.exit = rdma_uverbs_uobj_exit,
	.test_cases = rdma_uverbs_uobj_cases,
};

kunit_test_suite(rdma_uverbs_uobj_suite);

MODULE_DESCRIPTION("KUnit tests of ib_uverbs's object table");
MODULE_LICENSE("Dual BSD/GPL");
