// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The verbs ioctl (RDMA_VERBS_IOCTL): the header and the attributes are
 * checked against the method's specs in the device's tree
 * (uverbs_uapi.c), the objects they name are looked up and held (or,
 * UVERBS_ACCESS_NEW, created), the handler runs, and then every object
 * is let go: a new one committed if the method succeeded, aborted if
 * not.  The rules and errnos are upstream's:
 *
 *  - header: length past PAGE_SIZE or not that of num_attrs attributes,
 *    -EINVAL; a reserved field set, -EPROTONOSUPPORT; another driver's
 *    ID, -EINVAL; an object or method the device lacks (or has
 *    disabled), -EPROTONOSUPPORT;
 *  - an attribute the method does not know: ignored, or with
 *    UVERBS_ATTR_F_MANDATORY -EPROTONOSUPPORT; the same one twice,
 *    -EINVAL; a mandatory one missing, -EINVAL;
 *  - a PTR attribute shorter than its spec's minimum or longer than its
 *    size, -EINVAL, except that an extensible one (zero_trailing) may be
 *    longer if the excess is zero (else -EOPNOTSUPP); reserved bits set,
 *    -EINVAL; an ENUM_IN's element past its specs, -EOPNOTSUPP;
 *  - IDR and FD attributes carry no length; their errors are the
 *    lookup's (uverbs_uobj.c);
 *  - the user's memory unreadable or unwritable, -EFAULT.
 *
 * A value of 8 bytes or less travels inline in the attribute's data;
 * a longer one is a user pointer.  The bundle, its attributes and small
 * allocations (uverbs_alloc()) live on the stack when they fit, else in
 * one allocation, and larger allocations are chained to it.
 */
#include <kunit/visibility.h>
#include <linux/fs.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "uverbs_priv.h"

/* The bytes of attributes and allocations a method gets on the stack */
#define UVERBS_STACK_BYTES	384

/* A larger allocation of a method, freed when it ends */
struct uverbs_alloc_chunk {
	struct uverbs_alloc_chunk *next;
	u64 data[];
};

/*
 * A method on its way: the parser's state, then the bundle the handler
 * gets, whose attrs[] are the start of @buf.
 */
struct uverbs_ioctl_bundle {
	const struct uverbs_api_ioctl_method *method;
	struct ib_uverbs_attr __user *user_attrs;
	struct ib_uverbs_attr *uattrs;
	struct uverbs_alloc_chunk *chunks;
	size_t used;
	size_t avail;
	/* slots holding an object to let go */
	DECLARE_BITMAP(uobj_finalize, UVERBS_API_ATTR_BKEY_LEN);
	/* slots holding an array of objects */
	DECLARE_BITMAP(arr_finalize, UVERBS_API_ATTR_BKEY_LEN);
	/* new objects whose verbs object the handler made */
	DECLARE_BITMAP(hw_valid, UVERBS_API_ATTR_BKEY_LEN);
	struct uverbs_attr_bundle_hdr bundle;
	u64 buf[];
};

static_assert(offsetof(struct uverbs_ioctl_bundle, buf) ==
	      offsetof(struct uverbs_ioctl_bundle, bundle) +
	      offsetof(struct uverbs_attr_bundle, attrs));

/* The stack's: the state, then UVERBS_STACK_BYTES */
struct uverbs_ioctl_stack {
	struct uverbs_ioctl_bundle b;
	u64 space[UVERBS_STACK_BYTES / sizeof(u64)];
};

static struct uverbs_ioctl_bundle *
uverbs_priv(const struct uverbs_attr_bundle *bundle)
{
	return container_of((struct uverbs_attr_bundle_hdr *)&bundle->hdr,
			    struct uverbs_ioctl_bundle, bundle);
}

static struct uverbs_attr_bundle *uverbs_pub(struct uverbs_ioctl_bundle *pb)
{
	return container_of(&pb->bundle, struct uverbs_attr_bundle, hdr);
}

/**
 * _uverbs_alloc - memory for the length of a method
 * @bundle: the method's bundle (ioctl methods only)
 * @size: bytes
 * @flags: GFP flags; __GFP_ZERO zeroes it
 *
 * Freed when the method ends, and no other way.
 *
 * Context: process context, a method's handler.
 * Return: the memory, or ERR_PTR(-ENOMEM) or ERR_PTR(-EOVERFLOW).
 */
