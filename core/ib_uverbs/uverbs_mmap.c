// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mmap() of uverbsN: the driver's mmap op maps what the page offset
 * names (struct rdma_user_mmap_entry), and every mapping gets ib_uverbs's
 * vm_ops.  A mapping of device memory (rdma_user_mmap_io()) is recorded
 * on the file (struct rdma_umap_priv, in ib_uverbs_file.umaps); when the
 * device goes, or its driver calls rdma_user_mmap_disassociate(), the
 * recorded mappings are zapped: the process keeps the address range,
 * and a touch faults in the zero page (read-only mappings) or the file's
 * one zeroed page (writable ones) instead of the device's memory.  A
 * mapping copied by fork() or split by munmap()/mprotect() gets a record
 * of its own, or is zapped at once if the device went already.
 *
 * Mappings from vmalloc() memory (rdmavt's queues, rvt_mmap()) are not
 * recorded, as upstream's software drivers': their pages stay referenced
 * by the mapping and are freed when it goes.
 *
 * Locking: umap_lock nests inside the process's mmap_lock (the vm_ops
 * run under it), so the zap walks one process at a time: it takes that
 * mm's mmap_lock for reading, then umap_lock.
 */
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "uverbs_priv.h"

static const struct vm_operations_struct uverbs_umap_ops;

/**
 * uverbs_mmap - mmap() of an open uverbsN
 * @filp: the file
 * @vma: the mapping being made
 *
 * Context: process context, the process's mmap_lock held for writing.
 * Return: what the driver's mmap op answers; -EIO once the device went,
 * -EINVAL before GET_CONTEXT, -EOPNOTSUPP for a driver without the op.
 */
int uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct ib_uverbs_file *file = filp->private_data;
	struct uverbs_device *udev = file->device;
	struct ib_ucontext *uctx;
	int idx, ret;

	idx = srcu_read_lock(&udev->disassociate_srcu);
	if (!uverbs_file_ib_dev(file)) {
		ret = -EIO;
		goto out;
	}
	uctx = ib_uverbs_get_ucontext_file(file);
	if (IS_ERR(uctx)) {
		ret = PTR_ERR(uctx);
		goto out;
	}
	if (!uctx->device->ops.mmap) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	/* before the op: rdma_user_mmap_io() relies on them */
	vma->vm_ops = &uverbs_umap_ops;
	vma->vm_private_data = NULL;
	ret = uctx->device->ops.mmap(uctx, vma);
out:
	srcu_read_unlock(&udev->disassociate_srcu, idx);
	return ret;
}

/* Drop @priv's reference on its entry, if it has one; under umap_lock. */
static void uverbs_umap_put_entry(struct rdma_umap_priv *priv)
{
	if (priv->entry) {
		rdma_user_mmap_entry_put(priv->entry);
		priv->entry = NULL;
	}
}

/* A recorded mapping was copied (fork) or split: record the copy too. */
static void uverbs_umap_open(struct vm_area_struct *vma)
{
	struct ib_uverbs_file *file = vma->vm_file->private_data;
	struct rdma_umap_priv *old = vma->vm_private_data;
	struct rdma_umap_priv *priv;

	if (!old)
		return;
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	mutex_lock(&file->umap_lock);
	if (priv && !file->umaps_zapped) {
		priv->vma = vma;
		if (old->entry) {
			kref_get(&old->entry->ref);
			priv->entry = old->entry;
		}
		vma->vm_private_data = priv;
		list_add(&priv->list, &file->umaps);
		mutex_unlock(&file->umap_lock);
		return;
	}
	mutex_unlock(&file->umap_lock);
	kfree(priv);
	/*
	 * The device went, or there is no memory to follow the copy with:
	 * it must not keep the device's pages.  Without a record a later
	 * touch gets SIGBUS.
	 */
	vma->vm_private_data = NULL;
	zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
}

static void uverbs_umap_close(struct vm_area_struct *vma)
{
	struct ib_uverbs_file *file = vma->vm_file->private_data;
	struct rdma_umap_priv *priv = vma->vm_private_data;

	if (!priv)
		return;
	/* the mapping holds the file, so the file is still here */
	mutex_lock(&file->umap_lock);
	uverbs_umap_put_entry(priv);
	list_del(&priv->list);
	mutex_unlock(&file->umap_lock);
	kfree(priv);
}

/*
 * A touch of a zapped mapping: the zero page for a read-only one, the
 * file's zeroed page for a writable one (the mapping is shared, so
 * there is no copy on write to mind).
 */
