/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Types of user objects (struct ib_uobject) as ib_uverbs and drivers
 * declare them.  Every type belongs to a class that says how its
 * objects are named by user space: by a handle in the file's table
 * (uverbs_idr_class) or by a file descriptor of their own
 * (uverbs_fd_class).  Documentation/core/uverbs.rst, "Objects".
 */
#ifndef RDMA_UVERBS_TYPES_H
#define RDMA_UVERBS_TYPES_H

#include <linux/kernel.h>
#include <rdma/ib_verbs.h>

struct uverbs_obj_type;
struct uverbs_api_object;

/* How a command holds an object it names */
enum rdma_lookup_mode {
	UVERBS_LOOKUP_READ,	/* shared */
	UVERBS_LOOKUP_WRITE,	/* exclusive */
	/* exclusive, and the object's handle is going: nothing else to do */
	UVERBS_LOOKUP_DESTROY,
};

/**
 * struct uverbs_obj_type_class - what a class of objects does
 * @alloc_begin: a new object, its handle reserved, not visible yet
 * @alloc_commit: make it visible under its handle (the creating command
 *	succeeded)
 * @alloc_abort: give back the handle of an object never committed
 * @lookup_get: the object behind @id, referenced, or an ERR_PTR()
 * @lookup_put: a command is done with what @lookup_get gave
 * @destroy_hw: destroy what the object stands for; may refuse when
 *	@why is RDMA_REMOVE_DESTROY (-EBUSY while in use)
 * @remove_handle: user space can no longer name the object
 * @swap_uobjects: @obj_new takes the handle of @obj_old
 *
 * ib_uverbs calls these; a driver only names a class (UVERBS_TYPE_ALLOC_*).
 */
struct uverbs_obj_type_class {
	struct ib_uobject *(*alloc_begin)(const struct uverbs_api_object *obj,
					  struct uverbs_attr_bundle *attrs);
	void (*alloc_commit)(struct ib_uobject *uobj);
	void (*alloc_abort)(struct ib_uobject *uobj);
	struct ib_uobject *(*lookup_get)(const struct uverbs_api_object *obj,
					 struct ib_uverbs_file *ufile, s64 id,
					 enum rdma_lookup_mode mode);
	void (*lookup_put)(struct ib_uobject *uobj, enum rdma_lookup_mode mode);
	int __must_check (*destroy_hw)(struct ib_uobject *uobj,
				       enum rdma_remove_reason why,
				       struct uverbs_attr_bundle *attrs);
	void (*remove_handle)(struct ib_uobject *uobj);
	void (*swap_uobjects)(struct ib_uobject *obj_old,
			      struct ib_uobject *obj_new);
};

/**
 * struct uverbs_obj_type - a type of user object
 * @type_class: its class
 * @obj_size: the memory of one object: a structure starting with struct
 *	ib_uobject
 */
struct uverbs_obj_type {
	const struct uverbs_obj_type_class * const type_class;
	size_t obj_size;
};

/**
 * struct uverbs_obj_idr_type - a type named by handles
 * @type: the type
 * @destroy_object: free the verbs object behind the uobject; when @why
 *	is RDMA_REMOVE_DESTROY a failure leaves everything as it was
 */
struct uverbs_obj_idr_type {
	struct uverbs_obj_type type;
	int __must_check (*destroy_object)(struct ib_uobject *uobj,
					   enum rdma_remove_reason why,
					   struct uverbs_attr_bundle *attrs);
};

/**
 * struct uverbs_obj_fd_type - a type whose objects are files
 * @type: the type
 * @destroy_object: the object goes (its file closed, or the context
 *	torn down); the file may stay open without it
 * @fops: its file's operations; .release must be uverbs_uobject_fd_release
 * @name: its anonymous inode's name
 * @flags: O_RDONLY, O_WRONLY or O_RDWR
 */
struct uverbs_obj_fd_type {
	struct uverbs_obj_type type;
	void (*destroy_object)(struct ib_uobject *uobj,
			       enum rdma_remove_reason why);
	const struct file_operations *fops;
	const char *name;
	int flags;
};

struct ib_uobject *rdma_lookup_get_uobject(const struct uverbs_api_object *obj,
					   struct ib_uverbs_file *ufile, s64 id,
					   enum rdma_lookup_mode mode,
					   struct uverbs_attr_bundle *attrs);
void rdma_lookup_put_uobject(struct ib_uobject *uobj,
			     enum rdma_lookup_mode mode);
struct ib_uobject *rdma_alloc_begin_uobject(const struct uverbs_api_object *obj,
					    struct uverbs_attr_bundle *attrs);
void rdma_alloc_abort_uobject(struct ib_uobject *uobj,
			      struct uverbs_attr_bundle *attrs,
			      bool hw_obj_valid);
void rdma_alloc_commit_uobject(struct ib_uobject *uobj,
			       struct uverbs_attr_bundle *attrs);
void rdma_assign_uobject(struct ib_uobject *to_uobj,
			 struct ib_uobject *new_uobj,
			 struct uverbs_attr_bundle *attrs);

/* A reference on an object's memory (not on what it stands for). */
static inline void uverbs_uobject_get(struct ib_uobject *uobject)
{
	kref_get(&uobject->ref);
}

void uverbs_uobject_put(struct ib_uobject *uobject);
extern const struct uverbs_obj_type_class uverbs_idr_class;
extern const struct uverbs_obj_type_class uverbs_fd_class;
int uverbs_uobject_fd_release(struct inode *inode, struct file *filp);

/* A type of file objects, as a struct uverbs_obj_type lvalue */
#define UVERBS_TYPE_ALLOC_FD(_obj_size, _destroy_object, _fops, _name, _flags) \
	((&((const struct uverbs_obj_fd_type){				       \
		.type = {						       \
			.type_class = &uverbs_fd_class,			       \
			.obj_size = (_obj_size) +			       \
				BUILD_BUG_ON_ZERO((_obj_size) <	       \
					sizeof(struct ib_uobject)),	       \
		},							       \
		.destroy_object = _destroy_object,			       \
		.fops = _fops,						       \
		.name = _name,						       \
		.flags = _flags,					       \
	}))->type)

/* A type of handle objects of @_size bytes each */
#define UVERBS_TYPE_ALLOC_IDR_SZ(_size, _destroy_object)		       \
	((&((const struct uverbs_obj_idr_type){				       \
		.type = {						       \
			.type_class = &uverbs_idr_class,		       \
			.obj_size = (_size) +				       \
				BUILD_BUG_ON_ZERO((_size) <		       \
					sizeof(struct ib_uobject)),	       \
		},							       \
		.destroy_object = _destroy_object,			       \
	}))->type)

/* A type of handle objects that are a plain struct ib_uobject */
#define UVERBS_TYPE_ALLOC_IDR(_destroy_object)				       \
	UVERBS_TYPE_ALLOC_IDR_SZ(sizeof(struct ib_uobject), _destroy_object)

#endif /* RDMA_UVERBS_TYPES_H */
