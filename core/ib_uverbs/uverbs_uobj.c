// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A file's objects (struct ib_uobject): how user space names them, their
 * use by commands, their creation and destruction, for both paths
 * (write() and the ioctl) and every class of type (struct
 * uverbs_obj_type_class):
 *
 *  - uverbs_idr_class: a handle, an index in the file's xarray.
 *  - uverbs_fd_class: a file descriptor of the object's own, whose
 *    file's release (uverbs_uobject_fd_release()) destroys it.
 *  - the core's event files (uverbs_event.c) have a class of their own.
 *
 * A creating command reserves the handle first
 * (rdma_alloc_begin_uobject()); the object becomes visible only when
 * the command succeeded (rdma_alloc_commit_uobject()), else the handle
 * is given back (rdma_alloc_abort_uobject()).  A command using an object
 * holds it shared (a QP's PD while the QP is made) or exclusively (the
 * object it modifies or destroys) for the command's length:
 * struct ib_uobject.usecnt counts the shared holders, -1 marks the
 * exclusive one, and a command that finds the object held the other way
 * gets -EBUSY, as upstream's.
 *
 * References on a struct ib_uobject: the creating command's, which a
 * commit hands to the file's list; each command's lookup; an fd object's
 * struct file.  A destroyed object leaves the list with the list's
 * reference and has no ->object; its memory may outlive it (a destroy
 * command reads its event counts after).
 *
 * Objects are destroyed by their command, or all of them when the file's
 * context goes (close, or the device's unregistration): newest first,
 * so an object goes before the objects it was made from; an object
 * still in use by another (a PD with an MR a driver still holds) is
 * tried again after the others.
 */
#include <kunit/visibility.h>
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "uverbs_priv.h"

/* Handles are u32 as user space sees them; ours stay below INT_MAX. */
static const struct xa_limit uverbs_handle_limit = XA_LIMIT(0, INT_MAX);

static void uverbs_uobject_free(struct kref *ref)
{
	kfree_rcu(container_of(ref, struct ib_uobject, ref), rcu);
}

/**
 * uverbs_uobject_put - drop a reference on an object's memory
 * @uobject: the object
 *
 * Context: any context.
 */
void uverbs_uobject_put(struct ib_uobject *uobject)
{
	kref_put(&uobject->ref, uverbs_uobject_free);
}
EXPORT_SYMBOL(uverbs_uobject_put);

/* Hold @uobj as @mode says: 0 or -EBUSY. */
static int uverbs_try_lock_object(struct ib_uobject *uobj,
				  enum rdma_lookup_mode mode)
{
	if (mode == UVERBS_LOOKUP_READ)
		return atomic_fetch_add_unless(&uobj->usecnt, 1, -1) == -1 ?
		       -EBUSY : 0;
	return atomic_cmpxchg(&uobj->usecnt, 0, -1) ? -EBUSY : 0;
}

static void uverbs_unlock_object(struct ib_uobject *uobj,
				 enum rdma_lookup_mode mode)
{
	if (mode == UVERBS_LOOKUP_READ)
		atomic_dec(&uobj->usecnt);
	else
		atomic_set(&uobj->usecnt, 0);
}

/* A new struct ib_uobject of @obj's type for the command's context. */
static struct ib_uobject *uverbs_uobj_new(const struct uverbs_api_object *obj,
					  struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;

	/* kfree_rcu() of the uobject frees the whole object */
	BUILD_BUG_ON(offsetof(struct ib_uevent_object, uobject));
	BUILD_BUG_ON(offsetof(struct ib_ucq_object, uevent));
	uobj = kzalloc(max(obj->type_attrs->obj_size, sizeof(*uobj)),
		       GFP_KERNEL);
	if (!uobj)
		return ERR_PTR(-ENOMEM);
	kref_init(&uobj->ref);
	uobj->ufile = attrs->ufile;
	uobj->context = attrs->context;
	uobj->uapi_object = obj;
	INIT_LIST_HEAD(&uobj->list);
	/* the creating command holds it exclusively until commit */
	atomic_set(&uobj->usecnt, -1);
	return uobj;
}

/* --- handles (uverbs_idr_class) --- */

static struct ib_uobject *
uverbs_idr_alloc_begin(const struct uverbs_api_object *obj,
		       struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_uobj_new(obj, attrs);
	u32 id;
	int ret;

	if (IS_ERR(uobj))
		return uobj;
	ret = xa_alloc(&attrs->ufile->objects, &id, XA_ZERO_ENTRY,
		       uverbs_handle_limit, GFP_KERNEL);
	if (ret) {
		kfree(uobj);
		return ERR_PTR(ret);
	}
	uobj->id = id;
	/* a handle is an HCA object of the rdma cgroup's "rdma.max" */
	ret = ib_rdmacg_try_charge(&uobj->cg_obj, uobj->context->device,
				   RDMACG_RESOURCE_HCA_OBJECT);
	if (ret) {
		xa_erase(&attrs->ufile->objects, id);
		kfree(uobj);
		return ERR_PTR(ret);
	}
	return uobj;
}

static void uverbs_idr_alloc_commit(struct ib_uobject *uobj)
{
	/* the reserved entry cannot fail to take the pointer */
	WARN_ON(xa_err(xa_store(&uobj->ufile->objects, uobj->id, uobj,
				GFP_KERNEL)));
}

static void uverbs_idr_remove_handle(struct ib_uobject *uobj)
{
	xa_erase(&uobj->ufile->objects, uobj->id);
}

static void uverbs_idr_alloc_abort(struct ib_uobject *uobj)
{
	ib_rdmacg_uncharge(&uobj->cg_obj, uobj->context->device,
			   RDMACG_RESOURCE_HCA_OBJECT);
	uverbs_idr_remove_handle(uobj);
}

static struct ib_uobject *
uverbs_idr_lookup_get(const struct uverbs_api_object *obj,
		      struct ib_uverbs_file *ufile, s64 id,
		      enum rdma_lookup_mode mode)
{
	struct ib_uobject *uobj;

	if (id < 0 || id > INT_MAX)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	uobj = xa_load(&ufile->objects, id);
	if (!uobj || !kref_get_unless_zero(&uobj->ref))
		uobj = ERR_PTR(-ENOENT);
	rcu_read_unlock();
	return uobj;
}

static void uverbs_idr_lookup_put(struct ib_uobject *uobj,
				  enum rdma_lookup_mode mode)
{
}

static int uverbs_idr_destroy_hw(struct ib_uobject *uobj,
				 enum rdma_remove_reason why,
				 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_idr_type *t =
		container_of(uobj->uapi_object->type_attrs,
			     struct uverbs_obj_idr_type, type);

	int ret;

	ret = t->destroy_object(uobj, why, attrs);
	/* an aborted creation gives its charge back in alloc_abort */
	if (!ret && why != RDMA_REMOVE_ABORT)
		ib_rdmacg_uncharge(&uobj->cg_obj, uobj->context->device,
				   RDMACG_RESOURCE_HCA_OBJECT);
	return ret;
}

static void uverbs_idr_swap(struct ib_uobject *obj_old,
			    struct ib_uobject *obj_new)
{
	struct ib_uverbs_file *ufile = obj_old->ufile;

	swap(obj_old->id, obj_new->id);
	WARN_ON(xa_err(xa_store(&ufile->objects, obj_new->id, obj_new,
				GFP_KERNEL)));
}

const struct uverbs_obj_type_class uverbs_idr_class = {
	.alloc_begin = uverbs_idr_alloc_begin,
	.alloc_commit = uverbs_idr_alloc_commit,
	.alloc_abort = uverbs_idr_alloc_abort,
	.lookup_get = uverbs_idr_lookup_get,
	.lookup_put = uverbs_idr_lookup_put,
	.destroy_hw = uverbs_idr_destroy_hw,
	.remove_handle = uverbs_idr_remove_handle,
	.swap_uobjects = uverbs_idr_swap,
};
EXPORT_SYMBOL(uverbs_idr_class);

/* --- objects that are files (uverbs_fd_class) --- */

static const struct uverbs_obj_fd_type *
uverbs_fd_type(const struct uverbs_api_object *obj)
{
	return container_of(obj->type_attrs, struct uverbs_obj_fd_type, type);
}

/* The fd in uobj->id, the file in uobj->object; the file holds a ref. */
static struct ib_uobject *
uverbs_fd_alloc_begin(const struct uverbs_api_object *obj,
		      struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_fd_type *t = uverbs_fd_type(obj);
	struct ib_uobject *uobj;
	struct file *filp;
	int fd;

	if (WARN_ON(t->fops->release != uverbs_uobject_fd_release))
		return ERR_PTR(-EINVAL);
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0)
		return ERR_PTR(fd);
	uobj = uverbs_uobj_new(obj, attrs);
	if (IS_ERR(uobj)) {
		put_unused_fd(fd);
		return uobj;
	}
	/* the file's reference */
	kref_get(&uobj->ref);
	filp = anon_inode_getfile(t->name, t->fops, uobj, t->flags);
	if (IS_ERR(filp)) {
		put_unused_fd(fd);
		kfree(uobj);
		return ERR_CAST(filp);
	}
	uobj->id = fd;
	uobj->object = filp;
	return uobj;
}

