/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The verbs ioctl as ib_uverbs and drivers see it: how a method and its
 * attributes are declared (struct uverbs_attr_spec, the UVERBS_ATTR_*
 * and DECLARE_UVERBS_* macros, struct uapi_definition), and what a
 * method's handler gets (struct uverbs_attr_bundle and its accessors).
 * The write() commands run on a bundle too, with ucore and driver_udata
 * only.  Documentation/core/uverbs.rst, "The ioctl path".
 */
#ifndef RDMA_UVERBS_IOCTL_H
#define RDMA_UVERBS_IOCTL_H

#include <linux/bitops.h>
#include <linux/overflow.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_types.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>

/* What an attribute carries */
enum uverbs_attr_type {
	UVERBS_ATTR_TYPE_NA,
	UVERBS_ATTR_TYPE_PTR_IN,	/* bytes from user space */
	UVERBS_ATTR_TYPE_PTR_OUT,	/* bytes to user space */
	UVERBS_ATTR_TYPE_IDR,		/* an object by handle */
	UVERBS_ATTR_TYPE_FD,		/* an object by file descriptor */
	UVERBS_ATTR_TYPE_RAW_FD,	/* a file descriptor, not looked up */
	UVERBS_ATTR_TYPE_ENUM_IN,	/* one of several PTR_IN specs */
	UVERBS_ATTR_TYPE_IDRS_ARRAY,	/* an array of handles */
};

/* What a method does with an object attribute */
enum uverbs_obj_access {
	UVERBS_ACCESS_READ,	/* uses it, shared */
	UVERBS_ACCESS_WRITE,	/* changes it, exclusive */
	UVERBS_ACCESS_NEW,	/* creates it: committed if the method succeeds */
	UVERBS_ACCESS_DESTROY	/* destroys it before the handler runs */
};

/**
 * struct uverbs_attr_spec - one attribute of a method
 * @type: enum uverbs_attr_type
 * @zero_trailing: (PTR_IN) user space may send more than @u.ptr.len
 *	bytes if the excess is zero
 * @alloc_and_copy: (PTR_IN) the parser copies the data into the bundle
 * @mandatory: the method fails without it
 * @is_udata: UVERBS_ATTR_UHW's (the driver's data)
 * @u: @u.ptr: the size this kernel knows and the least it takes;
 *	@u.obj: the object type (UVERBS_IDR_ANY_OBJECT for any) and
 *	access; @u.enum_def: the number of specs in @u2.enum_def.ids
 * @u2: @u2.enum_def.ids: an ENUM_IN's specs; @u2.objs_arr: an
 *	IDRS_ARRAY's object type, access and least and most entries
 */
struct uverbs_attr_spec {
	u8 type;
	u8 zero_trailing:1;
	u8 alloc_and_copy:1;
	u8 mandatory:1;
	u8 is_udata:1;

	union {
		struct {
			u16 len;
			u16 min_len;
		} ptr;
		struct {
			u16 obj_type;
			u8 access;
		} obj;
		struct {
			u8 num_elems;
		} enum_def;
	} u;

	union {
		struct {
			const struct uverbs_attr_spec *ids;
		} enum_def;
		struct {
			u16 obj_type;
			u16 min_len;
			u16 max_len;
			u8 access;
		} objs_arr;
	} u2;
};

/*
 * Attribute IDs: the core's (0..31) and a driver's (UVERBS_API_NS_FLAG
 * | 0..31) share one array of 64 slots in the bundle, interleaved
 * (the core's at even slots): the IDs in use are small in both, so a
 * method's slots stay few.
 */
#define UVERBS_API_NS_FLAG		BIT(UVERBS_ID_NS_SHIFT)
#define UVERBS_API_ATTR_KEY_BITS	6
#define UVERBS_API_ATTR_BKEY_LEN	BIT(UVERBS_API_ATTR_KEY_BITS)

/**
 * uverbs_attr_slot - where an attribute ID lives in a bundle
 * @id: the attribute's ID
 *
 * Context: any.
 * Return: its slot, or UVERBS_API_ATTR_BKEY_LEN for an ID no method can
 * have.
 */
