// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory a driver offers to user space through mmap() of uverbsN: an
 * entry per object (a queue, a doorbell page), inserted into the
 * context's table at a range of page offsets that the driver's user ABI
 * hands out (rdma_user_mmap_get_offset()), looked up by the driver's
 * mmap op, removed when the object goes.
 *
 * struct ib_ucontext.mmap_xa holds an entry at its first page offset
 * and, for an entry of more than one page, the first offset as a value
 * (xa_mk_value()) at its last one: two slots an entry whatever its
 * length (a queue of thousands of pages costs no more to insert and
 * remove than a doorbell page), and a search upward from any offset
 * meets first either an entry that starts there or later, or the end
 * of one that covers it.  Inserts are serialised (one mutex for all
 * contexts, taken before the xarray's lock: the stores may drop that
 * lock to allocate), and the entry is stored after its end marker, so
 * a lookup never finds a half-inserted entry.
 * The entry's kref
 * counts the table's reference and each lookup's; the last put takes
 * the offsets back and calls the driver's mmap_free, which frees the
 * entry (and the memory behind it, once user mappings are gone: pages
 * mapped from vmalloc_user() memory stay referenced by the mapping).
 *
 * Locking: the xarray's lock (not irq-safe: process context only)
 * protects the table and driver_removed.
 *
 * A driver that maps device memory (a doorbell page, a BAR) does so with
 * rdma_user_mmap_io(), which records the mapping on the open file
 * (rdma_umap_priv_init()): when the device goes, or the driver asks
 * (rdma_user_mmap_disassociate(), ib_uverbs), the mapping is zapped and
 * then faults in a zeroed page, so the process never touches the device
 * again.  ib_uverbs's vm_ops follow the mapping's copies and its close.
 */
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "../core_modules.h"

/* Serialises inserts: a search and its stores are one step. */
static DEFINE_MUTEX(user_mmap_insert_mutex);

/*
 * Is [@start, @last] free of entries?  If not, *@next is the first
 * offset after the range met there.  xa_lock held.
 */
static bool user_mmap_free(struct xarray *xa, unsigned long start,
			   unsigned long last, unsigned long *next)
{
	struct rdma_user_mmap_entry *e;
	unsigned long idx = start;
	void *p;

	p = xa_find(xa, &idx, U32_MAX, XA_PRESENT);
	if (!p)
		return true;
	if (xa_is_value(p)) {
		/* the end of a range from xa_to_value(p) to idx >= start */
		*next = idx + 1;
		return xa_to_value(p) > last;
	}
	e = p;
	*next = idx + e->npages;
	return idx > last;
}

/* Take @entry's slots out of the table; xa_lock held. */
static void user_mmap_erase(struct xarray *xa,
			    struct rdma_user_mmap_entry *entry)
{
	__xa_erase(xa, entry->start_pgoff);
	if (entry->npages > 1)
		__xa_erase(xa, entry->start_pgoff + entry->npages - 1);
}

/**
 * rdma_user_mmap_entry_insert_range - give an entry page offsets
 * @ucontext: the context
 * @entry: the driver's entry (embedded in its own structure)
 * @length: bytes user space will map
 * @min_pgoff: the lowest page offset it may have
 * @max_pgoff: the highest page offset it may start at
 *
 * The entry gets the lowest free range of DIV_ROUND_UP(@length,
 * PAGE_SIZE) offsets that starts within the bounds (an exact offset:
 * both the same), and one reference (the table's;
 * rdma_user_mmap_entry_remove() drops it).
 *
 * Context: process context; sleeps (allocation).
 * Return: 0; -EINVAL for no length; -ENOMEM when no range is free or
 * memory is short.
 */
