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

/*
 * A zeroed ring of @size bytes for a user object of @udata's context;
 * *@offset is what user space passes to mmap().  Returns the ring, or
 * an ERR_PTR() (-ENOMEM).
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

/* The object goes: no new mapping; the memory goes with the last user. */
void rvt_mmap_remove(struct rvt_mmap_entry *entry)
{
	if (entry)
		rdma_user_mmap_entry_remove(&entry->rdma);
}

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
