// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_uverbs_ioctl": the verbs ioctl's method tree
 * (core/ib_uverbs/uverbs_uapi.c) and parser (uverbs_ioctl.c) on a tree
 * of test definitions and a file of the suite's making, the ioctl's
 * buffer in user memory (kunit_vm_mmap()):
 *
 *  - the tree: a driver's attribute merged into a method, definitions
 *    that disagree refused, an object whose op the device lacks disabled
 *    with its methods, a method without a handler and one whose
 *    mandatory attribute names a disabled type disabled;
 *  - the header: lengths, reserved fields, the driver's ID, unknown and
 *    disabled methods;
 *  - attributes: unknown ones (mandatory or not), twice the same,
 *    mandatory ones missing, lengths against the specs, extensible
 *    structures with a tail zero or not, reserved bits, inline values and
 *    pointers, UA_ALLOC_AND_COPY, ENUM_IN, FLAGS_IN and CONST_IN, an
 *    output flagged UVERBS_ATTR_F_VALID_OUTPUT, the driver's udata;
 *  - objects: a NEW handle written back and committed, or aborted (the
 *    object it made destroyed, the handle free) when the method fails;
 *    DESTROY before the handler; a stale handle;
 *  - _uverbs_alloc() past the stack buffer, zeroed;
 *  - an object of a driver's file type (uverbs_fd_class): its fd
 *    installed only when the method succeeds, looked up by fd, destroyed
 *    by its close (uverbs_uobject_fd_release()) or by the context's end,
 *    its file then closing alone.
 */
#include <kunit/test.h>
#include <kunit/rdma_fake_hca.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "../uverbs_priv.h"

#define UVERBS_MODULE_NAME ku_ioctl
#include <rdma/uverbs_named_ioctl.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KU_DRIVER_ID	RDMA_DRIVER_QIB
/* a driver's objects: the named macros take identifiers */
enum { KU_OBJ = (1U << UVERBS_ID_NS_SHIFT) | 1, KU_OBJ2, KU_FDOBJ };
#define KU_DATA		2048	/* where pointer payloads go in the page */

enum {
	KU_M_CREATE,
	KU_M_DESTROY,
	KU_M_PTRS,
	KU_M_NOHANDLER,
	KU_M_NEEDS2,
	KU_M_ALLOC,
	KU_M_FDNEW,
	KU_M_FDREAD,
};

struct ku_s {
	u64 a;
	u64 b;
};

/* What the handlers saw, and what the destructor did */
static struct {
	struct ku_s s;
	u8 blob[64];
	int blob_len;
	int enum_id;
	u64 enum_val;
	u64 flags;
	u8 c;
	struct ib_udata udata;
	int destroyed;
	int ran;
} ku_seen;

static int ku_destroy(struct ib_uobject *uobj, enum rdma_remove_reason why,
		      struct uverbs_attr_bundle *attrs)
{
	ku_seen.destroyed++;
	return 0;
}

static int ku_obj_value;

static int ku_query_ucontext(struct ib_ucontext *uctx,
			     struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static int UVERBS_HANDLER(KU_M_CREATE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, 0);
	u64 v;
	u32 id;
	int ret;

	ret = uverbs_copy_from(&v, attrs, 1);
	if (ret)
		return ret;
	uobj->object = &ku_obj_value;
	uverbs_finalize_uobj_create(attrs, 0);
	id = uobj->id;
	ret = uverbs_copy_to(attrs, 2, &id, sizeof(id));
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	/* fails after the object was made: the abort destroys it */
	return v == 666 ? -EINVAL : 0;
}

