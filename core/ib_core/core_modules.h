/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What ib_core exports for the other core modules only (rdma_cm,
 * ib_umad, iw_cm, ib_cm, ib_uverbs; rdma_ucm later), not for drivers
 * or ULPs: upstream exports the same symbols and declares them in its
 * private core header.  This is the one header of ib_core that the other
 * modules' folders may include (tools/testing/rdma/static-check.sh
 * "includes" holds them to it); the rest of ib_core's headers are its own.
 */
#ifndef RDMA_CORE_MODULES_H
#define RDMA_CORE_MODULES_H

#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

/* cache.c: the GID type names of configfs and sysfs ("IB/RoCE v1", ...) */
const char *ib_cache_gid_type_str(enum ib_gid_type gid_type);
/* Parse a GID type name as ib_cache_gid_type_str() writes it; -EINVAL. */
int ib_cache_gid_parse_type_str(const char *buf);

/* roce_gid_mgmt.c: the GID types of a port, BIT(enum ib_gid_type) each */
unsigned long roce_gid_type_mask_support(struct ib_device *ib_dev, u32 port);

/*
 * restrack.c: a tracked object's life, for objects made outside ib_core
 * (rdma_cm's ids, ib_uverbs's contexts): new, named, added when
 * complete, deleted before free.
 */
void rdma_restrack_new(struct rdma_restrack_entry *res,
		       enum rdma_restrack_type type);
void rdma_restrack_set_name(struct rdma_restrack_entry *res,
			    const char *caller);
void rdma_restrack_parent_name(struct rdma_restrack_entry *dst,
			       const struct rdma_restrack_entry *parent);
void rdma_restrack_add(struct rdma_restrack_entry *res);
void rdma_restrack_del(struct rdma_restrack_entry *res);

/*
 * sysfs.c: add or remove a client's attribute groups (ib_cm's counters)
 * in the directory of a port of a registered device.
 */
int ib_port_register_client_groups(struct ib_device *ibdev, u32 port_num,
				   const struct attribute_group **groups);
void ib_port_unregister_client_groups(struct ib_device *ibdev, u32 port_num,
				      const struct attribute_group **groups);

/*
 * ib_uverbs's user objects that nldev reads (a user CQ names its
 * context): upstream shares them the same way.
 */
struct uverbs_event_file;

/**
 * struct ib_uevent_object - a user object with asynchronous events
 * @uobject: the object (first: its memory is the uobject's)
 * @event_file: the async file its events go to, referenced
 * @event_list: its events not read yet (under @event_file's lock)
 * @events_reported: its events read
 */
struct ib_uevent_object {
	struct ib_uobject		uobject;
	struct uverbs_event_file	*event_file;
	struct list_head		event_list;
	u32				events_reported;
};

/**
 * struct ib_ucq_object - a user CQ
 * @uevent: its async events
 * @comp_file: its completion channel, referenced; NULL without one
 * @comp_list: its completion events not read yet (under @comp_file's
 *	lock)
 * @comp_events_reported: its completion events read
 */
struct ib_ucq_object {
	struct ib_uevent_object		uevent;
	struct uverbs_event_file	*comp_file;
	struct list_head		comp_list;
	u32				comp_events_reported;
};

/* netlink/nldev.c: the privileged Q_Key mode, for ib_uverbs' MODIFY_QP */
bool rdma_nl_get_privileged_qkey(void);

/*
 * An open uverbsN of ib_uverbs (core/ib_uverbs/), shared with ib_core as
 * upstream shares it: rdma_user_mmap_io() and rdma_umap_priv_init(),
 * which drivers call from their mmap op, record the mapping on it.
 */
struct uverbs_device;

/**
 * struct rdma_umap_priv - a mapping of a driver's memory into a process
 * @vma: the mapping (its vm_private_data points here)
 * @list: in the file's umaps, until the mapping closes or disassociation
 *	zaps it
 * @entry: the driver's entry, referenced until then; NULL without one
 */
struct rdma_umap_priv {
	struct vm_area_struct		*vma;
	struct list_head		list;
	struct rdma_user_mmap_entry	*entry;
};

/* user_mmap.c: record a driver's mapping on its file (kernel-doc there) */
void rdma_umap_priv_init(struct rdma_umap_priv *priv,
			 struct vm_area_struct *vma,
			 struct rdma_user_mmap_entry *entry);

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
 * @comp_channels: its completion channels with an open fd (struct
 *	uverbs_event_file.list), under @uobjects_lock
 * @objects: the objects by handle (uverbs_uobj.c); its own lock, RCU
 *	readers
 * @uobjects_lock: protects @uobjects and @comp_channels
 * @uobjects: the committed objects, oldest first
 * @disassociated: the device went away under the file: every command
 *	fails with -EIO
 * @umap_lock: protects @umaps, @umaps_zapped and @disassociate_page;
 *	taken inside the mapping process's mmap_lock (the vm_ops run under
 *	it)
 * @umaps: the mappings of the driver's memory that disassociation takes
 *	away (struct rdma_umap_priv.list; rdma_user_mmap_io())
 * @umaps_zapped: the device went away: a mapping copied from now on
 *	(fork, split) is zapped instead of recorded
 * @disassociate_page: the zeroed page a zapped writable mapping faults
 *	in, shared by the file's mappings; freed with the file
 */
struct ib_uverbs_file {
	struct kref		ref;
	struct uverbs_device	*device;
	struct mutex		ucontext_lock;	/* @ucontext, @disassociated */
	struct ib_ucontext	*ucontext;
	struct uverbs_event_file *async;
	struct list_head	comp_channels;
	struct list_head	list;
	struct xarray		objects;
	spinlock_t		uobjects_lock;	/* see @uobjects_lock above */
	struct list_head	uobjects;
	bool			disassociated;
	struct mutex		umap_lock;	/* see @umap_lock above */
	struct list_head	umaps;
	bool			umaps_zapped;
	struct page		*disassociate_page;
};

#endif /* RDMA_CORE_MODULES_H */
