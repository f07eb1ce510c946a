// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A file's objects (struct ib_uobject): the handles user space names
 * them by, their use by commands, their destruction.
 *
 * A handle is an index in the file's xarray.  A command creating an
 * object reserves the handle first (uverbs_uobj_create()); the object
 * becomes visible to other commands only when the command succeeded
 * (uverbs_uobj_commit()), else the handle is given back
 * (uverbs_uobj_abort()).  A command using an object holds it shared (a
 * QP's PD while the QP is made) or exclusively (the object it modifies
 * or destroys) for the command's length: struct ib_uobject.usecnt
 * counts the shared holders, -1 marks the exclusive one, and a command
 * that finds the object held the other way gets -EBUSY, as upstream's.
 *
 * Objects are destroyed by their command, or all of them when the file's
 * context goes (close, or the device's unregistration): newest first,
 * so an object goes before the objects it was made from; an object
 * still in use by another (a PD with an MR a driver still holds) is
 * tried again after the others.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "uverbs_priv.h"

/* Handles are u32 as user space sees them; ours stay below INT_MAX. */
static const struct xa_limit uverbs_handle_limit = XA_LIMIT(0, INT_MAX);

static void uverbs_uobj_free(struct kref *ref)
{
	kfree_rcu(container_of(ref, struct ib_uobject, ref), rcu);
}

/**
 * uverbs_uobj_put - drop a reference on an object's memory
 * @uobj: the object
 *
 * Context: any context.
 */
void uverbs_uobj_put(struct ib_uobject *uobj)
{
	kref_put(&uobj->ref, uverbs_uobj_free);
}

/**
 * uverbs_uobj_create - a new object's handle, for a creating command
 * @attrs: the command; its file has a context
 * @type: the object's type
 *
 * Context: process context, a command of the file.
 * Return: the object, its @id reserved but not visible, or an ERR_PTR()
 * (-ENOMEM, -EBUSY when the file has INT_MAX objects).
 */
struct ib_uobject *uverbs_uobj_create(struct uverbs_attr_bundle *attrs,
				      const struct uverbs_api_object *type)
{
	struct ib_uverbs_file *file = attrs->ufile;
	struct ib_uobject *uobj;
	u32 id;
	int ret;

	/* kfree_rcu() of the uobject frees the whole object */
	BUILD_BUG_ON(offsetof(struct ib_uevent_object, uobject));
	BUILD_BUG_ON(offsetof(struct ib_ucq_object, uevent));
	uobj = kzalloc(max(type->obj_size, sizeof(*uobj)), GFP_KERNEL);
	if (!uobj)
		return ERR_PTR(-ENOMEM);
	kref_init(&uobj->ref);
	uobj->ufile = file;
	uobj->context = attrs->context;
	uobj->uapi_object = type;
	INIT_LIST_HEAD(&uobj->list);
	/* the creating command holds it exclusively until commit */
	atomic_set(&uobj->usecnt, -1);
	ret = xa_alloc(&file->objects, &id, XA_ZERO_ENTRY, uverbs_handle_limit,
		       GFP_KERNEL);
	if (ret) {
		kfree(uobj);
		return ERR_PTR(ret == -EBUSY ? -EBUSY : ret);
	}
	uobj->id = id;
	return uobj;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_create);

/**
 * uverbs_uobj_commit - make a created object visible under its handle
 * @uobj: the object, its @object set
 *
 * Context: process context, the creating command, after it succeeded.
 */
void uverbs_uobj_commit(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *file = uobj->ufile;

	spin_lock(&file->uobjects_lock);
	list_add_tail(&uobj->list, &file->uobjects);
	spin_unlock(&file->uobjects_lock);
	atomic_set(&uobj->usecnt, 0);
	/* the reserved entry cannot fail to take the pointer */
	WARN_ON(xa_err(xa_store(&file->objects, uobj->id, uobj, GFP_KERNEL)));
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_commit);

/**
 * uverbs_uobj_abort - give back a created object's handle
 * @uobj: the object; its verbs object is gone or was never made
 *
 * Context: process context, the creating command, after it failed.
 */
void uverbs_uobj_abort(struct ib_uobject *uobj)
{
	xa_erase(&uobj->ufile->objects, uobj->id);
	uverbs_uobj_put(uobj);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_abort);

/**
 * uverbs_uobj_get - the object of a handle, held for a command
 * @attrs: the command
 * @type: the type the command expects
 * @handle: what user space named
 * @exclusive: hold it exclusively (a command that changes or destroys
 *	it), else shared
 *
 * Context: process context, a command of the file.
 * Return: the object, held until uverbs_uobj_release(); -EINVAL when
 * the handle names no object of @type; -EBUSY when the object is held
 * the other way.
 */
struct ib_uobject *uverbs_uobj_get(struct uverbs_attr_bundle *attrs,
				   const struct uverbs_api_object *type,
				   u32 handle, bool exclusive)
{
	struct ib_uverbs_file *file = attrs->ufile;
	struct ib_uobject *uobj;
	int ret = 0;

	if (handle > INT_MAX)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	uobj = xa_load(&file->objects, handle);
	if (!uobj || uobj->uapi_object != type ||
	    !kref_get_unless_zero(&uobj->ref))
		uobj = NULL;
	rcu_read_unlock();
	if (!uobj)
		return ERR_PTR(-EINVAL);
	if (exclusive) {
		if (atomic_cmpxchg(&uobj->usecnt, 0, -1))
			ret = -EBUSY;
	} else if (atomic_fetch_add_unless(&uobj->usecnt, 1, -1) == -1) {
		ret = -EBUSY;
	}
	if (ret) {
		uverbs_uobj_put(uobj);
		return ERR_PTR(ret);
	}
	return uobj;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_get);

/**
 * uverbs_uobj_release - a command is done with an object
 * @uobj: what uverbs_uobj_get() gave
 * @exclusive: as it was taken
 *
 * Context: any context.
 */
void uverbs_uobj_release(struct ib_uobject *uobj, bool exclusive)
{
	if (exclusive)
		atomic_set(&uobj->usecnt, 0);
	else
		atomic_dec(&uobj->usecnt);
	uverbs_uobj_put(uobj);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_release);

/* Unlink a destroyed object: no handle, off the list; its ref goes. */
static void uverbs_uobj_unlink(struct ib_uobject *uobj)
{
	struct ib_uverbs_file *file = uobj->ufile;

	xa_erase(&file->objects, uobj->id);
	spin_lock(&file->uobjects_lock);
	list_del_init(&uobj->list);
	spin_unlock(&file->uobjects_lock);
	/* the handle's reference */
	uverbs_uobj_put(uobj);
}

/**
 * uverbs_uobj_destroy - a destroying command: the object and its handle
 * @attrs: the command
 * @uobj: the object, held exclusively (uverbs_uobj_get())
 *
 * Context: process context, a command of the file.
 * Return: 0, the object and the command's hold on it gone; or the
 * type's error (-EBUSY while other objects use it), the object and the
 * hold kept for uverbs_uobj_release().
 */
int uverbs_uobj_destroy(struct uverbs_attr_bundle *attrs,
			struct ib_uobject *uobj)
{
	int ret;

	ret = uobj->uapi_object->destroy(uobj, RDMA_REMOVE_DESTROY, attrs);
	if (ret)
		return ret;
	uverbs_uobj_unlink(uobj);
	/* the command's reference */
	uverbs_uobj_put(uobj);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_destroy);

/**
 * uverbs_uobj_destroy_all - every object of a file, for its context's end
 * @file: the file; no command of it runs (close, or the device's
 *	unregistration after the commands in flight)
 * @why: RDMA_REMOVE_CLOSE or RDMA_REMOVE_DRIVER_REMOVE
 *
 * Newest first; an object that refuses (still used by another) is tried
 * again once the others are gone.
 *
 * Context: process context; the file's ucontext_lock held.
 */
void uverbs_uobj_destroy_all(struct ib_uverbs_file *file,
			     enum rdma_remove_reason why)
{
	struct uverbs_attr_bundle attrs = {
		.ufile = file,
		.context = file->ucontext,
	};
	struct ib_uobject *uobj, *tmp;
	bool progress = true;
	LIST_HEAD(todo);

	spin_lock(&file->uobjects_lock);
	list_splice_init(&file->uobjects, &todo);
	spin_unlock(&file->uobjects_lock);

	while (!list_empty(&todo) && progress) {
		progress = false;
		list_for_each_entry_safe_reverse(uobj, tmp, &todo, list) {
			if (uobj->uapi_object->destroy(uobj, why, &attrs))
				continue;
			xa_erase(&file->objects, uobj->id);
			list_del_init(&uobj->list);
			uverbs_uobj_put(uobj);
			progress = true;
		}
	}
	/* a type that refuses with nothing left to wait for: a bug */
	list_for_each_entry_safe(uobj, tmp, &todo, list) {
		WARN(1, "ib_uverbs: %s object %d cannot be destroyed\n",
		     uobj->uapi_object->name, uobj->id);
		xa_erase(&file->objects, uobj->id);
		list_del_init(&uobj->list);
		uverbs_uobj_put(uobj);
	}
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_destroy_all);