static inline __attribute_const__ unsigned int uverbs_attr_slot(u32 id)
{
	u32 n = id & ~UVERBS_API_NS_FLAG;

	if (id > U16_MAX || n >= UVERBS_API_ATTR_BKEY_LEN / 2)
		return UVERBS_API_ATTR_BKEY_LEN;
	return n * 2 + !!(id & UVERBS_API_NS_FLAG);
}

/**
 * struct uverbs_attr_def - an attribute of a method definition
 * @id: its ID
 * @attr: its spec
 */
struct uverbs_attr_def {
	u16 id;
	struct uverbs_attr_spec attr;
};

/**
 * struct uverbs_method_def - a method definition
 * @id: its ID within its object
 * @flags: none are defined
 * @num_attrs: entries of @attrs
 * @attrs: its attributes
 * @handler: runs it; NULL in a definition that only adds attributes to a
 *	method defined elsewhere
 */
struct uverbs_method_def {
	u16 id;
	u32 flags;
	size_t num_attrs;
	const struct uverbs_attr_def * const (*attrs)[];
	int (*handler)(struct uverbs_attr_bundle *attrs);
};

/**
 * struct uverbs_object_def - an object definition
 * @id: its ID
 * @type_attrs: its type, NULL for methods without instances
 * @num_methods: entries of @methods
 * @methods: its methods
 */
struct uverbs_object_def {
	u16 id;
	const struct uverbs_obj_type *type_attrs;
	size_t num_methods;
	const struct uverbs_method_def * const (*methods)[];
};

enum uapi_definition_kind {
	UAPI_DEF_END = 0,
	UAPI_DEF_OBJECT_START,
	UAPI_DEF_WRITE,
	UAPI_DEF_CHAIN_OBJ_TREE,
	UAPI_DEF_CHAIN,
	UAPI_DEF_IS_SUPPORTED_FUNC,
	UAPI_DEF_IS_SUPPORTED_DEV_FN,
};

enum uapi_definition_scope {
	UAPI_SCOPE_OBJECT = 1,
	UAPI_SCOPE_METHOD = 2,
};

/**
 * struct uapi_definition - one entry of a list that describes a device's
 *	user API: objects, their write() commands, chained object trees
 *	and the conditions under which they exist
 * @kind: enum uapi_definition_kind
 * @scope: what a condition applies to: enum uapi_definition_scope
 * @object_start: the object that the entries after it are about
 * @write: a write() command's number and sizes
 * @func_is_supported: UAPI_DEF_IS_SUPPORTED_FUNC's test
 * @func_write: a write() command's handler
 * @chain: UAPI_DEF_CHAIN's list
 * @chain_obj_tree: UAPI_DEF_CHAIN_OBJ_TREE's object
 * @needs_fn_offset: UAPI_DEF_IS_SUPPORTED_DEV_FN's member of struct
 *	ib_device_ops that must be set
 */
struct uapi_definition {
	u8 kind;
	u8 scope;
	union {
		struct {
			u16 object_id;
		} object_start;
		struct {
			u16 command_num;
			u8 is_ex:1;
			u8 has_udata:1;
			u8 has_resp:1;
			u8 req_size;
			u8 resp_size;
		} write;
	};

	union {
		bool (*func_is_supported)(struct ib_device *device);
		int (*func_write)(struct uverbs_attr_bundle *attrs);
		const struct uapi_definition *chain;
		const struct uverbs_object_def *chain_obj_tree;
		size_t needs_fn_offset;
	};
};

/* The entries after it are about @_object_id */
#define DECLARE_UVERBS_OBJECT(_object_id, ...)				       \
	{								       \
		.kind = UAPI_DEF_OBJECT_START,				       \
		.object_start = { .object_id = _object_id },		       \
	},								       \
	##__VA_ARGS__

/* A write() command of the object (in DECLARE_UVERBS_OBJECT's list) */
#define DECLARE_UVERBS_WRITE(_command_num, _func, _cmd_desc, ...)	       \
	{								       \
		.kind = UAPI_DEF_WRITE,					       \
		.scope = UAPI_SCOPE_OBJECT,				       \
		.write = { .is_ex = 0, .command_num = _command_num },	       \
		.func_write = _func,					       \
		_cmd_desc,						       \
	},								       \
	##__VA_ARGS__