static vm_fault_t uverbs_umap_fault(struct vm_fault *vmf)
{
	struct ib_uverbs_file *file = vmf->vma->vm_file->private_data;
	vm_fault_t ret = 0;

	if (!vmf->vma->vm_private_data)
		return VM_FAULT_SIGBUS;
	if (!(vmf->vma->vm_flags & (VM_WRITE | VM_MAYWRITE))) {
		vmf->page = ZERO_PAGE(vmf->address);
		get_page(vmf->page);
		return 0;
	}
	mutex_lock(&file->umap_lock);
	if (!file->disassociate_page)
		file->disassociate_page = alloc_page(vmf->gfp_mask |
						     __GFP_ZERO);
	if (file->disassociate_page) {
		vmf->page = file->disassociate_page;
		get_page(vmf->page);
	} else {
		ret = VM_FAULT_SIGBUS;
	}
	mutex_unlock(&file->umap_lock);
	return ret;
}

static const struct vm_operations_struct uverbs_umap_ops = {
	.open = uverbs_umap_open,
	.close = uverbs_umap_close,
	.fault = uverbs_umap_fault,
};

/*
 * The first process with a mapping still recorded on @file, referenced;
 * records of processes already exiting are dropped on the way.  NULL
 * when none is left.
 */
static struct mm_struct *uverbs_umap_next_mm(struct ib_uverbs_file *file)
{
	struct rdma_umap_priv *priv;
	struct mm_struct *mm = NULL;

	mutex_lock(&file->umap_lock);
	while ((priv = list_first_entry_or_null(&file->umaps,
						struct rdma_umap_priv,
						list))) {
		mm = priv->vma->vm_mm;
		if (mmget_not_zero(mm))
			break;
		/* its exit unmaps it; the record is no longer needed */
		list_del_init(&priv->list);
		uverbs_umap_put_entry(priv);
		mm = NULL;
	}
	mutex_unlock(&file->umap_lock);
	return mm;
}

/**
 * uverbs_umap_zap - take the device's memory out of a file's mappings
 * @file: the file
 * @for_good: the device is going: copies made from now on are zapped too
 *
 * Every recorded mapping is zapped and leaves the list; it keeps its
 * record (the fault handler serves it) and drops its entry's reference,
 * so the driver's entries can be freed.
 *
 * Context: process context; no lock of the file held; takes each
 * mapping process's mmap_lock for reading, then umap_lock.
 */
void uverbs_umap_zap(struct ib_uverbs_file *file, bool for_good)
{
	struct rdma_umap_priv *priv, *next;
	struct mm_struct *mm;

	if (for_good) {
		mutex_lock(&file->umap_lock);
		file->umaps_zapped = true;
		mutex_unlock(&file->umap_lock);
	}
	while ((mm = uverbs_umap_next_mm(file))) {
		mmap_read_lock(mm);
		mutex_lock(&file->umap_lock);
		list_for_each_entry_safe(priv, next, &file->umaps, list) {
			struct vm_area_struct *vma = priv->vma;

			if (vma->vm_mm != mm)
				continue;
			list_del_init(&priv->list);
			zap_vma_ptes(vma, vma->vm_start,
				     vma->vm_end - vma->vm_start);
			uverbs_umap_put_entry(priv);
		}
		mutex_unlock(&file->umap_lock);
		mmap_read_unlock(mm);
		mmput(mm);
	}
}

/**
 * rdma_user_mmap_disassociate - take a device's memory out of user space
 * @device: the device (registered)
 *
 * Every mapping its drivers made with rdma_user_mmap_io() in any open
 * uverbsN is zapped: a touch gets zeroed memory from now on.  For a
 * driver whose device memory goes away under its users (a reset).
 * Mappings made afterwards are served again.
 *
 * Context: process context; sleeps.  Takes the uverbsN's files_lock and
 * each mapping process's mmap_lock.
 */
void rdma_user_mmap_disassociate(struct ib_device *device)
{
	struct uverbs_device *udev = uverbs_get_device(device);
	struct ib_uverbs_file *file;

	if (!udev)
		return;
	mutex_lock(&udev->files_lock);
	list_for_each_entry(file, &udev->files, list)
		uverbs_umap_zap(file, false);
	mutex_unlock(&udev->files_lock);
}
EXPORT_SYMBOL(rdma_user_mmap_disassociate);
