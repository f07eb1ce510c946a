// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dma-buf umem: a window [offset, offset + size) of a dma-buf imported for
 * a device.  A dynamic importer maps and unmaps it under the buffer's
 * reservation lock as the exporter moves the memory (move_notify); a
 * pinned one keeps it mapped until release, or until the exporter revokes
 * it (revocable variant).
 */

#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>

MODULE_IMPORT_NS(DMA_BUF);

/*
 * Narrow the exporter's mapping @sgt, in place, to the page-rounded window
 * of the umem; remember what was cut so that unmapping can restore it.
 */
static void ib_umem_dmabuf_trim(struct ib_umem_dmabuf *umem_dmabuf,
				struct sg_table *sgt)
{
	struct ib_umem *umem = &umem_dmabuf->umem;
	unsigned long start = ALIGN_DOWN(umem->address, PAGE_SIZE);
	unsigned long end = ALIGN(umem->address + umem->length, PAGE_SIZE);
	unsigned long pos = 0;
	struct scatterlist *sg;
	unsigned int nents = 0;
	int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		unsigned long len = sg_dma_len(sg);

		if (pos + len > start && pos < end)
			nents++;
		if (pos <= start && start < pos + len) {
			unsigned long cut = start - pos;

			umem_dmabuf->first_sg = sg;
			umem_dmabuf->first_sg_offset = cut;
			sg_dma_address(sg) += cut;
			sg_dma_len(sg) -= cut;
			pos += cut;
			len -= cut;
		}
		if (pos < end && end <= pos + len) {
			unsigned long cut = pos + len - end;

			umem_dmabuf->last_sg = sg;
			umem_dmabuf->last_sg_trim = cut;
			sg_dma_len(sg) -= cut;
			break;
		}
		pos += len;
	}

	umem->sgt_append.sgt.sgl = umem_dmabuf->first_sg;
	umem->sgt_append.sgt.nents = nents;
}

/**
 * ib_umem_dmabuf_map_pages - map a dma-buf umem's memory for its device
 * @umem_dmabuf: the umem
 *
 * Maps the attachment (once: a mapped umem keeps its mapping), narrows the
 * mapping to the umem's window, and waits for the exporter's kernel fences
 * so that the pages hold their data.
 *
 * Context: Process context with the dma-buf's reservation lock held;
 * sleeps.
 *
 * Return: 0, -EINVAL when the umem was revoked, -ETIMEDOUT or another
 * error from the fence wait, or the exporter's mapping error.
 */
int ib_umem_dmabuf_map_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_resv *resv = umem_dmabuf->attach->dmabuf->resv;
	struct sg_table *sgt;
	long ret;

	dma_resv_assert_held(resv);

	if (umem_dmabuf->revoked)
		return -EINVAL;

	if (!umem_dmabuf->sgt) {
		sgt = dma_buf_map_attachment(umem_dmabuf->attach,
					     DMA_BIDIRECTIONAL);
		if (IS_ERR(sgt))
			return PTR_ERR(sgt);
		ib_umem_dmabuf_trim(umem_dmabuf, sgt);
		umem_dmabuf->sgt = sgt;
	}

	/* the mapping is there; the data may still be on its way */
	ret = dma_resv_wait_timeout(resv, DMA_RESV_USAGE_KERNEL, false,
				    MAX_SCHEDULE_TIMEOUT);
	if (ret < 0)
		return ret;
	return ret ? 0 : -ETIMEDOUT;
}
EXPORT_SYMBOL(ib_umem_dmabuf_map_pages);

/**
 * ib_umem_dmabuf_unmap_pages - unmap a dma-buf umem's memory
 * @umem_dmabuf: the umem; unmapped already is fine
 *
 * Gives the exporter its scatterlist back as it made it, then unmaps it.
 *
 * Context: Process context with the dma-buf's reservation lock held;
 * sleeps.
 *
 * Return: nothing.
 */