/* An extended write() command of the object */
#define DECLARE_UVERBS_WRITE_EX(_command_num, _func, _cmd_desc, ...)	       \
	{								       \
		.kind = UAPI_DEF_WRITE,					       \
		.scope = UAPI_SCOPE_OBJECT,				       \
		.write = { .is_ex = 1, .command_num = _command_num },	       \
		.func_write = _func,					       \
		_cmd_desc,						       \
	},								       \
	##__VA_ARGS__

/* 0, or a compile error unless @ibdev_fn is a pointer of ib_device_ops */
#define _UAPI_DEF_DEV_FN_OFFSET(ibdev_fn)				       \
	(offsetof(struct ib_device_ops, ibdev_fn) +			       \
	 BUILD_BUG_ON_ZERO(sizeof_field(struct ib_device_ops, ibdev_fn) !=     \
			   sizeof(void *)))

/* The object exists only where the driver has @ibdev_fn */
#define UAPI_DEF_OBJ_NEEDS_FN(ibdev_fn)					       \
	{								       \
		.kind = UAPI_DEF_IS_SUPPORTED_DEV_FN,			       \
		.scope = UAPI_SCOPE_OBJECT,				       \
		.needs_fn_offset = _UAPI_DEF_DEV_FN_OFFSET(ibdev_fn),	       \
	}

/* The method (or write() command) before it needs @ibdev_fn */
#define UAPI_DEF_METHOD_NEEDS_FN(ibdev_fn)				       \
	{								       \
		.kind = UAPI_DEF_IS_SUPPORTED_DEV_FN,			       \
		.scope = UAPI_SCOPE_METHOD,				       \
		.needs_fn_offset = _UAPI_DEF_DEV_FN_OFFSET(ibdev_fn),	       \
	}

/* The object exists only where @_func(device) says so */
#define UAPI_DEF_IS_OBJ_SUPPORTED(_func)				       \
	{								       \
		.kind = UAPI_DEF_IS_SUPPORTED_FUNC,			       \
		.scope = UAPI_SCOPE_OBJECT,				       \
		.func_is_supported = _func,				       \
	}

/* The entries of another list, in place */
#define UAPI_DEF_CHAIN(_def_var)					       \
	{								       \
		.kind = UAPI_DEF_CHAIN,					       \
		.chain = _def_var,					       \
	}

/* An object tree (DECLARE_UVERBS_NAMED_OBJECT and the like) */
#define UAPI_DEF_CHAIN_OBJ_TREE(_object_enum, _object_ptr, ...)		       \
	{								       \
		.kind = UAPI_DEF_CHAIN_OBJ_TREE,			       \
		.object_start = { .object_id = _object_enum },		       \
		.chain_obj_tree = _object_ptr,				       \
	},								       \
	##__VA_ARGS__
#define UAPI_DEF_CHAIN_OBJ_TREE_NAMED(_object_enum, ...)		       \
	UAPI_DEF_CHAIN_OBJ_TREE(_object_enum,				       \
		PTR_IF(IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS),	       \
		       &UVERBS_OBJECT(_object_enum)),			       \
		##__VA_ARGS__)

/* Sizes of a PTR attribute: the least user space may give, and ours */
#define UVERBS_ATTR_SIZE(_min_len, _len)				       \
	.u.ptr.min_len = _min_len, .u.ptr.len = _len

#define UVERBS_ATTR_NO_DATA() UVERBS_ATTR_SIZE(0, 0)

/* Exactly sizeof(_type) */
#define UVERBS_ATTR_TYPE(_type)						       \
	.u.ptr.min_len = sizeof(_type), .u.ptr.len = sizeof(_type)

/* At least up to _last of _type; longer if the excess is zero */
#define UVERBS_ATTR_STRUCT(_type, _last)				       \
	.zero_trailing = 1,						       \
	UVERBS_ATTR_SIZE(offsetofend(_type, _last), sizeof(_type))

/* At least _min_len bytes, any more */
#define UVERBS_ATTR_MIN_SIZE(_min_len) UVERBS_ATTR_SIZE(_min_len, USHRT_MAX)

/* For the '...' of the UVERBS_ATTR_* macros */
#define UA_ALLOC_AND_COPY .alloc_and_copy = 1
#define UA_MANDATORY .mandatory = 1
#define UA_OPTIONAL .mandatory = 0