__malloc void *_uverbs_alloc(struct uverbs_attr_bundle *bundle, size_t size,
			     gfp_t flags)
{
	struct uverbs_ioctl_bundle *pb = uverbs_priv(bundle);
	struct uverbs_alloc_chunk *c;
	size_t end;
	void *p;

	if (check_add_overflow(pb->used, size, &end))
		return ERR_PTR(-EOVERFLOW);
	if (end <= pb->avail) {
		p = (u8 *)pb->buf + pb->used;
		pb->used = ALIGN(end, sizeof(u64));
		if (want_init_on_alloc(flags))
			memset(p, 0, size);
		return p;
	}
	c = kvmalloc(struct_size(c, data, DIV_ROUND_UP(size, sizeof(u64))),
		     flags);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->next = pb->chunks;
	pb->chunks = c;
	return c->data;
}
EXPORT_SYMBOL(_uverbs_alloc);

/* Tell user space an output attribute was written. */
static int uverbs_set_output(const struct uverbs_attr_bundle *bundle,
			     const struct uverbs_attr *attr)
{
	struct uverbs_ioctl_bundle *pb = uverbs_priv(bundle);
	u16 idx = attr->ptr_attr.uattr_idx;
	u16 flags = pb->uattrs[idx].flags | UVERBS_ATTR_F_VALID_OUTPUT;

	return put_user(flags, &pb->user_attrs[idx].flags) ? -EFAULT : 0;
}

/**
 * uverbs_copy_to - write an output attribute
 * @bundle: the method
 * @idx: the attribute's ID
 * @from: the value
 * @size: its size; user space gets as much as its buffer takes
 *
 * Context: a method's handler.
 * Return: 0, -ENOENT when the attribute is absent, -EFAULT.
 */
int uverbs_copy_to(const struct uverbs_attr_bundle *bundle, size_t idx,
		   const void *from, size_t size)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);
	size_t n;

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	n = min_t(size_t, attr->ptr_attr.len, size);
	if (copy_to_user(u64_to_user_ptr(attr->ptr_attr.data), from, n))
		return -EFAULT;
	return uverbs_set_output(bundle, attr);
}
EXPORT_SYMBOL(uverbs_copy_to);

/**
 * uverbs_copy_to_struct_or_zero - write an output structure, zeroing what
 *	the user's buffer has past it
 * @bundle: the method
 * @idx: the attribute's ID
 * @from: the structure
 * @size: its size
 *
 * Context: a method's handler.
 * Return: as uverbs_copy_to().
 */
int uverbs_copy_to_struct_or_zero(const struct uverbs_attr_bundle *bundle,
				  size_t idx, const void *from, size_t size)
{
	const struct uverbs_attr *attr = uverbs_attr_get(bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	if (attr->ptr_attr.len > size &&
	    clear_user(u64_to_user_ptr(attr->ptr_attr.data) + size,
		       attr->ptr_attr.len - size))
		return -EFAULT;
	return uverbs_copy_to(bundle, idx, from, size);
}
EXPORT_SYMBOL(uverbs_copy_to_struct_or_zero);

/**
 * uverbs_get_flags64 - a FLAGS_IN attribute
 * @to: the flags; 0 when the attribute is absent
 * @attrs_bundle: the method
 * @idx: the attribute's ID
 * @allowed_bits: the flags the method knows
 *
 * User space may send 4 or 8 bytes.
 *
 * Context: a method's handler.
 * Return: 0, or -EINVAL for another size or a flag not allowed.
 */
int uverbs_get_flags64(u64 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);
	u64 flags;

	if (IS_ERR(attr)) {
		*to = 0;
		return 0;
	}
	if (attr->ptr_attr.len == sizeof(u64))
		flags = attr->ptr_attr.data;
	else if (attr->ptr_attr.len == sizeof(u32))
		flags = *(const u32 *)&attr->ptr_attr.data;
	else
		return -EINVAL;
	if (flags & ~allowed_bits)
		return -EINVAL;
	*to = flags;
	return 0;
}
EXPORT_SYMBOL(uverbs_get_flags64);

