/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_uverbs's private structures.
 *
 * Lock order (outermost first):
 *   uverbs_device.disassociate_srcu (read side, every file operation)
 *   uverbs_device.files_lock
 *   ib_uverbs_file.ucontext_lock
 *   mm->mmap_lock (of a process with a mapping of the file)
 *   ib_uverbs_file.umap_lock
 *   ib_uverbs_file.uobjects_lock
 *   uverbs_event_file.lock (innermost, irq-safe)
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
#include <rdma/uverbs_std_types.h>

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
 * @uapi: the device's ioctl methods (uverbs_uapi.c), built when it came
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
	struct uverbs_api	*uapi;
};

/**
 * struct uverbs_event_file - an event file: a context's async file or a
 *	completion channel
 * @ref: the struct file holds one, and whoever queues to it: the
 *	context (async file), each CQ of the channel, each object whose
 *	async events go to it
 * @lock: protects @events, the objects' lists of their events,
 *	@closed and @dead (irq-safe: events come from any context)
 * @events: struct uverbs_event, oldest first
 * @wait: readers and pollers
 * @fasync: SIGIO receivers
 * @comp: a completion channel (else the async file)
 * @closed: nothing more is queued: the file was closed, or (a channel)
 *	its context is gone
 * @dead: (async file) IB_EVENT_DEVICE_FATAL was queued: nothing more is,
 *	and read() answers -EIO once the queue is empty
 * @handler: (async file) the device's port events, while @registered
 * @registered: @handler is registered (the context's to change)
 * @ufile: (channel) its uverbs file, referenced
 * @list: (channel) in @ufile's comp_channels while its fd is open
 */
struct uverbs_event_file {
	struct kref		ref;
	spinlock_t		lock;		/* see @lock above */
	struct list_head	events;
	wait_queue_head_t	wait;
	struct fasync_struct	*fasync;
	bool			comp;
	bool			closed;
	bool			dead;
	bool			registered;
	struct ib_event_handler	handler;
	struct ib_uverbs_file	*ufile;
	struct list_head	list;
};

/**
 * struct ib_uqp_object - a user QP
 * @uevent: its async events
 * @mcast_lock: protects @mcast_list
 * @mcast_list: its multicast attachments (struct uverbs_mcast_entry)
 */
struct ib_uqp_object {
	struct ib_uevent_object		uevent;
	struct mutex			mcast_lock;	/* @mcast_list */
	struct list_head		mcast_list;
};

/**
 * struct ib_usrq_object - a user SRQ
 * @uevent: its async events
 */
struct ib_usrq_object {
	struct ib_uevent_object		uevent;
};

/* struct ib_uverbs_file: ../ib_core/core_modules.h (ib_core maps on it) */

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
u32 uverbs_response_length(const struct uverbs_attr_bundle *attrs, size_t len);
struct ib_device *uverbs_file_ib_dev(struct ib_uverbs_file *file);
struct ib_ucontext *uverbs_get_ucontext(struct uverbs_attr_bundle *attrs);
int uverbs_get_context(struct uverbs_attr_bundle *attrs);
void uverbs_destroy_ucontext(struct ib_uverbs_file *file, bool device_gone);

struct ib_uobject *uverbs_obj_get(struct uverbs_attr_bundle *attrs,
				  const struct uverbs_api_object *type,
				  u32 handle, enum rdma_lookup_mode mode);
void uverbs_obj_put(struct ib_uobject *uobj, enum rdma_lookup_mode mode);
int uverbs_uobj_destroy(struct uverbs_attr_bundle *attrs,
			struct ib_uobject *uobj);
void uverbs_uobj_destroy_all(struct ib_uverbs_file *file,
			     enum rdma_remove_reason why);

/* the commands of write() (uverbs_cmd_*.c) */
struct ib_device *uverbs_ctx_request(struct uverbs_attr_bundle *attrs,
				     void *cmd, size_t len);
struct ib_device *uverbs_ctx_request_head(struct uverbs_attr_bundle *attrs,
					  void *cmd, size_t len);
int uverbs_destroy_cmd(struct uverbs_attr_bundle *attrs, void *cmd,
		       size_t len, const struct uverbs_api_object *type,
		       const u32 *handle,
		       void (*counts)(struct ib_uobject *uobj, void *resp),
		       void *resp, size_t resp_len);