static void uverbs_fd_alloc_commit(struct ib_uobject *uobj)
{
	struct file *filp = uobj->object;

	/* the file holds the uverbs file until its release */
	kref_get(&uobj->ufile->ref);
	fd_install(uobj->id, filp);
	/* user space names it by fd only */
	uobj->id = 0;
}

static void uverbs_fd_alloc_abort(struct ib_uobject *uobj)
{
	struct file *filp = uobj->object;

	/* the release must not take it for a committed object */
	filp->private_data = NULL;
	fput(filp);
	put_unused_fd(uobj->id);
	/* the file's reference */
	uverbs_uobject_put(uobj);
}

static struct ib_uobject *
uverbs_fd_lookup_get(const struct uverbs_api_object *obj,
		     struct ib_uverbs_file *ufile, s64 id,
		     enum rdma_lookup_mode mode)
{
	const struct uverbs_obj_fd_type *t = uverbs_fd_type(obj);
	struct ib_uobject *uobj;
	struct file *f;

	if (mode != UVERBS_LOOKUP_READ)
		return ERR_PTR(-EOPNOTSUPP);
	if (id < 0 || id > INT_MAX)
		return ERR_PTR(-EINVAL);
	f = fget(id);
	if (!f)
		return ERR_PTR(-EBADF);
	uobj = f->private_data;
	/* the file's reference stays until lookup_put */
	if (f->f_op != t->fops || !uobj || uobj->ufile != ufile) {
		fput(f);
		return ERR_PTR(-EBADF);
	}
	uverbs_uobject_get(uobj);
	return uobj;
}