DECLARE_UVERBS_NAMED_METHOD(KU_M_CREATE,
			    UVERBS_ATTR_IDR(0, KU_OBJ, UVERBS_ACCESS_NEW,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(1, UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(2, UVERBS_ATTR_TYPE(u32),
						UA_OPTIONAL));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(KU_M_DESTROY,
				    UVERBS_ATTR_IDR(0, KU_OBJ,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

static const struct uverbs_attr_spec ku_enum_specs[] = {
	[0] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		.u.ptr.min_len = sizeof(u32),
		.u.ptr.len = sizeof(u32),
	},
	[1] = {
		.type = UVERBS_ATTR_TYPE_PTR_IN,
		.u.ptr.min_len = sizeof(u64),
		.u.ptr.len = sizeof(u64),
	},
};

static int UVERBS_HANDLER(KU_M_PTRS)(struct uverbs_attr_bundle *attrs)
{
	u64 out = 0x1122334455667788ULL;
	void *p;
	int ret;

	memset(&ku_seen, 0, sizeof(ku_seen));
	ku_seen.ran = 1;
	ret = uverbs_copy_from_or_zero(&ku_seen.s, attrs, 0);
	if (IS_UVERBS_COPY_ERR(ret))
		return ret;
	p = uverbs_attr_get_alloced_ptr(attrs, 1);
	if (!IS_ERR(p)) {
		ku_seen.blob_len = min(uverbs_attr_get_len(attrs, 1), 64);
		memcpy(ku_seen.blob, p, ku_seen.blob_len);
	}
	ku_seen.enum_id = uverbs_attr_get_enum_id(attrs, 2);
	if (ku_seen.enum_id >= 0) {
		ret = _uverbs_copy_from_or_zero(&ku_seen.enum_val, attrs, 2,
						sizeof(ku_seen.enum_val));
		if (ret)
			return ret;
	}
	ret = uverbs_get_flags64(&ku_seen.flags, attrs, 3, 0xff);
	if (ret)
		return ret;
	ret = uverbs_get_const_default(&ku_seen.c, attrs, 4, 7);
	if (ret)
		return ret;
	ku_seen.udata = attrs->driver_udata;
	ret = uverbs_copy_to(attrs, 5, &out, sizeof(out));
	return IS_UVERBS_COPY_ERR(ret) ? ret : 0;
}

DECLARE_UVERBS_NAMED_METHOD(KU_M_PTRS,
			    UVERBS_ATTR_PTR_IN(0, UVERBS_ATTR_STRUCT(struct ku_s, a),
					       UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(1, UVERBS_ATTR_MIN_SIZE(0),
					       UA_OPTIONAL, UA_ALLOC_AND_COPY),
			    UVERBS_ATTR_ENUM_IN(2, ku_enum_specs, UA_OPTIONAL),
			    UVERBS_ATTR_FLAGS_IN(3, u64, UA_OPTIONAL),
			    UVERBS_ATTR_CONST_IN(4, u8, UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(5, UVERBS_ATTR_TYPE(u64),
						UA_OPTIONAL),
			    UVERBS_ATTR_UHW());

/* attributes only: no handler anywhere, so disabled */
static const struct uverbs_attr_def *const ku_nohandler_attrs[] = {
	UVERBS_ATTR_PTR_IN(0, UVERBS_ATTR_TYPE(u32), UA_OPTIONAL),
};

static const struct uverbs_method_def ku_nohandler = {
	.id = KU_M_NOHANDLER,
	.num_attrs = ARRAY_SIZE(ku_nohandler_attrs),
	.attrs = &ku_nohandler_attrs,
};

static int UVERBS_HANDLER(KU_M_NEEDS2)(struct uverbs_attr_bundle *attrs)
{
	return 0;
}

/* a mandatory object of a disabled type: disabled */
DECLARE_UVERBS_NAMED_METHOD(KU_M_NEEDS2,
			    UVERBS_ATTR_IDR(0, KU_OBJ2, UVERBS_ACCESS_READ,
					    UA_MANDATORY));

static int UVERBS_HANDLER(KU_M_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	u8 *small, *big;
	int i;

	small = uverbs_zalloc(attrs, 24);
	big = uverbs_zalloc(attrs, 8192);
	if (IS_ERR(small) || IS_ERR(big))
		return -ENOMEM;
	for (i = 0; i < 8192; i++)
		if (big[i] || (i < 24 && small[i]))
			return -EFAULT;
	memset(big, 0xa5, 8192);
	small = uverbs_alloc(attrs, 100000);
	return IS_ERR(small) ? PTR_ERR(small) : 0;
}

DECLARE_UVERBS_NAMED_METHOD(KU_M_ALLOC);

DECLARE_UVERBS_NAMED_OBJECT(KU_OBJ, UVERBS_TYPE_ALLOC_IDR(ku_destroy),
			    &UVERBS_METHOD(KU_M_CREATE),
			    &UVERBS_METHOD(KU_M_DESTROY),
			    &UVERBS_METHOD(KU_M_PTRS),
			    &ku_nohandler,
			    &UVERBS_METHOD(KU_M_NEEDS2),
			    &UVERBS_METHOD(KU_M_ALLOC));

DECLARE_UVERBS_NAMED_OBJECT(KU_OBJ2, UVERBS_TYPE_ALLOC_IDR(ku_destroy));

/* a driver's file type */
static int ku_fd_destroyed;
static enum rdma_remove_reason ku_fd_why;

static void ku_fd_destroy(struct ib_uobject *uobj,
			  enum rdma_remove_reason why)
{
	ku_fd_destroyed++;
	ku_fd_why = why;
}

static const struct file_operations ku_fd_fops = {
	.owner = THIS_MODULE,
	.release = uverbs_uobject_fd_release,
};

/* fails when attribute 1 is there, after the file was made */
static int UVERBS_HANDLER(KU_M_FDNEW)(struct uverbs_attr_bundle *attrs)
{
	return uverbs_attr_is_valid(attrs, 1) ? -EINVAL : 0;
}

DECLARE_UVERBS_NAMED_METHOD(KU_M_FDNEW,
			    UVERBS_ATTR_FD(0, KU_FDOBJ, UVERBS_ACCESS_NEW,
					   UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(1, UVERBS_ATTR_TYPE(u64),
					       UA_OPTIONAL));

static int UVERBS_HANDLER(KU_M_FDREAD)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, 0);

	ku_seen.ran = uobj->object ? 2 : 1;
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(KU_M_FDREAD,
			    UVERBS_ATTR_FD(0, KU_FDOBJ, UVERBS_ACCESS_READ,
					   UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(KU_FDOBJ,
			    UVERBS_TYPE_ALLOC_FD(sizeof(struct ib_uobject),
						 ku_fd_destroy, &ku_fd_fops,
						 "[ku_fd]", O_RDWR),
			    &UVERBS_METHOD(KU_M_FDNEW),
			    &UVERBS_METHOD(KU_M_FDREAD));

static const struct uapi_definition ku_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(KU_OBJ),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(KU_FDOBJ),
	/* the fake device has no query_ucontext */
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(KU_OBJ2,
				      UAPI_DEF_OBJ_NEEDS_FN(query_ucontext)),
	{}
};

/* a driver's attribute added to KU_M_PTRS */
static const struct uverbs_attr_def *const ku_add_attrs[] = {
	UVERBS_ATTR_PTR_IN(6, UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
};

static const struct uverbs_method_def ku_add_method = {
	.id = KU_M_PTRS,
	.num_attrs = ARRAY_SIZE(ku_add_attrs),
	.attrs = &ku_add_attrs,
};

static const struct uverbs_method_def *const ku_add_methods[] = {
	&ku_add_method,
};

static const struct uverbs_object_def ku_add_obj = {
	.id = KU_OBJ,
	.num_methods = ARRAY_SIZE(ku_add_methods),
	.methods = &ku_add_methods,
};

static const struct uapi_definition ku_driver_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(KU_OBJ, &ku_add_obj),
	{}
};

/* a driver's attribute 0 of KU_M_PTRS, unlike the core's */
static const struct uverbs_attr_def *const ku_bad_attrs[] = {
	UVERBS_ATTR_PTR_OUT(0, UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
};

static const struct uverbs_method_def ku_bad_method = {
	.id = KU_M_PTRS,
	.num_attrs = ARRAY_SIZE(ku_bad_attrs),
	.attrs = &ku_bad_attrs,
};

static const struct uverbs_method_def *const ku_bad_methods[] = {
	&ku_bad_method,
};

static const struct uverbs_object_def ku_bad_obj = {
	.id = KU_OBJ,
	.num_methods = ARRAY_SIZE(ku_bad_methods),
	.methods = &ku_bad_methods,
};

static const struct uapi_definition ku_bad_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(KU_OBJ, &ku_bad_obj),
	{}
};

struct ku_env {
	struct ib_device *dev;
	struct uverbs_device udev;
	struct ib_uverbs_file file;
	unsigned long ubuf;
};

struct ku_call {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[8];
};

static int rdma_uverbs_ioctl_init(struct kunit *test)
{
	struct ku_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct fake_hca_desc *desc = fake_hca_kunit_desc(test, 1);
	struct fake_hca *hca;

	if (!e || !desc)
		return -ENOMEM;
	e->dev = kunit_kzalloc(test, sizeof(*e->dev), GFP_KERNEL);
	e->file.ucontext = kunit_kzalloc(test, sizeof(*e->file.ucontext),
					 GFP_KERNEL);
	if (!e->dev || !e->file.ucontext)
		return -ENOMEM;
	/*
	 * The uapi is built for e->dev; the context's device is a
	 * registered one, on which handles are charged to the rdma cgroup.
	 */
	desc->name = "kuioctl%d";
	hca = fake_hca_kunit_create_registered(test, desc);
	if (IS_ERR_OR_NULL(hca))
		return hca ? PTR_ERR(hca) : -ENOMEM;
	e->file.ucontext->device = &hca->ibdev;
	e->dev->ops.driver_id = KU_DRIVER_ID;
	xa_init_flags(&e->file.objects, XA_FLAGS_ALLOC);
	spin_lock_init(&e->file.uobjects_lock);
	INIT_LIST_HEAD(&e->file.uobjects);
	mutex_init(&e->file.ucontext_lock);
	/* never freed: an fd object's file holds one more while open */
	kref_init(&e->file.ref);
	e->file.device = &e->udev;
	e->ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE,
				PROT_READ | PROT_WRITE,
				MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (!e->ubuf)
		return -ENOMEM;
	test->priv = e;
	memset(&ku_seen, 0, sizeof(ku_seen));
	return 0;
}

static void rdma_uverbs_ioctl_exit(struct kunit *test)
{
	struct ku_env *e = test->priv;

	mutex_lock(&e->file.ucontext_lock);
	uverbs_uobj_destroy_all(&e->file, RDMA_REMOVE_CLOSE);
	mutex_unlock(&e->file.ucontext_lock);
	xa_destroy(&e->file.objects);
	uverbs_destroy_api(e->udev.uapi);
	rcu_barrier();
}

/* The tree of ku_defs (and the driver's additions) for the file. */
static void ku_tree(struct kunit *test, bool with_driver)
{
	struct ku_env *e = test->priv;

	e->udev.uapi = uverbs_build_api(ku_defs,
					with_driver ? ku_driver_defs : NULL,
					e->dev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, e->udev.uapi);
}

/* A user address in the page's data half holding @len bytes of @src. */
static u64 ku_udata(struct kunit *test, unsigned int off, const void *src,
		    size_t len)
{
	struct ku_env *e = test->priv;
	unsigned long p = e->ubuf + KU_DATA + off;

	KUNIT_ASSERT_LE(test, KU_DATA + off + len, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)p, src, len), 0UL);
	return p;
}

static void ku_uread(struct kunit *test, u64 uaddr, void *dst, size_t len)
{
	KUNIT_ASSERT_EQ(test, copy_from_user(dst, u64_to_user_ptr(uaddr), len),
			0UL);
}

/*
 * Run @c with @n attributes on method @method of @obj; the header's
 * length is off by @delta.  The attributes come back as the kernel left
 * them (flags, NEW handles).
 */
static int ku_run(struct kunit *test, struct ku_call *c, u16 obj, u16 method,
		  int n, int delta)
{
	struct ku_env *e = test->priv;
	size_t len = sizeof(c->hdr) + n * sizeof(c->attrs[0]);
	int ret;

	c->hdr.object_id = obj;
	c->hdr.method_id = method;
	c->hdr.num_attrs = n;
	c->hdr.length = len + delta;
	if (!c->hdr.driver_id)
		c->hdr.driver_id = KU_DRIVER_ID;
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)e->ubuf, c, len),
			0UL);
	ret = uverbs_ioctl_run(&e->file, e->udev.uapi,
			       (void __user *)e->ubuf);
	KUNIT_ASSERT_EQ(test, copy_from_user(c, (void __user *)e->ubuf, len),
			0UL);
	return ret;
}

static struct ib_uverbs_attr ku_in(u16 id, u64 data, u16 len)
{
	return (struct ib_uverbs_attr){ .attr_id = id, .len = len,
					.data = data };
}

/* Building: merging, conflicts, and what is disabled. */
static void uverbs_ioctl_tree(struct kunit *test)
{
	struct ku_env *e = test->priv;
	const struct uverbs_api_ioctl_method *m;
	struct uverbs_api *bad;
	const struct uverbs_api_obj *o;

	ku_tree(test, true);
	m = xa_load(&e->udev.uapi->methods,
		    uverbs_method_key(KU_OBJ, KU_M_PTRS));
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_FALSE(test, m->disabled);
	/* the driver's attribute 6, mandatory, beside the core's */
	KUNIT_EXPECT_NOT_NULL(test, m->attrs[uverbs_attr_slot(6)]);
	KUNIT_EXPECT_TRUE(test, test_bit(uverbs_attr_slot(6),
					 m->attr_mandatory));
	KUNIT_EXPECT_TRUE(test, m->has_udata);
	m = xa_load(&e->udev.uapi->methods,
		    uverbs_method_key(KU_OBJ, KU_M_DESTROY));
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, m->destroy_slot, uverbs_attr_slot(0));
	m = xa_load(&e->udev.uapi->methods,
		    uverbs_method_key(KU_OBJ, KU_M_NOHANDLER));
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_TRUE(test, m->disabled);
	m = xa_load(&e->udev.uapi->methods,
		    uverbs_method_key(KU_OBJ, KU_M_NEEDS2));
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_TRUE(test, m->disabled);
	o = xa_load(&e->udev.uapi->objects, KU_OBJ2);
	KUNIT_ASSERT_NOT_NULL(test, o);
	KUNIT_EXPECT_TRUE(test, o->disabled);
	o = xa_load(&e->udev.uapi->objects, KU_OBJ);
	KUNIT_ASSERT_NOT_NULL(test, o);
	KUNIT_EXPECT_FALSE(test, o->disabled);
	KUNIT_EXPECT_PTR_EQ(test, o->obj->type_class, &uverbs_idr_class);

	/* a driver that redefines an attribute otherwise */
	bad = uverbs_build_api(ku_defs, ku_bad_defs, e->dev);
	KUNIT_EXPECT_EQ(test, PTR_ERR(bad), -EINVAL);
	if (!IS_ERR(bad))
		uverbs_destroy_api(bad);
	/* with query_ucontext, KU_OBJ2 and KU_M_NEEDS2 are there */
	e->dev->ops.query_ucontext = ku_query_ucontext;
	bad = uverbs_build_api(ku_defs, NULL, e->dev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, bad);
	m = xa_load(&bad->methods, uverbs_method_key(KU_OBJ, KU_M_NEEDS2));
	KUNIT_EXPECT_FALSE(test, m->disabled);
	uverbs_destroy_api(bad);
	e->dev->ops.query_ucontext = NULL;
}

