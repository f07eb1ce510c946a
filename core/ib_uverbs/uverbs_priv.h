/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_uverbs's private structures.
 *
 * Lock order (outermost first):
 *   uverbs_device.disassociate_srcu (read side, every file operation)
 *   uverbs_device.files_lock
 *   ib_uverbs_file.ucontext_lock
 *   ib_uverbs_file.uobjects_lock, uverbs_async_file.lock (innermost;
 *   the latter irq-safe)
 * Nothing of ib_uverbs is held while a driver's op runs, except the
 * SRCU read side, and ucontext_lock around alloc_ucontext and
 * dealloc_ucontext.
 */
#ifndef UVERBS_PRIV_H
#define UVERBS_PRIV_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#include "../ib_core/core_modules.h"

/* Device numbers: 231:192..223 for uverbs0..31, then a dynamic region. */
#define UVERBS_MAJOR		231
#define UVERBS_BASE_MINOR	192
#define UVERBS_MAX_DEVICES	8192
#define UVERBS_NUM_FIXED_MINOR	32
#define UVERBS_NUM_DYNAMIC_MINOR (UVERBS_MAX_DEVICES - UVERBS_NUM_FIXED_MINOR)

/**
 * struct uverbs_device - the uverbsN of one RDMA device
 * @dev: uverbsN in class "infiniband_verbs"; its reference count keeps
 *	this structure (each open file holds one)
 * @cdev: the character device
 * @ib_dev: the RDMA device; NULL once it is being unregistered.  Read
 *	under @disassociate_srcu, written under @files_lock
 * @disassociate_srcu: every file operation that reaches @ib_dev holds
 *	its read side; unregistration waits for them before it takes the
 *	files' objects away
 * @files_lock: protects @files and the writes of @ib_dev
 * @files: the open files (struct ib_uverbs_file.list)
 * @devnum: N of uverbsN
 * @num_comp_vectors: the device's completion vectors, for its files
 */
struct uverbs_device {
	struct device		dev;
	struct cdev		cdev;
	struct ib_device __rcu	*ib_dev;
	struct srcu_struct	disassociate_srcu;
	struct mutex		files_lock;	/* @files, @ib_dev's writes */
	struct list_head	files;
	int			devnum;
	u32			num_comp_vectors;
};

/**
 * struct uverbs_async_file - a context's asynchronous event file
 * @ref: the struct file and the context each hold one
 * @lock: protects @events, @closed and @dead (irq-safe: events come
 *	from any context)
 * @events: struct uverbs_async_event, oldest first
 * @wait: readers and pollers
 * @handler: the device's port events, while @registered
 * @registered: @handler is registered (the context's to change)
 * @closed: the file was closed: nothing more is queued
 * @dead: IB_EVENT_DEVICE_FATAL was queued: nothing more is, and read()
 *	answers -EIO once the queue is empty
 */
struct uverbs_async_file {
	struct kref		ref;
	spinlock_t		lock;		/* see @lock above */
	struct list_head	events;
	wait_queue_head_t	wait;
	struct ib_event_handler	handler;
	bool			registered;
	bool			closed;
	bool			dead;
};

/**
 * struct ib_uverbs_file - an open uverbsN
 * @ref: the file and whatever else holds it; the last put frees it
 * @device: its uverbsN (a reference on device->dev is held)
 * @ucontext_lock: serializes GET_CONTEXT and protects @ucontext against
 *	the device's disassociation
 * @ucontext: the file's context, once GET_CONTEXT made it; NULL before
 *	and after the device took it away
 * @list: in device->files while the file is open
 * @async: the context's event file, with the context
 * @objects: the objects by handle (uverbs_uobj.c); its own lock, RCU
 *	readers
 * @uobjects_lock: protects @uobjects
 * @uobjects: the committed objects, oldest first
 * @disassociated: the device went away under the file: every command
 *	fails with -EIO
 */
struct ib_uverbs_file {
	struct kref		ref;
	struct uverbs_device	*device;
	struct mutex		ucontext_lock;	/* @ucontext, @disassociated */
	struct ib_ucontext	*ucontext;
	struct uverbs_async_file *async;
	struct list_head	list;
	struct xarray		objects;
	spinlock_t		uobjects_lock;	/* see @uobjects_lock above */
	struct list_head	uobjects;
	bool			disassociated;
};

