// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdmavt's rings in user space (uapi/rdma/rvt-abi.h): the memory of a
 * user CQ's or receive queue's ring comes from vmalloc_user() and is
 * offered to mmap() of uverbsN through an rdma_user_mmap_entry.
 *
 * The entry owns the memory: the object that made it removes the entry
 * when it goes (no new mapping), and the memory is freed with the entry's
 * last reference (rvt_mmap_free()); pages still mapped stay with the
 * mapping until user space unmaps them.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_vt.h>
#include <rdma/uverbs_ioctl.h>

#include "vt.h"

/**
 * struct rvt_mmap_entry - the ring memory of a user object
 * @rdma: the context's entry
 * @buf: the ring (vmalloc_user(), zeroed)
 */
struct rvt_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	void *buf;
};

/**
 * rvt_mmap_alloc - memory for a ring user space maps
 * @udata: the driver data of the command creating the object (its
 *	context owns the mapping)
 * @size: bytes
 * @entry: where the entry goes; rvt_mmap_remove() takes it away
 * @offset: where the offset user space passes to mmap() goes
 *
 * The memory comes from vmalloc_user(), zeroed; mmap() of the context's
 * uverbsN at *@offset for @size bytes (rounded up to pages) maps it
 * (rdmavt's mmap op).  rdmavt's own rings come from here, and so may a
 * driver's (driver_user_abi): the kernel reaches the memory by its
 * kernel address in any context.
 *
 * Context: process context, may sleep.
 * Return: the memory, or an ERR_PTR() (-ENOMEM, or the mmap table's
 * error).
 */
void *rvt_mmap_alloc(struct ib_udata *udata, size_t size,
		     struct rvt_mmap_entry **entry, u64 *offset)
{
	struct ib_ucontext *uctx =
		container_of(udata, struct uverbs_attr_bundle,
			     driver_udata)->context;
	struct rvt_mmap_entry *e;
	int ret;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return ERR_PTR(-ENOMEM);
	e->buf = vmalloc_user(size);
	if (!e->buf) {
		kfree(e);
		return ERR_PTR(-ENOMEM);
	}
	ret = rdma_user_mmap_entry_insert(uctx, &e->rdma, size);
	if (ret) {
		vfree(e->buf);
		kfree(e);
		return ERR_PTR(ret);
	}
	*entry = e;
	*offset = rdma_user_mmap_get_offset(&e->rdma);
	return e->buf;
}
EXPORT_SYMBOL(rvt_mmap_alloc);

/**
 * rvt_mmap_remove - the object of a ring went
 * @entry: the ring's entry from rvt_mmap_alloc(), or NULL
 *
 * No new mapping finds it; the memory is freed with the last mapping
 * (pages user space still maps stay with the mapping until it unmaps
 * them), so the caller must not touch it after this.
 *
 * Context: process context.
 */
void rvt_mmap_remove(struct rvt_mmap_entry *entry)
{
	if (entry)
		rdma_user_mmap_entry_remove(&entry->rdma);
}
EXPORT_SYMBOL(rvt_mmap_remove);

int rvt_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma;
	struct rvt_mmap_entry *e;
	int ret;

	rdma = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma)
		return -EINVAL;
	e = container_of(rdma, struct rvt_mmap_entry, rdma);
	ret = remap_vmalloc_range(vma, e->buf, 0);
	rdma_user_mmap_entry_put(rdma);
	return ret;
}

void rvt_mmap_free(struct rdma_user_mmap_entry *rdma)
{
	struct rvt_mmap_entry *e = container_of(rdma, struct rvt_mmap_entry,
						rdma);

	vfree(e->buf);
	kfree(e);
}