/* The header's rules. */
static void uverbs_ioctl_header(struct kunit *test)
{
	struct ku_call c = {};

	ku_tree(test, false);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.ran, 1);
	/* the length is that of the attributes given */
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, -16),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 0, 8),
			-EINVAL);
	/* reserved fields */
	c.hdr.reserved1 = 1;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 0, 0),
			-EPROTONOSUPPORT);
	c.hdr.reserved1 = 0;
	c.hdr.reserved2 = 1;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 0, 0),
			-EPROTONOSUPPORT);
	c.hdr.reserved2 = 0;
	/* another driver's */
	c.hdr.driver_id = RDMA_DRIVER_RXE;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 0, 0),
			-EINVAL);
	c.hdr.driver_id = 0;
	/* unknown object, unknown method, disabled ones */
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ + 7, 0, 0, 0),
			-EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, 77, 0, 0),
			-EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_NOHANDLER, 0, 0),
			-EPROTONOSUPPORT);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_NEEDS2, 0, 0),
			-EPROTONOSUPPORT);
}

/* The attributes' rules, and what the handler gets. */
static void uverbs_ioctl_attrs(struct kunit *test)
{
	struct ku_s big[2] = { { 5, 6 }, { 0, 0 } };
	u8 blob[40], uhw[12], out[8];
	struct ku_call c = {};
	u64 v;
	int i;

	ku_tree(test, false);
	/* unknown: ignored; mandatory unknown: refused */
	c.attrs[0] = ku_in(40, 1, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	c.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EPROTONOSUPPORT);
	c.attrs[0] = ku_in(UVERBS_API_NS_FLAG | 9, 1, 8);
	c.attrs[0].flags = UVERBS_ATTR_F_MANDATORY;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EPROTONOSUPPORT);
	/* twice the same */
	c.attrs[0] = ku_in(4, 3, 8);
	c.attrs[1] = ku_in(4, 3, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 2, 0),
			-EINVAL);
	/* CONST_IN: 8 bytes, bounded by the handler's type */
	c.attrs[0] = ku_in(4, 3, 4);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);
	c.attrs[0] = ku_in(4, 300, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);
	c.attrs[0] = ku_in(4, 200, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.c, 200);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.c, 7);
	/* reserved bits of a PTR attribute */
	c.attrs[0] = ku_in(4, 3, 8);
	c.attrs[0].attr_data.reserved = 1;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);

	/* the extensible struct: short, exact (inline), longer zero or not */
	c.attrs[0] = ku_in(0, 9, 4);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);
	c.attrs[0] = ku_in(0, 9, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.s.a, 9ULL);
	KUNIT_EXPECT_EQ(test, ku_seen.s.b, 0ULL);
	c.attrs[0] = ku_in(0, ku_udata(test, 0, big, sizeof(big)),
			   sizeof(big));
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.s.a, 5ULL);
	KUNIT_EXPECT_EQ(test, ku_seen.s.b, 6ULL);
	big[1].b = 1;
	c.attrs[0] = ku_in(0, ku_udata(test, 0, big, sizeof(big)),
			   sizeof(big));
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EOPNOTSUPP);
	/* an unreadable pointer */
	c.attrs[0] = ku_in(0, 8, 16);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EFAULT);

	/* UA_ALLOC_AND_COPY past 8 bytes */
	for (i = 0; i < sizeof(blob); i++)
		blob[i] = i + 1;
	c.attrs[0] = ku_in(1, ku_udata(test, 64, blob, sizeof(blob)),
			   sizeof(blob));
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.blob_len, (int)sizeof(blob));
	KUNIT_EXPECT_EQ(test, memcmp(ku_seen.blob, blob, sizeof(blob)), 0);

	/* ENUM_IN: the element chosen, past the specs, reserved */
	c.attrs[0] = ku_in(2, 0xabcdef, 8);
	c.attrs[0].attr_data.enum_data.elem_id = 1;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.enum_id, 1);
	KUNIT_EXPECT_EQ(test, ku_seen.enum_val, 0xabcdefULL);
	c.attrs[0].len = 4;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);
	c.attrs[0].attr_data.enum_data.elem_id = 2;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EOPNOTSUPP);
	c.attrs[0].attr_data.enum_data.elem_id = 0;
	c.attrs[0].attr_data.enum_data.reserved = 1;
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);

	/* FLAGS_IN: 4 or 8 bytes, known bits only */
	c.attrs[0] = ku_in(3, 0x81, 4);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.flags, 0x81ULL);
	c.attrs[0] = ku_in(3, 0x100, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);

	/* an output: written, flagged; too short: refused */
	memset(out, 0, sizeof(out));
	c.attrs[0] = ku_in(5, ku_udata(test, 256, out, sizeof(out)), 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0), 0);
	KUNIT_EXPECT_TRUE(test, c.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	ku_uread(test, c.attrs[0].data, &v, sizeof(v));
	KUNIT_EXPECT_EQ(test, v, 0x1122334455667788ULL);
	c.attrs[0] = ku_in(5, ku_udata(test, 256, out, sizeof(out)), 4);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 1, 0),
			-EINVAL);

	/* the driver's data: inline input, an output, flagged */
	c.attrs[0] = ku_in(UVERBS_ATTR_UHW_IN, 0x0807060504030201ULL, 8);
	c.attrs[1] = ku_in(UVERBS_ATTR_UHW_OUT,
			   ku_udata(test, 512, uhw, sizeof(uhw)), sizeof(uhw));
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_PTRS, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.udata.inlen, 8UL);
	KUNIT_EXPECT_EQ(test, ku_seen.udata.outlen, sizeof(uhw));
	KUNIT_EXPECT_EQ(test, (u64)(uintptr_t)ku_seen.udata.outbuf,
			c.attrs[1].data);
	/* inline: the user's own attribute holds it */
	KUNIT_EXPECT_EQ(test, (unsigned long)ku_seen.udata.inbuf,
			((struct ku_env *)test->priv)->ubuf + sizeof(c.hdr) +
			offsetof(struct ib_uverbs_attr, data));
	KUNIT_EXPECT_TRUE(test, c.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);
}