/* Handles of _idr_type, between _min_len and _max_len of them */
#define UVERBS_ATTR_IDRS_ARR(_attr_id, _idr_type, _access, _min_len, _max_len, \
			     ...)					       \
	(&(const struct uverbs_attr_def){				       \
		.id = (_attr_id) +					       \
		      BUILD_BUG_ON_ZERO((_min_len) == 0 ||		       \
					(_max_len) >			       \
						PAGE_SIZE / sizeof(void *) ||  \
					(_min_len) > (_max_len) ||	       \
					(_access) == UVERBS_ACCESS_NEW ||      \
					(_access) == UVERBS_ACCESS_DESTROY),   \
		.attr = { .type = UVERBS_ATTR_TYPE_IDRS_ARRAY,		       \
			  .u2.objs_arr.obj_type = _idr_type,		       \
			  .u2.objs_arr.access = _access,		       \
			  .u2.objs_arr.min_len = _min_len,		       \
			  .u2.objs_arr.max_len = _max_len,		       \
			  __VA_ARGS__ } })

/* An IDR attribute's type that takes an object of any type */
#define UVERBS_IDR_ANY_OBJECT 0xFFFF

#define UVERBS_ATTR_IDR(_attr_id, _idr_type, _access, ...)		       \
	(&(const struct uverbs_attr_def){				       \
		.id = _attr_id,						       \
		.attr = { .type = UVERBS_ATTR_TYPE_IDR,			       \
			  .u.obj.obj_type = _idr_type,			       \
			  .u.obj.access = _access,			       \
			  __VA_ARGS__ } })

#define UVERBS_ATTR_FD(_attr_id, _fd_type, _access, ...)		       \
	(&(const struct uverbs_attr_def){				       \
		.id = (_attr_id) +					       \
		      BUILD_BUG_ON_ZERO((_access) != UVERBS_ACCESS_NEW &&      \
					(_access) != UVERBS_ACCESS_READ),      \
		.attr = { .type = UVERBS_ATTR_TYPE_FD,			       \
			  .u.obj.obj_type = _fd_type,			       \
			  .u.obj.access = _access,			       \
			  __VA_ARGS__ } })

#define UVERBS_ATTR_RAW_FD(_attr_id, ...)				       \
	(&(const struct uverbs_attr_def){				       \
		.id = (_attr_id),					       \
		.attr = { .type = UVERBS_ATTR_TYPE_RAW_FD, __VA_ARGS__ } })

#define UVERBS_ATTR_PTR_IN(_attr_id, _type, ...)			       \
	(&(const struct uverbs_attr_def){				       \
		.id = _attr_id,						       \
		.attr = { .type = UVERBS_ATTR_TYPE_PTR_IN,		       \
			  _type,					       \
			  __VA_ARGS__ } })

#define UVERBS_ATTR_PTR_OUT(_attr_id, _type, ...)			       \
	(&(const struct uverbs_attr_def){				       \
		.id = _attr_id,						       \
		.attr = { .type = UVERBS_ATTR_TYPE_PTR_OUT,		       \
			  _type,					       \
			  __VA_ARGS__ } })

/* _enum_arr: a static const struct uverbs_attr_spec[] of PTR_IN specs */
#define UVERBS_ATTR_ENUM_IN(_attr_id, _enum_arr, ...)			       \
	(&(const struct uverbs_attr_def){				       \
		.id = _attr_id,						       \
		.attr = { .type = UVERBS_ATTR_TYPE_ENUM_IN,		       \
			  .u2.enum_def.ids = _enum_arr,			       \
			  .u.enum_def.num_elems = ARRAY_SIZE(_enum_arr),       \
			  __VA_ARGS__ },				       \
	})

/* A value of enum _enum_type, inline in 8 bytes (uverbs_get_const()) */
#define UVERBS_ATTR_CONST_IN(_attr_id, _enum_type, ...)			       \
	UVERBS_ATTR_PTR_IN(						       \
		_attr_id,						       \
		UVERBS_ATTR_SIZE(					       \
			sizeof(u64) + BUILD_BUG_ON_ZERO(!sizeof(_enum_type)),  \
			sizeof(u64)),					       \
		__VA_ARGS__)