/**
 * struct uverbs_api_object - a type of user object
 * @name: for messages ("PD", ...)
 * @destroy: frees the verbs object of a struct ib_uobject; may refuse
 *	(-EBUSY while other objects use it), else the object is gone.
 *	@attrs is the destroying command, or for RDMA_REMOVE_CLOSE and
 *	RDMA_REMOVE_DRIVER_REMOVE one with the file and context only
 */
struct uverbs_api_object {
	const char *name;
	int (*destroy)(struct ib_uobject *uobj, enum rdma_remove_reason why,
		       struct uverbs_attr_bundle *attrs);
};

struct uverbs_attr_bundle;

/**
 * struct uverbs_write_cmd - a command of write()
 * @handler: runs it; the bundle has the file, the core's buffers
 *	(ucore: the request from its response field on, the response) and
 *	the driver's
 * @req_size: the core's request (struct ib_uverbs_*), response field
 *	included; driver data follows it
 * @resp_size: the core's response; driver data follows it
 * @has_udata: the command carries driver data
 * @has_resp: the request starts with a response address
 */
struct uverbs_write_cmd {
	int (*handler)(struct uverbs_attr_bundle *attrs);
	u16 req_size;
	u16 resp_size;
	u8 has_udata:1;
	u8 has_resp:1;
};

/* The commands of write(), by number; NULL handler: not served. */
extern const struct uverbs_write_cmd uverbs_write_cmds[];
extern const unsigned int uverbs_num_write_cmds;
extern const struct uverbs_write_cmd uverbs_write_ex_cmds[];
extern const unsigned int uverbs_num_write_ex_cmds;

int uverbs_request(struct uverbs_attr_bundle *attrs, void *req, size_t len);
int uverbs_response(struct uverbs_attr_bundle *attrs, const void *resp,
		    size_t len);
struct ib_device *uverbs_file_ib_dev(struct ib_uverbs_file *file);
struct ib_ucontext *uverbs_get_ucontext(struct uverbs_attr_bundle *attrs);
int uverbs_get_context(struct uverbs_attr_bundle *attrs);
void uverbs_destroy_ucontext(struct ib_uverbs_file *file, bool device_gone);

struct ib_uobject *uverbs_uobj_create(struct uverbs_attr_bundle *attrs,
				      const struct uverbs_api_object *type);
void uverbs_uobj_commit(struct ib_uobject *uobj);
void uverbs_uobj_abort(struct ib_uobject *uobj);
struct ib_uobject *uverbs_uobj_get(struct uverbs_attr_bundle *attrs,
				   const struct uverbs_api_object *type,
				   u32 handle, bool exclusive);
void uverbs_uobj_release(struct ib_uobject *uobj, bool exclusive);
int uverbs_uobj_destroy(struct uverbs_attr_bundle *attrs,
			struct ib_uobject *uobj);
void uverbs_uobj_destroy_all(struct ib_uverbs_file *file,
			     enum rdma_remove_reason why);

/* the commands of write() (uverbs_cmd_*.c) */
struct ib_device *uverbs_ctx_request(struct uverbs_attr_bundle *attrs,
				     void *cmd, size_t len);
int uverbs_alloc_pd(struct uverbs_attr_bundle *attrs);
int uverbs_dealloc_pd(struct uverbs_attr_bundle *attrs);

struct uverbs_async_file *uverbs_async_create(struct file **filp);
void uverbs_async_put(struct uverbs_async_file *af);
void uverbs_async_queue(struct uverbs_async_file *af, u64 element, u32 type);
void uverbs_async_start(struct uverbs_async_file *af, struct ib_device *ib_dev);
void uverbs_async_stop(struct uverbs_async_file *af);

extern const struct file_operations uverbs_fops;

void uverbs_file_put(struct ib_uverbs_file *file);
void uverbs_disassociate_file(struct ib_uverbs_file *file);
#if IS_ENABLED(CONFIG_KUNIT)
int uverbs_check_hdr(const struct ib_uverbs_cmd_hdr *hdr,
		     const struct ib_uverbs_ex_cmd_hdr *ex_hdr, size_t count);
#endif

#endif /* UVERBS_PRIV_H */