/**
 * uverbs_get_flags32 - a FLAGS_IN attribute that fits 32 bits
 * @to: the flags; 0 when the attribute is absent
 * @attrs_bundle: the method
 * @idx: the attribute's ID
 * @allowed_bits: the flags the method knows
 *
 * Context: a method's handler.
 * Return: as uverbs_get_flags64().
 */
int uverbs_get_flags32(u32 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits)
{
	u64 flags;
	int ret;

	ret = uverbs_get_flags64(&flags, attrs_bundle, idx, allowed_bits);
	if (ret)
		return ret;
	if (flags > U32_MAX)
		return -EINVAL;
	*to = flags;
	return 0;
}
EXPORT_SYMBOL(uverbs_get_flags32);

/**
 * _uverbs_get_const_signed - a CONST_IN attribute, signed
 * @to: its value
 * @attrs_bundle: the method
 * @idx: the attribute's ID
 * @lower_bound: the least value the caller's type takes
 * @upper_bound: the most
 * @def_val: the value when the attribute is absent, or NULL
 *
 * Context: a method's handler.
 * Return: 0, -ENOENT when absent without a default, -EINVAL out of bounds.
 */
int _uverbs_get_const_signed(s64 *to,
			     const struct uverbs_attr_bundle *attrs_bundle,
			     size_t idx, s64 lower_bound, u64 upper_bound,
			     s64 *def_val)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr)) {
		if (PTR_ERR(attr) != -ENOENT || !def_val)
			return PTR_ERR(attr);
		*to = *def_val;
	} else {
		*to = attr->ptr_attr.data;
	}
	if (*to < lower_bound || (*to > 0 && (u64)*to > upper_bound))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL(_uverbs_get_const_signed);

/**
 * _uverbs_get_const_unsigned - a CONST_IN attribute, unsigned
 * @to: its value
 * @attrs_bundle: the method
 * @idx: the attribute's ID
 * @upper_bound: the most the caller's type takes
 * @def_val: the value when the attribute is absent, or NULL
 *
 * Context: a method's handler.
 * Return: as _uverbs_get_const_signed().
 */
int _uverbs_get_const_unsigned(u64 *to,
			       const struct uverbs_attr_bundle *attrs_bundle,
			       size_t idx, u64 upper_bound, u64 *def_val)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr)) {
		if (PTR_ERR(attr) != -ENOENT || !def_val)
			return PTR_ERR(attr);
		*to = *def_val;
	} else {
		*to = attr->ptr_attr.data;
	}
	if (*to > upper_bound)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL(_uverbs_get_const_unsigned);

/**
 * uverbs_finalize_uobj_create - a NEW object's verbs object exists
 * @attrs_bundle: the method
 * @idx: the NEW attribute's ID
 *
 * If the method fails after this, the abort destroys the verbs object
 * (RDMA_REMOVE_ABORT) with the handle.
 *
 * Context: a method's handler.
 */
void uverbs_finalize_uobj_create(const struct uverbs_attr_bundle *attrs_bundle,
				 u16 idx)
{
	unsigned int slot = uverbs_attr_slot(idx);

	if (!WARN_ON(slot >= UVERBS_API_ATTR_BKEY_LEN))
		__set_bit(slot, uverbs_priv(attrs_bundle)->hw_valid);
}
EXPORT_SYMBOL(uverbs_finalize_uobj_create);

/**
 * uverbs_destroy_def_handler - the handler of a plain destroy method
 * @attrs: the method; the core destroyed its object already
 *
 * Context: a method's handler.
 * Return: 0.
 */
int uverbs_destroy_def_handler(struct uverbs_attr_bundle *attrs)
{
	return 0;
}
EXPORT_SYMBOL(uverbs_destroy_def_handler);

/* The object of @obj_type named by @id, held or created as @access says. */
static struct ib_uobject *uverbs_get_uobject(u16 obj_type, u8 access, s64 id,
					     struct uverbs_attr_bundle *bundle)
{
	const struct uverbs_api_object *obj = uverbs_uapi_object(bundle,
								  obj_type);
	static const enum rdma_lookup_mode modes[] = {
		[UVERBS_ACCESS_READ] = UVERBS_LOOKUP_READ,
		[UVERBS_ACCESS_WRITE] = UVERBS_LOOKUP_WRITE,
		[UVERBS_ACCESS_DESTROY] = UVERBS_LOOKUP_DESTROY,
	};