int rdma_user_mmap_entry_insert_range(struct ib_ucontext *ucontext,
				      struct rdma_user_mmap_entry *entry,
				      size_t length, u32 min_pgoff,
				      u32 max_pgoff)
{
	struct xarray *xa = &ucontext->mmap_xa;
	size_t npages = DIV_ROUND_UP(length, PAGE_SIZE);
	unsigned long start = min_pgoff, last, next;
	int ret = -ENOMEM;

	if (!length || npages > U32_MAX)
		return -EINVAL;
	kref_init(&entry->ref);
	entry->ucontext = ucontext;
	entry->driver_removed = false;
	entry->npages = npages;

	mutex_lock(&user_mmap_insert_mutex);
	xa_lock(xa);
	for (;;) {
		last = start + npages - 1;
		if (start > max_pgoff || last > U32_MAX)
			goto out;
		if (user_mmap_free(xa, start, last, &next))
			break;
		start = next;
	}
	entry->start_pgoff = start;
	/*
	 * The marker first, then the entry that lookups find.  An insert
	 * may drop the lock to allocate: only removals run meanwhile, and
	 * they only free offsets.
	 */
	if (last != start) {
		ret = __xa_insert(xa, last, xa_mk_value(start), GFP_KERNEL);
		if (ret)
			goto out;
	}
	ret = __xa_insert(xa, start, entry, GFP_KERNEL);
	if (ret && last != start)
		__xa_erase(xa, last);
out:
	xa_unlock(xa);
	mutex_unlock(&user_mmap_insert_mutex);
	return ret;
}
EXPORT_SYMBOL(rdma_user_mmap_entry_insert_range);

/**
 * rdma_user_mmap_entry_insert - give an entry page offsets, anywhere
 * @ucontext: the context
 * @entry: the driver's entry
 * @length: bytes user space will map
 *
 * Context: process context; sleeps.
 * Return: as rdma_user_mmap_entry_insert_range().
 */
int rdma_user_mmap_entry_insert(struct ib_ucontext *ucontext,
				struct rdma_user_mmap_entry *entry,
				size_t length)
{
	return rdma_user_mmap_entry_insert_range(ucontext, entry, length, 0,
						 U32_MAX);
}
EXPORT_SYMBOL(rdma_user_mmap_entry_insert);

/**
 * rdma_user_mmap_entry_get_pgoff - the entry that starts at a page offset
 * @ucontext: the context
 * @pgoff: the page offset user space mapped
 *
 * Context: process context.
 * Return: the entry with a reference (rdma_user_mmap_entry_put()), or
 * NULL when none starts there or it was removed.
 */
struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get_pgoff(struct ib_ucontext *ucontext,
			       unsigned long pgoff)
{
	struct rdma_user_mmap_entry *entry;

	if (pgoff > U32_MAX)
		return NULL;
	xa_lock(&ucontext->mmap_xa);
	entry = xa_load(&ucontext->mmap_xa, pgoff);
	/* an end marker is a value, not an entry */
	if (!entry || xa_is_value(entry) || entry->start_pgoff != pgoff ||
	    entry->driver_removed ||
	    !kref_get_unless_zero(&entry->ref))
		entry = NULL;
	xa_unlock(&ucontext->mmap_xa);
	return entry;
}
EXPORT_SYMBOL(rdma_user_mmap_entry_get_pgoff);

/**
 * rdma_user_mmap_entry_get - the entry a mapping asks for
 * @ucontext: the context
 * @vma: the mapping; its length must be the entry's
 *
 * Context: process context (the driver's mmap op).
 * Return: the entry with a reference, or NULL.
 */
struct rdma_user_mmap_entry *
rdma_user_mmap_entry_get(struct ib_ucontext *ucontext,
			 struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry;

	if (!(vma->vm_flags & VM_SHARED))
		return NULL;
	entry = rdma_user_mmap_entry_get_pgoff(ucontext, vma->vm_pgoff);
	if (!entry)
		return NULL;
	if (entry->npages * PAGE_SIZE != vma->vm_end - vma->vm_start) {
		rdma_user_mmap_entry_put(entry);
		return NULL;
	}
	return entry;
}
EXPORT_SYMBOL(rdma_user_mmap_entry_get);

static void rdma_user_mmap_entry_free(struct kref *kref)
{
	struct rdma_user_mmap_entry *entry =
		container_of(kref, struct rdma_user_mmap_entry, ref);
	struct ib_ucontext *ucontext = entry->ucontext;

	xa_lock(&ucontext->mmap_xa);
	user_mmap_erase(&ucontext->mmap_xa, entry);
	xa_unlock(&ucontext->mmap_xa);
	ucontext->device->ops.mmap_free(entry);
}