/* Flags of enum _enum_type in 4 or 8 bytes (uverbs_get_flags32/64()) */
#define UVERBS_ATTR_FLAGS_IN(_attr_id, _enum_type, ...)			       \
	UVERBS_ATTR_PTR_IN(						       \
		_attr_id,						       \
		UVERBS_ATTR_SIZE(sizeof(u32) + BUILD_BUG_ON_ZERO(	       \
						       !sizeof(_enum_type *)), \
				 sizeof(u64)),				       \
		__VA_ARGS__)

/* The driver's data of a core method: the bundle's driver_udata */
#define UVERBS_ATTR_UHW()						       \
	UVERBS_ATTR_PTR_IN(UVERBS_ATTR_UHW_IN,				       \
			   UVERBS_ATTR_MIN_SIZE(0),			       \
			   UA_OPTIONAL,					       \
			   .is_udata = 1),				       \
	UVERBS_ATTR_PTR_OUT(UVERBS_ATTR_UHW_OUT,			       \
			    UVERBS_ATTR_MIN_SIZE(0),			       \
			    UA_OPTIONAL,				       \
			    .is_udata = 1)

/**
 * struct uverbs_ptr_attr - a PTR_IN, PTR_OUT, ENUM_IN or RAW_FD attribute
 * @ptr: the parser's copy (UA_ALLOC_AND_COPY past 8 bytes)
 * @data: the value itself (8 bytes or less) or the user address
 * @len: its length
 * @uattr_idx: its place in the user's array
 * @enum_id: (ENUM_IN) which spec the user chose
 */
struct uverbs_ptr_attr {
	union {
		void *ptr;
		u64 data;
	};
	u16 len;
	u16 uattr_idx;
	u8 enum_id;
};

/**
 * struct uverbs_obj_attr - an IDR or FD attribute
 * @uobject: the object, held as the spec's access says
 * @attr_elm: the spec (ib_uverbs')
 */
struct uverbs_obj_attr {
	struct ib_uobject *uobject;
	const struct uverbs_api_attr *attr_elm;
};

/**
 * struct uverbs_objs_arr_attr - an IDRS_ARRAY attribute
 * @uobjects: the objects, held
 * @len: their number
 */
struct uverbs_objs_arr_attr {
	struct ib_uobject **uobjects;
	u16 len;
};

struct uverbs_attr {
	union {
		struct uverbs_ptr_attr ptr_attr;
		struct uverbs_obj_attr obj_attr;
		struct uverbs_objs_arr_attr objs_arr_attr;
	};
};

/**
 * struct uverbs_attr_bundle - a user command on its way through ib_uverbs
 * @driver_udata: the driver's part of the request and of the response
 *	(UVERBS_ATTR_UHW_IN/OUT of an ioctl method)
 * @ucore: the core's part (write() commands)
 * @ufile: the open uverbsN the command came through
 * @context: the file's context, once the command has one
 * @uobject: the object a write() command creates, if any
 * @attr_present: (ioctl) which attribute slots the command carries
 * @hdr: the members above as one struct uverbs_attr_bundle_hdr
 * @attrs: (ioctl) the attributes by slot (uverbs_attr_slot())
 *
 * Drivers get @driver_udata (rdma_udata_to_drv_context() finds the
 * bundle from it) or the bundle itself.
 */
struct uverbs_attr_bundle {
	/* struct_group_tagged() by hand: the members, and as one struct */
	union {
		struct {
			struct ib_udata driver_udata;
			struct ib_udata ucore;
			struct ib_uverbs_file *ufile;
			struct ib_ucontext *context;
			struct ib_uobject *uobject;
			DECLARE_BITMAP(attr_present, UVERBS_API_ATTR_BKEY_LEN);
		};
		struct uverbs_attr_bundle_hdr {
			struct ib_udata driver_udata;
			struct ib_udata ucore;
			struct ib_uverbs_file *ufile;
			struct ib_ucontext *context;
			struct ib_uobject *uobject;
			DECLARE_BITMAP(attr_present, UVERBS_API_ATTR_BKEY_LEN);
		} hdr;
	};
	struct uverbs_attr attrs[];
};