	if (access == UVERBS_ACCESS_NEW)
		return rdma_alloc_begin_uobject(obj, bundle);
	return rdma_lookup_get_uobject(obj, bundle->ufile, id, modes[access],
				       bundle);
}

/* Let go of an object as its access says; commit or abort a new one. */
static void uverbs_finalize_object(struct ib_uobject *uobj, u8 access,
				   bool hw_valid, bool commit,
				   struct uverbs_attr_bundle *bundle)
{
	switch (access) {
	case UVERBS_ACCESS_READ:
		rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_READ);
		break;
	case UVERBS_ACCESS_WRITE:
		rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_WRITE);
		break;
	case UVERBS_ACCESS_DESTROY:
		rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_DESTROY);
		break;
	case UVERBS_ACCESS_NEW:
		if (commit)
			rdma_alloc_commit_uobject(uobj, bundle);
		else
			rdma_alloc_abort_uobject(uobj, bundle, hw_valid);
		break;
	default:
		WARN_ON(1);
	}
}

/* The excess of a zero_trailing PTR_IN past @len is zero. */
static bool uverbs_attr_tail_zero(const struct ib_uverbs_attr *uattr, u16 len)
{
	if (uattr->len > sizeof(uattr->data))
		return ib_is_buffer_cleared(u64_to_user_ptr(uattr->data) + len,
					    uattr->len - len);
	return !memchr_inv((const u8 *)&uattr->data + len, 0,
			   uattr->len - len);
}

static int uverbs_process_idrs_array(struct uverbs_ioctl_bundle *pb,
				     const struct uverbs_attr_spec *spec,
				     struct uverbs_objs_arr_attr *arr,
				     const struct ib_uverbs_attr *uattr,
				     unsigned int slot)
{
	struct uverbs_attr_bundle *bundle = uverbs_pub(pb);
	size_t n, i;
	u32 *ids;
	int ret = 0;

	if (uattr->attr_data.reserved || uattr->len % sizeof(u32))
		return -EINVAL;
	n = uattr->len / sizeof(u32);
	if (n < spec->u2.objs_arr.min_len || n > spec->u2.objs_arr.max_len)
		return -EINVAL;
	arr->uobjects = uverbs_alloc(bundle, array_size(n, sizeof(void *)));
	if (IS_ERR(arr->uobjects))
		return PTR_ERR(arr->uobjects);
	/* the handles are read into the tail of the pointer array */
	ids = (u32 *)(arr->uobjects + n) - n;
	if (uattr->len > sizeof(uattr->data)) {
		if (copy_from_user(ids, u64_to_user_ptr(uattr->data),
				   uattr->len))
			return -EFAULT;
	} else {
		memcpy(ids, &uattr->data, uattr->len);
	}
	for (i = 0; i < n; i++) {
		struct ib_uobject *uobj;

		uobj = uverbs_get_uobject(spec->u2.objs_arr.obj_type,
					  spec->u2.objs_arr.access, ids[i],
					  bundle);
		if (IS_ERR(uobj)) {
			ret = PTR_ERR(uobj);
			break;
		}
		arr->uobjects[i] = uobj;
	}
	arr->len = i;
	__set_bit(slot, pb->arr_finalize);
	return ret;
}