static void uverbs_fd_lookup_put(struct ib_uobject *uobj,
				 enum rdma_lookup_mode mode)
{
	fput(uobj->object);
}

static int uverbs_fd_destroy_hw(struct ib_uobject *uobj,
				enum rdma_remove_reason why,
				struct uverbs_attr_bundle *attrs)
{
	uverbs_fd_type(uobj->uapi_object)->destroy_object(uobj, why);
	return 0;
}

static void uverbs_fd_remove_handle(struct ib_uobject *uobj)
{
}

const struct uverbs_obj_type_class uverbs_fd_class = {
	.alloc_begin = uverbs_fd_alloc_begin,
	.alloc_commit = uverbs_fd_alloc_commit,
	.alloc_abort = uverbs_fd_alloc_abort,
	.lookup_get = uverbs_fd_lookup_get,
	.lookup_put = uverbs_fd_lookup_put,
	.destroy_hw = uverbs_fd_destroy_hw,
	.remove_handle = uverbs_fd_remove_handle,
};
EXPORT_SYMBOL(uverbs_fd_class);

/* --- every class --- */

/*
 * Destroy @uobj and take it off the file: its verbs object (the type may
 * refuse for RDMA_REMOVE_DESTROY), its handle, its place on the list
 * and the list's reference.  The file's ucontext_lock or the command's
 * exclusive hold keeps others away.
 */