/* The bundle whose driver_udata @udata is */
static inline struct uverbs_attr_bundle *
rdma_udata_to_uverbs_attr_bundle(struct ib_udata *udata)
{
	return container_of(udata, struct uverbs_attr_bundle, driver_udata);
}

/**
 * uverbs_attr_is_valid - whether the command carries an attribute
 * @attrs_bundle: the command
 * @idx: the attribute's ID
 *
 * Context: a method's handler.
 * Return: true when present.
 */
static inline bool
uverbs_attr_is_valid(const struct uverbs_attr_bundle *attrs_bundle,
		     unsigned int idx)
{
	unsigned int slot = uverbs_attr_slot(idx);

	return slot < UVERBS_API_ATTR_BKEY_LEN &&
	       test_bit(slot, attrs_bundle->attr_present);
}

/* An error of uverbs_copy_*() other than "the attribute is absent" */
#define IS_UVERBS_COPY_ERR(_ret)		((_ret) && (_ret) != -ENOENT)

/* The attribute @idx, or ERR_PTR(-ENOENT) when absent */
static inline const struct uverbs_attr *
uverbs_attr_get(const struct uverbs_attr_bundle *attrs_bundle, u16 idx)
{
	if (!uverbs_attr_is_valid(attrs_bundle, idx))
		return ERR_PTR(-ENOENT);
	return &attrs_bundle->attrs[uverbs_attr_slot(idx)];
}

/* Which spec of an ENUM_IN attribute the user chose, or -ENOENT */
static inline int
uverbs_attr_get_enum_id(const struct uverbs_attr_bundle *attrs_bundle, u16 idx)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	return attr->ptr_attr.enum_id;
}

/* The verbs object of an IDR/FD attribute, or an ERR_PTR() */
static inline void *
uverbs_attr_get_obj(const struct uverbs_attr_bundle *attrs_bundle, u16 idx)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr))
		return ERR_CAST(attr);
	return attr->obj_attr.uobject->object;
}

/* The uobject of an IDR/FD attribute, or an ERR_PTR() */
static inline struct ib_uobject *
uverbs_attr_get_uobject(const struct uverbs_attr_bundle *attrs_bundle, u16 idx)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr))
		return ERR_CAST(attr);
	return attr->obj_attr.uobject;
}

/* The length of a PTR attribute, or -ENOENT */
static inline int
uverbs_attr_get_len(const struct uverbs_attr_bundle *attrs_bundle, u16 idx)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	return attr->ptr_attr.len;
}

void uverbs_finalize_uobj_create(const struct uverbs_attr_bundle *attrs_bundle,
				 u16 idx);

/* The entries of an array attribute of @elem_size each, or an errno */
static inline int
uverbs_attr_ptr_get_array_size(struct uverbs_attr_bundle *attrs, u16 idx,
			       size_t elem_size)
{
	int size = uverbs_attr_get_len(attrs, idx);

	if (size < 0)
		return size;
	if (size % elem_size)
		return -EINVAL;
	return size / elem_size;
}

/* The objects of an IDRS_ARRAY attribute in *@arr; their number, 0 absent */
static inline int
uverbs_attr_get_uobjs_arr(const struct uverbs_attr_bundle *attrs_bundle,
			  u16 attr_idx, struct ib_uobject ***arr)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle,
							 attr_idx);

	if (IS_ERR(attr)) {
		*arr = NULL;
		return 0;
	}
	*arr = attr->objs_arr_attr.uobjects;
	return attr->objs_arr_attr.len;
}

/* A PTR attribute of 8 bytes or less carries its value in ptr_attr.data */
static inline bool uverbs_attr_ptr_is_inline(const struct uverbs_attr *attr)
{
	return attr->ptr_attr.len <= sizeof(attr->ptr_attr.data);
}

/* The kernel copy of a UA_ALLOC_AND_COPY attribute, or an ERR_PTR() */
static inline void *
uverbs_attr_get_alloced_ptr(const struct uverbs_attr_bundle *attrs_bundle,
			    u16 idx)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr))
		return (void *)attr;
	return uverbs_attr_ptr_is_inline(attr) ? (void *)&attr->ptr_attr.data :
						 attr->ptr_attr.ptr;
}