static int uverbs_process_attr(struct uverbs_ioctl_bundle *pb,
			       const struct uverbs_api_attr *elm,
			       const struct ib_uverbs_attr *uattr,
			       unsigned int slot)
{
	const struct uverbs_attr_spec *spec = &elm->spec;
	const struct uverbs_attr_spec *val = spec;
	struct uverbs_attr_bundle *bundle = uverbs_pub(pb);
	struct uverbs_attr *e = &bundle->attrs[slot];
	unsigned int uidx = uattr - pb->uattrs;
	struct ib_uobject *uobj;

	switch (spec->type) {
	case UVERBS_ATTR_TYPE_ENUM_IN:
		if (uattr->attr_data.enum_data.elem_id >=
		    spec->u.enum_def.num_elems)
			return -EOPNOTSUPP;
		if (uattr->attr_data.enum_data.reserved)
			return -EINVAL;
		val = &spec->u2.enum_def.ids[uattr->attr_data.enum_data.elem_id];
		if (val->type != UVERBS_ATTR_TYPE_PTR_IN)
			return -EOPNOTSUPP;
		e->ptr_attr.enum_id = uattr->attr_data.enum_data.elem_id;
		fallthrough;
	case UVERBS_ATTR_TYPE_PTR_IN:
		/* more than we know must be zero to be ignored */
		if (uattr->len > val->u.ptr.len && val->zero_trailing &&
		    !uverbs_attr_tail_zero(uattr, val->u.ptr.len))
			return -EOPNOTSUPP;
		fallthrough;
	case UVERBS_ATTR_TYPE_PTR_OUT:
		if (uattr->len < val->u.ptr.min_len ||
		    (!val->zero_trailing && uattr->len > val->u.ptr.len))
			return -EINVAL;
		if (spec->type != UVERBS_ATTR_TYPE_ENUM_IN &&
		    uattr->attr_data.reserved)
			return -EINVAL;
		e->ptr_attr.uattr_idx = uidx;
		e->ptr_attr.len = uattr->len;
		if (val->alloc_and_copy && !uverbs_attr_ptr_is_inline(e)) {
			void *p = uverbs_alloc(bundle, uattr->len);

			if (IS_ERR(p))
				return PTR_ERR(p);
			e->ptr_attr.ptr = p;
			if (copy_from_user(p, u64_to_user_ptr(uattr->data),
					   uattr->len))
				return -EFAULT;
		} else {
			e->ptr_attr.data = uattr->data;
		}
		return 0;

	case UVERBS_ATTR_TYPE_IDR:
	case UVERBS_ATTR_TYPE_FD:
		if (uattr->attr_data.reserved || uattr->len)
			return -EINVAL;
		e->obj_attr.attr_elm = elm;
		/* handles are never negative: data_s64 serves both */
		uobj = uverbs_get_uobject(spec->u.obj.obj_type,
					  spec->u.obj.access, uattr->data_s64,
					  bundle);
		if (IS_ERR(uobj))
			return PTR_ERR(uobj);
		e->obj_attr.uobject = uobj;
		__set_bit(slot, pb->uobj_finalize);
		if (spec->u.obj.access == UVERBS_ACCESS_NEW) {
			s64 id = uobj->id;

			/* the new handle (or fd) back to user space */
			if (put_user(id, &pb->user_attrs[uidx].data_s64))
				return -EFAULT;
		}
		return 0;

	case UVERBS_ATTR_TYPE_RAW_FD:
		if (uattr->attr_data.reserved || uattr->len ||
		    uattr->data_s64 < INT_MIN || uattr->data_s64 > INT_MAX)
			return -EINVAL;
		e->ptr_attr.data = uattr->data_s64;
		return 0;

	case UVERBS_ATTR_TYPE_IDRS_ARRAY:
		return uverbs_process_idrs_array(pb, spec, &e->objs_arr_attr,
						 uattr, slot);
	default:
		return -EOPNOTSUPP;
	}
}

static int uverbs_set_attr(struct uverbs_ioctl_bundle *pb,
			   const struct ib_uverbs_attr *uattr)
{
	unsigned int slot = uverbs_attr_slot(uattr->attr_id);
	const struct uverbs_api_attr *elm = NULL;
	int ret;

	if (slot < UVERBS_API_ATTR_BKEY_LEN)
		elm = pb->method->attrs[slot];
	if (!elm)
		/* unknown: fine unless user space cannot do without it */
		return uattr->flags & UVERBS_ATTR_F_MANDATORY ?
		       -EPROTONOSUPPORT : 0;
	if (test_bit(slot, pb->bundle.attr_present))
		return -EINVAL;
	ret = uverbs_process_attr(pb, elm, uattr, slot);
	if (ret)
		return ret;
	__set_bit(slot, pb->bundle.attr_present);
	return 0;
}

