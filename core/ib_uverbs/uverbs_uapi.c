// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A device's ioctl methods, built when ib_uverbs takes the device: the
 * core's definitions (uverbs_core_api) and then the driver's
 * (ib_device.driver_def) are merged into one tree of objects, methods
 * and attributes.  A driver may add methods to the core's objects and
 * attributes to the core's methods; two definitions of one attribute
 * must agree, and a method has one handler.
 *
 * What the device cannot do is disabled, as upstream's "is supported"
 * rules say: an object whose UAPI_DEF_OBJ_NEEDS_FN names an op the
 * driver lacks (or whose UAPI_DEF_IS_OBJ_SUPPORTED test fails) and all
 * its methods; a method without a handler (attributes only); a method
 * with a mandatory attribute naming an object type the device lacks.
 * A disabled method answers -EPROTONOSUPPORT as if absent.  write()
 * commands in a definition list (DECLARE_UVERBS_WRITE) are not taken
 * from it: write() and INVOKE_WRITE serve the core's table
 * (uverbs_cmd_device.c).
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "uverbs_priv.h"

/* The core's types, shared by every device and the write() commands */
static const struct uverbs_api_object *uverbs_core_type(u16 id)
{
	switch (id) {
	case UVERBS_OBJECT_PD:
		return &uverbs_type_pd;
	case UVERBS_OBJECT_MR:
		return &uverbs_type_mr;
	case UVERBS_OBJECT_MW:
		return &uverbs_type_mw;
	case UVERBS_OBJECT_CQ:
		return &uverbs_type_cq;
	case UVERBS_OBJECT_QP:
		return &uverbs_type_qp;
	case UVERBS_OBJECT_SRQ:
		return &uverbs_type_srq;
	case UVERBS_OBJECT_AH:
		return &uverbs_type_ah;
	case UVERBS_OBJECT_COMP_CHANNEL:
		return &uverbs_type_comp_channel;
	case UVERBS_OBJECT_ASYNC_EVENT:
		return &uverbs_type_async_event;
	default:
		return NULL;
	}
}

/**
 * uverbs_uapi_object - a type of object of the command's device
 * @attrs: the command
 * @id: the object ID
 *
 * Context: a command of the file.
 * Return: the type; ERR_PTR(-ENOMSG) for UVERBS_IDR_ANY_OBJECT,
 * -ENOENT for an ID the device lacks, -EOPNOTSUPP for a disabled one.
 */
const struct uverbs_api_object *
uverbs_uapi_object(const struct uverbs_attr_bundle *attrs, u16 id)
{
	const struct uverbs_api_obj *e;

	if (id == UVERBS_IDR_ANY_OBJECT)
		return ERR_PTR(-ENOMSG);
	e = xa_load(&attrs->ufile->device->uapi->objects, id);
	if (!e || !e->obj)
		return ERR_PTR(-ENOENT);
	if (e->disabled)
		return ERR_PTR(-EOPNOTSUPP);
	return e->obj;
}

static struct uverbs_api_obj *uverbs_api_get_obj(struct uverbs_api *uapi,
						 u16 id)
{
	struct uverbs_api_obj *e = xa_load(&uapi->objects, id);
	int ret;

	if (e)
		return e;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return ERR_PTR(-ENOMEM);
	e->obj = uverbs_core_type(id);
	ret = xa_err(xa_store(&uapi->objects, id, e, GFP_KERNEL));
	if (ret) {
		kfree(e);
		return ERR_PTR(ret);
	}
	return e;
}

/* Give the object @type, a driver's; the core's types are fixed. */
static int uverbs_api_set_type(struct uverbs_api_obj *e, u16 id,
			       const struct uverbs_obj_type *type)
{
	struct uverbs_api_object *obj;

	if (!type)
		return 0;
	if (e->obj)
		return e->obj->type_attrs == type || !e->owned ? 0 : -EINVAL;
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return -ENOMEM;
	obj->type_attrs = type;
	obj->type_class = type->type_class;
	obj->id = id;
	e->obj = obj;
	e->owned = true;
	return 0;
}