void ib_umem_dmabuf_unmap_pages(struct ib_umem_dmabuf *umem_dmabuf)
{
	dma_resv_assert_held(umem_dmabuf->attach->dmabuf->resv);

	if (!umem_dmabuf->sgt)
		return;

	if (umem_dmabuf->first_sg) {
		sg_dma_address(umem_dmabuf->first_sg) -=
			umem_dmabuf->first_sg_offset;
		sg_dma_len(umem_dmabuf->first_sg) +=
			umem_dmabuf->first_sg_offset;
		umem_dmabuf->first_sg = NULL;
		umem_dmabuf->first_sg_offset = 0;
	}
	if (umem_dmabuf->last_sg) {
		sg_dma_len(umem_dmabuf->last_sg) += umem_dmabuf->last_sg_trim;
		umem_dmabuf->last_sg = NULL;
		umem_dmabuf->last_sg_trim = 0;
	}

	dma_buf_unmap_attachment(umem_dmabuf->attach, umem_dmabuf->sgt,
				 DMA_BIDIRECTIONAL);
	umem_dmabuf->sgt = NULL;
}
EXPORT_SYMBOL(ib_umem_dmabuf_unmap_pages);

static struct ib_umem_dmabuf *
ib_umem_dmabuf_attach(struct ib_device *device, struct device *dma_device,
		      unsigned long offset, size_t size, int fd, int access,
		      const struct dma_buf_attach_ops *ops)
{
	struct ib_umem_dmabuf *umem_dmabuf;
	struct dma_buf_attachment *attach;
	struct dma_buf *dmabuf;
	unsigned long end;
	int ret = -EINVAL;

	if (check_add_overflow(offset, (unsigned long)size, &end))
		return ERR_PTR(-EINVAL);
	if (!ops || !ops->move_notify)
		return ERR_PTR(-EINVAL);

	dmabuf = dma_buf_get(fd);
	if (IS_ERR(dmabuf))
		return ERR_CAST(dmabuf);
	if (end > dmabuf->size)
		goto err_put;

	umem_dmabuf = kzalloc(sizeof(*umem_dmabuf), GFP_KERNEL);
	if (!umem_dmabuf) {
		ret = -ENOMEM;
		goto err_put;
	}
	umem_dmabuf->umem.ibdev = device;
	umem_dmabuf->umem.length = size;
	umem_dmabuf->umem.address = offset;
	umem_dmabuf->umem.writable = ib_access_writable(access);
	umem_dmabuf->umem.is_dmabuf = 1;
	if (!ib_umem_num_pages(&umem_dmabuf->umem))
		goto err_free;

	attach = dma_buf_dynamic_attach(dmabuf, dma_device, ops, umem_dmabuf);
	if (IS_ERR(attach)) {
		ret = PTR_ERR(attach);
		goto err_free;
	}
	umem_dmabuf->attach = attach;
	return umem_dmabuf;

err_free:
	kfree(umem_dmabuf);
err_put:
	dma_buf_put(dmabuf);
	return ERR_PTR(ret);
}

/**
 * ib_umem_dmabuf_get - import a window of a dma-buf, dynamically mapped
 * @device: the device that will access the memory
 * @offset: start of the window in the buffer
 * @size: length of the window
 * @fd: the dma-buf's file descriptor
 * @access: IB_ACCESS_* flags
 * @ops: the importer's callbacks; move_notify is required
 *
 * Nothing is mapped yet: the driver calls ib_umem_dmabuf_map_pages()
 * under the reservation lock, and unmaps in move_notify.
 *
 * Context: Process context; sleeps.
 *
 * Return: the umem, or an ERR_PTR(): -EINVAL (the window wraps, passes the
 * buffer's end or is empty; no move_notify), -ENOMEM, or what
 * dma_buf_get() or dma_buf_dynamic_attach() gives.
 */
struct ib_umem_dmabuf *ib_umem_dmabuf_get(struct ib_device *device,
					  unsigned long offset, size_t size,
					  int fd, int access,
					  const struct dma_buf_attach_ops *ops)
{
	return ib_umem_dmabuf_attach(device, device->dma_device, offset, size,
				     fd, access, ops);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get);

static void ib_umem_dmabuf_pinned_move_notify(struct dma_buf_attachment *attach)
{
	struct ib_umem_dmabuf *umem_dmabuf = attach->importer_priv;

	ibdev_warn_ratelimited(umem_dmabuf->umem.ibdev,
			       "a pinned dma-buf umem was asked to move\n");
}

static const struct dma_buf_attach_ops ib_umem_dmabuf_pinned_ops = {
	.allow_peer2peer = true,
	.move_notify = ib_umem_dmabuf_pinned_move_notify,
};