/**
 * rdma_user_mmap_entry_put - drop a reference on an entry
 * @entry: the entry
 *
 * The last one gives its offsets back and calls the driver's mmap_free.
 *
 * Context: process context.
 */
void rdma_user_mmap_entry_put(struct rdma_user_mmap_entry *entry)
{
	kref_put(&entry->ref, rdma_user_mmap_entry_free);
}
EXPORT_SYMBOL(rdma_user_mmap_entry_put);

/**
 * rdma_user_mmap_entry_remove - the driver's object goes: no new mapping
 * @entry: the entry, or NULL
 *
 * Lookups no longer find it; the table's reference is dropped.
 *
 * Context: process context.
 */
void rdma_user_mmap_entry_remove(struct rdma_user_mmap_entry *entry)
{
	if (!entry)
		return;
	xa_lock(&entry->ucontext->mmap_xa);
	entry->driver_removed = true;
	xa_unlock(&entry->ucontext->mmap_xa);
	kref_put(&entry->ref, rdma_user_mmap_entry_free);
}
EXPORT_SYMBOL(rdma_user_mmap_entry_remove);

/**
 * rdma_umap_priv_init - record a mapping of a driver's memory on its file
 * @priv: the record, allocated by the caller; freed when the mapping
 *	closes
 * @vma: the mapping, being made by the driver's mmap op (its vm_file is
 *	the open uverbsN)
 * @entry: the entry it maps, referenced by the record; NULL without one
 *
 * Disassociation of the file (the device going, rdma_user_mmap_disassociate())
 * will zap the mapping.
 *
 * Context: process context, the driver's mmap op (the process's
 * mmap_lock held); takes the file's umap_lock.
 */
void rdma_umap_priv_init(struct rdma_umap_priv *priv,
			 struct vm_area_struct *vma,
			 struct rdma_user_mmap_entry *entry)
{
	struct ib_uverbs_file *ufile = vma->vm_file->private_data;

	priv->vma = vma;
	priv->entry = NULL;
	if (entry) {
		kref_get(&entry->ref);
		priv->entry = entry;
	}
	vma->vm_private_data = priv;
	mutex_lock(&ufile->umap_lock);
	list_add(&priv->list, &ufile->umaps);
	mutex_unlock(&ufile->umap_lock);
}
EXPORT_SYMBOL(rdma_umap_priv_init);

/**
 * rdma_user_mmap_io - map device memory into a process
 * @ucontext: the context of the file being mapped
 * @vma: the mapping, as the driver's mmap op got it; shared, and exactly
 *	@size bytes
 * @pfn: the first page frame of the memory
 * @size: its length in bytes
 * @prot: the page protection (pgprot_noncached(), pgprot_writecombine())
 * @entry: the entry being mapped (rdma_user_mmap_entry_get()), or NULL
 *
 * The mapping is recorded on the file, so disassociation zaps it.
 *
 * Context: process context, the driver's mmap op; sleeps.
 * Return: 0; -EINVAL for a private mapping or one whose length is not
 * @size, -ENOMEM, or -EAGAIN when the pages cannot be mapped.
 */
int rdma_user_mmap_io(struct ib_ucontext *ucontext, struct vm_area_struct *vma,
		      unsigned long pfn, unsigned long size, pgprot_t prot,
		      struct rdma_user_mmap_entry *entry)
{
	struct rdma_umap_priv *priv;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_end - vma->vm_start != size)
		return -EINVAL;
	/* only from the mmap op of the context's own file */
	if (WARN_ON(!vma->vm_file ||
		    vma->vm_file->private_data != ucontext->ufile))
		return -EINVAL;
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;
	vma->vm_page_prot = prot;
	if (io_remap_pfn_range(vma, vma->vm_start, pfn, size, prot)) {
		kfree(priv);
		return -EAGAIN;
	}
	rdma_umap_priv_init(priv, vma, entry);
	return 0;
}
EXPORT_SYMBOL(rdma_user_mmap_io);
