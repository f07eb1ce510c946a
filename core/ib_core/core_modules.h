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

#endif /* RDMA_CORE_MODULES_H */