/* move_notify of a revocable pinned umem, and its release: revoke once */
static void ib_umem_dmabuf_revoke_locked(struct dma_buf_attachment *attach)
{
	struct ib_umem_dmabuf *umem_dmabuf = attach->importer_priv;

	dma_resv_assert_held(attach->dmabuf->resv);

	if (umem_dmabuf->revoked)
		return;
	if (umem_dmabuf->pinned_revoke)
		umem_dmabuf->pinned_revoke(umem_dmabuf->private);
	ib_umem_dmabuf_unmap_pages(umem_dmabuf);
	if (umem_dmabuf->pinned) {
		dma_buf_unpin(attach);
		umem_dmabuf->pinned = 0;
	}
	umem_dmabuf->revoked = 1;
}

static const struct dma_buf_attach_ops ib_umem_dmabuf_revocable_ops = {
	.allow_peer2peer = true,
	.move_notify = ib_umem_dmabuf_revoke_locked,
};

/* Attach, pin and map; returns with the reservation lock held. */
static struct ib_umem_dmabuf *
ib_umem_dmabuf_pin_and_lock(struct ib_device *device,
			    struct device *dma_device, unsigned long offset,
			    size_t size, int fd, int access,
			    const struct dma_buf_attach_ops *ops)
{
	struct ib_umem_dmabuf *umem_dmabuf;
	struct dma_resv *resv;
	int ret;

	umem_dmabuf = ib_umem_dmabuf_attach(device, dma_device, offset, size,
					    fd, access, ops);
	if (IS_ERR(umem_dmabuf))
		return umem_dmabuf;

	resv = umem_dmabuf->attach->dmabuf->resv;
	dma_resv_lock(resv, NULL);
	ret = dma_buf_pin(umem_dmabuf->attach);
	if (ret)
		goto err;
	umem_dmabuf->pinned = 1;
	ret = ib_umem_dmabuf_map_pages(umem_dmabuf);
	if (ret)
		goto err;
	return umem_dmabuf;

err:
	dma_resv_unlock(resv);
	ib_umem_release(&umem_dmabuf->umem);
	return ERR_PTR(ret);
}

/**
 * ib_umem_dmabuf_get_pinned_with_dma_device - import and pin a window of
 * a dma-buf for a given DMA device
 * @device: the device that will access the memory
 * @dma_device: the device to map for (instead of @device->dma_device)
 * @offset: start of the window in the buffer
 * @size: length of the window
 * @fd: the dma-buf's file descriptor
 * @access: IB_ACCESS_* flags
 *
 * For devices that cannot follow a move: the exporter keeps the memory
 * where it is until ib_umem_release().
 *
 * Context: Process context; sleeps (takes the reservation lock).
 *
 * Return: the umem, mapped, or an ERR_PTR() as ib_umem_dmabuf_get(), or
 * from dma_buf_pin() and ib_umem_dmabuf_map_pages().
 */
struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_with_dma_device(struct ib_device *device,
					  struct device *dma_device,
					  unsigned long offset, size_t size,
					  int fd, int access)
{
	struct ib_umem_dmabuf *umem_dmabuf;

	umem_dmabuf = ib_umem_dmabuf_pin_and_lock(device, dma_device, offset,
						  size, fd, access,
						  &ib_umem_dmabuf_pinned_ops);
	if (!IS_ERR(umem_dmabuf))
		dma_resv_unlock(umem_dmabuf->attach->dmabuf->resv);
	return umem_dmabuf;
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned_with_dma_device);

/**
 * ib_umem_dmabuf_get_pinned - import and pin a window of a dma-buf
 * @device: the device that will access the memory
 * @offset: start of the window in the buffer
 * @size: length of the window
 * @fd: the dma-buf's file descriptor
 * @access: IB_ACCESS_* flags
 *
 * ib_umem_dmabuf_get_pinned_with_dma_device() for @device->dma_device.
 *
 * Context: Process context; sleeps.
 *
 * Return: as ib_umem_dmabuf_get_pinned_with_dma_device().
 */
struct ib_umem_dmabuf *ib_umem_dmabuf_get_pinned(struct ib_device *device,
						 unsigned long offset,
						 size_t size, int fd,
						 int access)
{
	return ib_umem_dmabuf_get_pinned_with_dma_device(device,
							 device->dma_device,
							 offset, size, fd,
							 access);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned);

