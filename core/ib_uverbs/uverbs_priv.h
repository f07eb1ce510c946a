/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ib_uverbs's private structures.
 *
 * Lock order (outermost first):
 *   uverbs_device.disassociate_srcu (read side, every file operation)
 *   uverbs_device.files_lock
 *   ib_uverbs_file.ucontext_lock
 * Nothing of ib_uverbs is held while a driver's op runs, except the
 * SRCU read side and ucontext_lock around alloc_ucontext.
 */
#ifndef UVERBS_PRIV_H
#define UVERBS_PRIV_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/srcu.h>
#include <rdma/ib_verbs.h>

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
 * struct ib_uverbs_file - an open uverbsN
 * @ref: the file and whatever else holds it; the last put frees it
 * @device: its uverbsN (a reference on device->dev is held)
 * @ucontext_lock: serializes GET_CONTEXT and protects @ucontext against
 *	the device's disassociation
 * @ucontext: the file's context, once GET_CONTEXT made it; NULL before
 *	and after the device took it away
 * @list: in device->files while the file is open
 * @disassociated: the device went away under the file: every command
 *	fails with -EIO
 */
struct ib_uverbs_file {
	struct kref		ref;
	struct uverbs_device	*device;
	struct mutex		ucontext_lock;	/* @ucontext, @disassociated */
	struct ib_ucontext	*ucontext;
	struct list_head	list;
	bool			disassociated;
};

extern const struct file_operations uverbs_fops;

void uverbs_file_put(struct ib_uverbs_file *file);
void uverbs_disassociate_file(struct ib_uverbs_file *file);
#if IS_ENABLED(CONFIG_KUNIT)
int uverbs_check_hdr(const struct ib_uverbs_cmd_hdr *hdr,
		     const struct ib_uverbs_ex_cmd_hdr *ex_hdr, size_t count);
#endif

#endif /* UVERBS_PRIV_H */
