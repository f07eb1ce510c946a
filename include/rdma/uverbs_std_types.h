/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The core's object types as handlers use them: looking objects up by
 * handle (uobj_get_read() and the like), creating them (uobj_alloc()),
 * and struct uverbs_api_object, a type in a device's user API.
 */
#ifndef RDMA_UVERBS_STD_TYPES_H
#define RDMA_UVERBS_STD_TYPES_H

#include <rdma/uverbs_types.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/ib_user_ioctl_verbs.h>

/**
 * struct uverbs_api_object - a type of object in a device's user API
 * @type_attrs: its type
 * @type_class: @type_attrs' class
 * @disabled: the device lacks what it needs: no method makes one
 * @id: its object ID (enum uverbs_default_objects, or a driver's)
 */
struct uverbs_api_object {
	const struct uverbs_obj_type *type_attrs;
	const struct uverbs_obj_type_class *type_class;
	u8 disabled:1;
	u32 id;
};

/* the object type @id of the command's device, or an ERR_PTR() */
const struct uverbs_api_object *
uverbs_uapi_object(const struct uverbs_attr_bundle *attrs, u16 id);

/* _id, or a compile error unless it is a u32 */
#define _uobj_check_id(_id) ((_id) * typecheck(u32, _id))

#define uobj_get_type(_attrs, _object) uverbs_uapi_object(_attrs, _object)

#define uobj_get_read(_type, _id, _attrs)				       \
	rdma_lookup_get_uobject(uobj_get_type(_attrs, _type), (_attrs)->ufile, \
				_uobj_check_id(_id), UVERBS_LOOKUP_READ,       \
				_attrs)

#define ufd_get_read(_type, _fdnum, _attrs)				       \
	rdma_lookup_get_uobject(uobj_get_type(_attrs, _type), (_attrs)->ufile, \
				(_fdnum) * typecheck(s32, _fdnum),	       \
				UVERBS_LOOKUP_READ, _attrs)

static inline void *_uobj_get_obj_read(struct ib_uobject *uobj)
{
	if (IS_ERR(uobj))
		return ERR_CAST(uobj);
	return uobj->object;
}

#define uobj_get_obj_read(_object, _type, _id, _attrs)			       \
	((struct ib_##_object *)_uobj_get_obj_read(			       \
		uobj_get_read(_type, _id, _attrs)))

#define uobj_get_write(_type, _id, _attrs)				       \
	rdma_lookup_get_uobject(uobj_get_type(_attrs, _type), (_attrs)->ufile, \
				_uobj_check_id(_id), UVERBS_LOOKUP_WRITE,      \
				_attrs)

static inline void uobj_put_destroy(struct ib_uobject *uobj)
{
	rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_DESTROY);
}

static inline void uobj_put_read(struct ib_uobject *uobj)
{
	rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_READ);
}

#define uobj_put_obj_read(_obj) uobj_put_read((_obj)->uobject)

static inline void uobj_put_write(struct ib_uobject *uobj)
{
	rdma_lookup_put_uobject(uobj, UVERBS_LOOKUP_WRITE);
}

static inline void uobj_alloc_abort(struct ib_uobject *uobj,
				    struct uverbs_attr_bundle *attrs)
{
	rdma_alloc_abort_uobject(uobj, attrs, false);
}

static inline struct ib_uobject *
__uobj_alloc(const struct uverbs_api_object *obj,
	     struct uverbs_attr_bundle *attrs, struct ib_device **ib_dev)
{
	struct ib_uobject *uobj = rdma_alloc_begin_uobject(obj, attrs);

	if (!IS_ERR(uobj))
		*ib_dev = attrs->context->device;
	return uobj;
}

#define uobj_alloc(_type, _attrs, _ib_dev)				       \
	__uobj_alloc(uobj_get_type(_attrs, _type), _attrs, _ib_dev)

/* The object ID of @uobj's type */
static inline u32 uobj_get_object_id(struct ib_uobject *uobj)
{
	return uobj->uapi_object->id;
}

int uverbs_destroy_def_handler(struct uverbs_attr_bundle *attrs);

#endif /* RDMA_UVERBS_STD_TYPES_H */