/**
 * ib_umem_dmabuf_get_pinned_revocable_and_lock - import and pin a window
 * of a dma-buf that the exporter may take back
 * @device: the device that will access the memory
 * @offset: start of the window in the buffer
 * @size: length of the window
 * @fd: the dma-buf's file descriptor
 * @access: IB_ACCESS_* flags
 *
 * Returns with the reservation lock held: the driver sets its revoke
 * callback with ib_umem_dmabuf_set_revoke_locked() before unlocking
 * (ib_umem_dmabuf_revoke_unlock()).  From then on the callback may run at
 * any time, at most once, and at the latest from ib_umem_release(); when
 * it returns, the device must no longer touch the memory.
 *
 * Context: Process context; sleeps.
 *
 * Return: the umem, mapped and locked, or an ERR_PTR() (unlocked) as
 * ib_umem_dmabuf_get_pinned().
 */
struct ib_umem_dmabuf *
ib_umem_dmabuf_get_pinned_revocable_and_lock(struct ib_device *device,
					     unsigned long offset, size_t size,
					     int fd, int access)
{
	return ib_umem_dmabuf_pin_and_lock(device, device->dma_device, offset,
					   size, fd, access,
					   &ib_umem_dmabuf_revocable_ops);
}
EXPORT_SYMBOL(ib_umem_dmabuf_get_pinned_revocable_and_lock);

/**
 * ib_umem_dmabuf_set_revoke_locked - set the revoke callback
 * @umem_dmabuf: a umem of ib_umem_dmabuf_get_pinned_revocable_and_lock()
 * @revoke: called with @priv when the memory is revoked
 * @priv: its argument
 *
 * Context: Process context with the reservation lock held.
 *
 * Return: nothing.
 */
void ib_umem_dmabuf_set_revoke_locked(struct ib_umem_dmabuf *umem_dmabuf,
				      void (*revoke)(void *priv), void *priv)
{
	dma_resv_assert_held(umem_dmabuf->attach->dmabuf->resv);

	umem_dmabuf->pinned_revoke = revoke;
	umem_dmabuf->private = priv;
}
EXPORT_SYMBOL(ib_umem_dmabuf_set_revoke_locked);

/**
 * ib_umem_dmabuf_revoke_lock - take a dma-buf umem's reservation lock
 * @umem_dmabuf: the umem
 *
 * Context: Process context; sleeps.
 *
 * Return: nothing.
 */
void ib_umem_dmabuf_revoke_lock(struct ib_umem_dmabuf *umem_dmabuf)
{
	dma_resv_lock(umem_dmabuf->attach->dmabuf->resv, NULL);
}
EXPORT_SYMBOL(ib_umem_dmabuf_revoke_lock);

/**
 * ib_umem_dmabuf_revoke_unlock - release a dma-buf umem's reservation lock
 * @umem_dmabuf: the umem
 *
 * Context: Process context, the lock held.
 *
 * Return: nothing.
 */
void ib_umem_dmabuf_revoke_unlock(struct ib_umem_dmabuf *umem_dmabuf)
{
	dma_resv_unlock(umem_dmabuf->attach->dmabuf->resv);
}
EXPORT_SYMBOL(ib_umem_dmabuf_revoke_unlock);

/**
 * ib_umem_dmabuf_revoke - revoke a dma-buf umem now
 * @umem_dmabuf: the umem
 *
 * Runs the revoke callback (if any, and if not run yet), unmaps and
 * unpins.  Revoking twice is fine.
 *
 * Context: Process context; sleeps (takes the reservation lock).
 *
 * Return: nothing.
 */
void ib_umem_dmabuf_revoke(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_resv *resv = umem_dmabuf->attach->dmabuf->resv;

	dma_resv_lock(resv, NULL);
	ib_umem_dmabuf_revoke_locked(umem_dmabuf->attach);
	dma_resv_unlock(resv);
}
EXPORT_SYMBOL(ib_umem_dmabuf_revoke);

/**
 * ib_umem_dmabuf_release - free a dma-buf umem
 * @umem_dmabuf: the umem; ib_umem_release() calls this
 *
 * Revokes (unmaps, unpins), detaches and drops the buffer.
 *
 * Context: Process context; sleeps.
 *
 * Return: nothing.
 */
void ib_umem_dmabuf_release(struct ib_umem_dmabuf *umem_dmabuf)
{
	struct dma_buf *dmabuf = umem_dmabuf->attach->dmabuf;

	ib_umem_dmabuf_revoke(umem_dmabuf);
	dma_buf_detach(dmabuf, umem_dmabuf->attach);
	dma_buf_put(dmabuf);
	kfree(umem_dmabuf);
}
EXPORT_SYMBOL(ib_umem_dmabuf_release);