/* NEW objects: committed, or aborted when the method fails; DESTROY. */
static void uverbs_ioctl_objects(struct kunit *test)
{
	struct ku_env *e = test->priv;
	struct ku_call c = {};
	u32 h1, h2, out = 0;

	ku_tree(test, false);
	/* the value, mandatory, missing */
	c.attrs[0] = ku_in(0, 0, 0);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_CREATE, 1, 0),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, xa_empty(&e->file.objects));
	/* an IDR attribute carries no length */
	c.attrs[0] = ku_in(0, 0, 4);
	c.attrs[1] = ku_in(1, 1, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_CREATE, 2, 0),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, xa_empty(&e->file.objects));

	c.attrs[0] = ku_in(0, 0, 0);
	c.attrs[1] = ku_in(1, 1, 8);
	c.attrs[2] = ku_in(2, ku_udata(test, 0, &out, sizeof(out)), 4);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_CREATE, 3, 0), 0);
	h1 = c.attrs[0].data;
	ku_uread(test, c.attrs[2].data, &out, sizeof(out));
	KUNIT_EXPECT_EQ(test, out, h1);
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&e->file.objects, h1));

	/* fails after making it: destroyed, handle given back */
	c.attrs[0] = ku_in(0, 0, 0);
	c.attrs[1] = ku_in(1, 666, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_CREATE, 3, 0),
			-EINVAL);
	h2 = c.attrs[0].data;
	KUNIT_EXPECT_NE(test, h2, h1);
	KUNIT_EXPECT_EQ(test, ku_seen.destroyed, 1);
	KUNIT_EXPECT_NULL(test, xa_load(&e->file.objects, h2));

	/* destroy, then the stale handle */
	c.attrs[0] = ku_in(0, h1, 0);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_DESTROY, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.destroyed, 2);
	KUNIT_EXPECT_TRUE(test, xa_empty(&e->file.objects));
	KUNIT_EXPECT_TRUE(test, list_empty(&e->file.uobjects));
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_DESTROY, 1, 0),
			-ENOENT);
	c.attrs[0] = ku_in(0, -1ULL, 0);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_DESTROY, 1, 0),
			-EINVAL);
}