int uverbs_alloc_pd(struct uverbs_attr_bundle *attrs);
int uverbs_dealloc_pd(struct uverbs_attr_bundle *attrs);
int uverbs_reg_mr(struct uverbs_attr_bundle *attrs);
int uverbs_rereg_mr(struct uverbs_attr_bundle *attrs);
int uverbs_dereg_mr(struct uverbs_attr_bundle *attrs);
int uverbs_alloc_mw(struct uverbs_attr_bundle *attrs);
int uverbs_dealloc_mw(struct uverbs_attr_bundle *attrs);
int uverbs_create_cq(struct uverbs_attr_bundle *attrs);
int uverbs_ex_create_cq(struct uverbs_attr_bundle *attrs);
int uverbs_destroy_cq(struct uverbs_attr_bundle *attrs);
int uverbs_poll_cq(struct uverbs_attr_bundle *attrs);
int uverbs_req_notify_cq(struct uverbs_attr_bundle *attrs);
int uverbs_resize_cq(struct uverbs_attr_bundle *attrs);
int uverbs_ex_modify_cq(struct uverbs_attr_bundle *attrs);
int uverbs_create_qp(struct uverbs_attr_bundle *attrs);
int uverbs_ex_create_qp(struct uverbs_attr_bundle *attrs);
int uverbs_query_qp(struct uverbs_attr_bundle *attrs);
int uverbs_modify_qp(struct uverbs_attr_bundle *attrs);
int uverbs_ex_modify_qp(struct uverbs_attr_bundle *attrs);
int uverbs_destroy_qp(struct uverbs_attr_bundle *attrs);
int uverbs_attach_mcast(struct uverbs_attr_bundle *attrs);
int uverbs_detach_mcast(struct uverbs_attr_bundle *attrs);
int uverbs_post_send(struct uverbs_attr_bundle *attrs);
int uverbs_post_recv(struct uverbs_attr_bundle *attrs);
int uverbs_post_srq_recv(struct uverbs_attr_bundle *attrs);
int uverbs_create_srq(struct uverbs_attr_bundle *attrs);
int uverbs_create_xsrq(struct uverbs_attr_bundle *attrs);
int uverbs_modify_srq(struct uverbs_attr_bundle *attrs);
int uverbs_query_srq(struct uverbs_attr_bundle *attrs);
int uverbs_destroy_srq(struct uverbs_attr_bundle *attrs);
int uverbs_create_ah(struct uverbs_attr_bundle *attrs);
int uverbs_destroy_ah(struct uverbs_attr_bundle *attrs);
void uverbs_init_uevent(struct ib_uevent_object *uevent, u64 user_handle,
			struct uverbs_event_file *async);
void uverbs_release_uevent(struct ib_uevent_object *uevent);

/* the object types (uverbs_cmd_*.c) */
extern const struct uverbs_api_object uverbs_type_pd;
extern const struct uverbs_api_object uverbs_type_mr;
extern const struct uverbs_api_object uverbs_type_mw;
extern const struct uverbs_api_object uverbs_type_cq;
extern const struct uverbs_api_object uverbs_type_qp;
extern const struct uverbs_api_object uverbs_type_srq;
extern const struct uverbs_api_object uverbs_type_ah;

struct uverbs_event_file *uverbs_event_file_create(struct file **filp,
						   struct ib_uverbs_file *ufile,
						   bool comp);
void uverbs_event_file_put(struct uverbs_event_file *ef);
void uverbs_event_file_close(struct uverbs_event_file *ef);
void uverbs_async_queue(struct uverbs_event_file *ef, u64 element, u32 type,
			struct ib_uevent_object *uevent);
void uverbs_async_start(struct uverbs_event_file *ef, struct ib_device *ib_dev);
void uverbs_async_stop(struct uverbs_event_file *ef);
void uverbs_comp_handler(struct ib_cq *cq, void *cq_context);
void uverbs_events_purge(struct uverbs_event_file *ef,
			 struct list_head *obj_list);
struct uverbs_event_file *uverbs_comp_channel_get(struct uverbs_attr_bundle *attrs,
						  int fd);
int uverbs_create_comp_channel(struct uverbs_attr_bundle *attrs);
void uverbs_comp_channel_unlink(struct uverbs_event_file *ef);
void uverbs_comp_channels_close(struct ib_uverbs_file *file);

/**
 * struct uverbs_api_attr - an attribute of a method in a device's tree
 * @spec: what it takes (the definitions' spec, merged)
 */
struct uverbs_api_attr {
	struct uverbs_attr_spec spec;
};

/**
 * struct uverbs_api_ioctl_method - a method in a device's tree
 * @handler: runs it; NULL when disabled (the method answers
 *	-EPROTONOSUPPORT as if absent)
 * @attrs: its attributes by slot (uverbs_attr_slot()), NULL where none
 * @attr_mandatory: the slots it cannot run without
 * @slots: one past its highest slot: the bundle's attrs[] it needs
 * @destroy_slot: the slot of its UVERBS_ACCESS_DESTROY attribute, or
 *	UVERBS_API_ATTR_BKEY_LEN
 * @has_udata: it has UVERBS_ATTR_UHW()
 * @disabled: the driver lacks what it needs
 */