/* @udata from a pair of PTR attributes, either absent. */
static void uverbs_fill_udata(struct uverbs_ioctl_bundle *pb,
			      struct ib_udata *udata, u16 in_id, u16 out_id)
{
	struct uverbs_attr_bundle *bundle = uverbs_pub(pb);
	const struct uverbs_attr *in = uverbs_attr_get(bundle, in_id);
	const struct uverbs_attr *out = uverbs_attr_get(bundle, out_id);

	memset(udata, 0, sizeof(*udata));
	if (!IS_ERR(in)) {
		udata->inlen = in->ptr_attr.len;
		/* inline: the user's own copy, in its attribute */
		if (uverbs_attr_ptr_is_inline(in))
			udata->inbuf =
				&pb->user_attrs[in->ptr_attr.uattr_idx].data;
		else
			udata->inbuf = u64_to_user_ptr(in->ptr_attr.data);
	}
	if (!IS_ERR(out)) {
		udata->outbuf = u64_to_user_ptr(out->ptr_attr.data);
		udata->outlen = out->ptr_attr.len;
	}
}

/**
 * uverbs_fill_ucore - the core's buffers of INVOKE_WRITE
 * @bundle: the method
 *
 * Context: INVOKE_WRITE's handler.
 */
void uverbs_fill_ucore(struct uverbs_attr_bundle *bundle)
{
	uverbs_fill_udata(uverbs_priv(bundle), &bundle->ucore,
			  UVERBS_ATTR_CORE_IN, UVERBS_ATTR_CORE_OUT);
}

static int uverbs_run_method(struct uverbs_ioctl_bundle *pb, u16 num_attrs)
{
	const struct uverbs_api_ioctl_method *m = pb->method;
	struct uverbs_attr_bundle *bundle = uverbs_pub(pb);
	size_t len = array_size(num_attrs, sizeof(*pb->uattrs));
	unsigned int i;
	int ret;

	pb->uattrs = uverbs_alloc(bundle, len);
	if (IS_ERR(pb->uattrs))
		return PTR_ERR(pb->uattrs);
	if (copy_from_user(pb->uattrs, pb->user_attrs, len))
		return -EFAULT;
	for (i = 0; i < num_attrs; i++) {
		ret = uverbs_set_attr(pb, &pb->uattrs[i]);
		if (ret)
			return ret;
	}
	if (!bitmap_subset(m->attr_mandatory, pb->bundle.attr_present,
			   UVERBS_API_ATTR_BKEY_LEN))
		return -EINVAL;
	if (m->has_udata)
		uverbs_fill_udata(pb, &pb->bundle.driver_udata,
				  UVERBS_ATTR_UHW_IN, UVERBS_ATTR_UHW_OUT);

	if (m->destroy_slot < UVERBS_API_ATTR_BKEY_LEN) {
		struct ib_uobject *uobj =
			bundle->attrs[m->destroy_slot].obj_attr.uobject;

		/* the handler reads what the object leaves (event counts) */
		ret = uverbs_uobj_destroy(bundle, uobj);
		if (ret)
			return ret;
	}
	ret = m->handler(bundle);

	/* the driver may have written its output: say so */
	if (!ret && m->has_udata) {
		const struct uverbs_attr *out =
			uverbs_attr_get(bundle, UVERBS_ATTR_UHW_OUT);

		if (!IS_ERR(out))
			ret = uverbs_set_output(bundle, out);
	}
	/* only the framework answers "not supported" (libibverbs' fallback) */
	if (WARN_ON_ONCE(ret == -EPROTONOSUPPORT))
		ret = -EINVAL;
	return ret;
}

/* Let go of every object; free the allocations. */
static void uverbs_bundle_finish(struct uverbs_ioctl_bundle *pb, bool commit)
{
	struct uverbs_attr_bundle *bundle = uverbs_pub(pb);
	struct uverbs_alloc_chunk *c;
	unsigned int i, j;

	for_each_set_bit(i, pb->uobj_finalize, UVERBS_API_ATTR_BKEY_LEN) {
		struct uverbs_obj_attr *o = &bundle->attrs[i].obj_attr;

		uverbs_finalize_object(o->uobject,
				       o->attr_elm->spec.u.obj.access,
				       test_bit(i, pb->hw_valid), commit,
				       bundle);
	}
	for_each_set_bit(i, pb->arr_finalize, UVERBS_API_ATTR_BKEY_LEN) {
		struct uverbs_objs_arr_attr *a = &bundle->attrs[i].objs_arr_attr;
		u8 access = pb->method->attrs[i]->spec.u2.objs_arr.access;

		for (j = 0; j < a->len; j++)
			uverbs_finalize_object(a->uobjects[j], access, false,
					       commit, bundle);
	}
	while ((c = pb->chunks)) {
		pb->chunks = c->next;
		kvfree(c);
	}
}