static int uverbs_destroy_uobject(struct ib_uobject *uobj,
				  enum rdma_remove_reason why,
				  struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type_class *cls =
		uobj->uapi_object->type_class;
	struct ib_uverbs_file *file = uobj->ufile;
	bool listed;
	int ret;

	ret = cls->destroy_hw(uobj, why, attrs);
	if (ret)
		return ret;
	/* an fd object keeps its file: uverbs_uobject_fd_release() */
	if (cls != &uverbs_fd_class)
		uobj->object = NULL;
	cls->remove_handle(uobj);
	spin_lock(&file->uobjects_lock);
	listed = !list_empty(&uobj->list);
	list_del_init(&uobj->list);
	spin_unlock(&file->uobjects_lock);
	if (listed)
		uverbs_uobject_put(uobj);
	return 0;
}

/**
 * rdma_lookup_get_uobject - the object a command names, held
 * @obj: the type the command expects (an ERR_PTR() for a type the
 *	device lacks)
 * @ufile: the command's file
 * @id: the handle or fd
 * @mode: how to hold it
 * @attrs: the command (its context is set to the object's), or NULL
 *
 * Context: process context, a command of the file.
 * Return: the object, held until rdma_lookup_put_uobject(); -ENOENT for
 * a handle of no object, -EINVAL for one of another type or a type the
 * device lacks, -EBADF for an fd of no such object, -EBUSY when held the
 * other way, -EIO once the device is gone (but for destroying).
 */
struct ib_uobject *rdma_lookup_get_uobject(const struct uverbs_api_object *obj,
					   struct ib_uverbs_file *ufile, s64 id,
					   enum rdma_lookup_mode mode,
					   struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj;
	int ret;

	if (obj == ERR_PTR(-ENOMSG)) {
		/* UVERBS_IDR_ANY_OBJECT: a handle of any type */
		uobj = uverbs_idr_lookup_get(NULL, ufile, id, mode);
		if (IS_ERR(uobj))
			return uobj;
		if (uobj->uapi_object->type_class != &uverbs_idr_class) {
			ret = -EINVAL;
			goto err;
		}
	} else {
		if (IS_ERR_OR_NULL(obj))
			return ERR_PTR(-EINVAL);
		uobj = obj->type_class->lookup_get(obj, ufile, id, mode);
		if (IS_ERR(uobj))
			return uobj;
		if (uobj->uapi_object != obj) {
			ret = -EINVAL;
			goto err;
		}
	}
	if (mode != UVERBS_LOOKUP_DESTROY && READ_ONCE(ufile->disassociated)) {
		ret = -EIO;
		goto err;
	}
	ret = uverbs_try_lock_object(uobj, mode);
	if (ret)
		goto err;
	if (attrs)
		attrs->context = uobj->context;
	return uobj;

err:
	uobj->uapi_object->type_class->lookup_put(uobj, mode);
	uverbs_uobject_put(uobj);
	return ERR_PTR(ret);
}

/**
 * rdma_lookup_put_uobject - a command is done with an object
 * @uobj: what rdma_lookup_get_uobject() gave
 * @mode: as it was taken
 *
 * Context: process context.
 */
void rdma_lookup_put_uobject(struct ib_uobject *uobj,
			     enum rdma_lookup_mode mode)
{
	uobj->uapi_object->type_class->lookup_put(uobj, mode);
	uverbs_unlock_object(uobj, mode);
	uverbs_uobject_put(uobj);
}

/**
 * rdma_alloc_begin_uobject - a new object for a creating command
 * @obj: its type
 * @attrs: the command; the file must have a context
 *
 * Context: process context, a command of the file.
 * Return: the object, its handle reserved but not visible, or an
 * ERR_PTR() (-EINVAL without a context, -EIO once the device is gone,
 * -ENOMEM, -EBUSY when the file has INT_MAX objects, -EMFILE, -EAGAIN
 * past the rdma cgroup's limit of HCA objects).
 */