/* Copy a PTR_IN attribute of at most @size bytes: 0, -ENOENT, -EINVAL, -EFAULT */
static inline int
_uverbs_copy_from(void *to, const struct uverbs_attr_bundle *attrs_bundle,
		  size_t idx, size_t size)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	/* the spec's min_len is @size unless the caller takes less */
	if (unlikely(size < attr->ptr_attr.len))
		return -EINVAL;
	if (uverbs_attr_ptr_is_inline(attr))
		memcpy(to, &attr->ptr_attr.data, attr->ptr_attr.len);
	else if (copy_from_user(to, u64_to_user_ptr(attr->ptr_attr.data),
				attr->ptr_attr.len))
		return -EFAULT;
	return 0;
}

/* Copy a PTR_IN attribute into @size bytes, the rest zeroed */
static inline int
_uverbs_copy_from_or_zero(void *to,
			  const struct uverbs_attr_bundle *attrs_bundle,
			  size_t idx, size_t size)
{
	const struct uverbs_attr *attr = uverbs_attr_get(attrs_bundle, idx);
	size_t n;

	if (IS_ERR(attr))
		return PTR_ERR(attr);
	n = min_t(size_t, size, attr->ptr_attr.len);
	if (uverbs_attr_ptr_is_inline(attr))
		memcpy(to, &attr->ptr_attr.data, n);
	else if (copy_from_user(to, u64_to_user_ptr(attr->ptr_attr.data), n))
		return -EFAULT;
	if (size > n)
		memset(to + n, 0, size - n);
	return 0;
}

#define uverbs_copy_from(to, attrs_bundle, idx)				       \
	_uverbs_copy_from(to, attrs_bundle, idx, sizeof(*to))

#define uverbs_copy_from_or_zero(to, attrs_bundle, idx)			       \
	_uverbs_copy_from_or_zero(to, attrs_bundle, idx, sizeof(*to))

/**
 * ib_uverbs_get_ucontext - the context a command runs on
 * @attrs: the command
 *
 * Context: process context, within the command.
 * Return: the context, or an ERR_PTR() (-EIO when the device went away,
 * -EINVAL when there is none).
 */
static inline struct ib_ucontext *
ib_uverbs_get_ucontext(const struct uverbs_attr_bundle *attrs)
{
	return ib_uverbs_get_ucontext_file(attrs->ufile);
}

#if IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS)
int uverbs_get_flags64(u64 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits);
int uverbs_get_flags32(u32 *to, const struct uverbs_attr_bundle *attrs_bundle,
		       size_t idx, u64 allowed_bits);
int uverbs_copy_to(const struct uverbs_attr_bundle *attrs_bundle, size_t idx,
		   const void *from, size_t size);
__malloc void *_uverbs_alloc(struct uverbs_attr_bundle *bundle, size_t size,
			     gfp_t flags);

static inline __malloc void *uverbs_alloc(struct uverbs_attr_bundle *bundle,
					  size_t size)
{
	return _uverbs_alloc(bundle, size, GFP_KERNEL);
}

static inline __malloc void *uverbs_zalloc(struct uverbs_attr_bundle *bundle,
					   size_t size)
{
	return _uverbs_alloc(bundle, size, GFP_KERNEL | __GFP_ZERO);
}

static inline __malloc void *uverbs_kcalloc(struct uverbs_attr_bundle *bundle,
					    size_t n, size_t size)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return ERR_PTR(-EOVERFLOW);
	return uverbs_zalloc(bundle, bytes);
}

int _uverbs_get_const_signed(s64 *to,
			     const struct uverbs_attr_bundle *attrs_bundle,
			     size_t idx, s64 lower_bound, u64 upper_bound,
			     s64 *def_val);
int _uverbs_get_const_unsigned(u64 *to,
			       const struct uverbs_attr_bundle *attrs_bundle,
			       size_t idx, u64 upper_bound, u64 *def_val);
int uverbs_copy_to_struct_or_zero(const struct uverbs_attr_bundle *bundle,
				  size_t idx, const void *from, size_t size);
#else
static inline int
uverbs_get_flags64(u64 *to, const struct uverbs_attr_bundle *attrs_bundle,
		   size_t idx, u64 allowed_bits)
{
	return -EINVAL;
}