/**
 * uverbs_ioctl_run - one verbs ioctl on a file
 * @file: the file
 * @uapi: its device's methods
 * @uhdr: the user's header, its attributes after it
 *
 * Context: process context; the device's SRCU read side held.
 * Return: the method's answer, or the parser's errno.
 */
VISIBLE_IF_KUNIT int uverbs_ioctl_run(struct ib_uverbs_file *file,
				      struct uverbs_api *uapi,
				      struct ib_uverbs_ioctl_hdr __user *uhdr)
{
	const struct uverbs_api_ioctl_method *m;
	struct uverbs_ioctl_stack onstack;
	struct uverbs_ioctl_bundle *pb;
	struct ib_uverbs_ioctl_hdr hdr;
	size_t need;
	int ret;

	if (copy_from_user(&hdr, uhdr, sizeof(hdr)))
		return -EFAULT;
	if (hdr.length > PAGE_SIZE ||
	    hdr.length != struct_size(&hdr, attrs, hdr.num_attrs))
		return -EINVAL;
	if (hdr.reserved1 || hdr.reserved2)
		return -EPROTONOSUPPORT;
	if (hdr.driver_id != uapi->driver_id)
		return -EINVAL;
	m = xa_load(&uapi->methods,
		    uverbs_method_key(hdr.object_id, hdr.method_id));
	if (!m || m->disabled)
		return -EPROTONOSUPPORT;

	/* the attributes by slot, the user's copy, a little more */
	need = m->slots * sizeof(struct uverbs_attr) +
	       hdr.num_attrs * sizeof(struct ib_uverbs_attr) + 64;
	if (need <= sizeof(onstack.space)) {
		pb = &onstack.b;
		pb->avail = sizeof(onstack.space);
	} else {
		pb = kmalloc(struct_size(pb, buf, DIV_ROUND_UP(need, 8)),
			     GFP_KERNEL);
		if (!pb)
			return -ENOMEM;
		pb->avail = DIV_ROUND_UP(need, 8) * 8;
	}
	pb->method = m;
	pb->user_attrs = uhdr->attrs;
	pb->uattrs = NULL;
	pb->chunks = NULL;
	pb->used = m->slots * sizeof(struct uverbs_attr);
	bitmap_zero(pb->uobj_finalize, UVERBS_API_ATTR_BKEY_LEN);
	bitmap_zero(pb->arr_finalize, UVERBS_API_ATTR_BKEY_LEN);
	bitmap_zero(pb->hw_valid, UVERBS_API_ATTR_BKEY_LEN);
	memset(&pb->bundle, 0, sizeof(pb->bundle));
	pb->bundle.ufile = file;

	ret = uverbs_run_method(pb, hdr.num_attrs);
	uverbs_bundle_finish(pb, ret == 0);
	if (pb != &onstack.b)
		kfree(pb);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_ioctl_run);

/**
 * uverbs_ioctl - the ioctl() of uverbsN
 * @filp: the file
 * @cmd: RDMA_VERBS_IOCTL (others: -ENOTTY)
 * @arg: the user's struct ib_uverbs_ioctl_hdr
 *
 * Context: process context.
 * Return: as uverbs_ioctl_run(); -EIO once the device went away.
 */
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct ib_uverbs_file *file = filp->private_data;
	struct uverbs_device *udev = file->device;
	long ret;
	int idx;

	if (cmd != RDMA_VERBS_IOCTL)
		return -ENOIOCTLCMD;
	idx = srcu_read_lock(&udev->disassociate_srcu);
	if (!uverbs_file_ib_dev(file) || READ_ONCE(file->disassociated))
		ret = -EIO;
	else
		ret = uverbs_ioctl_run(file, udev->uapi, (void __user *)arg);
	srcu_read_unlock(&udev->disassociate_srcu, idx);
	return ret;
}