struct ib_uobject *rdma_alloc_begin_uobject(const struct uverbs_api_object *obj,
					    struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *uctx;

	if (IS_ERR_OR_NULL(obj))
		return ERR_PTR(-EINVAL);
	uctx = uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return ERR_CAST(uctx);
	return obj->type_class->alloc_begin(obj, attrs);
}
EXPORT_SYMBOL_IF_KUNIT(rdma_alloc_begin_uobject);

/**
 * rdma_alloc_commit_uobject - make a created object visible
 * @uobj: the object, its ->object set
 * @attrs: the creating command, which succeeded
 *
 * Context: process context.
 */
void rdma_alloc_commit_uobject(struct ib_uobject *uobj,
			       struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_file *file = uobj->ufile;

	/* the creator's reference is now the list's */
	spin_lock(&file->uobjects_lock);
	list_add_tail(&uobj->list, &file->uobjects);
	spin_unlock(&file->uobjects_lock);
	atomic_set(&uobj->usecnt, 0);
	uobj->uapi_object->type_class->alloc_commit(uobj);
}
EXPORT_SYMBOL_IF_KUNIT(rdma_alloc_commit_uobject);

/**
 * rdma_alloc_abort_uobject - give back a created object's handle
 * @uobj: the object, never committed
 * @attrs: the creating command, which failed
 * @hw_obj_valid: the verbs object was made: destroy it
 *	(RDMA_REMOVE_ABORT), else the caller did or it never existed
 *
 * Context: process context.
 */
void rdma_alloc_abort_uobject(struct ib_uobject *uobj,
			      struct uverbs_attr_bundle *attrs,
			      bool hw_obj_valid)
{
	const struct uverbs_obj_type_class *cls =
		uobj->uapi_object->type_class;

	if (hw_obj_valid)
		WARN_ON(cls->destroy_hw(uobj, RDMA_REMOVE_ABORT, attrs));
	cls->alloc_abort(uobj);
	/* the creator's reference */
	uverbs_uobject_put(uobj);
}
EXPORT_SYMBOL_IF_KUNIT(rdma_alloc_abort_uobject);

/**
 * rdma_assign_uobject - a new object takes an old one's handle
 * @to_uobj: the old object, held exclusively; it is destroyed
 * @new_uobj: the new object, not committed
 * @attrs: the command
 *
 * Context: process context.
 */
void rdma_assign_uobject(struct ib_uobject *to_uobj,
			 struct ib_uobject *new_uobj,
			 struct uverbs_attr_bundle *attrs)
{
	const struct uverbs_obj_type_class *cls =
		to_uobj->uapi_object->type_class;

	cls->swap_uobjects(to_uobj, new_uobj);
	/* the old one has the new one's reserved handle now */
	WARN_ON(uverbs_destroy_uobject(to_uobj, RDMA_REMOVE_DESTROY, attrs));
	spin_lock(&new_uobj->ufile->uobjects_lock);
	list_add_tail(&new_uobj->list, &new_uobj->ufile->uobjects);
	spin_unlock(&new_uobj->ufile->uobjects_lock);
	atomic_set(&new_uobj->usecnt, 0);
}

/**
 * uverbs_obj_get - the object of a handle, held for a write() command
 * @attrs: the command
 * @type: the type it expects
 * @handle: what user space named
 * @mode: UVERBS_LOOKUP_READ to use it, _WRITE to change it
 *
 * Context: process context, a command of the file.
 * Return: the object, held until uverbs_obj_put(); -EINVAL when the
 * handle names no object of @type (write()'s answer, where the ioctl's
 * is -ENOENT); -EBUSY when it is held the other way.
 */
struct ib_uobject *uverbs_obj_get(struct uverbs_attr_bundle *attrs,
				  const struct uverbs_api_object *type,
				  u32 handle, enum rdma_lookup_mode mode)
{
	struct ib_uobject *uobj;

	uobj = rdma_lookup_get_uobject(type, attrs->ufile, handle, mode,
				       attrs);
	if (uobj == ERR_PTR(-ENOENT))
		return ERR_PTR(-EINVAL);
	return uobj;
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_obj_get);