static inline int
uverbs_get_flags32(u32 *to, const struct uverbs_attr_bundle *attrs_bundle,
		   size_t idx, u64 allowed_bits)
{
	return -EINVAL;
}

static inline int uverbs_copy_to(const struct uverbs_attr_bundle *attrs_bundle,
				 size_t idx, const void *from, size_t size)
{
	return -EINVAL;
}

static inline __malloc void *uverbs_alloc(struct uverbs_attr_bundle *bundle,
					  size_t size)
{
	return ERR_PTR(-EINVAL);
}

static inline __malloc void *uverbs_zalloc(struct uverbs_attr_bundle *bundle,
					   size_t size)
{
	return ERR_PTR(-EINVAL);
}

static inline int
uverbs_copy_to_struct_or_zero(const struct uverbs_attr_bundle *bundle,
			      size_t idx, const void *from, size_t size)
{
	return -EINVAL;
}

static inline int
_uverbs_get_const_signed(s64 *to,
			 const struct uverbs_attr_bundle *attrs_bundle,
			 size_t idx, s64 lower_bound, u64 upper_bound,
			 s64 *def_val)
{
	return -EINVAL;
}

static inline int
_uverbs_get_const_unsigned(u64 *to,
			   const struct uverbs_attr_bundle *attrs_bundle,
			   size_t idx, u64 upper_bound, u64 *def_val)
{
	return -EINVAL;
}

#endif

/* A CONST_IN attribute into *_to, bounded by its type: 0 or an errno */
#define uverbs_get_const_signed(_to, _attrs_bundle, _idx)		       \
	({								       \
		s64 _val;						       \
		int _ret =						       \
			_uverbs_get_const_signed(&_val, _attrs_bundle, _idx,   \
					  type_min(typeof(*(_to))),	       \
					  type_max(typeof(*(_to))), NULL);     \
		(*(_to)) = _val;					       \
		_ret;							       \
	})

#define uverbs_get_const_unsigned(_to, _attrs_bundle, _idx)		       \
	({								       \
		u64 _val;						       \
		int _ret =						       \
			_uverbs_get_const_unsigned(&_val, _attrs_bundle, _idx, \
					  type_max(typeof(*(_to))), NULL);     \
		(*(_to)) = _val;					       \
		_ret;							       \
	})

/* The same, @_default where the attribute is absent */
#define uverbs_get_const_default_signed(_to, _attrs_bundle, _idx, _default)    \
	({								       \
		s64 _val;						       \
		s64 _def_val = _default;				       \
		int _ret =						       \
			_uverbs_get_const_signed(&_val, _attrs_bundle, _idx,   \
				type_min(typeof(*(_to))),		       \
				type_max(typeof(*(_to))), &_def_val);	       \
		(*(_to)) = _val;					       \
		_ret;							       \
	})

#define uverbs_get_const_default_unsigned(_to, _attrs_bundle, _idx, _default)  \
	({								       \
		u64 _val;						       \
		u64 _def_val = _default;				       \
		int _ret =						       \
			_uverbs_get_const_unsigned(&_val, _attrs_bundle, _idx, \
				type_max(typeof(*(_to))), &_def_val);	       \
		(*(_to)) = _val;					       \
		_ret;							       \
	})

#define uverbs_get_const(_to, _attrs_bundle, _idx)			       \
	(is_signed_type(typeof(*(_to))) ?				       \
		 uverbs_get_const_signed(_to, _attrs_bundle, _idx) :	       \
		 uverbs_get_const_unsigned(_to, _attrs_bundle, _idx))

#define uverbs_get_const_default(_to, _attrs_bundle, _idx, _default)	       \
	(is_signed_type(typeof(*(_to))) ?				       \
		 uverbs_get_const_default_signed(_to, _attrs_bundle, _idx,     \
						  _default) :		       \
		 uverbs_get_const_default_unsigned(_to, _attrs_bundle, _idx,   \
						    _default))

/* A RAW_FD attribute */
static inline int
uverbs_get_raw_fd(int *to, const struct uverbs_attr_bundle *attrs_bundle,
		  size_t idx)
{
	return uverbs_get_const_signed(to, attrs_bundle, idx);
}

#endif /* RDMA_UVERBS_IOCTL_H */