/* The bundle's allocations past its stack buffer, zeroed, all freed. */
static void uverbs_ioctl_alloc(struct kunit *test)
{
	struct ku_call c = {};

	ku_tree(test, false);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_ALLOC, 0, 0), 0);
	/* the pattern of the first run is not seen by the second */
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_OBJ, KU_M_ALLOC, 0, 0), 0);
}

/* A driver's file objects: by fd, destroyed by close or context end. */
static void uverbs_ioctl_fd_objects(struct kunit *test)
{
	struct ku_env *e = test->priv;
	struct ku_call c = {};
	struct file *f;
	int fd, fd2;

	ku_tree(test, false);
	ku_fd_destroyed = 0;
	c.attrs[0] = ku_in(0, 0, 0);
	KUNIT_ASSERT_EQ(test, ku_run(test, &c, KU_FDOBJ, KU_M_FDNEW, 1, 0), 0);
	fd = c.attrs[0].data_s64;
	KUNIT_ASSERT_GE(test, fd, 0);
	f = fget(fd);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_PTR_EQ(test, f->f_op, &ku_fd_fops);
	fput(f);
	KUNIT_EXPECT_EQ(test, kref_read(&e->file.ref), 2U);

	/* looked up by its fd; an fd of nothing */
	c.attrs[0] = ku_in(0, fd, 0);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_FDOBJ, KU_M_FDREAD, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ku_seen.ran, 2);
	c.attrs[0] = ku_in(0, 100000, 0);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_FDOBJ, KU_M_FDREAD, 1, 0),
			-EBADF);

	/* a method that fails: no fd installed, nothing destroyed */
	c.attrs[0] = ku_in(0, 0, 0);
	c.attrs[1] = ku_in(1, 1, 8);
	KUNIT_EXPECT_EQ(test, ku_run(test, &c, KU_FDOBJ, KU_M_FDNEW, 2, 0),
			-EINVAL);
	fd2 = c.attrs[0].data_s64;
	f = fd2 >= 0 ? fget(fd2) : NULL;
	KUNIT_EXPECT_NULL(test, f);
	if (f)
		fput(f);
	flush_delayed_fput();
	KUNIT_EXPECT_EQ(test, ku_fd_destroyed, 0);

	/* its close destroys it */
	KUNIT_EXPECT_EQ(test, close_fd(fd), 0);
	flush_delayed_fput();
	KUNIT_EXPECT_EQ(test, ku_fd_destroyed, 1);
	KUNIT_EXPECT_EQ(test, ku_fd_why, RDMA_REMOVE_CLOSE);
	KUNIT_EXPECT_EQ(test, kref_read(&e->file.ref), 1U);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->file.uobjects));

	/* the context's end first: destroyed then; the close later is quiet */
	c.attrs[0] = ku_in(0, 0, 0);
	KUNIT_ASSERT_EQ(test, ku_run(test, &c, KU_FDOBJ, KU_M_FDNEW, 1, 0), 0);
	fd = c.attrs[0].data_s64;
	mutex_lock(&e->file.ucontext_lock);
	uverbs_uobj_destroy_all(&e->file, RDMA_REMOVE_DRIVER_REMOVE);
	mutex_unlock(&e->file.ucontext_lock);
	KUNIT_EXPECT_EQ(test, ku_fd_destroyed, 2);
	KUNIT_EXPECT_EQ(test, ku_fd_why, RDMA_REMOVE_DRIVER_REMOVE);
	KUNIT_EXPECT_EQ(test, close_fd(fd), 0);
	flush_delayed_fput();
	KUNIT_EXPECT_EQ(test, ku_fd_destroyed, 2);
	KUNIT_EXPECT_EQ(test, kref_read(&e->file.ref), 1U);
}

static struct kunit_case rdma_uverbs_ioctl_cases[] = {
	KUNIT_CASE(uverbs_ioctl_tree),
	KUNIT_CASE(uverbs_ioctl_header),
	KUNIT_CASE(uverbs_ioctl_attrs),
	KUNIT_CASE(uverbs_ioctl_objects),
	KUNIT_CASE(uverbs_ioctl_alloc),
	KUNIT_CASE(uverbs_ioctl_fd_objects),
	{}
};

static struct kunit_suite rdma_uverbs_ioctl_suite = {
	.name = "rdma_uverbs_ioctl",
	.init = rdma_uverbs_ioctl_init,
	.exit = rdma_uverbs_ioctl_exit,
	.test_cases = rdma_uverbs_ioctl_cases,
};

kunit_test_suite(rdma_uverbs_ioctl_suite);

MODULE_DESCRIPTION("KUnit tests of the verbs ioctl's tree and parser");
MODULE_LICENSE("Dual BSD/GPL");
