/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Resource tracking: every PD, CQ, QP, SRQ, MR (and later CM ID, user
 * context and counter) of a device is entered in a per-device, per-type
 * table with an ID and the name of its owner, so that the netlink
 * resource dumps can list them.
 */
#ifndef RDMA_RESTRACK_H
#define RDMA_RESTRACK_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <uapi/rdma/rdma_netlink.h>

/* Marks an entry whose driver has more to say (QP subtype). */
#define RESTRACK_DD XA_MARK_1

struct ib_device;
struct sk_buff;

/**
 * enum rdma_restrack_type - kinds of tracked objects
 * @RDMA_RESTRACK_PD: protection domain
 * @RDMA_RESTRACK_CQ: completion queue
 * @RDMA_RESTRACK_QP: queue pair
 * @RDMA_RESTRACK_CM_ID: rdma_cm identifier
 * @RDMA_RESTRACK_MR: memory region
 * @RDMA_RESTRACK_CTX: user verbs context
 * @RDMA_RESTRACK_COUNTER: statistics counter
 * @RDMA_RESTRACK_SRQ: shared receive queue
 * @RDMA_RESTRACK_MAX: number of types
 */
enum rdma_restrack_type {
	RDMA_RESTRACK_PD,
	RDMA_RESTRACK_CQ,
	RDMA_RESTRACK_QP,
	RDMA_RESTRACK_CM_ID,
	RDMA_RESTRACK_MR,
	RDMA_RESTRACK_CTX,
	RDMA_RESTRACK_COUNTER,
	RDMA_RESTRACK_SRQ,
	RDMA_RESTRACK_MAX
};

/**
 * struct rdma_restrack_entry - the tracking part of an object
 * @valid: entered in the table (between rdma_restrack_add and _del)
 * @hidden: hidden from lookups by rdma_restrack_begin_del() (core only)
 * @no_track: never enter it (internal objects of a driver or the core)
 * @kref: users of the entry; the last put completes @comp
 * @comp: lets rdma_restrack_del() wait for the users to go
 * @task: owning task of a user object, referenced
 * @kern_name: owner of a kernel object (module name)
 * @type: what the object is
 * @user: created by user space
 * @id: ID shown to user space, unique per device and type
 */
struct rdma_restrack_entry {
	bool			valid;
	bool			hidden;
	u8			no_track : 1;
	struct kref		kref;
	struct completion	comp;
	struct task_struct	*task;
	const char		*kern_name;
	enum rdma_restrack_type	type;
	bool			user;
	u32			id;
};

int rdma_restrack_count(struct ib_device *dev, enum rdma_restrack_type type,
			bool show_details);

/**
 * rdma_is_kernel_res - whether an object belongs to the kernel
 * @res: its tracking entry
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: true for a kernel object, false for a user space one.
 */
static inline bool rdma_is_kernel_res(const struct rdma_restrack_entry *res)
{
	return !res->user;
}

int __must_check rdma_restrack_get(struct rdma_restrack_entry *res);
int rdma_restrack_put(struct rdma_restrack_entry *res);
struct rdma_restrack_entry *rdma_restrack_get_byid(struct ib_device *dev,
						   enum rdma_restrack_type type,
						   u32 id);

/**
 * rdma_restrack_no_track - keep an object out of the tables
 * @res: its tracking entry, before rdma_restrack_add()
 */
static inline void rdma_restrack_no_track(struct rdma_restrack_entry *res)
{
	res->no_track = true;
}

/**
 * rdma_restrack_is_tracked - whether an object goes into the tables
 * @res: its tracking entry
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: false after rdma_restrack_no_track(), else true.
 */
static inline bool rdma_restrack_is_tracked(struct rdma_restrack_entry *res)
{
	return !res->no_track;
}

/*
 * Driver attributes of a restrack reply (core/ib_core/netlink/nldev_driver.c):
 * a driver's fill_res_*_entry() op adds them inside its RDMA_NLDEV_ATTR_DRIVER
 * nest.
 */
int rdma_nl_put_driver_u32(struct sk_buff *msg, const char *name, u32 value);
int rdma_nl_put_driver_u32_hex(struct sk_buff *msg, const char *name,
			       u32 value);
int rdma_nl_put_driver_u64(struct sk_buff *msg, const char *name, u64 value);
int rdma_nl_put_driver_u64_hex(struct sk_buff *msg, const char *name,
			       u64 value);
/* One counter (name, value) in a STAT_HWCOUNTERS nest of a reply. */
int rdma_nl_stat_hwcounter_entry(struct sk_buff *msg, const char *name,
				 u64 value);
int rdma_nl_put_driver_string(struct sk_buff *msg, const char *name,
			      const char *str);

#endif /* RDMA_RESTRACK_H */