struct uverbs_api_ioctl_method {
	int (*handler)(struct uverbs_attr_bundle *attrs);
	struct uverbs_api_attr *attrs[UVERBS_API_ATTR_BKEY_LEN];
	DECLARE_BITMAP(attr_mandatory, UVERBS_API_ATTR_BKEY_LEN);
	u8 slots;
	u8 destroy_slot;
	u8 has_udata:1;
	u8 disabled:1;
};

/**
 * struct uverbs_api_obj - an object in a device's tree
 * @obj: its type (the core's types are shared by every device, as the
 *	write() commands name them; a driver's are the tree's own), NULL
 *	for an object without instances (DEVICE)
 * @disabled: the driver lacks what it needs
 * @owned: @obj is the tree's, freed with it
 */
struct uverbs_api_obj {
	const struct uverbs_api_object *obj;
	bool disabled;
	bool owned;
};

/**
 * struct uverbs_api - the ioctl methods of a device
 * @objects: struct uverbs_api_obj by object ID
 * @methods: struct uverbs_api_ioctl_method by uverbs_method_key()
 * @driver_id: what an ioctl's header must name (ops.driver_id)
 */
struct uverbs_api {
	struct xarray objects;
	struct xarray methods;
	u32 driver_id;
};

/* The key of a method in struct uverbs_api.methods */
static inline unsigned long uverbs_method_key(u16 object_id, u16 method_id)
{
	return (unsigned long)object_id << 16 | method_id;
}

struct uverbs_api *uverbs_alloc_api(struct ib_device *ibdev);
struct uverbs_api *uverbs_build_api(const struct uapi_definition *core,
				    const struct uapi_definition *driver,
				    struct ib_device *ibdev);
void uverbs_destroy_api(struct uverbs_api *uapi);
long uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
#if IS_ENABLED(CONFIG_KUNIT)
int uverbs_ioctl_run(struct ib_uverbs_file *file, struct uverbs_api *uapi,
		     struct ib_uverbs_ioctl_hdr __user *uhdr);
#endif
extern const struct uapi_definition uverbs_core_api[];
extern const struct uverbs_api_object uverbs_type_comp_channel;
extern const struct uverbs_api_object uverbs_type_async_event;
const struct uverbs_write_cmd *uverbs_lookup_write(u32 command);
void uverbs_fill_ucore(struct uverbs_attr_bundle *bundle);
void uverbs_cq_counts(struct ib_uobject *uobj, void *resp);
int uverbs_cq_create_ioctl(struct uverbs_attr_bundle *attrs,
			   struct ib_uobject *uobj,
			   const struct ib_uverbs_ex_create_cq *cmd,
			   struct uverbs_event_file *comp,
			   struct uverbs_event_file *async);
int uverbs_qp_type_check(enum ib_qp_type type);
int uverbs_qp_create_ioctl(struct uverbs_attr_bundle *attrs,
			   struct ib_uobject *uobj, struct ib_pd *pd,
			   struct ib_qp_init_attr *attr,
			   struct ib_uverbs_qp_cap *cap, u64 user_handle,
			   struct uverbs_event_file *async);
void uverbs_qp_counts(struct ib_uobject *uobj, void *resp);
int uverbs_srq_create_ioctl(struct uverbs_attr_bundle *attrs,
			    struct ib_uobject *uobj, struct ib_pd *pd,
			    struct ib_srq_init_attr *attr, u64 user_handle,
			    struct uverbs_event_file *async);
void uverbs_srq_counts(struct ib_uobject *uobj, void *resp);
void uverbs_port_resp(struct ib_device *dev, u32 port_num,
		      const struct ib_port_attr *attr,
		      struct ib_uverbs_query_port_resp *resp);
int uverbs_get_context_ioctl(struct uverbs_attr_bundle *attrs);

extern const struct file_operations uverbs_fops;

void uverbs_file_put(struct ib_uverbs_file *file);
void uverbs_disassociate_file(struct ib_uverbs_file *file);

/* uverbs_main.c: the uverbsN of @device, or NULL (kernel-doc there) */
struct uverbs_device *uverbs_get_device(struct ib_device *device);

/* uverbs_mmap.c (kernel-doc there) */
int uverbs_mmap(struct file *filp, struct vm_area_struct *vma);
void uverbs_umap_zap(struct ib_uverbs_file *file, bool for_good);
#if IS_ENABLED(CONFIG_KUNIT)
int uverbs_check_hdr(const struct ib_uverbs_cmd_hdr *hdr,
		     const struct ib_uverbs_ex_cmd_hdr *ex_hdr, size_t count);
#endif

#endif /* UVERBS_PRIV_H */