/**
 * uverbs_obj_put - a write() command is done with an object
 * @uobj: what uverbs_obj_get() gave
 * @mode: as it was taken
 *
 * Context: process context.
 */
void uverbs_obj_put(struct ib_uobject *uobj, enum rdma_lookup_mode mode)
{
	rdma_lookup_put_uobject(uobj, mode);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_obj_put);

/**
 * uverbs_uobj_destroy - destroy an object held for destroying
 * @attrs: the command
 * @uobj: the object, held exclusively (UVERBS_LOOKUP_WRITE or _DESTROY)
 *
 * Context: process context, a command of the file.
 * Return: 0, the object gone (the command's hold and reference stay for
 * rdma_lookup_put_uobject()); or the type's error (-EBUSY while other
 * objects use it), the object unchanged.
 */
int uverbs_uobj_destroy(struct uverbs_attr_bundle *attrs,
			struct ib_uobject *uobj)
{
	return uverbs_destroy_uobject(uobj, RDMA_REMOVE_DESTROY, attrs);
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_destroy);

/**
 * uverbs_uobject_fd_release - the release() of an fd object's file
 * @inode: its inode
 * @filp: its file
 *
 * Destroys the object (RDMA_REMOVE_CLOSE) unless its context's end did.
 *
 * Context: process context, the file's last fput().
 * Return: 0.
 */
int uverbs_uobject_fd_release(struct inode *inode, struct file *filp)
{
	struct ib_uobject *uobj = filp->private_data;
	struct ib_uverbs_file *file;

	/* an aborted creation: uverbs_fd_alloc_abort() */
	if (!uobj)
		return 0;
	file = uobj->ufile;
	mutex_lock(&file->ucontext_lock);
	if (!list_empty(&uobj->list)) {
		struct uverbs_attr_bundle attrs = {
			.ufile = file,
			.context = uobj->context,
		};

		/* no command holds it: each holds the file */
		WARN_ON(uverbs_try_lock_object(uobj, UVERBS_LOOKUP_WRITE));
		WARN_ON(uverbs_destroy_uobject(uobj, RDMA_REMOVE_CLOSE,
					       &attrs));
	}
	mutex_unlock(&file->ucontext_lock);
	/* alloc_commit's */
	uverbs_file_put(file);
	/* the file's */
	uverbs_uobject_put(uobj);
	return 0;
}
EXPORT_SYMBOL(uverbs_uobject_fd_release);

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

	lockdep_assert_held(&file->ucontext_lock);
	while (progress) {
		progress = false;
		spin_lock(&file->uobjects_lock);
		list_splice_init(&file->uobjects, &todo);
		spin_unlock(&file->uobjects_lock);
		list_for_each_entry_safe_reverse(uobj, tmp, &todo, list) {
			/* taken off the list by uverbs_destroy_uobject() */
			spin_lock(&file->uobjects_lock);
			list_move(&uobj->list, &file->uobjects);
			spin_unlock(&file->uobjects_lock);
			if (!uverbs_destroy_uobject(uobj, why, &attrs))
				progress = true;
		}
		if (list_empty(&file->uobjects))
			return;
	}
	/* a type that refuses with nothing left to wait for: a bug */
	spin_lock(&file->uobjects_lock);
	list_splice_init(&file->uobjects, &todo);
	spin_unlock(&file->uobjects_lock);
	list_for_each_entry_safe(uobj, tmp, &todo, list) {
		WARN(1, "ib_uverbs: object %d of type %u cannot be destroyed\n",
		     uobj->id, uobj->uapi_object->id);
		uobj->uapi_object->type_class->remove_handle(uobj);
		list_del_init(&uobj->list);
		uverbs_uobject_put(uobj);
	}
}
EXPORT_SYMBOL_IF_KUNIT(uverbs_uobj_destroy_all);