static int uverbs_api_add_attr(struct uverbs_api_ioctl_method *m,
			       const struct uverbs_attr_def *def)
{
	unsigned int slot = uverbs_attr_slot(def->id);
	const struct uverbs_attr_spec *spec = &def->attr;
	struct uverbs_api_attr *a;

	if (WARN_ON(slot >= UVERBS_API_ATTR_BKEY_LEN))
		return -EINVAL;
	if (m->attrs[slot])
		return memcmp(&m->attrs[slot]->spec, spec, sizeof(*spec)) ?
		       -EINVAL : 0;
	if (spec->type == UVERBS_ATTR_TYPE_IDR &&
	    spec->u.obj.access == UVERBS_ACCESS_DESTROY) {
		/* one, and mandatory */
		if (WARN_ON(m->destroy_slot != UVERBS_API_ATTR_BKEY_LEN ||
			    !spec->mandatory))
			return -EINVAL;
		m->destroy_slot = slot;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->spec = *spec;
	m->attrs[slot] = a;
	if (spec->mandatory)
		__set_bit(slot, m->attr_mandatory);
	if (spec->is_udata)
		m->has_udata = 1;
	m->slots = max_t(unsigned int, m->slots, slot + 1);
	return 0;
}

static int uverbs_api_add_method(struct uverbs_api *uapi, u16 obj_id,
				 const struct uverbs_method_def *def)
{
	unsigned long key = uverbs_method_key(obj_id, def->id);
	struct uverbs_api_ioctl_method *m = xa_load(&uapi->methods, key);
	size_t i;
	int ret;

	if (!m) {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m)
			return -ENOMEM;
		m->destroy_slot = UVERBS_API_ATTR_BKEY_LEN;
		ret = xa_err(xa_store(&uapi->methods, key, m, GFP_KERNEL));
		if (ret) {
			kfree(m);
			return ret;
		}
	}
	if (def->handler) {
		if (m->handler && m->handler != def->handler)
			return -EINVAL;
		m->handler = def->handler;
	}
	for (i = 0; i < def->num_attrs; i++) {
		ret = uverbs_api_add_attr(m, (*def->attrs)[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int uverbs_api_add_tree(struct uverbs_api *uapi,
			       const struct uverbs_object_def *def)
{
	struct uverbs_api_obj *e = uverbs_api_get_obj(uapi, def->id);
	size_t i;
	int ret;

	if (IS_ERR(e))
		return PTR_ERR(e);
	ret = uverbs_api_set_type(e, def->id, def->type_attrs);
	if (ret)
		return ret;
	for (i = 0; i < def->num_methods; i++) {
		const struct uverbs_method_def *m = (*def->methods)[i];

		if (!m)
			continue;
		ret = uverbs_api_add_method(uapi, def->id, m);
		if (ret)
			return ret;
	}
	return 0;
}

static int uverbs_api_merge(struct uverbs_api *uapi, struct ib_device *ibdev,
			    const struct uapi_definition *def)
{
	struct uverbs_api_obj *cur = NULL;
	bool after_write = false;
	int ret;

	for (; def->kind != UAPI_DEF_END; def++) {
		bool supported;

		switch (def->kind) {
		case UAPI_DEF_CHAIN:
			ret = uverbs_api_merge(uapi, ibdev, def->chain);
			if (ret)
				return ret;
			continue;
		case UAPI_DEF_CHAIN_OBJ_TREE:
			cur = uverbs_api_get_obj(uapi,
						 def->object_start.object_id);
			if (IS_ERR(cur))
				return PTR_ERR(cur);
			after_write = false;
			if (!def->chain_obj_tree)
				continue;
			if (def->chain_obj_tree->id !=
			    def->object_start.object_id)
				return -EINVAL;
			ret = uverbs_api_add_tree(uapi, def->chain_obj_tree);
			if (ret)
				return ret;
			continue;
		case UAPI_DEF_OBJECT_START:
			cur = uverbs_api_get_obj(uapi,
						 def->object_start.object_id);
			if (IS_ERR(cur))
				return PTR_ERR(cur);
			after_write = false;
			continue;
		case UAPI_DEF_WRITE:
			/* served by the core's table */
			after_write = true;
			continue;
		case UAPI_DEF_IS_SUPPORTED_DEV_FN:
			supported = *(void **)((u8 *)&ibdev->ops +
					       def->needs_fn_offset);
			break;
		case UAPI_DEF_IS_SUPPORTED_FUNC:
			supported = def->func_is_supported(ibdev);
			break;
		default:
			WARN_ON(1);
			return -EINVAL;
		}
		/* a condition: of the object, or of the write() before it */
		if (supported)
			continue;
		if (def->scope == UAPI_SCOPE_OBJECT) {
			if (WARN_ON(!cur))
				return -EINVAL;
			cur->disabled = true;
		} else if (WARN_ON(!after_write)) {
			return -EINVAL;
		}
	}
	return 0;
}

/* The object a spec's attribute names, for the disabling rules. */
static bool uverbs_api_attr_usable(struct uverbs_api *uapi,
				   const struct uverbs_attr_spec *spec)
{
	const struct uverbs_api_obj *e;
	u16 type;

	switch (spec->type) {
	case UVERBS_ATTR_TYPE_IDR:
	case UVERBS_ATTR_TYPE_FD:
		type = spec->u.obj.obj_type;
		break;
	case UVERBS_ATTR_TYPE_IDRS_ARRAY:
		type = spec->u2.objs_arr.obj_type;
		break;
	default:
		return true;
	}
	if (type == UVERBS_IDR_ANY_OBJECT)
		return true;
	e = xa_load(&uapi->objects, type);
	return e && e->obj && !e->disabled;
}

static void uverbs_api_finalize(struct uverbs_api *uapi)
{
	struct uverbs_api_ioctl_method *m;
	unsigned long key;
	unsigned int i;

	xa_for_each(&uapi->methods, key, m) {
		const struct uverbs_api_obj *e = xa_load(&uapi->objects,
							 key >> 16);

		if (!m->handler || !e || e->disabled) {
			m->disabled = 1;
			continue;
		}
		for_each_set_bit(i, m->attr_mandatory, UVERBS_API_ATTR_BKEY_LEN)
			if (!uverbs_api_attr_usable(uapi, &m->attrs[i]->spec))
				m->disabled = 1;
	}
}

/**
 * uverbs_destroy_api - free a device's tree
 * @uapi: the tree, or NULL
 *
 * Context: process context; no file of the device is open.
 */
void uverbs_destroy_api(struct uverbs_api *uapi)
{
	struct uverbs_api_ioctl_method *m;
	struct uverbs_api_obj *e;
	unsigned long key;
	unsigned int i;

	if (!uapi)
		return;
	xa_for_each(&uapi->methods, key, m) {
		for (i = 0; i < UVERBS_API_ATTR_BKEY_LEN; i++)
			kfree(m->attrs[i]);
		kfree(m);
	}
	xa_destroy(&uapi->methods);
	xa_for_each(&uapi->objects, key, e) {
		if (e->owned)
			kfree(e->obj);
		kfree(e);
	}
	xa_destroy(&uapi->objects);
	kfree(uapi);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_destroy_api);

/**
 * uverbs_build_api - the tree of a device's ioctl methods
 * @core: the core's definitions
 * @driver: the driver's, or NULL
 * @ibdev: the device: its ops decide what is disabled, its driver_id
 *	what the ioctl's header must say
 *
 * Context: process context.
 * Return: the tree, or an ERR_PTR(): -ENOMEM; -EINVAL for definitions
 * that disagree.
 */
struct uverbs_api *
uverbs_build_api(const struct uapi_definition *core,
		 const struct uapi_definition *driver, struct ib_device *ibdev)
{
	struct uverbs_api *uapi = kzalloc(sizeof(*uapi), GFP_KERNEL);
	int ret;

	if (!uapi)
		return ERR_PTR(-ENOMEM);
	xa_init(&uapi->objects);
	xa_init(&uapi->methods);
	uapi->driver_id = ibdev->ops.driver_id;
	ret = uverbs_api_merge(uapi, ibdev, core);
	if (!ret && driver)
		ret = uverbs_api_merge(uapi, ibdev, driver);
	if (ret) {
		uverbs_destroy_api(uapi);
		return ERR_PTR(ret);
	}
	uverbs_api_finalize(uapi);
	return uapi;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_build_api);

/**
 * uverbs_alloc_api - the tree of a device ib_uverbs takes
 * @ibdev: the device
 *
 * Context: process context, the client's add.
 * Return: as uverbs_build_api().
 */
struct uverbs_api *uverbs_alloc_api(struct ib_device *ibdev)
{
	return uverbs_build_api(uverbs_core_api, ibdev->driver_def, ibdev);
}
